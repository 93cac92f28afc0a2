/**
 * HTTP routes for inbound routes (docs/inbound.md#routes): list in order, create, get, change or move (PATCH), remove,
 * and test an address against them — each route one contract (http/contract.ts).
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import { DeletedOf, ListOf, PageQuery } from "../lib/wire.ts";
import {
  CreateInboundRouteSchema,
  InboundRouteSchema,
  InboundRouteTestSchema,
  TestInboundRouteSchema,
  UpdateInboundRouteSchema,
} from "./model.ts";
import type { InboundRoutes } from "./service.ts";

const tags = ["Inbound routes"];
const Id = t.Object({ id: t.String({ description: "The route's id" }) });

export function inboundRouteRoutes(deps: AuthDeps & { inboundRoutes: InboundRoutes }) {
  const { inboundRoutes } = deps;
  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    route(
      {
        method: "GET",
        path: "/v1/inbound/routes",
        summary: "List the inbound routes in the order they are tried",
        tags,
        query: t.Object(PageQuery),
        responses: { 200: ListOf(InboundRouteSchema) },
      },
      ({ actor, query }) => inboundRoutes.list(actor, { ...query, limit: query.limit ?? 100 }),
    ),
    route(
      {
        method: "POST",
        path: "/v1/inbound/routes",
        summary: "Create an inbound route",
        tags,
        body: CreateInboundRouteSchema,
        responses: { 200: InboundRouteSchema },
      },
      ({ actor, body }) => inboundRoutes.create(actor, body),
    ),
    route(
      {
        method: "POST",
        path: "/v1/inbound/routes/test",
        summary: "Which route decides for an address (and headers), and what becomes of its mail",
        tags,
        body: TestInboundRouteSchema,
        responses: { 200: InboundRouteTestSchema },
      },
      ({ actor, body }) => inboundRoutes.test(actor, body),
    ),
    route(
      {
        method: "GET",
        path: "/v1/inbound/routes/:id",
        summary: "Get an inbound route",
        tags,
        params: Id,
        responses: { 200: InboundRouteSchema },
      },
      ({ actor, params }) => inboundRoutes.get(actor, params.id),
    ),
    route(
      {
        method: "PATCH",
        path: "/v1/inbound/routes/:id",
        summary: "Change or move an inbound route",
        tags,
        params: Id,
        body: UpdateInboundRouteSchema,
        responses: { 200: InboundRouteSchema },
      },
      ({ actor, params, body }) => inboundRoutes.update(actor, params.id, body),
    ),
    route(
      {
        method: "DELETE",
        path: "/v1/inbound/routes/:id",
        summary: "Remove an inbound route",
        tags,
        params: Id,
        responses: { 200: DeletedOf("inbound_route") },
      },
      ({ actor, params }) => inboundRoutes.remove(actor, params.id),
    ),
  ]);
}
