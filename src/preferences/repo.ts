/**
 * The reads of the public unsubscribe paths (docs/contacts-preferences.md): whom a token names — a delivery with
 * its message, or a contact — the organisation's name, and the topics its preference page lists with the
 * address's current choice of each. Each is one statement by a primary key or the `contacts_email` and
 * `topics_page` indexes; the page's topics are at most the organisation's topics (capped by src/contacts).
 */
import { sql } from "drizzle-orm";
import { rawRows } from "../db/dialect.ts";
import type { Db } from "../db/store.ts";
import type { PageTopic, TopicSubscription } from "./model.ts";

/** The most topics the page lists (the contacts area caps an organisation's topics at this). */
const PAGE_TOPICS = 1000;

export interface DeliverySubjectRow {
  organizationId: string;
  recipient: string;
  emailId: string;
  topicId: string | null;
  envelopeFrom: string;
  mode: string;
}

export async function deliverySubject(db: Db, deliveryId: string): Promise<DeliverySubjectRow | undefined> {
  const rows = await rawRows<DeliverySubjectRow>(
    db,
    sql`SELECT e.organization_id AS "organizationId", d.recipient, d.email_id AS "emailId", e.topic_id AS "topicId",
  e.envelope_from AS "envelopeFrom", e.mode
FROM deliveries d JOIN emails e ON e.id = d.email_id WHERE d.id = ${deliveryId}`,
  );
  return rows[0];
}

export async function contactSubject(
  db: Db,
  contactId: string,
): Promise<{ organizationId: string; email: string } | undefined> {
  const rows = await rawRows<{ organizationId: string; email: string }>(
    db,
    sql`SELECT organization_id AS "organizationId", email FROM contacts WHERE id = ${contactId}`,
  );
  return rows[0];
}

export async function organizationName(db: Db, organizationId: string): Promise<string> {
  const rows = await rawRows<{ name: string }>(db, sql`SELECT name FROM organizations WHERE id = ${organizationId}`);
  return rows[0]?.name ?? "";
}

/** Whether the address's contact is unsubscribed from everything (false when it is no contact). */
export async function unsubscribedEverywhere(db: Db, organizationId: string, email: string): Promise<boolean> {
  const rows = await rawRows<{ unsubscribed: unknown }>(
    db,
    sql`SELECT unsubscribed FROM contacts WHERE organization_id = ${organizationId} AND email = ${email}`,
  );
  // SQLite answers 0/1, PostgreSQL a boolean.
  return rows.length > 0 && Boolean(Number(rows[0]!.unsubscribed));
}

/**
 * The organisation's public topics, and `alsoTopicId` whatever its visibility (the link was for it), each with the
 * address's effective choice: its own, else the topic's default.
 */
export async function pageTopics(
  db: Db,
  organizationId: string,
  email: string,
  alsoTopicId: string | null,
): Promise<PageTopic[]> {
  const rows = await rawRows<{
    id: string;
    name: string;
    description: string | null;
    defaultSubscription: TopicSubscription;
    subscription: TopicSubscription | null;
  }>(
    db,
    sql`SELECT t.id, t.name, t.description, t.default_subscription AS "defaultSubscription", ct.subscription
FROM topics t
LEFT JOIN contacts c ON c.organization_id = t.organization_id AND c.email = ${email}
LEFT JOIN contact_topics ct ON ct.contact_id = c.id AND ct.topic_id = t.id
WHERE t.organization_id = ${organizationId} AND (t.visibility = 'public' OR t.id = ${alsoTopicId ?? ""})
ORDER BY t.id LIMIT ${PAGE_TOPICS}`,
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    subscribed: (row.subscription ?? row.defaultSubscription) === "opt_in",
  }));
}
