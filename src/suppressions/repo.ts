/** Queries of the suppression list; no rules (those live in service.ts): every query is scoped to one organisation. */
import { and, eq, sql, type SQL } from "drizzle-orm";
import { inJsonArray, notifyAtCommit } from "../db/dialect.ts";
import { SUPPRESSIONS_CHANGED } from "../db/read-cache.ts";
import { pageById, type PageOptions } from "../db/pages.ts";
import { perConnection, prepareAs } from "../db/prepared.ts";
import type { suppressions } from "../db/schema/index.ts";
import { first, tablesOf, type Db } from "../db/store.ts";

export type SuppressionRow = typeof suppressions.$inferSelect;

// Prepared once, with the addresses as one JSON array, because every send asks it.
const suppressedStatement = perConnection((db: Db) => {
  const { suppressions } = tablesOf(db);
  return prepareAs(
    "suppressed_among",
    db
      .select({ email: suppressions.email })
      .from(suppressions)
      .where(
        and(
          eq(suppressions.organizationId, sql.placeholder("organizationId")),
          inJsonArray(db, suppressions.email, sql.placeholder("emails")),
        ),
      ),
  );
});

/** Which of the address keys given are suppressed. */
export async function suppressedKeys(db: Db, organizationId: string, keys: string[]): Promise<string[]> {
  const rows = await suppressedStatement(db).execute({ organizationId, emails: JSON.stringify(keys) });
  return rows.map((row) => row.email);
}

export function findByKey(tx: Db, organizationId: string, email: string): Promise<SuppressionRow | undefined> {
  const { suppressions } = tablesOf(tx);
  return first(
    tx
      .select()
      .from(suppressions)
      .where(and(eq(suppressions.organizationId, organizationId), eq(suppressions.email, email))),
  );
}

export function findById(tx: Db, organizationId: string, id: string): Promise<SuppressionRow | undefined> {
  const { suppressions } = tablesOf(tx);
  return first(
    tx
      .select()
      .from(suppressions)
      .where(and(eq(suppressions.organizationId, organizationId), eq(suppressions.id, id))),
  );
}

/** Every change to the list notifies SUPPRESSIONS_CHANGED, which drops the cached answers of every instance. */
export async function insertSuppression(tx: Db, row: SuppressionRow): Promise<void> {
  await tx.insert(tablesOf(tx).suppressions).values(row);
  await notifyAtCommit(tx, SUPPRESSIONS_CHANGED);
}

export async function deleteSuppression(tx: Db, organizationId: string, email: string): Promise<void> {
  const { suppressions } = tablesOf(tx);
  await tx
    .delete(suppressions)
    .where(and(eq(suppressions.organizationId, organizationId), eq(suppressions.email, email)));
  await notifyAtCommit(tx, SUPPRESSIONS_CHANGED);
}

/** One page of the list, newest first; `origin` and an address substring (`search`, lower-case) filter. */
export function pageSuppressions(
  db: Db,
  organizationId: string,
  options: PageOptions & { origin?: SuppressionRow["origin"]; search?: string },
): Promise<{ page: SuppressionRow[]; hasMore: boolean }> {
  const { suppressions } = tablesOf(db);
  const filters: SQL[] = [eq(suppressions.organizationId, organizationId)];
  if (options.origin) filters.push(eq(suppressions.origin, options.origin));
  if (options.search)
    filters.push(sql`${suppressions.email} LIKE ${`%${options.search.replace(/[%_\\]/g, "\\$&")}%`} ESCAPE '\\'`);
  return pageById(suppressions.id, filters, options, (where, order, limit) =>
    db.select().from(suppressions).where(where).orderBy(order).limit(limit),
  );
}
