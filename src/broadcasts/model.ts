/**
 * Broadcasts' wire (docs/broadcasts.md), in Resend's shapes as its Node SDK 6.x reads them: the broadcast, its list
 * entry, its recipients by event type and its clicked links, and the bodies create, update and send take. Written
 * once, as the schemas that check the requests, type the service's answers and document the routes.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { BROADCAST_STATUSES } from "../db/schema/broadcasts.ts";
import { RECIPIENT_STATUSES } from "../deliveries/model.ts";
import { named, Nullable, OneOf } from "../lib/wire.ts";

/** Resend's event types for `GET /broadcasts/:id/recipients?type=` (docs/broadcasts.md#operations). */
export const RECIPIENT_EVENT_TYPES = [
  "sent",
  "delivered",
  "opened",
  "clicked",
  "bounced",
  "complained",
  "unsubscribed",
  "suppressed",
] as const;
export type RecipientEventType = (typeof RECIPIENT_EVENT_TYPES)[number];
export const BOUNCE_TYPES = ["permanent", "transient", "undetermined"] as const;

const Time = t.String({ format: "date-time" });
const ReplyTo = t.Union([t.String(), t.Array(t.String(), { maxItems: 50 })]);
const TemplateRef = t.Object(
  {
    id: t.String({ description: "The template's id or alias (its published version is sent)" }),
    variables: t.Optional(t.Record(t.String(), t.Unknown(), { description: "The template's own variables" })),
  },
  { additionalProperties: false, description: "A saved template in place of html and text, rendered once at send" },
);

export const BroadcastCountsSchema = named(
  "BroadcastCounts",
  t.Object(
    {
      contacts_reached: t.Integer({ description: "Contacts of the segment the fan-out has reached so far" }),
      messages: t.Integer({ description: "Messages made: one per eligible contact" }),
      skipped: t.Integer({ description: "Contacts reached who were unsubscribed or suppressed: no message" }),
      by_status: t.Record(OneOf(RECIPIENT_STATUSES), t.Integer(), { description: "Recipients per status" }),
    },
    { description: "Mailroom's figures (docs/broadcasts.md#counts)" },
  ),
);

export const BroadcastSchema = named(
  "Broadcast",
  t.Object({
    object: t.Literal("broadcast"),
    id: t.String(),
    name: t.String(),
    segment_id: Nullable(t.String()),
    audience_id: Nullable(t.String({ description: "The same as segment_id (Resend's older name)" })),
    from: Nullable(t.String()),
    subject: Nullable(t.String()),
    reply_to: Nullable(t.Array(t.String())),
    preview_text: Nullable(t.String()),
    status: OneOf(BROADCAST_STATUSES, {
      description: "draft → queued (scheduled, or being fanned out) → sent; canceled: stopped while sending",
    }),
    created_at: Time,
    scheduled_at: Nullable(Time),
    sent_at: Nullable(Time),
    topic_id: Nullable(t.String()),
    html: Nullable(t.String()),
    text: Nullable(t.String()),
    template: Nullable(TemplateRef),
    counts: BroadcastCountsSchema,
  }),
);
export type BroadcastView = Static<typeof BroadcastSchema>;

export const BroadcastSummarySchema = named(
  "BroadcastSummary",
  t.Object({
    id: t.String(),
    name: t.String(),
    audience_id: Nullable(t.String()),
    segment_id: Nullable(t.String()),
    status: OneOf(BROADCAST_STATUSES),
    created_at: Time,
    scheduled_at: Nullable(Time),
    sent_at: Nullable(Time),
  }),
);
export type BroadcastSummary = Static<typeof BroadcastSummarySchema>;

export const BroadcastRecipientSchema = named(
  "BroadcastRecipient",
  t.Object({
    id: t.String({ description: "The message's id (GET /emails/{id})" }),
    contact_id: Nullable(t.String()),
    email: t.String(),
    count: t.Optional(t.Integer({ description: "opened, clicked: how many times" })),
    clicked_links: t.Optional(t.Array(t.Object({ url: t.String(), clicks: t.Integer() }))),
    bounce_type: t.Optional(OneOf(BOUNCE_TYPES)),
  }),
);
export type BroadcastRecipient = Static<typeof BroadcastRecipientSchema>;

export const BroadcastClickedLinkSchema = named(
  "BroadcastClickedLink",
  t.Object({
    id: t.String({ description: "A cursor for paging, not an entity" }),
    url: t.String(),
    clicks: t.Integer(),
    unique_clicks: t.Integer(),
  }),
);
export type BroadcastClickedLink = Static<typeof BroadcastClickedLinkSchema>;

const content = {
  name: t.Optional(t.String({ maxLength: 255 })),
  segment_id: t.Optional(t.String({ description: "The segment whose contacts receive it" })),
  audience_id: t.Optional(t.String({ description: "segment_id's older name" })),
  from: t.Optional(t.String({ maxLength: 1000 })),
  subject: t.Optional(t.String({ maxLength: 998 })),
  reply_to: t.Optional(ReplyTo),
  preview_text: t.Optional(Nullable(t.String({ maxLength: 1000 }))),
  html: t.Optional(t.String({ description: "May use {{{FIRST_NAME|fallback}}} and the other variables" })),
  text: t.Optional(t.String()),
  template: t.Optional(TemplateRef),
  topic_id: t.Optional(Nullable(t.String({ description: "Only the topic's subscribers receive it" }))),
};

export const CreateBroadcastSchema = named(
  "CreateBroadcastOptions",
  t.Object(
    {
      ...content,
      send: t.Optional(t.Boolean({ description: "Send now (or at scheduled_at) instead of keeping a draft" })),
      scheduled_at: t.Optional(t.String({ description: "ISO 8601, or e.g. `in 2 hours`; with send: true" })),
    },
    { additionalProperties: false, description: "A broadcast to a segment" },
  ),
);
export type CreateBroadcastBody = Static<typeof CreateBroadcastSchema>;

export const UpdateBroadcastSchema = named(
  "UpdateBroadcastOptions",
  t.Object(content, { additionalProperties: false, description: "Changes to a draft" }),
);
export type UpdateBroadcastBody = Static<typeof UpdateBroadcastSchema>;

export const SendBroadcastSchema = named(
  "SendBroadcastOptions",
  t.Object(
    { scheduled_at: t.Optional(t.String({ description: "ISO 8601, or e.g. `in 2 hours`; absent: now" })) },
    { additionalProperties: false },
  ),
);
