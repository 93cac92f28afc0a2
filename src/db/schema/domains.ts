import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Status of one DNS record and since when (ms), keyed by record id (`dkim:<selector>`, `spf`, `mx`, `dmarc`,
 * `inbound`), with what DNS answered at the last check (null when the lookup failed).
 */
export type RecordStatuses = Record<string, { status: string; since: number; found?: string[] | null }>;

/**
 * A sending domain's or organisation's reputation as the guardrail job last measured it (docs/deliverability.md): rates over
 * the window, the recipients they count, and what they led to.
 */
export interface SendingHealth {
  bounce_rate: number;
  complaint_rate: number;
  recipients: number;
  status: "ok" | "warning" | "paused";
  /** Why the status is not ok, in words, e.g. `bounce rate 9.1 % over 24 h`; null when ok. */
  reason: string | null;
  evaluated_at: string;
}

export const domains = sqliteTable("domains", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  name: text("name").notNull(),
  status: text("status").notNull(),
  verifiedOverride: integer("verified_override", { mode: "boolean" }).notNull().default(false),
  openTracking: integer("open_tracking", { mode: "boolean" }).notNull().default(false),
  clickTracking: integer("click_tracking", { mode: "boolean" }).notNull().default(false),
  returnPathSubdomain: text("return_path_subdomain").notNull().default("send"),
  receivingEnabled: integer("receiving_enabled", { mode: "boolean" }).notNull().default(false),
  recordStatuses: text("record_statuses", { mode: "json" }).$type<RecordStatuses>().notNull().default({}),
  /** Names of the providers that take the domain's mail, in order; empty: the default provider. */
  providers: text("providers", { mode: "json" }).$type<string[]>().notNull().default([]),
  /** When the domain entered its current status (ms): the 72 h windows of pending and temporary_failure. */
  statusSince: integer("status_since").notNull().default(0),
  /** When the next scheduled DNS check is due (ms); null when none is (failed domains). */
  nextCheckAt: integer("next_check_at"),
  lastCheckedAt: text("last_checked_at"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  health: text("health", { mode: "json" }).$type<SendingHealth>(),
  /** Endings count from here (ms) when it is later than the window's start: a person resumed a guardrail pause. */
  healthSince: integer("health_since").notNull().default(0),
  /** The label of the domain's tracking host (`links` → links.<domain>); null: links use `[http] public_url`. */
  trackingSubdomain: text("tracking_subdomain"),
  /** `opportunistic` or `enforced` (docs/deliverability.md): direct MX delivery only over verified STARTTLS. */
  tlsPolicy: text("tls_policy", { enum: ["opportunistic", "enforced"] })
    .notNull()
    .default("opportunistic"),
  /** The `[ip_pools.<name>]` direct delivery binds its source addresses from; null: the machine's default route. */
  ipPool: text("ip_pool"),
});

/** DKIM keys: one `active` key signs; a `next` key is published during a rotation and takes over once verified. */
export const dkimKeys = sqliteTable("dkim_keys", {
  id: text("id").primaryKey(),
  domainId: text("domain_id").notNull(),
  selector: text("selector").notNull(),
  /** Base64 DER SubjectPublicKeyInfo: the `p=` value of the DNS record. */
  publicKey: text("public_key").notNull(),
  /** PKCS#8 PEM sealed with the master key (lib/secrets.ts). */
  privateKey: text("private_key").notNull(),
  state: text("state", { enum: ["active", "next", "retired"] }).notNull(),
  /** `rsa` (verifies the domain, rotates) or `ed25519` (a second signature on request, RFC 8463). */
  algorithm: text("algorithm", { enum: ["rsa", "ed25519"] })
    .notNull()
    .default("rsa"),
  createdAt: text("created_at").notNull(),
  activatedAt: text("activated_at"),
  retiredAt: text("retired_at"),
});

/** A DMARC aggregate report received for a domain name (docs/deliverability.md): its rows as reputation/dmarc-report.ts reads them. */
export const dmarcReports = sqliteTable("dmarc_reports", {
  id: text("id").primaryKey(),
  domainName: text("domain_name").notNull(),
  reporter: text("reporter").notNull(),
  reportId: text("report_id").notNull(),
  beginAt: text("begin_at").notNull(),
  endAt: text("end_at").notNull(),
  rows: text("rows", { mode: "json" }).$type<DmarcRowData[]>().notNull(),
  receivedAt: text("received_at").notNull(),
});

/** One row of a report: a source address and what receivers saw of its messages. */
export interface DmarcRowData {
  source_ip: string;
  count: number;
  disposition: "none" | "quarantine" | "reject";
  dkim: "pass" | "fail";
  spf: "pass" | "fail";
  header_from: string;
}
