/** HTTP routes for webhooks (DESIGN §7): endpoints, secret rotation, test events, deliveries and replays. */
import { Elysia, t } from "elysia";
import { AppError, validationError } from "../errors.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readJsonObject } from "../http/body.ts";
import { jsonContent } from "../http/docs.ts";
import { parseCursor, parseEnum, parseLimit } from "../http/query.ts";
import { isUuid } from "../lib/ids.ts";
import type { DeliveryStatus } from "./model.ts";
import type { WebhookService } from "./service.ts";

const CreateSchema = t.Object(
  {
    endpoint: t.String({ description: "An https URL on a public address", examples: ["https://example.com/hooks/mailroom"] }),
    events: t.Array(t.String(), { description: "Event types to receive, e.g. email.delivered" }),
    description: t.Optional(t.String()),
  },
  { additionalProperties: false },
);
const UpdateSchema = t.Object(
  {
    endpoint: t.Optional(t.String()),
    events: t.Optional(t.Array(t.String())),
    description: t.Optional(t.Union([t.String(), t.Null()])),
    status: t.Optional(t.Union([t.Literal("enabled"), t.Literal("disabled")])),
  },
  { additionalProperties: false },
);
const TestSchema = t.Object({ type: t.Optional(t.String({ description: "Event type of the sample (default email.sent)" })) }, { additionalProperties: false });

const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;


const webhookId = (id: string) => {
  if (!isUuid(id)) throw new AppError("not_found", "Webhook not found.");
  return id.toLowerCase();
};
const deliveryId = (id: string) => {
  if (!isUuid(id)) throw new AppError("not_found", "Webhook delivery not found.");
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
        const body = await readJsonObject(request, limits, { known: Object.keys(CreateSchema.properties) });
        return webhooks.create(actor, { endpoint: body.endpoint as string, events: body.events as string[], description: body.description as string | undefined });
      },
      { parse: "none", detail: { summary: "Register an endpoint (the signing secret is shown in this answer only)", tags, requestBody: jsonContent(CreateSchema) } },
    )
    .get("/v1/webhooks", ({ actor }) => webhooks.list(actor), { detail: { summary: "List endpoints", tags } })
    .get("/v1/webhooks/:id", ({ actor, params }) => webhooks.get(actor, webhookId(params.id)), { detail: { summary: "Get an endpoint", tags } })
    .patch(
      "/v1/webhooks/:id",
      async ({ request, actor, params }) => {
        const body = await readJsonObject(request, limits, { known: Object.keys(UpdateSchema.properties) });
        return webhooks.update(actor, webhookId(params.id), body as Parameters<WebhookService["update"]>[2]);
      },
      { parse: "none", detail: { summary: "Change an endpoint's URL, events or description; enable or disable it", tags, requestBody: jsonContent(UpdateSchema) } },
    )
    .delete("/v1/webhooks/:id", ({ actor, params }) => webhooks.remove(actor, webhookId(params.id)), { detail: { summary: "Delete an endpoint and its delivery log", tags } })
    .post("/v1/webhooks/:id/rotate-secret", ({ actor, params }) => webhooks.rotateSecret(actor, webhookId(params.id)), {
      detail: { summary: "Rotate the signing secret (the old one keeps signing for 24 h)", tags },
    })
    .post(
      "/v1/webhooks/:id/test",
      async ({ request, actor, params }) => {
        const body = await readJsonObject(request, limits, { known: Object.keys(TestSchema.properties), optional: true });
        if (body.type !== undefined && typeof body.type !== "string") throw validationError([{ path: "type", message: "must be an event type" }]);
        return webhooks.sendTest(actor, webhookId(params.id), body.type as string | undefined);
      },
      { parse: "none", detail: { summary: "Send a sample event to the endpoint", tags, requestBody: jsonContent(TestSchema) } },
    )
    .get(
      "/v1/webhooks/:id/deliveries",
      ({ actor, params, query }) =>
        webhooks.listDeliveries(actor, webhookId(params.id), {
          limit: parseLimit(query.limit),
          after: parseCursor("after", query.after),
          status: parseEnum("status", query.status, DELIVERY_STATUSES) as DeliveryStatus | undefined,
        }),
      { detail: { summary: "List deliveries to the endpoint, newest first", tags } },
    )
    .get("/v1/webhooks/:id/deliveries/:delivery_id", ({ actor, params }) => webhooks.getDelivery(actor, webhookId(params.id), deliveryId(params.delivery_id)), {
      detail: { summary: "A delivery with its payload and every attempt (status, first 1 KB of the answer, duration)", tags },
    })
    .post("/v1/webhooks/:id/deliveries/:delivery_id/replay", ({ actor, params }) => webhooks.replay(actor, webhookId(params.id), deliveryId(params.delivery_id)), {
      detail: { summary: "Send a delivery again (same webhook-id)", tags },
    })
    .post("/v1/webhooks/:id/replay", ({ actor, params }) => webhooks.replayFailed(actor, webhookId(params.id)), {
      detail: { summary: "Send every failed delivery of the endpoint again", tags },
    });
}
