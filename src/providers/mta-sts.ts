/**
 * MTA-STS (RFC 8461) for direct delivery: a recipient domain's policy — discovered by its `_mta-sts` TXT record,
 * fetched over https from `mta-sts.<domain>` with the certificate checked — says which MX hosts may receive its
 * mail and that they must offer TLS with a valid certificate.
 *
 * - Cache: a policy is kept for its max_age and fetched again only when the TXT record's id changes (§3.3, §5.1);
 *   while a cached policy is valid, a missing TXT record or a failed fetch does not remove it (a downgrade attack
 *   would look exactly like that). The cache is the store's (`shared`: every instance, across restarts), with
 *   this instance's memory in front of it.
 * - Fetch: https only, the guarded address (no private ones unless allowed, no second lookup), no redirects (§3.3),
 *   at most 64 KiB read (the stream is cancelled there, whatever the server sends), a short timeout that covers the
 *   body too. A domain whose policy cannot be fetched and was never cached is delivered to as one without MTA-STS (§5).
 * Invariant: nothing here refuses mail; the MX provider applies the policy (mx.ts).
 */
import { readCappedText } from "../lib/capped-body.ts";
import type { Clock } from "../lib/clock.ts";
import { isNotFound, type DnsResolver } from "../lib/dns.ts";
import { pinnedRequest, type EndpointGuard } from "../lib/endpoint-guard.ts";
import type { Logger } from "../lib/logger.ts";

export interface MtaStsPolicy {
  mode: "enforce" | "testing" | "none";
  /** MX patterns: a host name, or `*.` and a domain (one more label). */
  mx: string[];
  maxAgeSeconds: number;
}

export interface MtaSts {
  /** The policy in force for a recipient domain; null when it has none. */
  policyFor(domain: string): Promise<MtaStsPolicy | null>;
}

/** A policy as cached: the TXT record id it was fetched under, and until when it holds (ms). */
export interface CachedPolicy {
  id: string;
  policy: MtaStsPolicy;
  expiresAt: number;
}

/** The cache every instance shares (mta-sts-store.ts). */
export interface SharedPolicyCache {
  get(domain: string): Promise<CachedPolicy | undefined>;
  put(domain: string, entry: CachedPolicy): Promise<void>;
}

export interface MtaStsOptions {
  resolver: DnsResolver;
  shared?: SharedPolicyCache;
  guard: EndpointGuard;
  clock: Clock;
  logger: Logger;
  fetchTimeoutMs: number;
  /** TEST ONLY: the port policies are fetched from (443 by the RFC). */
  port: number;
  /** TEST ONLY: extra CA certificates (PEM) trusted for policy servers. */
  ca?: string;
}

const MAX_POLICY_BYTES = 64 * 1024;
/** RFC 8461 §3.2: max_age is at most a year. */
const MAX_AGE_LIMIT = 31_557_600;
const CACHE_SIZE = 10_000;

/** A policy file (§3.2), or why it is not one. */
export function parsePolicy(text: string): MtaStsPolicy | { error: string } {
  const fields = new Map<string, string[]>();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim();
    fields.set(key, [...(fields.get(key) ?? []), line.slice(colon + 1).trim()]);
  }
  const one = (key: string) => fields.get(key)?.[0];
  if (one("version") !== "STSv1") return { error: "version is not STSv1" };
  const mode = one("mode");
  if (mode !== "enforce" && mode !== "testing" && mode !== "none")
    return { error: `mode "${mode ?? ""}" is not enforce, testing or none` };
  const maxAge = Number(one("max_age"));
  if (!/^\d{1,10}$/.test(one("max_age") ?? "") || maxAge > MAX_AGE_LIMIT)
    return { error: "max_age is not a number of seconds up to a year" };
  const mx = (fields.get("mx") ?? []).map((pattern) => pattern.toLowerCase().replace(/\.$/, ""));
  if (mode !== "none" && mx.length === 0) return { error: "no mx patterns" };
  return { mode, mx, maxAgeSeconds: maxAge };
}

/** §4.1: `*.example.com` matches one label more (mx1.example.com, not a.b.example.com nor example.com). */
export function mxMatches(pattern: string, host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  if (!pattern.startsWith("*.")) return name === pattern;
  const suffix = pattern.slice(1);
  return name.endsWith(suffix) && !name.slice(0, -suffix.length).includes(".") && name.length > suffix.length;
}

export function createMtaSts(options: MtaStsOptions): MtaSts {
  const { resolver, guard, clock, logger } = options;
  const cache = new Map<string, CachedPolicy>();

  /** The id of the domain's one `v=STSv1` TXT record; null when there is none; undefined when DNS failed. */
  const txtId = async (domain: string): Promise<string | null | undefined> => {
    let records: string[][];
    try {
      records = await resolver.resolveTxt(`_mta-sts.${domain}`);
    } catch (error) {
      return isNotFound(error) ? null : undefined;
    }
    const sts = records.map((chunks) => chunks.join("")).filter((record) => /^v=STSv1\s*(;|$)/.test(record));
    if (sts.length !== 1) return null;
    return /(?:^|;)\s*id=([A-Za-z0-9]{1,32})\s*(?:;|$)/.exec(sts[0]!)?.[1] ?? null;
  };

  const fetchPolicy = async (domain: string): Promise<MtaStsPolicy> => {
    const url = guard.parse(
      `https://mta-sts.${domain}${options.port === 443 ? "" : `:${options.port}`}/.well-known/mta-sts.txt`,
    );
    const request = pinnedRequest(await guard.resolve(url));
    const response = await fetch(request.url, {
      headers: { host: request.host },
      redirect: "error",
      proxy: false,
      signal: AbortSignal.timeout(options.fetchTimeoutMs),
      tls: { serverName: request.serverName, ...(options.ca && { ca: options.ca }) },
    } as RequestInit);
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => {});
      throw new Error(`the policy server answered ${response.status}`);
    }
    // Counted as it arrives: a policy server that streams without end is cut off at the cap (RFC 8461 §3.3).
    const parsed = parsePolicy(await readCappedText(response, MAX_POLICY_BYTES));
    if ("error" in parsed) throw new Error(`the policy is not valid: ${parsed.error}`);
    return parsed;
  };

  const remember = (domain: string, entry: CachedPolicy) => {
    cache.delete(domain);
    cache.set(domain, entry);
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  };

  return {
    async policyFor(domain) {
      const now = clock.now();
      let cached = cache.get(domain);
      if (!cached && options.shared) {
        cached = await options.shared.get(domain);
        if (cached) remember(domain, cached);
      }
      const valid = cached && cached.expiresAt > now ? cached : undefined;
      const id = await txtId(domain);
      if (!id) return valid?.policy ?? null;
      if (valid && valid.id === id) return valid.policy;
      try {
        const policy = await fetchPolicy(domain);
        const entry = { id, policy, expiresAt: now + policy.maxAgeSeconds * 1000 };
        remember(domain, entry);
        await options.shared?.put(domain, entry).catch((error: unknown) =>
          logger.warn("MTA-STS policy not kept in the store; this instance keeps it in memory", {
            domain,
            error: (error as Error).message,
          }),
        );
        return policy;
      } catch (error) {
        logger.warn("MTA-STS policy could not be fetched", {
          domain,
          error: (error as Error).message,
          using: valid ? "cached policy" : "none",
        });
        return valid?.policy ?? null;
      }
    },
  };
}
