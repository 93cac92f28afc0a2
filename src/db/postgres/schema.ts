/**
 * The PostgreSQL tables, column for column the SQLite ones in ../schema (same names, same TypeScript types), so
 * that repositories written against the SQLite definitions run unchanged on PostgreSQL: the adapter hands them
 * these tables (db/store.ts `tablesOf`). PostgreSQL's own types where they differ: boolean, jsonb, bytea, bigint
 * for epoch milliseconds. Timestamps shown to clients stay ISO 8601 text on both engines, so an answer is the same
 * string whichever engine stored it. Invariant: db/schema.test.ts proves the two definitions and both engines'
 * migrations describe the same tables.
 */
import { bigint, boolean, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { bytea, millis } from "./columns.ts";
import type { DmarcRowData, RecordStatuses, SendingHealth } from "../schema/domains.ts";
import type { Tag } from "../schema/emails.ts";
import type { ReceivedAttachment, ReceivedAuthentication, ReceivedSpam } from "../schema/received.ts";
import type { TemplateContent } from "../schema/templates.ts";

export const organizations = pgTable("organizations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  rateLimitPerMinute: integer("rate_limit_per_minute"),
  dailyQuota: integer("daily_quota"),
  contentRetentionDays: integer("content_retention_days"),
  metadataRetentionDays: integer("metadata_retention_days"),
  createdAt: text("created_at").notNull(),
  health: jsonb("health").$type<SendingHealth>(),
  healthSince: millis("health_since").notNull().default(0),
  broadcastHealth: jsonb("broadcast_health").$type<SendingHealth>(),
  broadcastHealthSince: millis("broadcast_health_since").notNull().default(0),
});

export const organizationStorage = pgTable("organization_storage", {
  organizationId: text("organization_id").primaryKey(),
  messages: integer("messages").notNull(),
  contentBytes: bigint("content_bytes", { mode: "number" }).notNull(),
  countedThrough: text("counted_through").notNull(),
  measuredAt: text("measured_at").notNull(),
});

export const sendingPauses = pgTable(
  "sending_pauses",
  {
    organizationId: text("organization_id").notNull(),
    scope: text("scope", { enum: ["organization", "domain", "provider", "lane"] }).notNull(),
    name: text("name").notNull(),
    reason: text("reason"),
    pausedAt: text("paused_at").notNull(),
    pausedBy: text("paused_by"),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.scope, table.name] })],
);

export const apiKeys = pgTable("api_keys", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  name: text("name").notNull(),
  mode: text("mode", { enum: ["live", "test"] }).notNull(),
  tokenPrefix: text("token_prefix").notNull(),
  tokenHash: text("token_hash").notNull(),
  scopes: jsonb("scopes").$type<string[]>().notNull(),
  domains: jsonb("domains").$type<string[] | null>(),
  rateLimitPerMinute: integer("rate_limit_per_minute"),
  dailyQuota: integer("daily_quota"),
  createdAt: text("created_at").notNull(),
  lastUsedAt: text("last_used_at"),
  revokedAt: text("revoked_at"),
  createdByKeyId: text("created_by_key_id"),
});

export const domains = pgTable("domains", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  name: text("name").notNull(),
  status: text("status").notNull(),
  verifiedOverride: boolean("verified_override").notNull().default(false),
  openTracking: boolean("open_tracking").notNull().default(false),
  clickTracking: boolean("click_tracking").notNull().default(false),
  returnPathSubdomain: text("return_path_subdomain").notNull().default("send"),
  receivingEnabled: boolean("receiving_enabled").notNull().default(false),
  recordStatuses: jsonb("record_statuses").$type<RecordStatuses>().notNull().default({}),
  providers: jsonb("providers").$type<string[]>().notNull().default([]),
  statusSince: millis("status_since").notNull().default(0),
  nextCheckAt: millis("next_check_at"),
  lastCheckedAt: text("last_checked_at"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  health: jsonb("health").$type<SendingHealth>(),
  healthSince: millis("health_since").notNull().default(0),
  /** The label of the domain's tracking host (`links` → links.<domain>); null: links use `[http] public_url`. */
  trackingSubdomain: text("tracking_subdomain"),
  /** `opportunistic` or `enforced` (docs/deliverability.md): direct MX delivery only over verified STARTTLS. */
  tlsPolicy: text("tls_policy", { enum: ["opportunistic", "enforced"] })
    .notNull()
    .default("opportunistic"),
  /** The `[ip_pools.<name>]` direct delivery binds its source addresses from; null: the machine's default route. */
  ipPool: text("ip_pool"),
});

export const dmarcReports = pgTable("dmarc_reports", {
  id: text("id").primaryKey(),
  domainName: text("domain_name").notNull(),
  reporter: text("reporter").notNull(),
  reportId: text("report_id").notNull(),
  beginAt: text("begin_at").notNull(),
  endAt: text("end_at").notNull(),
  rows: jsonb("rows").$type<DmarcRowData[]>().notNull(),
  receivedAt: text("received_at").notNull(),
});

export const dkimKeys = pgTable("dkim_keys", {
  id: text("id").primaryKey(),
  domainId: text("domain_id").notNull(),
  selector: text("selector").notNull(),
  publicKey: text("public_key").notNull(),
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

export const emails = pgTable("emails", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  apiKeyId: text("api_key_id"),
  source: text("source", { enum: ["api", "smtp", "cli", "forward"] }).notNull(),
  mode: text("mode", { enum: ["live", "test"] }).notNull(),
  messageId: text("message_id").notNull(),
  fromHeader: text("from_header").notNull(),
  envelopeFrom: text("envelope_from").notNull(),
  to: jsonb("to_addresses").$type<string[]>().notNull(),
  cc: jsonb("cc_addresses").$type<string[]>().notNull(),
  bcc: jsonb("bcc_addresses").$type<string[]>().notNull(),
  replyTo: jsonb("reply_to").$type<string[]>().notNull(),
  subject: text("subject").notNull(),
  html: text("html"),
  text: text("text"),
  tags: jsonb("tags").$type<Tag[]>().notNull(),
  status: text("status").notNull(),
  scheduledAt: text("scheduled_at"),
  size: integer("size").notNull(),
  templateId: text("template_id"),
  /** The topic the message was sent for (docs/contacts-preferences.md); null: no topic choice applies. */
  topicId: text("topic_id"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  contentRemovedAt: text("content_removed_at"),
  /** transactional or broadcast (docs/operations.md#sending-lanes). */
  lane: text("lane", { enum: ["transactional", "broadcast"] })
    .notNull()
    .default("transactional"),
  /** The broadcast and the contact the message was made for (docs/broadcasts.md); unique together. */
  broadcastId: text("broadcast_id"),
  contactId: text("contact_id"),
  /**
   * Mail Mailroom sent for itself (docs/teams.md#system-mail): `password_link`, `invitation` or `notice`; null: the
   * organisation's own mail. Set by the funnel alone; hides the message from the organisation's lists and webhooks.
   */
  systemMail: text("system_mail", { enum: ["password_link", "invitation", "notice"] }),
});

export const emailContents = pgTable("email_contents", {
  emailId: text("email_id").primaryKey(),
  raw: bytea("raw").notNull(),
});

export const deliveries = pgTable("deliveries", {
  id: text("id").primaryKey(),
  emailId: text("email_id").notNull(),
  organizationId: text("organization_id").notNull(),
  recipient: text("recipient").notNull(),
  destination: text("destination").notNull(),
  status: text("status").notNull(),
  attempts: integer("attempts").notNull().default(0),
  nextAttemptAt: millis("next_attempt_at"),
  leaseOwner: text("lease_owner"),
  leaseUntil: millis("lease_until"),
  lastResponse: text("last_response"),
  provider: text("provider"),
  providerMessageId: text("provider_message_id"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
  holdExempt: boolean("hold_exempt").notNull().default(false),
  dsnNotify: text("dsn_notify"),
  dsnOrcpt: text("dsn_orcpt"),
  /** The message's lane, copied so a claim, a pause and the queue's counts read one table. */
  lane: text("lane", { enum: ["transactional", "broadcast"] })
    .notNull()
    .default("transactional"),
});

export const events = pgTable("events", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  emailId: text("email_id"),
  type: text("type").notNull(),
  recipient: text("recipient"),
  data: jsonb("data").$type<Record<string, unknown>>().notNull(),
  createdAt: text("created_at").notNull(),
});

export const eventRollups = pgTable(
  "event_rollups",
  {
    organizationId: text("organization_id").notNull(),
    hour: text("hour").notNull(),
    mode: text("mode", { enum: ["live", "test"] }).notNull(),
    type: text("type").notNull(),
    count: integer("count").notNull(),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.hour, table.mode, table.type] })],
);

export const suppressions = pgTable(
  "suppressions",
  {
    organizationId: text("organization_id").notNull(),
    id: text("id"),
    email: text("email").notNull(),
    origin: text("origin", { enum: ["bounce", "complaint", "unsubscribe", "manual"] }).notNull(),
    sourceId: text("source_id"),
    reason: text("reason"),
    createdAt: text("created_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.organizationId, table.email] })],
);

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    apiKeyId: text("api_key_id").notNull(),
    endpoint: text("endpoint").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    responseStatus: integer("response_status").notNull(),
    responseBody: text("response_body").notNull(),
    createdAt: millis("created_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.apiKeyId, table.endpoint, table.key] })],
);

export const webhookEndpoints = pgTable("webhook_endpoints", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  url: text("url").notNull(),
  description: text("description"),
  eventTypes: jsonb("event_types").$type<string[]>().notNull(),
  enabled: boolean("enabled").notNull().default(true),
  disabledReason: text("disabled_reason"),
  disabledAt: text("disabled_at"),
  secret: text("secret").notNull(),
  previousSecret: text("previous_secret"),
  previousSecretUntil: millis("previous_secret_until"),
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const webhookDeliveries = pgTable("webhook_deliveries", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  endpointId: text("endpoint_id").notNull(),
  eventId: text("event_id"),
  eventType: text("event_type").notNull(),
  payload: text("payload").notNull(),
  status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
  attemptCount: integer("attempt_count").notNull().default(0),
  scheduleStep: integer("schedule_step").notNull().default(0),
  nextAttemptAt: millis("next_attempt_at"),
  leaseOwner: text("lease_owner"),
  leaseUntil: millis("lease_until"),
  lastStatusCode: integer("last_status_code"),
  lastError: text("last_error"),
  lastAttemptAt: text("last_attempt_at"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

export const webhookAttempts = pgTable("webhook_attempts", {
  id: text("id").primaryKey(),
  deliveryId: text("delivery_id").notNull(),
  attemptedAt: text("attempted_at").notNull(),
  statusCode: integer("status_code"),
  responseBody: text("response_body"),
  error: text("error"),
  durationMs: integer("duration_ms").notNull(),
});

export const rateLimitBuckets = pgTable("rate_limit_buckets", {
  bucket: text("bucket").primaryKey(),
});

export const rateLimitCounts = pgTable(
  "rate_limit_counts",
  {
    bucket: text("bucket").notNull(),
    second: bigint("second", { mode: "number" }).notNull(),
    admitted: integer("admitted").notNull(),
  },
  (table) => [primaryKey({ columns: [table.bucket, table.second] })],
);

export const dailyUsage = pgTable(
  "daily_usage",
  {
    bucket: text("bucket").notNull(),
    day: text("day").notNull(),
    used: integer("used").notNull(),
  },
  (table) => [primaryKey({ columns: [table.bucket, table.day] })],
);

export const periodicJobs = pgTable("periodic_jobs", {
  name: text("name").primaryKey(),
  nextRunAt: millis("next_run_at").notNull(),
});

export const receivedEmails = pgTable("received_emails", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  inReplyToEmailId: text("in_reply_to_email_id"),
  messageId: text("message_id"),
  envelopeFrom: text("envelope_from").notNull(),
  receivedFor: jsonb("received_for").$type<string[]>().notNull(),
  fromHeader: text("from_header").notNull(),
  to: jsonb("to_addresses").$type<string[]>().notNull(),
  cc: jsonb("cc_addresses").$type<string[]>().notNull(),
  bcc: jsonb("bcc_addresses").$type<string[]>().notNull(),
  replyTo: jsonb("reply_to").$type<string[]>().notNull(),
  subject: text("subject").notNull(),
  html: text("html"),
  text: text("text"),
  headers: jsonb("headers").$type<Record<string, string>>().notNull(),
  attachments: jsonb("attachments").$type<ReceivedAttachment[]>().notNull(),
  authentication: jsonb("authentication").$type<ReceivedAuthentication>().notNull(),
  autoReply: text("auto_reply"),
  clientAddress: text("client_address").notNull(),
  size: integer("size").notNull(),
  createdAt: text("created_at").notNull(),
  spam: jsonb("spam").$type<ReceivedSpam>(),
  routeId: text("route_id"),
});

export const receivedContents = pgTable("received_contents", {
  receivedEmailId: text("received_email_id").primaryKey(),
  raw: bytea("raw").notNull(),
});

export const contentParts = pgTable(
  "content_parts",
  {
    ownerId: text("owner_id").notNull(),
    seq: integer("seq").notNull(),
    bytes: bytea("bytes").notNull(),
  },
  (table) => [primaryKey({ columns: [table.ownerId, table.seq] })],
);

export const inboundUsage = pgTable("inbound_usage", {
  organizationId: text("organization_id").primaryKey(),
  storedBytes: bigint("stored_bytes", { mode: "number" }).notNull(),
});

export const templates = pgTable("templates", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  name: text("name").notNull(),
  alias: text("alias"),
  engine: text("engine", { enum: ["handlebars", "mjml"] }).notNull(),
  draft: jsonb("draft").$type<TemplateContent>().notNull(),
  draftVersionId: text("draft_version_id").notNull(),
  published: jsonb("published").$type<TemplateContent>(),
  publishedVersionId: text("published_version_id"),
  publishedAt: text("published_at"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

// The people's, the deliverability and the inbound routes' tables live beside this file; the adapter and the schema test read them all here.
export * from "./people.ts";
export * from "./deliverability.ts";
export * from "./contacts.ts";
export * from "./broadcasts.ts";
export * from "./status-notices.ts";
export * from "./inbound.ts";
// The people's, the deliverability and the request log's tables live beside this file; the adapter and the schema test read them all here.
export * from "./people.ts";
export * from "./deliverability.ts";
export * from "./logs.ts";
