/**
 * Authentication and rate limiting for the API: `Authorization: Bearer <key>`, or the `mailroom_session` cookie of
 * a signed-in person (docs/teams.md) → `actor`, then one count in the key's (if any) and the organisation's sliding
 * windows, with `RateLimit-*` headers on every authenticated response.
 * Invariants: every route under this plugin has an authenticated, rate-checked actor before its handler runs; a
 * request carrying both a key and a session is refused; a change made with a session cookie must come from this
 * origin (its `Origin` header), so another site cannot make a signed-in browser act (CSRF).
 */
import { Elysia } from "elysia";
import type { Actor, Authenticator, SessionAuthenticator } from "../access.ts";
import type { Config } from "../config/options.ts";
import { AppError, validationError } from "../errors.ts";
import { clientOf, type RequestServer } from "./client.ts";
import { chargeRequest, type RateLimiter } from "../limits/rate-limiter.ts";
import { traceOf } from "./request-trace.ts";

export const SESSION_COOKIE = "mailroom_session";
/** Which of a person's organisations a request acts in (default: their first). */
export const ORGANIZATION_HEADER = "mailroom-organization";

export interface AuthDeps {
  keys: Authenticator;
  /** Sessions of signed-in people; without it only API keys are accepted. */
  people?: SessionAuthenticator;
  limiter: RateLimiter;
  config: Config;
}

/** The value of the cookie `wanted` in a `Cookie` header, if any. */
export function cookieValue(cookieHeader: string | undefined, wanted: string): string | undefined {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === wanted && value.length) return value.join("=");
  }
  return undefined;
}

/** The value of the session cookie in a `Cookie` header, if any. */
export const sessionToken = (cookieHeader: string | undefined) => cookieValue(cookieHeader, SESSION_COOKIE);

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether `origin` is this server: the origin the request was addressed to (its Host, with the scheme the request
 * or `[http] public_url` says), or `public_url`'s own.
 */
function sameOrigin(origin: string, request: Request, config: Config): boolean {
  let asked: URL;
  try {
    asked = new URL(origin);
  } catch {
    return false;
  }
  const addressed = new URL(request.url);
  const host = request.headers.get("host") ?? addressed.host;
  const publicUrl = config.http.public_url ? new URL(config.http.public_url) : undefined;
  if (publicUrl && asked.origin === publicUrl.origin) return true;
  return asked.host === host && asked.protocol === (publicUrl?.protocol ?? addressed.protocol);
}

/** The caller of a request, counted once in its rate-limit windows (headers set). */
export async function authenticateRequest(
  deps: AuthDeps,
  request: Request,
  set: { headers: Record<string, unknown> },
  server: RequestServer = null,
): Promise<Actor> {
  const authorization = request.headers.get("authorization");
  const session = deps.people ? sessionToken(request.headers.get("cookie") ?? undefined) : undefined;
  let actor: Actor;
  if (session && authorization)
    throw validationError([
      {
        path: "authorization",
        message: "send an API key or a session cookie, not both: they may act for different people",
      },
    ]);
  if (session) {
    const origin = request.headers.get("origin");
    if (!SAFE_METHODS.has(request.method) && !(origin && sameOrigin(origin, request, deps.config)))
      throw new AppError(
        "insufficient_scope",
        "A change made with a session must come from this server's own pages (its Origin header did not match).",
      );
    actor = await deps.people!.authenticateSession(session, request.headers.get(ORGANIZATION_HEADER) ?? undefined);
  } else {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!match) throw new AppError("unauthorized", "Missing API key: send Authorization: Bearer <API_KEY>.");
    actor = await deps.keys.authenticate(match[1]!);
  }
  // Where the request came from goes with the caller, for the audit log of what it changes.
  actor = { ...actor, client: clientOf(request, server) };
  // Known before the rate check: a refused request is in the request log too (docs/logs-and-mcp.md).
  traceOf(request).actor = actor;
  const decision = await chargeRequest(deps, actor);
  set.headers["ratelimit-limit"] = String(decision.limit);
  set.headers["ratelimit-remaining"] = String(decision.remaining);
  set.headers["ratelimit-reset"] = String(decision.resetSeconds);
  set.headers["ratelimit-policy"] = decision.policy;
  if (!decision.allowed) {
    throw new AppError("rate_limit_exceeded", `Too many requests; retry after ${decision.retryAfterSeconds} s.`, {
      retryAfter: decision.retryAfterSeconds,
    });
  }
  return actor;
}

/** A fresh plugin per area (unnamed, so Elysia never de-duplicates it away from a later area). */
export function authenticated(deps: AuthDeps) {
  return new Elysia().resolve(
    { as: "scoped" },
    async ({ request, set, server }): Promise<{ actor: Actor }> => ({
      actor: await authenticateRequest(deps, request, set, server),
    }),
  );
}
