/**
 * HTTP routes of the organisation's settings (docs/operations.md#organisation-settings) and its audit log
 * (docs/teams.md#audit-log): read the settings, with usage and storage, change them, read who changed what — each
 * route one contract (http/contract.ts).
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { AuditEventSchema } from "../audit/reads.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import { ListOf, PageQuery } from "../lib/wire.ts";
import { OrganizationSchema } from "./model.ts";
import type { OrganizationService } from "./service.ts";
import { OrganizationPatchSchema, parseOrganizationPatch } from "./validate.ts";

const tags = ["Organization"];

export function organizationRoutes(deps: AuthDeps & { organizations: OrganizationService }) {
  const { organizations } = deps;
  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    route(
      {
        method: "GET",
        path: "/v1/organization",
        summary:
          "The organisation's limits, daily quota and today's usage, retention, storage and whether it is paused",
        tags,
        responses: { 200: OrganizationSchema },
      },
      ({ actor }) => organizations.show(actor),
    ),
    route(
      {
        method: "GET",
        path: "/v1/audit-log",
        summary:
          "Who changed what, and every sign-in, newest first (audit:read: owners and admins); filters action and actor_id",
        tags,
        query: t.Object({
          ...PageQuery,
          action: t.Optional(t.String({ description: "Only this action, e.g. member.invited" })),
          actor_id: t.Optional(t.String({ description: "Only what this actor did: a user's or key's id" })),
        }),
        responses: { 200: ListOf(AuditEventSchema) },
      },
      ({ actor, query }) =>
        organizations.auditLog(actor, {
          limit: query.limit ?? 20,
          after: query.after,
          before: query.before,
          // An empty filter is no filter.
          action: query.action || undefined,
          actorId: query.actor_id || undefined,
        }),
    ),
    route(
      {
        method: "PATCH",
        path: "/v1/organization",
        summary: "Change the name, request limit, daily quota or retention; null returns a setting to its default",
        tags,
        body: OrganizationPatchSchema,
        responses: { 200: OrganizationSchema },
      },
      ({ actor, body }) => organizations.update(actor, parseOrganizationPatch(body)),
    ),
  ]);
}
