/**
 * The rate-limit table, run against both keepers of the windows: in memory (a store one instance owns) and in the
 * store (instances sharing it) — on SQLite, and on PostgreSQL when the suite has one (MAILROOM_TEST_PG_URL).
 */
import { freshStoreUrl } from "../../test/helpers/postgres.ts";
import { afterAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { openPostgresStore } from "../db/postgres/adapter.ts";
import { openSqliteStore } from "../db/sqlite.ts";
import type { Store } from "../db/store.ts";
import { ManualClock } from "../lib/clock.ts";
import { silentLogger } from "../lib/logger.ts";
import { createRateLimiter, createStoreRateLimiter, type RateLimiter } from "./rate-limiter.ts";

const subject = (
  over: Partial<{ keyId: string | null; organizationId: string; keyLimit: number; orgLimit: number }> = {},
) => ({
  keyId: "k1",
  organizationId: "o1",
  keyLimit: 3,
  orgLimit: 5,
  ...over,
});

const stores: Store[] = [];
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
});
const inStore = async (open: () => Promise<Store>, clock: ManualClock) => {
  const store = await open();
  stores.push(store);
  return createStoreRateLimiter({ db: store.db, writer: store, clock });
};
const pgUrl = process.env.MAILROOM_TEST_PG_URL;

const keepers: Array<[string, (clock: ManualClock) => Promise<RateLimiter>]> = [
  ["in memory", async (clock) => createRateLimiter(clock)],
  ["in a SQLite store", (clock) => inStore(async () => openSqliteStore(":memory:"), clock)],
  ...(pgUrl
    ? [
        [
          "in a PostgreSQL store",
          (clock: ManualClock) =>
            inStore(
              () => openPostgresStore({ url: freshStoreUrl("r", pgUrl), poolSize: 2, logger: silentLogger }),
              clock,
            ),
        ] as [string, (clock: ManualClock) => Promise<RateLimiter>],
      ]
    : []),
];

describe.each(keepers)("sliding-window rate limits, %s", (_name, make) => {
  test("admits up to the key's limit within any 60 s window, then refuses with Retry-After", async () => {
    const clock = new ManualClock(0);
    const limiter = await make(clock);
    const decisions = [];
    for (const t of [0, 10_000, 20_000]) decisions.push((clock.set(t), await limiter.take(subject())));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0]);
    clock.set(30_000);
    const refused = await limiter.take(subject());
    expect(refused.allowed).toBe(false);
    // The first request (t=0) leaves the window at t=60 s: 30 s from now.
    expect(refused.retryAfterSeconds).toBe(30);
  });

  test("the window slides: a slot frees exactly when the oldest request is 60 s old", async () => {
    const clock = new ManualClock(0);
    const limiter = await make(clock);
    for (const t of [0, 10_000, 20_000]) clock.set(t), await limiter.take(subject());
    clock.set(59_999);
    expect((await limiter.take(subject())).allowed).toBe(false);
    clock.set(60_000);
    expect((await limiter.take(subject())).allowed).toBe(true);
    clock.set(60_001);
    expect((await limiter.take(subject())).allowed).toBe(false);
  });

  test("a refused request consumes nothing", async () => {
    const clock = new ManualClock(0);
    const limiter = await make(clock);
    for (let i = 0; i < 3; i++) await limiter.take(subject());
    for (let i = 0; i < 10; i++) expect((await limiter.take(subject())).allowed).toBe(false);
    clock.set(60_000);
    expect((await limiter.take(subject())).remaining).toBe(2);
  });

  test("the organisation's window is shared by its keys", async () => {
    const clock = new ManualClock(0);
    const limiter = await make(clock);
    for (let i = 0; i < 3; i++) expect((await limiter.take(subject({ keyId: "a" }))).allowed).toBe(true);
    for (let i = 0; i < 2; i++) expect((await limiter.take(subject({ keyId: "b" }))).allowed).toBe(true);
    const refused = await limiter.take(subject({ keyId: "c" }));
    expect(refused.allowed).toBe(false);
    expect(refused.limit).toBe(5);
    expect(refused.policy).toContain('5;w=60;comment="organization"');
    expect((await limiter.take(subject({ organizationId: "o2", keyId: "d" }))).allowed).toBe(true);
  });

  test("headers describe the tighter bucket", async () => {
    const limiter = await make(new ManualClock(0));
    const first = await limiter.take(subject({ keyLimit: 100, orgLimit: 2 }));
    expect(first).toMatchObject({ limit: 2, remaining: 1, resetSeconds: 60 });
  });

  test("a changed limit keeps the recent history", async () => {
    const clock = new ManualClock(0);
    const limiter = await make(clock);
    for (let i = 0; i < 3; i++) await limiter.take(subject({ keyLimit: 3 }));
    expect((await limiter.take(subject({ keyLimit: 4 }))).allowed).toBe(true);
    expect((await limiter.take(subject({ keyLimit: 4 }))).allowed).toBe(false);
    expect((await limiter.take(subject({ keyLimit: 2 }))).allowed).toBe(false);
  });

  test("concurrent checks never admit more than the limit", async () => {
    const limiter = await make(new ManualClock(0));
    const decisions = await Promise.all(
      Array.from({ length: 20 }, () => limiter.take(subject({ keyLimit: 7, orgLimit: 100 }))),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(7);
  });
});

const storeKeepers: Array<[string, () => Promise<Store>]> = [
  ["SQLite", async () => openSqliteStore(":memory:")],
  ...(pgUrl
    ? [
        [
          "PostgreSQL",
          async () => openPostgresStore({ url: freshStoreUrl("r", pgUrl), poolSize: 2, logger: silentLogger }),
        ] as [string, () => Promise<Store>],
      ]
    : []),
];

describe.each(storeKeepers)("leased admissions in a %s store", (_name, open) => {
  const opened = async () => {
    const store = await open();
    stores.push(store);
    return store;
  };
  /** The admissions the store has counted for the key's bucket, by second. */
  const countedBySecond = async (store: Store) =>
    Object.fromEntries(
      (
        await store.query<{ second: number; admitted: number }>(
          sql`SELECT second, admitted FROM rate_limit_counts WHERE bucket = 'key:k1' ORDER BY second`,
        )
      ).map((row) => [Number(row.second), Number(row.admitted)]),
    );
  const steady = { keyLimit: 1000, orgLimit: 1000 };

  test("a second's checks lease what the second before used; the unused part goes back once the second is over", async () => {
    const store = await opened();
    const clock = new ManualClock(0);
    const limiter = createStoreRateLimiter({ db: store.db, writer: store, clock });
    for (let i = 0; i < 10; i++) await limiter.take(subject(steady));
    expect(await countedBySecond(store)).toEqual({ 0: 10 });
    // Second 1: one check takes the ten the last second used, in one call.
    clock.set(1000);
    const first = await limiter.take(subject(steady));
    expect(first).toMatchObject({ allowed: true, remaining: 989 });
    expect(await countedBySecond(store)).toEqual({ 0: 10, 1: 10 });
    for (let i = 0; i < 3; i++) expect((await limiter.take(subject(steady))).allowed).toBe(true);
    expect(await countedBySecond(store)).toEqual({ 0: 10, 1: 10 });
    // Second 2: the next call gives back the six second 1 did not use.
    clock.set(2000);
    await limiter.take(subject(steady));
    expect((await countedBySecond(store))[1]).toBe(4);
  });

  test("with no call to carry it, the unused part goes back just after its second", async () => {
    const store = await opened();
    const clock = new ManualClock(0);
    const limiter = createStoreRateLimiter({ db: store.db, writer: store, clock });
    for (let i = 0; i < 10; i++) await limiter.take(subject(steady));
    // At 1.1 s the lease takes what nine tenths of a second like the last one would need: nine, of which one is used.
    clock.set(1100);
    await limiter.take(subject(steady));
    expect((await countedBySecond(store))[1]).toBe(9);
    // The timer gives the eight back just after second 1 ends (900 ms of real time away).
    await Bun.sleep(1100);
    expect((await countedBySecond(store))[1]).toBe(1);
  });

  test("two instances never admit more than the limit between them, and a lease held unused is freed for the other", async () => {
    const store = await opened();
    const clock = new ManualClock(0);
    const [a, b] = [0, 1].map(() => createStoreRateLimiter({ db: store.db, writer: store, clock }));
    const limits = { keyLimit: 30, orgLimit: 1000 };
    for (let i = 0; i < 20; i++) expect((await a!.take(subject(limits))).allowed).toBe(true);
    // Second 1: A leases the 10 left (it expects 20), uses one; B finds nothing left.
    clock.set(1000);
    expect((await a!.take(subject(limits))).allowed).toBe(true);
    expect((await b!.take(subject(limits))).allowed).toBe(false);
    // Second 2: A's next call gives back its nine; B then finds them.
    clock.set(2000);
    expect((await a!.take(subject(limits))).allowed).toBe(true);
    const fromB = await Promise.all(Array.from({ length: 12 }, () => b!.take(subject(limits))));
    expect(fromB.filter((d) => d.allowed)).toHaveLength(8);
    expect((await countedBySecond(store))[1]).toBe(1);
  });
});
