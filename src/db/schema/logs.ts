import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The request log (docs/logs-and-mcp.md#the-request-log): one row per API request made with a key, secrets already replaced. */
export const requestLogs = sqliteTable("request_logs", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  apiKeyId: text("api_key_id"),
  mode: text("mode", { enum: ["live", "test"] }).notNull(),
  createdAt: text("created_at").notNull(),
  endpoint: text("endpoint").notNull(),
  method: text("method").notNull(),
  responseStatus: integer("response_status").notNull(),
  userAgent: text("user_agent"),
  requestBody: text("request_body", { mode: "json" }).$type<unknown>(),
  responseBody: text("response_body", { mode: "json" }).$type<unknown>(),
});
