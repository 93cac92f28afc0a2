/**
 * The create-key and rename bodies (docs/keys-and-limits.md): Resend's `{name, permission?, domain_id?}` with Mailroom's
 * extensions `scopes`, `mode`, `rate_limit` and `daily_quota`. The schemas are the routes' documentation and their shape check;
 * the rules here are what a schema cannot say. Pure: no store, no framework; every problem with its path.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { named } from "../lib/wire.ts";
import { validationError, type ErrorDetail } from "../errors.ts";
import type { CreateKeyInput } from "./model.ts";

export const CreateKeySchema = named(
  "CreateApiKeyOptions",
  t.Object(
    {
      name: t.String(),
      permission: t.Optional(
        t.Union([t.Literal("full_access"), t.Literal("sending_access")], {
          description: "Resend's presets (default full_access)",
        }),
      ),
      domain_id: t.Optional(t.String({ description: "Restrict sending to this domain (id or name)" })),
      scopes: t.Optional(t.Array(t.String(), { description: "Fine-grained scopes instead of permission" })),
      mode: t.Optional(t.Union([t.Literal("live"), t.Literal("test")])),
      domains: t.Optional(t.Array(t.String(), { description: "Restrict sending to these domains" })),
      rate_limit: t.Optional(t.Integer({ minimum: 1, description: "Requests per minute for this key" })),
      rate_limit_per_minute: t.Optional(t.Integer({ minimum: 1, description: "Earlier name of rate_limit" })),
      daily_quota: t.Optional(t.Integer({ minimum: 1, description: "Messages per UTC day this key may send" })),
    },
    { additionalProperties: false },
  ),
);

export const RenameKeySchema = named(
  "UpdateApiKeyOptions",
  t.Object({ name: t.String() }, { additionalProperties: false }),
);

/** The input, with `domainId` still to be resolved to its name by the caller. */
export function parseCreateKey(body: Static<typeof CreateKeySchema>): CreateKeyInput & { domainId?: string } {
  const problems: ErrorDetail[] = [];
  if (body.permission !== undefined && body.scopes !== undefined)
    problems.push({ path: "scopes", message: "give permission or scopes, not both" });
  if (problems.length) throw validationError(problems);
  return {
    name: body.name,
    scopes: body.scopes ?? [body.permission ?? "full_access"],
    mode: body.mode,
    domains: body.domains,
    // `rate_limit_per_minute` is the field's earlier name, still accepted.
    rateLimitPerMinute: body.rate_limit ?? body.rate_limit_per_minute,
    dailyQuota: body.daily_quota,
    domainId: body.domain_id,
  };
}
