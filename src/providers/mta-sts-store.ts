/**
 * The MTA-STS policy cache in the store (RFC 8461 §3.3, docs/deliverability.md): one row per recipient domain, written when a
 * policy is fetched, read when an instance has none in memory — after a restart, or on another instance. Expired
 * rows are never served (mta-sts.ts checks `expiresAt`) and are overwritten by the next fetch.
 */
import { eq } from "drizzle-orm";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import type { SharedPolicyCache } from "./mta-sts.ts";

export function createStoredPolicyCache(deps: { db: Db; writer: Writer }): SharedPolicyCache {
  const { mtaStsPolicies } = tablesOf(deps.db);
  return {
    async get(domain) {
      const row = await first(deps.db.select().from(mtaStsPolicies).where(eq(mtaStsPolicies.domain, domain)));
      return row && { id: row.policyId, policy: row.policy, expiresAt: row.expiresAt };
    },
    async put(domain, entry) {
      const values = { policyId: entry.id, policy: entry.policy, expiresAt: entry.expiresAt };
      await deps.writer.write((tx) =>
        tx
          .insert(tablesOf(tx).mtaStsPolicies)
          .values({ domain, ...values })
          .onConflictDoUpdate({ target: tablesOf(tx).mtaStsPolicies.domain, set: values }),
      );
    },
  };
}
