/**
 * What sending asks of a domain, once per message or delivery: who may send from it, its DKIM identity, the
 * providers it names and its tracking defaults; which domains own a tracking host; and whether the MX receives for it.
 * Invariants: a live key sends only from a domain of its organisation that is verified, or in its 72 h
 * `temporary_failure` grace; a test key may send from any domain; a key restricted to named domains sends from
 * those only. A tracking host is owned by the organisations' domains whose tracking record for it was found — each
 * organisation's own row, as several may have added the same name. The answers come from memory
 * (db/read-cache.ts): every write to a domain or its DKIM keys notifies POLICY_CHANGED, which drops them on every
 * instance once it commits.
 */
import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { Actor } from "../access.ts";
import type { IpPoolConfig } from "../config/options.ts";
import { POLICY_CHANGED, policyCache } from "../db/read-cache.ts";
import { first, tablesOf, type Db, type Store } from "../db/store.ts";
import { AppError } from "../errors.ts";
import type { Clock } from "../lib/clock.ts";
import type { SecretBox } from "../lib/secrets.ts";
import { poolOpenTo } from "../providers/sending-ips.ts";
import type { DomainStatus } from "./model.ts";
import { trackingHost } from "./records.ts";
import { activeKey, ed25519Key, findByName, type DomainRow } from "./repo.ts";

/** Statuses from which mail may be sent: verified, or verified once and a record missing for less than 72 h. */
const SENDABLE: ReadonlySet<string> = new Set<DomainStatus>(["verified", "temporary_failure"]);
/** Domains (and signing identities) kept in memory. */
const CACHED_DOMAINS = 10_000;

/** What the signer needs to sign mail from a domain and to give it a return path there. */
export interface SigningIdentity {
  domain: string;
  selector: string;
  /** PKCS#8 PEM, opened from the sealed store value. */
  privateKeyPem: string;
  /** `<return-path subdomain>.<domain>`. */
  returnPathDomain: string;
  /** The domain's Ed25519 key (RFC 8463), once its record was found: a second signature beside the RSA one. */
  ed25519?: { selector: string; privateKeyPem: string };
  /** The domain's TLS policy for direct delivery (docs/deliverability.md). */
  tls: "opportunistic" | "enforced";
  /** The IP pool direct delivery of its mail sends from (docs/deliverability.md). */
  ipPool: string | null;
}

export interface SendPolicy {
  /** The active key of the organisation's `domain`, or null when it has none (not an org domain). */
  signingIdentity(organizationId: string, domain: string): Promise<SigningIdentity | null>;
  /** Throws unless `actor` may send with a From address on `domain` (lower-case punycode). */
  assertMaySendFrom(actor: Actor, domain: string): Promise<void>;
  /** The providers the organisation's `domain` names, in order (empty: the default; also for unknown domains). */
  providersOf(organizationId: string, domain: string | null): Promise<readonly string[]>;
  /** The domain's open/click tracking defaults (off for unknown domains, e.g. test-mode sends). */
  trackingDefaults(
    organizationId: string,
    domain: string,
  ): Promise<{ opens: boolean; clicks: boolean /** The tracking host, once its CNAME was found. */; host?: string }>;
  /** Whether `host` (lower case, no port) is a domain's tracking host whose CNAME was found (docs/deliverability.md). */
  isTrackingHost(host: string): Promise<boolean>;
  /**
   * The sending domains whose tracking host `host` is, CNAME found, as `trackingOwner(organization, domain)`: every
   * organisation's row of that name that asked for it; undefined when `host` is no domain's tracking host.
   */
  trackingHostOwners(host: string): Promise<ReadonlySet<string> | undefined>;
  /**
   * Whether the inbound MX takes mail for `domain` (lower-case punycode): `receiving` with the owning organisation
   * when receiving is on and the domain is proven its owner's (verified, or its Inbound MX record found);
   * `off` when it is a domain here that does not receive; `unknown` otherwise.
   */
  receivingState(
    domain: string,
  ): Promise<{ state: "receiving" | "off"; organizationId: string } | { state: "unknown" }>;
  /**
   * The domain whose DMARC reports `dmarc@<returnPathDomain>` receives (docs/deliverability.md): a verified domain of some
   * organisation with that return path; null when there is none.
   */
  dmarcReportDomain(returnPathDomain: string): Promise<string | null>;
}

/** How `trackingHostOwners` names a sending domain: the organisation's own, since several may add one name. */
export const trackingOwner = (organizationId: string, domain: string) => `${organizationId}|${domain.toLowerCase()}`;

/** The send-time answers. */
export function createSendPolicy(deps: {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  listen?: Store["listen"];
  /** The `[ip_pools.<name>]`: a domain's pool is used only while it is open to the domain's organisation. */
  pools?: Readonly<Record<string, Pick<IpPoolConfig, "organizations">>>;
}): SendPolicy {
  const { db, secrets } = deps;
  const { domains } = tablesOf(db);
  const rows = policyCache<DomainRow | undefined>(deps, POLICY_CHANGED, CACHED_DOMAINS);
  const identities = policyCache<SigningIdentity | null>(deps, POLICY_CHANGED, CACHED_DOMAINS);
  // Asked on every HTTP request with a named Host: the verified tracking hosts, all of them in one map (one per
  // domain at most) to their owners, so that a client sending made-up Host names costs a look-up, never a read of
  // the store.
  const trackingHosts = policyCache<Map<string, Set<string>>>(deps, POLICY_CHANGED, 1);
  const trackingHostMap = () =>
    trackingHosts.get("all", async () => {
      const rows = await db
        .select({
          organizationId: domains.organizationId,
          name: domains.name,
          sub: domains.trackingSubdomain,
          statuses: domains.recordStatuses,
        })
        .from(domains)
        .where(isNotNull(domains.trackingSubdomain));
      const hosts = new Map<string, Set<string>>();
      for (const row of rows.filter((candidate) => candidate.statuses.tracking?.status === "verified")) {
        const host = trackingHost(row.sub!, row.name);
        hosts.set(host, (hosts.get(host) ?? new Set()).add(trackingOwner(row.organizationId, row.name)));
      }
      return hosts;
    });
  const domainRow = (organizationId: string, domain: string) =>
    rows.get(`${organizationId}|${domain}`, () => findByName(db, organizationId, domain));

  return {
    signingIdentity: (organizationId, domain) =>
      identities.get(`${organizationId}|${domain}`, async () => {
        const row = await domainRow(organizationId, domain);
        const key = row && (await activeKey(db, row.id));
        if (!row || !key) return null;
        // Signed with only once receivers can find its key: a signature they cannot verify is a failure in every
        // DMARC report about the domain.
        const ed25519 = await ed25519Key(db, row.id);
        const published = ed25519 && row.recordStatuses[`dkim:${ed25519.selector}`]?.status === "verified";
        return {
          domain: row.name,
          selector: key.selector,
          privateKeyPem: secrets.open(key.privateKey),
          returnPathDomain: `${row.returnPathSubdomain}.${row.name}`,
          tls: row.tlsPolicy,
          // A pool the operator has since closed to the organisation (or removed) is not used: the default address is.
          ipPool: row.ipPool && poolOpenTo(deps.pools?.[row.ipPool], organizationId) ? row.ipPool : null,
          ...(published && {
            ed25519: { selector: ed25519.selector, privateKeyPem: secrets.open(ed25519.privateKey) },
          }),
        };
      }),

    async assertMaySendFrom(actor, domain) {
      if (actor.domains && !actor.domains.some((allowed) => allowed === domain)) {
        throw new AppError("insufficient_scope", `This API key may send only from ${actor.domains.join(", ")}.`);
      }
      if (actor.mode === "test") return;
      const row = await domainRow(actor.organizationId, domain);
      if (!row || !SENDABLE.has(row.status)) {
        throw new AppError(
          "domain_not_verified",
          `The domain ${domain} is not verified. Add it and publish its DNS records, or send with a test key.`,
        );
      }
    },

    async providersOf(organizationId, domain) {
      return domain ? ((await domainRow(organizationId, domain))?.providers ?? []) : [];
    },

    async trackingDefaults(organizationId, domain) {
      const row = await domainRow(organizationId, domain);
      if (!row) return { opens: false, clicks: false };
      const host =
        row.trackingSubdomain && row.recordStatuses.tracking?.status === "verified"
          ? trackingHost(row.trackingSubdomain, row.name)
          : undefined;
      return { opens: row.openTracking, clicks: row.clickTracking, ...(host && { host }) };
    },

    isTrackingHost: async (host) => (await trackingHostMap()).has(host),
    trackingHostOwners: async (host) => (await trackingHostMap()).get(host),

    async receivingState(domain) {
      // Several organisations may send from a name, but only one receives for it (docs/teams.md).
      const row =
        (await first(
          db
            .select()
            .from(domains)
            .where(and(eq(domains.name, domain), eq(domains.receivingEnabled, true))),
        )) ?? (await first(db.select().from(domains).where(eq(domains.name, domain))));
      if (!row) return { state: "unknown" };
      // A name any organisation could add is not yet theirs: DKIM and SPF found, or the MX found, prove it.
      const owned = SENDABLE.has(row.status) || row.recordStatuses.inbound?.status === "verified";
      return { state: row.receivingEnabled && owned ? "receiving" : "off", organizationId: row.organizationId };
    },

    async dmarcReportDomain(returnPathDomain) {
      const dot = returnPathDomain.indexOf(".");
      if (dot <= 0) return null;
      const row = await first(
        db
          .select({ name: domains.name })
          .from(domains)
          .where(
            and(
              eq(domains.name, returnPathDomain.slice(dot + 1)),
              eq(domains.returnPathSubdomain, returnPathDomain.slice(0, dot)),
              inArray(domains.status, [...SENDABLE]),
            ),
          ),
      );
      return row?.name ?? null;
    },
  };
}
