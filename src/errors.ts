/**
 * The one error vocabulary of Mailroom.
 *
 * Domain code throws `AppError` with a stable snake_case name; adapters (HTTP, SMTP) turn it into a status or a
 * reply through `ERROR_TABLE` and nothing else. Invariant: every name has an HTTP status and an SMTP reply, and an
 * error that is not an `AppError` is reported as `internal_error` — temporary over SMTP, never a bounce.
 */

export type ErrorName =
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

export interface SmtpReply {
  code: number;
  /** RFC 3463 enhanced status code. */
  enhanced: string;
}

export interface ErrorEntry {
  status: number;
  /** HTTP reason phrase, used as the `error` field of the body. */
  reason: string;
  /** Reply when the error happens at a command other than DATA. */
  smtp: SmtpReply;
  /** Reply when the error concerns the message content (after DATA), where it differs. */
  smtpData?: SmtpReply;
  /** Replies for a named condition of this error, where SMTP has a more precise code than the name's. */
  smtpFor?: Partial<Record<ErrorCondition, SmtpReply>>;
}

/** Conditions that keep their error's name and HTTP status but have their own SMTP reply. */
export type ErrorCondition = "storage_full" | "unknown_recipient" | "storage_quota" | "routing_loop";

/**
 * Names that cannot arise in an SMTP session (look-ups, idempotency of HTTP requests) still map to a reply so a
 * future caller can never turn them into a permanent failure by accident: they answer temporary 451.
 */
const NOT_ON_SMTP: SmtpReply = { code: 451, enhanced: "4.3.0" };

export const ERROR_TABLE: Record<ErrorName, ErrorEntry> = {
  validation_error: {
    status: 400,
    reason: "Bad Request",
    smtp: { code: 501, enhanced: "5.5.4" },
    smtpData: { code: 554, enhanced: "5.6.0" },
  },
  // Over SMTP the key is a header of the message, so a bad one is a content error, refused for good.
  invalid_idempotency_key: {
    status: 400,
    reason: "Bad Request",
    smtp: NOT_ON_SMTP,
    smtpData: { code: 554, enhanced: "5.6.0" },
  },
  unauthorized: { status: 401, reason: "Unauthorized", smtp: { code: 535, enhanced: "5.7.8" } },
  // A message going round between forwarders is refused as RFC 3463 X.4.6 "routing loop detected" (docs/inbound.md).
  insufficient_scope: {
    status: 403,
    reason: "Forbidden",
    smtp: { code: 550, enhanced: "5.7.1" },
    smtpFor: { routing_loop: { code: 554, enhanced: "5.4.6" } },
  },
  // The inbound MX refuses a recipient it has no mailbox for (RFC 3463 §3.2: 5.1.1 bad destination mailbox).
  not_found: {
    status: 404,
    reason: "Not Found",
    smtp: NOT_ON_SMTP,
    smtpFor: { unknown_recipient: { code: 550, enhanced: "5.1.1" } },
  },
  method_not_allowed: { status: 405, reason: "Method Not Allowed", smtp: NOT_ON_SMTP },
  invalid_idempotent_request: { status: 409, reason: "Conflict", smtp: { code: 550, enhanced: "5.7.1" } },
  concurrent_idempotent_requests: { status: 409, reason: "Conflict", smtp: { code: 451, enhanced: "4.7.1" } },
  conflict: { status: 409, reason: "Conflict", smtp: NOT_ON_SMTP },
  payload_too_large: { status: 413, reason: "Payload Too Large", smtp: { code: 552, enhanced: "5.3.4" } },
  domain_not_verified: { status: 422, reason: "Unprocessable Entity", smtp: { code: 550, enhanced: "5.7.1" } },
  // An organisation over its quota of stored received mail: RFC 3463 X.2.2 "mailbox full" (an administrative
  // quota), with RFC 5321's 452 at RCPT; temporary, so the sender retries once retention or the operator makes room.
  rate_limit_exceeded: {
    status: 429,
    reason: "Too Many Requests",
    smtp: { code: 451, enhanced: "4.7.1" },
    smtpFor: { storage_quota: { code: 452, enhanced: "4.2.2" } },
  },
  // A quota of messages per UTC day (docs/operations.md): RFC 5321's 452 with RFC 3463 X.5.3 "too many recipients", as
  // the contract's table says; temporary, so a relaying client tries again the next day.
  daily_quota_exceeded: { status: 429, reason: "Too Many Requests", smtp: { code: 452, enhanced: "4.5.3" } },
  // Content removed by retention: only the HTTP API reads stored content.
  gone: { status: 410, reason: "Gone", smtp: NOT_ON_SMTP },
  internal_error: { status: 500, reason: "Internal Server Error", smtp: { code: 451, enhanced: "4.3.0" } },
  // RFC 3463 §3.4: 4.3.1 "mail system full" with RFC 5321's 452 "insufficient system storage".
  service_unavailable: {
    status: 503,
    reason: "Service Unavailable",
    smtp: { code: 421, enhanced: "4.3.2" },
    smtpFor: { storage_full: { code: 452, enhanced: "4.3.1" } },
  },
};

export const ERROR_NAMES = Object.keys(ERROR_TABLE) as ErrorName[];

export interface ErrorDetail {
  /** Dotted path of the offending field, e.g. `to.3` or `attachments.0.content`. */
  path: string;
  message: string;
}

export interface AppErrorOptions {
  details?: ErrorDetail[];
  /** Seconds a caller should wait (rate limits, busy store). */
  retryAfter?: number;
  /** Log-facing reason; never shown to the client. */
  cause?: unknown;
  condition?: ErrorCondition;
}

export class AppError extends Error {
  readonly details?: ErrorDetail[];
  readonly retryAfter?: number;
  readonly condition?: ErrorCondition;

  constructor(
    override readonly name: ErrorName,
    /** Client-facing text: safe to show, never internal. */
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, { cause: options.cause });
    this.details = options.details;
    this.retryAfter = options.retryAfter;
    this.condition = options.condition;
  }

  get status(): number {
    return ERROR_TABLE[this.name].status;
  }

  /** Temporary errors are worth retrying unchanged; derived from the SMTP class so the two never disagree. */
  get temporary(): boolean {
    return ERROR_TABLE[this.name].smtp.code < 500;
  }
}

/** The SMTP reply of an error at a stage of the transaction: its condition's, else its content reply after DATA. */
export function smtpReplyOf(error: AppError, stage: "command" | "data"): SmtpReply {
  const entry = ERROR_TABLE[error.name];
  return (error.condition && entry.smtpFor?.[error.condition]) || (stage === "data" && entry.smtpData) || entry.smtp;
}

/** Every failure becomes an AppError; unknown ones keep their cause for the log and say nothing to the client. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  return new AppError("internal_error", "An internal error occurred.", { cause: error });
}

export function validationError(details: ErrorDetail[], message?: string): AppError {
  const first = details[0];
  return new AppError(
    "validation_error",
    message ?? (first ? `${first.path ? `${first.path}: ` : ""}${first.message}` : "Invalid request."),
    { details },
  );
}
