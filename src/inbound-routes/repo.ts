/**
 * The inbound routes' queries: an organisation's routes in order, one route, writing positions, and which of some
 * webhook ids are the organisation's. Invariant: every read is scoped to one organisation.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { engineOf, executeRaw } from "../db/dialect.ts";
import { first, tablesOf, type Db } from "../db/store.ts";

/** The first key of the route writes' advisory locks (the second is the organisation's): "iroutes" in ASCII, folded. */
const ROUTES_LOCK = 0x69726f75;

/**
 * Inside a write, before reading positions: makes the organisation's route changes take turns until the write ends,
 * so positions computed from what it read stay 1..n (PostgreSQL's READ COMMITTED would let two writes read the same
 * order; SQLite's one writer serialises them already). A transaction-scoped advisory lock: nothing else waits on it.
 */
export async function lockRoutesOf(tx: Db, organizationId: string): Promise<void> {
  if (engineOf(tx) === "postgres")
    await executeRaw(tx, sql`SELECT pg_advisory_xact_lock(${ROUTES_LOCK}::int, hashtext(${organizationId}))`);
}

export type RouteRow = ReturnType<typeof tablesOf>["inboundRoutes"]["$inferSelect"];

/** The organisation's routes by position (ties: the older first). */
export const routesOf = (db: Db, organizationId: string): Promise<RouteRow[]> => {
  const { inboundRoutes } = tablesOf(db);
  return db
    .select()
    .from(inboundRoutes)
    .where(eq(inboundRoutes.organizationId, organizationId))
    .orderBy(asc(inboundRoutes.position), asc(inboundRoutes.createdAt), asc(inboundRoutes.id));
};

export const findRoute = (db: Db, organizationId: string, id: string) => {
  const { inboundRoutes } = tablesOf(db);
  return first(
    db
      .select()
      .from(inboundRoutes)
      .where(and(eq(inboundRoutes.id, id.toLowerCase()), eq(inboundRoutes.organizationId, organizationId))),
  );
};

export const insertRoute = (tx: Db, row: RouteRow) => tx.insert(tablesOf(tx).inboundRoutes).values(row);

export const updateRoute = (tx: Db, id: string, changes: Partial<RouteRow>) => {
  const { inboundRoutes } = tablesOf(tx);
  return tx.update(inboundRoutes).set(changes).where(eq(inboundRoutes.id, id));
};

export const deleteRoute = (tx: Db, id: string) => {
  const { inboundRoutes } = tablesOf(tx);
  return tx.delete(inboundRoutes).where(eq(inboundRoutes.id, id));
};

/** Those of `ids` that are webhooks of the organisation. */
export const ownWebhookIds = async (db: Db, organizationId: string, ids: string[]) => {
  if (!ids.length) return [];
  const { webhookEndpoints } = tablesOf(db);
  const rows = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(inArray(webhookEndpoints.id, ids), eq(webhookEndpoints.organizationId, organizationId)));
  return rows.map((row) => row.id);
};
