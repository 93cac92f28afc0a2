/**
 * Daily quotas (docs/operations.md): messages accepted per UTC day, for an organisation (its live mail, counted whether or
 * not it has a quota, so that its usage is known) and for a key with a quota of its own (all of its mail, and all of
 * the mail of the keys minted from it, at any depth: minting never multiplies a quota, docs/keys-and-limits.md). The day's counts
 * live in `daily_usage`, where every instance sharing the store sees them.
 *
 * Reservations: an acceptance does not write its count in its own transaction — on PostgreSQL every acceptance of
 * an organisation would then queue on one row's lock until its COMMIT (measured: acceptance 0.68×, the store's CPU
 * per message 0.63 → 1.11 ms). An instance instead reserves, in one short write, what it expects to accept for a
 * bucket in the rest of the current second (at least what waits now), admits from that in memory, and gives back
 * what it did not use once the second is over — the pattern of the rate limiter's leases (rate-limiter.ts). A store
 * write per busy bucket and second, whatever the volume.
 *
 * Invariants: the store never grants past a quota, and an admission is reserved in the store before it is made,
 * so instances together never accept more than the quota; an acceptance that fails gives its admissions back; a
 * refusal admits nothing in any bucket. An instance that stops without giving back leaves at most one second's
 * reservation counted for that day (the count errs towards refusing).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "../access.ts";
import { lockedForUpdate } from "../db/dialect.ts";
import { POLICY_CHANGED } from "../db/read-cache.ts";
import { first, tablesOf, type Db, type Store, type Writer } from "../db/store.ts";
import { AppError } from "../errors.ts";
import type { Clock } from "../lib/clock.ts";

const DAY_MS = 86_400_000;

/** The UTC day of `now`, as `YYYY-MM-DD`. */
export const utcDay = (now: number) => new Date(now).toISOString().slice(0, 10);

/** Whole seconds from `now` to the next 00:00 UTC (at least 1). */
export const secondsToNextUtcDay = (now: number) => Math.max(1, Math.ceil((DAY_MS - (now % DAY_MS)) / 1000));

export const organizationBucket = (organizationId: string) => `org:${organizationId}`;
const keyBucket = (keyId: string) => `key:${keyId}`;

/** Messages counted in `bucket` on `day` (`YYYY-MM-DD`), reservations not yet given back included. */
export async function usedOn(db: Db, bucket: string, day: string): Promise<number> {
  const { dailyUsage } = tablesOf(db);
  const row = await first(
    db
      .select({ used: dailyUsage.used })
      .from(dailyUsage)
      .where(and(eq(dailyUsage.bucket, bucket), eq(dailyUsage.day, day))),
  );
  return Number(row?.used ?? 0);
}

/** A bucket and where its quota is read: the organisation's in the store (fresh on every instance), a key's given. */
interface Counted {
  bucket: string;
  quota: { organizationId: string } | { key: number };
}

/** Admissions an instance holds for one bucket and day. */
interface Lease {
  day: string;
  /** Reserved in the store for this instance, and not given back. */
  granted: number;
  /** Of them, admitted. */
  used: number;
  /** Admitted in the current second, and in the one before it (what the next reservation expects). */
  second: number;
  usedThisSecond: number;
  usedLastSecond: number;
  /** The reservation or give-back under way: one store write at a time per bucket. */
  busy?: Promise<unknown>;
  /**
   * The store's answer when a reservation came short: the quota is reached, and further takes this second are
   * refused without asking again (a flood over the quota costs the store one write a second, not one a request),
   * unless the quota changes meanwhile.
   */
  full?: { quota: number; used: number };
  givesBackLater?: boolean;
}

/** Leases remembered; past it the longest unused is forgotten (its timer still gives back what it holds). */
const MAX_LEASES = 10_000;

export interface Admission {
  /** The acceptance failed: its admissions go back, to be given back to the store with the second's remainder. */
  release(): void;
}

export interface DailyQuotas {
  /** Admits `messages` of `sender`, or throws `daily_quota_exceeded` (with Retry-After) having admitted none. */
  admit(
    sender: Pick<Actor, "organizationId" | "keyId" | "mode" | "keyDailyQuota" | "ancestorQuotas">,
    messages: number,
  ): Promise<Admission>;
}

export function createDailyQuotas(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  /** The store's notifications: a changed quota (POLICY_CHANGED) is asked about again at once, on every instance. */
  listen?: Store["listen"];
}): DailyQuotas {
  const { writer, clock } = deps;
  const leases = new Map<string, Lease>();
  deps.listen?.(POLICY_CHANGED, () => {
    for (const lease of leases.values()) lease.full = undefined;
  });

  /** Reserves up to `wanted` admissions of `counted` on `day` in one write; resolves with how many it got. */
  const reserve = (counted: Counted, day: string, wanted: number) =>
    writer.write(async (tx) => {
      const { dailyUsage, organizations } = tablesOf(tx);
      const where = and(eq(dailyUsage.bucket, counted.bucket), eq(dailyUsage.day, day));
      await tx.insert(dailyUsage).values({ bucket: counted.bucket, day, used: 0 }).onConflictDoNothing();
      const row = await first(lockedForUpdate(tx, tx.select({ used: dailyUsage.used }).from(dailyUsage).where(where)));
      const used = Number(row?.used ?? 0);
      const quota =
        "key" in counted.quota
          ? counted.quota.key
          : ((
              await first(
                tx
                  .select({ quota: organizations.dailyQuota })
                  .from(organizations)
                  .where(eq(organizations.id, counted.quota.organizationId)),
              )
            )?.quota ?? null);
      const granted = quota === null ? wanted : Math.max(0, Math.min(wanted, quota - used));
      if (granted > 0)
        await tx
          .update(dailyUsage)
          .set({ used: sql`${dailyUsage.used} + ${granted}` })
          .where(where);
      return { granted, quota, used };
    });

  const giveBack = (counted: Counted, lease: Lease) => {
    const unused = lease.granted - lease.used;
    if (unused <= 0) return Promise.resolve();
    lease.granted -= unused;
    return writer
      .write(async (tx) => {
        const { dailyUsage } = tablesOf(tx);
        await tx
          .update(dailyUsage)
          .set({ used: sql`${dailyUsage.used} - ${unused}` })
          .where(and(eq(dailyUsage.bucket, counted.bucket), eq(dailyUsage.day, lease.day)));
      })
      .catch(() => {
        // Kept counted: the store was unreachable; the day's count errs towards refusing.
      });
  };

  /** Runs `work` once the lease's store write under way, if any, is done; the lease is busy until it is. */
  const exclusive = <T>(lease: Lease, work: () => Promise<T>): Promise<T> => {
    const run = (lease.busy ?? Promise.resolve()).then(work);
    const settled = run.then(
      () => {},
      () => {},
    );
    lease.busy = settled;
    void settled.then(() => {
      if (lease.busy === settled) lease.busy = undefined;
    });
    return run;
  };

  /** Gives back what the lease holds unused once the current second is over (once per second at most). */
  const giveBackAfterThisSecond = (counted: Counted, lease: Lease) => {
    if (lease.givesBackLater) return;
    lease.givesBackLater = true;
    setTimeout(
      () => {
        lease.givesBackLater = false;
        void exclusive(lease, () => giveBack(counted, lease));
      },
      1000 - (clock.now() % 1000) + 10,
    ).unref?.();
  };

  const leaseOf = (bucket: string, day: string, second: number) => {
    const key = `${bucket}|${day}`;
    let lease = leases.get(key);
    if (!lease) {
      lease = { day, granted: 0, used: 0, second, usedThisSecond: 0, usedLastSecond: 0 };
      if (leases.size >= MAX_LEASES) leases.delete(leases.keys().next().value!);
    }
    leases.delete(key);
    leases.set(key, lease);
    if (lease.second !== second) {
      lease.usedLastSecond = lease.second === second - 1 ? lease.usedThisSecond : 0;
      lease.usedThisSecond = 0;
      lease.second = second;
      lease.full = undefined;
    }
    return lease;
  };

  /** Takes `messages` from the bucket's lease, reserving more when it holds too few; the store's figures if full. */
  const take = async (
    counted: Counted,
    messages: number,
  ): Promise<{ lease: Lease } | { full: NonNullable<Lease["full"]> }> => {
    const now = clock.now();
    const lease = leaseOf(counted.bucket, utcDay(now), Math.floor(now / 1000));
    for (;;) {
      if (lease.granted - lease.used >= messages) {
        lease.used += messages;
        lease.usedThisSecond += messages;
        giveBackAfterThisSecond(counted, lease);
        return { lease };
      }
      if (lease.full) return { full: lease.full };
      if (lease.busy) {
        await lease.busy;
        continue;
      }
      // What the rest of this second is expected to need, at least what waits now.
      const expected = Math.ceil((lease.usedLastSecond * (1000 - (now % 1000))) / 1000);
      const wanted = Math.max(messages - (lease.granted - lease.used), expected);
      const { granted, quota, used } = await exclusive(lease, () => reserve(counted, lease.day, wanted));
      lease.granted += granted;
      if (granted < wanted) {
        lease.full = { quota: quota ?? 0, used: used + granted };
        giveBackAfterThisSecond(counted, lease);
      }
    }
  };

  return {
    async admit(sender, messages) {
      const now = clock.now();
      const counted: Array<Counted & { whose: (quota: number) => string }> = [];
      if (sender.mode === "live")
        counted.push({
          bucket: organizationBucket(sender.organizationId),
          quota: { organizationId: sender.organizationId },
          whose: (quota) => `The organisation's daily quota of ${quota} messages`,
        });
      if (sender.keyId && sender.keyDailyQuota !== null)
        counted.push({
          bucket: keyBucket(sender.keyId),
          quota: { key: sender.keyDailyQuota },
          whose: (quota) => `This API key's daily quota of ${quota} messages`,
        });
      // The same bucket as the ancestor's own sends: a key and every key minted from it share its quota.
      for (const { keyId, dailyQuota } of sender.ancestorQuotas ?? [])
        counted.push({
          bucket: keyBucket(keyId),
          quota: { key: dailyQuota },
          whose: (quota) =>
            `The daily quota of ${quota} messages of API key ${keyId}, which this key was created from and shares it,`,
        });
      const taken: Array<{ bucket: Counted; lease: Lease }> = [];
      const release = () => {
        for (const { bucket, lease } of taken) {
          lease.used -= messages;
          giveBackAfterThisSecond(bucket, lease);
        }
      };
      for (const bucket of counted) {
        const result = await take(bucket, messages);
        if ("lease" in result) {
          taken.push({ bucket, lease: result.lease });
          continue;
        }
        release();
        const { quota, used } = result.full;
        throw new AppError(
          "daily_quota_exceeded",
          `${bucket.whose(quota)} is used up (${used} counted today, ${messages} more asked for); it starts again at 00:00 UTC.`,
          { retryAfter: secondsToNextUtcDay(now) },
        );
      }
      return { release };
    },
  };
}
