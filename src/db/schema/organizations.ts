import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { SendingHealth } from "./domains.ts";

export const organizations = sqliteTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  rateLimitPerMinute: integer("rate_limit_per_minute"),
  /** Messages per UTC day (docs/operations.md); null: none. */
  dailyQuota: integer("daily_quota"),
  /** Retention overrides in days; null: `[retention]` of the configuration. */
  contentRetentionDays: integer("content_retention_days"),
  metadataRetentionDays: integer("metadata_retention_days"),
  createdAt: text("created_at").notNull(),
  /** The organisation's sending health across its domains (docs/deliverability.md), as domains.health. */
  health: text("health", { mode: "json" }).$type<SendingHealth>(),
  healthSince: integer("health_since").notNull().default(0),
  /** The broadcast lane's health, judged apart from the organisation's own (docs/deliverability.md#guardrails). */
  broadcastHealth: text("broadcast_health", { mode: "json" }).$type<SendingHealth>(),
  broadcastHealthSince: integer("broadcast_health_since").notNull().default(0),
});

/**
 * What an organisation stores, as the retention job last counted it: the messages accepted up to `countedThrough`
 * (an email id; ids are time-ordered) and not removed since, and the bytes of content they still keep.
 */
export const organizationStorage = sqliteTable("organization_storage", {
  organizationId: text("organization_id").primaryKey(),
  messages: integer("messages").notNull(),
  contentBytes: integer("content_bytes").notNull(),
  countedThrough: text("counted_through").notNull(),
  measuredAt: text("measured_at").notNull(),
});

/**
 * Sending paused (docs/operations.md): for the whole organisation (`name` empty), one sending domain or one provider.
 * While a row applies, its mail is accepted and waits as `held`.
 */
export const sendingPauses = sqliteTable(
  "sending_pauses",
  {
    organizationId: text("organization_id").notNull(),
    scope: text("scope", { enum: ["organization", "domain", "provider", "lane"] }).notNull(),
    name: text("name").notNull(),
    reason: text("reason"),
    pausedAt: text("paused_at").notNull(),
    pausedBy: text("paused_by"),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.scope, table.name] })],
);
