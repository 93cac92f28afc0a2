import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const organizations = sqliteTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  rateLimitPerMinute: integer("rate_limit_per_minute"),
  createdAt: text("created_at").notNull(),
});

/**
 * Sending paused (DESIGN §12): for the whole organisation (`name` empty), one sending domain or one provider.
 * While a row applies, its mail is accepted and waits as `held`.
 */
export const sendingPauses = sqliteTable(
  "sending_pauses",
  {
    organizationId: text("organization_id").notNull(),
    scope: text("scope", { enum: ["organization", "domain", "provider"] }).notNull(),
    name: text("name").notNull(),
    reason: text("reason"),
    pausedAt: text("paused_at").notNull(),
    pausedBy: text("paused_by"),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.scope, table.name] })],
);
