/**
 * The request log's PostgreSQL table (docs/store.md#tables), column for column ../schema/logs.ts. Invariant:
 * db/schema.test.ts proves it equal to the SQLite one and to both engines' migrations.
 */
import { integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";

export const requestLogs = pgTable("request_logs", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  apiKeyId: text("api_key_id"),
  mode: text("mode", { enum: ["live", "test"] }).notNull(),
  createdAt: text("created_at").notNull(),
  endpoint: text("endpoint").notNull(),
  method: text("method").notNull(),
  responseStatus: integer("response_status").notNull(),
  userAgent: text("user_agent"),
  requestBody: jsonb("request_body").$type<unknown>(),
  responseBody: jsonb("response_body").$type<unknown>(),
});
