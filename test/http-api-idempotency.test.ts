/**
 * A request made twice, or too often: an Idempotency-Key replays the first answer and sends nothing twice, refuses
 * another body or a request still in flight, is taken over from an instance that died (an injected clock), and is
 * not consumed by a failed request; a key over its rate limit gets 429 with Retry-After and RateLimit headers.
 */
import { describe, expect, test } from "bun:test";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { message, setUpApiTestApp } from "./helpers/http-api.ts";

let t: TestApp;

setUpApiTestApp((app) => (t = app));

describe("idempotency", () => {
  test("the same key and body replay the original response; nothing is sent twice", async () => {
    const headers = { "idempotency-key": "order-1001" };
    const first = await t.json("POST", "/v1/emails", { body: message({ subject: "Order" }), headers });
    const second = await t.json("POST", "/functions/v1/send-email", {
      body: Object.fromEntries(Object.entries(message({ subject: "Order" })).reverse()),
      headers,
    });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const list = await t.json("GET", "/v1/emails?limit=100");
    expect(list.body.data.filter((e: { subject: string }) => e.subject === "Order")).toHaveLength(1);
  });

  test("the same key with another body is 409 invalid_idempotent_request", async () => {
    const headers = { "idempotency-key": "order-1002" };
    await t.json("POST", "/v1/emails", { body: message(), headers });
    const res = await t.json("POST", "/v1/emails", { body: message({ subject: "Changed" }), headers });
    expect(res.status).toBe(409);
    expect(res.body.name).toBe("invalid_idempotent_request");
  });

  test("the same key still in flight is 409 concurrent_idempotent_requests, and free again once that request failed", async () => {
    const headers = { "idempotency-key": "order-1003" };
    const actor = await t.app.services.keys.authenticate(t.liveKey);
    // A request holding the key (as another instance would, through the shared store).
    const held = await t.app.services.idempotency.begin(actor.keyId!, "emails.send", "order-1003", message());
    expect(held.kind).toBe("claimed");
    const busy = await t.json("POST", "/v1/emails", { body: message(), headers });
    expect([busy.status, busy.body.name]).toEqual([409, "concurrent_idempotent_requests"]);
    if (held.kind === "claimed") await held.release();
    expect((await t.json("POST", "/v1/emails", { body: message(), headers })).status).toBe(200);
  });

  test("a key held by an instance that died is taken over after two minutes", async () => {
    const clock = new ManualClock(Date.now());
    const own = await createTestApp({}, { clock });
    try {
      await own.app.services.domains.add(own.operator, "example.com", { verifiedOverride: true });
      const headers = { "idempotency-key": "order-1004" };
      const actor = await own.app.services.keys.authenticate(own.liveKey);
      expect(
        (await own.app.services.idempotency.begin(actor.keyId!, "emails.send", "order-1004", message())).kind,
      ).toBe("claimed");
      expect((await own.json("POST", "/v1/emails", { body: message(), headers })).status).toBe(409);
      clock.advance(120_001);
      expect((await own.json("POST", "/v1/emails", { body: message(), headers })).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  test("a failed request does not consume the key", async () => {
    const headers = { "idempotency-key": "order-1004" };
    expect((await t.json("POST", "/v1/emails", { body: message({ to: "bad" }), headers })).status).toBe(400);
    expect((await t.json("POST", "/v1/emails", { body: message(), headers })).status).toBe(200);
  });

  test("an overlong key is 400 invalid_idempotency_key", async () => {
    const res = await t.json("POST", "/v1/emails", {
      body: message(),
      headers: { "idempotency-key": "k".repeat(257) },
    });
    expect(res.status).toBe(400);
    expect(res.body.name).toBe("invalid_idempotency_key");
  });
});

describe("rate limits", () => {
  test("a key over its limit gets 429 with Retry-After and RateLimit headers", async () => {
    const created = await t.json("POST", "/v1/api-keys", {
      body: { name: "slow", scopes: ["full_access"], rate_limit_per_minute: 2 },
    });
    const key = created.body.token;
    const first = await t.json("GET", "/v1/emails?limit=1", { key });
    expect(first.headers.get("ratelimit-limit")).toBe("2");
    expect(first.headers.get("ratelimit-remaining")).toBe("1");
    expect(first.headers.get("ratelimit-policy")).toContain("2;w=60");
    await t.json("GET", "/v1/emails?limit=1", { key });
    const refused = await t.json("POST", "/v1/emails", { key, body: message() });
    expect(refused.status).toBe(429);
    expect(refused.body.name).toBe("rate_limit_exceeded");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
  });
});
