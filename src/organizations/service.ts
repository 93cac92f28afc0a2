/**
 * Organisations own keys, domains, messages and suppressions. A single-team install has one, created on the
 * first start. Invariant: `ensureDefault` is idempotent and creates the organisation at most once.
 */
import { asc, eq } from "drizzle-orm";
import { notifyAtCommit } from "../db/dialect.ts";
import { POLICY_CHANGED } from "../db/read-cache.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import { validationError } from "../errors.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";

export interface Organization {
  id: string;
  name: string;
}

export interface OrganizationService {
  /** The first organisation; created (with `created: true`) when the store is empty. */
  ensureDefault(): Promise<Organization & { created: boolean }>;
  /** Sets the organisation's requests-per-minute limit; null returns to `limits.org_requests_per_minute`. */
  setRateLimit(organizationId: string, perMinute: number | null): Promise<void>;
}

export function createOrganizationService(deps: { db: Db; writer: Writer; clock: Clock }): OrganizationService {
  const { db, writer, clock } = deps;
  const { organizations } = tablesOf(db);
  const oldest = (from: Db) =>
    first(
      from
        .select({ id: organizations.id, name: organizations.name })
        .from(organizations)
        .orderBy(asc(organizations.id))
        .limit(1),
    );
  return {
    async ensureDefault() {
      const existing = await oldest(db);
      if (existing) return { ...existing, created: false };
      return writer.write(async (tx) => {
        const raced = await oldest(tx);
        if (raced) return { ...raced, created: false };
        const org = { id: newId(), name: "Default", createdAt: isoTime(clock.now()) };
        await tx.insert(organizations).values(org);
        return { id: org.id, name: org.name, created: true };
      });
    },

    async setRateLimit(organizationId, perMinute) {
      if (perMinute !== null && (!Number.isInteger(perMinute) || perMinute < 1)) {
        throw validationError([{ path: "rate_limit_per_minute", message: "must be a positive integer" }]);
      }
      await writer.write(async (tx) => {
        await tx
          .update(organizations)
          .set({ rateLimitPerMinute: perMinute })
          .where(eq(organizations.id, organizationId));
        await notifyAtCommit(tx, POLICY_CHANGED);
      });
    },
  };
}
