/**
 * Broadcasts' PostgreSQL table (docs/broadcasts.md), column for column ../schema/broadcasts.ts. Invariant:
 * db/schema.test.ts proves them equal to the SQLite one and to both engines' migrations.
 */
import { index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { BROADCAST_STATUSES, type BroadcastTemplate } from "../schema/broadcasts.ts";
import { millis } from "./columns.ts";

export const broadcasts = pgTable(
  "broadcasts",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    name: text("name").notNull(),
    segmentId: text("segment_id"),
    topicId: text("topic_id"),
    from: text("from_address"),
    subject: text("subject"),
    replyTo: jsonb("reply_to").$type<string[]>(),
    previewText: text("preview_text"),
    html: text("html"),
    text: text("text"),
    template: jsonb("template").$type<BroadcastTemplate>(),
    status: text("status", { enum: BROADCAST_STATUSES }).notNull(),
    scheduledAt: text("scheduled_at"),
    sentAt: text("sent_at"),
    apiKeyId: text("api_key_id"),
    cursor: text("cursor"),
    queuedCount: integer("queued_count").notNull().default(0),
    skippedCount: integer("skipped_count").notNull().default(0),
    nextAttemptAt: millis("next_attempt_at"),
    leaseOwner: text("lease_owner"),
    leaseUntil: millis("lease_until"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("broadcasts_page").on(table.organizationId, table.id)],
);
