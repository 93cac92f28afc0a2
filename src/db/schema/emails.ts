import { blob, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export interface Tag {
  name: string;
  value: string;
}

export const emails = sqliteTable("emails", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  apiKeyId: text("api_key_id"),
  source: text("source", { enum: ["api", "smtp", "cli", "forward"] }).notNull(),
  mode: text("mode", { enum: ["live", "test"] }).notNull(),
  messageId: text("message_id").notNull(),
  fromHeader: text("from_header").notNull(),
  envelopeFrom: text("envelope_from").notNull(),
  to: text("to_addresses", { mode: "json" }).$type<string[]>().notNull(),
  cc: text("cc_addresses", { mode: "json" }).$type<string[]>().notNull(),
  bcc: text("bcc_addresses", { mode: "json" }).$type<string[]>().notNull(),
  replyTo: text("reply_to", { mode: "json" }).$type<string[]>().notNull(),
  subject: text("subject").notNull(),
  html: text("html"),
  text: text("text"),
  tags: text("tags", { mode: "json" }).$type<Tag[]>().notNull(),
  status: text("status").notNull(),
  scheduledAt: text("scheduled_at"),
  size: integer("size").notNull(),
  /** The template the message was rendered from (docs/sending.md `template`), if any. */
  templateId: text("template_id"),
  /** The topic the message was sent for (docs/contacts-preferences.md); null: no topic choice applies. */
  topicId: text("topic_id"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  /** When retention removed the raw message and bodies (docs/operations.md); the record stays. */
  contentRemovedAt: text("content_removed_at"),
  /** transactional or broadcast (docs/operations.md#sending-lanes). */
  lane: text("lane", { enum: ["transactional", "broadcast"] })
    .notNull()
    .default("transactional"),
  /** The broadcast and the contact the message was made for (docs/broadcasts.md); unique together. */
  broadcastId: text("broadcast_id"),
  contactId: text("contact_id"),
  /**
   * Mail Mailroom sent for itself (docs/teams.md#system-mail): `password_link`, `invitation` or `notice`; null: the
   * organisation's own mail. Set by the funnel alone; hides the message from the organisation's lists and webhooks.
   */
  systemMail: text("system_mail", { enum: ["password_link", "invitation", "notice"] }),
});

/** The message as stored and sent, apart from its record: read only to deliver it and by `/raw`. */
export const emailContents = sqliteTable("email_contents", {
  emailId: text("email_id").primaryKey(),
  raw: blob("raw", { mode: "buffer" }).notNull(),
});

/**
 * Pieces of a large body on their way into its row (db/content-writes.ts). PostgreSQL stages bodies here; SQLite
 * commits them whole on its content thread and keeps the table only so both engines describe the same tables.
 */
export const contentParts = sqliteTable(
  "content_parts",
  {
    ownerId: text("owner_id").notNull(),
    seq: integer("seq").notNull(),
    bytes: blob("bytes", { mode: "buffer" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.ownerId, table.seq] })],
);

export const deliveries = sqliteTable("deliveries", {
  id: text("id").primaryKey(),
  emailId: text("email_id").notNull(),
  organizationId: text("organization_id").notNull(),
  recipient: text("recipient").notNull(),
  destination: text("destination").notNull(),
  status: text("status").notNull(),
  attempts: integer("attempts").notNull().default(0),
  nextAttemptAt: integer("next_attempt_at"),
  leaseOwner: text("lease_owner"),
  leaseUntil: integer("lease_until"),
  lastResponse: text("last_response"),
  provider: text("provider"),
  providerMessageId: text("provider_message_id"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  /** Released by hand while a pause applied: it goes whatever pause applies (docs/operations.md). */
  holdExempt: integer("hold_exempt", { mode: "boolean" }).notNull().default(false),
  /** Outcomes reported to a relayed message's envelope sender (docs/smtp.md#delivery-status-notifications); null: none. */
  dsnNotify: text("dsn_notify"),
  /** The ORCPT the relay's client gave (RFC 3461 §4.2), decoded. */
  dsnOrcpt: text("dsn_orcpt"),
  /** The message's lane, copied so a claim, a pause and the queue's counts read one table. */
  lane: text("lane", { enum: ["transactional", "broadcast"] })
    .notNull()
    .default("transactional"),
});

/** Where a relayed message's delivery status notifications go (its MAIL FROM), with its RET and ENVID. */
export const relayEnvelopes = sqliteTable("relay_envelopes", {
  emailId: text("email_id").primaryKey(),
  returnTo: text("return_to").notNull(),
  ret: text("ret", { enum: ["FULL", "HDRS"] }),
  envid: text("envid"),
});

/** The outbox of delivery status notifications the lifecycle asked for; `report_email_id` once one was sent. */
export const dsnReports = sqliteTable(
  "dsn_reports",
  {
    deliveryId: text("delivery_id").notNull(),
    action: text("action", { enum: ["failed", "delayed", "delivered", "relayed"] }).notNull(),
    organizationId: text("organization_id").notNull(),
    emailId: text("email_id").notNull(),
    recipient: text("recipient").notNull(),
    response: text("response"),
    createdAt: integer("created_at").notNull(),
    reportEmailId: text("report_email_id"),
  },
  (table) => [primaryKey({ columns: [table.deliveryId, table.action] })],
);

export const events = sqliteTable("events", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  emailId: text("email_id"),
  type: text("type").notNull(),
  recipient: text("recipient"),
  data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  createdAt: text("created_at").notNull(),
});

/**
 * The statistics' counts of events that metadata retention removed (emails/stats.ts adds them to the log's): per
 * organisation, UTC hour (`YYYY-MM-DDTHH`), the message's mode and the event type.
 */
export const eventRollups = sqliteTable(
  "event_rollups",
  {
    organizationId: text("organization_id").notNull(),
    hour: text("hour").notNull(),
    mode: text("mode", { enum: ["live", "test"] }).notNull(),
    type: text("type").notNull(),
    count: integer("count").notNull(),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.hour, table.mode, table.type] })],
);
