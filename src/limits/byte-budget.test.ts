import { describe, expect, test } from "bun:test";
import { ManualClock } from "../lib/clock.ts";
import { createByteBudget } from "./byte-budget.ts";

describe("the per-client byte budget", () => {
  test("bytes within the minute fit; past it the client waits until its oldest bytes leave the window", () => {
    const clock = new ManualClock(1_000_000);
    const budget = createByteBudget(clock, 1000);
    budget.spend("a", 600);
    expect(budget.refusal("a", 400)).toBeNull();
    clock.advance(10_000);
    budget.spend("a", 300);
    expect(budget.refusal("a", 200)).toBe(50);
    clock.advance(50_000);
    expect(budget.refusal("a", 200)).toBeNull();
  });

  test("one message of any size fits when nothing else was spent; another client has its own budget", () => {
    const clock = new ManualClock(1_000_000);
    const budget = createByteBudget(clock, 1000);
    expect(budget.refusal("a", 5000)).toBeNull();
    budget.spend("a", 5000);
    expect(budget.refusal("a", 0, 5000)).toBeNull();
    expect(budget.refusal("a", 0)).toBe(60);
    expect(budget.refusal("b", 900)).toBeNull();
  });

  test("at most maxTracked clients are remembered, the least recently seen forgotten first", () => {
    const clock = new ManualClock(1_000_000);
    const budget = createByteBudget(clock, 1000, 2);
    budget.spend("a", 2000);
    budget.spend("b", 2000);
    budget.spend("c", 2000);
    expect(budget.refusal("a", 1)).toBeNull();
    expect(budget.refusal("c", 1)).not.toBeNull();
  });
});
