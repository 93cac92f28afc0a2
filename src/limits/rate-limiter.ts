/**
 * Request limits per API key and per organisation over any sliding 60 s window (DESIGN §3). Two keepers of the
 * windows: in memory, exact to the millisecond, for a store one instance owns (each bucket keeps the times of its
 * last `limit` admitted requests in a ring; O(1) per check); and in the store when instances share it, exact to
 * the second (admissions counted per second; on PostgreSQL a check is one statement, serialised per bucket by a
 * row lock held for that statement only, so instances never admit more than the limit between them).
 * Invariant: a request is counted in both buckets or in neither — a refused request consumes nothing.
 */
import { and, eq, gt, lte, sql } from "drizzle-orm";
import type { Config } from "../config/schema.ts";
import { engineOf, executeRaw } from "../db/dialect.ts";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import type { Actor } from "../access.ts";
import { perTurn } from "../lib/turn-batch.ts";
import type { Clock } from "../lib/clock.ts";

export const WINDOW_MS = 60_000;
const WINDOW_SECONDS = WINDOW_MS / 1000;

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

/** PostgreSQL's text form of an array (JSON's string escapes are the array literal's too). */
const arrayLiteral = (values: Array<string | number>) => `{${values.map((v) => JSON.stringify(v)).join(",")}}`;

/** A bucket's admissions in the window before a check, as the store counts them: by the second. */
interface CountedBucket {
  bucket: string;
  used: number;
  /** The oldest second with an admission inside the window, or null. */
  oldest: number | null;
}

/** Checks of one turn with the same buckets and limits, answered by one count in the store. */
interface CheckGroup {
  buckets: ReturnType<typeof bucketsOf>;
  checks: Array<{ resolve: (decision: RateDecision) => void; reject: (error: unknown) => void }>;
}

/**
 * The windows kept in the store, for instances sharing it. Admissions are counted per bucket and second, so a
 * window is at most 60 rows and an admission leaves it when its whole second has (up to a second early). The
 * checks of one event-loop turn against the same buckets are counted together, in turn order: one statement on
 * PostgreSQL (`mailroom_rate_take`, migration 0015, outside any other transaction: it locks the buckets for its own
 * run only, and its commit does not wait for the disk), one write on SQLite, whose single writer serialises them.
 */
export function createStoreRateLimiter(deps: { db: Db; writer: Writer; clock: Clock }): RateLimiter {
  const { writer, clock } = deps;
  const { rateLimitCounts: counts } = tablesOf(deps.db);

  /** Admits up to `wanted` requests now: the buckets as they were, and how many were admitted (in every bucket). */
  const countOnPostgres = async (buckets: CheckGroup["buckets"], second: number, wanted: number) => {
    const rows = await executeRaw<CountedBucket & { admitted: number }>(
      deps.db,
      sql`SELECT bucket, used, oldest, admitted FROM mailroom_rate_take(${arrayLiteral(buckets.map((b) => b.id))}::text[], ${arrayLiteral(buckets.map((b) => b.limit))}::integer[], ${second}, ${wanted})`,
    );
    return { counted: rows, admitted: Number(rows[0]?.admitted ?? 0) };
  };

  const countOnSqlite = (buckets: CheckGroup["buckets"], second: number, wanted: number) =>
    writer.write(async (tx) => {
      const counted: CountedBucket[] = [];
      for (const b of buckets) {
        const row = await first(
          tx
            .select({
              used: sql<number>`coalesce(sum(${counts.admitted}), 0)`.mapWith(Number),
              oldest: sql<number | null>`min(${counts.second})`,
            })
            .from(counts)
            .where(and(eq(counts.bucket, b.id), gt(counts.second, second - WINDOW_SECONDS))),
        );
        counted.push({ bucket: b.id, used: row?.used ?? 0, oldest: row?.oldest ?? null });
      }
      const admitted = Math.max(0, Math.min(wanted, ...buckets.map((b, i) => b.limit - counted[i]!.used)));
      if (admitted > 0)
        await tx
          .insert(counts)
          .values(buckets.map((b) => ({ bucket: b.id, second, admitted })))
          .onConflictDoUpdate({
            target: [counts.bucket, counts.second],
            set: { admitted: sql`${counts.admitted} + ${admitted}` },
          });
      return { counted, admitted };
    });

  const count = engineOf(deps.db) === "postgres" ? countOnPostgres : countOnSqlite;

  /** Each check of the group in turn: the first `admitted` allowed, the buckets filling as they go. */
  const answer = async ({ buckets, checks }: CheckGroup) => {
    const now = clock.now();
    const second = Math.floor(now / 1000);
    const { counted, admitted } = await count(buckets, second, checks.length);
    const byBucket = new Map(counted.map((row) => [row.bucket, row]));
    checks.forEach((check, i) => {
      const before = Math.min(i, admitted);
      check.resolve(
        decide(
          buckets.map((b) => {
            const row = byBucket.get(b.id);
            const used = Number(row?.used ?? 0);
            const oldest = row?.oldest ?? (before > 0 ? second : null);
            return {
              name: b.name,
              limit: b.limit,
              used: used + before,
              resetSeconds:
                oldest === null ? 0 : Math.max(1, Math.ceil((Number(oldest) * 1000 + WINDOW_MS - now) / 1000)),
            };
          }),
        ),
      );
    });
  };

  const checkTogether = perTurn<{ buckets: CheckGroup["buckets"]; check: CheckGroup["checks"][number] }>((checks) => {
    const groups = new Map<string, CheckGroup>();
    for (const { buckets, check } of checks) {
      const groupKey = buckets.map((b) => `${b.id}:${b.limit}`).join("|");
      let group = groups.get(groupKey);
      if (!group) groups.set(groupKey, (group = { buckets, checks: [] }));
      group.checks.push(check);
    }
    for (const group of groups.values())
      answer(group).catch((error) => {
        for (const check of group.checks) check.reject(error);
      });
  });
  return {
    take(subject) {
      const buckets = bucketsOf(subject);
      return new Promise<RateDecision>((resolve, reject) => checkTogether({ buckets, check: { resolve, reject } }));
    },
  };
}

/** Forgets counts that have left every window (a periodic job of stores instances share). */
export async function pruneAdmissions(deps: { db: Db; writer: Writer; clock: Clock }): Promise<void> {
  const { rateLimitCounts: counts } = tablesOf(deps.db);
  const oldest = Math.floor(deps.clock.now() / 1000) - WINDOW_SECONDS;
  await deps.writer.write(async (tx) => void (await tx.delete(counts).where(lte(counts.second, oldest))));
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
