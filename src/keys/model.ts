/** API keys as the API shows them and as callers ask for them; scopes and the caller live in src/access.ts. */
import type { KeyMode, Scope } from "../access.ts";

export interface ApiKeyView {
  object: "api_key";
  id: string;
  name: string;
  mode: KeyMode;
  /** The first characters of the key, enough to recognise it, never enough to use it. */
  token_prefix: string;
  scopes: Scope[];
  domains: string[] | null;
  rate_limit_per_minute: number | null;
  /** Messages per UTC day (DESIGN §12); null: none of its own. */
  daily_quota: number | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface CreatedApiKey extends ApiKeyView {
  /** The full key, returned once. */
  key: string;
}

/** A new key as the API and the CLI answer it: Resend's `{id, token}` with the key's record. */
export function createdKeyAnswer({ key, ...view }: CreatedApiKey): ApiKeyView & { token: string } {
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
