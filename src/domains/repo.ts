/** Queries of the sending-domain area: domain rows, their DKIM keys, mail still queued from a domain. */
import { and, asc, eq, inArray, isNotNull, lte, ne, sql } from "drizzle-orm";
import { perConnection, prepareAs } from "../db/prepared.ts";
import type { dkimKeys, domains } from "../db/schema/index.ts";
import { first, tablesOf, type Db } from "../db/store.ts";
import { isUuid } from "../lib/ids.ts";
import { normalizeDomain } from "../lib/addresses.ts";

export type DomainRow = typeof domains.$inferSelect;
export type KeyRow = typeof dkimKeys.$inferSelect;

/** A domain of the organisation by id or by name (any case, Unicode or punycode). */
export async function findDomain(db: Db, organizationId: string, idOrName: string): Promise<DomainRow | undefined> {
  const { domains } = tablesOf(db);
  if (isUuid(idOrName)) {
    return first(
      db
        .select()
        .from(domains)
        .where(and(eq(domains.organizationId, organizationId), eq(domains.id, idOrName.toLowerCase()))),
    );
  }
  const normalized = normalizeDomain(idOrName);
  if ("error" in normalized) return undefined;
  return findByName(db, organizationId, normalized.domain);
}

// Every send asks it (sending policy, tracking defaults, signing).
const byName = perConnection((db: Db) => {
  const { domains } = tablesOf(db);
  return prepareAs(
    "domain_by_name",
    db
      .select()
      .from(domains)
      .where(
        and(eq(domains.organizationId, sql.placeholder("organizationId")), eq(domains.name, sql.placeholder("name"))),
      ),
  );
});

export async function findByName(db: Db, organizationId: string, name: string): Promise<DomainRow | undefined> {
  return (await byName(db).execute({ organizationId, name }))[0];
}

/** Keys still published (active and next), oldest first. */
export async function liveKeys(db: Db, domainId: string): Promise<KeyRow[]> {
  const { dkimKeys } = tablesOf(db);
  return db
    .select()
    .from(dkimKeys)
    .where(and(eq(dkimKeys.domainId, domainId), ne(dkimKeys.state, "retired")))
    .orderBy(asc(dkimKeys.createdAt), asc(dkimKeys.id));
}

/** Live keys of many domains at once, grouped by domain id. */
export async function liveKeysOf(db: Db, domainIds: string[]): Promise<Map<string, KeyRow[]>> {
  const { dkimKeys } = tablesOf(db);
  const grouped = new Map<string, KeyRow[]>();
  if (domainIds.length === 0) return grouped;
  const rows = await db
    .select()
    .from(dkimKeys)
    .where(and(inArray(dkimKeys.domainId, domainIds), ne(dkimKeys.state, "retired")))
    .orderBy(asc(dkimKeys.createdAt), asc(dkimKeys.id));
  for (const row of rows) grouped.set(row.domainId, [...(grouped.get(row.domainId) ?? []), row]);
  return grouped;
}

const activeKeyOf = perConnection((db: Db) => {
  const { dkimKeys } = tablesOf(db);
  // The state is written into the SQL, not bound: with a bound value SQLite must plan anew on every run to know
  // whether the partial index `dkim_keys_one_active` applies (35 µs a run, against 10 µs; every signed delivery).
  return prepareAs(
    "dkim_active_key",
    db
      .select()
      .from(dkimKeys)
      .where(
        and(
          eq(dkimKeys.domainId, sql.placeholder("domainId")),
          sql`${dkimKeys.state} = 'active' AND ${dkimKeys.algorithm} = 'rsa'`,
        ),
      ),
  );
});

/** The active RSA key: the one that verifies the domain, rotates, and always signs. */
export async function activeKey(db: Db, domainId: string): Promise<KeyRow | undefined> {
  return (await activeKeyOf(db).execute({ domainId }))[0];
}

/** The domain's Ed25519 key, when it asked for one (docs/deliverability.md). */
export async function ed25519Key(db: Db, domainId: string): Promise<KeyRow | undefined> {
  const { dkimKeys } = tablesOf(db);
  return first(
    db
      .select()
      .from(dkimKeys)
      .where(and(eq(dkimKeys.domainId, domainId), eq(dkimKeys.state, "active"), eq(dkimKeys.algorithm, "ed25519"))),
  );
}

/** Ids of domains whose scheduled check is due, oldest due first. */
export async function dueDomainIds(db: Db, now: number, limit: number): Promise<string[]> {
  const { domains } = tablesOf(db);
  const rows = await db
    .select({ id: domains.id })
    .from(domains)
    .where(and(isNotNull(domains.nextCheckAt), lte(domains.nextCheckAt, now)))
    .orderBy(asc(domains.nextCheckAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** Deliveries still waiting to go out (queued, deferred or scheduled) from `domain`, with their message ids. */
export async function pendingDeliveriesFrom(
  db: Db,
  organizationId: string,
  domain: string,
): Promise<Array<{ id: string; emailId: string }>> {
  const { deliveries, emails } = tablesOf(db);
  return db
    .select({ id: deliveries.id, emailId: deliveries.emailId })
    .from(deliveries)
    .innerJoin(emails, eq(emails.id, deliveries.emailId))
    .where(
      and(
        eq(deliveries.organizationId, organizationId),
        isNotNull(deliveries.nextAttemptAt),
        // Domain names hold no LIKE wildcards (normalizeDomain allows a-z, 0-9, '-' and '.').
        sql`${emails.envelopeFrom} LIKE ${`%@${domain}`}`,
      ),
    );
}
