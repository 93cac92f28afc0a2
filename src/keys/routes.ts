/** HTTP routes for API keys: create (the key is in this one response), list, revoke. */
import { Elysia, t } from "elysia";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readJsonObject } from "../http/body.ts";
import { jsonContent } from "../http/docs.ts";
import { parseCreateKey } from "./validate.ts";

const CreateKeySchema = t.Object(
  {
    name: t.String(),
    scopes: t.Array(t.String(), { description: "Scope names, or the presets full_access / sending_access" }),
    mode: t.Optional(t.Union([t.Literal("live"), t.Literal("test")])),
    domains: t.Optional(t.Array(t.String(), { description: "Restrict sending to these domains" })),
    rate_limit_per_minute: t.Optional(t.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

const KNOWN = Object.keys(CreateKeySchema.properties);

export function keyRoutes(deps: AuthDeps) {
  const { keys, config } = deps;
  return new Elysia()
    .use(authenticated(deps))
    .post("/v1/api-keys", async ({ request, actor }) => keys.create(actor, parseCreateKey(await readJsonObject(request, bodyLimits(config), { known: KNOWN }))), {
      parse: "none",
      detail: { summary: "Create an API key (the key is shown once)", tags: ["API keys"], requestBody: jsonContent(CreateKeySchema) },
    })
    .get("/v1/api-keys", async ({ actor }) => ({ object: "list", data: await keys.list(actor) }), { detail: { summary: "List API keys", tags: ["API keys"] } })
    .delete("/v1/api-keys/:id", ({ actor, params }) => keys.revoke(actor, params.id), { detail: { summary: "Revoke an API key", tags: ["API keys"] } });
}
