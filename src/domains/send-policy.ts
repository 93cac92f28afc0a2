/**
 * What sending asks of a domain, once per message or delivery: who may send from it, its DKIM identity, the
 * providers it names and its tracking defaults; and whether the MX receives for it.
 * Invariants: a live key sends only from a domain of its organisation that is verified, or in its 72 h
 * `temporary_failure` grace; a test key may send from any domain; a key restricted to named domains sends from
 * those only. Cached answers (opened keys, providers) are forgotten at once when this instance changes a domain,
 * and the providers of a change made by another instance are seen within ROUTE_CACHE_MS.
 */
import { and, eq } from "drizzle-orm";
import type { Actor } from "../access.ts";
import { first, tablesOf, type Db } from "../db/store.ts";
import { AppError } from "../errors.ts";
import type { Clock } from "../lib/clock.ts";
import type { SecretBox } from "../lib/secrets.ts";
import type { DomainStatus } from "./model.ts";
import { activeKey, findByName } from "./repo.ts";

/** Statuses from which mail may be sent: verified, or verified once and a record missing for less than 72 h. */
const SENDABLE: ReadonlySet<string> = new Set<DomainStatus>(["verified", "temporary_failure"]);
/** How long a domain's providers are kept for routing, and for how many domains. */
const ROUTE_CACHE_MS = 5_000;
const ROUTE_CACHE_SIZE = 10_000;

/** What the signer needs to sign mail from a domain and to give it a return path there. */
export interface SigningIdentity {
  domain: string;
  selector: string;
  /** PKCS#8 PEM, opened from the sealed store value. */
  privateKeyPem: string;
  /** `<return-path subdomain>.<domain>`. */
  returnPathDomain: string;
}

export interface SendPolicy {
  /** The active key of the organisation's `domain`, or null when it has none (not an org domain). */
  signingIdentity(organizationId: string, domain: string): Promise<SigningIdentity | null>;
  /** Throws unless `actor` may send with a From address on `domain` (lower-case punycode). */
  assertMaySendFrom(actor: Actor, domain: string): Promise<void>;
  /** The providers the organisation's `domain` names, in order (empty: the default; also for unknown domains). */
  providersOf(organizationId: string, domain: string | null): Promise<readonly string[]>;
  /** The domain's open/click tracking defaults (off for unknown domains, e.g. test-mode sends). */
  trackingDefaults(organizationId: string, domain: string): Promise<{ opens: boolean; clicks: boolean }>;
  /**
   * Whether the inbound MX takes mail for `domain` (lower-case punycode): `receiving` with the owning organisation
   * when receiving is on and the domain is proven its owner's (verified, or its Inbound MX record found);
   * `off` when it is a domain here that does not receive; `unknown` otherwise.
   */
  receivingState(
    domain: string,
  ): Promise<{ state: "receiving" | "off"; organizationId: string } | { state: "unknown" }>;
}

/** The send-time answers, and `forget` for the service to call when it changes or removes a domain. */
export function createSendPolicy(deps: { db: Db; clock: Clock; secrets: SecretBox }): SendPolicy & {
  forget(row: { organizationId: string; name: string }): void;
} {
  const { db, clock, secrets } = deps;
  const { domains } = tablesOf(db);
  const openedKeys = new Map<string, string>();
  /**
   * Each domain's providers as the router asks for them, once per delivery: kept briefly. A change made here
   * clears its entry at once; one made by another instance sharing the store is seen within ROUTE_CACHE_MS.
   */
  const routes = new Map<string, { providers: string[]; until: number }>();
  const forgetRoute = (row: { organizationId: string; name: string }) =>
    routes.delete(`${row.organizationId}|${row.name}`);

  return {
    forget(row) {
      forgetRoute(row);
      openedKeys.clear();
    },

    async signingIdentity(organizationId, domain) {
      const row = await findByName(db, organizationId, domain);
      if (!row) return null;
      const key = await activeKey(db, row.id);
      if (!key) return null;
      let pem = openedKeys.get(key.id);
      if (!pem) {
        pem = secrets.open(key.privateKey);
        openedKeys.set(key.id, pem);
      }
      return {
        domain: row.name,
        selector: key.selector,
        privateKeyPem: pem,
        returnPathDomain: `${row.returnPathSubdomain}.${row.name}`,
      };
    },

    async assertMaySendFrom(actor, domain) {
      if (actor.domains && !actor.domains.some((allowed) => allowed === domain)) {
        throw new AppError("insufficient_scope", `This API key may send only from ${actor.domains.join(", ")}.`);
      }
      if (actor.mode === "test") return;
      const row = await findByName(db, actor.organizationId, domain);
      if (!row || !SENDABLE.has(row.status)) {
        throw new AppError(
          "domain_not_verified",
          `The domain ${domain} is not verified. Add it and publish its DNS records, or send with a test key.`,
        );
      }
    },

    async providersOf(organizationId, domain) {
      if (!domain) return [];
      const key = `${organizationId}|${domain}`;
      const cached = routes.get(key);
      if (cached && cached.until > clock.now()) return cached.providers;
      const row = await first(
        db
          .select({ providers: domains.providers })
          .from(domains)
          .where(and(eq(domains.organizationId, organizationId), eq(domains.name, domain))),
      );
      const providers = row?.providers ?? [];
      routes.set(key, { providers, until: clock.now() + ROUTE_CACHE_MS });
      if (routes.size > ROUTE_CACHE_SIZE) routes.delete(routes.keys().next().value!);
      return providers;
    },

    async trackingDefaults(organizationId, domain) {
      const row = await findByName(db, organizationId, domain);
      return row ? { opens: row.openTracking, clicks: row.clickTracking } : { opens: false, clicks: false };
    },

    async receivingState(domain) {
      const row = await first(db.select().from(domains).where(eq(domains.name, domain)));
      if (!row) return { state: "unknown" };
      // A name any organisation could add is not yet theirs: DKIM and SPF found, or the MX found, prove it.
      const owned = SENDABLE.has(row.status) || row.recordStatuses.inbound?.status === "verified";
      return { state: row.receivingEnabled && owned ? "receiving" : "off", organizationId: row.organizationId };
    },
  };
}
