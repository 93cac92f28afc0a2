import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const domains = sqliteTable("domains", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  name: text("name").notNull(),
  status: text("status").notNull(),
  verifiedOverride: integer("verified_override", { mode: "boolean" }).notNull().default(false),
  openTracking: integer("open_tracking", { mode: "boolean" }).notNull().default(false),
  clickTracking: integer("click_tracking", { mode: "boolean" }).notNull().default(false),
  returnPathSubdomain: text("return_path_subdomain").notNull().default("send"),
  receivingEnabled: integer("receiving_enabled", { mode: "boolean" }).notNull().default(false),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});
