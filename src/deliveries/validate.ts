/** Requests of the delivery queue (DESIGN §12): the bulk actions' filter. Pure; every problem with its path. */
import { type Static, Type as t } from "@sinclair/typebox";
import { QUEUE_STATUSES, type QueueFilter } from "./queue.ts";

/** The request body of a bulk action, as the API documents and checks it (schema-check.ts). */
export const BulkActionSchema = t.Object(
  {
    status: t.Optional(t.Union(QUEUE_STATUSES.map((status) => t.Literal(status)))),
    domain: t.Optional(t.String({ description: "The recipients' domain" })),
    provider: t.Optional(t.String({ description: "The provider of their last attempt" })),
    email_id: t.Optional(t.String({ description: "One message's recipients" })),
  },
  { additionalProperties: false, description: "At least one filter" },
);

export const filterOf = (body: Static<typeof BulkActionSchema>): QueueFilter => ({
  status: body.status,
  domain: body.domain,
  provider: body.provider,
  emailId: body.email_id,
});
