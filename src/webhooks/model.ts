/**
 * The webhooks' wire (docs/events-and-webhooks.md): an endpoint, an event sent to it with its attempts, the payload every
 * receiver gets, the replay answer — written once, as the schemas that type the service, document the routes and
 * name the generated client types (the names are the Node client's).
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { EVENT_TYPES } from "../events/model.ts";
import { named, Nullable, OneOf } from "../lib/wire.ts";
import type { CreateWebhookSchema, UpdateWebhookSchema } from "./validate.ts";

/** How a delivery is stored. */
export type DeliveryStatus = "pending" | "succeeded" | "failed";
/** Resend's status of a webhook event: pending (not tried yet), attempting (retrying), success, failed (gave up). */
export const WEBHOOK_EVENT_STATUSES = ["pending", "attempting", "success", "failed"] as const;
export type WebhookEventStatus = (typeof WEBHOOK_EVENT_STATUSES)[number];

const Time = t.String({ format: "date-time" });

export const WebhookSchema = named(
  "WebhookEndpoint",
  t.Object({
    object: t.Literal("webhook"),
    id: t.String({ format: "uuid" }),
    endpoint: t.String({ description: "The https URL events are posted to" }),
    events: t.Array(OneOf(EVENT_TYPES), { description: "The event types it receives" }),
    description: Nullable(t.String()),
    status: OneOf(["enabled", "disabled"]),
    disabled_reason: Nullable(t.String(), {
      description: "Why it was disabled (410 Gone, repeated failures, or by the user)",
    }),
    disabled_at: Nullable(Time),
    created_at: Time,
    updated_at: Time,
  }),
);
export type WebhookView = Static<typeof WebhookSchema>;

/** The create and rotate answers: the only ones that carry the secret. */
export const WebhookWithSecretSchema = named(
  "WebhookWithSecret",
  t.Intersect([
    WebhookSchema,
    t.Object({ signing_secret: t.String({ description: "`whsec_<base64 key>`: what a verifier takes" }) }),
  ]),
);
export type WebhookWithSecret = Static<typeof WebhookWithSecretSchema>;

/** An attempt in Resend's shape (`http_status_code`, `response`, `sent_at`) with Mailroom's error and duration. */
export const AttemptSchema = named(
  "WebhookAttempt",
  t.Object({
    object: t.Literal("webhook_attempt"),
    id: t.String({ format: "uuid" }),
    sent_at: Time,
    http_status_code: Nullable(t.Integer(), {
      description: "Null when no HTTP answer came (timeout, refused connection, refused address)",
    }),
    response: Nullable(t.String(), { description: "The first 1 KB of the endpoint's answer" }),
    error: Nullable(t.String()),
    duration_ms: t.Integer(),
  }),
);
export type AttemptView = Static<typeof AttemptSchema>;

/** One event sent (or to be sent) to one endpoint: Resend's webhook event, with Mailroom's delivery details. */
export const DeliverySchema = named(
  "WebhookDeliveryEvent",
  t.Object({
    object: t.Literal("webhook_event"),
    id: t.String({ format: "uuid", description: "The webhook-id header of every attempt of this event" }),
    webhook_id: t.String({ format: "uuid" }),
    event_id: Nullable(t.String(), { description: "The event it carries; null for a test event" }),
    type: t.String(),
    status: OneOf(WEBHOOK_EVENT_STATUSES),
    attempt_count: t.Integer(),
    next_attempt_at: Nullable(Time),
    last_attempt_at: Nullable(Time),
    last_status_code: Nullable(t.Integer()),
    last_error: Nullable(t.String()),
    created_at: Time,
  }),
);
export type DeliveryView = Static<typeof DeliverySchema>;

/** The JSON body of every webhook request. */
export const WebhookPayloadSchema = named(
  "WebhookPayload",
  t.Object({ type: t.String(), created_at: Time, data: t.Record(t.String(), t.Unknown()) }),
);
export type WebhookPayload = Static<typeof WebhookPayloadSchema>;

export const DeliveryDetailSchema = named(
  "WebhookDeliveryEventDetail",
  t.Intersect([
    DeliverySchema,
    t.Object({
      payload: WebhookPayloadSchema,
      attempts: t.Array(AttemptSchema, { description: "Every attempt, oldest first" }),
    }),
  ]),
);
export type DeliveryDetail = Static<typeof DeliveryDetailSchema>;

export const ReplayFailedSchema = named(
  "ReplayFailedResponse",
  t.Object({
    object: t.Literal("replay"),
    webhook_id: t.String({ format: "uuid" }),
    replayed: t.Integer({ description: "How many failed events are due again" }),
  }),
);

export type CreateWebhookInput = Static<typeof CreateWebhookSchema>;
export type UpdateWebhookInput = Static<typeof UpdateWebhookSchema>;
