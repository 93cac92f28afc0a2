/** HTTP routes for API keys: create (the key is in this one response), list, revoke. */
import { Elysia, t } from "elysia";
import { AppError, validationError } from "../errors.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readJsonObject } from "../http/body.ts";
import { jsonContent } from "../http/docs.ts";
import { isUuid } from "../lib/ids.ts";
import type { KeyMode } from "./model.ts";
import { requireScope } from "./service.ts";

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
    .post(
      "/v1/api-keys",
      async ({ request, actor }) => {
        requireScope(actor, "api_keys:write");
        const body = await readJsonObject(request, bodyLimits(config), { known: KNOWN });
        if (typeof body.name !== "string") throw validationError([{ path: "name", message: "is required" }]);
        if (!Array.isArray(body.scopes) || body.scopes.some((s) => typeof s !== "string")) throw validationError([{ path: "scopes", message: "must be an array of scope names" }]);
        if (body.mode !== undefined && body.mode !== "live" && body.mode !== "test") throw validationError([{ path: "mode", message: "must be live or test" }]);
        if (body.domains !== undefined && (!Array.isArray(body.domains) || body.domains.some((d) => typeof d !== "string")))
          throw validationError([{ path: "domains", message: "must be an array of domain names" }]);
        const mode = (body.mode as KeyMode | undefined) ?? actor.mode;
        // A test key is a sandbox: it must not be able to mint a key that sends for real.
        if (actor.mode === "test" && mode === "live") throw new AppError("insufficient_scope", "A test key can create test keys only.");
        const created = await keys.create(actor.organizationId, {
          name: body.name,
          scopes: body.scopes as string[],
          mode,
          domains: body.domains as string[] | undefined,
          rateLimitPerMinute: body.rate_limit_per_minute as number | undefined,
        });
        return created;
      },
      { parse: "none", detail: { summary: "Create an API key (the key is shown once)", tags: ["API keys"], requestBody: jsonContent(CreateKeySchema) } },
    )
    .get(
      "/v1/api-keys",
      async ({ actor }) => {
        requireScope(actor, "api_keys:read");
        return { object: "list", data: await keys.list(actor.organizationId) };
      },
      { detail: { summary: "List API keys", tags: ["API keys"] } },
    )
    .delete(
      "/v1/api-keys/:id",
      ({ actor, params }) => {
        requireScope(actor, "api_keys:write");
        if (!isUuid(params.id)) throw new AppError("not_found", "API key not found.");
        return keys.revoke(actor.organizationId, params.id.toLowerCase());
      },
      { detail: { summary: "Revoke an API key", tags: ["API keys"] } },
    );
}
