/**
 * Who may do what: the scopes, the caller every service receives (`Actor`) and the one check of a scope
 * (`requireScope`). Every area checks its rights here, below all of them, so no area imports another to ask
 * whether a caller may act. Invariants: a test key is a sandbox whatever scopes it was given (docs/keys-and-limits.md); a viewer
 * reads no message content (docs/teams.md).
 */
import { AppError } from "./errors.ts";
import type { PresentedLink } from "./lib/signed-links.ts";

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
  // Operations (docs/operations.md): the queue, its pauses, and the organisation's settings. Last, so that keys made before
  // them keep their scopes in canonical order when migration 0017 adds them to full-access keys.
  "deliveries:read",
  "deliveries:write",
  "organization:read",
  "organization:write",
  // Teams (docs/teams.md): the organisation's people and its audit log. Last, for the reason above (migration 0019).
  "members:read",
  "members:write",
  "audit:read",
  // The audience (docs/contacts.md#scopes): contacts, properties, segments, topics, imports. Last (migration 0034).
  "contacts:read",
  "contacts:write",
  // The request log (docs/logs-and-mcp.md): last, for the reason above (migration 0039).
  "logs:read",
] as const;

export type Scope = (typeof SCOPES)[number];

export const SCOPE_PRESETS: Record<string, readonly Scope[]> = {
  full_access: SCOPES,
  sending_access: ["emails:send"],
};

export type KeyMode = "live" | "test";

export type Role = "owner" | "admin" | "developer" | "viewer";

/**
 * What each role may do (docs/teams.md), as the scopes a key would hold, so that one check serves both. An owner and an
 * admin hold every scope; what sets them apart (owners, and the organisation itself) is checked where members
 * change. A developer works with the mail and its settings and mints keys within its role, but neither manages
 * people nor changes the organisation; a viewer reads, without keys, received mail or the audit log — and reads
 * records without their content (`mayReadContent`).
 */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  owner: SCOPES,
  admin: SCOPES,
  developer: SCOPES.filter(
    (scope) => !scope.startsWith("members:") && scope !== "audit:read" && scope !== "organization:write",
  ),
  viewer: [
    "emails:read",
    "domains:read",
    "templates:read",
    "webhooks:read",
    "suppressions:read",
    "deliveries:read",
    "organization:read",
    "contacts:read",
  ],
};

/**
 * What a test key may use whatever scopes it was given (docs/keys-and-limits.md: test keys are a sandbox). It sends and reads
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
  // Its own requests and those of other test keys only (docs/logs-and-mcp.md#the-request-log).
  "logs:read",
]);

/** Whether the actor may use `scope` now: it holds the scope and, for a test key, the sandbox allows it. */
export function mayUse(actor: Pick<Actor, "mode" | "scopes">, scope: Scope): boolean {
  return actor.scopes.has(scope) && (actor.mode === "live" || TEST_MODE_SCOPES.has(scope));
}

/** Turns a presented credential (an API key today) into the caller, or throws `unauthorized`. */
export interface Authenticator {
  authenticate(token: string): Promise<Actor>;
}

/** Turns a signed-in person's session token into the caller, in one of their organisations (default: the first). */
export interface SessionAuthenticator {
  authenticateSession(token: string, organizationId?: string): Promise<Actor>;
}

/** Who is calling: resolved from an API key (HTTP, SMTP), a signed-in person's session, or the operator (CLI). */
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
  /** The key's messages per UTC day (docs/operations.md); null: none of its own (the organisation's still applies). */
  keyDailyQuota: number | null;
  /**
   * The daily quotas of the keys this key was minted from, nearest first (those that have one): what it sends counts
   * against each of them too, so minting never multiplies a quota (docs/keys-and-limits.md). Absent: none.
   */
  ancestorQuotas?: readonly { keyId: string; dailyQuota: number }[];
  /** The key's name, for the audit log (null for the operator and for people). */
  keyName?: string | null;
  /** Where the request came from (HTTP), for the audit log. */
  client?: { ip: string | null; userAgent: string | null };
  /** The signed-in person and their role in this organisation (a session); null for an API key or the CLI. */
  user: { id: string; email: string; name: string; role: Role; instanceAdmin: boolean } | null;
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
    keyDailyQuota: null,
    user: null,
  };
}

/** Throws 403 `insufficient_scope` unless the actor may use `scope`, saying why: a missing scope, or the sandbox. */
export function requireScope(actor: Actor, scope: Scope): void {
  if (mayUse(actor, scope)) return;
  if (!actor.scopes.has(scope) && actor.user)
    throw new AppError(
      "insufficient_scope",
      actor.user.role === "viewer" && scope === "inbound:read"
        ? `Viewers do not read received mail: it is all message content, which may hold other people's password-reset links (${ASK_FOR_MORE}).`
        : `Your role (${actor.user.role}) does not allow "${scope}" (${ASK_FOR_MORE}).`,
    );
  if (!actor.scopes.has(scope)) throw new AppError("insufficient_scope", `This API key lacks the "${scope}" scope.`);
  throw new AppError(
    "insufficient_scope",
    `Test keys are a sandbox and cannot use the "${scope}" scope: ${TEST_KEYS_MAY}. Use a live key for this.`,
  );
}

const ASK_FOR_MORE = "an owner or admin can give you a role that does";

/**
 * Whether the actor reads message content — html, text, the raw message, attachments — beside the records
 * (docs/teams.md#roles): a viewer does not, since mail holds other people's password-reset links. A role's, not a scope's: a key with
 * `emails:read` reads bodies as Resend's do, and a viewer mints no keys to get round it.
 */
export function mayReadContent(actor: Pick<Actor, "user">): boolean {
  return actor.user?.role !== "viewer";
}

/** Throws 403 `insufficient_scope` unless the actor reads message content, saying why (`mayReadContent`). */
export function requireContentAccess(actor: Actor): void {
  if (!mayReadContent(actor))
    throw new AppError(
      "insufficient_scope",
      "Viewers read records, not message content (HTML, text, the raw message, attachments): mail holds other people's password-reset links. An owner or admin can give you the developer role.",
    );
}

export const TEST_KEYS_MAY =
  "they send, list and read test-mode mail, read domains and templates, manage test keys, and read test keys' request log";

/** Who asks for a download: an API caller, or the holder of a signed link (lib/signed-links.ts). */
export type DownloadAccess = { actor: Actor } | { link: PresentedLink };
