/**
 * GET /v1/emails/stats through `app.handle` on a real store (SQLite, or PostgreSQL with MAILROOM_TEST_STORE):
 * mail sent through the API and delivered for real — to the capture provider (test key) and to an SMTP server on
 * loopback that accepts one recipient and refuses another (live key) — then a suppressed recipient, a rescheduled
 * message and a feedback report, at times set by an injected clock; the answer's buckets count each as it happened.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { operatorActor } from "../src/access.ts";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { inboundFixture } from "./helpers/inbound-fixtures.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

let smtp: SmtpDouble;
let t: TestApp;
const clock = new ManualClock(Date.parse("2026-11-22T10:15:00.000Z"));

const ZERO = {
  accepted: 0,
  sent: 0,
  delivered: 0,
  delivery_delayed: 0,
  bounced: 0,
  complained: 0,
  failed: 0,
  suppressed: 0,
};
const HOUR_10 = { ...ZERO, accepted: 2, delivered: 2, sent: 1, bounced: 1 };
const HOUR_12 = { ...ZERO, accepted: 2, suppressed: 1, complained: 1 };

const stats = (params: Record<string, string>, key?: string) =>
  t.json("GET", `/v1/emails/stats?${new URLSearchParams(params)}`, { key });
const send = async (body: Record<string, unknown>, key?: string) => {
  const res = await t.json("POST", "/v1/emails", {
    body: { from: "Acme <hello@example.com>", subject: "Stats", html: "<p>Hi</p>", ...body },
    key,
  });
  expect(res.status).toBe(200);
  return res.body.id as string;
};

beforeAll(async () => {
  smtp = await startSmtpDouble();
  smtp.rules.set("gone@dest.test", { reply: "reject", code: 550, message: "5.1.1 User unknown" });
  t = await createTestApp(
    { delivery: { default_provider: "smtp" }, smarthost: { host: "127.0.0.1", port: smtp.port, security: "none" } },
    { clock },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });

  // 10:15 — a test-key message to two recipients, captured (2 delivered); a live message to the smarthost, which
  // takes one recipient (sent) and refuses the other for good (bounced, and suppressed from now on).
  await send({ to: ["a@dest.test", "b@dest.test"] }, t.testKey);
  const live = await send({ to: ["someone@dest.test", "gone@dest.test"] });
  await t.app.services.worker.runOnce();
  expect(smtp.received).toHaveLength(1);

  // 12:30 — the refused address again beside a new one (suppressed, never attempted; the other waits); a scheduled message, then rescheduled (still one
  // accepted message); a feedback report about the message the smarthost took (complained).
  clock.set(Date.parse("2026-11-22T12:30:00.000Z"));
  await send({ to: ["gone@dest.test", "new@dest.test"] });
  const scheduled = await send({ to: "later@dest.test", scheduled_at: "2026-11-23T09:00:00Z" }, t.testKey);
  expect(
    (
      await t.json("PATCH", `/v1/emails/${scheduled}`, {
        body: { scheduled_at: "2026-11-23T10:00:00Z" },
        key: t.testKey,
      })
    ).status,
  ).toBe(200);
  const record = (await t.json("GET", `/v1/emails/${live}`)).body;
  const report = inboundFixture("arf-yahoo", { messageId: record.message_id, returnPath: smtp.received[0]!.mailFrom });
  expect(
    await t.app.services.inbound.receive(Buffer.from(report), {
      from: "feedback@arf.mail.yahoo.com",
      to: ["fbl@example.com"],
    }),
  ).toMatchObject([{ handled: "complaint" }]);
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe("GET /v1/emails/stats", () => {
  test("counts accepted messages and recipients' events per hour, with every hour of the range present", async () => {
    const res = await stats({ from: "2026-11-22T09:00:00Z", to: "2026-11-22T13:00:00Z" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      object: "email_stats",
      interval: "hour",
      from: "2026-11-22T09:00:00.000Z",
      to: "2026-11-22T13:00:00.000Z",
      buckets: [
        { start: "2026-11-22T09:00:00.000Z", ...ZERO },
        { start: "2026-11-22T10:00:00.000Z", ...HOUR_10 },
        { start: "2026-11-22T11:00:00.000Z", ...ZERO },
        { start: "2026-11-22T12:00:00.000Z", ...HOUR_12 },
      ],
      totals: { ...ZERO, accepted: 4, delivered: 2, sent: 1, bounced: 1, suppressed: 1, complained: 1 },
    });
  });

  test("a range that does not start on the hour has a partial first bucket, counting only from `from`", async () => {
    const res = await stats({ from: "2026-11-22T11:20:00+01:00", to: "2026-11-22T12:00:00.000Z" });
    expect(res.body.buckets).toEqual([
      { start: "2026-11-22T10:00:00.000Z", ...ZERO },
      { start: "2026-11-22T11:00:00.000Z", ...ZERO },
    ]);
  });

  test("over 48 hours the interval is a UTC day; asked for, hours are given", async () => {
    const daily = await stats({ from: "2026-11-20T00:00:00Z", to: "2026-11-23T00:00:00Z" });
    expect(daily.body.interval).toBe("day");
    expect(daily.body.buckets.map((b: { start: string; accepted: number }) => [b.start, b.accepted])).toEqual([
      ["2026-11-20T00:00:00.000Z", 0],
      ["2026-11-21T00:00:00.000Z", 0],
      ["2026-11-22T00:00:00.000Z", 4],
    ]);
    const hourly = await stats({ from: "2026-11-20T00:00:00Z", to: "2026-11-23T00:00:00Z", interval: "hour" });
    expect(hourly.body.interval).toBe("hour");
    expect(hourly.body.buckets).toHaveLength(72);
    expect(hourly.body.totals).toEqual(daily.body.totals);
    // Exactly 48 hours is still hourly.
    expect((await stats({ from: "2026-11-20T13:00:00Z", to: "2026-11-22T13:00:00Z" })).body.interval).toBe("hour");
  });

  test("`to` is exclusive: events at that very instant are left for the next range", async () => {
    const res = await stats({ from: "2026-11-22T10:00:00Z", to: "2026-11-22T12:30:00Z" });
    expect(res.body.buckets.map((b: { start: string }) => b.start.slice(11, 13))).toEqual(["10", "11", "12"]);
    expect(res.body.totals).toEqual(HOUR_10);
  });

  test("without parameters: the 7 days up to now, by day", async () => {
    clock.set(Date.parse("2026-11-22T12:45:00.000Z"));
    const res = await stats({});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      interval: "day",
      from: "2026-11-15T12:45:00.000Z",
      to: "2026-11-22T12:45:00.000Z",
    });
    expect(res.body.buckets.map((b: { start: string }) => b.start)).toEqual(
      ["15", "16", "17", "18", "19", "20", "21", "22"].map((d) => `2026-11-${d}T00:00:00.000Z`),
    );
    expect(res.body.buckets.at(-1)).toEqual({ start: "2026-11-22T00:00:00.000Z", ...res.body.totals });
    expect(res.body.totals.accepted).toBe(4);
  });

  test("another organisation's key sees none of it; a key without emails:read is refused", async () => {
    const otherId = crypto.randomUUID();
    await t.app.services.store.query(
      sql`INSERT INTO organizations (id, name, created_at) VALUES (${otherId}, 'other', ${new Date(clock.now()).toISOString()})`,
    );
    const other = await t.app.services.keys.create(operatorActor(otherId), { name: "other", scopes: ["full_access"] });
    const res = await stats({ from: "2026-11-22T09:00:00Z", to: "2026-11-22T13:00:00Z" }, other.key);
    expect(res.status).toBe(200);
    expect(res.body.buckets).toHaveLength(4);
    expect(res.body.totals).toEqual(ZERO);
    const sender = await t.app.services.keys.create(t.operator, { name: "sender", scopes: ["emails:send"] });
    expect((await stats({}, sender.key)).body).toMatchObject({ name: "insufficient_scope" });
  });

  test.each([
    ["a `from` that is not a timestamp", { from: "yesterday" }, "from"],
    ["a date without a time", { from: "2026-11-22" }, "from"],
    ["a time without its zone", { to: "2026-11-22T10:00:00" }, "to"],
    ["an impossible `to`", { to: "2026-13-45T00:00:00Z" }, "to"],
    ["`from` equal to `to`", { from: "2026-11-22T10:00:00Z", to: "2026-11-22T10:00:00Z" }, "from"],
    ["`from` after `to`", { from: "2026-11-22T11:00:00Z", to: "2026-11-22T10:00:00Z" }, "from"],
    ["a range over 90 days", { from: "2026-08-01T00:00:00Z", to: "2026-11-01T00:00:00Z" }, "from"],
    ["an unknown interval", { interval: "week" }, "interval"],
    [
      "more than 2,000 hourly buckets",
      { from: "2026-08-15T00:00:00Z", to: "2026-11-10T00:00:00Z", interval: "hour" },
      "interval",
    ],
  ])("%s is 400 validation_error naming the parameter", async (_name, params, path) => {
    const res = await stats(params);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: "validation_error", details: [{ path }] });
  });

  test("the route is in the OpenAPI document with its parameters", async () => {
    const spec = await t.json("GET", "/openapi.json", { key: null });
    const get = spec.body.paths["/v1/emails/stats"].get;
    expect(get.parameters.map((p: { name: string }) => p.name)).toEqual(["from", "to", "interval"]);
  });
});

describe("test addresses (issue 49 item 6)", () => {
  test("mail to test addresses alone is not accepted either, so the figures add up; beside a real recipient it is", async () => {
    // What the suite left waiting goes out first, in an hour of its own.
    clock.set(Date.parse("2026-11-24T07:10:00.000Z"));
    for (let i = 0; i < 5; i++) await t.app.services.worker.runOnce();
    clock.set(Date.parse("2026-11-24T08:10:00.000Z"));
    await send({ to: ["delivered@simulator.mailroom.test", "bounced@simulator.mailroom.test"] });
    await send({ to: ["bounced@simulator.mailroom.test", "real@dest.test"] });
    for (let i = 0; i < 5; i++) await t.app.services.worker.runOnce();
    const res = await stats({ from: "2026-11-24T08:00:00Z", to: "2026-11-24T09:00:00Z" });
    // One message accepted (the one with a real recipient), its real recipient taken by the smarthost; the
    // rehearsed delivery and bounces count nowhere.
    expect(res.body.totals).toEqual({ ...ZERO, accepted: 1, sent: 1 });
  });
});
