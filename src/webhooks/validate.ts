/**
 * The webhook request bodies, as the API documents and checks them (shape-check.ts), under the Node client's
 * names. The rules a schema cannot say (a public https endpoint, known event types) are the service's, which
 * resolves and checks them.
 */
import { Type as t } from "@sinclair/typebox";
import { named } from "../lib/wire.ts";

export const CreateWebhookSchema = named(
  "CreateWebhookOptions",
  t.Object(
    {
      endpoint: t.String({
        description: "An https URL on a public address",
        examples: ["https://example.com/hooks/mailroom"],
      }),
      events: t.Array(t.String(), { description: "Event types to receive, e.g. email.delivered" }),
      description: t.Optional(t.Union([t.String(), t.Null()])),
    },
    { additionalProperties: false },
  ),
);
export const UpdateWebhookSchema = named(
  "UpdateWebhookOptions",
  t.Object(
    {
      endpoint: t.Optional(t.String()),
      events: t.Optional(t.Array(t.String())),
      description: t.Optional(t.Union([t.String(), t.Null()])),
      status: t.Optional(t.Union([t.Literal("enabled"), t.Literal("disabled")])),
    },
    { additionalProperties: false },
  ),
);
export const TestWebhookSchema = named(
  "TestWebhookOptions",
  t.Object(
    { type: t.Optional(t.String({ description: "Event type of the sample (default email.sent)" })) },
    { additionalProperties: false },
  ),
);
