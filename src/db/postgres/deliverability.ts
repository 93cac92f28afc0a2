/**
 * The deliverability PostgreSQL tables (docs/store.md#tables), column for column their SQLite twins: MTA-STS
 * policies, TLS-RPT counts and periods, blocklist listings, and the sending IPs' volumes and first use.
 * Invariant: db/schema.test.ts proves them equal to the SQLite ones and to both engines' migrations.
 */
import { boolean, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import type { StoredMtaStsPolicy } from "../schema/shared.ts";
import { millis } from "./columns.ts";

export const mtaStsPolicies = pgTable("mta_sts_policies", {
  domain: text("domain").primaryKey(),
  policyId: text("policy_id").notNull(),
  policy: jsonb("policy").$type<StoredMtaStsPolicy>().notNull(),
  expiresAt: millis("expires_at").notNull(),
});

export const tlsRptCounts = pgTable(
  "tls_rpt_counts",
  {
    periodStart: millis("period_start").notNull(),
    policyDomain: text("policy_domain").notNull(),
    policyType: text("policy_type", { enum: ["sts", "tlsa", "no-policy-found"] }).notNull(),
    mxHost: text("mx_host").notNull(),
    result: text("result").notNull(),
    sendingIp: text("sending_ip").notNull(),
    receivingIp: text("receiving_ip").notNull(),
    policyString: jsonb("policy_string").$type<string[]>(),
    sessions: integer("sessions").notNull(),
    /** The last session counted (docs/deliverability.md#dane-per-destination). */
    lastAt: millis("last_at").notNull().default(0),
  },
  (table) => [
    primaryKey({
      columns: [
        table.periodStart,
        table.policyDomain,
        table.policyType,
        table.mxHost,
        table.result,
        table.sendingIp,
        table.receivingIp,
      ],
    }),
  ],
);

export const tlsRptPeriods = pgTable(
  "tls_rpt_periods",
  {
    periodStart: millis("period_start").notNull(),
    policyDomain: text("policy_domain").notNull(),
    handledAt: text("handled_at").notNull(),
    outcome: text("outcome").notNull(),
  },
  (table) => [primaryKey({ columns: [table.periodStart, table.policyDomain] })],
);

export const blocklistListings = pgTable(
  "blocklist_listings",
  {
    address: text("address").notNull(),
    zone: text("zone").notNull(),
    listed: boolean("listed").notNull(),
    reason: text("reason"),
    checkedAt: text("checked_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.address, table.zone] })],
);

/** Messages a source address delivered per destination provider and UTC day (`YYYY-MM-DD`): what warm-up caps. */
export const ipVolumes = pgTable(
  "ip_volumes",
  {
    address: text("address").notNull(),
    provider: text("provider").notNull(),
    day: text("day").notNull(),
    messages: integer("messages").notNull(),
  },
  (table) => [primaryKey({ columns: [table.address, table.provider, table.day] })],
);

/** The UTC day a source address first sent: day 1 of its warm-up. */
export const ipFirstUse = pgTable("ip_first_use", {
  address: text("address").primaryKey(),
  day: text("day").notNull(),
});
