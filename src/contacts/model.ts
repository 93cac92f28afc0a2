/**
 * The audience's wire (docs/contacts.md), in Resend's shapes and `object` names: contacts, contact properties,
 * segments, topics, a contact's topics and imports — written once, as the schemas that type the services, check
 * what comes in, and document the routes.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { IMPORT_STATUSES, PROPERTY_TYPES, TOPIC_SUBSCRIPTIONS, TOPIC_VISIBILITIES } from "../db/schema/index.ts";
import { named, Nullable, OneOf } from "../lib/wire.ts";

const Id = t.String({ format: "uuid" });
const Time = t.String({ format: "date-time" });
const PropertyScalar = t.Union([t.String(), t.Number()]);

export const ContactPropertyValueSchema = named(
  "ContactPropertyValue",
  t.Object(
    { type: OneOf(PROPERTY_TYPES), value: PropertyScalar },
    { description: "A contact's value of one property, with the property's type" },
  ),
);

export const ContactSchema = named(
  "Contact",
  t.Object(
    {
      object: t.Literal("contact"),
      id: Id,
      email: t.String(),
      first_name: Nullable(t.String()),
      last_name: Nullable(t.String()),
      unsubscribed: t.Boolean({ description: "Out of every broadcast and every topic" }),
      created_at: Time,
      updated_at: Time,
      properties: t.Optional(
        t.Record(t.String(), ContactPropertyValueSchema, {
          description: "Each property's value, or its fallback where the contact has none (get only)",
        }),
      ),
    },
    { description: "A contact of the organisation: one per address" },
  ),
);
export type ContactView = Static<typeof ContactSchema>;

export const ContactPropertySchema = named(
  "ContactProperty",
  t.Object(
    {
      object: t.Literal("contact_property"),
      id: Id,
      key: t.String(),
      type: OneOf(PROPERTY_TYPES),
      fallback_value: Nullable(PropertyScalar),
      created_at: Time,
    },
    { description: "A property contacts may carry; a value must match its type" },
  ),
);
export type ContactPropertyView = Static<typeof ContactPropertySchema>;

export const SegmentSchema = named(
  "Segment",
  t.Object(
    { object: t.Literal("segment"), id: Id, name: t.String(), created_at: Time },
    { description: "A named group of contacts (Resend's audience)" },
  ),
);
export type SegmentView = Static<typeof SegmentSchema>;

export const SegmentCountSchema = named(
  "SegmentCount",
  t.Object(
    {
      object: t.Literal("segment_count"),
      segment_id: Id,
      contacts: t.Integer({ description: "Contacts in the segment now, unsubscribed and suppressed ones included" }),
    },
    { description: "Mailroom's extra: how many contacts a segment holds (docs/contacts.md#tables)" },
  ),
);
export type SegmentCountView = Static<typeof SegmentCountSchema>;

export const TopicSchema = named(
  "Topic",
  t.Object(
    {
      object: t.Literal("topic"),
      id: Id,
      name: t.String(),
      description: Nullable(t.String()),
      default_subscription: OneOf(TOPIC_SUBSCRIPTIONS, {
        description: "What a contact who never chose receives: opt_in receives, opt_out does not",
      }),
      visibility: OneOf(TOPIC_VISIBILITIES, { description: "public topics are shown on the preference page" }),
      created_at: Time,
      updated_at: Time,
    },
    { description: "A kind of mail a contact may choose to receive or not" },
  ),
);
export type TopicView = Static<typeof TopicSchema>;

export const ContactTopicSchema = named(
  "ContactTopic",
  t.Object(
    {
      id: Id,
      name: t.String(),
      description: Nullable(t.String()),
      subscription: OneOf(TOPIC_SUBSCRIPTIONS, { description: "The contact's effective choice" }),
    },
    { description: "A topic with one contact's effective subscription" },
  ),
);
export type ContactTopicView = Static<typeof ContactTopicSchema>;

export const ImportCountsSchema = t.Object({
  total: t.Integer(),
  created: t.Integer(),
  updated: t.Integer(),
  skipped: t.Integer(),
  failed: t.Integer(),
});

export const ContactImportSchema = named(
  "ContactImport",
  t.Object(
    {
      object: t.Literal("contact_import"),
      id: Id,
      status: OneOf(IMPORT_STATUSES),
      created_at: Time,
      completed_at: Nullable(Time),
      counts: ImportCountsSchema,
      errors: t.Array(t.Object({ line: t.Integer(), message: t.String() }), {
        description: "The first lines that failed, each with its line number in the file",
      }),
      error: Nullable(t.String(), { description: "Why the whole import failed (status failed)" }),
    },
    { description: "A CSV import of contacts and its live counts" },
  ),
);
export type ContactImportView = Static<typeof ContactImportSchema>;
