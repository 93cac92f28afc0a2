/**
 * The request and response shapes of Mailroom's `/v1` API (DESIGN §1, §3, §5, §7, §8, §12, §13). Field names are
 * the wire's snake_case, as Resend's API spells them, so a body can be read next to the API reference without
 * translation. Only the client-side conveniences differ from the wire: `react`, `Date` for timestamps, bytes for
 * attachments. The lists of values (statuses, event types, scopes) and the request bodies come from wire.ts,
 * generated from the server's definitions; the names here are the ones the package has always exported. The
 * delivery queue's statuses and bulk filter and the members' roles, which wire.ts does not carry, are written here
 * and checked against the server's with its views (test/wire-responses.check.ts).
 */
import type { ErrorDetail, MailroomError } from "./errors.js";
import type {
  AddSuppressionRequest,
  BatchAddSuppressionsRequest,
  CreateApiKeyRequest,
  CreateDomainRequest,
  CreateTemplateRequest,
  CreateWebhookRequest,
  DomainStatus,
  EmailStatus,
  EventType,
  RenameApiKeyRequest,
  RenderTemplateRequest,
  RecipientStatus,
  RecordStatus,
  Scope,
  SendEmailRequest,
  SubjectRequest,
  SuppressionOrigin,
  TemplateEngine,
  UpdateDomainRequest,
  UpdateTemplateRequest,
  UpdateWebhookRequest,
  ValidateTemplateRequest,
  WebhookEventStatus,
  WriteRequest,
} from "./wire.js";

export type {
  DomainStatus,
  EmailStatus,
  RecipientStatus,
  RecordStatus,
  SuppressionOrigin,
  TemplateEngine,
} from "./wire.js";

// ---------------------------------------------------------------------------------------------------------------
// Calls and answers

/** What every call resolves to, as in Resend's SDK: never a rejection for an API failure. */
export type MailroomResponse<T> =
  | { data: T; error: null; headers: Record<string, string> }
  | { data: null; error: MailroomError; headers: Record<string, string> | null };

/** Options every call takes. */
export interface RequestOptions {
  /** Extra request headers (they override the client's). */
  headers?: Record<string, string>;
  /** Aborts the call (and any retry wait); the call then resolves with an `aborted` error. */
  signal?: AbortSignal;
}

/** Options of the calls that create mail: send and batch. */
export interface IdempotentRequestOptions extends RequestOptions {
  /**
   * `Idempotency-Key` (1–256 characters, kept 24 h per key and endpoint): the same key and body answer the first
   * result again instead of sending twice. With retries on and no key given, the client makes one.
   */
  idempotencyKey?: string;
}

export interface PaginationOptions {
  /** 1–100 (server default 20). */
  limit?: number;
  /** An id from the previous page: the items after it (older). */
  after?: string;
  /** An id from the previous page: the items before it (newer). */
  before?: string;
}

export interface List<T> {
  object: "list";
  has_more: boolean;
  data: T[];
}

export interface Deleted<O extends string> {
  object: O;
  id: string;
  deleted: true;
}

export type { ErrorDetail };

// ---------------------------------------------------------------------------------------------------------------
// Emails

/**
 * A React element (`<Welcome name="Ada" />`), typed structurally so that the library's types need no React
 * types installed.
 */
export interface ReactElementLike {
  type: unknown;
  props: unknown;
}

export type Tag = NonNullable<SendEmailRequest["tags"]>[number];

type WireAttachment = NonNullable<SendEmailRequest["attachments"]>[number];

export interface Attachment extends Omit<WireAttachment, "content"> {
  /** base64 text, or the bytes themselves (encoded by the client). */
  content?: string | Uint8Array | ArrayBuffer;
}

/** Template id or alias (its published version is rendered), and the values of its variables. */
export type TemplateReference = NonNullable<SendEmailRequest["template"]>;

/** The send body (`from` and `subject` optional when the template supplies them), with the client's conveniences. */
export interface CreateEmailOptions extends Omit<SendEmailRequest, "attachments" | "scheduled_at"> {
  /** Rendered to `html` (and `text`, when absent) with `@react-email/render`, an optional peer dependency. */
  react?: ReactElementLike;
  attachments?: Attachment[];
  /** Send later: ISO 8601 (or a Date), in the future, at most 30 days ahead. */
  scheduled_at?: string | Date;
}

export interface CreateEmailResponse {
  id: string;
  message?: string;
}

export interface EmailRecipient {
  email: string;
  status: RecipientStatus;
  attempts: number;
  last_response: string | null;
  provider: string | null;
  provider_message_id: string | null;
  updated_at: string;
}

export interface EmailEvent {
  type: string;
  created_at: string;
  recipient: string | null;
  data: Record<string, unknown>;
}

/** An email as a list shows it. */
export interface EmailSummary {
  object: "email";
  id: string;
  message_id: string;
  source: "api" | "smtp" | "cli";
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  reply_to: string[];
  subject: string;
  tags: Tag[];
  status: EmailStatus;
  last_event: EmailStatus;
  created_at: string;
  scheduled_at: string | null;
  template_id: string | null;
}

/** The look-up record: the message, each recipient's state and the event history. */
export interface Email extends EmailSummary {
  html: string | null;
  text: string | null;
  /** When retention removed the raw message, bodies and attachments; `raw()` then fails with 410 `gone`. */
  content_removed_at: string | null;
  recipients: EmailRecipient[];
  events: EmailEvent[];
}

export interface ListEmailsOptions extends PaginationOptions {
  status?: EmailStatus;
  to?: string;
  from?: string;
  /** `name` or `name:value`. */
  tag?: string;
}

export interface UpdateEmailOptions {
  id: string;
  /** The new time: ISO 8601 or a Date. */
  scheduled_at: string | Date;
}

export interface UpdateEmailResponse {
  object: "email";
  id: string;
}

export interface CancelEmailResponse {
  object: "email";
  id: string;
  status?: "canceled";
}

export interface EmailAttachment {
  object?: "attachment";
  id: string;
  filename: string | null;
  content_type: string;
  content_disposition: "inline" | "attachment";
  content_id: string | null;
  size: number;
  /** A signed link, valid for an hour, that needs no API key. */
  download_url: string;
  expires_at: string;
}

export interface ListAttachmentsOptions extends PaginationOptions {
  emailId: string;
}

export interface GetAttachmentOptions {
  emailId: string;
  id: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Batch

export type CreateBatchItem = CreateEmailOptions;

export interface BatchRequestOptions extends IdempotentRequestOptions {
  /** `strict` (the default): all or nothing. `permissive`: the valid ones are sent, the others reported by index. */
  batchValidation?: "strict" | "permissive";
}

export interface CreateBatchResponse {
  data: Array<{ id: string }>;
  /** Present in permissive mode: the items that were not sent. */
  errors?: Array<{ index: number; message: string }>;
}

// ---------------------------------------------------------------------------------------------------------------
// Received mail

export interface ReceivedAttachment {
  id: string;
  filename: string | null;
  content_type: string;
  content_disposition: "inline" | "attachment";
  content_id: string | null;
  size: number;
}

export interface ReceivedEmailSummary {
  object?: "email";
  id: string;
  to: string[];
  from: string;
  created_at: string;
  subject: string;
  bcc: string[] | null;
  cc: string[] | null;
  reply_to: string[] | null;
  received_for: string[];
  message_id: string | null;
  attachments: ReceivedAttachment[];
  /** The sent email this one answers (In-Reply-To / References). */
  in_reply_to_email_id: string | null;
  auto_reply: "auto_reply" | "challenge_response" | null;
  /** In the list too, so a reader sees which mail failed SPF, DKIM or DMARC without opening each message. */
  authentication: ReceivedEmailAuthentication;
}

export interface ReceivedEmailAuthentication {
  spf: { result: string; domain: string | null } | null;
  dkim: Array<{ result: string; domain: string | null; selector: string | null; aligned: boolean }>;
  dmarc: { result: string; policy: string | null; domain: string | null } | null;
  arc: { result: string } | null;
  header: string;
}

export interface ReceivedEmail extends ReceivedEmailSummary {
  object: "email";
  html: string | null;
  text: string | null;
  headers: Record<string, string>;
  raw: { download_url: string; expires_at: string };
}

export interface GetReceivedEmailOptions {
  /** How inline images appear in `html`: embedded `data:` URIs (the default) or left as `cid:` references. */
  html_format?: "data_uri" | "cid";
}

// ---------------------------------------------------------------------------------------------------------------
// Domains

export interface DomainRecord {
  record: "DKIM" | "SPF" | "MX" | "DMARC" | "Inbound" | "Tracking";
  name: string;
  type: "TXT" | "MX" | "CNAME";
  value: string;
  priority?: number;
  ttl: "Auto";
  status: RecordStatus;
  /** What DNS answered at the record's name at the last check (TXT values, or `priority host` for MX); null: nothing. */
  found?: string[] | null;
  /** Why the record as shown cannot work yet (the server's hostname is unset). */
  warning?: string;
  key_state?: "active" | "next";
}

/** A domain's or organisation's sending health (the guardrails' last measurement). */
export interface DomainHealth {
  bounce_rate: number;
  complaint_rate: number;
  /** The window, e.g. `24h`. */
  window: string;
  /** Recipients that ended in the window: what the rates divide by. */
  recipients: number;
  status: "ok" | "warning" | "paused";
  /** Why the status is not ok, e.g. `bounce rate 9.1 % over 24 h`. */
  reason: string | null;
  evaluated_at: string | null;
}

export interface Domain {
  object: "domain";
  id: string;
  name: string;
  status: DomainStatus;
  verified_override: boolean;
  open_tracking: boolean;
  click_tracking: boolean;
  return_path_subdomain: string;
  receiving_enabled: boolean;
  providers: string[];
  capabilities: { sending: "enabled"; receiving: "enabled" | "disabled" };
  records: DomainRecord[];
  /** `ed25519`: an Ed25519 signature is added beside the RSA one once its record is found (RFC 8463). */
  dkim: { ed25519: boolean };
  /** The label of the tracking host (`links` → links.<domain>), whose CNAME is among the records; null: none. */
  tracking_subdomain: string | null;
  /** `enforced`: direct MX delivery only over STARTTLS with a certificate valid for the MX name. */
  tls: "opportunistic" | "enforced";
  /** The `[ip_pools.<name>]` direct delivery sends from; null: the machine's default address. */
  ip_pool: string | null;
  /** Bounce and complaint rates over the guardrails' window, and what they led to. */
  health: DomainHealth;
  last_checked_at: string | null;
  created_at: string;
  updated_at: string;
}

export type DomainSettings = UpdateDomainRequest;

export type CreateDomainOptions = CreateDomainRequest;

export interface UpdateDomainOptions extends UpdateDomainRequest {
  /** Domain id or name. */
  id: string;
}

export interface RemoveDomainOptions {
  /** Delete even while mail from the domain is queued (that mail then fails). */
  force?: boolean;
}

export interface DomainDeleted extends Deleted<"domain"> {
  name?: string;
}

/** One row of a DMARC aggregate report: a source address and what the receiver saw of its messages. */
export interface DmarcRow {
  source_ip: string;
  /** Messages from that address the row counts. */
  count: number;
  /** What the receiver did with them under the domain's policy. */
  disposition: "none" | "quarantine" | "reject";
  /** DKIM and SPF as DMARC evaluated them (aligned with the From domain). */
  dkim: "pass" | "fail";
  spf: "pass" | "fail";
  header_from: string;
}

/** A DMARC aggregate report (RFC 7489 §7.2) a receiver sent about the domain, to the `rua` of its DMARC record. */
export interface DmarcReport {
  object: "dmarc_report";
  id: string;
  /** The receiver's organisation, as it names itself (`google.com`, `Yahoo`, …). */
  reporter: string;
  /** The receiver's id of the report. */
  report_id: string;
  /** The period the report covers (ISO 8601, UTC). */
  begin: string;
  end: string;
  /** The report's first 20 rows at most, heaviest source first; the rest through `domains.dmarcReportRows`. */
  rows: DmarcRow[];
  /** How many rows the report has. */
  row_count: number;
}

/** A row of a report as `domains.dmarcReportRows` pages them: its `id` is the pages' cursor. */
export interface DmarcReportRow extends DmarcRow {
  id: string;
}

/** The reports, newest first: `after` an id continues towards older ones, `before` an id back towards newer ones. */
export interface ListDmarcReportsOptions {
  /** 1–100 (server default 20). */
  limit?: number;
  /** A report id from the previous page: the reports older than it. */
  after?: string;
  /** A report id: the reports newer than it. */
  before?: string;
}

export interface DmarcSummaryOptions {
  /** The days to sum, counted back from now: 1–90 (server default 7). */
  days?: number;
}

/** One address that sent as the domain, over the summary's days. */
export interface DmarcSource {
  source_ip: string;
  messages: number;
  /** The share of `messages` (0–1) that passed DKIM or SPF aligned, so passed DMARC. */
  aligned_pass_rate: number;
  /** The address is one of Mailroom's (`public_ips`, or the domain's SPF at its return path passes for it). */
  own: boolean;
}

/** "Who sends as you": the domain's DMARC reports of the last `days` summed per source address, most messages first. */
export interface DmarcSummary {
  object: "dmarc_summary";
  domain: string;
  days: number;
  /** How many reports were summed. */
  reports: number;
  data: DmarcSource[];
}

// ---------------------------------------------------------------------------------------------------------------
// API keys

export type ApiKeyScope = Scope;

export interface CreateApiKeyOptions extends Omit<CreateApiKeyRequest, "scopes"> {
  /** Fine-grained scopes instead of `permission`. */
  scopes?: Array<ApiKeyScope | "full_access" | "sending_access">;
}

export interface ApiKey {
  object: "api_key";
  id: string;
  name: string;
  mode: "live" | "test";
  token_prefix: string;
  scopes: ApiKeyScope[];
  domains: string[] | null;
  rate_limit_per_minute: number | null;
  /** Messages per UTC day this key may send; null: none of its own. */
  daily_quota: number | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** The create answer: the token is shown here only. */
export interface CreateApiKeyResponse extends Partial<ApiKey> {
  id: string;
  token: string;
}

export interface ListApiKeysOptions extends PaginationOptions {
  /** Include revoked keys. */
  include_revoked?: boolean;
}

export type UpdateApiKeyOptions = RenameApiKeyRequest;

// ---------------------------------------------------------------------------------------------------------------
// Webhooks

export type WebhookEventType = EventType;

export interface CreateWebhookOptions extends Omit<CreateWebhookRequest, "events"> {
  events: WebhookEventType[];
}

export interface UpdateWebhookOptions extends Omit<UpdateWebhookRequest, "events"> {
  events?: WebhookEventType[];
}

export interface WebhookEndpoint {
  object: "webhook";
  id: string;
  endpoint: string;
  events: WebhookEventType[];
  description: string | null;
  status: "enabled" | "disabled";
  disabled_reason: string | null;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The create and rotate answers: the only ones that carry the secret. */
export interface WebhookWithSecret extends Partial<WebhookEndpoint> {
  object: "webhook";
  id: string;
  /** `whsec_<base64 key>`: what the verifier takes. */
  signing_secret: string;
}

export type WebhookDeliveryStatus = WebhookEventStatus;

/** One event sent (or to be sent) to one endpoint. */
export interface WebhookDeliveryEvent {
  object: "webhook_event";
  /** The `webhook-id` header of every attempt of this event. */
  id: string;
  webhook_id: string;
  event_id: string | null;
  type: string;
  status: WebhookDeliveryStatus;
  attempt_count: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
}

export interface WebhookAttempt {
  object: "webhook_attempt";
  id: string;
  sent_at: string;
  http_status_code: number | null;
  /** The first 1 KB of the endpoint's answer. */
  response: string | null;
  error: string | null;
  duration_ms: number;
}

export interface WebhookDeliveryEventDetail extends WebhookDeliveryEvent {
  payload: WebhookPayload;
  attempts: WebhookAttempt[];
}

export interface ListWebhookEventsOptions extends PaginationOptions {
  webhookId: string;
  status?: WebhookDeliveryStatus;
}

export interface WebhookEventOptions {
  webhookId: string;
  eventId: string;
}

export interface ListWebhookAttemptsOptions extends PaginationOptions, WebhookEventOptions {}

export interface TestWebhookOptions {
  /** Event type of the sample (default `email.sent`). */
  type?: WebhookEventType;
}

export interface ReplayFailedResponse {
  object: "replay";
  webhook_id: string;
  replayed: number;
}

/** The JSON body of every webhook request. */
export interface WebhookPayload<D = Record<string, unknown>> {
  type: WebhookEventType | (string & {});
  created_at: string;
  data: D;
}

// ---------------------------------------------------------------------------------------------------------------
// Suppressions

export interface Suppression {
  object: "suppression";
  id: string;
  email: string;
  origin: SuppressionOrigin;
  /** The email whose bounce, complaint or unsubscribe added it. */
  source_id: string | null;
  reason: string | null;
  created_at: string;
}

export type AddSuppressionOptions = AddSuppressionRequest;

export interface ListSuppressionsOptions extends PaginationOptions {
  origin?: SuppressionOrigin;
  /** A part of the address. */
  search?: string;
}

export interface SuppressionDeleted extends Deleted<"suppression"> {
  email?: string;
}

export type BatchAddSuppressionsOptions = BatchAddSuppressionsRequest;

export type BatchRemoveSuppressionsOptions = { emails: string[]; ids?: never } | { ids: string[]; emails?: never };

export interface BatchRemoveSuppressionsResponse {
  data: Array<{ object: "suppression"; id: string | null; email: string | null; deleted: boolean }>;
}

// ---------------------------------------------------------------------------------------------------------------
// The delivery queue

/** What the queue lists: the waiting statuses, and `sending` for a waiting recipient being attempted now. */
export type QueueStatus = "queued" | "deferred" | "held" | "sending";

/** One recipient of one message in the queue (DESIGN §12). */
export interface Delivery {
  object: "delivery";
  id: string;
  email_id: string;
  recipient: string;
  /** A recipient status, or `sending` while an attempt is under way. */
  status: RecipientStatus | "sending";
  /** The provider of the last attempt; null: not attempted yet. */
  provider: string | null;
  attempts: number;
  next_attempt_at: string | null;
  /** The last remote reply (or the operator's action). */
  last_response: string | null;
  created_at: string;
  updated_at: string;
}

export interface ListDeliveriesOptions extends PaginationOptions {
  status?: QueueStatus;
  /** The recipients' domain. */
  domain?: string;
  /** The provider of their last attempt. */
  provider?: string;
  /** One message's recipients. */
  email_id?: string;
}

/** The recipients a bulk action applies to: at least one filter, else `validation_error`. */
export interface BulkDeliveriesOptions {
  status?: QueueStatus;
  /** The recipients' domain. */
  domain?: string;
  /** The provider of their last attempt. */
  provider?: string;
  /** One message's recipients. */
  email_id?: string;
}

export interface BulkDeliveriesResponse {
  object: "bulk";
  /** Recipients of the filter the action applies to, those being attempted now included. */
  matched: number;
  /** Those it changed. */
  changed: number;
}

/** Waiting recipients counted by status. */
export interface QueueStatusCounts {
  queued: number;
  deferred: number;
  held: number;
  sending: number;
}

export interface QueueDomainCounts extends QueueStatusCounts {
  domain: string;
  /** When the oldest of them was queued. */
  oldest_at: string | null;
}

export interface QueueProviderCounts extends QueueStatusCounts {
  /** The provider of the last attempt; null: not attempted yet. */
  provider: string | null;
  /** When the oldest of them was queued. */
  oldest_at: string | null;
}

/** What waits: by status, by destination domain, by provider, and the oldest. */
export interface QueueSummary {
  object: "queue_summary";
  by_status: QueueStatusCounts;
  /** The 20 domains with the most recipients waiting. */
  by_domain: QueueDomainCounts[];
  by_provider: QueueProviderCounts[];
  /** When the oldest waiting recipient was queued; null: nothing waits. */
  oldest_waiting_at: string | null;
}

/** What a pause stops: the whole organisation, one sending domain, or one provider. */
export type PauseScope = "organization" | "domain" | "provider";

/** Sending paused (DESIGN §12): its mail is accepted and waits as `held` until it is resumed. */
export interface SendingPause {
  scope: PauseScope;
  /** The domain or provider; null for the organisation. */
  name: string | null;
  reason: string | null;
  paused_at: string;
  /** The key that paused (its id), or `operator` for the command line. */
  paused_by: string | null;
}

/** The pauses that apply now. */
export interface SendingState {
  object: "sending";
  pauses: SendingPause[];
}

/** After a resume: the pauses left, and how many held recipients went back to the queue. */
export interface SendingResumed extends SendingState {
  released: number;
}

/** What to pause: the organisation (`name` none), one of its sending domains, or a configured provider. */
export interface PauseSendingOptions {
  scope: PauseScope;
  /** The sending domain or the provider; none for the organisation. */
  name?: string;
  /** For the record: shown with the pause and in its held recipients' last response. */
  reason?: string | null;
}

/** What to resume: as it was paused. */
export interface ResumeSendingOptions {
  scope: PauseScope;
  /** The sending domain or the provider; none for the organisation. */
  name?: string;
}

/** One sending domain's health in the overview. */
export interface DomainHealthEntry {
  id: string;
  name: string;
  health: DomainHealth;
}

/**
 * The guardrails' overview (DESIGN §14): the organisation's bounce and complaint rates over the window, across all
 * its domains, and each sending domain's, by name.
 */
/** A DNS blocklist's last answer about one of the server's sending addresses. */
export interface BlocklistListing {
  address: string;
  list: string;
  listed: boolean;
  reason: string | null;
  checked_at: string;
}

export interface SendingHealthOverview {
  object: "sending_health";
  health: DomainHealth;
  domains: DomainHealthEntry[];
  /** The blocklists' last answers about the sending addresses, listed ones first; empty without [deliverability] dnsbl. */
  blocklists: BlocklistListing[];
}

// ---------------------------------------------------------------------------------------------------------------
// Sending IPs

/** A provider whose rate is halved for one address after it pushed back (a 421 or a 4.7.x rate reply). */
export interface IpPoolBackOff {
  /** The destination provider (`gmail`, `outlook`, `yahoo`, a `[shaping.<provider>]`, or `other`). */
  provider: string;
  /** The rate in force now, per minute. */
  messages_per_minute: number;
  /** When the rate returns to the configured one (ISO 8601). */
  until: string;
}

/** One source address of an IP pool, with its warm-up and today's traffic. */
export interface IpPoolAddress {
  address: string;
  /** The EHLO name it greets with (its PTR name); null: `[mx] ehlo_name`. */
  ehlo_name: string | null;
  /** Day of warm-up (1 = the day it first sent); null before it sent, or once warm-up is over. */
  warmup_day: number | null;
  /** Today's cap per destination provider while warming up; null: uncapped. */
  daily_cap: number | null;
  /** Messages delivered today (UTC), per destination provider. */
  today: Record<string, number>;
  /** Providers whose rate is halved now, with the rate in force and until when. */
  backed_off: IpPoolBackOff[];
}

/** An `[ip_pools.<name>]` of the server: the addresses direct delivery of the domains naming it binds. */
export interface IpPool {
  name: string;
  /** How long an address warms up from its first use, e.g. `30d` (`0d`: no warm-up). */
  warmup: string;
  addresses: IpPoolAddress[];
}

/** Every configured pool in one answer: no pages. */
export interface IpPoolList {
  object: "list";
  data: IpPool[];
}

// ---------------------------------------------------------------------------------------------------------------
// Organisation

/** What the organisation stores, as the server's retention job last counted it. */
export interface OrganizationStorage {
  messages: number;
  content_bytes: number;
  measured_at: string;
}

/** The organisation's settings (DESIGN §12), each the value in force: its own, or the server's configured default. */
export interface Organization {
  object: "organization";
  id: string;
  name: string;
  /** Requests per minute, all keys together. */
  rate_limit: number;
  /** Live messages per UTC day; null: none. Over it, sends fail with 429 `daily_quota_exceeded`. */
  daily_quota: number | null;
  /** Live messages accepted since 00:00 UTC (test-mode mail is not counted). */
  usage_today: number;
  /** Days before a finished message's content (raw message, bodies, attachments), then its record, are removed. */
  retention: { content_days: number; metadata_days: number };
  /** Sending of the whole organisation is paused (`sending.get()` lists every pause). */
  paused: boolean;
  /** Null until the retention job has counted once. */
  storage: OrganizationStorage | null;
  created_at: string;
}

/** The settings to change: an absent one stays, a null one returns to the server's default (the quota: none). */
export interface UpdateOrganizationOptions {
  /** 1 to 100 characters on one line. */
  name?: string;
  /** Requests per minute, all keys together; at least 1. */
  rate_limit?: number | null;
  /** Live messages per UTC day; at least 1. */
  daily_quota?: number | null;
  retention?: {
    /** Days (1 to 36 500) before the content of a finished message is removed. */
    content_days?: number | null;
    /** Days (1 to 36 500) before a finished message's record and events are removed. */
    metadata_days?: number | null;
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Teams: organisations, members and invitations, the audit log

/**
 * A member's role (DESIGN §13): `owner` everything; `admin` everything but owners and deleting the organisation;
 * `developer` the mail and its settings, no people; `viewer` reads.
 */
export type Role = "owner" | "admin" | "developer" | "viewer";

/** An organisation the caller acts in, with the caller's role there (an API key: its own organisation). */
export interface OrganizationMembership {
  object: "organization";
  id: string;
  name: string;
  role: Role;
}

/** A person who belongs to the organisation; `id` is the person's (a user id), as `updateRole` and `remove` take it. */
export interface Member {
  object: "member";
  id: string;
  email: string;
  name: string;
  role: Role;
  /** When they joined the organisation. */
  created_at: string;
}

/** An invitation not yet accepted: the role its link grants, until `expires_at` (7 days after it was made). */
export interface Invitation {
  object: "invitation";
  id: string;
  email: string;
  role: Role;
  created_at: string;
  expires_at: string;
}

/**
 * A new invitation with its one-time link, `url`, never shown again. `emailed` says whether it was also mailed to the
 * address invited; when not, `note` says why (no public address configured, no verified domain) and the link is yours
 * to hand over.
 */
export interface CreatedInvitation extends Invitation {
  url: string;
  emailed: boolean;
  note: string | null;
}

/** Every member (oldest first) and every pending invitation: one page, never more (`has_more` is false). */
export interface MemberList extends List<Member> {
  invitations: Invitation[];
}

export interface InviteMemberOptions {
  /** The address the link is for; stored lower-cased. */
  email: string;
  /** An API key may grant any role but `owner` (only owners make owners). */
  role: Role;
}

export interface UpdateMemberRoleOptions {
  role: Role;
}

/** Who acted: a person, an API key, the operator at the command line, or Mailroom itself. */
export interface AuditActor {
  type: "user" | "api_key" | "cli" | "system";
  /** The user's or key's id; null for the operator and the system. */
  id: string | null;
  /** The person's email, the key's name, `operator` or `Mailroom`. */
  name: string | null;
}

/** What an action concerned: `{ type: "invitation", id, name: email }`, `{ type: "api_key", … }`, … */
export interface AuditTarget {
  type: string;
  id: string | null;
  name: string | null;
}

/** One entry of the audit log (DESIGN §13): who did what, to what, from where. Never holds a secret or a token. */
export interface AuditEvent {
  object: "audit_event";
  id: string;
  created_at: string;
  organization_id: string | null;
  actor: AuditActor;
  /** `<object>.<verb>`: `api_key.created`, `member.invited`, `invitation.revoked`, `member.role_changed`, … */
  action: string;
  /** Null for an action that concerns no one object (a sign-out, say). */
  target: AuditTarget | null;
  ip: string | null;
  user_agent: string | null;
  /** The settings changed and their values (or `{ from, to }`); null when the action has none. */
  changes: Record<string, unknown> | null;
}

/** The audit log, newest first: `after` continues towards older events, `before` back towards newer ones. */
export interface ListAuditLogOptions extends PaginationOptions {
  /** Only this action, e.g. `member.invited`. */
  action?: string;
  /** Only what this actor did: `actor.id` of an event (a user's or key's id). */
  actor_id?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Templates

export type TemplateVariableInput = NonNullable<CreateTemplateRequest["variables"]>[number];

export interface TemplateVariable extends TemplateVariableInput {
  fallback_value: string | number | null;
  created_at: string;
  updated_at: string;
}

/** The create body, where `react` may stand in for `html`. */
export interface CreateTemplateOptions extends Omit<CreateTemplateRequest, "html"> {
  /** Handlebars (or MJML + Handlebars); required unless `react` is given. */
  html?: string;
  /** Rendered to `html` (and `text`, when absent) with `@react-email/render`. */
  react?: ReactElementLike;
}

export interface UpdateTemplateOptions extends UpdateTemplateRequest {
  /** Rendered to `html` (and `text`, when absent) with `@react-email/render`. */
  react?: ReactElementLike;
}

export interface TemplateResponse {
  object: "template";
  id: string;
}

export interface Template {
  object: "template";
  id: string;
  name: string;
  alias: string | null;
  engine: TemplateEngine;
  status: "draft" | "published";
  subject: string | null;
  from: string | null;
  reply_to: string[] | null;
  html: string;
  text: string | null;
  variables: TemplateVariable[];
  published_at: string | null;
  created_at: string;
  updated_at: string;
  has_unpublished_versions: boolean;
  current_version_id: string;
}

export type TemplateSummary = Pick<
  Template,
  "id" | "name" | "alias" | "status" | "published_at" | "created_at" | "updated_at" | "engine"
>;

export type RenderTemplateOptions = RenderTemplateRequest;

export interface RenderedTemplate {
  subject: string | null;
  html: string;
  text: string;
}

export type ValidateTemplateOptions = ValidateTemplateRequest;

export interface TemplateValidation {
  valid: boolean;
  errors: Array<{ field: string; line: number; column: number; message: string }>;
}

// ---------------------------------------------------------------------------------------------------------------
// AI

/** Whether drafts and subject suggestions are available: a model is configured on the server. */
export interface AiStatus {
  object: "ai";
  model_configured: boolean;
  /** The configured model's name; null without one. */
  model: string | null;
  /** What to configure when no model is (the words of `write`'s 503); null when one is. */
  message: string | null;
}

export type SubjectOptions = SubjectRequest;

export interface SubjectFinding {
  rule: string;
  severity: "error" | "warning" | "info";
  message: string;
  fix?: string;
}

export interface SubjectScore {
  subject: string;
  score: number;
  findings: SubjectFinding[];
}

export interface SubjectResponse {
  /** 0–100. */
  score: number;
  findings: SubjectFinding[];
  /** Better subjects from the configured model, best first; empty without one. */
  suggestions: SubjectScore[];
  /** Why `suggestions` is empty, when the model is missing or failed. */
  suggestions_unavailable?: string;
  prompt_version?: string;
}

export type WriteOptions = WriteRequest;

export interface WriteResponse {
  object?: "draft";
  subject: string;
  html: string;
  text: string;
  engine?: TemplateEngine;
  variables?: string[];
  template_id?: string | null;
  prompt_version?: string;
}
