/** API-key scopes, presets and the authenticated caller (`Actor`) every service receives. */

export const SCOPES = [
  "emails:send",
  "emails:read",
  "domains:read",
  "domains:write",
  "templates:read",
  "templates:write",
  "webhooks:read",
  "webhooks:write",
  "suppressions:read",
  "suppressions:write",
  "inbound:read",
  "api_keys:read",
  "api_keys:write",
  "ai:use",
] as const;

export type Scope = (typeof SCOPES)[number];

export const SCOPE_PRESETS: Record<string, readonly Scope[]> = {
  full_access: SCOPES,
  sending_access: ["emails:send"],
};

export type KeyMode = "live" | "test";

/**
 * What a test key may use whatever scopes it was given (DESIGN §3: test keys are a sandbox). It sends and reads
 * test-mode mail, reads domains and templates, scores subjects, and lists and makes test keys; every change to
 * shared live state (domains, suppressions, webhooks, templates, live keys) and every read of live data
 * (suppressions, webhooks and their payloads, received mail) is refused.
 */
export const TEST_MODE_SCOPES: ReadonlySet<Scope> = new Set<Scope>([
  "emails:send",
  "emails:read",
  "domains:read",
  "templates:read",
  "api_keys:read",
  "api_keys:write",
  "ai:use",
]);

/** Whether the actor may use `scope` now: it holds the scope and, for a test key, the sandbox allows it. */
export function mayUse(actor: Pick<Actor, "mode" | "scopes">, scope: Scope): boolean {
  return actor.scopes.has(scope) && (actor.mode === "live" || TEST_MODE_SCOPES.has(scope));
}

/** Who is calling: resolved from an API key (HTTP, SMTP) or the local operator (CLI). */
export interface Actor {
  organizationId: string;
  /** Null for the operator acting through the CLI. */
  keyId: string | null;
  mode: KeyMode;
  scopes: ReadonlySet<Scope>;
  /** Sending domains the key is restricted to; null when unrestricted. */
  domains: readonly string[] | null;
  /** Per-key limit override (requests per minute); null uses the configured default. */
  keyRateLimit: number | null;
  /** Per-organisation limit override; null uses the configured default. */
  orgRateLimit: number | null;
}

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
}

/** The operator at the console (CLI, first start, tests): every scope over one organisation, no key of its own. */
export function operatorActor(organizationId: string): Actor {
  return {
    organizationId,
    keyId: null,
    mode: "live",
    scopes: new Set(SCOPES),
    domains: null,
    keyRateLimit: null,
    orgRateLimit: null,
  };
}
