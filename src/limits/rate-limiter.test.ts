/**
 * The rate-limit table, run against both keepers of the windows: in memory (a store one instance owns) and in the
 * store (instances sharing it) — on SQLite, and on PostgreSQL when the suite has one (MAILROOM_TEST_PG_URL).
 */
import { freshStoreUrl } from "../../test/helpers/postgres.ts";
import { afterAll, describe, expect, test } from "bun:test";
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
