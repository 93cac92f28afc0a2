/**
 * Which IP addresses are public. One rule for every outbound connection Mailroom makes on a user's behalf
 * (webhook endpoints, recipients' MX hosts): only public unicast is reachable unless configuration allows more.
 */
import ipaddr from "ipaddr.js";

/** Why an address is refused, or null when it is public unicast. */
export function refusedRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return "not an IP address";
  // ipaddr.process turns an IPv4-mapped IPv6 address (::ffff:10.0.0.1) into the IPv4 address it carries.
  const range = ipaddr.process(address).range();
  return range === "unicast" ? null : range;
}
