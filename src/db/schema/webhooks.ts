import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const webhookEndpoints = sqliteTable("webhook_endpoints", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  url: text("url").notNull(),
  description: text("description"),
  eventTypes: text("event_types", { mode: "json" }).$type<string[]>().notNull(),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  disabledReason: text("disabled_reason"),
  disabledAt: text("disabled_at"),
  /** Sealed with the secret box. */
  secret: text("secret").notNull(),
  /** The secret before the last rotation (sealed); it keeps signing until `previousSecretUntil` (epoch ms). */
  previousSecret: text("previous_secret"),
  previousSecretUntil: integer("previous_secret_until"),
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const webhookDeliveries = sqliteTable("webhook_deliveries", {
  /** Also the `webhook-id` header: stable across retries and replays. */
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  endpointId: text("endpoint_id").notNull(),
  /** Null for test events. */
  eventId: text("event_id"),
  eventType: text("event_type").notNull(),
  /** The exact JSON body that is signed and sent. */
  payload: text("payload").notNull(),
  status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
  attemptCount: integer("attempt_count").notNull().default(0),
  /** Attempts since the delivery was created or last replayed: the position in the retry schedule. */
  scheduleStep: integer("schedule_step").notNull().default(0),
  nextAttemptAt: integer("next_attempt_at"),
  leaseOwner: text("lease_owner"),
  leaseUntil: integer("lease_until"),
  lastStatusCode: integer("last_status_code"),
  lastError: text("last_error"),
  lastAttemptAt: text("last_attempt_at"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const webhookAttempts = sqliteTable("webhook_attempts", {
  id: text("id").primaryKey(),
  deliveryId: text("delivery_id").notNull(),
  attemptedAt: text("attempted_at").notNull(),
  statusCode: integer("status_code"),
  /** The first 1 KB of the response body. */
  responseBody: text("response_body"),
  error: text("error"),
  durationMs: integer("duration_ms").notNull(),
});
