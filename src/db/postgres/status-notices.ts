/**
 * The relay's delivery status notification tables on PostgreSQL (docs/smtp.md#delivery-status-notifications),
 * column for column their SQLite twins in ../schema/emails.ts. Invariant: db/schema.test.ts proves them equal.
 */
import { pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { millis } from "./columns.ts";

export const relayEnvelopes = pgTable("relay_envelopes", {
  emailId: text("email_id").primaryKey(),
  returnTo: text("return_to").notNull(),
  ret: text("ret", { enum: ["FULL", "HDRS"] }),
  envid: text("envid"),
});

export const dsnReports = pgTable(
  "dsn_reports",
  {
    deliveryId: text("delivery_id").notNull(),
    action: text("action", { enum: ["failed", "delayed", "delivered", "relayed"] }).notNull(),
    organizationId: text("organization_id").notNull(),
    emailId: text("email_id").notNull(),
    recipient: text("recipient").notNull(),
    response: text("response"),
    createdAt: millis("created_at").notNull(),
    reportEmailId: text("report_email_id"),
  },
  (table) => [primaryKey({ columns: [table.deliveryId, table.action] })],
);
