/** HTTP routes for the suppression list: list, add (origin manual), get, remove. */
import { Elysia, t } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readJsonObject } from "../http/body.ts";
import { jsonContent } from "../http/docs.ts";
import { parseLimit } from "../http/query.ts";
import type { SuppressionService } from "./service.ts";

const AddSchema = t.Object({ email: t.String(), reason: t.Optional(t.String()) }, { additionalProperties: false });

export function suppressionRoutes(deps: AuthDeps & { suppressions: SuppressionService }) {
  const { suppressions, config } = deps;
  return new Elysia()
    .use(authenticated(deps))
    .get(
      "/v1/suppressions",
      async ({ actor, query }) => ({ object: "list", ...(await suppressions.list(actor, { limit: parseLimit(query.limit), after: query.after, search: query.search })) }),
      { detail: { summary: "List suppressed addresses", tags: ["Suppressions"] } },
    )
    .post(
      "/v1/suppressions",
      async ({ request, actor }) => suppressions.add(actor, await readJsonObject(request, bodyLimits(config), { known: Object.keys(AddSchema.properties) })),
      { parse: "none", detail: { summary: "Suppress an address", tags: ["Suppressions"], requestBody: jsonContent(AddSchema) } },
    )
    .get(
      "/v1/suppressions/:email",
      ({ actor, params }) => suppressions.get(actor, params.email),
      { detail: { summary: "Look up a suppressed address", tags: ["Suppressions"] } },
    )
    .delete(
      "/v1/suppressions/:email",
      ({ actor, params }) => suppressions.remove(actor, params.email),
      { detail: { summary: "Remove an address from the suppression list", tags: ["Suppressions"] } },
    );
}
