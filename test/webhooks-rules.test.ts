/** The webhook rules as tables: which addresses are refused, what happens after each answer, Retry-After, signing. */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { createSecretBox } from "../src/lib/secrets.ts";
import { decide, parseRetryAfter } from "../src/webhooks/dispatcher.ts";
import { refusedRange } from "../src/lib/ip-ranges.ts";
import { pinnedRequest } from "../src/lib/endpoint-guard.ts";
import { newSigningSecret } from "../src/webhooks/service.ts";
import { createSigner } from "../src/webhooks/signing.ts";

describe("refusedRange", () => {
  test.each([
    ["8.8.8.8", null],
    ["1.1.1.1", null],
    ["2001:4860:4860::8888", null],
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.1", null],
    ["192.168.0.1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["100.64.0.1", "carrierGradeNat"],
    ["100.127.255.254", "carrierGradeNat"],
    ["0.0.0.0", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["224.0.0.1", "multicast"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["240.0.0.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "linkLocal"],
    ["fc00::1", "uniqueLocal"],
    ["fd00:ec2::254", "uniqueLocal"],
    ["ff02::1", "multicast"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:8.8.8.8", null],
    ["64:ff9b::a00:1", "rfc6052"],
    ["2002:a00:1::1", "6to4"],
    ["2001::1", "teredo"],
    ["2001:db8::1", "reserved"],
    ["not-an-ip", "not an IP address"],
  ])("%s → %s", (address, range) => {
    expect(refusedRange(address)).toBe(range);
  });
});

describe("pinnedRequest", () => {
  test.each([
    [
      "https://hooks.example.org/a?b=1",
      "93.184.215.14",
      "https://93.184.215.14/a?b=1",
      "hooks.example.org",
      "hooks.example.org",
    ],
    [
      "https://hooks.example.org:8443/a",
      "2606:2800::1",
      "https://[2606:2800::1]:8443/a",
      "hooks.example.org:8443",
      "hooks.example.org",
    ],
    ["http://127.0.0.1:9000/x", "127.0.0.1", "http://127.0.0.1:9000/x", "127.0.0.1:9000", undefined],
  ])("%s at %s connects to %s with Host %s", (url, address, pinned, host, serverName) => {
    expect(pinnedRequest({ url: new URL(url), address })).toEqual({ url: pinned, host, serverName });
  });
});

describe("decide", () => {
  const schedule = [5_000, 300_000, 1_800_000];
  const noJitter = () => 0;
  test.each([
    ["200 succeeds", { statusCode: 200 }, 1, { status: "succeeded" }],
    ["204 succeeds", { statusCode: 204 }, 4, { status: "succeeded" }],
    ["a redirect is a failure", { statusCode: 301 }, 1, { status: "pending", delayMs: 5_000 }],
    ["500 retries after the first step", { statusCode: 500 }, 1, { status: "pending", delayMs: 5_000 }],
    ["no answer retries on the table", { statusCode: null }, 2, { status: "pending", delayMs: 300_000 }],
    ["the last step's failure fails for good", { statusCode: 500 }, 4, { status: "failed", exhausted: true }],
    [
      "410 fails at once and disables",
      { statusCode: 410 },
      1,
      { status: "failed", disableReason: "the endpoint answered 410 Gone", exhausted: false },
    ],
    ["429 honours Retry-After", { statusCode: 429, retryAfterMs: 42_000 }, 1, { status: "pending", delayMs: 42_000 }],
    ["503 honours Retry-After", { statusCode: 503, retryAfterMs: 7_000 }, 2, { status: "pending", delayMs: 7_000 }],
    ["429 without Retry-After follows the table", { statusCode: 429 }, 3, { status: "pending", delayMs: 1_800_000 }],
    [
      "Retry-After on a 500 is ignored",
      { statusCode: 500, retryAfterMs: 1_000 },
      1,
      { status: "pending", delayMs: 5_000 },
    ],
  ])("%s", (_name, outcome, step, decision) => {
    expect(decide(outcome as { statusCode: number | null; retryAfterMs?: number }, step, schedule, noJitter)).toEqual(
      decision as never,
    );
  });

  test("jitter adds at most 10 %", () => {
    expect(decide({ statusCode: 500 }, 1, schedule, () => 0.999_999)).toEqual({ status: "pending", delayMs: 5_500 });
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-22T10:00:00Z");
  test.each([
    ["120", 120_000],
    ["0", 1_000],
    ["Sun, 22 Nov 2026 10:01:00 GMT", 60_000],
    ["999999", 86_400_000],
    ["soon", undefined],
    [null, undefined],
  ])("%s → %s ms", (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });
});

describe("signing", () => {
  const box = createSecretBox(randomBytes(32));
  const signer = createSigner(box);
  const body = JSON.stringify({ type: "email.sent", created_at: "2026-11-22T10:00:00.000Z", data: {} });

  test("one signature per active secret, each verifiable by the standardwebhooks package", () => {
    const current = newSigningSecret();
    const previous = newSigningSecret();
    const now = Date.now();
    const headers = signer.headers(
      { secret: box.seal(current), previousSecret: box.seal(previous), previousSecretUntil: now + 1000 },
      "msg-1",
      now,
      body,
    );
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    for (const secret of [current, previous])
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow();
  });

  test("an expired previous secret no longer signs", () => {
    const now = Date.now();
    const headers = signer.headers(
      { secret: box.seal(newSigningSecret()), previousSecret: box.seal(newSigningSecret()), previousSecretUntil: now },
      "msg-1",
      now,
      body,
    );
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(1);
  });
});
