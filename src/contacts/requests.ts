/**
 * The audience's request bodies (docs/contacts.md), as Resend's SDK sends them: each one schema that checks the
 * body and documents it (http/contract.ts).
 */
import { Type as t } from "@sinclair/typebox";
import { PROPERTY_TYPES, TOPIC_SUBSCRIPTIONS, TOPIC_VISIBILITIES } from "../db/schema/index.ts";
import { named, Nullable, OneOf } from "../lib/wire.ts";

const Name = (description: string) => t.String({ maxLength: 255, description });
const Subscription = OneOf(TOPIC_SUBSCRIPTIONS);
export const TopicChoices = t.Array(t.Object({ id: t.String(), subscription: Subscription }), {
  maxItems: 100,
  description: "Topic choices, each `{id, subscription}`",
});

export const CreateContactSchema = named(
  "CreateContactOptions",
  t.Object(
    {
      email: t.String({ maxLength: 320 }),
      first_name: t.Optional(Nullable(Name("First name"))),
      last_name: t.Optional(Nullable(Name("Last name"))),
      unsubscribed: t.Optional(t.Boolean({ description: "Out of every broadcast and every topic" })),
      properties: t.Optional(
        t.Record(t.String(), Nullable(t.Union([t.String(), t.Number()])), {
          description: "Values of defined contact properties, by key",
        }),
      ),
      segments: t.Optional(t.Array(t.Object({ id: t.String() }), { maxItems: 100 })),
      topics: t.Optional(TopicChoices),
    },
    { additionalProperties: false, description: "A new contact" },
  ),
);

export const UpdateContactSchema = named(
  "UpdateContactOptions",
  t.Object(
    {
      first_name: t.Optional(Nullable(Name("First name (null clears it)"))),
      last_name: t.Optional(Nullable(Name("Last name (null clears it)"))),
      unsubscribed: t.Optional(t.Boolean()),
      properties: t.Optional(
        t.Record(t.String(), Nullable(t.Union([t.String(), t.Number(), t.Boolean()])), {
          description: "Values to set, by key (null removes one)",
        }),
      ),
    },
    { additionalProperties: false, description: "Changes to a contact" },
  ),
);

export const SegmentBodySchema = named(
  "CreateSegmentOptions",
  t.Object({ name: Name("The segment's name") }, { additionalProperties: false, description: "A segment" }),
);

export const CreateTopicSchema = named(
  "CreateTopicOptions",
  t.Object(
    {
      name: Name("The topic's name"),
      description: t.Optional(Nullable(t.String({ maxLength: 1000 }))),
      default_subscription: OneOf(TOPIC_SUBSCRIPTIONS, {
        description: "What a contact who never chose receives (fixed once created)",
      }),
      visibility: t.Optional(OneOf(TOPIC_VISIBILITIES)),
    },
    { additionalProperties: false, description: "A new topic" },
  ),
);

export const UpdateTopicSchema = named(
  "UpdateTopicOptions",
  t.Object(
    {
      id: t.Optional(t.String({ description: "Ignored (Resend's SDK sends it)" })),
      name: t.Optional(Name("The topic's name")),
      description: t.Optional(Nullable(t.String({ maxLength: 1000 }))),
      visibility: t.Optional(OneOf(TOPIC_VISIBILITIES)),
    },
    { additionalProperties: false, description: "Changes to a topic (its default_subscription cannot change)" },
  ),
);

export const CreatePropertySchema = named(
  "CreateContactPropertyOptions",
  t.Object(
    {
      key: t.String({ maxLength: 100, description: "Letters, digits and underscores, starting with a letter" }),
      type: OneOf(PROPERTY_TYPES),
      fallback_value: t.Optional(Nullable(t.Union([t.String(), t.Number()]))),
    },
    { additionalProperties: false, description: "A property contacts may carry" },
  ),
);

export const UpdatePropertySchema = named(
  "UpdateContactPropertyOptions",
  t.Object(
    { fallback_value: t.Optional(Nullable(t.Union([t.String(), t.Number()]))) },
    { additionalProperties: false, description: "A property's new fallback (its key and type cannot change)" },
  ),
);
