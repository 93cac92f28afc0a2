/**
 * Queries of segments, topics, contact properties and a contact's topic choices (docs/contacts.md#tables); no rules.
 * Every query names one organisation, or a contact or topic already found in one.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { pageById, type PageOptions } from "../db/pages.ts";
import { notifyAtCommit } from "../db/dialect.ts";
import { perConnection, prepareAs } from "../db/prepared.ts";
import { POLICY_CHANGED } from "../db/read-cache.ts";
import type { contactProperties, topics, TopicSubscription } from "../db/schema/index.ts";
import { first, tablesOf, type Db } from "../db/store.ts";
import type { SegmentRow } from "./repo.ts";

export type TopicRow = typeof topics.$inferSelect;
export type PropertyRow = typeof contactProperties.$inferSelect;

/** Topics and properties an organisation may hold: each is read whole for a contact's answer. */
export const MAX_TOPICS = 1000;
export const MAX_PROPERTIES = 1000;

export async function insertSegment(tx: Db, row: SegmentRow): Promise<void> {
  await tx.insert(tablesOf(tx).segments).values(row);
}

export async function renameSegment(tx: Db, id: string, name: string, updatedAt: string): Promise<void> {
  const { segments } = tablesOf(tx);
  await tx.update(segments).set({ name, updatedAt }).where(eq(segments.id, id));
}

/** The segment goes; its contacts stay (only their membership goes). */
export async function deleteSegment(tx: Db, id: string): Promise<void> {
  const { segments, contactSegments } = tablesOf(tx);
  await tx.delete(contactSegments).where(eq(contactSegments.segmentId, id));
  await tx.delete(segments).where(eq(segments.id, id));
}

/** How many contacts a segment holds: one count over the membership's primary key (segment_id first). */
export async function countSegmentContacts(db: Db, segmentId: string): Promise<number> {
  const { contactSegments } = tablesOf(db);
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(contactSegments)
    .where(eq(contactSegments.segmentId, segmentId));
  return Number(row?.n ?? 0);
}

export function pageSegments(db: Db, organizationId: string, options: PageOptions) {
  const { segments } = tablesOf(db);
  return pageById(segments.id, [eq(segments.organizationId, organizationId)], options, (where, order, limit) =>
    db.select().from(segments).where(where).orderBy(order).limit(limit),
  );
}

// Prepared once: every send with a topic reads its topic (db/prepared.ts: building the statement anew cost more
// than running it).
const topicStatement = perConnection((db: Db) => {
  const { topics } = tablesOf(db);
  return prepareAs(
    "topic_by_id",
    db
      .select()
      .from(topics)
      .where(and(eq(topics.organizationId, sql.placeholder("organizationId")), eq(topics.id, sql.placeholder("id")))),
  );
});

export function findTopic(db: Db, organizationId: string, id: string): Promise<TopicRow | undefined> {
  return first(topicStatement(db).execute({ organizationId, id }) as Promise<TopicRow[]>);
}

// Every topic write tells the send path's topic cache (contacts/service.ts) at commit, on every instance.
export async function insertTopic(tx: Db, row: TopicRow): Promise<void> {
  await tx.insert(tablesOf(tx).topics).values(row);
  await notifyAtCommit(tx, POLICY_CHANGED);
}

export async function updateTopic(
  tx: Db,
  id: string,
  patch: Partial<Pick<TopicRow, "name" | "description" | "visibility" | "updatedAt">>,
): Promise<void> {
  const { topics } = tablesOf(tx);
  await tx.update(topics).set(patch).where(eq(topics.id, id));
  await notifyAtCommit(tx, POLICY_CHANGED);
}

export async function deleteTopic(tx: Db, id: string): Promise<void> {
  const { topics, contactTopics } = tablesOf(tx);
  await tx.delete(contactTopics).where(eq(contactTopics.topicId, id));
  await tx.delete(topics).where(eq(topics.id, id));
  await notifyAtCommit(tx, POLICY_CHANGED);
}

export function pageTopics(db: Db, organizationId: string, options: PageOptions) {
  const { topics } = tablesOf(db);
  return pageById(topics.id, [eq(topics.organizationId, organizationId)], options, (where, order, limit) =>
    db.select().from(topics).where(where).orderBy(order).limit(limit),
  );
}

export async function countTopics(db: Db, organizationId: string): Promise<number> {
  const { topics } = tablesOf(db);
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(topics)
    .where(eq(topics.organizationId, organizationId));
  return Number(row?.n ?? 0);
}

/** One page of the organisation's topics, each with the contact's own choice (null: none, the default applies). */
export async function pageTopicChoices(db: Db, organizationId: string, contactId: string, options: PageOptions) {
  const { topics, contactTopics } = tablesOf(db);
  return pageById(topics.id, [eq(topics.organizationId, organizationId)], options, (where, order, limit) =>
    db
      .select({ topic: topics, subscription: contactTopics.subscription })
      .from(topics)
      .leftJoin(contactTopics, and(eq(contactTopics.topicId, topics.id), eq(contactTopics.contactId, contactId)))
      .where(where)
      .orderBy(order)
      .limit(limit),
  );
}

/** Records the contact's choice of the topic (replacing an earlier one). */
export async function setChoice(
  tx: Db,
  contactId: string,
  topicId: string,
  subscription: TopicSubscription,
  updatedAt: string,
): Promise<void> {
  const { contactTopics } = tablesOf(tx);
  await tx
    .insert(contactTopics)
    .values({ contactId, topicId, subscription, updatedAt })
    .onConflictDoUpdate({
      target: [contactTopics.contactId, contactTopics.topicId],
      set: { subscription, updatedAt },
    });
}

export function findProperty(db: Db, organizationId: string, id: string): Promise<PropertyRow | undefined> {
  const { contactProperties } = tablesOf(db);
  return first(
    db
      .select()
      .from(contactProperties)
      .where(and(eq(contactProperties.organizationId, organizationId), eq(contactProperties.id, id))),
  );
}

/** Every property the organisation defined, by key (at most MAX_PROPERTIES). */
export async function propertiesOf(db: Db, organizationId: string): Promise<Map<string, PropertyRow>> {
  const { contactProperties } = tablesOf(db);
  const rows = await db
    .select()
    .from(contactProperties)
    .where(eq(contactProperties.organizationId, organizationId))
    .orderBy(asc(contactProperties.key))
    .limit(MAX_PROPERTIES);
  return new Map(rows.map((row) => [row.key, row]));
}

export async function insertProperty(tx: Db, row: PropertyRow): Promise<void> {
  await tx.insert(tablesOf(tx).contactProperties).values(row);
}

export async function setPropertyFallback(tx: Db, id: string, fallbackValue: string | number | null): Promise<void> {
  const { contactProperties } = tablesOf(tx);
  await tx.update(contactProperties).set({ fallbackValue }).where(eq(contactProperties.id, id));
}

export async function deleteProperty(tx: Db, id: string): Promise<void> {
  const { contactProperties } = tablesOf(tx);
  await tx.delete(contactProperties).where(eq(contactProperties.id, id));
}

export function pageProperties(db: Db, organizationId: string, options: PageOptions) {
  const { contactProperties } = tablesOf(db);
  return pageById(
    contactProperties.id,
    [eq(contactProperties.organizationId, organizationId)],
    options,
    (where, order, limit) => db.select().from(contactProperties).where(where).orderBy(order).limit(limit),
  );
}
