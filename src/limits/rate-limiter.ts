/**
 * Request limits per API key and per organisation over any sliding 60 s window (docs/keys-and-limits.md). Two keepers of the
 * windows: in memory, exact to the millisecond, for a store one instance owns (each bucket keeps the times of its
 * last `limit` admitted requests in a ring; O(1) per check); and in the store when instances share it, exact to
 * the second (admissions counted per second, taken by each instance in leases of about a second's worth, so
 * instances never admit more than the limit between them; see createStoreRateLimiter).
 * Invariant: a request is counted in both buckets or in neither — a refused request consumes nothing.
 */
import { and, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { Config } from "../config/options.ts";
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

/** Checks of one turn with the same buckets and limits. */
interface CheckGroup {
  key: string;
  buckets: ReturnType<typeof bucketsOf>;
  checks: Array<{ resolve: (decision: RateDecision) => void; reject: (error: unknown) => void }>;
}

/**
 * The admissions this instance took from the store for one second and buckets: it admits from them in memory, and
 * gives back what it did not use once the second is over.
 */
interface Lease {
  second: number;
  /** Admissions the store counted for this instance in `second`. */
  granted: number;
  /** Of them, admitted here. */
  used: number;
  /** Of them, given back. */
  returned: number;
  /** Admitted in the second before, by the lease of that second: what this one expects to need. */
  expected: number;
  /** The buckets as the store last answered, before that answer's admissions, and the admissions here since. */
  counted: CountedBucket[];
  sinceCounted: number;
  /** A timer will give back what is unused once the second is over. */
  givesBackLater?: true;
}

/** Leases remembered; past it the longest unrenewed is forgotten (its timer still gives back what it holds). */
const MAX_LEASES = 10_000;

/** A call to the store: gives back `giveBack` admissions of `giveBackSecond`, then admits up to `wanted` in `second`. */
interface Call {
  buckets: CheckGroup["buckets"];
  second: number;
  wanted: number;
  giveBack: number;
  giveBackSecond: number;
}

/** The admissions the store has counted for `lease` that it neither used nor gave back. */
const unusedOf = (lease: Lease) => lease.granted - lease.used - lease.returned;

/**
 * The windows kept in the store, for instances sharing it. Admissions are counted per bucket and second, so a
 * window is at most 60 rows and an admission leaves it when its whole second has (up to a second early).
 *
 * Leases: checks do not go to the store one by one. An instance takes, in one call, what it expects to admit for
 * the rest of the second (what it admitted in the second before, or at least the checks waiting), admits from that
 * in memory, and gives back what it did not use in its next call or, at the latest, just after the second ends.
 * So the store is asked about once a second per busy bucket rather than once per event-loop turn, and instances do
 * not queue on its row locks. The limit still holds between instances — an admission is counted in the store before
 * it is made — and what an instance holds unused costs others at most that one second's expectation.
 * On PostgreSQL a call is one statement (`mailroom_rate_take`, migrations 0015 and 0016, outside any other
 * transaction: it locks the buckets for its own run only, and its commit does not wait for the disk); on SQLite one
 * write, which its single writer serialises.
 */
export function createStoreRateLimiter(deps: { db: Db; writer: Writer; clock: Clock }): RateLimiter {
  const { writer, clock } = deps;
  const { rateLimitCounts: counts } = tablesOf(deps.db);
  const leases = new Map<string, Lease>();

  const countOnPostgres = async ({ buckets, second, wanted, giveBack, giveBackSecond }: Call) => {
    const rows = await executeRaw<CountedBucket & { admitted: number }>(
      deps.db,
      sql`SELECT bucket, used, oldest, admitted FROM mailroom_rate_take(${arrayLiteral(buckets.map((b) => b.id))}::text[], ${arrayLiteral(buckets.map((b) => b.limit))}::integer[], ${second}, ${wanted}, ${giveBackSecond}, ${giveBack})`,
    );
    return { counted: rows, admitted: Number(rows[0]?.admitted ?? 0) };
  };

  const countOnSqlite = ({ buckets, second, wanted, giveBack, giveBackSecond }: Call) =>
    writer.write(async (tx) => {
      if (giveBack > 0)
        await tx
          .update(counts)
          .set({ admitted: sql`max(0, ${counts.admitted} - ${giveBack})` })
          .where(
            and(
              inArray(
                counts.bucket,
                buckets.map((b) => b.id),
              ),
              eq(counts.second, giveBackSecond),
            ),
          );
      const counted: CountedBucket[] = [];
      for (const b of buckets) {
        const row = await first(
          tx
            .select({
              used: sql<number>`coalesce(sum(${counts.admitted}), 0)`.mapWith(Number),
              oldest: sql<number | null>`min(${counts.second}) FILTER (WHERE ${counts.admitted} > 0)`,
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

  /** The answer for one check of `buckets`, `before` admissions after the store's last count of them. */
  const decision = (buckets: CheckGroup["buckets"], counted: CountedBucket[], before: number, now: number) => {
    const second = Math.floor(now / 1000);
    const byBucket = new Map(counted.map((row) => [row.bucket, row]));
    return decide(
      buckets.map((b) => {
        const row = byBucket.get(b.id);
        const used = Number(row?.used ?? 0);
        const oldest = row?.oldest ?? (before > 0 ? second : null);
        return {
          name: b.name,
          limit: b.limit,
          used: used + before,
          resetSeconds: oldest === null ? 0 : Math.max(1, Math.ceil((Number(oldest) * 1000 + WINDOW_MS - now) / 1000)),
        };
      }),
    );
  };

  /** Gives back what `lease` holds unused, at once (the second it was for is over, and no call came to carry it). */
  const giveBackNow = (buckets: CheckGroup["buckets"], lease: Lease) => {
    const giveBack = unusedOf(lease);
    if (giveBack <= 0) return;
    lease.returned += giveBack;
    count({ buckets, second: lease.second, wanted: 0, giveBack, giveBackSecond: lease.second }).catch(() => {
      // Kept counted: the store was unreachable, and the admissions leave the window within the minute.
    });
  };

  /** The lease of `group` for `second`: the current one, or a new one that carries the last one's give-back. */
  const leaseFor = (group: CheckGroup, second: number) => {
    const last = leases.get(group.key);
    if (last?.second === second) return { lease: last, giveBack: 0, giveBackSecond: second };
    const lease: Lease = {
      second,
      granted: 0,
      used: 0,
      returned: 0,
      expected: last?.second === second - 1 ? last.used : 0,
      counted: [],
      sinceCounted: 0,
    };
    leases.delete(group.key);
    leases.set(group.key, lease);
    if (leases.size > MAX_LEASES) leases.delete(leases.keys().next().value!);
    const giveBack = last ? unusedOf(last) : 0;
    if (last) last.returned += giveBack;
    return { lease, giveBack, giveBackSecond: last?.second ?? second };
  };

  const answer = async (group: CheckGroup) => {
    const now = clock.now();
    const second = Math.floor(now / 1000);
    const { lease, giveBack, giveBackSecond } = leaseFor(group, second);
    const admit = (check: CheckGroup["checks"][number]) => {
      check.resolve(decision(group.buckets, lease.counted, lease.sinceCounted, now));
      lease.used++;
      lease.sinceCounted++;
    };
    const local = Math.min(group.checks.length, unusedOf(lease));
    for (const check of group.checks.slice(0, local)) admit(check);
    const waiting = group.checks.slice(local);
    if (!waiting.length) return;
    // What the rest of this second is expected to need, at least the checks waiting now.
    const expected = Math.ceil((lease.expected * (1000 - (now % 1000))) / 1000);
    const wanted = Math.max(waiting.length, expected - lease.used);
    const { counted, admitted } = await count({ buckets: group.buckets, second, wanted, giveBack, giveBackSecond });
    lease.granted += admitted;
    lease.counted = counted;
    lease.sinceCounted = 0;
    waiting.forEach((check, i) => {
      if (i < admitted) admit(check);
      else check.resolve(decision(group.buckets, counted, admitted, now));
    });
    if (unusedOf(lease) > 0 && !lease.givesBackLater) {
      // The second's unused admissions go back once it is over, should no call of the next carry them.
      lease.givesBackLater = true;
      setTimeout(() => giveBackNow(group.buckets, lease), (second + 1) * 1000 - clock.now() + 10).unref?.();
    }
  };

  const checkTogether = perTurn<{ buckets: CheckGroup["buckets"]; check: CheckGroup["checks"][number] }>((checks) => {
    const groups = new Map<string, CheckGroup>();
    for (const { buckets, check } of checks) {
      const key = buckets.map((b) => `${b.id}:${b.limit}`).join("|");
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { key, buckets, checks: [] }));
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
