/**
 * Inbound routes' wire (docs/inbound.md#routes): a route as the API shows it, what creating and changing one takes, and
 * the answer of testing an address against them — written once, as the schemas that type the service, check what
 * comes in, and document the routes (docs/architecture.md#one-contract-per-route).
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { ROUTE_ACTIONS, type RouteAction } from "../db/schema/received.ts";
import { named, Nullable, OneOf } from "../lib/wire.ts";

export { ROUTE_ACTIONS, type RouteAction };

/** At most this many routes per organisation: each received message is matched against them all. */
export const MAX_ROUTES = 200;
/** At most this many addresses a route forwards to. */
export const MAX_FORWARD_TO = 10;

const RECIPIENT_DESCRIPTION = "An address (support@acme.com), or every address of a domain (*@acme.com)";

export const RouteHeaderMatchSchema = named(
  "InboundRouteHeaderMatch",
  t.Object(
    {
      name: t.String({ minLength: 1, maxLength: 100, pattern: "^[!-9;-~]+$", description: "A header field's name" }),
      contains: t.String({ minLength: 1, maxLength: 500, description: "Text its value contains (any case)" }),
    },
    { description: "Matches when one of the message's header fields of this name contains the text" },
  ),
);

export const InboundRouteSchema = named(
  "InboundRoute",
  t.Object(
    {
      object: t.Literal("inbound_route"),
      id: t.String({ format: "uuid" }),
      position: t.Integer({ minimum: 1, description: "Routes are tried from position 1 up; the first match decides" }),
      match: t.Object({
        recipient: Nullable(t.String({ description: RECIPIENT_DESCRIPTION })),
        header: Nullable(RouteHeaderMatchSchema),
      }),
      action: OneOf(ROUTE_ACTIONS, {
        description:
          "store (the default), webhook (store; email.received only to webhook_ids), forward (store and forward), reject (550 5.7.1) or drop (accept, store nothing)",
      }),
      forward_to: t.Array(t.String()),
      webhook_ids: t.Array(t.String()),
      spam_threshold: Nullable(t.Number(), { description: "rspamd score at or over which the message is refused" }),
      created_at: t.String({ format: "date-time" }),
      updated_at: t.String({ format: "date-time" }),
    },
    { description: "A rule for the organisation's received mail" },
  ),
);
export type InboundRouteView = Static<typeof InboundRouteSchema>;

const MatchInput = t.Object(
  {
    recipient: t.Optional(Nullable(t.String({ minLength: 1, maxLength: 320, description: RECIPIENT_DESCRIPTION }))),
    header: t.Optional(Nullable(RouteHeaderMatchSchema)),
  },
  { description: "What the route matches; an empty match matches every message" },
);

const routeFields = {
  match: t.Optional(MatchInput),
  forward_to: t.Optional(
    t.Array(t.String({ minLength: 3, maxLength: 320 }), {
      maxItems: MAX_FORWARD_TO,
      description: "Where action forward sends a copy",
    }),
  ),
  webhook_ids: t.Optional(
    t.Array(t.String({ format: "uuid" }), { maxItems: 20, description: "The webhooks action webhook notifies" }),
  ),
  spam_threshold: t.Optional(Nullable(t.Number({ minimum: -1000, maximum: 10000 }))),
  position: t.Optional(
    t.Integer({ minimum: 1, description: "Where the route goes; those at it and after move down. Default: last" }),
  ),
};

export const CreateInboundRouteSchema = named(
  "CreateInboundRouteOptions",
  t.Object({ ...routeFields, action: OneOf(ROUTE_ACTIONS) }, { additionalProperties: false }),
);
export type CreateInboundRoute = Static<typeof CreateInboundRouteSchema>;

export const UpdateInboundRouteSchema = named(
  "UpdateInboundRouteOptions",
  t.Object({ ...routeFields, action: t.Optional(OneOf(ROUTE_ACTIONS)) }, { additionalProperties: false }),
);
export type UpdateInboundRoute = Static<typeof UpdateInboundRouteSchema>;

export const TestInboundRouteSchema = named(
  "TestInboundRouteOptions",
  t.Object(
    {
      recipient: t.String({ minLength: 3, maxLength: 320 }),
      headers: t.Optional(
        t.Record(t.String({ maxLength: 100 }), t.String({ maxLength: 2000 }), {
          description: "Header fields of an imagined message, name → value",
        }),
      ),
    },
    { additionalProperties: false },
  ),
);
export type TestInboundRoute = Static<typeof TestInboundRouteSchema>;

export const InboundRouteTestSchema = named(
  "InboundRouteTest",
  t.Object({
    object: t.Literal("inbound_route_test"),
    recipient: t.String(),
    receiving: t.Boolean({ description: "Whether the MX takes mail for this address for the organisation" }),
    route: Nullable(InboundRouteSchema, { description: "The route that decides; null: none matches" }),
    action: OneOf(ROUTE_ACTIONS, { description: "What becomes of the message (store when no route matches)" }),
  }),
);
export type InboundRouteTestView = Static<typeof InboundRouteTestSchema>;
