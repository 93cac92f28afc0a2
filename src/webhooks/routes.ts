/**
 * HTTP routes for webhooks on Resend's paths (DESIGN §7): endpoints, signing-secret rotation, test events, the
 * events sent to an endpoint with their attempts, and replays.
 */
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readBody } from "../http/body.ts";
import { jsonContent } from "../http/docs.ts";
import { parseEnum, parsePage } from "../http/query.ts";
import { isUuid } from "../lib/ids.ts";
import { WEBHOOK_EVENT_STATUSES } from "./model.ts";
import type { WebhookService } from "./service.ts";
import { CreateWebhookSchema, TestWebhookSchema, UpdateWebhookSchema } from "./validate.ts";

const webhookId = (id: string) => {
  if (!isUuid(id)) throw new AppError("not_found", "Webhook not found.");
  return id.toLowerCase();
};
const eventId = (id: string) => {
  if (!isUuid(id)) throw new AppError("not_found", "Webhook event not found.");
  return id.toLowerCase();
};

export function webhookRoutes(deps: AuthDeps & { webhooks: WebhookService }) {
  const { webhooks, config } = deps;
  const limits = bodyLimits(config);
  const tags = ["Webhooks"];
  return new Elysia()
    .use(authenticated(deps))
    .post(
      "/v1/webhooks",
      async ({ request, actor }) => {
        return webhooks.create(actor, await readBody(request, limits, CreateWebhookSchema));
      },
      {
        parse: "none",
        detail: {
          summary: "Register an endpoint (the signing secret is shown in this answer only)",
          tags,
          requestBody: jsonContent(CreateWebhookSchema),
        },
      },
    )
    .get("/v1/webhooks", ({ actor, query }) => webhooks.list(actor, parsePage(query)), {
      detail: { summary: "List endpoints, newest first", tags },
    })
    .get("/v1/webhooks/:id", ({ actor, params }) => webhooks.get(actor, webhookId(params.id)), {
      detail: { summary: "Get an endpoint", tags },
    })
    .patch(
      "/v1/webhooks/:id",
      async ({ request, actor, params }) => {
        return webhooks.update(actor, webhookId(params.id), await readBody(request, limits, UpdateWebhookSchema));
      },
      {
        parse: "none",
        detail: {
          summary: "Change an endpoint's URL, events or description; enable or disable it",
          tags,
          requestBody: jsonContent(UpdateWebhookSchema),
        },
      },
    )
    .delete("/v1/webhooks/:id", ({ actor, params }) => webhooks.remove(actor, webhookId(params.id)), {
      detail: { summary: "Delete an endpoint and its delivery log", tags },
    })
    .post(
      "/v1/webhooks/:id/signing-secret/rotate",
      ({ actor, params }) => webhooks.rotateSecret(actor, webhookId(params.id)),
      {
        detail: { summary: "Rotate the signing secret (the old one keeps signing for 24 h)", tags },
      },
    )
    .post(
      "/v1/webhooks/:id/test",
      async ({ request, actor, params }) => {
        const body = await readBody(request, limits, TestWebhookSchema, { optional: true });
        return webhooks.sendTest(actor, webhookId(params.id), body.type);
      },
      {
        parse: "none",
        detail: { summary: "Send a sample event to the endpoint", tags, requestBody: jsonContent(TestWebhookSchema) },
      },
    )
    .get(
      "/v1/webhooks/:id/events",
      ({ actor, params, query }) =>
        webhooks.listDeliveries(actor, webhookId(params.id), {
          ...parsePage(query),
          status: parseEnum("status", query.status, WEBHOOK_EVENT_STATUSES),
        }),
      { detail: { summary: "List the events sent to the endpoint, newest first", tags } },
    )
    .get(
      "/v1/webhooks/:id/events/:event_id",
      ({ actor, params }) => webhooks.getDelivery(actor, webhookId(params.id), eventId(params.event_id)),
      {
        detail: {
          summary: "An event with its payload and every attempt (status, first 1 KB of the answer, duration)",
          tags,
        },
      },
    )
    .get(
      "/v1/webhooks/:id/events/:event_id/attempts",
      ({ actor, params, query }) =>
        webhooks.listAttempts(actor, webhookId(params.id), eventId(params.event_id), parsePage(query)),
      { detail: { summary: "The attempts of an event, newest first", tags } },
    )
    .post(
      "/v1/webhooks/:id/events/:event_id/replay",
      ({ actor, params }) => webhooks.replay(actor, webhookId(params.id), eventId(params.event_id)),
      {
        detail: { summary: "Send an event again (same webhook-id)", tags },
      },
    )
    .post("/v1/webhooks/:id/replay", ({ actor, params }) => webhooks.replayFailed(actor, webhookId(params.id)), {
      detail: { summary: "Send every failed event of the endpoint again", tags },
    });
}
