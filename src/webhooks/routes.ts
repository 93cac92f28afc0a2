/**
 * HTTP routes for webhooks on Resend's paths (docs/events-and-webhooks.md#webhook-endpoints): endpoints,
 * signing-secret rotation, test events, the events sent to an endpoint with their attempts, and replays — each
 * route one contract (http/contract.ts).
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import { isUuid } from "../lib/ids.ts";
import { DeletedOf, ListOf, OneOf, PageQuery } from "../lib/wire.ts";
import {
  AttemptSchema,
  DeliveryDetailSchema,
  DeliverySchema,
  ReplayFailedSchema,
  WEBHOOK_EVENT_STATUSES,
  WebhookSchema,
  WebhookWithSecretSchema,
} from "./model.ts";
import type { WebhookService } from "./service.ts";
import { CreateWebhookSchema, TestWebhookSchema, UpdateWebhookSchema } from "./validate.ts";

const tags = ["Webhooks"];

// Ids are UUIDs; any other id names nothing, so it is a 404 (as an unknown UUID is), not a 400.
const webhookId = (id: string) => {
  if (!isUuid(id)) throw new AppError("not_found", "Webhook not found.");
  return id.toLowerCase();
};
const eventId = (id: string) => {
  if (!isUuid(id)) throw new AppError("not_found", "Webhook event not found.");
  return id.toLowerCase();
};

const WebhookId = t.Object({ id: t.String({ description: "The webhook's id" }) });
const EventId = t.Object({
  id: t.String({ description: "The webhook's id" }),
  event_id: t.String({ description: "The event's id (its webhook-id header)" }),
});

export function webhookRoutes(deps: AuthDeps & { webhooks: WebhookService }) {
  const { webhooks } = deps;
  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    route(
      {
        method: "POST",
        path: "/v1/webhooks",
        summary: "Register an endpoint (the signing secret is shown in this answer only)",
        tags,
        body: CreateWebhookSchema,
        responses: { 200: WebhookWithSecretSchema },
        errors: ["conflict"],
      },
      ({ actor, body }) => webhooks.create(actor, body),
    ),
    route(
      {
        method: "GET",
        path: "/v1/webhooks",
        summary: "List endpoints, newest first",
        tags,
        query: t.Object(PageQuery),
        responses: { 200: ListOf(WebhookSchema) },
      },
      ({ actor, query }) => webhooks.list(actor, { ...query, limit: query.limit ?? 20 }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/webhooks/:id",
        summary: "Get an endpoint",
        tags,
        params: WebhookId,
        responses: { 200: WebhookSchema },
      },
      ({ actor, params }) => webhooks.get(actor, webhookId(params.id)),
    ),
    route(
      {
        method: "PATCH",
        path: "/v1/webhooks/:id",
        summary: "Change an endpoint's URL, events or description; enable or disable it",
        tags,
        params: WebhookId,
        body: UpdateWebhookSchema,
        responses: { 200: WebhookSchema },
      },
      ({ actor, params, body }) => webhooks.update(actor, webhookId(params.id), body),
    ),
    route(
      {
        method: "DELETE",
        path: "/v1/webhooks/:id",
        summary: "Delete an endpoint and its delivery log",
        tags,
        params: WebhookId,
        responses: { 200: DeletedOf("webhook") },
      },
      ({ actor, params }) => webhooks.remove(actor, webhookId(params.id)),
    ),
    route(
      {
        method: "POST",
        path: "/v1/webhooks/:id/signing-secret/rotate",
        summary: "Rotate the signing secret (the old one keeps signing for 24 h)",
        tags,
        params: WebhookId,
        responses: { 200: WebhookWithSecretSchema },
      },
      ({ actor, params }) => webhooks.rotateSecret(actor, webhookId(params.id)),
    ),
    route(
      {
        method: "POST",
        path: "/v1/webhooks/:id/test",
        summary: "Send a sample event to the endpoint",
        tags,
        params: WebhookId,
        body: TestWebhookSchema,
        optionalBody: true,
        responses: { 200: DeliverySchema },
        errors: ["conflict"],
      },
      ({ actor, params, body }) => webhooks.sendTest(actor, webhookId(params.id), body.type),
    ),
    route(
      {
        method: "GET",
        path: "/v1/webhooks/:id/events",
        summary: "List the events sent to the endpoint, newest first",
        tags,
        params: WebhookId,
        query: t.Object({ ...PageQuery, status: t.Optional(OneOf(WEBHOOK_EVENT_STATUSES)) }),
        responses: { 200: ListOf(DeliverySchema) },
      },
      ({ actor, params, query }) =>
        webhooks.listDeliveries(actor, webhookId(params.id), { ...query, limit: query.limit ?? 20 }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/webhooks/:id/events/:event_id",
        summary: "An event with its payload and every attempt (status, first 1 KB of the answer, duration)",
        tags,
        params: EventId,
        responses: { 200: DeliveryDetailSchema },
      },
      ({ actor, params }) => webhooks.getDelivery(actor, webhookId(params.id), eventId(params.event_id)),
    ),
    route(
      {
        method: "GET",
        path: "/v1/webhooks/:id/events/:event_id/attempts",
        summary: "The attempts of an event, newest first",
        tags,
        params: EventId,
        query: t.Object(PageQuery),
        responses: { 200: ListOf(AttemptSchema) },
      },
      ({ actor, params, query }) =>
        webhooks.listAttempts(actor, webhookId(params.id), eventId(params.event_id), {
          ...query,
          limit: query.limit ?? 20,
        }),
    ),
    route(
      {
        method: "POST",
        path: "/v1/webhooks/:id/events/:event_id/replay",
        summary: "Send an event again (same webhook-id)",
        tags,
        params: EventId,
        responses: { 200: DeliverySchema },
        errors: ["conflict"],
      },
      ({ actor, params }) => webhooks.replay(actor, webhookId(params.id), eventId(params.event_id)),
    ),
    route(
      {
        method: "POST",
        path: "/v1/webhooks/:id/replay",
        summary: "Send every failed event of the endpoint again",
        tags,
        params: WebhookId,
        responses: { 200: ReplayFailedSchema },
      },
      ({ actor, params }) => webhooks.replayFailed(actor, webhookId(params.id)),
    ),
  ]);
}
