/**
 * The request and response shapes of Mailroom's `/v1` API (docs/sending.md, docs/keys-and-limits.md, docs/domains.md, docs/events-and-webhooks.md, docs/README.md, docs/operations.md, docs/teams.md). Field names are
 * the wire's snake_case, as Resend's API spells them, so a body can be read next to the API reference without
 * translation. Only the client-side conveniences differ from the wire: `react`, `Date` for timestamps, bytes for
 * attachments. The shapes the OpenAPI document names come from generated.ts and the lists of values (statuses,
 * event types, scopes) and the other request bodies from wire.ts, both generated from the server's definitions
 * (`npm run generate`); the names here are the ones the package has always exported. The shapes still written here
 * are checked against the server's views (test/wire-responses.check.ts) until their routes name them too.
 */
import type { ErrorDetail, MailroomError } from "./errors.js";
import type {
  CreateApiKeyOptions as CreateApiKeyBody,
  CreateEmailOptions as CreateEmailBody,
  CreateTemplateOptions as CreateTemplateBody,
  CreateTemplateOptionsVariable,
  CreateWebhookOptions as CreateWebhookBody,
  IpPool,
  QueueStatus,
  RemovedSuppression,
  UpdateDomainOptions as UpdateDomainBody,
  UpdateTemplateOptions as UpdateTemplateBody,
  UpdateWebhookOptions as UpdateWebhookBody,
} from "./generated.js";
import type { EmailStatus, EventType, Scope, SuppressionOrigin, WebhookEventStatus } from "./wire.js";

export type {
  DomainStatus,
  EmailStatus,
  RecipientStatus,
  RecordStatus,
  SuppressionOrigin,
  TemplateEngine,
} from "./wire.js";

/**
 * The shapes generated from the OpenAPI document (generated.ts), exported under their document names, which are the
 * names this package has always used; the shapes below add the client's conveniences to some of them.
 */
export type {
  AddSuppressionOptions,
  AiStatus,
  ApiKey,
  AuditActor,
  AuditEvent,
  AuditTarget,
  BatchAddSuppressionsOptions,
  BlocklistListing,
  BulkDeliveriesOptions,
  BulkDeliveriesResponse,
  CancelEmailResponse,
  CreateApiKeyResponse,
  CreateBatchResponse,
  CreateDomainOptions,
  CreatedInvitation,
  CreatedOrganization,
  CreateEmailResponse,
  CurrentApiKey,
  Delivery,
  DmarcReport,
  DmarcReportRow,
  DmarcRow,
  DmarcSource,
  DmarcSummary,
  Domain,
  DomainCapabilities,
  DomainDeleted,
  DomainDkim,
  DomainHealth,
  DomainHealthEntry,
  DomainRecord,
  Email,
  EmailAttachment,
  EmailEvent,
  EmailRecipient,
  EmailStatCounts,
  EmailStats,
  EmailStatsBucket,
  EmailSummary,
  ErrorBody,
  Invitation,
  InviteMemberOptions,
  IpPool,
  IpPoolAddress,
  IpPoolBackOff,
  Member,
  MemberList,
  Organization,
  OrganizationMembership,
  OrganizationRetention,
  OrganizationStorage,
  PauseScope,
  PauseSendingOptions,
  QueueDomainCounts,
  QueueProviderCounts,
  QueueStatus,
  QueueStatusCounts,
  QueueSummary,
  ReceivedAttachment,
  ReceivedEmail,
  ReceivedEmailAuthentication,
  ReceivedEmailRaw,
  ReceivedEmailSummary,
  RemovedSuppression,
  RenderedTemplate,
  RenderTemplateOptions,
  ReplayFailedResponse,
  ResumeSendingOptions,
  Role,
  SendingHealthOverview,
  SendingPause,
  SendingResumed,
  SendingState,
  SubjectFinding,
  SubjectOptions,
  SubjectResponse,
  SubjectScore,
  Suppression,
  Tag,
  Template,
  TemplateResponse,
  TemplateSummary,
  TemplateValidation,
  TemplateValidationError,
  TemplateVariable,
  UpdateApiKeyOptions,
  UpdateApiKeyResponse,
  UpdateEmailResponse,
  UpdateMemberRoleOptions,
  UpdateOrganizationOptions,
  ValidateTemplateOptions,
  WebhookAttempt,
  WebhookDeliveryEvent,
  WebhookDeliveryEventDetail,
  WebhookEndpoint,
  WebhookWithSecret,
  WriteOptions,
  WriteResponse,
} from "./generated.js";

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

type WireAttachment = NonNullable<CreateEmailBody["attachments"]>[number];

export interface Attachment extends Omit<WireAttachment, "content"> {
  /** base64 text, or the bytes themselves (encoded by the client). */
  content?: string | Uint8Array | ArrayBuffer;
}

/** Template id or alias (its published version is rendered), and the values of its variables. */
export type TemplateReference = NonNullable<CreateEmailBody["template"]>;

/** The send body (`from` and `subject` optional when the template supplies them), with the client's conveniences. */
export interface CreateEmailOptions extends Omit<CreateEmailBody, "attachments" | "scheduled_at"> {
  /** Rendered to `html` (and `text`, when absent) with `@react-email/render`, an optional peer dependency. */
  react?: ReactElementLike;
  attachments?: Attachment[];
  /** Send later: ISO 8601 (or a Date), in the future, at most 30 days ahead. */
  scheduled_at?: string | Date;
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

// ---------------------------------------------------------------------------------------------------------------
// Received mail

export interface GetReceivedEmailOptions {
  /** How inline images appear in `html`: embedded `data:` URIs (the default) or left as `cid:` references. */
  html_format?: "data_uri" | "cid";
}

// ---------------------------------------------------------------------------------------------------------------
// Domains

export type DomainSettings = UpdateDomainBody;

export interface UpdateDomainOptions extends UpdateDomainBody {
  /** Domain id or name. */
  id: string;
}

export interface RemoveDomainOptions {
  /** Delete even while mail from the domain is queued (that mail then fails). */
  force?: boolean;
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

// ---------------------------------------------------------------------------------------------------------------
// API keys

export type ApiKeyScope = Scope;

export interface CreateApiKeyOptions extends Omit<CreateApiKeyBody, "scopes"> {
  /** Fine-grained scopes instead of `permission`. */
  scopes?: Array<ApiKeyScope | "full_access" | "sending_access">;
}

export interface ListApiKeysOptions extends PaginationOptions {
  /** Include revoked keys. */
  include_revoked?: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// Webhooks

export type WebhookEventType = EventType;

export interface CreateWebhookOptions extends Omit<CreateWebhookBody, "events"> {
  events: WebhookEventType[];
}

export interface UpdateWebhookOptions extends Omit<UpdateWebhookBody, "events"> {
  events?: WebhookEventType[];
}

export type WebhookDeliveryStatus = WebhookEventStatus;

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

/** The JSON body of every webhook request. */
export interface WebhookPayload<D = Record<string, unknown>> {
  type: WebhookEventType | (string & {});
  created_at: string;
  data: D;
}

// ---------------------------------------------------------------------------------------------------------------
// Suppressions

export interface ListSuppressionsOptions extends PaginationOptions {
  origin?: SuppressionOrigin;
  /** A part of the address. */
  search?: string;
}

export interface SuppressionDeleted extends Deleted<"suppression"> {
  email?: string;
}

/** By address or by id, never both (the document's `BatchRemoveSuppressionsOptions` allows either, checked there). */
export type BatchRemoveSuppressionsOptions = { emails: string[]; ids?: never } | { ids: string[]; emails?: never };

export interface BatchRemoveSuppressionsResponse {
  data: RemovedSuppression[];
}

// ---------------------------------------------------------------------------------------------------------------
// The delivery queue

export interface ListDeliveriesOptions extends PaginationOptions {
  status?: QueueStatus;
  /** The recipients' domain. */
  domain?: string;
  /** The provider of their last attempt. */
  provider?: string;
  /** One message's recipients. */
  email_id?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Sending IPs

/** The pools open to the organisation, by name: 100 to a page unless `limit` says otherwise. */
export interface IpPoolList {
  object: "list";
  has_more: boolean;
  data: IpPool[];
}

// ---------------------------------------------------------------------------------------------------------------
// Teams: organisations, members and invitations, the audit log

/** The audit log, newest first: `after` continues towards older events, `before` back towards newer ones. */
export interface ListAuditLogOptions extends PaginationOptions {
  /** Only this action, e.g. `member.invited`. */
  action?: string;
  /** Only what this actor did: `actor.id` of an event (a user's or key's id). */
  actor_id?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Templates

/** A variable as a create or update body declares it. */
export type TemplateVariableInput = CreateTemplateOptionsVariable;

/** The create body, where `react` may stand in for `html`. */
export interface CreateTemplateOptions extends Omit<CreateTemplateBody, "html"> {
  /** Handlebars (or MJML + Handlebars); required unless `react` is given. */
  html?: string;
  /** Rendered to `html` (and `text`, when absent) with `@react-email/render`. */
  react?: ReactElementLike;
}

export interface UpdateTemplateOptions extends UpdateTemplateBody {
  /** Rendered to `html` (and `text`, when absent) with `@react-email/render`. */
  react?: ReactElementLike;
}
