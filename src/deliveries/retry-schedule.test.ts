import { describe, expect, test } from "bun:test";
import { planRetry, scheduledDelay, type RetryPolicy } from "./retry-schedule.ts";

const M = 60_000;
const H = 60 * M;
const policy: RetryPolicy = { schedule: [1 * M, 5 * M, 15 * M, 30 * M, 1 * H, 2 * H, 4 * H, 8 * H], maxAgeMs: 48 * H };

describe("the retry table", () => {
  test.each([
    [1, 1 * M],
    [2, 5 * M],
    [3, 15 * M],
    [8, 8 * H],
    [9, 8 * H],
    [40, 8 * H],
  ])("after failure %i the next attempt waits %i ms", (failures, delay) => {
    expect(scheduledDelay(policy, failures)).toBe(delay);
  });

  test.each([
    ["no hint: the table's delay", { now: 10 * M, dueSince: 0, failedAttempts: 2 }, { retryAt: 15 * M }],
    [
      "a server's hint wins over a longer step",
      { now: 10 * M, dueSince: 0, failedAttempts: 4, hintMs: 30_000 },
      { retryAt: 10 * M + 30_000 },
    ],
    [
      "a server's hint wins over a shorter step",
      { now: 10 * M, dueSince: 0, failedAttempts: 1, hintMs: 10 * M },
      { retryAt: 20 * M },
    ],
    [
      "a hint below one second is raised to one second",
      { now: 0, dueSince: 0, failedAttempts: 1, hintMs: 0 },
      { retryAt: 1000 },
    ],
    [
      "the last attempt happens at the maximum age",
      { now: 45 * H, dueSince: 0, failedAttempts: 12 },
      { retryAt: 48 * H },
    ],
    ["at the maximum age it gives up", { now: 48 * H, dueSince: 0, failedAttempts: 13 }, { giveUp: true }],
    [
      "age counts from when the message became due",
      { now: 48 * H, dueSince: 24 * H, failedAttempts: 13 },
      { retryAt: 48 * H + 8 * H },
    ],
  ] as const)("%s", (_name, input, expected) => {
    expect(planRetry(policy, input)).toEqual(expected);
  });
});
