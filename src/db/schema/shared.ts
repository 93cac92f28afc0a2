import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** One row per rate-limit bucket (`key:<id>`, `org:<id>`): what a check locks on PostgreSQL. */
export const rateLimitBuckets = sqliteTable("rate_limit_buckets", {
  bucket: text("bucket").primaryKey(),
});

/** Requests admitted to a bucket in one second (epoch seconds), kept for the window's length. */
export const rateLimitCounts = sqliteTable(
  "rate_limit_counts",
  {
    bucket: text("bucket").notNull(),
    second: integer("second").notNull(),
    admitted: integer("admitted").notNull(),
  },
  (table) => [primaryKey({ columns: [table.bucket, table.second] })],
);

/** When each periodic job is next due (ms): the instance that moves it forward takes the turn. */
export const periodicJobs = sqliteTable("periodic_jobs", {
  name: text("name").primaryKey(),
  nextRunAt: integer("next_run_at").notNull(),
});

/** Messages accepted per bucket (`org:<id>` for live mail, `key:<id>`) and UTC day: what daily quotas check. */
export const dailyUsage = sqliteTable(
  "daily_usage",
  {
    bucket: text("bucket").notNull(),
    day: text("day").notNull(),
    used: integer("used").notNull(),
  },
  (table) => [primaryKey({ columns: [table.bucket, table.day] })],
);

/** MTA-STS policies of recipient domains (RFC 8461 §3.3), shared by the instances and kept across restarts. */
export const mtaStsPolicies = sqliteTable("mta_sts_policies", {
  domain: text("domain").primaryKey(),
  policyId: text("policy_id").notNull(),
  policy: text("policy", { mode: "json" }).$type<StoredMtaStsPolicy>().notNull(),
  expiresAt: integer("expires_at").notNull(),
});

export interface StoredMtaStsPolicy {
  mode: "enforce" | "testing" | "none";
  mx: string[];
  maxAgeSeconds: number;
}

/** TLS sessions of direct deliveries counted per reporting period and what RFC 8460 reports group them by. */
export const tlsRptCounts = sqliteTable(
  "tls_rpt_counts",
  {
    periodStart: integer("period_start").notNull(),
    policyDomain: text("policy_domain").notNull(),
    policyType: text("policy_type", { enum: ["sts", "tlsa", "no-policy-found"] }).notNull(),
    mxHost: text("mx_host").notNull(),
    result: text("result").notNull(),
    sendingIp: text("sending_ip").notNull(),
    receivingIp: text("receiving_ip").notNull(),
    policyString: text("policy_string", { mode: "json" }).$type<string[]>(),
    sessions: integer("sessions").notNull(),
    /** The last session counted (docs/deliverability.md#dane-per-destination). */
    lastAt: integer("last_at").notNull().default(0),
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

/** A period's report for a policy domain, handled: `sent`, `no_record` (nothing asked for one) or `failed`. */
export const tlsRptPeriods = sqliteTable(
  "tls_rpt_periods",
  {
    periodStart: integer("period_start").notNull(),
    policyDomain: text("policy_domain").notNull(),
    handledAt: text("handled_at").notNull(),
    outcome: text("outcome").notNull(),
  },
  (table) => [primaryKey({ columns: [table.periodStart, table.policyDomain] })],
);

/** The last answer of a DNS blocklist about one of the sending addresses (docs/deliverability.md). */
export const blocklistListings = sqliteTable(
  "blocklist_listings",
  {
    address: text("address").notNull(),
    zone: text("zone").notNull(),
    listed: integer("listed", { mode: "boolean" }).notNull(),
    reason: text("reason"),
    checkedAt: text("checked_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.address, table.zone] })],
);

/** Messages a source address delivered per destination provider and UTC day (`YYYY-MM-DD`): what warm-up caps. */
export const ipVolumes = sqliteTable(
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
export const ipFirstUse = sqliteTable("ip_first_use", {
  address: text("address").primaryKey(),
  day: text("day").notNull(),
});
