/** Requests of the delivery queue (DESIGN §12): the bulk actions' filter, pauses. Pure; every problem with its path. */
import { type Static, Type as t } from "@sinclair/typebox";
import { PAUSE_SCOPES } from "./pauses.ts";
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

const Scope = t.Union(
  PAUSE_SCOPES.map((scope) => t.Literal(scope)),
  { description: "What is paused: the organisation, one sending domain, or one provider" },
);
const Name = t.Optional(t.String({ description: "The domain or provider (none for the organisation)" }));

export const PauseSchema = t.Object(
  { scope: Scope, name: Name, reason: t.Optional(t.Union([t.String(), t.Null()], { description: "For the record" })) },
  { additionalProperties: false },
);
export const ResumeSchema = t.Object({ scope: Scope, name: Name }, { additionalProperties: false });
