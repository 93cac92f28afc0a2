import { describe, expect, test } from "bun:test";
import { clientNetwork, createAuthFailures } from "./auth-failures.ts";

const options = { baseDelayMs: 100, maxDelayMs: 800, forgetAfterMs: 60_000, maxTracked: 3 };
const fakeClock = () => {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

describe("failed SMTP AUTH slows the client down", () => {
  test("each failure doubles the next one's delay, up to the maximum", async () => {
    const throttle = createAuthFailures(fakeClock(), { ...options, baseDelayMs: 0 });
    expect(throttle.delayFor("192.0.2.1")).toBe(0);
    const slow = createAuthFailures(fakeClock(), options);
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      seen.push(slow.delayFor("192.0.2.1"));
      slow.fail("192.0.2.1");
    }
    expect(seen).toEqual([100, 200, 400, 800, 800]);
  });

  test("a success clears the count; other clients are not affected", () => {
    const throttle = createAuthFailures(fakeClock(), options);
    throttle.fail("192.0.2.1");
    throttle.fail("192.0.2.1");
    expect(throttle.delayFor("192.0.2.2")).toBe(100);
    throttle.succeed("192.0.2.1");
    expect(throttle.delayFor("192.0.2.1")).toBe(100);
  });

  test("quiet for forgetAfterMs forgets the failures", () => {
    const clock = fakeClock();
    const throttle = createAuthFailures(clock, options);
    throttle.fail("192.0.2.1");
    clock.advance(60_001);
    expect(throttle.delayFor("192.0.2.1")).toBe(100);
  });

  test("IPv6 clients of one /64 share a count; IPv4-mapped addresses count as IPv4", () => {
    expect(clientNetwork("2001:db8:1:2:aaaa::1")).toBe(clientNetwork("2001:db8:1:2:bbbb::9"));
    expect(clientNetwork("::ffff:192.0.2.7")).toBe("192.0.2.7");
    const throttle = createAuthFailures(fakeClock(), options);
    throttle.fail("2001:db8:1:2::1");
    expect(throttle.delayFor("2001:db8:1:2::2")).toBe(200);
  });

  test("memory is bounded: the longest-quiet network is forgotten first", () => {
    const throttle = createAuthFailures(fakeClock(), options);
    for (const address of ["192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"]) throttle.fail(address);
    expect(throttle.delayFor("192.0.2.1")).toBe(100);
    expect(throttle.delayFor("192.0.2.4")).toBe(200);
  });
});
