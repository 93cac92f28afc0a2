/**
 * The one DNS resolver of the process. Every lookup Mailroom makes (MX, TXT for verification, A/AAAA for webhook
 * endpoints, reverse lookups of SMTP clients) goes through the resolver built here from `[dns] servers`, so tests
 * can point all of it at a server on loopback. Invariant: no module calls `node:dns` lookups directly.
 */
import { promises as dns } from "node:dns";

export type DnsResolver = dns.Resolver;

/** A resolver using `servers` (`ip` or `ip:port`, `[v6]:port`); the system's servers when the list is empty. */
export function createResolver(servers: readonly string[], options: { timeoutMs?: number; tries?: number } = {}): DnsResolver {
  const resolver = new dns.Resolver({ timeout: options.timeoutMs ?? 5000, tries: options.tries ?? 2 });
  if (servers.length) resolver.setServers([...servers]);
  return resolver;
}
