/** Broadcasts (docs/broadcasts.md): migration 0037 creates the table; db/schema.test.ts checks they agree. */
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Resend's statuses, and `canceled` for a broadcast stopped while it was being sent (docs/broadcasts.md#statuses). */
export const BROADCAST_STATUSES = ["draft", "queued", "sent", "canceled"] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/** A saved template sent in place of html, with the variables it is rendered with once, at send. */
export interface BroadcastTemplate {
  id: string;
  variables?: Record<string, unknown>;
}

export const broadcasts = sqliteTable(
  "broadcasts",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    name: text("name").notNull(),
    segmentId: text("segment_id"),
    topicId: text("topic_id"),
    from: text("from_address"),
    subject: text("subject"),
    replyTo: text("reply_to", { mode: "json" }).$type<string[]>(),
    previewText: text("preview_text"),
    html: text("html"),
    text: text("text"),
    template: text("template", { mode: "json" }).$type<BroadcastTemplate>(),
    status: text("status", { enum: BROADCAST_STATUSES }).notNull(),
    scheduledAt: text("scheduled_at"),
    sentAt: text("sent_at"),
    /** The key that sent it: its messages are that key's. */
    apiKeyId: text("api_key_id"),
    /** The last contact id of the segment the fan-out reached (contacts are reached in id order). */
    cursor: text("cursor"),
    queuedCount: integer("queued_count").notNull().default(0),
    skippedCount: integer("skipped_count").notNull().default(0),
    /** When the fan-out is next due (epoch ms); null: nothing to do. */
    nextAttemptAt: integer("next_attempt_at"),
    leaseOwner: text("lease_owner"),
    leaseUntil: integer("lease_until"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("broadcasts_page").on(table.organizationId, table.id)],
);
