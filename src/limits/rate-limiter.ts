/**
 * Request limits per API key and per organisation over any sliding 60 s window (DESIGN §3). Each bucket keeps
 * the times of its last `limit` admitted requests in a ring: a request is admitted when fewer than `limit` fall
 * inside the window, i.e. when the ring is not full or its oldest entry has left the window. Exact, O(1) per check.
 * Invariant: a request is counted in both buckets or in neither — a refused request consumes nothing.
 */
import type { Config } from "../config/schema.ts";
import type { Actor } from "../keys/model.ts";
import type { Clock } from "../lib/clock.ts";

export const WINDOW_MS = 60_000;

class SlidingWindow {
  /** Admitted times, oldest at `head` (a ring once `limit` entries exist). */
  private readonly times: number[] = [];
  private head = 0;

  constructor(public limit: number) {}

  private at(i: number): number {
    return this.times[(this.head + i) % this.times.length]!;
  }

  /** Index (oldest = 0) of the first admitted time still inside the window; binary search, times are ordered. */
  private firstInWindow(now: number): number {
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.at(mid) > now - WINDOW_MS) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  used(now: number): number {
    return this.times.length - this.firstInWindow(now);
  }

  /** Seconds until the oldest request inside the window leaves it (0 when the window is empty). */
  resetSeconds(now: number): number {
    const first = this.firstInWindow(now);
    return first < this.times.length ? Math.max(1, Math.ceil((this.at(first) + WINDOW_MS - now) / 1000)) : 0;
  }

  full(now: number): boolean {
    return this.used(now) >= this.limit;
  }

  admit(now: number): void {
    if (this.times.length < this.limit) this.times.push(now);
    else {
      this.times[this.head] = now;
      this.head = (this.head + 1) % this.limit;
    }
  }

  /** When the limit changes (config or key edit) the newest history is kept up to the new size. */
  resize(limit: number): void {
    if (limit === this.limit) return;
    const ordered = [...this.times.slice(this.head), ...this.times.slice(0, this.head)].slice(-limit);
    this.times.length = 0;
    this.times.push(...ordered);
    this.head = 0;
    this.limit = limit;
  }
}

export interface RateDecision {
  allowed: boolean;
  /** The tighter bucket's figures, for the RateLimit-* headers. */
  limit: number;
  remaining: number;
  /** Seconds until a slot frees in the tighter bucket (0 when one is free now). */
  resetSeconds: number;
  /** Seconds to wait when refused. */
  retryAfterSeconds: number;
  policy: string;
}

export interface RateLimiter {
  /** Checks and, when allowed, counts one request against the key's and the organisation's windows. */
  take(subject: { keyId: string | null; organizationId: string; keyLimit: number; orgLimit: number }): RateDecision;
}

export function createRateLimiter(clock: Clock): RateLimiter {
  const buckets = new Map<string, SlidingWindow>();
  const bucket = (id: string, limit: number) => {
    let window = buckets.get(id);
    if (!window) buckets.set(id, (window = new SlidingWindow(limit)));
    else window.resize(limit);
    return window;
  };

  return {
    take({ keyId, organizationId, keyLimit, orgLimit }) {
      const now = clock.now();
      const windows: Array<{ window: SlidingWindow; name: string }> = [{ window: bucket(`org:${organizationId}`, orgLimit), name: "organization" }];
      // The CLI operator has no key; only the organisation's window applies to it.
      if (keyId) windows.unshift({ window: bucket(`key:${keyId}`, keyLimit), name: "key" });
      const blocking = windows.filter(({ window }) => window.full(now));
      const allowed = blocking.length === 0;
      if (allowed) for (const { window } of windows) window.admit(now);
      const tightest = windows
        .map(({ window }) => ({ limit: window.limit, remaining: Math.max(0, window.limit - window.used(now)), reset: window.resetSeconds(now) }))
        .reduce((a, b) => (b.remaining < a.remaining ? b : a));
      return {
        allowed,
        limit: tightest.limit,
        remaining: tightest.remaining,
        resetSeconds: tightest.reset,
        retryAfterSeconds: allowed ? 0 : Math.max(...blocking.map(({ window }) => window.resetSeconds(now))),
        policy: windows.map(({ window, name }) => `${window.limit};w=60;comment="${name}"`).join(", "),
      };
    },
  };
}

/**
 * Counts one authenticated request (HTTP) or one message (SMTP) of `actor` against its key's and organisation's
 * windows, with their configured or per-key limits. The one entry point both front ends use, so they share limits.
 */
export function chargeRequest(deps: { limiter: RateLimiter; config: Config }, actor: Actor): RateDecision {
  return deps.limiter.take({
    keyId: actor.keyId,
    organizationId: actor.organizationId,
    keyLimit: actor.keyRateLimit ?? deps.config.limits.key_requests_per_minute,
    orgLimit: actor.orgRateLimit ?? deps.config.limits.org_requests_per_minute,
  });
}
