import { describe, expect, test } from "bun:test";
import { ManualClock } from "../lib/clock.ts";
import { createRateLimiter } from "./rate-limiter.ts";

const subject = (over: Partial<{ keyId: string | null; organizationId: string; keyLimit: number; orgLimit: number }> = {}) => ({
  keyId: "k1",
  organizationId: "o1",
  keyLimit: 3,
  orgLimit: 5,
  ...over,
});

describe("sliding-window rate limits", () => {
  test("admits up to the key's limit within any 60 s window, then refuses with Retry-After", () => {
    const clock = new ManualClock(0);
    const limiter = createRateLimiter(clock);
    const decisions = [0, 10_000, 20_000].map((t) => (clock.set(t), limiter.take(subject())));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true]);
    expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0]);
    clock.set(30_000);
    const refused = limiter.take(subject());
    expect(refused.allowed).toBe(false);
    // The first request (t=0) leaves the window at t=60 s: 30 s from now.
    expect(refused.retryAfterSeconds).toBe(30);
  });

  test("the window slides: a slot frees exactly when the oldest request is 60 s old", () => {
    const clock = new ManualClock(0);
    const limiter = createRateLimiter(clock);
    for (const t of [0, 10_000, 20_000]) (clock.set(t), limiter.take(subject()));
    clock.set(59_999);
    expect(limiter.take(subject()).allowed).toBe(false);
    clock.set(60_000);
    expect(limiter.take(subject()).allowed).toBe(true);
    clock.set(60_001);
    expect(limiter.take(subject()).allowed).toBe(false);
  });

  test("a refused request consumes nothing", () => {
    const clock = new ManualClock(0);
    const limiter = createRateLimiter(clock);
    for (let i = 0; i < 3; i++) limiter.take(subject());
    for (let i = 0; i < 10; i++) expect(limiter.take(subject()).allowed).toBe(false);
    clock.set(60_000);
    expect(limiter.take(subject()).remaining).toBe(2);
  });

  test("the organisation's window is shared by its keys", () => {
    const clock = new ManualClock(0);
    const limiter = createRateLimiter(clock);
    for (let i = 0; i < 3; i++) expect(limiter.take(subject({ keyId: "a" })).allowed).toBe(true);
    for (let i = 0; i < 2; i++) expect(limiter.take(subject({ keyId: "b" })).allowed).toBe(true);
    const refused = limiter.take(subject({ keyId: "c" }));
    expect(refused.allowed).toBe(false);
    expect(refused.limit).toBe(5);
    expect(refused.policy).toContain('5;w=60;comment="organization"');
    expect(limiter.take(subject({ organizationId: "o2", keyId: "d" })).allowed).toBe(true);
  });

  test("headers describe the tighter bucket", () => {
    const limiter = createRateLimiter(new ManualClock(0));
    const first = limiter.take(subject({ keyLimit: 100, orgLimit: 2 }));
    expect(first).toMatchObject({ limit: 2, remaining: 1 });
  });

  test("a changed limit keeps the recent history", () => {
    const clock = new ManualClock(0);
    const limiter = createRateLimiter(clock);
    for (let i = 0; i < 3; i++) limiter.take(subject({ keyLimit: 3 }));
    expect(limiter.take(subject({ keyLimit: 4 })).allowed).toBe(true);
    expect(limiter.take(subject({ keyLimit: 4 })).allowed).toBe(false);
    expect(limiter.take(subject({ keyLimit: 2 })).allowed).toBe(false);
  });
});
