/**
 * Request limits per API key and per organisation over any sliding 60 s window (DESIGN §3). Two keepers of the
 * windows, both exact: in memory for a store one instance owns (each bucket keeps the times of its last `limit`
 * admitted requests in a ring; O(1) per check), and in the store when instances share it (each admission is a
 * row; a check is one transaction of a constant number of statements, serialised per bucket with a lock, so
 * instances never admit more than the limit between them).
 * Invariant: a request is counted in both buckets or in neither — a refused request consumes nothing.
 */
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Config } from "../config/schema.ts";
import { commitWithoutWaitingForDisk, lockNames } from "../db/dialect.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import type { Actor } from "../access.ts";
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
  take(subject: RateSubject): Promise<RateDecision>;
}

interface RateSubject {
  keyId: string | null;
  organizationId: string;
  keyLimit: number;
  orgLimit: number;
}

/** A bucket's state at the moment of a check. */
interface BucketState {
  name: "key" | "organization";
  limit: number;
  used: number;
  /** Seconds until the oldest admission inside the window leaves it (0 when the window is empty). */
  resetSeconds: number;
}

/** The buckets a subject is counted in: its key's (the CLI operator has none) and its organisation's. */
const bucketsOf = ({ keyId, organizationId, keyLimit, orgLimit }: RateSubject) => [
  ...(keyId ? [{ id: `key:${keyId}`, name: "key" as const, limit: keyLimit }] : []),
  { id: `org:${organizationId}`, name: "organization" as const, limit: orgLimit },
];

/** The answer for the buckets as they were before this request; `allowed` counts it in each. */
function decide(states: BucketState[]): RateDecision {
  const blocking = states.filter((state) => state.used >= state.limit);
  const allowed = blocking.length === 0;
  const tightest = states
    .map((state) => ({
      limit: state.limit,
      remaining: Math.max(0, state.limit - state.used - (allowed ? 1 : 0)),
      // Admitted into an empty window, this request is its oldest: a full window until it leaves.
      reset: allowed && state.used === 0 ? WINDOW_MS / 1000 : state.resetSeconds,
    }))
    .reduce((a, b) => (b.remaining < a.remaining ? b : a));
  return {
    allowed,
    limit: tightest.limit,
    remaining: tightest.remaining,
    resetSeconds: tightest.reset,
    retryAfterSeconds: allowed ? 0 : Math.max(...blocking.map((state) => state.resetSeconds)),
    policy: states.map((state) => `${state.limit};w=60;comment="${state.name}"`).join(", "),
  };
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
    async take(subject) {
      const now = clock.now();
      const windows = bucketsOf(subject).map((b) => ({ ...b, window: bucket(b.id, b.limit) }));
      const decision = decide(
        windows.map(({ name, limit, window }) => ({
          name,
          limit,
          used: window.used(now),
          resetSeconds: window.resetSeconds(now),
        })),
      );
      if (decision.allowed) for (const { window } of windows) window.admit(now);
      return decision;
    },
  };
}

/** The windows kept in the store, for instances sharing it. */
export function createStoreRateLimiter(deps: { db: Db; writer: Writer; clock: Clock }): RateLimiter {
  const { writer, clock } = deps;
  const { rateLimitAdmissions: admissions } = tablesOf(deps.db);
  return {
    take(subject) {
      const buckets = bucketsOf(subject);
      return writer.write(async (tx) => {
        // An admission lost in a crash only lets one more request through; waiting for the disk under the lock
        // would serialise every request of the organisation behind an fsync.
        await commitWithoutWaitingForDisk(tx);
        await lockNames(
          tx,
          buckets.map((b) => `rate:${b.id}`),
        );
        const now = clock.now();
        const states: BucketState[] = [];
        for (const b of buckets) {
          const row = await first(
            tx
              .select({
                used: sql<number>`count(*)`.mapWith(Number),
                oldest: sql<number | null>`min(${admissions.admittedAt})`.mapWith(Number),
              })
              .from(admissions)
              .where(and(eq(admissions.bucket, b.id), gt(admissions.admittedAt, now - WINDOW_MS))),
          );
          const oldest = row?.oldest ?? null;
          states.push({
            name: b.name,
            limit: b.limit,
            used: row?.used ?? 0,
            resetSeconds: oldest === null ? 0 : Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)),
          });
        }
        const decision = decide(states);
        if (decision.allowed)
          await tx.insert(admissions).values(buckets.map((b) => ({ bucket: b.id, admittedAt: now })));
        return decision;
      });
    },
  };
}

/** Forgets admissions that have left every window (a periodic job of stores instances share). */
export async function pruneAdmissions(deps: { db: Db; writer: Writer; clock: Clock }): Promise<void> {
  const { rateLimitAdmissions: admissions } = tablesOf(deps.db);
  await deps.writer.write(
    async (tx) => void (await tx.delete(admissions).where(lt(admissions.admittedAt, deps.clock.now() - WINDOW_MS))),
  );
}

/**
 * Counts one authenticated request (HTTP) or one message (SMTP) of `actor` against its key's and organisation's
 * windows, with their configured or per-key limits. The one entry point both front ends use, so they share limits.
 */
export function chargeRequest(deps: { limiter: RateLimiter; config: Config }, actor: Actor): Promise<RateDecision> {
  return deps.limiter.take({
    keyId: actor.keyId,
    organizationId: actor.organizationId,
    keyLimit: actor.keyRateLimit ?? deps.config.limits.key_requests_per_minute,
    orgLimit: actor.orgRateLimit ?? deps.config.limits.org_requests_per_minute,
  });
}

/**
 * The entry of `subject` in `entries`, made with `fresh` when absent, now the most recently seen (a Map keeps
 * insertion order); past `maxTracked` subjects the least recently seen is forgotten, so memory stays bounded
 * whoever connects. The per-subject abuse limits of the inbound MX keep their subjects this way.
 */
export function recentEntry<V>(entries: Map<string, V>, subject: string, fresh: () => V, maxTracked: number): V {
  const entry = entries.get(subject) ?? fresh();
  entries.delete(subject);
  entries.set(subject, entry);
  if (entries.size > maxTracked) entries.delete(entries.keys().next().value!);
  return entry;
}

/**
 * One sliding 60 s window per subject (a client network of the inbound MX), kept in this instance's memory: an
 * abuse limit, not an account's quota. At most `maxTracked` subjects are remembered; the least recently seen go
 * first.
 */
export function createSubjectWindows(clock: Clock, limit: number, maxTracked = 10_000) {
  const windows = new Map<string, SlidingWindow>();
  return {
    /** Counts one event for `subject` when its window has room; otherwise the seconds until it has. */
    take(subject: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
      const now = clock.now();
      const window = recentEntry(windows, subject, () => new SlidingWindow(limit), maxTracked);
      if (window.full(now)) return { allowed: false, retryAfterSeconds: window.resetSeconds(now) };
      window.admit(now);
      return { allowed: true };
    },
  };
}
