/**
 * HTTP routes of the deliveries — each route one contract (http/contract.ts): the queue an operator sees and steers
 * and the sending pauses (docs/operations.md#the-delivery-queue), and the SNS endpoint Amazon SES's events are
 * published to (docs/delivery.md#amazon-ses-events) — without an API key: the message's signature and topic are the
 * authority (deliveries/provider-events.ts).
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Config } from "../config/options.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import { ListOf, PageQuery } from "../lib/wire.ts";
import type { SendingPauses } from "./pauses.ts";
import type { SesEventIntake } from "./provider-events.ts";
import type { DeliveryQueue, QueueAction } from "./queue.ts";
import { BulkActionSchema, filterOf, PauseSchema, ResumeSchema } from "./validate.ts";
import {
  BulkResultSchema,
  DeliverySchema,
  QueueStatusSchema,
  QueueSummarySchema,
  SendingResumedSchema,
  SendingStateSchema,
  SnsMessageSchema,
  SnsReceiptSchema,
} from "./wire.ts";

const WHAT: Record<QueueAction, string> = {
  retry: "Retry now: a deferred delivery is due at once (its attempts so far still count)",
  cancel: "Cancel: a queued, deferred or held delivery is stopped",
  release: "Release: a held delivery goes now, whatever pause held it",
};
const ACTIONS = Object.keys(WHAT) as QueueAction[];

const tags = ["Queue"];
const Uuid = (description: string) =>
  t.String({
    pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
    format: "uuid",
    description,
  });

export function queueRoutes(deps: AuthDeps & { queue: DeliveryQueue; pauses: SendingPauses }) {
  const { queue, pauses } = deps;
  /** One action's routes: on one delivery, and in bulk by filter. */
  const actionRoutes = (action: QueueAction) => [
    route(
      {
        method: "POST",
        path: `/v1/deliveries/:id/${action}`,
        summary: `${WHAT[action]}; 409 while it is being attempted`,
        tags,
        params: t.Object({ id: t.String({ description: "The delivery's id" }) }),
        responses: { 200: DeliverySchema },
        errors: ["conflict"],
      },
      ({ actor, params }) => queue.act(actor, action, params.id),
    ),
    route(
      {
        method: "POST",
        path: `/v1/deliveries/${action}`,
        summary: `${WHAT[action]} — every delivery of the filter (at least one of status, domain, provider, email_id)`,
        tags,
        body: BulkActionSchema,
        responses: { 200: BulkResultSchema },
      },
      ({ actor, body }) => queue.actOnAll(actor, action, filterOf(body)),
    ),
  ];
  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    route(
      {
        method: "GET",
        path: "/v1/deliveries",
        summary:
          "The recipients waiting (queued, deferred, held, sending), oldest first, with attempts, next attempt and last reply (filters: status, domain, provider, email_id)",
        tags,
        query: t.Object({
          ...PageQuery,
          status: t.Optional(QueueStatusSchema),
          domain: t.Optional(t.String({ description: "The recipients' domain" })),
          provider: t.Optional(t.String({ description: "The provider of their last attempt" })),
          email_id: t.Optional(Uuid("the id of one message (its recipients only)")),
        }),
        responses: { 200: ListOf(DeliverySchema) },
      },
      ({ actor, query }) =>
        queue.list(actor, {
          limit: query.limit ?? 20,
          after: query.after,
          before: query.before,
          status: query.status,
          domain: query.domain,
          provider: query.provider,
          emailId: query.email_id?.toLowerCase(),
        }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/deliveries/summary",
        summary: "What waits: by status, by destination domain (top 20), by provider, and the oldest",
        tags,
        responses: { 200: QueueSummarySchema },
      },
      ({ actor }) => queue.summary(actor),
    ),
    ...ACTIONS.flatMap(actionRoutes),
    route(
      {
        method: "GET",
        path: "/v1/sending",
        summary: "The pauses that apply: the organisation's, its sending domains', providers'",
        tags,
        responses: { 200: SendingStateSchema },
      },
      ({ actor }) => pauses.state(actor),
    ),
    route(
      {
        method: "POST",
        path: "/v1/sending/pause",
        summary:
          "Pause sending for the organisation, a sending domain or a provider: mail is still accepted and waits as held",
        tags,
        body: PauseSchema,
        responses: { 200: SendingStateSchema },
      },
      ({ actor, body }) => pauses.pause(actor, body),
    ),
    route(
      {
        method: "POST",
        path: "/v1/sending/resume",
        summary: "Resume sending: what the pause held goes out, oldest first; answers how many were released",
        tags,
        body: ResumeSchema,
        responses: { 200: SendingResumedSchema },
      },
      ({ actor, body }) => pauses.resume(actor, body),
    ),
  ]);
}

export function deliveryRoutes(deps: { config: Config; sesEvents: SesEventIntake }) {
  return mount(new Elysia(), bodyLimits(deps.config), [
    route(
      {
        method: "POST",
        path: "/v1/providers/ses/sns",
        summary:
          "Amazon SNS endpoint for SES events: subscription confirmations and Delivery, Bounce, Complaint, DeliveryDelay, Reject notifications (signature verified)",
        description:
          "No API key: the message's signature, by a certificate from the SNS host of its topic's region, and its topic, one of [sns] topics, are the authority. SNS posts the JSON with Content-Type text/plain; any Content-Type is read.",
        tags: ["Providers"],
        open: true,
        body: SnsMessageSchema,
        bodyMediaType: "text/plain",
        responses: { 200: SnsReceiptSchema },
        errors: ["unauthorized", "insufficient_scope"],
      },
      ({ body }) => deps.sesEvents.receive(body),
    ),
  ]);
}
