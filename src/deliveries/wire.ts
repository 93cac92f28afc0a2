/**
 * The deliveries area's wire: the queue's recipients and counts and a bulk action's result
 * (docs/operations.md#the-delivery-queue), the sending pauses (docs/operations.md#pauses), and the Amazon SNS
 * envelope posted to `/v1/providers/ses/sns` (docs/delivery.md#amazon-ses-events) — each written once, as the
 * schema that types the services' answers and documents the routes (and so the client types generated from it).
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { named, Nullable, OneOf } from "../lib/wire.ts";
import { LANES, RECIPIENT_STATUSES } from "./model.ts";

/** What the queue lists: the waiting statuses, and `sending` for a waiting recipient being attempted now. */
export const QUEUE_STATUSES = ["queued", "deferred", "held", "sending"] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];
export const QueueStatusSchema = named(
  "QueueStatus",
  OneOf(QUEUE_STATUSES, { description: "A waiting status, or sending while an attempt is under way" }),
);

export const PAUSE_SCOPES = ["organization", "domain", "provider", "lane"] as const;
export type PauseScope = (typeof PAUSE_SCOPES)[number];
export const PauseScopeSchema = named(
  "PauseScope",
  OneOf(PAUSE_SCOPES, {
    description:
      "What is paused: the organisation, one sending domain, one provider, or one lane (transactional, broadcast)",
  }),
);

const Time = t.String({ format: "date-time" });

/** One recipient of one message in the queue. */
export const DeliverySchema = named(
  "Delivery",
  t.Object({
    object: t.Literal("delivery"),
    id: t.String({ format: "uuid" }),
    email_id: t.String({ format: "uuid" }),
    recipient: t.String(),
    status: OneOf([...RECIPIENT_STATUSES, "sending"] as const, {
      description: "A recipient status, or sending while an attempt is under way",
    }),
    provider: Nullable(t.String(), { description: "The provider of the last attempt; null: not attempted yet" }),
    attempts: t.Integer(),
    next_attempt_at: Nullable(Time),
    last_response: Nullable(t.String(), { description: "The last remote reply (or the operator's action)" }),
    created_at: Time,
    updated_at: Time,
  }),
);
export type DeliveryView = Static<typeof DeliverySchema>;

const Counts = {
  queued: t.Integer(),
  deferred: t.Integer(),
  held: t.Integer(),
  sending: t.Integer(),
};
const OldestAt = Nullable(Time, { description: "When the oldest of them was queued" });

export const QueueSummarySchema = named(
  "QueueSummary",
  t.Object({
    object: t.Literal("queue_summary"),
    by_status: named("QueueStatusCounts", t.Object(Counts)),
    by_domain: t.Array(named("QueueDomainCounts", t.Object({ domain: t.String(), ...Counts, oldest_at: OldestAt })), {
      description: "The 20 domains with the most recipients waiting",
    }),
    by_provider: t.Array(
      named(
        "QueueProviderCounts",
        t.Object({
          provider: Nullable(t.String(), { description: "The provider of the last attempt; null: not attempted yet" }),
          ...Counts,
          oldest_at: OldestAt,
        }),
      ),
    ),
    by_lane: t.Array(named("QueueLaneCounts", t.Object({ lane: OneOf(LANES), ...Counts, oldest_at: OldestAt })), {
      description: "Each sending lane: transactional, then broadcast (docs/operations.md#sending-lanes)",
    }),
    oldest_waiting_at: Nullable(Time, { description: "When the oldest waiting recipient was queued" }),
  }),
);
export type QueueSummary = Static<typeof QueueSummarySchema>;

export const BulkResultSchema = named(
  "BulkDeliveriesResponse",
  t.Object({
    object: t.Literal("bulk"),
    matched: t.Integer({
      description: "Recipients of the filter the action applies to, those being attempted now included",
    }),
    changed: t.Integer({ description: "Those it changed" }),
  }),
);
export type BulkResult = Static<typeof BulkResultSchema>;

export const SendingPauseSchema = named(
  "SendingPause",
  t.Object({
    scope: PauseScopeSchema,
    name: Nullable(t.String(), { description: "The domain, provider or lane; null for the organisation" }),
    reason: Nullable(t.String()),
    paused_at: Time,
    paused_by: Nullable(t.String(), {
      description: "The key that paused (its id), operator for the command line, or system for a guardrail",
    }),
  }),
);
export type PauseView = Static<typeof SendingPauseSchema>;

export const SendingStateSchema = named(
  "SendingState",
  t.Object({ object: t.Literal("sending"), pauses: t.Array(SendingPauseSchema) }),
);
export type SendingState = Static<typeof SendingStateSchema>;

export const SendingResumedSchema = named(
  "SendingResumed",
  t.Object({
    object: t.Literal("sending"),
    pauses: t.Array(SendingPauseSchema),
    released: t.Integer({ description: "Held recipients that went back to the queue" }),
  }),
);

/**
 * An Amazon SNS message as SNS posts it (with `Content-Type: text/plain`), under SNS's own field names: the ones its
 * signature covers. Its signature and topic, checked by providers/sns.ts, are the endpoint's authority.
 */
export const SnsMessageSchema = named(
  "SnsMessage",
  t.Object(
    {
      Type: OneOf(["Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation"]),
      MessageId: t.String(),
      TopicArn: t.String({ description: "One of [sns] topics" }),
      Subject: t.Optional(Nullable(t.String())),
      Message: t.String({ description: "For a notification, the SES event record as JSON" }),
      Timestamp: t.String({ format: "date-time" }),
      SignatureVersion: OneOf(["1", "2"], { description: "1: SHA1withRSA, 2: SHA256withRSA" }),
      Signature: t.String(),
      SigningCertURL: t.String({ description: "https on the SNS host of the topic's region" }),
      SubscribeURL: t.Optional(t.String({ description: "Confirmations: visiting it confirms the subscription" })),
      Token: t.Optional(t.String({ description: "Confirmations" })),
      UnsubscribeURL: t.Optional(Nullable(t.String())),
    },
    { description: "SubscribeURL and Token are required of confirmations" },
  ),
);

export const SnsReceiptSchema = named(
  "SnsReceipt",
  t.Object({
    type: OneOf(["Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation"]),
    applied: t.Optional(
      t.Boolean({
        description:
          "A notification: whether it changed a delivery (false: repeated, unknown message, or an event Mailroom ignores)",
      }),
    ),
  }),
);
export type SesEventAnswer = Static<typeof SnsReceiptSchema>;
