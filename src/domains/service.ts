/**
 * Sending domains and the rule that decides who may send from which domain.
 * Invariant: a live key sends only from a domain of its organisation that is verified (by DNS, or by the
 * operator's explicit `--verified` override, which listings label as such); a test key may send from any domain;
 * a key restricted to named domains sends from those only.
 */
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { domains } from "../db/schema/index.ts";
import type { Writer } from "../db/writer.ts";
import { AppError, validationError } from "../errors.ts";
import type { Actor } from "../keys/model.ts";
import { normalizeDomain } from "../lib/addresses.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";

export type DomainStatus = "not_started" | "pending" | "verified" | "partially_verified" | "failed" | "temporary_failure";

/** Statuses from which mail may be sent: verified, or verified once and a record is missing for less than 72 h. */
const SENDABLE: ReadonlySet<string> = new Set<DomainStatus>(["verified", "partially_verified", "temporary_failure"]);

export interface DomainView {
  object: "domain";
  id: string;
  name: string;
  status: DomainStatus;
  /** True when the operator marked the domain verified without DNS checks. */
  verified_override: boolean;
  created_at: string;
  updated_at: string;
}

type Row = typeof domains.$inferSelect;
const toView = (row: Row): DomainView => ({
  object: "domain",
  id: row.id,
  name: row.name,
  status: row.status as DomainStatus,
  verified_override: row.verifiedOverride,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export interface DomainService {
  add(organizationId: string, name: string, options?: { verifiedOverride?: boolean }): Promise<DomainView>;
  list(organizationId: string): DomainView[];
  /** Throws unless `actor` may send with a From address on `domain` (lower-case punycode). */
  assertMaySendFrom(actor: Actor, domain: string): void;
  /** The domain's open/click tracking defaults (off for unknown domains, e.g. test-mode sends). */
  trackingDefaults(organizationId: string, domain: string): { opens: boolean; clicks: boolean };
}

export function createDomainService(deps: { db: Db; writer: Writer; clock: Clock }): DomainService {
  const { db, writer, clock } = deps;
  return {
    async add(organizationId, name, options = {}) {
      const normalized = normalizeDomain(name);
      if ("error" in normalized) throw validationError([{ path: "name", message: normalized.error }]);
      const now = isoTime(clock.now());
      const row: Row = {
        id: newId(),
        organizationId,
        name: normalized.domain,
        status: options.verifiedOverride ? "verified" : "pending",
        verifiedOverride: options.verifiedOverride ?? false,
        openTracking: false,
        clickTracking: false,
        returnPathSubdomain: "send",
        receivingEnabled: false,
        createdAt: now,
        updatedAt: now,
      };
      await writer.write((tx) => {
        if (tx.select({ id: domains.id }).from(domains).where(eq(domains.name, row.name)).get()) throw new AppError("conflict", `The domain ${row.name} already exists.`);
        tx.insert(domains).values(row).run();
      });
      return toView(row);
    },

    list(organizationId) {
      return db.select().from(domains).where(eq(domains.organizationId, organizationId)).orderBy(asc(domains.name)).all().map(toView);
    },

    assertMaySendFrom(actor, domain) {
      if (actor.domains && !actor.domains.some((allowed) => allowed === domain)) {
        throw new AppError("insufficient_scope", `This API key may send only from ${actor.domains.join(", ")}.`);
      }
      if (actor.mode === "test") return;
      const row = db
        .select({ status: domains.status })
        .from(domains)
        .where(and(eq(domains.organizationId, actor.organizationId), eq(domains.name, domain)))
        .get();
      if (!row || !SENDABLE.has(row.status)) {
        throw new AppError("domain_not_verified", `The domain ${domain} is not verified. Add it and publish its DNS records, or send with a test key.`);
      }
    },

    trackingDefaults(organizationId, domain) {
      const row = db
        .select({ opens: domains.openTracking, clicks: domains.clickTracking })
        .from(domains)
        .where(and(eq(domains.organizationId, organizationId), eq(domains.name, domain)))
        .get();
      return row ?? { opens: false, clicks: false };
    },
  };
}
