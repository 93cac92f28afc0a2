/**
 * HTTP routes of the sending API, both path forms of the spec (DESIGN §1). Translates requests into the plain
 * inputs of the email service and back; holds no rules of its own.
 */
import { Type } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import type { Config } from "../config/schema.ts";
import { AppError, validationError } from "../errors.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readBody, readJsonBody } from "../http/body.ts";
import { downloadAccess, fileResponse } from "../http/downloads.ts";
import { idempotencyKeyParameter, jsonContent } from "../http/docs.ts";
import { withIdempotency } from "../http/idempotent.ts";
import { parseCursor, parseEnum, parseLimit, parsePage } from "../http/query.ts";
import type { Clock } from "../lib/clock.ts";
import { isUuid } from "../lib/ids.ts";
import type { Idempotency } from "../idempotency/service.ts";
import { EMAIL_STATUSES } from "./model.ts";
import type { SentAttachments } from "./attachments.ts";
import { SendEmailSchema } from "./validate.ts";
import type { EmailService } from "./service.ts";
import { STAT_COUNTS, STAT_INTERVALS, type EmailStatsService } from "./stats.ts";
import { sendFields } from "./send-fields.ts";
import type { TemplateService } from "../templates/service.ts";

export const SENT_MESSAGE = "Email sent.";
/** The answer to a send, fresh or replayed: the service's result and the message of the spec. */
const sentAnswer = (result: unknown) => ({ id: (result as { id: string }).id, message: SENT_MESSAGE });

const RescheduleSchema = Type.Object(
  { scheduled_at: Type.String({ format: "date-time" }) },
  { additionalProperties: false },
);

const StatCounts = t.Object(Object.fromEntries(STAT_COUNTS.map((name) => [name, t.Integer()])));
const statsDetail = {
  summary:
    "Email counts over time: accepted messages and recipients' outcomes per UTC hour or day, every bucket present",
  tags: ["Emails"],
  parameters: [
    {
      name: "from",
      in: "query" as const,
      required: false,
      description: "Start, ISO 8601 (default: 7 days before `to`); at most 90 days before `to`",
      schema: { type: "string" as const, format: "date-time" },
    },
    {
      name: "to",
      in: "query" as const,
      required: false,
      description: "End, exclusive, ISO 8601 (default: now)",
      schema: { type: "string" as const, format: "date-time" },
    },
    {
      name: "interval",
      in: "query" as const,
      required: false,
      description: "Bucket size (default: hour for a range up to 48 h, else day); at most 2,000 buckets",
      schema: { type: "string" as const, enum: [...STAT_INTERVALS] },
    },
  ],
  responses: {
    200: {
      description:
        "`accepted` counts messages (email.queued, or the first email.scheduled); the others count recipients' events",
      ...jsonContent(
        t.Object({
          object: t.Literal("email_stats"),
          interval: t.Union(STAT_INTERVALS.map((name) => t.Literal(name))),
          from: t.String({ format: "date-time" }),
          to: t.String({ format: "date-time" }),
          buckets: t.Array(t.Composite([t.Object({ start: t.String({ format: "date-time" }) }), StatCounts])),
          totals: StatCounts,
        }),
      ),
    },
  },
};

/** `x-batch-validation`: strict (the default, all or nothing) or permissive. */
function batchValidation(header: string | null): "strict" | "permissive" {
  const value = (header ?? "strict").trim().toLowerCase();
  if (value === "strict" || value === "permissive") return value;
  throw validationError([{ path: "x-batch-validation", message: 'must be "strict" or "permissive"' }]);
}

export function emailRoutes(
  deps: AuthDeps & {
    emails: EmailService;
    sentAttachments: SentAttachments;
    emailStats: EmailStatsService;
    templates: TemplateService;
    idempotency: Idempotency;
    clock: Clock;
    config: Config;
  },
) {
  const { emails, sentAttachments, emailStats, templates, idempotency, clock, config } = deps;
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

  const send = async ({
    request,
    actor,
    set,
  }: {
    request: Request;
    actor: Parameters<EmailService["submit"]>[1];
    set: { status?: number | string; headers: Record<string, string | number> };
  }) => {
    const body = await readJsonBody(request, limits);
    return withIdempotency(idempotency, request, actor, "emails.send", body, set, sentAnswer, async (claim) => {
      const fields = await sendFields(templates, actor, body, context());
      return emails.submit({ kind: "fields", source: "api", fields }, actor, { idempotency: claim });
    });
  };
  const sendDetail = {
    summary: "Send an email",
    tags: ["Emails"],
    parameters: [idempotencyKeyParameter],
    requestBody: jsonContent(SendEmailSchema),
    responses: {
      200: {
        description: "Accepted and durably stored",
        ...jsonContent({
          type: "object",
          properties: { id: { type: "string" }, message: { type: "string", const: SENT_MESSAGE } },
        }),
      },
    },
  };
  const lookup = ({ actor, params }: { actor: Parameters<EmailService["get"]>[0]; params: { id: string } }) =>
    emails.get(actor, requireId(params.id));
  const lookupDetail = { summary: "Look up an email", tags: ["Emails"] };

  // Before the key check: a signed download link is its own authority.
  const downloads = new Elysia().get(
    "/v1/emails/:id/attachments/:attachment_id/content",
    async ({ request, set, query, params }) =>
      fileResponse(
        await sentAttachments.content(
          await downloadAccess(deps, request, set, query),
          requireId(params.id),
          requireAttachmentId(params.attachment_id),
        ),
      ),
    { detail: { summary: "An attachment's content (API key, or the signed download_url)", tags: ["Emails"] } },
  );

  return new Elysia()
    .use(downloads)
    .use(authenticated(deps))
    .post("/v1/emails", send, { parse: "none", detail: sendDetail })
    .post("/functions/v1/send-email", send, {
      parse: "none",
      detail: { ...sendDetail, summary: "Send an email (form B)" },
    })
    .post(
      "/v1/emails/batch",
      async ({ request, actor, set }) => {
        const body = await readJsonBody(request, limits);
        const permissive = batchValidation(request.headers.get("x-batch-validation")) === "permissive";
        return withIdempotency(
          idempotency,
          request,
          actor,
          "emails.batch",
          body,
          set,
          (result) => result,
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
      {
        parse: "none",
        detail: {
          summary:
            "Send up to 100 emails at once: all or nothing, or with x-batch-validation: permissive the valid ones, answering the others' errors by index",
          tags: ["Emails"],
          parameters: [
            idempotencyKeyParameter,
            {
              name: "x-batch-validation",
              in: "header",
              required: false,
              schema: { type: "string", enum: ["strict", "permissive"], default: "strict" },
            },
          ],
          requestBody: jsonContent(t.Array(SendEmailSchema)),
        },
      },
    )
    .patch(
      "/v1/emails/:id",
      async ({ request, actor, params }) => {
        const body = await readBody(request, limits, RescheduleSchema);
        return emails.reschedule(actor, requireId(params.id), body.scheduled_at);
      },
      {
        parse: "none",
        detail: {
          summary: "Reschedule a scheduled email",
          tags: ["Emails"],
          requestBody: jsonContent(RescheduleSchema),
        },
      },
    )
    .get(
      "/v1/emails",
      ({ actor, query }) =>
        emails.list(actor, {
          limit: parseLimit(query.limit),
          after: parseCursor("after", query.after),
          before: parseCursor("before", query.before),
          status: parseEnum("status", query.status, EMAIL_STATUSES),
          to: query.to,
          from: query.from,
          tag: query.tag,
        }),
      { detail: { summary: "List emails, newest first", tags: ["Emails"] } },
    )
    .get(
      "/v1/emails/stats",
      ({ actor, query }) => emailStats.emails(actor, { from: query.from, to: query.to, interval: query.interval }),
      { detail: statsDetail },
    )
    .get("/v1/emails/:id", lookup, { detail: lookupDetail })
    .get("/functions/v1/send-email/:id", lookup, { detail: { ...lookupDetail, summary: "Look up an email (form B)" } })
    .get(
      "/v1/emails/:id/raw",
      async ({ actor, params }) =>
        new Response((await emails.raw(actor, requireId(params.id))).raw, {
          headers: { "content-type": "message/rfc822" },
        }),
      { detail: { summary: "The stored MIME message", tags: ["Emails"] } },
    )
    .get(
      "/v1/emails/:id/attachments",
      ({ actor, params, query }) => sentAttachments.list(actor, requireId(params.id), parsePage(query)),
      {
        detail: { summary: "A sent email's attachments with download links", tags: ["Emails"] },
      },
    )
    .get(
      "/v1/emails/:id/attachments/:attachment_id",
      ({ actor, params }) =>
        sentAttachments.get(actor, requireId(params.id), requireAttachmentId(params.attachment_id)),
      { detail: { summary: "One attachment of a sent email with its download link", tags: ["Emails"] } },
    )
    .post("/v1/emails/:id/cancel", ({ actor, params }) => emails.cancel(actor, requireId(params.id)), {
      detail: { summary: "Cancel a scheduled email", tags: ["Emails"] },
    });
}
