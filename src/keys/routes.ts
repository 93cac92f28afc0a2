/**
 * HTTP routes for API keys, in Resend's shapes: create (201 `{id, token}`; the token is in this one response), list
 * (active keys, paged), rename, revoke (`{object, id, deleted}`), and `current`: what the calling key itself may do.
 */
import { Elysia } from "elysia";
import type { DomainService } from "../domains/service.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits, readBody } from "../http/body.ts";
import { jsonContent } from "../http/docs.ts";
import { parsePage } from "../http/query.ts";
import { createdKeyAnswer } from "./model.ts";
import { mayReadContent, mayUse } from "../access.ts";
import type { KeyService } from "./service.ts";
import { CreateKeySchema, parseCreateKey, RenameKeySchema } from "./validate.ts";

export function keyRoutes(deps: AuthDeps & { keys: KeyService; domains: DomainService }) {
  const { keys, domains, config } = deps;
  const limits = bodyLimits(config);
  return new Elysia()
    .use(authenticated(deps))
    .post(
      "/v1/api-keys",
      async ({ request, actor, set }) => {
        const { domainId, ...input } = await readBody(request, limits, CreateKeySchema, { rules: parseCreateKey });
        if (domainId !== undefined) input.domains = [...(input.domains ?? []), await domains.nameOf(actor, domainId)];
        const created = await keys.create(actor, input);
        set.status = 201;
        return createdKeyAnswer(created);
      },
      {
        parse: "none",
        detail: {
          summary: "Create an API key (the token is shown once)",
          tags: ["API keys"],
          requestBody: jsonContent(CreateKeySchema),
        },
      },
    )
    .get(
      "/v1/api-keys",
      ({ actor, query }) => keys.list(actor, { ...parsePage(query), includeRevoked: query.include_revoked === "true" }),
      {
        detail: { summary: "List API keys, newest first (revoked ones with include_revoked=true)", tags: ["API keys"] },
      },
    )
    .get(
      "/v1/api-keys/current",
      ({ actor }) => ({
        object: "api_key",
        id: actor.keyId,
        mode: actor.mode,
        scopes: [...actor.scopes].filter((scope) => mayUse(actor, scope)),
        domains: actor.domains,
        // Message content (html, text, raw, attachments) is a role's matter, not a scope's: a viewer reads none.
        reads_message_content: mayReadContent(actor),
      }),
      {
        detail: {
          summary:
            "What the calling key or person may do: its id, mode, the scopes it may use (a test key's within the sandbox), sending domains, and whether it reads message content (a viewer does not); any key may ask, and the admin UI shows only what these allow",
          tags: ["API keys"],
        },
      },
    )
    .patch(
      "/v1/api-keys/:id",
      async ({ request, actor, params }) => {
        const { name } = await readBody(request, limits, RenameKeySchema);
        const renamed = await keys.rename(actor, params.id, name);
        return { object: "api_key", id: renamed.id };
      },
      {
        parse: "none",
        detail: {
          summary: "Rename an API key",
          tags: ["API keys"],
          requestBody: jsonContent(RenameKeySchema),
        },
      },
    )
    .delete(
      "/v1/api-keys/:id",
      async ({ actor, params }) => {
        const revoked = await keys.revoke(actor, params.id);
        return { object: "api_key", id: revoked.id, deleted: true };
      },
      { detail: { summary: "Revoke an API key", tags: ["API keys"] } },
    );
}
