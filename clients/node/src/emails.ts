/**
 * `mailroom.emails` (send, get, list, update = reschedule, cancel, raw, attachments, receiving) and
 * `mailroom.batch`, with Resend's method names. Owns turning a send's client-side conveniences (`react`, `Date`,
 * attachment bytes) into the wire body.
 */
import { MailroomError } from "./errors.js";
import { segment, type Transport } from "./http.js";
import { withRenderedReact } from "./react.js";
import { Receiving } from "./receiving.js";
import type { EmailMetrics, GetEmailMetricsOptions } from "./operations-types.js";
import { failure, isoTime, missing } from "./results.js";
import type {
  Attachment,
  BatchRequestOptions,
  CancelEmailResponse,
  CreateBatchItem,
  CreateBatchResponse,
  CreateEmailOptions,
  CreateEmailResponse,
  Email,
  EmailAttachment,
  EmailSummary,
  GetAttachmentOptions,
  IdempotentRequestOptions,
  List,
  ListAttachmentsOptions,
  ListEmailsOptions,
  MailroomResponse,
  RequestOptions,
  UpdateEmailOptions,
  UpdateEmailResponse,
} from "./types.js";

const base64Of = (content: Uint8Array | ArrayBuffer): string =>
  Buffer.from(content instanceof ArrayBuffer ? new Uint8Array(content) : content).toString("base64");

function wireAttachment(attachment: Attachment): Record<string, unknown> {
  const { content, ...rest } = attachment;
  return content === undefined || typeof content === "string"
    ? { ...attachment }
    : { ...rest, content: base64Of(content) };
}

/** The JSON body of one message, or the error that stops it (a `react` element that cannot be rendered). */
export async function wireEmail(payload: CreateEmailOptions): Promise<Record<string, unknown> | MailroomError> {
  const rendered = await withRenderedReact(payload);
  if (rendered instanceof MailroomError) return rendered;
  const body: Record<string, unknown> = { ...rendered };
  if (payload.scheduled_at !== undefined) body.scheduled_at = isoTime(payload.scheduled_at);
  if (payload.attachments !== undefined) body.attachments = payload.attachments.map(wireAttachment);
  return body;
}

export class EmailAttachments {
  constructor(private readonly transport: Transport) {}

  /**
   * The attachments of a sent email, each with a signed `download_url`; `gone` (410) once retention removed the
   * email's content (its `content_removed_at`).
   */
  async list(
    options: ListAttachmentsOptions,
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<EmailAttachment>>> {
    const { emailId, limit, after, before } = options;
    return (
      missing(emailId, "emailId") ??
      this.transport.request({
        ...requestOptions,
        method: "GET",
        path: `/emails/${segment(emailId)}/attachments`,
        query: { limit, after, before },
      })
    );
  }

  async get(
    options: GetAttachmentOptions,
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<EmailAttachment>> {
    return (
      missing(options.emailId, "emailId") ??
      missing(options.id, "id") ??
      this.transport.request({
        ...requestOptions,
        method: "GET",
        path: `/emails/${segment(options.emailId)}/attachments/${segment(options.id)}`,
      })
    );
  }
}

export class Emails {
  readonly attachments: EmailAttachments;
  readonly receiving: Receiving;

  constructor(private readonly transport: Transport) {
    this.attachments = new EmailAttachments(transport);
    this.receiving = new Receiving(transport);
  }

  /** Sends (or schedules) one email. The answer means it is durably stored, not yet delivered. */
  async send(
    payload: CreateEmailOptions,
    options: IdempotentRequestOptions = {},
  ): Promise<MailroomResponse<CreateEmailResponse>> {
    const body = await wireEmail(payload);
    if (body instanceof MailroomError) return failure(body);
    return this.transport.request({ ...options, method: "POST", path: "/emails", body, idempotent: true });
  }

  /** Resend's other name for `send`. */
  create(
    payload: CreateEmailOptions,
    options: IdempotentRequestOptions = {},
  ): Promise<MailroomResponse<CreateEmailResponse>> {
    return this.send(payload, options);
  }

  /** The look-up record: the message, each recipient's state and its event history. */
  async get(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Email>> {
    return missing(id, "id") ?? this.transport.request({ ...options, method: "GET", path: `/emails/${segment(id)}` });
  }

  /** Newest first; filter by `status`, `to`, `from` or `tag` (`name` or `name:value`). */
  async list(
    options: ListEmailsOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<EmailSummary>>> {
    const { limit, after, before, status, to, from, tag } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: "/emails",
      query: { limit, after, before, status, to, from, tag },
    });
  }

  /** Reschedules a scheduled email. */
  async update(
    payload: UpdateEmailOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<UpdateEmailResponse>> {
    return (
      missing(payload.id, "id") ??
      this.transport.request({
        ...options,
        method: "PATCH",
        path: `/emails/${segment(payload.id)}`,
        body: { scheduled_at: isoTime(payload.scheduled_at) },
      })
    );
  }

  /**
   * Cancels what of an email still waits: a scheduled email entirely; one on its way, each recipient still queued,
   * deferred or held (not one being attempted now). `conflict` when nothing waits.
   */
  async cancel(id: string, options: RequestOptions = {}): Promise<MailroomResponse<CancelEmailResponse>> {
    return (
      missing(id, "id") ?? this.transport.request({ ...options, method: "POST", path: `/emails/${segment(id)}/cancel` })
    );
  }

  /**
   * Resend's metrics: totals over `start_date`..`end_date` and, with `dimensions: ["period"]`, one row per
   * `granularity` period; rates are fractions 0..1 (docs/logs-and-mcp.md#usage-and-metrics).
   */
  async metrics(
    options: GetEmailMetricsOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<EmailMetrics>> {
    const joined = (list: string[] | undefined) => (list && list.length > 0 ? list.join(",") : undefined);
    const { start_date, end_date, timezone, granularity } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: "/emails/metrics",
      query: {
        start_date: start_date === undefined ? undefined : isoTime(start_date),
        end_date: end_date === undefined ? undefined : isoTime(end_date),
        timezone,
        granularity,
        metrics: joined(options.metrics),
        dimensions: joined(options.dimensions),
        domain_id: joined(options.domain_id),
        email_id: joined(options.email_id),
        broadcast_id: joined(options.broadcast_id),
      },
    });
  }

  /**
   * The stored MIME message (message/rfc822) as text; `gone` (410) once retention removed it (the record from
   * `get(id)` stays, with `content_removed_at`).
   */
  async raw(id: string, options: RequestOptions = {}): Promise<MailroomResponse<string>> {
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "GET", path: `/emails/${segment(id)}/raw`, responseType: "text" })
    );
  }
}

export class Batch {
  constructor(private readonly transport: Transport) {}

  /**
   * Sends up to 100 emails in one request. `strict` (default): all or nothing. `permissive`: the valid ones are
   * sent and the answer's `errors` lists the others by index.
   */
  async send(
    items: CreateBatchItem[],
    options: BatchRequestOptions = {},
  ): Promise<MailroomResponse<CreateBatchResponse>> {
    const body: Array<Record<string, unknown>> = [];
    for (const item of items) {
      const wire = await wireEmail(item);
      if (wire instanceof MailroomError) return failure(wire);
      body.push(wire);
    }
    const { batchValidation, headers, ...rest } = options;
    return this.transport.request({
      ...rest,
      method: "POST",
      path: "/emails/batch",
      body,
      idempotent: true,
      headers: { "x-batch-validation": batchValidation ?? "strict", ...headers },
    });
  }

  /** Resend's other name for `send`. */
  create(items: CreateBatchItem[], options: BatchRequestOptions = {}): Promise<MailroomResponse<CreateBatchResponse>> {
    return this.send(items, options);
  }
}
