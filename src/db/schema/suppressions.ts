import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const suppressions = sqliteTable(
  "suppressions",
  {
    organizationId: text("organization_id").notNull(),
    /** Always set (migration 9 explains why the column is nullable). */
    id: text("id"),
    email: text("email").notNull(),
    origin: text("origin", { enum: ["bounce", "complaint", "unsubscribe", "manual"] }).notNull(),
    sourceId: text("source_id"),
    reason: text("reason"),
    createdAt: text("created_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.email] })],
);
