/**
 * Daily quotas' reservations (daily-quota.ts) on a real store — SQLite, and PostgreSQL when the suite has one: the
 * store never grants past the quota; an instance reserves ahead what its last second admitted and gives back what it
 * did not use once the second is over; a failed acceptance's admissions go back; a changed quota is asked about at
 * once; the organisation counts live mail only, a key with a quota all of its own.
 */
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { storeEngines } from "../../test/helpers/postgres.ts";
import { notifyAtCommit } from "../db/dialect.ts";
import { POLICY_CHANGED } from "../db/read-cache.ts";
import { tablesOf, type Store } from "../db/store.ts";
import { ManualClock } from "../lib/clock.ts";
import { createDailyQuotas, organizationBucket, usedOn, utcDay } from "./daily-quota.ts";

const engines = storeEngines("q");

const NOON = Date.parse("2026-05-04T12:00:00.000Z");
const live = { organizationId: "org-1", keyId: "key-1", mode: "live" as const, keyDailyQuota: null };
/** Past the second's end, when a lease gives back what it did not use (a real timer: 1 s after the reservation). */
const secondOver = () => Bun.sleep(1_100);

async function setUp(open: () => Promise<Store>, dailyQuota: number | null) {
  const store = await open();
  const { organizations } = tablesOf(store.db);
  await store.write(async (tx) => {
    await tx
      .insert(organizations)
      .values({ id: "org-1", name: "One", dailyQuota, createdAt: "2026-01-01T00:00:00.000Z" });
  });
  const clock = new ManualClock(NOON);
  const quotas = createDailyQuotas({ db: store.db, writer: store, clock, listen: store.listen.bind(store) });
  const used = () => usedOn(store.db, organizationBucket("org-1"), utcDay(clock.now()));
  const setQuota = (quota: number | null) =>
    store.write(async (tx) => {
      await tx.update(organizations).set({ dailyQuota: quota }).where(eq(organizations.id, "org-1"));
      await notifyAtCommit(tx, POLICY_CHANGED);
    });
  return { store, clock, quotas, used, setQuota };
}

describe.each(engines)("daily quotas on %s", (_engine, open) => {
  test("admit up to the quota, then refuse with Retry-After to 00:00 UTC, having admitted nothing", async () => {
    const { quotas, used } = await setUp(open, 3);
    await quotas.admit(live, 2);
    await quotas.admit(live, 1);
    const refused = await quotas.admit(live, 1).catch((error) => error);
    expect(refused).toMatchObject({ name: "daily_quota_exceeded", retryAfter: 12 * 3600 });
    expect(refused.message).toContain("daily quota of 3 messages");
    expect(await used()).toBe(3);
  });

  test("an acceptance that fails gives its admissions back once the second is over", async () => {
    const { quotas, used } = await setUp(open, 2);
    const admission = await quotas.admit(live, 2);
    admission.release();
    await secondOver();
    expect(await used()).toBe(0);
    await quotas.admit(live, 2);
  });

  test("a busy second reserves ahead what the last one admitted, and gives back what it did not use", async () => {
    const { quotas, used, clock } = await setUp(open, null);
    for (let i = 0; i < 10; i++) await quotas.admit(live, 1);
    expect(await used()).toBe(10);
    // The next second expects as many: one reservation of 10 (the clock at its start), of which 3 are used.
    clock.set(NOON + 1000);
    for (let i = 0; i < 3; i++) await quotas.admit(live, 1);
    expect(await used()).toBe(13 + 7);
    await secondOver();
    expect(await used()).toBe(13);
  });

  test("a quota raised is asked about again at once; test mail and keys without a quota do not count", async () => {
    const { quotas, used, setQuota } = await setUp(open, 1);
    await quotas.admit(live, 1);
    await expect(quotas.admit(live, 1)).rejects.toMatchObject({ name: "daily_quota_exceeded" });
    await setQuota(2);
    await quotas.admit(live, 1);
    await quotas.admit({ ...live, mode: "test" }, 5);
    expect(await used()).toBe(2);
  });

  test("a key with a quota of its own counts all of its mail, apart from the organisation's", async () => {
    const { quotas, used } = await setUp(open, null);
    const capped = { ...live, keyId: "key-2", mode: "test" as const, keyDailyQuota: 2 };
    await quotas.admit(capped, 2);
    const refused = await quotas.admit(capped, 1).catch((error) => error);
    expect(refused.message).toContain("This API key's daily quota of 2 messages");
    expect(await used()).toBe(0);
  });
});
