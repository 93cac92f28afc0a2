/**
 * HTTP routes of broadcasts, in Resend's paths and shapes (docs/broadcasts.md): create (a draft, or sent with
 * `send: true`), get with counts, list, update and delete of drafts, send (now or at `scheduled_at`), cancel,
 * duplicate, recipients by event type and clicked links. Each route one contract (http/contract.ts).
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import { ListOf, OneOf, PageQuery } from "../lib/wire.ts";
import {
  BOUNCE_TYPES,
  BroadcastClickedLinkSchema,
  BroadcastRecipientSchema,
  BroadcastSchema,
  BroadcastSummarySchema,
  CreateBroadcastSchema,
  RECIPIENT_EVENT_TYPES,
  SendBroadcastSchema,
  UpdateBroadcastSchema,
} from "./model.ts";
import type { BroadcastService } from "./service.ts";

const tags = ["Broadcasts"];
const Id = t.Object({ id: t.String({ description: "The broadcast's id" }) });
const Created = t.Object({ id: t.String() });
const Named = t.Object({ object: t.Literal("broadcast"), id: t.String() });

export function broadcastRoutes(deps: AuthDeps & { broadcasts: BroadcastService }) {
  const { broadcasts } = deps;
  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    route(
      {
        method: "POST",
        path: "/v1/broadcasts",
        summary: "Create a broadcast to a segment: a draft, or sent now or at scheduled_at with send: true",
        tags,
        body: CreateBroadcastSchema,
        responses: { 200: Created },
      },
      ({ actor, body }) => broadcasts.create(actor, body),
    ),
    route(
      {
        method: "GET",
        path: "/v1/broadcasts",
        summary: "List broadcasts, newest first",
        tags,
        query: t.Object(PageQuery),
        responses: { 200: ListOf(BroadcastSummarySchema) },
      },
      ({ actor, query }) => broadcasts.list(actor, { ...query, limit: query.limit ?? 20 }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/broadcasts/:id",
        summary: "Get a broadcast, with its counts per recipient status",
        tags,
        params: Id,
        responses: { 200: BroadcastSchema },
      },
      ({ actor, params }) => broadcasts.get(actor, params.id),
    ),
    route(
      {
        method: "PATCH",
        path: "/v1/broadcasts/:id",
        summary: "Change a draft (409 once it is queued or sent)",
        tags,
        params: Id,
        body: UpdateBroadcastSchema,
        optionalBody: true,
        responses: { 200: Created },
      },
      ({ actor, params, body }) => broadcasts.update(actor, params.id, body ?? {}),
    ),
    route(
      {
        method: "DELETE",
        path: "/v1/broadcasts/:id",
        summary: "Delete a draft (409 otherwise)",
        tags,
        params: Id,
        responses: { 200: t.Object({ object: t.Literal("broadcast"), id: t.String(), deleted: t.Literal(true) }) },
      },
      ({ actor, params }) => broadcasts.remove(actor, params.id),
    ),
    route(
      {
        method: "POST",
        path: "/v1/broadcasts/:id/send",
        summary: "Send a draft now, or at scheduled_at",
        tags,
        params: Id,
        body: SendBroadcastSchema,
        optionalBody: true,
        responses: { 200: Created },
      },
      ({ actor, params, body }) => broadcasts.send(actor, params.id, body?.scheduled_at),
    ),
    route(
      {
        method: "POST",
        path: "/v1/broadcasts/:id/cancel",
        summary:
          "Cancel a queued broadcast: a scheduled one goes back to draft; one being sent stops as canceled, its recipients still waiting canceled",
        tags,
        params: Id,
        responses: { 200: Named },
      },
      ({ actor, params }) => broadcasts.cancel(actor, params.id),
    ),
    route(
      {
        method: "POST",
        path: "/v1/broadcasts/:id/duplicate",
        summary: "Copy a broadcast as a new draft",
        tags,
        params: Id,
        responses: { 200: Named },
      },
      ({ actor, params }) => broadcasts.duplicate(actor, params.id),
    ),
    route(
      {
        method: "GET",
        path: "/v1/broadcasts/:id/recipients",
        summary: "The broadcast's recipients that had an event of one type",
        tags,
        params: Id,
        query: t.Object({
          ...PageQuery,
          type: OneOf(RECIPIENT_EVENT_TYPES),
          email: t.Optional(t.String({ description: "Only this recipient" })),
          bounce_type: t.Optional(OneOf(BOUNCE_TYPES)),
        }),
        responses: { 200: ListOf(BroadcastRecipientSchema) },
      },
      ({ actor, params, query }) =>
        broadcasts.recipients(actor, params.id, {
          ...query,
          limit: query.limit ?? 20,
          bounceType: query.bounce_type,
        }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/broadcasts/:id/clicked-links",
        summary: "The links clicked in the broadcast, most clicked first",
        tags,
        params: Id,
        // Its cursors are the links' places in the list, not UUIDs.
        query: t.Object({
          limit: PageQuery.limit,
          after: t.Optional(t.String({ maxLength: 20 })),
          before: t.Optional(t.String({ maxLength: 20 })),
        }),
        responses: { 200: ListOf(BroadcastClickedLinkSchema) },
      },
      ({ actor, params, query }) => broadcasts.clickedLinks(actor, params.id, { ...query, limit: query.limit ?? 20 }),
    ),
  ]);
}
