/**
 * HTTP routes for the suppression list, in Resend's shapes: list (paged, newest first), add (origin manual), get
 * and remove by id or address, and the batch add and remove.
 */
import { Elysia } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readBody } from "../http/body.ts";
import { jsonContent } from "../http/docs.ts";
import { parseEnum, parsePage } from "../http/query.ts";
import { SUPPRESSION_ORIGINS } from "./model.ts";
import type { SuppressionService } from "./service.ts";
import {
  AddSuppressionSchema,
  BatchAddSuppressionsSchema,
  BatchRemoveSuppressionsSchema,
  oneOfEmailsOrIds,
} from "./validate.ts";

export function suppressionRoutes(deps: AuthDeps & { suppressions: SuppressionService }) {
  const { suppressions, config } = deps;
  const limits = bodyLimits(config);
  const tags = ["Suppressions"];
  return new Elysia()
    .use(authenticated(deps))
    .get(
      "/v1/suppressions",
      ({ actor, query }) =>
        suppressions.list(actor, {
          ...parsePage(query),
          origin: parseEnum("origin", query.origin, SUPPRESSION_ORIGINS),
          search: query.search,
        }),
      { detail: { summary: "List suppressed addresses, newest first (filters: origin, search)", tags } },
    )
    .post(
      "/v1/suppressions",
      async ({ request, actor }) => suppressions.add(actor, await readBody(request, limits, AddSuppressionSchema)),
      {
        parse: "none",
        detail: { summary: "Suppress an address", tags, requestBody: jsonContent(AddSuppressionSchema) },
      },
    )
    .post(
      "/v1/suppressions/batch/add",
      async ({ request, actor }) => {
        const body = await readBody(request, limits, BatchAddSuppressionsSchema);
        return { data: await suppressions.addMany(actor, body.emails, body.reason) };
      },
      {
        parse: "none",
        detail: {
          summary: "Suppress several addresses (those already suppressed keep their entry)",
          tags,
          requestBody: jsonContent(BatchAddSuppressionsSchema),
        },
      },
    )
    .post(
      "/v1/suppressions/batch/remove",
      async ({ request, actor }) => {
        const body = await readBody(request, limits, BatchRemoveSuppressionsSchema, { rules: oneOfEmailsOrIds });
        return {
          data:
            body.ids !== undefined
              ? await suppressions.removeMany(actor, body.ids, "ids")
              : await suppressions.removeMany(actor, body.emails, "emails"),
        };
      },
      {
        parse: "none",
        detail: {
          summary: "Remove several addresses, by address or by id",
          tags,
          requestBody: jsonContent(BatchRemoveSuppressionsSchema),
        },
      },
    )
    .get("/v1/suppressions/:id", ({ actor, params }) => suppressions.get(actor, params.id), {
      detail: { summary: "Look up a suppression by id or address", tags },
    })
    .delete(
      "/v1/suppressions/:id",
      async ({ actor, params }) => {
        const removed = await suppressions.remove(actor, params.id);
        return { object: "suppression", id: removed.id, email: removed.email, deleted: true };
      },
      { detail: { summary: "Remove a suppression, by id or address", tags } },
    );
}
