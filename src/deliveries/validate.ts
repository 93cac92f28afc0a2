/**
 * Requests of the delivery queue (docs/operations.md#the-delivery-queue): the bulk actions' filter, pauses — the schemas the routes
 * document and check. Pure.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { named } from "../lib/wire.ts";
import type { QueueFilter } from "./queue.ts";
import { PauseScopeSchema, QueueStatusSchema } from "./wire.ts";

/** The request body of a bulk action, as the API documents and checks it (shape-check.ts). */
export const BulkActionSchema = named(
  "BulkDeliveriesOptions",
  t.Object(
    {
      status: t.Optional(QueueStatusSchema),
      domain: t.Optional(t.String({ description: "The recipients' domain" })),
      provider: t.Optional(t.String({ description: "The provider of their last attempt" })),
      email_id: t.Optional(t.String({ description: "One message's recipients" })),
    },
    { additionalProperties: false, description: "At least one filter" },
  ),
);

export const filterOf = (body: Static<typeof BulkActionSchema>): QueueFilter => ({
  status: body.status,
  domain: body.domain,
  provider: body.provider,
  emailId: body.email_id,
});

const Name = t.Optional(
  t.String({ description: "The domain, provider or lane — transactional or broadcast (none for the organisation)" }),
);

export const PauseSchema = named(
  "PauseSendingOptions",
  t.Object(
    {
      scope: PauseScopeSchema,
      name: Name,
      reason: t.Optional(t.Union([t.String(), t.Null()], { description: "For the record" })),
    },
    { additionalProperties: false },
  ),
);
export const ResumeSchema = named(
  "ResumeSendingOptions",
  t.Object({ scope: PauseScopeSchema, name: Name }, { additionalProperties: false }),
);
