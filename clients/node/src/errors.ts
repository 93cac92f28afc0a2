/**
 * The error every failed call resolves with. Mailroom's failure body (`{error, name, message, statusCode, details}`,
 * docs/errors.md) becomes a `MailroomError`; failures that never produced such a body (the network, a timeout, an answer
 * that is not Mailroom's, a missing optional dependency) get names of their own, so callers branch on `name` alone.
 */
import type { ErrorBody } from "./generated.js";

/** The closed set of names the server answers with (its failure body's `name`, generated from the document). */
export type ApiErrorName = ErrorBody["name"];

/** Failures found on this side of the wire; `statusCode` is null for all of them but `application_error`. */
export type ClientErrorName =
  /** The connection could not be made or broke before an answer came. */
  | "network_error"
  /** No answer within the client's `timeout`. */
  | "timeout"
  /** The caller's AbortSignal fired. */
  | "aborted"
  /** An HTTP answer that is not Mailroom's (a proxy's error page, a body that is not JSON). */
  | "application_error"
  /** `react` was given but `@react-email/render` (or `react`) is not installed. */
  | "missing_dependency"
  /** Rendering the `react` element threw. */
  | "render_error"
  /** A required argument (an id, a key) was missing: nothing was sent. */
  | "missing_required_field";

/**
 * `(string & {})` keeps autocompletion of the known names while letting a newer server's name through unchanged
 * rather than turning it into something else.
 */
export type MailroomErrorName = ApiErrorName | ClientErrorName | (string & {});

/** One problem of a validation error: `path` is the field (`to`, `attachments.0.filename`, `1.to` in a batch). */
export interface ErrorDetail {
  path: string;
  message: string;
}

export interface MailroomErrorInit {
  name: MailroomErrorName;
  message: string;
  statusCode?: number | null;
  details?: ErrorDetail[];
  retryAfter?: number | null;
  error?: string | null;
  requestId?: string | null;
  cause?: unknown;
}

export class MailroomError extends Error {
  override name: MailroomErrorName;
  /** The HTTP status; null when no HTTP answer came. */
  readonly statusCode: number | null;
  /** Per-field problems of a `validation_error`; empty otherwise. */
  readonly details: ErrorDetail[];
  /**
   * Seconds to wait before trying again, from `Retry-After` (429 — for `daily_quota_exceeded`, until the next UTC
   * day — and 503 when the server says).
   */
  readonly retryAfter: number | null;
  /** The HTTP reason phrase of the failure body (`"Bad Request"`). */
  readonly error: string | null;
  /** The server's reference for an `internal_error`, to quote to its operator. */
  readonly requestId: string | null;

  constructor(init: MailroomErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = init.name;
    this.statusCode = init.statusCode ?? null;
    this.details = init.details ?? [];
    this.retryAfter = init.retryAfter ?? null;
    this.error = init.error ?? null;
    this.requestId = init.requestId ?? null;
  }

  /** The wire shape, so logging or returning the error through JSON keeps its fields (Error's own are not enumerable). */
  toJSON() {
    return {
      name: this.name,
      message: this.message,
      statusCode: this.statusCode,
      details: this.details,
      retryAfter: this.retryAfter,
      error: this.error,
      requestId: this.requestId,
    };
  }
}

/** The name a status stands for when the answer carried no Mailroom body (a proxy in front answered, say). */
const NAME_OF_STATUS: Record<number, ApiErrorName> = {
  400: "validation_error",
  401: "unauthorized",
  403: "insufficient_scope",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  410: "gone",
  413: "payload_too_large",
  422: "domain_not_verified",
  429: "rate_limit_exceeded",
  500: "internal_error",
  502: "service_unavailable",
  503: "service_unavailable",
  504: "service_unavailable",
};

/** The error for a failed HTTP answer: Mailroom's body when it is one, else a name derived from the status. */
export function errorFromAnswer(
  status: number,
  statusText: string,
  body: string,
  retryAfter: number | null,
): MailroomError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  if (
    parsed &&
    typeof parsed === "object" &&
    typeof (parsed as { name?: unknown }).name === "string" &&
    typeof (parsed as { message?: unknown }).message === "string"
  ) {
    const fields = parsed as {
      name: string;
      message: string;
      statusCode?: unknown;
      details?: unknown;
      error?: unknown;
      request_id?: unknown;
    };
    return new MailroomError({
      name: fields.name,
      message: fields.message,
      statusCode: typeof fields.statusCode === "number" ? fields.statusCode : status,
      details: Array.isArray(fields.details) ? (fields.details as ErrorDetail[]) : [],
      retryAfter,
      error: typeof fields.error === "string" ? fields.error : statusText || null,
      requestId: typeof fields.request_id === "string" ? fields.request_id : null,
    });
  }
  return new MailroomError({
    name: NAME_OF_STATUS[status] ?? "application_error",
    message: `The server answered ${status}${statusText ? ` ${statusText}` : ""} without a Mailroom error body.`,
    statusCode: status,
    retryAfter,
    error: statusText || null,
  });
}
