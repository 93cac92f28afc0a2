// Generated from the OpenAPI document by `npm run generate` — do not edit.
/**
 * The request and response types of Mailroom's API, as the OpenAPI document (/openapi.json) names them: each
 * route's contract (src/http/contract.ts) writes its schemas there, and `npm run generate` prints them here, so
 * the client's types and the server's answers cannot differ. types.ts re-exports them under the client's names.
 */

/** An address to suppress by hand (origin manual). Sent to POST /v1/suppressions. */
export interface AddSuppressionOptions {
  email: string;
  /** Why, for your records (null: none). */
  reason?: string | null;
}

/** Answered by GET /v1/ai. */
export interface AiStatus {
  object: "ai";
  model_configured: boolean;
  /** The configured model's name (never its server or key). */
  model: string | null;
  /** What to configure, when no model is. */
  message: string | null;
}

/** Answered by GET /v1/api-keys. */
export interface ApiKey {
  object: "api_key";
  id: string;
  name: string;
  /** test keys send into the sandbox only. */
  mode: "live" | "test";
  /** The first characters of the key, enough to recognise it, never enough to use it. */
  token_prefix: string;
  scopes: Array<
    | "emails:send"
    | "emails:read"
    | "domains:read"
    | "domains:write"
    | "templates:read"
    | "templates:write"
    | "webhooks:read"
    | "webhooks:write"
    | "suppressions:read"
    | "suppressions:write"
    | "inbound:read"
    | "api_keys:read"
    | "api_keys:write"
    | "ai:use"
    | "deliveries:read"
    | "deliveries:write"
    | "organization:read"
    | "organization:write"
    | "members:read"
    | "members:write"
    | "audit:read"
    | "contacts:read"
    | "contacts:write"
    | "logs:read"
  >;
  /** The sending domains it is restricted to; null: any. */
  domains: string[] | null;
  rate_limit_per_minute: number | null;
  /** Messages per UTC day; null: none of its own. */
  daily_quota: number | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface AuditActor {
  type: "user" | "api_key" | "cli" | "system";
  /** The user's or key's id; null for the operator and the system. */
  id: string | null;
  /** The person's email, the key's name, operator or Mailroom. */
  name: string | null;
}

/** Answered by GET /v1/audit-log. */
export interface AuditEvent {
  object: "audit_event";
  id: string;
  created_at: string;
  organization_id: string | null;
  actor: AuditActor;
  /** <object>.<verb>: api_key.created, member.invited, …. */
  action: string;
  /** Null for an action that concerns no one object. */
  target: AuditTarget | null;
  ip: string | null;
  user_agent: string | null;
  /** The settings changed and their values (or {from, to}); null when the action has none. */
  changes: Record<string, unknown> | null;
}

export interface AuditTarget {
  type: string;
  id: string | null;
  name: string | null;
}

/** Addresses to suppress; those already suppressed keep their entry. Sent to POST /v1/suppressions/batch/add. */
export interface BatchAddSuppressionsOptions {
  emails: string[];
  /** Why, for your records (null: none). */
  reason?: string | null;
}

/**
 * Suppressions to remove, by address (emails) or by id (ids): one of the two. Sent to POST
 * /v1/suppressions/batch/remove.
 */
export interface BatchRemoveSuppressionsOptions {
  emails?: string[];
  ids?: string[];
}

export interface BlocklistListing {
  address: string;
  list: string;
  listed: boolean;
  reason: string | null;
  checked_at: string;
}

/** Answered by GET /v1/broadcasts/{id}. */
export interface Broadcast {
  object: "broadcast";
  id: string;
  name: string;
  segment_id: string | null;
  audience_id: string | null;
  from: string | null;
  subject: string | null;
  reply_to: string[] | null;
  preview_text: string | null;
  /** draft → queued (scheduled, or being fanned out) → sent; canceled: stopped while sending. */
  status: "draft" | "queued" | "sent" | "canceled";
  created_at: string;
  scheduled_at: string | null;
  sent_at: string | null;
  topic_id: string | null;
  html: string | null;
  text: string | null;
  template: BroadcastTemplate | null;
  counts: BroadcastCounts;
}

/** Answered by GET /v1/broadcasts/{id}/clicked-links. */
export interface BroadcastClickedLink {
  /** A cursor for paging, not an entity. */
  id: string;
  url: string;
  clicks: number;
  unique_clicks: number;
}

/** Mailroom's figures (docs/broadcasts.md#counts). */
export interface BroadcastCounts {
  /** Contacts of the segment the fan-out has reached so far. */
  contacts_reached: number;
  /** Messages made: one per eligible contact. */
  messages: number;
  /** Contacts reached who were unsubscribed or suppressed: no message. */
  skipped: number;
  /** Recipients per status. */
  by_status: BroadcastCountsByStatus;
}

/** Recipients per status. */
export interface BroadcastCountsByStatus {
  queued: number;
  sent: number;
  delivered: number;
  deferred: number;
  bounced: number;
  complained: number;
  failed: number;
  suppressed: number;
  canceled: number;
  held: number;
}

/** Answered by GET /v1/broadcasts/{id}/recipients. */
export interface BroadcastRecipient {
  /** The message's id (GET /emails/{id}). */
  id: string;
  contact_id: string | null;
  email: string;
  /** opened, clicked: how many times. */
  count?: number;
  clicked_links?: BroadcastRecipientClickedLink[];
  bounce_type?: "permanent" | "transient" | "undetermined";
}

export interface BroadcastRecipientClickedLink {
  url: string;
  clicks: number;
}

/** Answered by GET /v1/broadcasts. */
export interface BroadcastSummary {
  id: string;
  name: string;
  audience_id: string | null;
  segment_id: string | null;
  status: "draft" | "queued" | "sent" | "canceled";
  created_at: string;
  scheduled_at: string | null;
  sent_at: string | null;
}

/** A saved template in place of html and text, rendered once at send. */
export interface BroadcastTemplate {
  /** The template's id or alias (its published version is sent). */
  id: string;
  /** The template's own variables. */
  variables?: Record<string, unknown>;
}

/**
 * At least one filter. Sent to POST /v1/deliveries/cancel, POST /v1/deliveries/release, POST /v1/deliveries/retry.
 */
export interface BulkDeliveriesOptions {
  status?: QueueStatus;
  /** The recipients' domain. */
  domain?: string;
  /** The provider of their last attempt. */
  provider?: string;
  /** One message's recipients. */
  email_id?: string;
}

/** Answered by POST /v1/deliveries/cancel, POST /v1/deliveries/release, POST /v1/deliveries/retry. */
export interface BulkDeliveriesResponse {
  object: "bulk";
  /** Recipients of the filter the action applies to, those being attempted now included. */
  matched: number;
  /** Those it changed. */
  changed: number;
}

/** Answered by POST /v1/emails/{id}/cancel. */
export interface CancelEmailResponse {
  object: "email";
  id: string;
  status: "canceled";
}

/**
 * A contact of the organisation: one per address. Answered by GET /v1/audiences/{id}/contacts, POST
 * /v1/audiences/{id}/contacts, GET /v1/audiences/{id}/contacts/{contact}, PATCH /v1/audiences/{id}/contacts/{contact},
 * GET /v1/contacts, POST /v1/contacts, GET /v1/contacts/{id}, PATCH /v1/contacts/{id}, GET /v1/segments/{id}/contacts.
 */
export interface Contact {
  object: "contact";
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  /** Out of every broadcast and every topic. */
  unsubscribed: boolean;
  created_at: string;
  updated_at: string;
  /** Each property's value, or its fallback where the contact has none (get only). */
  properties?: Record<string, ContactPropertyValue>;
}

/**
 * A CSV import of contacts and its live counts. Answered by GET /v1/contacts/imports, GET /v1/contacts/imports/{id}.
 */
export interface ContactImport {
  object: "contact_import";
  id: string;
  status: "queued" | "in_progress" | "completed" | "failed";
  created_at: string;
  completed_at: string | null;
  counts: ContactImportCounts;
  /** The first lines that failed, each with its line number in the file. */
  errors: ContactImportError[];
  /** Why the whole import failed (status failed). */
  error: string | null;
}

export interface ContactImportCounts {
  total: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
}

export interface ContactImportError {
  line: number;
  message: string;
}

/**
 * A property contacts may carry; a value must match its type. Answered by GET /v1/contact-properties, POST
 * /v1/contact-properties, GET /v1/contact-properties/{id}, PATCH /v1/contact-properties/{id}.
 */
export interface ContactProperty {
  object: "contact_property";
  id: string;
  key: string;
  type: "string" | "number";
  fallback_value: string | number | null;
  created_at: string;
}

/** A contact's value of one property, with the property's type. */
export interface ContactPropertyValue {
  type: "string" | "number";
  value: string | number;
}

/** A topic with one contact's effective subscription. Answered by GET /v1/contacts/{id}/topics. */
export interface ContactTopic {
  id: string;
  name: string;
  description: string | null;
  /** The contact's effective choice. */
  subscription: "opt_in" | "opt_out";
}

/** Sent to POST /v1/api-keys. */
export interface CreateApiKeyOptions {
  name: string;
  /** Resend's presets (default full_access). */
  permission?: "full_access" | "sending_access";
  /** Restrict sending to this domain (id or name). */
  domain_id?: string;
  /** Fine-grained scopes instead of permission. */
  scopes?: string[];
  mode?: "live" | "test";
  /** Restrict sending to these domains. */
  domains?: string[];
  /** Requests per minute for this key. */
  rate_limit?: number;
  /** Earlier name of rate_limit. */
  rate_limit_per_minute?: number;
  /** Messages per UTC day this key may send. */
  daily_quota?: number;
}

/** Answered by POST /v1/api-keys. */
export interface CreateApiKeyResponse {
  object: "api_key";
  id: string;
  name: string;
  /** test keys send into the sandbox only. */
  mode: "live" | "test";
  /** The first characters of the key, enough to recognise it, never enough to use it. */
  token_prefix: string;
  scopes: Array<
    | "emails:send"
    | "emails:read"
    | "domains:read"
    | "domains:write"
    | "templates:read"
    | "templates:write"
    | "webhooks:read"
    | "webhooks:write"
    | "suppressions:read"
    | "suppressions:write"
    | "inbound:read"
    | "api_keys:read"
    | "api_keys:write"
    | "ai:use"
    | "deliveries:read"
    | "deliveries:write"
    | "organization:read"
    | "organization:write"
    | "members:read"
    | "members:write"
    | "audit:read"
    | "contacts:read"
    | "contacts:write"
    | "logs:read"
  >;
  /** The sending domains it is restricted to; null: any. */
  domains: string[] | null;
  rate_limit_per_minute: number | null;
  /** Messages per UTC day; null: none of its own. */
  daily_quota: number | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** The full key: shown in this answer only. */
  token: string;
}

/** Answered by POST /v1/emails/batch. */
export interface CreateBatchResponse {
  /** The messages sent, in order. */
  data: CreateBatchResponseData[];
  /** Permissive batches: the messages refused, by their index. */
  errors?: CreateBatchResponseError[];
}

export interface CreateBatchResponseData {
  id: string;
}

export interface CreateBatchResponseError {
  index: number;
  message: string;
}

/** A broadcast to a segment. Sent to POST /v1/broadcasts. */
export interface CreateBroadcastOptions {
  name?: string;
  /** The segment whose contacts receive it. */
  segment_id?: string;
  /** segment_id's older name. */
  audience_id?: string;
  from?: string;
  subject?: string;
  reply_to?: string | string[];
  preview_text?: string | null;
  /** May use {{{FIRST_NAME|fallback}}} and the other variables. */
  html?: string;
  text?: string;
  /** A saved template in place of html and text, rendered once at send. */
  template?: CreateBroadcastOptionsTemplate;
  topic_id?: string | null;
  /** Send now (or at scheduled_at) instead of keeping a draft. */
  send?: boolean;
  /** ISO 8601, or e.g. `in 2 hours`; with send: true. */
  scheduled_at?: string;
}

/** A saved template in place of html and text, rendered once at send. */
export interface CreateBroadcastOptionsTemplate {
  /** The template's id or alias (its published version is sent). */
  id: string;
  /** The template's own variables. */
  variables?: Record<string, unknown>;
}

/** A new contact. Sent to POST /v1/audiences/{id}/contacts, POST /v1/contacts. */
export interface CreateContactOptions {
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  /** Out of every broadcast and every topic. */
  unsubscribed?: boolean;
  /** Values of defined contact properties, by key. */
  properties?: Record<string, string | number | null>;
  segments?: CreateContactOptionsSegment[];
  /** Topic choices, each `{id, subscription}`. */
  topics?: CreateContactOptionsTopic[];
}

export interface CreateContactOptionsSegment {
  id: string;
}

export interface CreateContactOptionsTopic {
  id: string;
  subscription: "opt_in" | "opt_out";
}

/** A property contacts may carry. Sent to POST /v1/contact-properties. */
export interface CreateContactPropertyOptions {
  /** Letters, digits and underscores, starting with a letter. */
  key: string;
  type: "string" | "number";
  fallback_value?: string | number | null;
}

/**
 * A new invitation with its one-time link, `url`: when it was not mailed, the link is yours to hand over. Answered by
 * POST /v1/members/invitations.
 */
export interface CreatedInvitation extends Invitation {
  /** The one-time link: never shown again. */
  url: string;
  /** Whether the link was also mailed to the address invited. */
  emailed: boolean;
  /** Why it was not mailed (no public address configured, no verified domain), when it was not. */
  note: string | null;
}

/** Sent to POST /v1/domains. */
export interface CreateDomainOptions {
  /** Domain name; Unicode names are stored as punycode. */
  name: string;
  /** Subdomain for the return path and its SPF and MX records (default send). */
  return_path_subdomain?: string;
  /** Track opens of mail from this domain by default. */
  open_tracking?: boolean;
  /** Track clicks in mail from this domain by default. */
  click_tracking?: boolean;
  /** Accept inbound mail for the domain (adds the Inbound MX record). */
  receiving_enabled?: boolean;
  /** The same as receiving_enabled. */
  receiving?: boolean;
  /**
   * Names of the providers that take the domain's mail, first choice first; the next takes over while one fails.
   * Empty: [delivery] default_provider.
   */
  providers?: string[];
  /**
   * A label (links → links.<domain>): its CNAME to this server is added to the records, and once found the domain's
   * open, click and unsubscribe links use https://links.<domain>; null removes it.
   */
  tracking_subdomain?: string | null;
  /**
   * enforced: direct MX delivery only over STARTTLS with a certificate valid for the MX name (MTA-STS or not);
   * otherwise deferred, then bounced with the reason.
   */
  tls?: "opportunistic" | "enforced";
  /**
   * The [ip_pools.<name>] direct delivery of the domain's mail binds its source addresses from (with their warm-up);
   * null: the machine's default address.
   */
  ip_pool?: string | null;
  dkim?: CreateDomainOptionsDkim;
  /** Resend's form: receiving enabled or disabled. */
  capabilities?: CreateDomainOptionsCapabilities;
}

/** Resend's form: receiving enabled or disabled. */
export interface CreateDomainOptionsCapabilities {
  sending?: "enabled";
  receiving?: "enabled" | "disabled";
}

export interface CreateDomainOptionsDkim {
  /**
   * Sign with an Ed25519 key (RFC 8463) beside the RSA one: adds its DKIM record; the signature is added once the
   * record is found.
   */
  ed25519?: boolean;
}

/** A new organisation; its creator is its owner. Answered by POST /v1/organizations. */
export interface CreatedOrganization {
  object: "organization";
  id: string;
  name: string;
}

/** Sent to POST /functions/v1/send-email, POST /v1/emails, POST /v1/emails/batch. */
export interface CreateEmailOptions {
  /** `addr` or `Display Name <addr>` on a verified domain; required unless the template gives it. */
  from?: string;
  to: string | string[];
  cc?: string | string[] | null;
  bcc?: string | string[] | null;
  reply_to?: string | string[] | null;
  "reply-to"?: string | string[] | null;
  /** Required unless the template gives it. */
  subject?: string;
  html?: string | null;
  text?: string | null;
  headers?: Record<string, string> | null;
  attachments?: CreateEmailOptionsAttachment[] | null;
  tags?: CreateEmailOptionsTag[] | null;
  scheduled_at?: string | null;
  tracking?: CreateEmailOptionsTracking | null;
  unsubscribe?: boolean | null;
  topic_id?: string | null;
  /** Render a saved template; from, subject, html and text come from it unless given here. */
  template?: CreateEmailOptionsTemplate;
}

export interface CreateEmailOptionsAttachment {
  filename: string;
  /** base64; or give path. */
  content?: string;
  /**
   * an https URL fetched at acceptance instead of content (public addresses only, at most the message size limit).
   */
  path?: string;
  content_type?: string;
  content_id?: string;
}

export interface CreateEmailOptionsTag {
  name: string;
  value: string;
}

/** Render a saved template; from, subject, html and text come from it unless given here. */
export interface CreateEmailOptionsTemplate {
  /** Template id or alias (its published version). */
  id: string;
  variables?: Record<string, string | number | null> | null;
}

/** Overrides the sending domain's tracking defaults. */
export interface CreateEmailOptionsTracking {
  opens?: boolean;
  clicks?: boolean;
}

/** Answered by POST /functions/v1/send-email, POST /v1/emails. */
export interface CreateEmailResponse {
  id: string;
  message: "Email sent.";
}

/** Sent to POST /v1/inbound/routes. */
export interface CreateInboundRouteOptions {
  /** What the route matches; an empty match matches every message. */
  match?: CreateInboundRouteOptionsMatch;
  /** Where action forward sends a copy. */
  forward_to?: string[];
  /** The webhooks action webhook notifies. */
  webhook_ids?: string[];
  spam_threshold?: number | null;
  /** Where the route goes; those at it and after move down. Default: last. */
  position?: number;
  action: "store" | "webhook" | "forward" | "reject" | "drop";
}

/** What the route matches; an empty match matches every message. */
export interface CreateInboundRouteOptionsMatch {
  recipient?: string | null;
  header?: InboundRouteHeaderMatch | null;
}

/** A segment. Sent to POST /v1/audiences, PATCH /v1/audiences/{id}, POST /v1/segments, PATCH /v1/segments/{id}. */
export interface CreateSegmentOptions {
  /** The segment's name. */
  name: string;
}

/** Sent to POST /v1/templates. */
export interface CreateTemplateOptions {
  name: string;
  /** A second, stable name to send with. */
  alias?: string | null;
  /** How html is read (default: mjml when its root is <mjml>, else handlebars). */
  engine?: "handlebars" | "mjml";
  subject?: string | null;
  from?: string | null;
  reply_to?: string | string[] | null;
  html: string;
  text?: string | null;
  variables?: CreateTemplateOptionsVariable[];
}

export interface CreateTemplateOptionsVariable {
  key: string;
  type: "string" | "number";
  fallback_value?: string | number | null;
}

/** A new topic. Sent to POST /v1/topics. */
export interface CreateTopicOptions {
  /** The topic's name. */
  name: string;
  description?: string | null;
  /** What a contact who never chose receives (fixed once created). */
  default_subscription: "opt_in" | "opt_out";
  visibility?: "public" | "private";
}

/** Sent to POST /v1/webhooks. */
export interface CreateWebhookOptions {
  /** An https URL on a public address. */
  endpoint: string;
  /** Event types to receive, e.g. email.delivered. */
  events: string[];
  description?: string | null;
}

/** Answered by GET /v1/api-keys/current. */
export interface CurrentApiKey {
  object: "api_key";
  /** The calling key's id; null for a signed-in person. */
  id: string | null;
  /** test keys send into the sandbox only. */
  mode: "live" | "test";
  /** The scopes it may use (a test key's within the sandbox). */
  scopes: Array<
    | "emails:send"
    | "emails:read"
    | "domains:read"
    | "domains:write"
    | "templates:read"
    | "templates:write"
    | "webhooks:read"
    | "webhooks:write"
    | "suppressions:read"
    | "suppressions:write"
    | "inbound:read"
    | "api_keys:read"
    | "api_keys:write"
    | "ai:use"
    | "deliveries:read"
    | "deliveries:write"
    | "organization:read"
    | "organization:write"
    | "members:read"
    | "members:write"
    | "audit:read"
    | "contacts:read"
    | "contacts:write"
    | "logs:read"
  >;
  /** The sending domains it is restricted to; null: any. */
  domains: string[] | null;
  /** Whether it reads messages' html, text, raw and attachments (a viewer does not). */
  reads_message_content: boolean;
}

export interface DaneDestination {
  /** The recipient domain. */
  destination: string;
  /** The MX host negotiated with; empty when its MX lookup failed validation. */
  mx_host: string;
  /**
   * secure: DNSSEC-secure TLSA records; none: no secure TLSA records (unsigned, or none published); bogus: the TLSA
   * answer failed DNSSEC validation; unchecked: DANE was off.
   */
  tlsa: "secure" | "none" | "bogus" | "unchecked";
  /**
   * The last negotiation: verified (the certificate matched a TLSA record), mismatched or bogus (deferred 4.7.5,
   * nothing sent), mta_sts or tls_policy (no secure TLSA records: the MTA-STS policy, or the domain's tls setting,
   * decided).
   */
  outcome: "verified" | "mismatched" | "bogus" | "mta_sts" | "tls_policy";
  /** RFC 8460's result type of that negotiation: success, tlsa-invalid, …. */
  result: string;
  last_at: string;
  /** Negotiations with this host over the window. */
  sessions: number;
}

/**
 * Answered by GET /v1/deliveries, POST /v1/deliveries/{id}/cancel, POST /v1/deliveries/{id}/release, POST
 * /v1/deliveries/{id}/retry.
 */
export interface Delivery {
  object: "delivery";
  id: string;
  email_id: string;
  recipient: string;
  /** A recipient status, or sending while an attempt is under way. */
  status:
    | "queued"
    | "sent"
    | "delivered"
    | "deferred"
    | "bounced"
    | "complained"
    | "failed"
    | "suppressed"
    | "canceled"
    | "held"
    | "sending";
  /** The provider of the last attempt; null: not attempted yet. */
  provider: string | null;
  attempts: number;
  next_attempt_at: string | null;
  /** The last remote reply (or the operator's action). */
  last_response: string | null;
  created_at: string;
  updated_at: string;
}

/** Answered by GET /v1/domains/{id}/dmarc. */
export interface DmarcReport {
  object: "dmarc_report";
  id: string;
  /** The receiver's organisation, as it names itself (google.com, Yahoo, …). */
  reporter: string;
  /** The receiver's id of the report. */
  report_id: string;
  /** The period the report covers (ISO 8601, UTC). */
  begin: string;
  end: string;
  /** The report's first 20 rows at most, heaviest source first. */
  rows: DmarcRow[];
  /** How many rows the report has: those past `rows` are read page by page. */
  row_count: number;
}

/** Answered by GET /v1/domains/{id}/dmarc/{report_id}/rows. */
export interface DmarcReportRow extends DmarcRow {
  id: string;
}

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

export interface DmarcSource {
  source_ip: string;
  messages: number;
  /** The share of messages (0–1) that passed DKIM or SPF aligned, so passed DMARC. */
  aligned_pass_rate: number;
  /** One of Mailroom's addresses (public_ips, or the domain's SPF at its return path passes for it). */
  own: boolean;
}

/** Answered by GET /v1/domains/{id}/dmarc/summary. */
export interface DmarcSummary {
  object: "dmarc_summary";
  domain: string;
  days: number;
  /** How many reports were summed (those of the last days, newest first). */
  reports: number;
  /** Most messages first. */
  data: DmarcSource[];
}

/**
 * Answered by GET /v1/domains, POST /v1/domains, GET /v1/domains/{id}, PATCH /v1/domains/{id}, POST
 * /v1/domains/{id}/dkim/rotate, POST /v1/domains/{id}/override, POST /v1/domains/{id}/verify.
 */
export interface Domain {
  object: "domain";
  id: string;
  name: string;
  status: "not_started" | "pending" | "verified" | "partially_verified" | "failed" | "temporary_failure";
  /**
   * The operator marked the domain verified without DNS checks (mailroom domains add --verified, or an instance admin:
   * POST /v1/domains/:id/override).
   */
  verified_override: boolean;
  open_tracking: boolean;
  click_tracking: boolean;
  return_path_subdomain: string;
  receiving_enabled: boolean;
  /**
   * The providers that take the domain's mail, in order (the next takes over while one fails); empty: the default.
   */
  providers: string[];
  /** Resend's spelling of the same switches. */
  capabilities: DomainCapabilities;
  records: DomainRecord[];
  dkim: DomainDkim;
  /** The label of the tracking host (links → links.<domain>), whose CNAME is among the records; null: none. */
  tracking_subdomain: string | null;
  /** enforced: direct MX delivery only over STARTTLS with a certificate valid for the MX name. */
  tls: "opportunistic" | "enforced";
  /** The [ip_pools.<name>] direct delivery sends from; null: the machine's default address. */
  ip_pool: string | null;
  health: DomainHealth;
  last_checked_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Resend's spelling of the same switches. */
export interface DomainCapabilities {
  sending: "enabled";
  receiving: "enabled" | "disabled";
}

/** Answered by GET /v1/domains/{id}/dane. */
export interface DomainDane {
  object: "dane_status";
  /** Whether direct delivery checks TLSA records ([mx] dane). */
  dane: "on" | "off";
  /** The window: destinations the domain's mail went to in these last days. */
  days: number;
  /** Most recently negotiated first. */
  data: DaneDestination[];
}

/** Answered by DELETE /v1/domains/{id}. */
export interface DomainDeleted {
  object: "domain";
  id: string;
  name: string;
  deleted: true;
}

export interface DomainDkim {
  /** An Ed25519 signature is added beside the RSA one once its record is found (RFC 8463). */
  ed25519: boolean;
}

export interface DomainHealth {
  bounce_rate: number;
  complaint_rate: number;
  /** The window, e.g. 24h. */
  window: string;
  /** Recipients that ended in the window (since a resume, when later): what the rates divide by. */
  recipients: number;
  status: "ok" | "warning" | "paused";
  /** Why the status is not ok, e.g. `bounce rate 9.1 % over 24 h`; null when ok. */
  reason: string | null;
  /** When the rates were measured; null before the first measurement. */
  evaluated_at: string | null;
  /**
   * Recipients that must end in the window before the rates are judged ([guardrails] min_recipients); below it the
   * status stays ok, not judged yet.
   */
  min_recipients: number;
}

export interface DomainHealthEntry {
  id: string;
  name: string;
  health: DomainHealth;
}

export interface DomainRecord {
  record: "DKIM" | "SPF" | "MX" | "DMARC" | "Inbound" | "Tracking";
  name: string;
  type: "TXT" | "MX" | "CNAME";
  value: string;
  /** MX preference. */
  priority?: number;
  ttl: "Auto";
  status: "not_started" | "pending" | "verified" | "failed" | "temporary_failure";
  /**
   * After a check: what DNS answered at the record's name (TXT values, or `priority host` for MX), to set beside
   * value; null when the lookup failed. Absent before the first check.
   */
  found?: string[] | null;
  /** Why the record as shown cannot work yet: it names this machine because [server] hostname is unset. */
  warning?: string;
  /** DKIM only: active signs now; next is a rotation's new key, taking over once its record is found. */
  key_state?: "active" | "next";
}

/** Answered by GET /functions/v1/send-email/{id}, GET /v1/emails/{id}. */
export interface Email {
  object: "email";
  id: string;
  message_id: string;
  source: "api" | "smtp" | "cli" | "forward";
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
  /** The topic it was sent for (docs/contacts-preferences.md). */
  topic_id: string | null;
  /** The broadcast it was sent for (docs/broadcasts.md). */
  broadcast_id: string | null;
  /**
   * test: sent with a test key, into the sandbox (docs/keys-and-limits.md#test-keys-are-a-sandbox); live otherwise.
   */
  mode: "live" | "test";
  html: string | null;
  text: string | null;
  /** When retention removed the raw message, bodies and attachments; null while they are kept. */
  content_removed_at: string | null;
  recipients: EmailRecipient[];
  events: EmailEvent[];
}

/**
 * Answered by GET /v1/emails/{id}/attachments, GET /v1/emails/{id}/attachments/{attachment_id}, GET
 * /v1/emails/receiving/{id}/attachments, GET /v1/emails/receiving/{id}/attachments/{attachment_id}.
 */
export interface EmailAttachment {
  object?: "attachment";
  id: string;
  filename: string | null;
  content_type: string;
  content_disposition: "inline" | "attachment";
  content_id: string | null;
  /** Bytes. */
  size: number;
  /** Valid for an hour without an API key. */
  download_url: string;
  expires_at: string;
}

export interface EmailEvent {
  /** email.queued, email.delivered, …. */
  type: string;
  created_at: string;
  recipient: string | null;
  data: Record<string, unknown>;
}

/** Answered by GET /v1/emails/metrics. */
export interface EmailMetrics {
  object: "metrics";
  start_date: string;
  end_date: string;
  metrics: Array<
    | "received"
    | "delivered"
    | "complained"
    | "suppressed"
    | "bounced"
    | "bounced_transient"
    | "bounced_permanent"
    | "bounced_undetermined"
    | "opened"
    | "clicked"
    | "unsubscribed"
    | "delivery_delayed"
    | "failed"
    | "sent"
    | "unique_opened"
    | "unique_clicked"
    | "delivery_rate"
    | "open_rate"
    | "click_rate"
    | "bounce_rate"
    | "complaint_rate"
    | "unsubscribe_rate"
  >;
  dimensions: Array<"period" | "domain" | "email" | "broadcast">;
  granularity: "hourly" | "daily" | "weekly" | "monthly";
  totals: EmailMetricsTotals;
  data?: EmailMetricsRow[];
}

export interface EmailMetricsRow {
  /** The period's start (UTC). */
  period: string;
  received?: number;
  delivered?: number;
  complained?: number;
  suppressed?: number;
  bounced?: number;
  bounced_transient?: number;
  bounced_permanent?: number;
  bounced_undetermined?: number;
  opened?: number;
  clicked?: number;
  unsubscribed?: number;
  delivery_delayed?: number;
  failed?: number;
  sent?: number;
  unique_opened?: number;
  unique_clicked?: number;
  delivery_rate?: number;
  open_rate?: number;
  click_rate?: number;
  bounce_rate?: number;
  complaint_rate?: number;
  unsubscribe_rate?: number;
}

export interface EmailMetricsTotals {
  received?: number;
  delivered?: number;
  complained?: number;
  suppressed?: number;
  bounced?: number;
  bounced_transient?: number;
  bounced_permanent?: number;
  bounced_undetermined?: number;
  opened?: number;
  clicked?: number;
  unsubscribed?: number;
  delivery_delayed?: number;
  failed?: number;
  sent?: number;
  unique_opened?: number;
  unique_clicked?: number;
  delivery_rate?: number;
  open_rate?: number;
  click_rate?: number;
  bounce_rate?: number;
  complaint_rate?: number;
  unsubscribe_rate?: number;
}

export interface EmailRecipient {
  email: string;
  status: RecipientStatus;
  attempts: number;
  /** The receiving server's last reply. */
  last_response: string | null;
  /** The provider of the last attempt (its name in the config). */
  provider: string | null;
  /** The id that provider gave the message. */
  provider_message_id: string | null;
  updated_at: string;
}

/** `accepted` counts messages (email.queued, or the first email.scheduled); the others count recipients' events. */
export interface EmailStatCounts {
  accepted: number;
  sent: number;
  delivered: number;
  delivery_delayed: number;
  bounced: number;
  complained: number;
  failed: number;
  suppressed: number;
}

/** Answered by GET /v1/emails/stats. */
export interface EmailStats {
  object: "email_stats";
  interval: "hour" | "day";
  from: string;
  to: string;
  buckets: EmailStatsBucket[];
  totals: EmailStatCounts;
}

export interface EmailStatsBucket {
  start: string;
  accepted: number;
  sent: number;
  delivered: number;
  delivery_delayed: number;
  bounced: number;
  complained: number;
  failed: number;
  suppressed: number;
}

/** The last event. */
export type EmailStatus =
  | "scheduled"
  | "queued"
  | "held"
  | "sent"
  | "delivered"
  | "delivery_delayed"
  | "bounced"
  | "complained"
  | "opened"
  | "clicked"
  | "unsubscribed"
  | "failed"
  | "suppressed"
  | "canceled";

/** Answered by GET /v1/emails. */
export interface EmailSummary {
  object: "email";
  id: string;
  message_id: string;
  source: "api" | "smtp" | "cli" | "forward";
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
  /** The topic it was sent for (docs/contacts-preferences.md). */
  topic_id: string | null;
  /** The broadcast it was sent for (docs/broadcasts.md). */
  broadcast_id: string | null;
  /**
   * test: sent with a test key, into the sandbox (docs/keys-and-limits.md#test-keys-are-a-sandbox); live otherwise.
   */
  mode: "live" | "test";
}

export interface ErrorBody {
  /** The HTTP reason phrase. */
  error: string;
  /** What went wrong, from the one error table. */
  name:
    | "validation_error"
    | "invalid_idempotency_key"
    | "unauthorized"
    | "insufficient_scope"
    | "not_found"
    | "method_not_allowed"
    | "invalid_idempotent_request"
    | "concurrent_idempotent_requests"
    | "conflict"
    | "payload_too_large"
    | "domain_not_verified"
    | "rate_limit_exceeded"
    | "daily_quota_exceeded"
    | "gone"
    | "internal_error"
    | "service_unavailable";
  message: string;
  statusCode: number;
  details?: ErrorBodyDetail[];
  request_id?: string;
}

export interface ErrorBodyDetail {
  path: string;
  message: string;
}

/**
 * A rule for the organisation's received mail. Answered by GET /v1/inbound/routes, POST /v1/inbound/routes, GET
 * /v1/inbound/routes/{id}, PATCH /v1/inbound/routes/{id}.
 */
export interface InboundRoute {
  object: "inbound_route";
  id: string;
  /** Routes are tried from position 1 up; the first match decides. */
  position: number;
  match: InboundRouteMatch;
  /**
   * store (the default), webhook (store; email.received only to webhook_ids), forward (store and forward), reject (550
   * 5.7.1) or drop (accept, store nothing).
   */
  action: "store" | "webhook" | "forward" | "reject" | "drop";
  forward_to: string[];
  webhook_ids: string[];
  /** rspamd score at or over which the message is refused. */
  spam_threshold: number | null;
  created_at: string;
  updated_at: string;
}

/** Matches when one of the message's header fields of this name contains the text. */
export interface InboundRouteHeaderMatch {
  /** A header field's name. */
  name: string;
  /** Text its value contains (any case). */
  contains: string;
}

export interface InboundRouteMatch {
  recipient: string | null;
  header: InboundRouteHeaderMatch | null;
}

/** Answered by POST /v1/inbound/routes/test. */
export interface InboundRouteTest {
  object: "inbound_route_test";
  recipient: string;
  /** Whether the MX takes mail for this address for the organisation. */
  receiving: boolean;
  /** The route that decides; null: none matches. */
  route: InboundRoute | null;
  /** What becomes of the message (store when no route matches). */
  action: "store" | "webhook" | "forward" | "reject" | "drop";
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
 * An open invitation as its link's holder sees it: the organisation, the role and the address. Answered by POST
 * /v1/invitations/preview.
 */
export interface InvitationPreview {
  object: "invitation_preview";
  /** The address invited: only this account may join with it. */
  email: string;
  role: Role;
  /** The organisation it joins. */
  organization: InvitationPreviewOrganization;
  expires_at: string;
}

/** The organisation it joins. */
export interface InvitationPreviewOrganization {
  name: string;
}

/**
 * An invitation to make: an API key may grant every role but owner (only owners make owners). Sent to POST
 * /v1/members/invitations.
 */
export interface InviteMemberOptions {
  /** The address the link is for; stored lower-cased. */
  email: string;
  role: Role;
}

/** Answered by GET /v1/ip-pools. */
export interface IpPool {
  name: string;
  /** How long an address warms up from its first use, e.g. 30d (0d: none). */
  warmup: string;
  addresses: IpPoolAddress[];
}

export interface IpPoolAddress {
  address: string;
  /** The EHLO name it greets with (its PTR name); null: [mx] ehlo_name. */
  ehlo_name: string | null;
  /** Day of warm-up (1 = the day it first sent); null before it sent, or once warm-up is over. */
  warmup_day: number | null;
  /** Today's cap per provider while warming up; null: uncapped. */
  daily_cap: number | null;
  /** Messages delivered today (UTC), per destination provider. */
  today: Record<string, number>;
  /** Providers whose rate is halved now, with the rate in force and until when. */
  backed_off: IpPoolBackOff[];
}

export interface IpPoolBackOff {
  /** The destination provider (gmail, outlook, yahoo, a [shaping.<provider>], or other). */
  provider: string;
  /** The rate in force now, per minute. */
  messages_per_minute: number;
  /** When the rate returns to the configured one. */
  until: string;
}

/** Answered by GET /v1/logs/{id}. */
export interface Log {
  object: "log";
  id: string;
  created_at: string;
  /** The path, as Resend's: /emails/<id> (no /v1). */
  endpoint: string;
  method: string;
  response_status: number;
  user_agent: string | null;
  api_key_id: string | null;
  /** The JSON body sent, secrets replaced by "[redacted]"; null without one. */
  request_body: unknown;
  /** The JSON answer, secrets replaced by "[redacted]"; null when not JSON. */
  response_body: unknown;
}

/** Answered by GET /v1/logs. */
export interface LogList {
  object: "list";
  has_more: boolean;
  data: LogListItem[];
  /** [retention] logs in days: entries older than this are removed. */
  retention_days: number;
  /** Whether requests are recorded now ([http] request_log). */
  recording: boolean;
}

export interface LogListItem {
  id: string;
  created_at: string;
  /** The path, as Resend's: /emails/<id> (no /v1). */
  endpoint: string;
  method: string;
  response_status: number;
  user_agent: string | null;
  api_key_id: string | null;
}

/**
 * A person who belongs to the organisation; `id` is the person's (a user id), as changing a role and removing take it.
 * Answered by PATCH /v1/members/{id}.
 */
export interface Member {
  object: "member";
  /** The person's id. */
  id: string;
  email: string;
  name: string;
  role: Role;
  /** When they joined the organisation. */
  created_at: string;
}

/** A page of members (oldest first), and every pending invitation. Answered by GET /v1/members. */
export interface MemberList {
  object: "list";
  has_more: boolean;
  data: Member[];
  /** Every pending invitation, without its link. */
  invitations: Invitation[];
}

/** An organisation the signed-in person belongs to, with their role there. */
export interface Membership {
  id: string;
  name: string;
  role: Role;
}

/** Answered by GET /v1/organization, PATCH /v1/organization. */
export interface Organization {
  object: "organization";
  id: string;
  name: string;
  /** Requests per minute, all keys together: the organisation's own or the configured default. */
  rate_limit: number;
  /** Live messages per UTC day; null: none. */
  daily_quota: number | null;
  /** Live messages accepted since 00:00 UTC. */
  usage_today: number;
  retention: OrganizationRetention;
  /** Sending of the whole organisation is paused (GET /v1/sending lists every pause). */
  paused: boolean;
  /** Null until the retention job has counted once. */
  storage: OrganizationStorage | null;
  created_at: string;
}

/**
 * An organisation the caller acts in, with the caller's role there (an API key: its own organisation). Answered by GET
 * /v1/organizations.
 */
export interface OrganizationMembership {
  object: "organization";
  id: string;
  name: string;
  role: Role;
}

export interface OrganizationRetention {
  content_days: number;
  metadata_days: number;
}

export interface OrganizationStorage {
  messages: number;
  content_bytes: number;
  measured_at: string;
}

/** What is paused: the organisation, one sending domain, one provider, or one lane (transactional, broadcast). */
export type PauseScope = "organization" | "domain" | "provider" | "lane";

/** Sent to POST /v1/sending/pause. */
export interface PauseSendingOptions {
  scope: PauseScope;
  /** The domain, provider or lane — transactional or broadcast (none for the organisation). */
  name?: string;
  /** For the record. */
  reason?: string | null;
}

export interface QueueDomainCounts {
  domain: string;
  queued: number;
  deferred: number;
  held: number;
  sending: number;
  /** When the oldest of them was queued. */
  oldest_at: string | null;
}

export interface QueueLaneCounts {
  lane: "transactional" | "broadcast";
  queued: number;
  deferred: number;
  held: number;
  sending: number;
  /** When the oldest of them was queued. */
  oldest_at: string | null;
}

export interface QueueProviderCounts {
  /** The provider of the last attempt; null: not attempted yet. */
  provider: string | null;
  queued: number;
  deferred: number;
  held: number;
  sending: number;
  /** When the oldest of them was queued. */
  oldest_at: string | null;
}

/** A waiting status, or sending while an attempt is under way. */
export type QueueStatus = "queued" | "deferred" | "held" | "sending";

export interface QueueStatusCounts {
  queued: number;
  deferred: number;
  held: number;
  sending: number;
}

/** Answered by GET /v1/deliveries/summary. */
export interface QueueSummary {
  object: "queue_summary";
  by_status: QueueStatusCounts;
  /** The 20 domains with the most recipients waiting. */
  by_domain: QueueDomainCounts[];
  by_provider: QueueProviderCounts[];
  /** Each sending lane: transactional, then broadcast (docs/operations.md#sending-lanes). */
  by_lane: QueueLaneCounts[];
  /** When the oldest waiting recipient was queued. */
  oldest_waiting_at: string | null;
}

export interface ReceivedAttachment {
  id: string;
  filename: string | null;
  content_type: string;
  content_disposition: "inline" | "attachment";
  content_id: string | null;
  /** Bytes. */
  size: number;
}

/** Answered by GET /v1/emails/receiving/{id}. */
export interface ReceivedEmail {
  object: "email";
  id: string;
  to: string[];
  from: string;
  created_at: string;
  subject: string;
  bcc: string[] | null;
  cc: string[] | null;
  reply_to: string[] | null;
  /** The envelope recipients of this organisation (RCPT TO). */
  received_for: string[];
  message_id: string | null;
  attachments: ReceivedAttachment[];
  /** The sent email this one answers (In-Reply-To / References). */
  in_reply_to_email_id: string | null;
  auto_reply: "auto_reply" | "challenge_response" | null;
  authentication: ReceivedEmailAuthentication;
  /** rspamd's verdict; null when none is configured or it did not answer in time. */
  spam: ReceivedEmailSpam | null;
  /** The inbound route that decided; null: none matched (stored). */
  route_id: string | null;
  html: string | null;
  text: string | null;
  headers: Record<string, string>;
  /** The raw message's signed link. */
  raw: ReceivedEmailRaw;
}

export interface ReceivedEmailAuthentication {
  spf: ReceivedEmailAuthenticationSpf | null;
  dkim: ReceivedEmailAuthenticationDkim[];
  dmarc: ReceivedEmailAuthenticationDmarc | null;
  arc: ReceivedEmailAuthenticationArc | null;
  header: string;
}

export interface ReceivedEmailAuthenticationArc {
  result: string;
}

export interface ReceivedEmailAuthenticationDkim {
  result: string;
  domain: string | null;
  selector: string | null;
  aligned: boolean;
}

export interface ReceivedEmailAuthenticationDmarc {
  result: string;
  policy: string | null;
  domain: string | null;
}

export interface ReceivedEmailAuthenticationSpf {
  result: string;
  domain: string | null;
}

/** The raw message's signed link. */
export interface ReceivedEmailRaw {
  /** The message as it arrived; valid for an hour without an API key. */
  download_url: string;
  expires_at: string;
}

export interface ReceivedEmailSpam {
  score: number;
  /** rspamd's action: no action, greylist, add header, rewrite subject, soft reject, reject. */
  action: string;
  /** The rules that fired, highest first. */
  symbols: ReceivedEmailSpamSymbol[];
}

export interface ReceivedEmailSpamSymbol {
  name: string;
  score: number;
}

/** Answered by GET /v1/emails/receiving. */
export interface ReceivedEmailSummary {
  id: string;
  to: string[];
  from: string;
  created_at: string;
  subject: string;
  bcc: string[] | null;
  cc: string[] | null;
  reply_to: string[] | null;
  /** The envelope recipients of this organisation (RCPT TO). */
  received_for: string[];
  message_id: string | null;
  attachments: ReceivedAttachment[];
  /** The sent email this one answers (In-Reply-To / References). */
  in_reply_to_email_id: string | null;
  auto_reply: "auto_reply" | "challenge_response" | null;
  authentication: ReceivedEmailAuthentication;
  /** rspamd's verdict; null when none is configured or it did not answer in time. */
  spam: ReceivedEmailSpam | null;
  /** The inbound route that decided; null: none matched (stored). */
  route_id: string | null;
}

export type RecipientStatus =
  | "queued"
  | "sent"
  | "delivered"
  | "deferred"
  | "bounced"
  | "complained"
  | "failed"
  | "suppressed"
  | "canceled"
  | "held";

/**
 * One address or id of a batch removal: found and removed, or not on the list (`deleted: false`, and the part not
 * given null). Answered by POST /v1/suppressions/batch/remove.
 */
export interface RemovedSuppression {
  object: "suppression";
  id: string | null;
  email: string | null;
  deleted: boolean;
}

/** Answered by POST /v1/templates/{id}/render. */
export interface RenderedTemplate {
  subject: string | null;
  html: string;
  text: string;
}

/** Sent to POST /v1/templates/{id}/render. */
export interface RenderTemplateOptions {
  /** Values of the template's variables: strings and numbers. */
  variables?: Record<string, string | number | null>;
}

/** Answered by POST /v1/webhooks/{id}/replay. */
export interface ReplayFailedResponse {
  object: "replay";
  webhook_id: string;
  /** How many failed events are due again. */
  replayed: number;
}

/** Sent to POST /v1/sending/resume. */
export interface ResumeSendingOptions {
  scope: PauseScope;
  /** The domain, provider or lane — transactional or broadcast (none for the organisation). */
  name?: string;
}

/**
 * A member's role: owner everything; admin everything but owners and deleting the organisation; developer the mail and
 * its settings, no people; viewer reads.
 */
export type Role = "owner" | "admin" | "developer" | "viewer";

/**
 * A named group of contacts (Resend's audience). Answered by GET /v1/audiences, POST /v1/audiences, GET
 * /v1/audiences/{id}, PATCH /v1/audiences/{id}, GET /v1/contacts/{id}/segments, GET /v1/segments, POST /v1/segments,
 * GET /v1/segments/{id}, PATCH /v1/segments/{id}.
 */
export interface Segment {
  object: "segment";
  id: string;
  name: string;
  created_at: string;
}

/**
 * Mailroom's extra: how many contacts a segment holds (docs/contacts.md#tables). Answered by GET
 * /v1/segments/{id}/count.
 */
export interface SegmentCount {
  object: "segment_count";
  segment_id: string;
  /** Contacts in the segment now, unsubscribed and suppressed ones included. */
  contacts: number;
}

/** Sent to POST /v1/broadcasts/{id}/send. */
export interface SendBroadcastOptions {
  /** ISO 8601, or e.g. `in 2 hours`; absent: now. */
  scheduled_at?: string;
}

/** Answered by GET /v1/sending/health. */
export interface SendingHealthOverview {
  object: "sending_health";
  health: DomainHealth;
  domains: DomainHealthEntry[];
  /** Listed ones first; empty without [deliverability] dnsbl. */
  blocklists: BlocklistListing[];
}

export interface SendingPause {
  scope: PauseScope;
  /** The domain, provider or lane; null for the organisation. */
  name: string | null;
  reason: string | null;
  paused_at: string;
  /** The key that paused (its id), operator for the command line, or system for a guardrail. */
  paused_by: string | null;
}

/** Answered by POST /v1/sending/resume. */
export interface SendingResumed {
  object: "sending";
  pauses: SendingPause[];
  /** Held recipients that went back to the queue. */
  released: number;
}

/** Answered by GET /v1/sending, POST /v1/sending/pause. */
export interface SendingState {
  object: "sending";
  pauses: SendingPause[];
}

/**
 * The signed-in person and the organisations they belong to. Answered by POST /v1/invitations/accept, GET /v1/me, POST
 * /v1/session, POST /v1/setup.
 */
export interface Session {
  object: "session";
  user: User;
  organizations: Membership[];
}

/** Whether this browser is signed in: the person, or `user: null` (never a 401). Answered by GET /v1/session. */
export interface SessionState {
  object: "session";
  user: User | null;
  organizations: Membership[];
}

/** SubscribeURL and Token are required of confirmations. */
export interface SnsMessage {
  Type: "Notification" | "SubscriptionConfirmation" | "UnsubscribeConfirmation";
  MessageId: string;
  /** One of [sns] topics. */
  TopicArn: string;
  Subject?: string | null;
  /** For a notification, the SES event record as JSON. */
  Message: string;
  Timestamp: string;
  /** 1: SHA1withRSA, 2: SHA256withRSA. */
  SignatureVersion: "1" | "2";
  Signature: string;
  /** https on the SNS host of the topic's region. */
  SigningCertURL: string;
  /** Confirmations: visiting it confirms the subscription. */
  SubscribeURL?: string;
  /** Confirmations. */
  Token?: string;
  UnsubscribeURL?: string | null;
}

/** Answered by POST /v1/providers/ses/sns. */
export interface SnsReceipt {
  type: "Notification" | "SubscriptionConfirmation" | "UnsubscribeConfirmation";
  /**
   * A notification: whether it changed a delivery (false: repeated, unknown message, or an event Mailroom ignores).
   */
  applied?: boolean;
}

export interface SubjectFinding {
  /** The rule's stable dotted id, e.g. length.too_long. */
  rule: string;
  severity: "error" | "warning" | "info";
  message: string;
  /** What to change. */
  fix: string;
}

/** Sent to POST /v1/ai/subject. */
export interface SubjectOptions {
  subject: string;
  html?: string | null;
  text?: string | null;
}

/** Answered by POST /v1/ai/subject. */
export interface SubjectResponse {
  score: number;
  findings: SubjectFinding[];
  /** Better subjects from the model, best first; empty without one. */
  suggestions: SubjectScore[];
  /** Why there are no suggestions, when the model is not configured or failed. */
  suggestions_unavailable?: string;
  prompt_version: string;
}

export interface SubjectScore {
  subject: string;
  score: number;
  findings: SubjectFinding[];
}

/**
 * An address on the organisation's suppression list: no message is delivered to it. Answered by GET /v1/suppressions,
 * POST /v1/suppressions, GET /v1/suppressions/{id}, POST /v1/suppressions/batch/add.
 */
export interface Suppression {
  object: "suppression";
  id: string;
  email: string;
  /** What put the address on the list. */
  origin: "bounce" | "complaint" | "unsubscribe" | "manual";
  /** The message or event that did (a bounce's, a complaint's). */
  source_id: string | null;
  reason: string | null;
  created_at: string;
}

export interface Tag {
  name: string;
  value: string;
}

/** Answered by GET /v1/templates/{id}. */
export interface Template {
  object: "template";
  id: string;
  name: string;
  alias: string | null;
  /** How html is read: Handlebars, or MJML with Handlebars. */
  engine: "handlebars" | "mjml";
  /** published once a version was published. */
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
  /** The current version is not the published one. */
  has_unpublished_versions: boolean;
  /** The version get shows and an update replaces. */
  current_version_id: string;
}

/**
 * Answered by POST /v1/templates, PATCH /v1/templates/{id}, POST /v1/templates/{id}/duplicate, POST
 * /v1/templates/{id}/publish.
 */
export interface TemplateResponse {
  object: "template";
  id: string;
}

/** Answered by GET /v1/templates. */
export interface TemplateSummary {
  id: string;
  name: string;
  alias: string | null;
  /** published once a version was published. */
  status: "draft" | "published";
  published_at: string | null;
  created_at: string;
  updated_at: string;
  /** How html is read: Handlebars, or MJML with Handlebars. */
  engine: "handlebars" | "mjml";
}

/** Answered by POST /v1/templates/validate. */
export interface TemplateValidation {
  valid: boolean;
  errors: TemplateValidationError[];
}

export interface TemplateValidationError {
  /** html, subject or text. */
  field: string;
  line: number;
  column: number;
  message: string;
}

export interface TemplateVariable {
  key: string;
  type: "string" | "number";
  /** Used when a send gives none. */
  fallback_value: string | number | null;
  created_at: string;
  updated_at: string;
}

/** Sent to POST /v1/inbound/routes/test. */
export interface TestInboundRouteOptions {
  recipient: string;
  /** Header fields of an imagined message, name → value. */
  headers?: Record<string, string>;
}

/** Sent to POST /v1/webhooks/{id}/test. */
export interface TestWebhookOptions {
  /** Event type of the sample (default email.sent). */
  type?: string;
}

/**
 * A kind of mail a contact may choose to receive or not. Answered by GET /v1/topics, POST /v1/topics, GET
 * /v1/topics/{id}, PATCH /v1/topics/{id}.
 */
export interface Topic {
  object: "topic";
  id: string;
  name: string;
  description: string | null;
  /** What a contact who never chose receives: opt_in receives, opt_out does not. */
  default_subscription: "opt_in" | "opt_out";
  /** public topics are shown on the preference page. */
  visibility: "public" | "private";
  created_at: string;
  updated_at: string;
}

/**
 * Two-step sign-in begun: the secret for an authenticator app, on once a code of it is confirmed. Answered by POST
 * /v1/me/totp.
 */
export interface TotpEnrolment {
  object: "totp_enrolment";
  /** The new secret, base32: type it into the app, or scan otpauth_url. */
  secret: string;
  otpauth_url: string;
}

/** Two-step sign-in off: a password alone signs in. Answered by POST /v1/me/totp/disable. */
export interface TotpOff {
  object: "totp";
  enabled: false;
}

/**
 * Two-step sign-in on, with new recovery codes. Answered by POST /v1/me/totp/confirm, POST /v1/me/totp/recovery-codes.
 */
export interface TotpOn {
  object: "totp";
  enabled: true;
  /** Shown this once: each signs in once without the app. */
  recovery_codes: string[];
}

/** Sent to PATCH /v1/api-keys/{id}. */
export interface UpdateApiKeyOptions {
  name: string;
}

/** Answered by PATCH /v1/api-keys/{id}. */
export interface UpdateApiKeyResponse {
  object: "api_key";
  id: string;
}

/** Changes to a draft. Sent to PATCH /v1/broadcasts/{id}. */
export interface UpdateBroadcastOptions {
  name?: string;
  /** The segment whose contacts receive it. */
  segment_id?: string;
  /** segment_id's older name. */
  audience_id?: string;
  from?: string;
  subject?: string;
  reply_to?: string | string[];
  preview_text?: string | null;
  /** May use {{{FIRST_NAME|fallback}}} and the other variables. */
  html?: string;
  text?: string;
  /** A saved template in place of html and text, rendered once at send. */
  template?: UpdateBroadcastOptionsTemplate;
  topic_id?: string | null;
}

/** A saved template in place of html and text, rendered once at send. */
export interface UpdateBroadcastOptionsTemplate {
  /** The template's id or alias (its published version is sent). */
  id: string;
  /** The template's own variables. */
  variables?: Record<string, unknown>;
}

/** Changes to a contact. Sent to PATCH /v1/audiences/{id}/contacts/{contact}, PATCH /v1/contacts/{id}. */
export interface UpdateContactOptions {
  first_name?: string | null;
  last_name?: string | null;
  unsubscribed?: boolean;
  /** Values to set, by key (null removes one). */
  properties?: Record<string, string | number | boolean | null>;
}

/** A property's new fallback (its key and type cannot change). Sent to PATCH /v1/contact-properties/{id}. */
export interface UpdateContactPropertyOptions {
  fallback_value?: string | number | null;
}

/** Sent to PATCH /v1/domains/{id}. */
export interface UpdateDomainOptions {
  /** Subdomain for the return path and its SPF and MX records (default send). */
  return_path_subdomain?: string;
  /** Track opens of mail from this domain by default. */
  open_tracking?: boolean;
  /** Track clicks in mail from this domain by default. */
  click_tracking?: boolean;
  /** Accept inbound mail for the domain (adds the Inbound MX record). */
  receiving_enabled?: boolean;
  /** The same as receiving_enabled. */
  receiving?: boolean;
  /**
   * Names of the providers that take the domain's mail, first choice first; the next takes over while one fails.
   * Empty: [delivery] default_provider.
   */
  providers?: string[];
  /**
   * A label (links → links.<domain>): its CNAME to this server is added to the records, and once found the domain's
   * open, click and unsubscribe links use https://links.<domain>; null removes it.
   */
  tracking_subdomain?: string | null;
  /**
   * enforced: direct MX delivery only over STARTTLS with a certificate valid for the MX name (MTA-STS or not);
   * otherwise deferred, then bounced with the reason.
   */
  tls?: "opportunistic" | "enforced";
  /**
   * The [ip_pools.<name>] direct delivery of the domain's mail binds its source addresses from (with their warm-up);
   * null: the machine's default address.
   */
  ip_pool?: string | null;
  dkim?: UpdateDomainOptionsDkim;
  /** Resend's form: receiving enabled or disabled. */
  capabilities?: UpdateDomainOptionsCapabilities;
}

/** Resend's form: receiving enabled or disabled. */
export interface UpdateDomainOptionsCapabilities {
  sending?: "enabled";
  receiving?: "enabled" | "disabled";
}

export interface UpdateDomainOptionsDkim {
  /**
   * Sign with an Ed25519 key (RFC 8463) beside the RSA one: adds its DKIM record; the signature is added once the
   * record is found.
   */
  ed25519?: boolean;
}

/** Sent to PATCH /v1/emails/{id}. */
export interface UpdateEmailOptions {
  scheduled_at: string;
}

/** Answered by PATCH /v1/emails/{id}. */
export interface UpdateEmailResponse {
  object: "email";
  id: string;
}

/** Sent to PATCH /v1/inbound/routes/{id}. */
export interface UpdateInboundRouteOptions {
  /** What the route matches; an empty match matches every message. */
  match?: UpdateInboundRouteOptionsMatch;
  /** Where action forward sends a copy. */
  forward_to?: string[];
  /** The webhooks action webhook notifies. */
  webhook_ids?: string[];
  spam_threshold?: number | null;
  /** Where the route goes; those at it and after move down. Default: last. */
  position?: number;
  action?: "store" | "webhook" | "forward" | "reject" | "drop";
}

/** What the route matches; an empty match matches every message. */
export interface UpdateInboundRouteOptionsMatch {
  recipient?: string | null;
  header?: InboundRouteHeaderMatch | null;
}

/** A member's new role. Sent to PATCH /v1/members/{id}. */
export interface UpdateMemberRoleOptions {
  role: Role;
}

/** Sent to PATCH /v1/organization. */
export interface UpdateOrganizationOptions {
  /** 1 to 100 characters on one line. */
  name?: string;
  /** Requests per minute, all keys together; null returns to the configured default. */
  rate_limit?: number | null;
  /** Live messages per UTC day; null: none. */
  daily_quota?: number | null;
  retention?: UpdateOrganizationOptionsRetention;
}

export interface UpdateOrganizationOptionsRetention {
  /** Days before the content of a finished message is removed; null returns to the configured default. */
  content_days?: number | null;
  /** Days before a finished message's record and events are removed; null returns to the configured default. */
  metadata_days?: number | null;
}

/** Sent to PATCH /v1/templates/{id}. */
export interface UpdateTemplateOptions {
  name?: string;
  /** A second, stable name to send with. */
  alias?: string | null;
  /** How html is read (default: mjml when its root is <mjml>, else handlebars). */
  engine?: "handlebars" | "mjml";
  subject?: string | null;
  from?: string | null;
  reply_to?: string | string[] | null;
  html?: string;
  text?: string | null;
  variables?: UpdateTemplateOptionsVariable[];
}

export interface UpdateTemplateOptionsVariable {
  key: string;
  type: "string" | "number";
  fallback_value?: string | number | null;
}

/** Changes to a topic (its default_subscription cannot change). Sent to PATCH /v1/topics/{id}. */
export interface UpdateTopicOptions {
  /** Ignored (Resend's SDK sends it). */
  id?: string;
  /** The topic's name. */
  name?: string;
  description?: string | null;
  visibility?: "public" | "private";
}

/** Sent to PATCH /v1/webhooks/{id}. */
export interface UpdateWebhookOptions {
  endpoint?: string;
  events?: string[];
  description?: string | null;
  status?: "enabled" | "disabled";
}

/** Answered by GET /v1/usage. */
export interface Usage {
  object: "usage";
  emails: UsageEmails;
  contacts: UsageContacts;
  segments: UsageSegments;
  broadcasts: UsageBroadcasts;
  ai_credits: UsageAiCredits;
  automation_runs: UsageAutomationRuns;
  domains: UsageDomains;
  rate_limit: UsageRateLimit;
}

export interface UsageAiCredits {
  used: number;
  /** Null: Mailroom sets no such limit. */
  limit: number | null;
  next_increase_at: string | null;
}

export interface UsageAutomationRuns {
  used: number;
  /** Null: Mailroom sets no such limit. */
  limit: number | null;
  resets_at: string;
}

export interface UsageBroadcasts {
  used: number;
  limit: unknown | null;
}

export interface UsageContacts {
  used: number;
  /** Null: Mailroom sets no such limit. */
  limit: number | null;
}

export interface UsageDomains {
  used: number;
  /** Null: Mailroom sets no such limit. */
  limit: number | null;
}

export interface UsageEmails {
  daily: UsageEmailsDaily;
  monthly: UsageEmailsMonthly;
}

export interface UsageEmailsDaily {
  /** Messages accepted (sent) in the period. */
  used: number;
  /** Null: Mailroom sets no such limit. */
  limit: number | null;
  sent: number;
  received: number;
  resets_at: string;
}

export interface UsageEmailsMonthly {
  /** Messages accepted (sent) in the period. */
  used: number;
  /** Null: Mailroom sets no such limit. */
  limit: number | null;
  sent: number;
  received: number;
  resets_at: string;
}

export interface UsageRateLimit {
  /** Requests per window, the organisation's. */
  limit: number;
  /** The window: 60s. */
  duration: string;
}

export interface UsageSegments {
  used: number;
  /** Null: Mailroom sets no such limit. */
  limit: number | null;
}

/** A person with an account: signs in to the admin UI and belongs to organisations. */
export interface User {
  object: "user";
  id: string;
  email: string;
  name: string;
  /** May create organisations. */
  instance_admin: boolean;
  /** Sign-in with a password also asks for an authenticator app's code. */
  totp_enabled: boolean;
  created_at: string;
}

/** Sent to POST /v1/templates/validate. */
export interface ValidateTemplateOptions {
  /** How html is read (default: mjml when its root is <mjml>, else handlebars). */
  engine?: "handlebars" | "mjml";
  html: string;
  subject?: string;
  text?: string;
}

/** Answered by GET /v1/webhooks/{id}/events/{event_id}/attempts. */
export interface WebhookAttempt {
  object: "webhook_attempt";
  id: string;
  sent_at: string;
  /** Null when no HTTP answer came (timeout, refused connection, refused address). */
  http_status_code: number | null;
  /** The first 1 KB of the endpoint's answer. */
  response: string | null;
  error: string | null;
  duration_ms: number;
}

/**
 * Answered by GET /v1/webhooks/{id}/events, POST /v1/webhooks/{id}/events/{event_id}/replay, POST
 * /v1/webhooks/{id}/test.
 */
export interface WebhookDeliveryEvent {
  object: "webhook_event";
  /** The webhook-id header of every attempt of this event. */
  id: string;
  webhook_id: string;
  /** The event it carries; null for a test event. */
  event_id: string | null;
  type: string;
  status: "pending" | "attempting" | "success" | "failed";
  attempt_count: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
}

/** Answered by GET /v1/webhooks/{id}/events/{event_id}. */
export interface WebhookDeliveryEventDetail extends WebhookDeliveryEvent {
  payload: WebhookPayload;
  /** Every attempt, oldest first. */
  attempts: WebhookAttempt[];
}

/** Answered by GET /v1/webhooks, GET /v1/webhooks/{id}, PATCH /v1/webhooks/{id}. */
export interface WebhookEndpoint {
  object: "webhook";
  id: string;
  /** The https URL events are posted to. */
  endpoint: string;
  /** The event types it receives. */
  events: Array<
    | "email.scheduled"
    | "email.queued"
    | "email.sent"
    | "email.delivered"
    | "email.delivery_delayed"
    | "email.bounced"
    | "email.complained"
    | "email.opened"
    | "email.clicked"
    | "email.unsubscribed"
    | "email.failed"
    | "email.suppressed"
    | "email.canceled"
    | "email.received"
    | "email.held"
    | "domain.created"
    | "domain.updated"
    | "domain.deleted"
    | "suppression.added"
    | "suppression.removed"
    | "sending.paused"
    | "sending.resumed"
    | "contact.created"
    | "contact.updated"
    | "contact.deleted"
    | "contact.topics.updated"
    | "topic.created"
    | "topic.updated"
    | "topic.deleted"
  >;
  description: string | null;
  status: "enabled" | "disabled";
  /** Why it was disabled (410 Gone, repeated failures, or by the user). */
  disabled_reason: string | null;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookPayload {
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

/** Answered by POST /v1/webhooks, POST /v1/webhooks/{id}/signing-secret/rotate. */
export interface WebhookWithSecret extends WebhookEndpoint {
  /** `whsec_<base64 key>`: what a verifier takes. */
  signing_secret: string;
}

/** Sent to POST /v1/ai/write. */
export interface WriteOptions {
  /** What the email should say. */
  brief: string;
  tone?: string | null;
  audience?: string | null;
  /** Default html. */
  format?: "html" | "mjml";
  /** Save the draft as a draft template. */
  save_as_template?: WriteOptionsSaveAsTemplate | false | null;
}

export interface WriteOptionsSaveAsTemplate {
  name: string;
  alias?: string | null;
}

/** Answered by POST /v1/ai/write. */
export interface WriteResponse {
  object: "draft";
  subject: string;
  html: string;
  text: string;
  engine: "handlebars" | "mjml";
  /** The placeholders the draft uses: the variables a send fills. */
  variables: string[];
  /** The draft template it was saved as, when asked. */
  template_id: string | null;
  prompt_version: string;
}
