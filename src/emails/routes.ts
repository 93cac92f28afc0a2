/**
 * HTTP routes of the sending API, both path forms (docs/sending.md#endpoints): send, batch, list, look up,
 * reschedule, cancel, the raw message, attachments and statistics — each route one contract (http/contract.ts).
 * Translates requests into the plain inputs of the email service and back; holds no rules of its own. The send
 * bodies are checked by the funnel's own `sendFields` (shape and rules in one answer, as the SMTP relay's), so their
 * contracts document the body and leave the check to it.
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Config } from "../config/options.ts";
import { AppError, validationError } from "../errors.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import { downloadAccess, fileResponse } from "../http/downloads.ts";
import { withIdempotency } from "../http/idempotent.ts";
import type { Idempotency } from "../idempotency/service.ts";
import type { Clock } from "../lib/clock.ts";
import { isUuid } from "../lib/ids.ts";
import { ListOf, named, OneOf, PageQuery } from "../lib/wire.ts";
import type { TemplateService } from "../templates/service.ts";
import type { SentAttachments } from "./attachments.ts";
import {
  type BatchAnswer,
  CancelEmailResponseSchema,
  CreateBatchResponseSchema,
  CreateEmailResponseSchema,
  EMAIL_STATUSES,
  EmailAttachmentSchema,
  EmailSchema,
  EmailSummarySchema,
  SENT_MESSAGE,
  type SentAnswer,
  UpdateEmailResponseSchema,
} from "./model.ts";
import { sendFields } from "./send-fields.ts";
import type { EmailService } from "./service.ts";
import { EmailMetricsQuery, EmailMetricsSchema, type EmailMetricsService } from "./metrics.ts";
import { EmailStatsSchema, type EmailStatsService, STAT_INTERVALS } from "./stats.ts";
import { SendEmailSchema } from "./validate.ts";

const tags = ["Emails"];

/** The send body under the Node client's name for it. */
const CreateEmailOptionsSchema = named("CreateEmailOptions", SendEmailSchema);
const UpdateEmailOptionsSchema = named(
  "UpdateEmailOptions",
  t.Object({ scheduled_at: t.String({ format: "date-time" }) }, { additionalProperties: false }),
);

/** Ids are UUIDs: anything else names no email (404, not a 400), as before the contracts. */
const EmailId = t.Object({ id: t.String({ description: "The email's id" }) });
const AttachmentIds = t.Object({
  id: t.String({ description: "The email's id" }),
  attachment_id: t.String({ description: "The attachment's id" }),
});
const SignedLinkQuery = t.Object({
  expires: t.Optional(t.String({ description: "From a download_url: the link's expiry" })),
  signature: t.Optional(t.String({ description: "From a download_url: its signature (no API key needed then)" })),
});

const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  description:
    "Repeat a request safely for 24 h: same key and body → the original response (docs/sending.md#idempotency).",
  schema: { type: "string", maxLength: 256 },
};
const IDEMPOTENCY_ERRORS = [
  "invalid_idempotency_key",
  "invalid_idempotent_request",
  "concurrent_idempotent_requests",
] as const;
const SEND_ERRORS = [...IDEMPOTENCY_ERRORS, "domain_not_verified", "daily_quota_exceeded"] as const;

/** The answer to a send, fresh or replayed: the service's result and the message of the spec. */
const sentAnswer = (result: unknown): SentAnswer => ({ id: (result as { id: string }).id, message: SENT_MESSAGE });

/** `x-batch-validation`: strict (the default, all or nothing) or permissive. */
function batchValidation(header: string | null): "strict" | "permissive" {
  const value = (header ?? "strict").trim().toLowerCase();
  if (value === "strict" || value === "permissive") return value;
  throw validationError([{ path: "x-batch-validation", message: 'must be "strict" or "permissive"' }]);
}

/** A page as the services read it: cursors lower-cased (ids are stored so; a client may upper-case a UUID). */
const pageOf = (query: { limit?: number; after?: string; before?: string }) => ({
  limit: query.limit ?? 20,
  after: query.after?.toLowerCase(),
  before: query.before?.toLowerCase(),
});

export function emailRoutes(
  deps: AuthDeps & {
    emails: EmailService;
    sentAttachments: SentAttachments;
    emailStats: EmailStatsService;
    emailMetrics: EmailMetricsService;
    templates: TemplateService;
    idempotency: Idempotency;
    clock: Clock;
    config: Config;
  },
) {
  const { emails, sentAttachments, emailStats, emailMetrics, templates, idempotency, clock, config } = deps;
  const limits = bodyLimits(config);
  const context = () => ({ now: clock.now(), maxRecipients: config.limits.max_recipients });
  const requireId = (id: string) => {
    if (!isUuid(id)) throw new AppError("not_found", "Email not found.");
    return id.toLowerCase();
  };
  const requireAttachmentId = (id: string) => {
    if (!isUuid(id)) throw new AppError("not_found", "Attachment not found.");
    return id.toLowerCase();
  };

  const sendRoute = (path: string, summary: string) =>
    route(
      {
        method: "POST",
        path,
        summary,
        tags,
        body: CreateEmailOptionsSchema,
        checksOwnBody: true,
        headers: [IDEMPOTENCY_KEY],
        responses: { 200: CreateEmailResponseSchema },
        errors: [...SEND_ERRORS],
      },
      ({ request, actor, set, body }) =>
        withIdempotency(idempotency, request, actor, "emails.send", body, set, sentAnswer, async (claim) => {
          const fields = await sendFields(templates, actor, body, context());
          return emails.submit({ kind: "fields", source: "api", fields }, actor, { idempotency: claim });
        }),
    );
  const lookupRoute = (path: string, summary: string) =>
    route(
      { method: "GET", path, summary, tags, params: EmailId, responses: { 200: EmailSchema } },
      ({ actor, params }) => emails.get(actor, requireId(params.id)),
    );

  // Before the key check: a signed download link is its own authority.
  const downloads = mount(new Elysia(), limits, [
    route(
      {
        method: "GET",
        path: "/v1/emails/:id/attachments/:attachment_id/content",
        summary: "An attachment's content (API key, or the signed download_url)",
        tags,
        open: true,
        params: AttachmentIds,
        query: SignedLinkQuery,
        responses: {
          200: { contentType: "application/octet-stream", description: "The attachment's bytes, under its own type" },
        },
        errors: ["unauthorized", "insufficient_scope", "rate_limit_exceeded", "gone"],
      },
      async ({ request, set, query, params }) =>
        fileResponse(
          await sentAttachments.content(
            await downloadAccess(deps, request, set, query),
            requireId(params.id),
            requireAttachmentId(params.attachment_id),
          ),
        ),
    ),
  ]);

  const api = mount(new Elysia().use(authenticated(deps)), limits, [
    sendRoute("/v1/emails", "Send an email"),
    sendRoute("/functions/v1/send-email", "Send an email (form B)"),
    route(
      {
        method: "POST",
        path: "/v1/emails/batch",
        summary:
          "Send up to 100 emails at once: all or nothing, or with x-batch-validation: permissive the valid ones, answering the others' errors by index",
        tags,
        body: t.Array(CreateEmailOptionsSchema),
        checksOwnBody: true,
        headers: [
          IDEMPOTENCY_KEY,
          {
            name: "x-batch-validation",
            description: "strict (the default): all or nothing; permissive: the valid messages are sent",
            schema: { type: "string", enum: ["strict", "permissive"], default: "strict" },
          },
        ],
        responses: { 200: CreateBatchResponseSchema },
        errors: [...SEND_ERRORS],
      },
      async ({ request, actor, set, body }) => {
        const permissive = batchValidation(request.headers.get("x-batch-validation")) === "permissive";
        return withIdempotency(
          idempotency,
          request,
          actor,
          "emails.batch",
          body,
          set,
          (result) => result as BatchAnswer,
          async (claim) => {
            if (!Array.isArray(body))
              throw validationError([{ path: "", message: "the body must be a JSON array of messages" }]);
            const inputs = [];
            for (const [i, item] of body.entries()) {
              try {
                inputs.push({
                  kind: "fields" as const,
                  source: "api" as const,
                  fields: await sendFields(templates, actor, item, context()),
                });
              } catch (error) {
                if (!(error instanceof AppError)) throw error;
                if (permissive) inputs.push(error);
                else if (error.details)
                  throw validationError(
                    error.details.map((d) => ({ path: `${i}${d.path ? `.${d.path}` : ""}`, message: d.message })),
                  );
                else throw error;
              }
            }
            return emails.submitBatch(inputs, actor, { idempotency: claim, permissive });
          },
        );
      },
    ),
    route(
      {
        method: "PATCH",
        path: "/v1/emails/:id",
        summary: "Reschedule a scheduled email",
        tags,
        params: EmailId,
        body: UpdateEmailOptionsSchema,
        responses: { 200: UpdateEmailResponseSchema },
        errors: ["conflict"],
      },
      ({ actor, params, body }) => emails.reschedule(actor, requireId(params.id), body.scheduled_at),
    ),
    route(
      {
        method: "GET",
        path: "/v1/emails",
        summary: "List emails, newest first",
        tags,
        query: t.Object({
          ...PageQuery,
          status: t.Optional(OneOf(EMAIL_STATUSES)),
          to: t.Optional(t.String({ description: "A recipient's address" })),
          from: t.Optional(t.String({ description: "The sender's address" })),
          tag: t.Optional(t.String({ description: "`name` or `name:value`" })),
        }),
        responses: { 200: ListOf(EmailSummarySchema) },
      },
      ({ actor, query }) => emails.list(actor, { ...query, ...pageOf(query) }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/emails/stats",
        summary:
          "Email counts over time: accepted messages and recipients' outcomes per UTC hour or day, every bucket present",
        tags,
        query: t.Object({
          from: t.Optional(
            t.String({
              format: "date-time",
              description: "Start, ISO 8601 (default: 7 days before `to`); at most 90 days before `to`",
            }),
          ),
          to: t.Optional(t.String({ format: "date-time", description: "End, exclusive, ISO 8601 (default: now)" })),
          interval: t.Optional(
            OneOf(STAT_INTERVALS, {
              description: "Bucket size (default: hour for a range up to 48 h, else day); at most 2,000 buckets",
            }),
          ),
        }),
        responses: { 200: EmailStatsSchema },
      },
      ({ actor, query }) => emailStats.emails(actor, query),
    ),
    route(
      {
        method: "GET",
        path: "/v1/emails/metrics",
        summary: "Email metrics (Resend's): totals over a range, by period with dimensions=period; rates as fractions",
        tags,
        query: EmailMetricsQuery,
        responses: { 200: EmailMetricsSchema },
      },
      ({ actor, query }) => emailMetrics.metrics(actor, query),
    ),
    lookupRoute("/v1/emails/:id", "Look up an email"),
    lookupRoute("/functions/v1/send-email/:id", "Look up an email (form B)"),
    route(
      {
        method: "GET",
        path: "/v1/emails/:id/raw",
        summary: "The stored MIME message",
        tags,
        params: EmailId,
        responses: { 200: { contentType: "message/rfc822", description: "The message as stored (RFC 5322)" } },
        errors: ["gone"],
      },
      async ({ actor, params }) =>
        new Response((await emails.raw(actor, requireId(params.id))).raw, {
          headers: { "content-type": "message/rfc822" },
        }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/emails/:id/attachments",
        summary: "A sent email's attachments with download links",
        tags,
        params: EmailId,
        query: t.Object(PageQuery),
        responses: { 200: ListOf(EmailAttachmentSchema) },
        errors: ["gone"],
      },
      ({ actor, params, query }) => sentAttachments.list(actor, requireId(params.id), pageOf(query)),
    ),
    route(
      {
        method: "GET",
        path: "/v1/emails/:id/attachments/:attachment_id",
        summary: "One attachment of a sent email with its download link",
        tags,
        params: AttachmentIds,
        responses: { 200: EmailAttachmentSchema },
        errors: ["gone"],
      },
      ({ actor, params }) =>
        sentAttachments.get(actor, requireId(params.id), requireAttachmentId(params.attachment_id)),
    ),
    route(
      {
        method: "POST",
        path: "/v1/emails/:id/cancel",
        summary: "Cancel a scheduled email, or the recipients of one on its way still waiting",
        tags,
        params: EmailId,
        responses: { 200: CancelEmailResponseSchema },
        errors: ["conflict"],
      },
      ({ actor, params }) => emails.cancel(actor, requireId(params.id)),
    ),
  ]);

  return new Elysia().use(downloads).use(api);
}
