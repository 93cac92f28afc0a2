/**
 * Sending IPs' options (docs/deliverability.md#sending-ips): `[ip_pools.<name>]` and `[shaping.<provider>]`, named
 * tables like `[providers.<name>]`, and the destination providers known without configuration.
 */
import { duration, int, stringList, type OptionSpec } from "./option-kinds.ts";

/**
 * `[ip_pools.<name>]` (docs/deliverability.md): source addresses direct delivery binds for the domains that name the pool, and
 * their warm-up, and the organisations it is open to. Named tables, like `[providers.<name>]`.
 */
export const IP_POOL_OPTIONS = {
  addresses: stringList(
    [],
    'Source addresses of this machine the pool sends from, round-robin, e.g. ["203.0.113.5", "203.0.113.6"]; each must be bound to an interface here; the domains\' suggested SPF records list them.',
  ),
  ehlo_names: stringList(
    [],
    "EHLO name of each address, in the order of addresses: its PTR name, which receivers compare; empty: [mx] ehlo_name.",
  ),
  warmup: duration(
    "30d",
    "Warm-up: from an address's first use, its daily volume per destination provider is capped at 50 on day 1, doubling daily, and uncapped after this; mail over the cap waits as deferred until the next UTC day. 0s: no warm-up.",
  ),
  organizations: stringList(
    [],
    "Ids of the organisations whose domains may send from this pool, e.g. a dedicated pool for one customer; only they see it in GET /v1/ip-pools, and another's domain naming it is refused (its mail already there leaves from the default address). Empty: every organisation.",
  ),
} satisfies Record<string, OptionSpec>;

/**
 * `[shaping.<provider>]` (docs/deliverability.md): a destination provider recognised by its MX hosts, and how hard direct
 * delivery through an IP pool may push it, per source address. Built-in: gmail, outlook, yahoo (a table of the same
 * name replaces one); other destinations take `[shaping.other]`'s limits or the defaults here.
 */
export const SHAPING_OPTIONS = {
  mx: stringList([], 'MX host patterns of the provider: a host, or "*." and a domain, e.g. ["*.google.com"].'),
  connections: int(4, 1, 1000, "Connections open at once per source address."),
  messages_per_connection: int(100, 1, 100_000, "Messages sent over one connection before it is closed."),
  messages_per_minute: int(
    600,
    1,
    1_000_000,
    "Messages per minute per source address; a 421 or a 4.7.x reply that speaks of rate or trying again later halves it for an hour.",
  ),
} satisfies Record<string, OptionSpec>;

/** The destination providers known without configuration, by their MX hosts. */
export const BUILT_IN_SHAPING: Record<string, readonly string[]> = {
  gmail: ["*.google.com", "*.googlemail.com"],
  outlook: ["*.outlook.com", "*.protection.outlook.com", "*.hotmail.com"],
  yahoo: ["*.yahoodns.net", "*.yahoo.com"],
};
