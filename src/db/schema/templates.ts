import { sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The stored shapes of a template version (JSON columns); the templates area re-exports them. */
export const TEMPLATE_ENGINES = ["handlebars", "mjml"] as const;
export type TemplateEngine = (typeof TEMPLATE_ENGINES)[number];

export interface TemplateVariable {
  key: string;
  type: "string" | "number";
  fallback_value: string | number | null;
  created_at: string;
  updated_at: string;
}

/** One version of a template: what is rendered. */
export interface TemplateContent {
  /** Absent in versions saved before MJML was available: those are Handlebars. */
  engine?: TemplateEngine;
  subject: string | null;
  from: string | null;
  reply_to: string[] | null;
  html: string;
  text: string | null;
  variables: TemplateVariable[];
}

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
