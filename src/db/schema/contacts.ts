/** The audience's tables (docs/contacts.md): migration 0033 creates them; db/schema.test.ts checks they agree. */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const TOPIC_SUBSCRIPTIONS = ["opt_in", "opt_out"] as const;
export type TopicSubscription = (typeof TOPIC_SUBSCRIPTIONS)[number];
export const TOPIC_VISIBILITIES = ["public", "private"] as const;
export const PROPERTY_TYPES = ["string", "number"] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];
export const IMPORT_STATUSES = ["queued", "in_progress", "completed", "failed"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** A contact's property values, by property key. */
export type PropertyValues = Record<string, string | number>;

/** How an import reads its CSV: which column holds what (Resend's `column_map`, snake_case). */
export interface ImportColumnMap {
  email?: string;
  first_name?: string;
  last_name?: string;
  unsubscribed?: string;
  properties?: Record<string, { column: string; type?: "string" | "number" | "boolean" }>;
}

/** One CSV line an import could not take, and why. */
export interface ImportLineError {
  line: number;
  message: string;
}

export const contacts = sqliteTable(
  "contacts",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    /** The address key (lower-case): one contact per address per organisation. */
    email: text("email").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    /** Out of every broadcast and every topic. */
    unsubscribed: integer("unsubscribed", { mode: "boolean" }).notNull(),
    properties: text("properties", { mode: "json" }).$type<PropertyValues>().notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [
    uniqueIndex("contacts_email").on(table.organizationId, table.email),
    index("contacts_page").on(table.organizationId, table.id),
  ],
);

export const contactProperties = sqliteTable("contact_properties", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  key: text("key").notNull(),
  type: text("type", { enum: PROPERTY_TYPES }).notNull(),
  fallbackValue: text("fallback_value", { mode: "json" }).$type<string | number | null>(),
  createdAt: text("created_at").notNull(),
});

export const segments = sqliteTable("segments", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  name: text("name").notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const contactSegments = sqliteTable(
  "contact_segments",
  {
    segmentId: text("segment_id").notNull(),
    contactId: text("contact_id").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.segmentId, table.contactId] })],
);

export const topics = sqliteTable("topics", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  name: text("name").notNull(),
  description: text("description"),
  /** Fixed at create: what a contact who never chose receives. */
  defaultSubscription: text("default_subscription", { enum: TOPIC_SUBSCRIPTIONS }).notNull(),
  visibility: text("visibility", { enum: TOPIC_VISIBILITIES }).notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/** Only the choices a contact made; the topic's default answers for everyone else. */
export const contactTopics = sqliteTable(
  "contact_topics",
  {
    contactId: text("contact_id").notNull(),
    topicId: text("topic_id").notNull(),
    subscription: text("subscription", { enum: TOPIC_SUBSCRIPTIONS }).notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.contactId, table.topicId] })],
);

export const contactImports = sqliteTable("contact_imports", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  status: text("status", { enum: IMPORT_STATUSES }).notNull(),
  onConflict: text("on_conflict", { enum: ["upsert", "skip"] }).notNull(),
  columnMap: text("column_map", { mode: "json" }).$type<ImportColumnMap>().notNull(),
  segments: text("segments", { mode: "json" }).$type<string[]>().notNull(),
  topics: text("topics", { mode: "json" }).$type<Array<{ id: string; subscription: TopicSubscription }>>().notNull(),
  /** The spooled upload, until the import finishes (then null and the file removed). */
  filePath: text("file_path"),
  fileBytes: integer("file_bytes").notNull(),
  total: integer("total").notNull(),
  created: integer("created").notNull(),
  updated: integer("updated").notNull(),
  skipped: integer("skipped").notNull(),
  failed: integer("failed").notNull(),
  /** The first lines that failed (capped: docs/contacts.md#imports). */
  errors: text("errors", { mode: "json" }).$type<ImportLineError[]>().notNull(),
  /** Why the whole import failed (status failed). */
  error: text("error"),
  /** Epoch ms until which one instance holds the import; a crashed holder's lease runs out and another resumes. */
  leaseUntil: integer("lease_until"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  completedAt: text("completed_at"),
});
