/**
 * Broadcasts (issue 44, docs/broadcasts.md) on the suite's engine, through the HTTP API and a recording provider:
 * one message per eligible contact, personalised, in the broadcast lane with `broadcast_id` and the topic on the
 * record; unsubscribed, topic-leavers and suppressed contacts get nothing; drafts alone change; cancel before the
 * fan-out returns a draft and during it stops what is not yet queued; scheduled_at is honoured; recipients by event
 * type and clicked links; pausing the broadcast lane holds broadcasts while receipts flow.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { DeliveryJob, DeliveryResult, Provider } from "../src/providers/types.ts";
import { createFanOut } from "../src/broadcasts/fan-out.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";

const delivered: DeliveryJob[] = [];
const provider: Provider = {
  name: "recording",
  async deliver(job: DeliveryJob): Promise<DeliveryResult> {
    delivered.push(job);
    return { outcome: "delivered", response: "250 2.0.0 OK" };
  },
  async close() {},
};

let t: TestApp;
const api = (method: string, path: string, body?: unknown, key?: string) =>
  t.json(method, path, { ...(body !== undefined && { body }), ...(key !== undefined && { key }) });
const fanOut = async () => {
  while ((await t.app.services.broadcastFanOut.runOnce()) > 0);
};
const drain = async () => {
  while ((await t.app.services.worker.runOnce()) > 0);
};

let segmentId = "";
let topicId = "";
const contactIds: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({}, { liveProvider: provider });
  await t.app.services.domains.add(t.operator, "news.example", { verifiedOverride: true });
  segmentId = (await api("POST", "/v1/segments", { name: "Readers" })).body.id;
  topicId = (await api("POST", "/v1/topics", { name: "Product news", default_subscription: "opt_in" })).body.id;
  expect(
    (await api("POST", "/v1/contact-properties", { key: "plan", type: "string", fallback_value: "free" })).status,
  ).toBe(200);
  const people: Array<[string, Record<string, unknown>]> = [
    ["ada@readers.test", { first_name: "Ada", properties: { plan: "pro" } }],
    ["bob@readers.test", {}],
    ["gone@readers.test", { unsubscribed: true }],
    ["left@readers.test", { topics: [{ id: topicId, subscription: "opt_out" }] }],
    ["bounced@readers.test", {}],
  ];
  for (const [email, extra] of people) {
    const created = await api("POST", "/v1/contacts", { email, segments: [{ id: segmentId }], ...extra });
    expect(created.status).toBe(200);
    contactIds[email] = created.body.id;
  }
  await api("POST", "/v1/suppressions", { email: "bounced@readers.test", reason: "manual" });
  // Not in the segment: never reached.
  await api("POST", "/v1/contacts", { email: "outsider@readers.test" });
});

afterAll(async () => {
  await t?.close();
});

const draft = (extra: Record<string, unknown> = {}) =>
  api("POST", "/v1/broadcasts", {
    name: "November",
    segment_id: segmentId,
    from: "Acme News <news@news.example>",
    subject: "Hi {{{FIRST_NAME|there}}}",
    html: '<p>Hello {{{FIRST_NAME|there}}} on {{{plan}}}</p><a href="{{{RESEND_UNSUBSCRIBE_URL}}}">Unsubscribe</a>',
    ...extra,
  });

describe("a broadcast to a segment", () => {
  test("one personalised message per eligible contact, in the broadcast lane, with the topic and broadcast_id", async () => {
    const created = await draft({ topic_id: topicId, preview_text: "What is new" });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect((await api("GET", `/v1/broadcasts/${id}`)).body).toMatchObject({
      object: "broadcast",
      status: "draft",
      segment_id: segmentId,
      audience_id: segmentId,
      topic_id: topicId,
    });
    expect((await api("POST", `/v1/broadcasts/${id}/send`, {})).body).toEqual({ id });
    await fanOut();
    const sent = (await api("GET", `/v1/broadcasts/${id}`)).body;
    expect(sent.status).toBe("sent");
    expect(sent.counts).toMatchObject({ contacts_reached: 5, messages: 2, skipped: 3 });
    expect(sent.counts.by_status.queued).toBe(2);
    expect(sent.sent_at).toEqual(expect.any(String));

    const made = await t.app.services.store.db.query.emails.findMany({ where: (e, { eq }) => eq(e.broadcastId, id) });
    expect(made.map((e) => e.to[0]).sort()).toEqual(["ada@readers.test", "bob@readers.test"]);
    for (const email of made) {
      expect(email.lane).toBe("broadcast");
      expect(email.topicId).toBe(topicId);
    }
    const ada = made.find((e) => e.to[0] === "ada@readers.test")!;
    expect(ada.subject).toBe("Hi Ada");
    expect(ada.html).toContain("Hello Ada on pro");
    expect(ada.html).toContain("What is new");
    expect(ada.html).toMatch(/href="http:\/\/[^"]+\/u\/[a-z0-9]+"/);
    const bob = made.find((e) => e.to[0] === "bob@readers.test")!;
    expect(bob.subject).toBe("Hi there");
    expect(bob.html).toContain("Hello there on free");
    expect(ada.html).not.toBe(bob.html);

    const record = (await api("GET", `/v1/emails/${ada.id}`)).body;
    expect(record).toMatchObject({ broadcast_id: id, topic_id: topicId });

    delivered.length = 0;
    await drain();
    expect(delivered.map((job) => job.recipient).sort()).toEqual(["ada@readers.test", "bob@readers.test"]);
    // Marked as a broadcast's copy: the signer gives it one-click unsubscribe headers (test/resend-sdk-broadcasts.test.ts).
    for (const job of delivered) expect(job.broadcast).toBe(true);
    const after = (await api("GET", `/v1/broadcasts/${id}`)).body;
    expect(after.counts.by_status.delivered).toBe(2);
    const recipients = (await api("GET", `/v1/broadcasts/${id}/recipients?type=delivered`)).body;
    expect(recipients.object).toBe("list");
    expect(recipients.data.map((r: { email: string }) => r.email).sort()).toEqual([
      "ada@readers.test",
      "bob@readers.test",
    ]);
    expect(recipients.data.find((r: { email: string }) => r.email === "ada@readers.test").contact_id).toBe(
      contactIds["ada@readers.test"],
    );
    expect((await api("GET", `/v1/broadcasts/${id}/recipients?type=opened`)).body.data).toEqual([]);
    expect((await api("GET", `/v1/broadcasts/${id}/clicked-links`)).body).toEqual({
      object: "list",
      has_more: false,
      data: [],
    });
    // Sent: no longer a draft.
    expect((await api("PATCH", `/v1/broadcasts/${id}`, { name: "x" })).status).toBe(409);
    expect((await api("DELETE", `/v1/broadcasts/${id}`)).status).toBe(409);
    expect((await api("POST", `/v1/broadcasts/${id}/send`, {})).status).toBe(409);
    expect((await api("POST", `/v1/broadcasts/${id}/cancel`)).status).toBe(409);
  });

  test("without a topic, only the globally unsubscribed and the suppressed are left out", async () => {
    const id = (await draft({ send: true })).body.id;
    await fanOut();
    const made = await t.app.services.store.db.query.emails.findMany({ where: (e, { eq }) => eq(e.broadcastId, id) });
    expect(made.map((e) => e.to[0]).sort()).toEqual(["ada@readers.test", "bob@readers.test", "left@readers.test"]);
    expect(made.every((e) => e.topicId === null)).toBe(true);
  });

  test("scheduled_at is honoured; cancel before the fan-out returns it to draft", async () => {
    const id = (await draft({ send: true, scheduled_at: "in 2 hours" })).body.id;
    const queued = (await api("GET", `/v1/broadcasts/${id}`)).body;
    expect(queued.status).toBe("queued");
    expect(Date.parse(queued.scheduled_at) - Date.now()).toBeGreaterThan(7_000_000);
    await fanOut();
    expect((await api("GET", `/v1/broadcasts/${id}`)).body.counts.contacts_reached).toBe(0);
    expect((await api("POST", `/v1/broadcasts/${id}/cancel`)).body).toEqual({ object: "broadcast", id });
    expect((await api("GET", `/v1/broadcasts/${id}`)).body).toMatchObject({ status: "draft", scheduled_at: null });
    await fanOut();
    expect(
      await t.app.services.store.db.query.emails.findMany({ where: (e, { eq }) => eq(e.broadcastId, id) }),
    ).toEqual([]);
    expect((await api("DELETE", `/v1/broadcasts/${id}`)).body).toEqual({ object: "broadcast", id, deleted: true });
    expect((await api("GET", `/v1/broadcasts/${id}`)).status).toBe(404);
  });

  test("cancel during the fan-out stops it as canceled: contacts not yet reached get nothing, waiting ones are canceled", async () => {
    // A fan-out of two contacts a batch, so that the cancel falls between batches.
    const small = createFanOut({
      ...t.app.services,
      db: t.app.services.store.db,
      cancelWaiting: t.app.services.broadcasts.cancelWaiting,
      maxRecipients: 50,
      options: { batch: 2 },
    });
    await drain();
    const id = (await draft()).body.id;
    expect((await api("POST", `/v1/broadcasts/${id}/send`)).status).toBe(200);
    expect(await small.runOnce()).toBe(1);
    const begun = (await api("GET", `/v1/broadcasts/${id}`)).body;
    expect(begun).toMatchObject({ status: "queued", counts: { contacts_reached: 2, messages: 2 } });
    expect((await api("POST", `/v1/broadcasts/${id}/cancel`)).body).toEqual({ object: "broadcast", id });
    while ((await small.runOnce()) > 0);
    const stopped = (await api("GET", `/v1/broadcasts/${id}`)).body;
    expect(stopped.status).toBe("canceled");
    expect(stopped.counts).toMatchObject({ contacts_reached: 2, messages: 2 });
    expect(stopped.counts.by_status).toMatchObject({ canceled: 2, queued: 0 });
    delivered.length = 0;
    await drain();
    expect(delivered).toEqual([]);
    const copy = (await api("POST", `/v1/broadcasts/${id}/duplicate`)).body;
    expect(copy).toEqual({ object: "broadcast", id: expect.any(String) });
    expect(copy.id).not.toBe(id);
    expect((await api("GET", `/v1/broadcasts/${copy.id}`)).body).toMatchObject({
      status: "draft",
      name: "November",
      subject: "Hi {{{FIRST_NAME|there}}}",
      counts: { messages: 0 },
    });
    await small.stop();
  });

  test("only a draft is sent, changed or deleted; bad references are named", async () => {
    const bad = await api("POST", "/v1/broadcasts", {
      segment_id: "00000000-0000-7000-8000-000000000000",
      from: "news@news.example",
      subject: "x",
      html: "<p>x</p>",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBe("validation_error");
    expect(JSON.stringify(bad.body)).toContain("segment_id");
    const incomplete = (await api("POST", "/v1/broadcasts", { segment_id: segmentId, from: "news@news.example" })).body
      .id;
    const refused = await api("POST", `/v1/broadcasts/${incomplete}/send`);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("subject");
    expect(
      (await api("PATCH", `/v1/broadcasts/${incomplete}`, { subject: "Now", text: "Hi {{{EMAIL}}}" })).status,
    ).toBe(200);
    expect((await api("GET", `/v1/broadcasts/${incomplete}`)).body).toMatchObject({
      subject: "Now",
      text: "Hi {{{EMAIL}}}",
    });
    const unverified = await api("PATCH", `/v1/broadcasts/${incomplete}`, { from: "news@elsewhere.example" });
    expect(unverified.status).toBe(200);
    const notOurs = await api("POST", `/v1/broadcasts/${incomplete}/send`);
    expect(notOurs.status).toBe(422);
    expect(notOurs.body.name).toBe("domain_not_verified");
    expect((await api("GET", `/v1/broadcasts/${incomplete}`)).body.status).toBe("draft");
    const list = (await api("GET", "/v1/broadcasts?limit=2")).body;
    expect(list).toMatchObject({ object: "list", has_more: true });
    expect(list.data[0]).toMatchObject({ id: incomplete, status: "draft", segment_id: segmentId });
  });

  test("a create with send: true that cannot be sent leaves no draft; a deleted topic cancels a queued broadcast", async () => {
    const before = (await api("GET", "/v1/broadcasts?limit=100")).body.data.length;
    const refused = await draft({ send: true, from: "news@elsewhere.example" });
    expect(refused.status).toBe(422);
    expect((await api("GET", "/v1/broadcasts?limit=100")).body.data.length).toBe(before);

    const topic = (await api("POST", "/v1/topics", { name: "Short-lived", default_subscription: "opt_in" })).body.id;
    const id = (await draft({ send: true, topic_id: topic, scheduled_at: "in 1 minute" })).body.id;
    expect((await api("DELETE", `/v1/topics/${topic}`)).status).toBe(200);
    // Its time comes (the schedule brought forward in the store).
    const { broadcasts } = t.app.services.store.db._.fullSchema;
    await t.app.services.store.db.update(broadcasts).set({ nextAttemptAt: Date.now() }).where(eq(broadcasts.id, id));
    await fanOut();
    expect((await api("GET", `/v1/broadcasts/${id}`)).body).toMatchObject({
      status: "canceled",
      counts: { messages: 0 },
    });
  });

  test("a sending-only key may not broadcast; a read key reads", async () => {
    const sender = await t.app.services.keys.create(t.operator, {
      name: "sender",
      scopes: ["sending_access"],
      mode: "live",
    });
    const refused = await api(
      "POST",
      "/v1/broadcasts",
      { segment_id: segmentId, from: "news@news.example", subject: "x", html: "x", send: true },
      sender.key,
    );
    expect(refused.status).toBe(403);
    expect(refused.body.name).toBe("insufficient_scope");
  });
});

describe("lanes", () => {
  test("pausing the broadcast lane holds broadcasts while receipts flow", async () => {
    expect((await api("POST", "/v1/sending/pause", { scope: "lane", name: "broadcast" })).status).toBe(200);
    const id = (await draft({ send: true })).body.id;
    await fanOut();
    const receipt = await api("POST", "/v1/emails", {
      from: "shop@news.example",
      to: "buyer@readers.test",
      subject: "Your receipt",
      text: "Thanks",
    });
    delivered.length = 0;
    await drain();
    expect(delivered.map((job) => job.recipient)).toEqual(["buyer@readers.test"]);
    expect((await api("GET", `/v1/broadcasts/${id}`)).body.counts.by_status.held).toBe(3);
    const summary = (await api("GET", "/v1/deliveries/summary")).body;
    expect(summary.by_lane.find((l: { lane: string }) => l.lane === "broadcast").held).toBe(3);
    expect(receipt.status).toBe(200);
    expect((await api("POST", "/v1/sending/resume", { scope: "lane", name: "broadcast" })).body.released).toBe(3);
    await drain();
    expect((await api("GET", `/v1/broadcasts/${id}`)).body.counts.by_status.delivered).toBe(3);
  });
});
