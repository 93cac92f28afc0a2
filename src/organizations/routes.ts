/** HTTP routes of the organisation's settings (DESIGN §12): read them, with usage and storage, and change them. */
import { Elysia } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readBody } from "../http/body.ts";
import { jsonContent } from "../http/docs.ts";
import { parsePage } from "../http/query.ts";
import type { OrganizationService } from "./service.ts";
import { OrganizationPatchSchema, parseOrganizationPatch } from "./validate.ts";

export function organizationRoutes(deps: AuthDeps & { organizations: OrganizationService }) {
  const { organizations } = deps;
  const limits = bodyLimits(deps.config);
  const tags = ["Organization"];
  return new Elysia()
    .use(authenticated(deps))
    .get("/v1/organization", ({ actor }) => organizations.show(actor), {
      detail: {
        summary:
          "The organisation's limits, daily quota and today's usage, retention, storage and whether it is paused",
        tags,
      },
    })
    .get(
      "/v1/audit-log",
      ({ actor, query }) =>
        organizations.auditLog(actor, {
          ...parsePage(query),
          action: query.action || undefined,
          actorId: query.actor_id || undefined,
        }),
      {
        detail: {
          summary:
            "Who changed what, and every sign-in, newest first (audit:read: owners and admins); filters action and actor_id",
          tags,
        },
      },
    )
    .patch(
      "/v1/organization",
      async ({ request, actor }) =>
        organizations.update(
          actor,
          await readBody(request, limits, OrganizationPatchSchema, { rules: parseOrganizationPatch }),
        ),
      {
        parse: "none",
        detail: {
          summary: "Change the name, request limit, daily quota or retention; null returns a setting to its default",
          tags,
          requestBody: jsonContent(OrganizationPatchSchema),
        },
      },
    );
}
