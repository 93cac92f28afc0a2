/**
 * The inbound routes' PostgreSQL table (docs/store.md#tables), column for column its SQLite twin in ../schema/received.ts.
 * Invariant: db/schema.test.ts proves them equal to each other and to both engines' migrations.
 */
import { doublePrecision, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { ROUTE_ACTIONS } from "../schema/received.ts";

export const inboundRoutes = pgTable("inbound_routes", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  position: integer("position").notNull(),
  matchRecipient: text("match_recipient"),
  matchHeaderName: text("match_header_name"),
  matchHeaderContains: text("match_header_contains"),
  action: text("action", { enum: ROUTE_ACTIONS }).notNull(),
  forwardTo: jsonb("forward_to").$type<string[]>().notNull(),
  webhookIds: jsonb("webhook_ids").$type<string[]>().notNull(),
  spamThreshold: doublePrecision("spam_threshold"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});
