/**
 * `GET /v1/usage` and `GET /v1/emails/metrics` (docs/logs-and-mcp.md#usage-and-metrics) through the HTTP API on a
 * real store: usage counts live mail today and this month and the organisation's domains and limits; metrics count
 * what the statistics count, split by period on request, with rates as fractions; a test key's metrics are its
 * sandbox's; what is not supported yet is refused by name.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";

let t: TestApp;
const message = { from: "Acme <hi@example.com>", to: ["a@x.org", "b@x.org"], subject: "Hi", text: "Hi" };

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await Bun.sleep(50);
  }
}

beforeAll(async () => {
  t = await createTestApp({ delivery: { poll_interval: "50ms" } });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  await t.app.start();
  expect((await t.json("POST", "/v1/emails", { body: message })).status).toBe(200);
  const captured = await t.json("POST", "/v1/emails", { key: t.testKey, body: message });
  await until(
    () => t.json("GET", `/v1/emails/${captured.body.id}`, { key: t.testKey }),
    (r) => r.body.status === "delivered",
  );
});
afterAll(() => t.close());

describe("usage", () => {
  test("live mail today and this month, domains, the request limit; limits Mailroom lacks are null", async () => {
    await t.json("PATCH", "/v1/organization", { body: { daily_quota: 1000 } });
    const usage = await t.json("GET", "/v1/usage");
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({
      object: "usage",
      emails: {
        daily: { used: 1, sent: 1, received: 0, limit: 1000 },
        monthly: { used: 1, sent: 1, received: 0, limit: null },
      },
      domains: { used: 1, limit: null },
      contacts: { used: 0 },
      rate_limit: { limit: 500, duration: "60s" },
    });
    expect(Date.parse(usage.body.emails.daily.resets_at)).toBeGreaterThan(Date.now());
    expect(usage.body.emails.daily.resets_at).toEndWith("T00:00:00.000Z");
  });

  test("a test key is refused: usage is the organisation's live figures", async () => {
    expect((await t.json("GET", "/v1/usage", { key: t.testKey })).status).toBe(403);
  });
});

describe("metrics", () => {
  test("totals over the last days, every metric by default; a test key counts its test mail", async () => {
    const all = await t.json("GET", "/v1/emails/metrics", { key: t.testKey });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ object: "metrics", dimensions: [], granularity: "daily" });
    expect(all.body.metrics).toHaveLength(22);
    expect(all.body.totals.delivered).toBe(2);
    expect(all.body.totals.delivery_rate).toBe(all.body.totals.sent ? 2 / all.body.totals.sent : 0);
    expect(all.body.data).toBeUndefined();
    expect(Date.parse(all.body.end_date) - Date.parse(all.body.start_date)).toBe(6 * 86_400_000);
  });

  test("the period dimension: one row per period, chosen metrics only", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const daily = await t.json(
      "GET",
      `/v1/emails/metrics?dimensions=period&granularity=hourly&metrics=delivered,open_rate&start_date=${today}&end_date=${today}`,
      { key: t.testKey },
    );
    expect(daily.status).toBe(200);
    expect(daily.body.data).toHaveLength(24);
    expect(Object.keys(daily.body.totals).sort()).toEqual(["delivered", "open_rate"]);
    expect(daily.body.data.reduce((sum: number, row: any) => sum + row.delivered, 0)).toBe(2);
    expect(daily.body.data[0].period).toBe(`${today}T00:00:00.000Z`);
  });

  test("what is not supported yet is refused by name", async () => {
    for (const [query, path] of [
      ["dimensions=domain", "dimensions"],
      ["email_id=abc", "email_id"],
      ["timezone=Europe/Paris", "timezone"],
      ["metrics=sent,nope", "metrics"],
      ["granularity=yearly", ""],
    ]) {
      const refused = await t.json("GET", `/v1/emails/metrics?${query}`);
      expect(refused.status).toBe(400);
      expect(refused.body.name).toBe("validation_error");
      if (path) expect(refused.body.details[0].path).toBe(path);
    }
  });
});
