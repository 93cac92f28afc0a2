/** Queries of the sending-domain area: domain rows, their DKIM keys, mail still queued from a domain. */
import { and, asc, eq, inArray, isNotNull, lte, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { perConnection } from "../db/prepared.ts";
import { deliveries, dkimKeys, domains, emails } from "../db/schema/index.ts";
import { isUuid } from "../lib/ids.ts";
import { normalizeDomain } from "../lib/addresses.ts";

export type DomainRow = typeof domains.$inferSelect;
export type KeyRow = typeof dkimKeys.$inferSelect;

/** A domain of the organisation by id or by name (any case, Unicode or punycode). */
export function findDomain(db: Db, organizationId: string, idOrName: string): DomainRow | undefined {
  if (isUuid(idOrName)) {
    return db
      .select()
      .from(domains)
      .where(and(eq(domains.organizationId, organizationId), eq(domains.id, idOrName.toLowerCase())))
      .get();
  }
  const normalized = normalizeDomain(idOrName);
  if ("error" in normalized) return undefined;
  return findByName(db, organizationId, normalized.domain);
}

// Every send asks it (sending policy, tracking defaults, signing).
const byName = perConnection((db: Db) =>
  db
    .select()
    .from(domains)
    .where(and(eq(domains.organizationId, sql.placeholder("organizationId")), eq(domains.name, sql.placeholder("name"))))
    .prepare(),
);

export function findByName(db: Db, organizationId: string, name: string): DomainRow | undefined {
  return byName(db).get({ organizationId, name });
}

export function listDomains(db: Db, organizationId: string): DomainRow[] {
  return db.select().from(domains).where(eq(domains.organizationId, organizationId)).orderBy(asc(domains.name)).all();
}

/** Keys still published (active and next), oldest first. */
export function liveKeys(db: Db, domainId: string): KeyRow[] {
  return db
    .select()
    .from(dkimKeys)
    .where(and(eq(dkimKeys.domainId, domainId), ne(dkimKeys.state, "retired")))
    .orderBy(asc(dkimKeys.createdAt))
    .all();
}

/** Live keys of many domains at once, grouped by domain id. */
export function liveKeysOf(db: Db, domainIds: string[]): Map<string, KeyRow[]> {
  const grouped = new Map<string, KeyRow[]>();
  if (domainIds.length === 0) return grouped;
  const rows = db
    .select()
    .from(dkimKeys)
    .where(and(inArray(dkimKeys.domainId, domainIds), ne(dkimKeys.state, "retired")))
    .orderBy(asc(dkimKeys.createdAt))
    .all();
  for (const row of rows) grouped.set(row.domainId, [...(grouped.get(row.domainId) ?? []), row]);
  return grouped;
}

export function activeKey(db: Db, domainId: string): KeyRow | undefined {
  return db
    .select()
    .from(dkimKeys)
    .where(and(eq(dkimKeys.domainId, domainId), eq(dkimKeys.state, "active")))
    .get();
}

/** Ids of domains whose scheduled check is due, oldest due first. */
export function dueDomainIds(db: Db, now: number, limit: number): string[] {
  return db
    .select({ id: domains.id })
    .from(domains)
    .where(and(isNotNull(domains.nextCheckAt), lte(domains.nextCheckAt, now)))
    .orderBy(asc(domains.nextCheckAt))
    .limit(limit)
    .all()
    .map((row) => row.id);
}

/** Condition: a delivery not yet final of a message whose envelope sender is on `domain`. */
const pendingFrom = (organizationId: string, domain: string) =>
  and(
    eq(deliveries.organizationId, organizationId),
    isNotNull(deliveries.nextAttemptAt),
    // Domain names hold no LIKE wildcards (normalizeDomain allows a-z, 0-9, '-' and '.').
    sql`${emails.envelopeFrom} LIKE ${`%@${domain}`}`,
  );

/** Deliveries still waiting to go out (queued, deferred or scheduled) from `domain`, with their message ids. */
export function pendingDeliveriesFrom(db: Db, organizationId: string, domain: string): Array<{ id: string; emailId: string }> {
  return db
    .select({ id: deliveries.id, emailId: deliveries.emailId })
    .from(deliveries)
    .innerJoin(emails, eq(emails.id, deliveries.emailId))
    .where(pendingFrom(organizationId, domain))
    .all();
}
