/**
 * The organisation's settings and daily quotas (issue 28, docs/operations.md) on the suite's engine, through the HTTP API,
 * the SMTP relay and the CLI: GET/PATCH /v1/organization with its validation and scopes; the organisation's quota
 * of live messages per UTC day (429 daily_quota_exceeded with Retry-After to the next UTC day, a batch refused
 * whole, test mail not counted, 452 4.5.3 over SMTP) and a key's own; on PostgreSQL, one quota counted across two
 * instances sharing the store.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ManualClock } from "../src/lib/clock.ts";
import { createApp } from "../src/server/app.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { runCli } from "./helpers/process.ts";
import { authPlain, smtpChat, type SmtpChat } from "./helpers/smtp-chat.ts";

// 21:00 UTC: three hours to the next UTC day.
const clock = new ManualClock(Date.parse("2026-03-02T21:00:00.000Z"));
let t: TestApp;

const send = (key?: string, to = "someone@dest.example") =>
  t.json("POST", "/v1/emails", { body: { from: "hello@example.com", to, subject: "Quota", text: "Hi" }, key });
const organization = async () => (await t.json("GET", "/v1/organization")).body;
const setQuota = async (daily_quota: number | null) =>
  expect((await t.json("PATCH", "/v1/organization", { body: { daily_quota } })).status).toBe(200);
const storedEmails = async () => (await t.app.services.store.db.query.emails.findMany()).length;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
});

afterAll(() => t?.close());

describe("GET and PATCH /v1/organization", () => {
  test("shows the settings in force, today's usage, retention, storage and the pause", async () => {
    expect(await organization()).toEqual({
      object: "organization",
      id: t.organizationId,
      name: "Default",
      rate_limit: t.config.limits.org_requests_per_minute,
      daily_quota: null,
      usage_today: 0,
      retention: { content_days: 30, metadata_days: 400 },
      paused: false,
      storage: null,
      created_at: expect.any(String),
    });
    await t.json("POST", "/v1/sending/pause", { body: { scope: "organization" } });
    expect((await organization()).paused).toBe(true);
    await t.json("POST", "/v1/sending/resume", { body: { scope: "organization" } });
  });

  test("changes the name and the request limit, which the rate-limit headers then show; null returns to the default", async () => {
    const patched = await t.json("PATCH", "/v1/organization", { body: { name: "Acme Mail", rate_limit: 250 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: "Acme Mail", rate_limit: 250 });
    const next = await t.request("GET", "/v1/organization");
    expect(next.headers.get("ratelimit-policy")).toContain('250;w=60;comment="organization"');
    const reset = await t.json("PATCH", "/v1/organization", { body: { rate_limit: null } });
    expect(reset.body.rate_limit).toBe(t.config.limits.org_requests_per_minute);
  });

  test.each([
    [{ daily_quota: 0 }, "daily_quota"],
    [{ rate_limit: "many" }, "rate_limit"],
    [{ retention: { content_days: 0 } }, "retention.content_days"],
    [{ retention: { metadata_days: 1.5 } }, "retention.metadata_days"],
    [{ name: "  " }, "name"],
    [{ paused: true }, "paused"],
  ])("refuses %j with 400 validation_error naming %s", async (body, path) => {
    const { status, body: error } = await t.json("PATCH", "/v1/organization", { body });
    expect(status).toBe(400);
    expect(error.name).toBe("validation_error");
    expect(JSON.stringify(error)).toContain(path);
  });

  test("needs organization:read and organization:write; a test key is refused both", async () => {
    const sender = await t.app.services.keys.create(t.operator, { name: "sender", scopes: ["sending_access"] });
    expect((await t.json("GET", "/v1/organization", { key: sender.key })).status).toBe(403);
    expect((await t.json("GET", "/v1/organization", { key: t.testKey })).status).toBe(403);
    const patched = await t.json("PATCH", "/v1/organization", { body: { name: "x" }, key: t.testKey });
    expect(patched.status).toBe(403);
    expect(patched.body.name).toBe("insufficient_scope");
  });
});

describe("the organisation's daily quota", () => {
  afterEach(() => setQuota(null));

  test("counts live messages of the UTC day; past it 429 with Retry-After to midnight, and nothing is stored", async () => {
    const usedBefore = (await organization()).usage_today;
    await setQuota(usedBefore + 3);
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);

    const stored = await storedEmails();
    const batch = await t.json("POST", "/v1/emails/batch", {
      body: [1, 2].map((i) => ({ from: "hello@example.com", to: `b${i}@dest.example`, subject: "Batch", text: "Hi" })),
    });
    expect(batch.status).toBe(429);
    expect(batch.body.name).toBe("daily_quota_exceeded");
    expect(batch.headers.get("retry-after")).toBe(String(3 * 3600));
    expect(await storedEmails()).toBe(stored);

    expect((await send()).status).toBe(200);
    const over = await send();
    expect(over.status).toBe(429);
    expect(over.body.message).toContain(`daily quota of ${usedBefore + 3} messages`);
    // Test mail is never delivered: it does not count, and it is not refused.
    expect((await send(t.testKey)).status).toBe(200);
    expect((await organization()).usage_today).toBe(usedBefore + 3);
  });

  test("starts again at 00:00 UTC", async () => {
    await setQuota(1);
    clock.set(Date.parse("2026-03-03T00:00:01.000Z"));
    expect((await organization()).usage_today).toBe(0);
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(429);
    expect((await organization()).usage_today).toBe(1);
  });

  test("over SMTP the relay answers 452 4.5.3, temporary", async () => {
    await setQuota((await organization()).usage_today);
    const listeners = await t.app.start();
    const port = listeners.find((l) => l.name === "submission")!.port;
    const ca = readFileSync(join(t.dataDir, "tls", "smtp-cert.pem"), "utf8");
    const chat: SmtpChat = await smtpChat(port, { ca });
    try {
      await chat.send("EHLO client.test");
      await chat.starttls();
      await chat.send("EHLO client.test");
      expect((await chat.send(authPlain("apikey", t.liveKey))).code).toBe(235);
      expect((await chat.send("MAIL FROM:<hello@example.com>")).code).toBe(250);
      expect((await chat.send("RCPT TO:<someone@dest.example>")).code).toBe(250);
      expect((await chat.send("DATA")).code).toBe(354);
      const reply = await chat.data(
        "From: hello@example.com\r\nTo: someone@dest.example\r\nSubject: Quota\r\n\r\nHi\r\n.\r\n",
      );
      expect(reply.code).toBe(452);
      expect(reply.text).toStartWith("4.5.3");
    } finally {
      chat.close();
    }
  });
});

describe("a key's daily quota", () => {
  test("is its own, on top of the organisation's; a key cannot mint a key with more", async () => {
    const created = await t.json("POST", "/v1/api-keys", { body: { name: "capped", daily_quota: 1 } });
    expect(created.status).toBe(201);
    expect(created.body.daily_quota).toBe(1);
    const capped = created.body.token as string;
    expect((await send(capped)).status).toBe(200);
    const over = await send(capped);
    expect(over.status).toBe(429);
    expect(over.body.message).toContain("This API key's daily quota of 1 messages");
    // The organisation's other keys are not affected.
    expect((await send()).status).toBe(200);

    const refused = await t.json("POST", "/v1/api-keys", { body: { name: "more", daily_quota: 2 }, key: capped });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("this key may send 1 messages a day");
    // Without one of its own, a key it mints takes its quota, as it takes its rate limit.
    const minted = await t.json("POST", "/v1/api-keys", { body: { name: "same" }, key: capped });
    expect(minted.status).toBe(201);
    expect(minted.body.daily_quota).toBe(1);
  });
});

describe.skipIf(!process.env.MAILROOM_TEST_STORE)("across two instances sharing PostgreSQL", () => {
  test("one quota: together they accept exactly as many messages as it allows", async () => {
    const usedBefore = (await organization()).usage_today;
    await setQuota(usedBefore + 10);
    const second = await createApp(t.config, { logger: silentLogger, clock });
    try {
      const viaSecond = (i: number) =>
        second.http.handle(
          new Request("http://localhost/v1/emails", {
            method: "POST",
            headers: { authorization: `Bearer ${t.liveKey}`, "content-type": "application/json" },
            body: JSON.stringify({ from: "hello@example.com", to: `two${i}@dest.example`, subject: "Two", text: "Hi" }),
          }),
        );
      const statuses = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          i % 2 ? viaSecond(i).then((r) => r.status) : send(undefined, `one${i}@dest.example`).then((r) => r.status),
        ),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(10);
      expect(statuses.filter((status) => status === 429)).toHaveLength(6);
      expect((await organization()).usage_today).toBe(usedBefore + 10);
    } finally {
      await second.stop();
      await setQuota(null);
    }
  });
});

describe("mailroom org", () => {
  test("show and set, as the operator runs them beside the server", async () => {
    const env = { MAILROOM_DATA_DIR: t.dataDir, ...(t.config.store.url && { MAILROOM_STORE_URL: t.config.store.url }) };
    const set = JSON.parse(
      await runCli(["org", "set", "--daily-quota", "5000", "--content-days", "7", "--name", "Ops", "--json"], env),
    );
    expect(set).toMatchObject({ name: "Ops", daily_quota: 5000, retention: { content_days: 7, metadata_days: 400 } });
    const shown = await runCli(["org", "show"], env);
    expect(shown).toContain("daily quota:   5000");
    expect(shown).toContain("content 7 days, records 400 days");
    expect(await runCli(["org", "set", "--daily-quota", "none", "--content-days", "default"], env)).toContain(
      "daily quota:   none",
    );
    expect(await organization()).toMatchObject({ daily_quota: null, retention: { content_days: 30 } });
  });
});
