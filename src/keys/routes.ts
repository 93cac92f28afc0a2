/**
 * HTTP routes for API keys (docs/keys-and-limits.md#api-keys), in Resend's shapes: create (201 `{id, token}`; the
 * token is in this one answer), list (active keys, paged), rename, revoke (`{object, id, deleted}`), and `current`:
 * what the calling key itself may do — each route one contract (http/contract.ts).
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { mayReadContent, mayUse } from "../access.ts";
import type { DomainService } from "../domains/service.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import { DeletedOf, ListOf, PageQuery } from "../lib/wire.ts";
import {
  ApiKeySchema,
  CreateApiKeyResponseSchema,
  CurrentApiKeySchema,
  createdKeyAnswer,
  UpdateApiKeyResponseSchema,
} from "./model.ts";
import type { KeyService } from "./service.ts";
import { CreateKeySchema, parseCreateKey, RenameKeySchema } from "./validate.ts";

const tags = ["API keys"];
const Id = t.Object({ id: t.String({ description: "The key's id" }) });

export function keyRoutes(deps: AuthDeps & { keys: KeyService; domains: DomainService }) {
  const { keys, domains } = deps;
  return mount(new Elysia().use(authenticated(deps)), bodyLimits(deps.config), [
    route(
      {
        method: "POST",
        path: "/v1/api-keys",
        summary: "Create an API key (the token is shown once)",
        tags,
        body: CreateKeySchema,
        responses: { 201: CreateApiKeyResponseSchema },
      },
      async ({ actor, body }) => {
        const { domainId, ...input } = parseCreateKey(body);
        if (domainId !== undefined) input.domains = [...(input.domains ?? []), await domains.nameOf(actor, domainId)];
        return createdKeyAnswer(await keys.create(actor, input));
      },
    ),
    route(
      {
        method: "GET",
        path: "/v1/api-keys",
        summary: "List API keys, newest first (revoked ones with include_revoked=true)",
        tags,
        query: t.Object({
          ...PageQuery,
          include_revoked: t.Optional(t.Boolean({ description: "Include revoked keys" })),
        }),
        responses: { 200: ListOf(ApiKeySchema) },
      },
      ({ actor, query }) =>
        keys.list(actor, {
          limit: query.limit ?? 20,
          after: query.after,
          before: query.before,
          includeRevoked: query.include_revoked === true,
        }),
    ),
    route(
      {
        method: "GET",
        path: "/v1/api-keys/current",
        summary:
          "What the calling key or person may do: its id, mode, the scopes it may use (a test key's within the sandbox), sending domains, and whether it reads message content (a viewer does not); any key may ask, and the admin UI shows only what these allow",
        tags,
        responses: { 200: CurrentApiKeySchema },
      },
      ({ actor }) => ({
        object: "api_key" as const,
        id: actor.keyId,
        mode: actor.mode,
        scopes: [...actor.scopes].filter((scope) => mayUse(actor, scope)),
        domains: actor.domains && [...actor.domains],
        // Message content (html, text, raw, attachments) is a role's matter, not a scope's: a viewer reads none.
        reads_message_content: mayReadContent(actor),
      }),
    ),
    route(
      {
        method: "PATCH",
        path: "/v1/api-keys/:id",
        summary: "Rename an API key",
        tags,
        params: Id,
        body: RenameKeySchema,
        responses: { 200: UpdateApiKeyResponseSchema },
      },
      async ({ actor, params, body }) => {
        const renamed = await keys.rename(actor, params.id, body.name);
        return { object: "api_key" as const, id: renamed.id };
      },
    ),
    route(
      {
        method: "DELETE",
        path: "/v1/api-keys/:id",
        summary: "Revoke an API key",
        tags,
        params: Id,
        responses: { 200: DeletedOf("api_key") },
      },
      async ({ actor, params }) => {
        const revoked = await keys.revoke(actor, params.id);
        return { object: "api_key" as const, id: revoked.id, deleted: true as const };
      },
    ),
  ]);
}
