/**
 * Daily quotas (DESIGN §12): messages accepted per UTC day, for an organisation (its live mail) and for a key (all
 * of its mail). Counted in `daily_usage` inside the acceptance's own transaction, so the count is exactly what was
 * committed, on every instance sharing the store: a refused or failed acceptance counts nothing.
 * Invariant: a charge that would take a bucket past its quota changes nothing and throws `daily_quota_exceeded`
 * (429, `Retry-After` to the next UTC day); the organisation's bucket is counted whether or not it has a quota, so
 * its usage is known when one is set.
 */
import { and, eq, sql, type SQL } from "drizzle-orm";
import { rawRows } from "../db/dialect.ts";
import { first, tablesOf, type Db } from "../db/store.ts";
import { AppError } from "../errors.ts";

const DAY_MS = 86_400_000;

/** The UTC day of `now`, as `YYYY-MM-DD`. */
export const utcDay = (now: number) => new Date(now).toISOString().slice(0, 10);

/** Whole seconds from `now` to the next 00:00 UTC (at least 1). */
export const secondsToNextUtcDay = (now: number) => Math.max(1, Math.ceil((DAY_MS - (now % DAY_MS)) / 1000));

export const organizationBucket = (organizationId: string) => `org:${organizationId}`;
export const keyBucket = (keyId: string) => `key:${keyId}`;

/** Messages to count in one bucket, against the quota that applies to it. */
export interface QuotaCharge {
  bucket: string;
  messages: number;
  /** The organisation's quota is read in the charge's own statement (fresh on every instance); a key's is given. */
  quota: { organizationId: string } | { key: number };
}

/** The charges of one acceptance: its organisation's (live mail) and its key's when the key has a quota. */
export function chargesOf(
  sender: { organizationId: string; keyId: string | null; mode: "live" | "test"; keyDailyQuota: number | null },
  messages: number,
): QuotaCharge[] {
  const charges: QuotaCharge[] = [];
  if (sender.mode === "live")
    charges.push({
      bucket: organizationBucket(sender.organizationId),
      messages,
      quota: { organizationId: sender.organizationId },
    });
  if (sender.keyId && sender.keyDailyQuota !== null)
    charges.push({ bucket: keyBucket(sender.keyId), messages, quota: { key: sender.keyDailyQuota } });
  return charges;
}

/** Adds the charges of one acceptance to today's usage in `tx`, or throws `daily_quota_exceeded` having added none. */
export async function chargeDailyQuota(tx: Db, charges: QuotaCharge[], now: number): Promise<void> {
  const day = utcDay(now);
  for (const charge of charges) {
    const { organizations } = tablesOf(tx);
    const quota: SQL =
      "key" in charge.quota
        ? sql`${charge.quota.key}`
        : sql`(SELECT ${organizations.dailyQuota} FROM ${organizations} WHERE ${organizations.id} = ${charge.quota.organizationId})`;
    // An absent quota (NULL) admits anything; a present one admits what keeps the day's count within it.
    const counted = await rawRows<{ used: number }>(
      tx,
      sql`INSERT INTO daily_usage (bucket, day, used)
        SELECT ${charge.bucket}, ${day}, ${charge.messages} WHERE ${charge.messages} <= coalesce(${quota}, ${charge.messages})
        ON CONFLICT (bucket, day) DO UPDATE SET used = daily_usage.used + excluded.used
          WHERE daily_usage.used + excluded.used <= coalesce(${quota}, daily_usage.used + excluded.used)
        RETURNING used`,
    );
    if (counted.length) continue;
    // Earlier charges of this acceptance roll back with the transaction the error ends.
    const limit = "key" in charge.quota ? charge.quota.key : await organizationQuota(tx, charge.quota.organizationId);
    const used = await usedOn(tx, charge.bucket, day);
    const whose = "key" in charge.quota ? "This API key's" : "The organisation's";
    throw new AppError(
      "daily_quota_exceeded",
      `${whose} daily quota of ${limit} messages is used up (${used} accepted today, ${charge.messages} more asked for); it starts again at 00:00 UTC.`,
      { retryAfter: secondsToNextUtcDay(now) },
    );
  }
}

async function organizationQuota(db: Db, organizationId: string): Promise<number | null> {
  const { organizations } = tablesOf(db);
  const row = await first(
    db.select({ quota: organizations.dailyQuota }).from(organizations).where(eq(organizations.id, organizationId)),
  );
  return row?.quota ?? null;
}

/** Messages counted in `bucket` on `day` (`YYYY-MM-DD`). */
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
