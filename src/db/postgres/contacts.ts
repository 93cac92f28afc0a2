/**
 * The audience's PostgreSQL tables (docs/contacts.md), column for column ../schema/contacts.ts. Invariant:
 * db/schema.test.ts proves them equal to the SQLite ones and to both engines' migrations.
 */
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import {
  IMPORT_STATUSES,
  type ImportColumnMap,
  type ImportLineError,
  PROPERTY_TYPES,
  type PropertyValues,
  TOPIC_SUBSCRIPTIONS,
  TOPIC_VISIBILITIES,
  type TopicSubscription,
} from "../schema/contacts.ts";
import { millis } from "./columns.ts";

export const contacts = pgTable(
  "contacts",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id").notNull(),
    email: text("email").notNull(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    unsubscribed: boolean("unsubscribed").notNull(),
    properties: jsonb("properties").$type<PropertyValues>().notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [
    uniqueIndex("contacts_email").on(table.organizationId, table.email),
    index("contacts_page").on(table.organizationId, table.id),
  ],
);

export const contactProperties = pgTable("contact_properties", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  key: text("key").notNull(),
  type: text("type", { enum: PROPERTY_TYPES }).notNull(),
  fallbackValue: jsonb("fallback_value").$type<string | number | null>(),
  createdAt: text("created_at").notNull(),
});

export const segments = pgTable("segments", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  name: text("name").notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const contactSegments = pgTable(
  "contact_segments",
  {
    segmentId: text("segment_id").notNull(),
    contactId: text("contact_id").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.segmentId, table.contactId] })],
);

export const topics = pgTable("topics", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  name: text("name").notNull(),
  description: text("description"),
  defaultSubscription: text("default_subscription", { enum: TOPIC_SUBSCRIPTIONS }).notNull(),
  visibility: text("visibility", { enum: TOPIC_VISIBILITIES }).notNull(),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const contactTopics = pgTable(
  "contact_topics",
  {
    contactId: text("contact_id").notNull(),
    topicId: text("topic_id").notNull(),
    subscription: text("subscription", { enum: TOPIC_SUBSCRIPTIONS }).notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.contactId, table.topicId] })],
);

export const contactImports = pgTable("contact_imports", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  status: text("status", { enum: IMPORT_STATUSES }).notNull(),
  onConflict: text("on_conflict", { enum: ["upsert", "skip"] }).notNull(),
  columnMap: jsonb("column_map").$type<ImportColumnMap>().notNull(),
  segments: jsonb("segments").$type<string[]>().notNull(),
  topics: jsonb("topics").$type<Array<{ id: string; subscription: TopicSubscription }>>().notNull(),
  filePath: text("file_path"),
  fileBytes: integer("file_bytes").notNull(),
  total: integer("total").notNull(),
  created: integer("created").notNull(),
  updated: integer("updated").notNull(),
  skipped: integer("skipped").notNull(),
  failed: integer("failed").notNull(),
  errors: jsonb("errors").$type<ImportLineError[]>().notNull(),
  error: text("error"),
  leaseUntil: millis("lease_until"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  completedAt: text("completed_at"),
});
