/**
 * Retention (issue 28, docs/operations.md) on the suite's engine, with an injected clock: after the content window a
 * finished message loses its raw MIME, bodies and attachments — `/raw` and attachments answer 410 `gone`, the record
 * keeps its recipients and events with `content_removed_at` — while a message still deferred keeps everything;
 * after the metadata window finished records go whole and the statistics still count them (hourly rollups);
 * per-organisation windows; what is stored on GET /v1/organization and /metrics; SQLite gives the pages back.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "../src/lib/clock.ts";
import type { DeliveryJob, DeliveryResult, Provider } from "../src/providers/types.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";

const DAY = 86_400_000;
const clock = new ManualClock(Date.parse("2026-01-10T10:15:00.000Z"));
/** Delivers everything but mail to slow.example, which is deferred at every attempt. */
const provider: Provider = {
  name: "counting",
  async deliver(job: DeliveryJob): Promise<DeliveryResult> {
    if (job.recipient.endsWith("@slow.example")) return { outcome: "temporary", response: "451 4.4.1 try later" };
    return { outcome: "delivered", response: "250 2.0.0 OK" };
  },
  async close() {},
};

let t: TestApp;
let delivered: string;
let deferred: string;
const statsWindow = { from: "2026-01-10T00:00:00Z", to: "2026-01-11T00:00:00Z", interval: "hour" };
const stats = async () =>
  (await t.json("GET", `/v1/emails/stats?${new URLSearchParams(statsWindow)}`)).body as { totals: object };
let statsBefore: object;

const send = async (to: string, extra: Record<string, unknown> = {}) => {
  const { status, body } = await t.json("POST", "/v1/emails", {
    body: { from: "hello@example.com", to, subject: "Kept?", html: "<p>Hi</p>", ...extra },
  });
  expect(status).toBe(200);
  return body.id as string;
};
const runRetention = async (days: number) => {
  clock.set(clock.now() + days * DAY);
  return t.app.services.retention.runOnce();
};

beforeAll(async () => {
  t = await createTestApp({}, { clock, liveProvider: provider });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  delivered = await send("someone@dest.example", {
    attachments: [{ filename: "a.txt", content: Buffer.from("attached").toString("base64") }],
  });
  deferred = await send("someone@slow.example");
  await t.app.services.worker.runOnce();
  // Events of no message: they go with the metadata window too.
  await t.json("POST", "/v1/sending/pause", { body: { scope: "organization" } });
  await t.json("POST", "/v1/sending/resume", { body: { scope: "organization" } });
  statsBefore = (await stats()).totals;
  expect(statsBefore).toMatchObject({ accepted: 2, delivered: 1, delivery_delayed: 1 });
});

afterAll(() => t?.close());

describe("content retention", () => {
  test("nothing is removed inside the window; the storage figures count what is kept", async () => {
    const run = await runRetention(29);
    expect(run.contentRemoved).toBe(0);
    const { body } = await t.json("GET", "/v1/organization");
    expect(body.retention).toEqual({ content_days: 30, metadata_days: 400 });
    expect(body.storage).toMatchObject({ messages: 2 });
    expect(body.storage.content_bytes).toBeGreaterThan(500);
    expect((await t.request("GET", `/v1/emails/${delivered}/raw`)).status).toBe(200);
  });

  test("past it, a delivered message's content goes: /raw and attachments answer 410 gone, the record stays", async () => {
    const bytesBefore = (await t.json("GET", "/v1/organization")).body.storage.content_bytes;
    const run = await runRetention(2);
    expect(run.contentRemoved).toBe(1);

    const raw = await t.json("GET", `/v1/emails/${delivered}/raw`);
    expect(raw.status).toBe(410);
    expect(raw.body).toMatchObject({ name: "gone" });
    expect((await t.json("GET", `/v1/emails/${delivered}/attachments`)).status).toBe(410);

    const record = (await t.json("GET", `/v1/emails/${delivered}`)).body;
    expect(record.content_removed_at).toBe(new Date(clock.now()).toISOString());
    expect(record.html).toBeNull();
    expect(record.subject).toBe("Kept?");
    expect(record.recipients).toEqual([
      expect.objectContaining({ email: "someone@dest.example", status: "delivered" }),
    ]);
    expect(record.events.map((e: { type: string }) => e.type)).toEqual(["email.queued", "email.delivered"]);

    const storage = (await t.json("GET", "/v1/organization")).body.storage;
    expect(storage.messages).toBe(2);
    expect(storage.content_bytes).toBeLessThan(bytesBefore);
  });

  test("a message still deferred keeps its content, however old", async () => {
    const record = (await t.json("GET", `/v1/emails/${deferred}`)).body;
    expect(record.content_removed_at).toBeNull();
    expect(record.html).toContain("Hi");
    expect((await t.request("GET", `/v1/emails/${deferred}/raw`)).status).toBe(200);
  });

  test("the storage figures are on /metrics", async () => {
    const text = await (await t.request("GET", "/metrics", { key: null })).text();
    expect(text).toContain(`mailroom_stored_messages{organization="${t.organizationId}"} 2`);
    expect(text).toMatch(/mailroom_stored_content_bytes\{organization="[^"]+"\} \d+/);
  });
});

describe("metadata retention", () => {
  test("past it a finished record goes whole, a deferred one stays, and the statistics still count both", async () => {
    const run = await runRetention(400);
    expect(run.messagesRemoved).toBe(1);
    // domain.created, sending.paused and sending.resumed: events of no message; in the audit log the same three and
    // the two keys the test app made.
    expect(run.eventsRemoved).toBe(3);
    expect(run.auditEventsRemoved).toBe(5);
    expect((await t.json("GET", `/v1/emails/${delivered}`)).status).toBe(404);
    // Over a year old and still deferred: record and content both stay.
    expect((await t.json("GET", `/v1/emails/${deferred}`)).body.content_removed_at).toBeNull();
    expect((await t.request("GET", `/v1/emails/${deferred}/raw`)).status).toBe(200);
    expect((await stats()).totals).toEqual(statsBefore);
    expect((await t.json("GET", "/v1/organization")).body.storage.messages).toBe(1);
  });
});

describe("per-organisation windows", () => {
  test("PATCH /v1/organization shortens the content window; null returns to the default", async () => {
    const patched = await t.json("PATCH", "/v1/organization", { body: { retention: { content_days: 1 } } });
    expect(patched.status).toBe(200);
    expect(patched.body.retention).toEqual({ content_days: 1, metadata_days: 400 });
    const id = await send("another@dest.example");
    await t.app.services.worker.runOnce();
    await runRetention(0.5);
    expect((await t.request("GET", `/v1/emails/${id}/raw`)).status).toBe(200);
    await runRetention(1);
    expect((await t.request("GET", `/v1/emails/${id}/raw`)).status).toBe(410);

    const reset = await t.json("PATCH", "/v1/organization", { body: { retention: { content_days: null } } });
    expect(reset.body.retention).toEqual({ content_days: 30, metadata_days: 400 });
  });
});

describe("the store's space", () => {
  test.skipIf(process.env.MAILROOM_TEST_STORE === "postgres")(
    "SQLite runs with auto_vacuum=incremental and gives freed pages back after a run",
    async () => {
      const sqlite = (t.app.services.store as unknown as { sqlite: import("bun:sqlite").Database }).sqlite;
      expect(sqlite.query("PRAGMA auto_vacuum").get()).toEqual({ auto_vacuum: 2 });
      const big = "x".repeat(200_000);
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push(await send(`big${i}@dest.example`, { html: `<p>${big}${i}</p>` }));
      await t.app.services.worker.runOnce();
      expect((await runRetention(31)).contentRemoved).toBeGreaterThanOrEqual(5);
      for (const id of ids) expect((await t.request("GET", `/v1/emails/${id}/raw`)).status).toBe(410);
      expect(sqlite.query("PRAGMA freelist_count").get()).toEqual({ freelist_count: 0 });
    },
  );
});
