/** Queries of tracking: the message a token names, its recipients, its fetch history. No rules (service.ts has them). */
import { and, eq, inArray } from "drizzle-orm";
import type { emails, events } from "../db/schema/index.ts";
import { first, tablesOf, type Db } from "../db/store.ts";

type EventRow = typeof events.$inferSelect;
type EmailRow = typeof emails.$inferSelect;

/** The message's only recipient, or null when it has several. */
export async function soleRecipient(tx: Db, emailId: string): Promise<string | null> {
  const { deliveries } = tablesOf(tx);
  const rows = await tx
    .select({ recipient: deliveries.recipient })
    .from(deliveries)
    .where(eq(deliveries.emailId, emailId))
    .limit(2);
  return rows.length === 1 ? rows[0]!.recipient : null;
}

/** What tracking reads of a message: whose it is, who sent it and from where, when it was accepted and in which mode. */
export function findEmail(
  tx: Db,
  emailId: string,
): Promise<Pick<EmailRow, "organizationId" | "fromHeader" | "envelopeFrom" | "mode" | "createdAt"> | undefined> {
  const { emails } = tablesOf(tx);
  return first(
    tx
      .select({
        organizationId: emails.organizationId,
        fromHeader: emails.fromHeader,
        envelopeFrom: emails.envelopeFrom,
        mode: emails.mode,
        createdAt: emails.createdAt,
      })
      .from(emails)
      .where(eq(emails.id, emailId)),
  );
}

/** The message's events of the types given, oldest first. */
export function eventsOf(
  tx: Db,
  emailId: string,
  types: EventRow["type"][],
): Promise<Pick<EventRow, "type" | "data" | "createdAt">[]> {
  const { events } = tablesOf(tx);
  return tx
    .select({ type: events.type, data: events.data, createdAt: events.createdAt })
    .from(events)
    .where(and(eq(events.emailId, emailId), inArray(events.type, types)))
    .orderBy(events.id);
}

/** Whether the message has an event of this type. */
export async function hasEvent(tx: Db, emailId: string, type: EventRow["type"]): Promise<boolean> {
  const { events } = tablesOf(tx);
  const found = await first(
    tx
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.emailId, emailId), eq(events.type, type))),
  );
  return found !== undefined;
}
