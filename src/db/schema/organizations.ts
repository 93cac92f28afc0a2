import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const organizations = sqliteTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  rateLimitPerMinute: integer("rate_limit_per_minute"),
  createdAt: text("created_at").notNull(),
});
