/**
 * API keys as the API shows them (docs/keys-and-limits.md#api-keys) and as callers ask for them — the answers written
 * once, as the schemas that type the service and document the routes; scopes and the caller live in src/access.ts.
 */
import { type Static, Type as t } from "@sinclair/typebox";
import { SCOPES, type KeyMode } from "../access.ts";
import { named, Nullable, OneOf } from "../lib/wire.ts";

const ModeSchema = OneOf(["live", "test"], { description: "test keys send into the sandbox only" });

export const ApiKeySchema = named(
  "ApiKey",
  t.Object({
    object: t.Literal("api_key"),
    id: t.String({ format: "uuid" }),
    name: t.String(),
    mode: ModeSchema,
    token_prefix: t.String({
      description: "The first characters of the key, enough to recognise it, never enough to use it",
    }),
    scopes: t.Array(OneOf(SCOPES)),
    domains: Nullable(t.Array(t.String()), { description: "The sending domains it is restricted to; null: any" }),
    rate_limit_per_minute: Nullable(t.Integer()),
    daily_quota: Nullable(t.Integer(), { description: "Messages per UTC day; null: none of its own" }),
    created_at: t.String({ format: "date-time" }),
    last_used_at: Nullable(t.String({ format: "date-time" })),
    revoked_at: Nullable(t.String({ format: "date-time" })),
  }),
);
export type ApiKeyView = Static<typeof ApiKeySchema>;

/** A new key as the API and the CLI answer it: Resend's `{id, token}` with the key's record. */
export const CreateApiKeyResponseSchema = named(
  "CreateApiKeyResponse",
  t.Composite([
    ApiKeySchema,
    t.Object({ token: t.String({ description: "The full key: shown in this answer only" }) }),
  ]),
);

/** Resend's rename answer. */
export const UpdateApiKeyResponseSchema = named(
  "UpdateApiKeyResponse",
  t.Object({ object: t.Literal("api_key"), id: t.String({ format: "uuid" }) }),
);

/** What the calling key or person may do (`GET /v1/api-keys/current`). */
export const CurrentApiKeySchema = named(
  "CurrentApiKey",
  t.Object({
    object: t.Literal("api_key"),
    id: Nullable(t.String({ format: "uuid" }), { description: "The calling key's id; null for a signed-in person" }),
    mode: ModeSchema,
    scopes: t.Array(OneOf(SCOPES), {
      description: "The scopes it may use (a test key's within the sandbox)",
    }),
    domains: Nullable(t.Array(t.String()), { description: "The sending domains it is restricted to; null: any" }),
    reads_message_content: t.Boolean({
      description: "Whether it reads messages' html, text, raw and attachments (a viewer does not)",
    }),
  }),
);

export interface CreatedApiKey extends ApiKeyView {
  /** The full key, returned once. */
  key: string;
}

export function createdKeyAnswer({ key, ...view }: CreatedApiKey): Static<typeof CreateApiKeyResponseSchema> {
  return { ...view, token: key };
}

export interface CreateKeyInput {
  name: string;
  /** Scope names or preset names (`full_access`, `sending_access`). */
  scopes: string[];
  mode?: KeyMode;
  domains?: string[] | null;
  rateLimitPerMinute?: number | null;
  dailyQuota?: number | null;
}
