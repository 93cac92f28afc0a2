/**
 * Queries of contacts and segment membership (docs/contacts.md#tables); no rules (those live in the services). Every
 * query names one organisation and reads by an index: a contact by `contacts_email` or its id, a page by
 * `contacts_page` or a segment's primary key, a topic check by `contacts_email` joined to `contact_topics`' key.
 */
import { and, desc, eq, gt, lt, sql, type SQL } from "drizzle-orm";
import { inJsonArray, likeAnyCase } from "../db/dialect.ts";
import { pageById, type PageOptions } from "../db/pages.ts";
import { perConnection, prepareAs } from "../db/prepared.ts";
import type { contacts, contactSegments, segments, TopicSubscription } from "../db/schema/index.ts";
import { first, tablesOf, type Db } from "../db/store.ts";

export type ContactRow = typeof contacts.$inferSelect;
export type SegmentRow = typeof segments.$inferSelect;
export type MembershipRow = typeof contactSegments.$inferSelect;

// Prepared once: every send with a topic asks it, for all of a message's recipients in one statement. The choice is
// a subquery per contact found, so that it is always one look-up by `contact_topics`' key: as a join, PostgreSQL
// planned a hash join over every choice of the topic (a hundred thousand of a million contacts') for two recipients.
const choicesStatement = perConnection((db: Db) => {
  const { contacts, contactTopics } = tablesOf(db);
  const choice = sql<TopicSubscription | null>`(SELECT ${contactTopics.subscription} FROM ${contactTopics} WHERE ${contactTopics.contactId} = ${contacts.id} AND ${contactTopics.topicId} = ${sql.placeholder("topicId")})`;
  return prepareAs(
    "contact_topic_choices",
    db
      .select({ email: contacts.email, unsubscribed: contacts.unsubscribed, subscription: choice })
      .from(contacts)
      .where(
        and(
          eq(contacts.organizationId, sql.placeholder("organizationId")),
          inJsonArray(db, contacts.email, sql.placeholder("emails")),
        ),
      ),
  );
});

/** For each of the address keys that is a contact: whether it is unsubscribed, and its own choice of the topic. */
export async function topicChoicesAmong(
  db: Db,
  organizationId: string,
  topicId: string,
  keys: string[],
): Promise<Array<{ email: string; unsubscribed: boolean; subscription: TopicSubscription | null }>> {
  return choicesStatement(db).execute({ organizationId, topicId, emails: JSON.stringify(keys) });
}

const byEmailStatement = perConnection((db: Db) => {
  const { contacts } = tablesOf(db);
  return prepareAs(
    "contact_by_email",
    db
      .select()
      .from(contacts)
      .where(
        and(
          eq(contacts.organizationId, sql.placeholder("organizationId")),
          eq(contacts.email, sql.placeholder("email")),
        ),
      ),
  );
});

export async function findContactByEmail(db: Db, organizationId: string, email: string) {
  return first(byEmailStatement(db).execute({ organizationId, email }) as Promise<ContactRow[]>);
}

export function findContactById(db: Db, organizationId: string, id: string): Promise<ContactRow | undefined> {
  const { contacts } = tablesOf(db);
  return first(
    db
      .select()
      .from(contacts)
      .where(and(eq(contacts.organizationId, organizationId), eq(contacts.id, id))),
  );
}

export async function insertContact(tx: Db, row: ContactRow): Promise<void> {
  await tx.insert(tablesOf(tx).contacts).values(row);
}

export async function updateContact(
  tx: Db,
  id: string,
  patch: Partial<Pick<ContactRow, "firstName" | "lastName" | "unsubscribed" | "properties" | "updatedAt">>,
): Promise<void> {
  const { contacts } = tablesOf(tx);
  await tx.update(contacts).set(patch).where(eq(contacts.id, id));
}

export async function deleteContact(tx: Db, id: string): Promise<void> {
  const { contacts, contactSegments, contactTopics } = tablesOf(tx);
  // Explicitly, not only by the foreign keys' cascade: SQLite enforces those only on connections that enable them.
  await tx.delete(contactSegments).where(eq(contactSegments.contactId, id));
  await tx.delete(contactTopics).where(eq(contactTopics.contactId, id));
  await tx.delete(contacts).where(eq(contacts.id, id));
}

/** One page of the organisation's contacts, newest first; with `segmentId`, of that segment's members. */
export async function pageContacts(
  db: Db,
  organizationId: string,
  options: PageOptions & { segmentId?: string },
): Promise<{ page: ContactRow[]; hasMore: boolean }> {
  const { contacts, contactSegments } = tablesOf(db);
  if (!options.segmentId)
    return pageById(contacts.id, [eq(contacts.organizationId, organizationId)], options, (where, order, limit) =>
      db.select().from(contacts).where(where).orderBy(order).limit(limit),
    );
  // Members page by the membership's key (segment_id, contact_id): the segment's own index, whatever its size.
  const filters: SQL[] = [
    eq(contactSegments.segmentId, options.segmentId),
    eq(contacts.organizationId, organizationId),
  ];
  const { page, hasMore } = await pageById(contactSegments.contactId, filters, options, (where, order, limit) =>
    db
      .select({ contact: contacts })
      .from(contactSegments)
      .innerJoin(contacts, eq(contacts.id, contactSegments.contactId))
      .where(where)
      .orderBy(order)
      .limit(limit),
  );
  return { page: page.map((row) => row.contact), hasMore };
}

/**
 * The next contacts of a segment after `afterContactId`, oldest first, who would receive a broadcast on `topicId`
 * (or on no topic): not unsubscribed, and subscribed to the topic by their choice or its default. For fan-out.
 */
export async function segmentRecipientsAfter(
  db: Db,
  organizationId: string,
  segmentId: string,
  options: { afterContactId: string; limit: number; topicId?: string | null; topicDefault?: TopicSubscription },
): Promise<ContactRow[]> {
  const { contacts, contactSegments, contactTopics } = tablesOf(db);
  const filters: SQL[] = [
    eq(contactSegments.segmentId, segmentId),
    gt(contactSegments.contactId, options.afterContactId),
    eq(contacts.organizationId, organizationId),
    eq(contacts.unsubscribed, false),
  ];
  if (options.topicId) {
    const choice = sql`(SELECT ${contactTopics.subscription} FROM ${contactTopics} WHERE ${contactTopics.contactId} = ${contacts.id} AND ${contactTopics.topicId} = ${options.topicId})`;
    filters.push(sql`COALESCE(${choice}, ${options.topicDefault ?? "opt_out"}) = 'opt_in'`);
  }
  const rows = await db
    .select({ contact: contacts })
    .from(contactSegments)
    .innerJoin(contacts, eq(contacts.id, contactSegments.contactId))
    .where(and(...filters))
    .orderBy(contactSegments.contactId)
    .limit(options.limit);
  return rows.map((row) => row.contact);
}

export function findSegment(db: Db, organizationId: string, id: string): Promise<SegmentRow | undefined> {
  const { segments } = tablesOf(db);
  return first(
    db
      .select()
      .from(segments)
      .where(and(eq(segments.organizationId, organizationId), eq(segments.id, id))),
  );
}

export async function isMember(db: Db, segmentId: string, contactId: string): Promise<boolean> {
  const { contactSegments } = tablesOf(db);
  const row = await first(
    db
      .select({ id: contactSegments.contactId })
      .from(contactSegments)
      .where(and(eq(contactSegments.segmentId, segmentId), eq(contactSegments.contactId, contactId))),
  );
  return row !== undefined;
}

/** Adds the contact to the segment; answers false when it already was in it. */
export async function addMember(tx: Db, segmentId: string, contactId: string, createdAt: string): Promise<boolean> {
  const { contactSegments } = tablesOf(tx);
  const rows = await tx
    .insert(contactSegments)
    .values({ segmentId, contactId, createdAt })
    .onConflictDoNothing()
    .returning({ id: contactSegments.contactId });
  return rows.length > 0;
}

export async function removeMember(tx: Db, segmentId: string, contactId: string): Promise<boolean> {
  const { contactSegments } = tablesOf(tx);
  const rows = await tx
    .delete(contactSegments)
    .where(and(eq(contactSegments.segmentId, segmentId), eq(contactSegments.contactId, contactId)))
    .returning({ id: contactSegments.contactId });
  return rows.length > 0;
}

/** One page of the segments a contact is in, newest segment first. */
export async function pageSegmentsOf(
  db: Db,
  contactId: string,
  options: PageOptions,
): Promise<{ page: SegmentRow[]; hasMore: boolean }> {
  const { segments, contactSegments } = tablesOf(db);
  const { page, hasMore } = await pageById(
    contactSegments.segmentId,
    [eq(contactSegments.contactId, contactId)],
    options,
    (where, order, limit) =>
      db
        .select({ segment: segments })
        .from(contactSegments)
        .innerJoin(segments, eq(segments.id, contactSegments.segmentId))
        .where(where)
        .orderBy(order)
        .limit(limit),
  );
  return { page: page.map((row) => row.segment), hasMore };
}

/** The ids of the segments a contact is in (for its events). */
export async function segmentIdsOf(db: Db, contactId: string): Promise<string[]> {
  const { contactSegments } = tablesOf(db);
  const rows = await db
    .select({ id: contactSegments.segmentId })
    .from(contactSegments)
    .where(eq(contactSegments.contactId, contactId))
    .orderBy(desc(contactSegments.segmentId))
    .limit(1000);
  return rows.map((row) => row.id);
}

/** How many of the newest contacts a search reads for names and address fragments (docs/contacts.md#search). */
export const SEARCH_WINDOW = 10_000;
/**
 * The window is read in slices of this many contacts, each its own statement with a turn of the event loop between:
 * on SQLite a statement runs on the loop, and the whole window in one measured 13 ms (50 ms and more under load).
 */
const SEARCH_SLICE = 2_000;

const likeEscaped = (text: string) => text.replace(/[%_\\]/g, "\\$&");

/**
 * The contacts a search term finds (docs/contacts.md#search), at most `limit` and whether more match: every contact
 * whose address starts with `term` (a range of `contacts_email`, whatever the organisation's size), then those among
 * the newest SEARCH_WINDOW whose first name, last name or full name starts with it, or whose address contains it (a
 * range of `contacts_page`, so the cost is bounded by the window, never by the organisation). `term` is lower-case.
 */
export async function searchContacts(
  db: Db,
  organizationId: string,
  term: string,
  limit: number,
): Promise<{ page: ContactRow[]; hasMore: boolean }> {
  const { contacts } = tablesOf(db);
  // In binary order (SQLite, and PostgreSQL's C collation) every address starting with `term` lies in
  // [term, term with its last character raised); the substr test keeps the answer right under any collation.
  const last = term.charCodeAt(term.length - 1);
  const above = term.slice(0, -1) + String.fromCharCode(last + 1);
  const byAddress = await db
    .select()
    .from(contacts)
    .where(
      and(
        eq(contacts.organizationId, organizationId),
        sql`${contacts.email} >= ${term}`,
        sql`${contacts.email} < ${above}`,
        sql`substr(${contacts.email}, 1, ${term.length}) = ${term}`,
      ),
    )
    .orderBy(contacts.email)
    .limit(limit + 1);
  if (byAddress.length > limit) return { page: byAddress.slice(0, limit), hasMore: true };
  const starts = `${likeEscaped(term)}%`;
  // A term with a space is a full name; without one, the start of a first or last name, or part of an address.
  const matches = term.includes(" ")
    ? likeAnyCase(db, sql`(${contacts.firstName} || ' ' || ${contacts.lastName})`, starts)
    : sql`(${likeAnyCase(db, contacts.firstName, starts)} OR ${likeAnyCase(db, contacts.lastName, starts)}
        OR ${likeAnyCase(db, contacts.email, `%${likeEscaped(term)}%`)})`;
  const byName: ContactRow[] = [];
  let below: string | undefined; // the newest id not yet read; undefined: the newest contact
  const wanted = limit + 1 - byAddress.length;
  for (let read = 0; read < SEARCH_WINDOW && byName.length < wanted; read += SEARCH_SLICE) {
    if (below !== undefined) await new Promise((resolve) => setImmediate(resolve));
    const newer = below === undefined ? undefined : lt(contacts.id, below);
    // The slice's oldest id, read from contacts_page alone ("" when the organisation's oldest is within the slice).
    const [edge] = await db
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.organizationId, organizationId), newer))
      .orderBy(desc(contacts.id))
      .limit(1)
      .offset(SEARCH_SLICE - 1);
    const bound = edge?.id ?? "";
    const found = await db
      .select()
      .from(contacts)
      .where(
        and(
          eq(contacts.organizationId, organizationId),
          sql`${contacts.id} >= ${bound}`,
          newer,
          matches,
          sql`NOT (substr(${contacts.email}, 1, ${term.length}) = ${term})`,
        ),
      )
      .orderBy(desc(contacts.id))
      .limit(wanted - byName.length);
    byName.push(...found);
    if (bound === "") break;
    below = bound;
  }
  const page = [...byAddress, ...byName];
  return { page: page.slice(0, limit), hasMore: page.length > limit };
}
