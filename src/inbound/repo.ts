/**
 * The inbound area's queries: received mail and its body, each organisation's running total of stored bytes
 * (inbound_usage), and the two look-ups into sent mail a received message needs (the delivery a return path names,
 * the message a reply answers). Invariant: a received message and its bytes enter and leave the running total in
 * the same write as the message itself, so the total never disagrees with the mail stored.
 */
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { pageById, type PageOptions } from "../db/pages.ts";
import { first, tablesOf, type Db } from "../db/store.ts";

export type ReceivedRow = ReturnType<typeof tablesOf>["receivedEmails"]["$inferSelect"];

/** The sent delivery a verified return-path token names: enough to tell whose it is and whom it went to. */
export const findDelivery = (tx: Db, deliveryId: string) => {
  const { deliveries } = tablesOf(tx);
  return first(
    tx
      .select({
        id: deliveries.id,
        emailId: deliveries.emailId,
        organizationId: deliveries.organizationId,
        recipient: deliveries.recipient,
      })
      .from(deliveries)
      .where(eq(deliveries.id, deliveryId)),
  );
};

/** The organisation's sent messages among `messageIds` (at most 100 asked), with their Message-IDs. */
export const sentWithMessageIds = (db: Db, organizationId: string, messageIds: string[]) => {
  const { emails } = tablesOf(db);
  return db
    .select({ id: emails.id, messageId: emails.messageId })
    .from(emails)
    .where(and(inArray(emails.messageId, messageIds.slice(0, 100)), eq(emails.organizationId, organizationId)));
};

/** Inside the caller's write: the message's record, its body unless staged, and its bytes added to the total. */
export async function insertReceived(tx: Db, row: ReceivedRow, body: { raw: Buffer } | { staged: true }) {
  const { receivedEmails, receivedContents, inboundUsage } = tablesOf(tx);
  await tx.insert(receivedEmails).values(row);
  if ("raw" in body) await tx.insert(receivedContents).values({ receivedEmailId: row.id, raw: body.raw });
  await tx
    .insert(inboundUsage)
    .values({ organizationId: row.organizationId, storedBytes: row.size })
    .onConflictDoUpdate({
      target: inboundUsage.organizationId,
      set: { storedBytes: sql`${inboundUsage.storedBytes} + ${row.size}` },
    });
}

/** The organisation's running total of stored bytes (by primary key: never a sum over its mail). */
export const storedBytes = async (db: Db, organizationId: string) => {
  const { inboundUsage } = tablesOf(db);
  const usage = await first(
    db
      .select({ storedBytes: inboundUsage.storedBytes })
      .from(inboundUsage)
      .where(eq(inboundUsage.organizationId, organizationId)),
  );
  return usage?.storedBytes ?? 0;
};

/** One received message: the organisation's own, or any when `organizationId` is null (a signed link's). */
export const findReceived = (db: Db, id: string, organizationId: string | null) => {
  const { receivedEmails } = tablesOf(db);
  const byId = eq(receivedEmails.id, id);
  return first(
    db
      .select()
      .from(receivedEmails)
      .where(organizationId === null ? byId : and(byId, eq(receivedEmails.organizationId, organizationId))),
  );
};

/** The stored body of a received message read in the record's own engine (small bodies; see content-writes.ts). */
export const receivedBody = async (db: Db, id: string) => {
  const { receivedContents } = tablesOf(db);
  const row = await first(
    db.select({ raw: receivedContents.raw }).from(receivedContents).where(eq(receivedContents.receivedEmailId, id)),
  );
  return row?.raw;
};

/** A page of the organisation's received mail, newest first. */
export const pageOfReceived = (db: Db, organizationId: string, options: PageOptions) => {
  const { receivedEmails } = tablesOf(db);
  return pageById(
    receivedEmails.id,
    [eq(receivedEmails.organizationId, organizationId)],
    options,
    (where, order, limit) => db.select().from(receivedEmails).where(where).orderBy(order).limit(limit),
  );
};

/** Up to `limit` ids of mail received before `cutoff` (ISO time). */
export const receivedBefore = (db: Db, cutoff: string, limit: number) => {
  const { receivedEmails } = tablesOf(db);
  return db
    .select({ id: receivedEmails.id })
    .from(receivedEmails)
    .where(lt(receivedEmails.createdAt, cutoff))
    .limit(limit);
};

/**
 * Inside the caller's write: deletes those of `ids` still there (another instance may have pruned some meanwhile)
 * and takes their bytes off each organisation's running total.
 */
export async function deleteReceived(tx: Db, ids: string[]): Promise<void> {
  const { receivedEmails, inboundUsage } = tablesOf(tx);
  const gone = await tx
    .delete(receivedEmails)
    .where(inArray(receivedEmails.id, ids))
    .returning({ organizationId: receivedEmails.organizationId, size: receivedEmails.size });
  const freed = new Map<string, number>();
  for (const row of gone) freed.set(row.organizationId, (freed.get(row.organizationId) ?? 0) + row.size);
  for (const [organizationId, bytes] of freed) {
    await tx
      .update(inboundUsage)
      .set({ storedBytes: sql`${inboundUsage.storedBytes} - ${bytes}` })
      .where(eq(inboundUsage.organizationId, organizationId));
  }
}

/** Every organisation's stored bytes of received mail, for /metrics. */
export const everyStoredBytes = async (db: Db) => {
  const { inboundUsage } = tablesOf(db);
  const rows = await db.select().from(inboundUsage);
  return rows.map((row) => ({ organizationId: row.organizationId, bytes: Number(row.storedBytes) }));
};
