/**
 * Authentication and rate limiting for the API: `Authorization: Bearer <key>` → `actor`, then one count in the
 * key's and the organisation's sliding windows, with `RateLimit-*` headers on every authenticated response.
 * Invariant: every route under this plugin has an authenticated, rate-checked actor before its handler runs.
 */
import { Elysia } from "elysia";
import type { Config } from "../config/schema.ts";
import { AppError } from "../errors.ts";
import type { Actor, Authenticator } from "../access.ts";
import { chargeRequest, type RateLimiter } from "../limits/rate-limiter.ts";

export interface AuthDeps {
  keys: Authenticator;
  limiter: RateLimiter;
  config: Config;
}

/** The actor of a request's `Authorization: Bearer <key>`, counted once in its rate-limit windows (headers set). */
export async function authenticateRequest(
  deps: AuthDeps,
  headers: Record<string, string | undefined>,
  set: { headers: Record<string, unknown> },
): Promise<Actor> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? "");
  if (!match) throw new AppError("unauthorized", "Missing API key: send Authorization: Bearer <API_KEY>.");
  const actor = await deps.keys.authenticate(match[1]!);
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
    async ({ headers, set }): Promise<{ actor: Actor }> => ({ actor: await authenticateRequest(deps, headers, set) }),
  );
}
