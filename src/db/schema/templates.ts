import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import type { TemplateContent } from "../../templates/model.ts";

export const templates = sqliteTable("templates", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  name: text("name").notNull(),
  alias: text("alias"),
  engine: text("engine", { enum: ["handlebars", "mjml"] }).notNull(),
  /** The current version: what get shows and an update changes. */
  draft: text("draft", { mode: "json" }).$type<TemplateContent>().notNull(),
  draftVersionId: text("draft_version_id").notNull(),
  /** The version sends use; null until the first publish. */
  published: text("published", { mode: "json" }).$type<TemplateContent>(),
  publishedVersionId: text("published_version_id"),
  publishedAt: text("published_at"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});
