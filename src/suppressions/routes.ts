/**
 * HTTP routes for the suppression list, in Resend's shapes: list (paged, newest first), add (origin manual), get
 * and remove by id or address, and the batch add and remove — each route one contract (http/contract.ts).
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import { ListOf, OneOf, PageQuery } from "../lib/wire.ts";
import { RemovedSuppressionSchema, SUPPRESSION_ORIGINS, SuppressionSchema } from "./model.ts";
import type { SuppressionService } from "./service.ts";
import {
  AddSuppressionSchema,
  BatchAddSuppressionsSchema,
  BatchRemoveSuppressionsSchema,
  oneOfEmailsOrIds,
} from "./validate.ts";

const tags = ["Suppressions"];
const IdOrEmail = t.Object({ id: t.String({ description: "The suppression's id, or the address" }) });

export function suppressionRoutes(deps: AuthDeps & { suppressions: SuppressionService }) {
  const { suppressions } = deps;
  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    route(
      {
        method: "GET",
        path: "/v1/suppressions",
        summary: "List suppressed addresses, newest first (filters: origin, search)",
        tags,
        query: t.Object({
          ...PageQuery,
          origin: t.Optional(OneOf(SUPPRESSION_ORIGINS)),
          search: t.Optional(t.String({ maxLength: 320, description: "Part of the address" })),
        }),
        responses: { 200: ListOf(SuppressionSchema) },
      },
      ({ actor, query }) => suppressions.list(actor, { ...query, limit: query.limit ?? 20 }),
    ),
    route(
      {
        method: "POST",
        path: "/v1/suppressions",
        summary: "Suppress an address",
        tags,
        body: AddSuppressionSchema,
        responses: { 200: SuppressionSchema },
      },
      ({ actor, body }) => suppressions.add(actor, body),
    ),
    route(
      {
        method: "POST",
        path: "/v1/suppressions/batch/add",
        summary: "Suppress several addresses (those already suppressed keep their entry)",
        tags,
        body: BatchAddSuppressionsSchema,
        responses: { 200: t.Object({ data: t.Array(SuppressionSchema) }) },
      },
      async ({ actor, body }) => ({ data: await suppressions.addMany(actor, body.emails, body.reason) }),
    ),
    route(
      {
        method: "POST",
        path: "/v1/suppressions/batch/remove",
        summary: "Remove several addresses, by address or by id",
        tags,
        body: BatchRemoveSuppressionsSchema,
        responses: { 200: t.Object({ data: t.Array(RemovedSuppressionSchema) }) },
      },
      async ({ actor, body }) => {
        const named = oneOfEmailsOrIds(body);
        return {
          data:
            named.ids !== undefined
              ? await suppressions.removeMany(actor, named.ids, "ids")
              : await suppressions.removeMany(actor, named.emails, "emails"),
        };
      },
    ),
    route(
      {
        method: "GET",
        path: "/v1/suppressions/:id",
        summary: "Look up a suppression by id or address",
        tags,
        params: IdOrEmail,
        responses: { 200: SuppressionSchema },
      },
      ({ actor, params }) => suppressions.get(actor, params.id),
    ),
    route(
      {
        method: "DELETE",
        path: "/v1/suppressions/:id",
        summary: "Remove a suppression, by id or address",
        tags,
        params: IdOrEmail,
        responses: {
          200: t.Object({
            object: t.Literal("suppression"),
            id: t.String(),
            email: t.String(),
            deleted: t.Literal(true),
          }),
        },
      },
      async ({ actor, params }) => {
        const removed = await suppressions.remove(actor, params.id);
        return { object: "suppression" as const, id: removed.id, email: removed.email, deleted: true as const };
      },
    ),
  ]);
}
