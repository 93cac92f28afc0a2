/**
 * The SSRF guard for URLs Mailroom fetches on someone else's word — webhook endpoints, MTA-STS policies of
 * recipient domains. An endpoint is an https URL whose name resolves — through the one
 * configured resolver (src/lib/dns.ts), never the system's — only to public unicast addresses: loopback, RFC 1918
 * private, link-local (169.254.0.0/16, which holds the cloud metadata service), CGNAT (RFC 6598), unique-local,
 * multicast, documentation, NAT64/6to4/Teredo tunnels and other special ranges are refused. Every address the name
 * has must pass, so a name cannot hide a private address behind a public one.
 *
 * Invariant: the check happens at creation and again before every delivery, and the request then goes to the
 * address that was checked (`pinnedRequest`) — never to a second lookup that could answer differently (DNS
 * rebinding). With `allow_private_networks` the address rules are off and plain http is accepted: that setting
 * declares a trusted network (a local receiver, tests), where both are normal.
 */
import ipaddr from "ipaddr.js";
import { isNotFound, type DnsResolver } from "./dns.ts";
import { refusedRange } from "./ip-ranges.ts";

export class EndpointRefused extends Error {
  constructor(
    /** Safe to show to the endpoint's owner: it speaks of their URL and its addresses only. */
    readonly reason: string,
  ) {
    super(reason);
    this.name = "EndpointRefused";
  }
}

export interface PinnedTarget {
  url: URL;
  /** The checked address the request connects to. */
  address: string;
}

export interface EndpointGuard {
  /** Checks the URL's form (scheme, no credentials, a host); returns it normalised. Throws EndpointRefused. */
  parse(raw: string): URL;
  /** Resolves and checks the endpoint's addresses; returns the one to connect to. Throws EndpointRefused. */
  resolve(url: URL): Promise<PinnedTarget>;
}

const MAX_URL_LENGTH = 2048;

/** The bare address of a URL host that is an IP literal (`[::1]` → `::1`), else null. */
function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : null;
}

const RANGE_WORDS: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private address",
  linkLocal: "a link-local address (cloud metadata lives there)",
  carrierGradeNat: "a carrier-grade NAT address",
  uniqueLocal: "a unique-local address",
  unspecified: "an unspecified address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  reserved: "a reserved or documentation address",
};

function describe(address: string, range: string): string {
  return `${address} is ${RANGE_WORDS[range] ?? `a special-purpose address (${range})`}`;
}

/** `hint` ends a refusal of a non-public address: what the endpoint is and the setting that allows it. */
export function createEndpointGuard(deps: {
  resolver: DnsResolver;
  allowPrivateNetworks: boolean;
  hint: string;
}): EndpointGuard {
  const { resolver, allowPrivateNetworks, hint } = deps;

  const check = (address: string) => {
    if (allowPrivateNetworks) return;
    const range = refusedRange(address);
    if (range) throw new EndpointRefused(`${describe(address, range)}; ${hint}`);
  };

  const lookup = async (host: string): Promise<string[]> => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
    const addresses: string[] = [];
    for (const result of [v4, v6]) {
      if (result.status === "fulfilled") addresses.push(...result.value);
      else if (!isNotFound(result.reason))
        throw new EndpointRefused(
          `${host} could not be resolved (${(result.reason as { code?: string }).code ?? "DNS error"}); try again later`,
        );
    }
    if (!addresses.length) throw new EndpointRefused(`${host} has no A or AAAA record`);
    return addresses;
  };

  return {
    parse(raw) {
      if (raw.length > MAX_URL_LENGTH) throw new EndpointRefused(`the URL is longer than ${MAX_URL_LENGTH} characters`);
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        throw new EndpointRefused("not a valid URL");
      }
      if (url.protocol !== "https:" && !(allowPrivateNetworks && url.protocol === "http:")) {
        // Plain http is what a local receiver speaks: say which setting takes it.
        throw new EndpointRefused(
          allowPrivateNetworks ? "the URL must use https or http" : `the URL must use https; ${hint}`,
        );
      }
      if (url.username || url.password) throw new EndpointRefused("the URL must not carry a user name or password");
      if (!url.hostname) throw new EndpointRefused("the URL has no host");
      url.hash = "";
      const host = url.hostname.toLowerCase();
      // RFC 6761 §6.3: localhost names are loopback whatever DNS says.
      if (!allowPrivateNetworks && (host === "localhost" || host.endsWith(".localhost")))
        throw new EndpointRefused(`${host} is a loopback name; ${hint}`);
      const literal = literalAddress(host);
      if (literal) check(literal);
      return url;
    },

    async resolve(url) {
      const host = url.hostname;
      const literal = literalAddress(host);
      if (literal) {
        check(literal);
        return { url, address: literal };
      }
      const addresses = await lookup(host);
      for (const address of addresses) check(address);
      return { url, address: addresses[0]! };
    },
  };
}

/**
 * The request URL and options that connect to `target.address` while the server sees the endpoint's own name:
 * `Host` carries it, and TLS sends it as SNI and verifies the certificate against it.
 */
export function pinnedRequest(target: PinnedTarget): { url: string; host: string; serverName?: string } {
  const { url, address } = target;
  const pinned = new URL(url.href);
  pinned.hostname = address.includes(":") ? `[${address}]` : address;
  const literal = literalAddress(url.hostname) !== null;
  return { url: pinned.href, host: url.host, serverName: literal ? undefined : url.hostname };
}
