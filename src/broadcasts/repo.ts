/**
 * Broadcasts' queries (docs/broadcasts.md): the broadcast rows, a segment's contacts in id order for the fan-out, the
 * messages already made for contacts, the per-status counts, the recipients by event type and the clicked links. Every
 * read of a broadcast's messages goes through `emails_broadcast_contact` (migration 0037), never a scan of the mail.
 */
import { and, asc, count, eq, gt, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import { engineOf, inJsonArray, lockedForClaim } from "../db/dialect.ts";
import { pageById, type PageOptions } from "../db/pages.ts";
import { first, tablesOf, type Db } from "../db/store.ts";
import type { ClaimSteps } from "../queue/leased-queue.ts";
import type { BroadcastClickedLink, BroadcastRecipient, RecipientEventType } from "./model.ts";

export type BroadcastRow = ReturnType<typeof tablesOf>["broadcasts"]["$inferSelect"];

export function findBroadcast(db: Db, organizationId: string, id: string): Promise<BroadcastRow | undefined> {
  const { broadcasts } = tablesOf(db);
  return first(
    db
      .select()
      .from(broadcasts)
      .where(and(eq(broadcasts.organizationId, organizationId), eq(broadcasts.id, id.toLowerCase()))),
  );
}

export async function pageBroadcasts(db: Db, organizationId: string, options: PageOptions) {
  const { broadcasts } = tablesOf(db);
  return pageById(broadcasts.id, [eq(broadcasts.organizationId, organizationId)], options, (where, order, limit) =>
    db.select().from(broadcasts).where(where).orderBy(order).limit(limit),
  );
}

/** A broadcast's recipients per status (each message has one recipient: its contact). */
export async function statusCounts(db: Db, broadcastId: string): Promise<Record<string, number>> {
  const { emails, deliveries } = tablesOf(db);
  const rows = await db
    .select({ status: deliveries.status, n: count() })
    .from(emails)
    .innerJoin(deliveries, eq(deliveries.emailId, emails.id))
    .where(eq(emails.broadcastId, broadcastId))
    .groupBy(deliveries.status);
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}

export type SegmentContact = Awaited<ReturnType<typeof segmentContacts>>[number];

/** The next `limit` contacts of a segment after contact id `after`, in id order (the primary key of its members). */
export function segmentContacts(db: Db, segmentId: string, after: string, limit: number) {
  const { contacts, contactSegments } = tablesOf(db);
  return db
    .select({
      id: contacts.id,
      email: contacts.email,
      firstName: contacts.firstName,
      lastName: contacts.lastName,
      unsubscribed: contacts.unsubscribed,
      properties: contacts.properties,
    })
    .from(contactSegments)
    .innerJoin(contacts, eq(contacts.id, contactSegments.contactId))
    .where(and(eq(contactSegments.segmentId, segmentId), gt(contactSegments.contactId, after)))
    .orderBy(asc(contactSegments.contactId))
    .limit(limit);
}

/** Of `contactIds`, those the broadcast already has a message for (a batch resumed after a crash). */
export async function contactsWithMessage(db: Db, broadcastId: string, contactIds: string[]): Promise<Set<string>> {
  if (contactIds.length === 0) return new Set();
  const { emails } = tablesOf(db);
  const rows = await db
    .select({ contactId: emails.contactId })
    .from(emails)
    .where(and(eq(emails.broadcastId, broadcastId), inArray(emails.contactId, contactIds)));
  return new Set(rows.map((row) => row.contactId!));
}

/** Waiting deliveries of the broadcast's messages after delivery id `after`, in id order (a cancel's batches). */
export function waitingDeliveries(db: Db, broadcastId: string, after: string, limit: number) {
  const { emails, deliveries } = tablesOf(db);
  return db
    .select({ id: deliveries.id })
    .from(emails)
    .innerJoin(deliveries, eq(deliveries.emailId, emails.id))
    .where(
      and(
        eq(emails.broadcastId, broadcastId),
        inArray(deliveries.status, ["queued", "deferred", "held"]),
        gt(deliveries.id, after),
      ),
    )
    .orderBy(asc(deliveries.id))
    .limit(limit);
}

/** A JSON field of `events.data` as text, per engine; `path` is constant keys, never input. */
const dataField = (db: Db, column: unknown, path: string[]): SQL =>
  engineOf(db) === "postgres"
    ? sql`${column}${sql.raw(path.map((key, i) => `${i === path.length - 1 ? "->>" : "->"}'${key}'`).join(""))}`
    : sql`json_extract(${column}, ${`$.${path.join(".")}`})`;

/** The events that put a recipient in a list: `sent` is any hand-over, to a relay (email.sent) or the mailbox. */
const typesOf = (type: RecipientEventType) => (type === "sent" ? ["email.sent", "email.delivered"] : [`email.${type}`]);

const BOUNCE_TYPE: Record<string, "permanent" | "transient"> = { Permanent: "permanent", Transient: "transient" };

/**
 * The broadcast's recipients that had an event of `type` (`email.<type>`; `sent`: also delivered), one per message, by message id; with how
 * many such events (opened, clicked), the links clicked, or the bounce type.
 */
export async function recipientsByEvent(
  db: Db,
  broadcastId: string,
  type: RecipientEventType,
  options: PageOptions & { email?: string; bounceType?: string },
): Promise<{ page: BroadcastRecipient[]; hasMore: boolean }> {
  const { emails, events, deliveries } = tablesOf(db);
  const bounce = dataField(db, events.data, ["bounce", "type"]);
  const filters: SQL[] = [
    eq(emails.broadcastId, broadcastId),
    sql`EXISTS (SELECT 1 FROM ${events} WHERE ${events.emailId} = ${emails.id} AND ${inArray(events.type, typesOf(type))}${
      type === "bounced" && options.bounceType && options.bounceType !== "undetermined"
        ? sql` AND ${bounce} = ${options.bounceType === "permanent" ? "Permanent" : "Transient"}`
        : sql``
    })`,
  ];
  if (options.email)
    filters.push(
      sql`EXISTS (SELECT 1 FROM ${deliveries} WHERE ${deliveries.emailId} = ${emails.id} AND ${deliveries.recipient} = ${options.email.toLowerCase()})`,
    );
  const found = await pageById(emails.id, filters, options, (where, order, limit) =>
    db
      .select({ id: emails.id, contactId: emails.contactId, to: emails.to })
      .from(emails)
      .where(where)
      .orderBy(order)
      .limit(limit),
  );
  const ids = found.page.map((row) => row.id);
  const details = ids.length
    ? await db
        .select({ emailId: events.emailId, data: events.data })
        .from(events)
        .where(and(inArray(events.emailId, ids), inArray(events.type, typesOf(type))))
    : [];
  const byEmail = new Map<string, Array<Record<string, unknown>>>();
  for (const row of details) byEmail.set(row.emailId!, [...(byEmail.get(row.emailId!) ?? []), row.data]);
  const page = found.page.map((row): BroadcastRecipient => {
    const data = byEmail.get(row.id) ?? [];
    const recipient: BroadcastRecipient = { id: row.id, contact_id: row.contactId ?? null, email: row.to[0] ?? "" };
    if (type === "opened" || type === "clicked") recipient.count = data.length;
    if (type === "clicked") {
      const clicks = new Map<string, number>();
      for (const event of data)
        if (typeof event.link === "string") clicks.set(event.link, (clicks.get(event.link) ?? 0) + 1);
      recipient.clicked_links = [...clicks].map(([url, n]) => ({ url, clicks: n }));
    }
    if (type === "bounced") {
      const kind = (data[0]?.bounce as { type?: string } | undefined)?.type;
      recipient.bounce_type = (kind && BOUNCE_TYPE[kind]) || "undetermined";
    }
    return recipient;
  });
  return { page, hasMore: found.hasMore };
}

/**
 * The links of the broadcast's messages that were clicked, most clicked first: clicks, and unique clicks (messages
 * whose reader clicked it). `id` is a cursor: the link's place in that order.
 */
export async function clickedLinks(
  db: Db,
  broadcastId: string,
  options: PageOptions,
): Promise<{ page: BroadcastClickedLink[]; hasMore: boolean }> {
  const { emails, events } = tablesOf(db);
  const link = dataField(db, events.data, ["link"]);
  const rows = await db
    .select({
      url: sql<string>`${link}`,
      clicks: sql<number>`count(*)`.mapWith(Number),
      unique: sql<number>`count(DISTINCT ${events.emailId})`.mapWith(Number),
    })
    .from(emails)
    .innerJoin(events, eq(events.emailId, emails.id))
    .where(and(eq(emails.broadcastId, broadcastId), eq(events.type, "email.clicked"), isNotNull(link)))
    .groupBy(link)
    .orderBy(sql`count(*) DESC`, link);
  const all = rows.map((row, i) => ({
    id: `link-${String(i + 1).padStart(6, "0")}`,
    url: row.url,
    clicks: row.clicks,
    unique_clicks: row.unique,
  }));
  const at = (cursor?: string) => (cursor ? all.findIndex((item) => item.id === cursor) : -1);
  if (options.before) {
    const end = Math.max(at(options.before), 0);
    return { page: all.slice(Math.max(0, end - options.limit), end), hasMore: end - options.limit > 0 };
  }
  const rest = all.slice(at(options.after) + 1);
  return { page: rest.slice(0, options.limit), hasMore: rest.length > options.limit };
}

/** One batch of a fan-out: the broadcast, as the queue hands it to the worker. */
export interface FanOutJob {
  id: string;
  organizationId: string;
  /** The lease this claim took: a record by a holder whose lease was taken over changes nothing. */
  owner: string;
}

/** The fan-out queue's claim steps (queue/leased-queue.ts), keyed by organisation; on PostgreSQL the due read locks. */
export function fanOutStatements(tx: Db): ClaimSteps<FanOutJob> {
  const { broadcasts: b } = tablesOf(tx);
  return {
    due: {
      execute: ({ now, limit, saturated, inFlight }) =>
        lockedForClaim(
          tx,
          tx
            .select({ id: b.id, key: b.organizationId })
            .from(b)
            .where(
              and(
                sql`${b.nextAttemptAt} <= ${now}`,
                sql`(${b.leaseUntil} IS NULL OR ${b.leaseUntil} < ${now})`,
                sql`NOT ${inJsonArray(tx, b.organizationId, saturated)}`,
                sql`NOT ${inJsonArray(tx, b.id, inFlight)}`,
              ),
            )
            .orderBy(asc(b.nextAttemptAt))
            .limit(limit),
          b,
        ),
    },
    jobs: {
      execute: async ({ ids }) =>
        (
          await tx
            .select({ id: b.id, organizationId: b.organizationId, owner: b.leaseOwner })
            .from(b)
            .where(inJsonArray(tx, b.id, ids))
        ).map((row) => ({ ...row, owner: row.owner ?? "" })),
    },
    lease: {
      execute: ({ owner, until, ids }) =>
        tx
          .update(b)
          .set({ leaseOwner: owner, leaseUntil: until })
          .where(inJsonArray(tx, b.id, ids)),
    },
  };
}
