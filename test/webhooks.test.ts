/**
 * Webhooks end to end: a real receiver on loopback verifies every request with the standardwebhooks package;
 * events come from real sends, deliveries and suppressions; retries are driven by an injected clock and
 * `webhookDispatcher.runOnce()`; restarts reopen the same data directory.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import { createApp, type App } from "../src/server/app.ts";
import { operatorActor } from "../src/access.ts";
import { ManualClock } from "../src/lib/clock.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { createTestApp, tempDir, testConfig, type TestApp } from "./helpers/app.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./helpers/webhook-receiver.ts";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

let t: TestApp;
let clock: ManualClock;
let receiver: WebhookReceiver;

beforeEach(async () => {
  clock = new ManualClock(Date.now());
  receiver = await startWebhookReceiver({ clock });
  t = await createTestApp({ webhooks: { allow_private_networks: true } }, { clock });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
});

afterEach(async () => {
  await t.close();
  await receiver.close();
});

async function register(events: string[], endpoint = receiver.url) {
  const res = await t.json("POST", "/v1/webhooks", { body: { endpoint, events, description: "test receiver" } });
  expect(res.status).toBe(200);
  receiver.secrets.push(res.body.signing_secret);
  return res.body as { id: string; signing_secret: string };
}

const dispatch = () => t.app.services.webhookDispatcher.runOnce();
const suppress = (email: string) => t.json("POST", "/v1/suppressions", { body: { email } });
const deliveries = async (webhookId: string) => (await t.json("GET", `/v1/webhooks/${webhookId}/events`)).body.data;
const detail = async (webhookId: string, deliveryId: string) =>
  (await t.json("GET", `/v1/webhooks/${webhookId}/events/${deliveryId}`)).body;
const webhook = async (webhookId: string) => (await t.json("GET", `/v1/webhooks/${webhookId}`)).body;

describe("webhook endpoints", () => {
  test("creating returns a whsec_ signing secret once; get and list never show it", async () => {
    const created = await register(["email.delivered"]);
    expect(created.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created).toMatchObject({
      object: "webhook",
      endpoint: receiver.url,
      events: ["email.delivered"],
      status: "enabled",
      description: "test receiver",
    });
    const got = await webhook(created.id);
    expect(got.signing_secret).toBeUndefined();
    const list = await t.json("GET", "/v1/webhooks");
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([created.id]);
    expect(JSON.stringify(list.body)).not.toContain("whsec_");
  });

  test("the secret is sealed at rest", async () => {
    const created = await register(["email.delivered"]);
    const [row] = await t.app.services.store.query<{ secret: string }>(sql`SELECT secret FROM webhook_endpoints`);
    expect(row!.secret).not.toContain(created.signing_secret.slice("whsec_".length, 20));
    expect(row!.secret.startsWith("v1:")).toBe(true);
  });

  test.each([
    [{ endpoint: "https://example.org/hook", events: [] }, "events"],
    [{ endpoint: "https://example.org/hook", events: ["email.exploded"] }, "events.0"],
    [{ endpoint: "not a url", events: ["email.sent"] }, "endpoint"],
    [{ endpoint: "ftp://example.org/hook", events: ["email.sent"] }, "endpoint"],
    [{ events: ["email.sent"] }, "endpoint"],
    [{ endpoint: "https://example.org/hook", events: ["email.sent"], secret: "mine" }, "secret"],
  ])("a create body %j is refused at %s", async (body, path) => {
    const res = await t.json("POST", "/v1/webhooks", { body });
    expect(res.status).toBe(400);
    expect(res.body.name).toBe("validation_error");
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  test("webhooks:read may list but not create; other scopes may do neither", async () => {
    const reader = await t.app.services.keys.create(t.operator, { name: "r", scopes: ["webhooks:read"] });
    const sender = await t.app.services.keys.create(t.operator, { name: "s", scopes: ["sending_access"] });
    expect((await t.json("GET", "/v1/webhooks", { key: reader.key })).status).toBe(200);
    const refused = await t.json("POST", "/v1/webhooks", {
      key: reader.key,
      body: { endpoint: receiver.url, events: ["email.sent"] },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.name).toBe("insufficient_scope");
    expect((await t.json("GET", "/v1/webhooks", { key: sender.key })).status).toBe(403);
  });

  test("another organisation's webhook is 404", async () => {
    const created = await register(["email.sent"]);
    const otherId = crypto.randomUUID();
    await t.app.services.store.query(
      sql`INSERT INTO organizations (id, name, created_at) VALUES (${otherId}, 'other', ${new Date().toISOString()})`,
    );
    const key = await t.app.services.keys.create(operatorActor(otherId), { name: "o", scopes: ["full_access"] });
    expect((await t.json("GET", `/v1/webhooks/${created.id}`, { key: key.key })).status).toBe(404);
  });

  test("update changes events and description; delete removes the endpoint", async () => {
    const created = await register(["email.sent"]);
    const updated = await t.json("PATCH", `/v1/webhooks/${created.id}`, {
      body: { events: ["email.bounced", "email.complained"], description: null },
    });
    expect(updated.body).toMatchObject({ events: ["email.bounced", "email.complained"], description: null });
    const deleted = await t.json("DELETE", `/v1/webhooks/${created.id}`);
    expect(deleted.body).toEqual({ object: "webhook", id: created.id, deleted: true });
    expect((await t.json("GET", `/v1/webhooks/${created.id}`)).status).toBe(404);
  });

  test("a test event or replay racing the endpoint's deletion answers 200 or 404, never 500", async () => {
    for (let round = 0; round < 5; round++) {
      const created = await register(["email.sent"]);
      const [sent, deleted] = await Promise.all([
        t.json("POST", `/v1/webhooks/${created.id}/test`),
        t.json("DELETE", `/v1/webhooks/${created.id}`),
      ]);
      expect(deleted.status).toBe(200);
      expect([200, 404]).toContain(sent.status);
      const kept = await register(["email.sent"]);
      const queued = (await t.json("POST", `/v1/webhooks/${kept.id}/test`)).body;
      await dispatch();
      const [replayed] = await Promise.all([
        t.json("POST", `/v1/webhooks/${kept.id}/events/${queued.id}/replay`),
        t.json("DELETE", `/v1/webhooks/${kept.id}`),
      ]);
      expect([200, 404]).toContain(replayed.status);
    }
  });
});

describe("fan-out and signing", () => {
  test("every event of a sent message reaches the receiver, signed, with the message's fields", async () => {
    const hook = await register(["email.queued", "email.delivered"]);
    const sent = await t.json("POST", "/v1/emails", {
      body: {
        from: "Acme <hi@example.com>",
        to: "a@dest.test",
        subject: "Hello",
        html: "<p>Hi</p>",
        tags: [{ name: "kind", value: "welcome" }],
      },
    });
    expect(await dispatch()).toBe(1);
    await t.app.services.worker.runOnce();
    expect(await dispatch()).toBe(1);

    expect(receiver.received.map((r) => r.payload.type)).toEqual(["email.queued", "email.delivered"]);
    for (const request of receiver.received) {
      expect(request.verifiedWith).toEqual([0]);
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers["svix-id"]).toBe(request.headers["webhook-id"]);
      expect(request.headers["svix-timestamp"]).toBe(request.headers["webhook-timestamp"]);
      expect(request.headers["svix-signature"]).toBe(request.headers["webhook-signature"]);
      expect(request.headers["webhook-timestamp"]).toBe(String(Math.floor(clock.now() / 1000)));
    }
    const delivered = receiver.received[1]!.payload;
    expect(delivered.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(delivered.data).toMatchObject({
      email_id: sent.body.id,
      message_id: `<${sent.body.id}@example.com>`,
      from: "Acme <hi@example.com>",
      to: ["a@dest.test"],
      subject: "Hello",
      recipient: "a@dest.test",
      tags: { kind: "welcome" },
    });
    const log = await deliveries(hook.id);
    expect(log.map((d: { status: string }) => d.status)).toEqual(["success", "success"]);
    expect(log.map((d: { id: string }) => d.id).sort()).toEqual(
      receiver.received.map((r) => r.headers["webhook-id"]!).sort(),
    );
  });

  test("each endpoint receives only the event types it subscribed to", async () => {
    const queuedOnly = await register(["email.queued"]);
    const suppressionsOnly = await register(["suppression.added", "suppression.removed"]);
    await t.json("POST", "/v1/emails", {
      body: { from: "hi@example.com", to: "a@dest.test", subject: "Hi", html: "<p>x</p>" },
    });
    await suppress("gone@dest.test");
    await t.json("DELETE", "/v1/suppressions/gone@dest.test");
    await t.app.services.worker.runOnce();
    await dispatch();
    expect((await deliveries(queuedOnly.id)).map((d: { type: string }) => d.type)).toEqual(["email.queued"]);
    expect((await deliveries(suppressionsOnly.id)).map((d: { type: string }) => d.type).sort()).toEqual([
      "suppression.added",
      "suppression.removed",
    ]);
    const added = receiver.received.find((r) => r.payload.type === "suppression.added")!;
    expect(added.payload.data).toMatchObject({ email: "gone@dest.test", origin: "manual" });
  });

  test("adding and removing a domain reach a receiver subscribed to domain.created and domain.deleted", async () => {
    const hook = await register(["domain.created", "domain.deleted"]);
    const added = await t.json("POST", "/v1/domains", { body: { name: "news.example.org" } });
    expect(added.status).toBe(200);
    expect((await t.json("DELETE", `/v1/domains/${added.body.id}`)).status).toBe(200);
    await dispatch();
    expect((await deliveries(hook.id)).map((d: { type: string }) => d.type).sort()).toEqual([
      "domain.created",
      "domain.deleted",
    ]);
    const payload = (type: string) => receiver.received.find((r) => r.payload.type === type)!.payload.data;
    expect(payload("domain.created")).toEqual(added.body);
    expect(payload("domain.deleted")).toMatchObject({ object: "domain", id: added.body.id, name: "news.example.org" });
  });

  test("a disabled endpoint gets no new events", async () => {
    const hook = await register(["suppression.added"]);
    await t.json("PATCH", `/v1/webhooks/${hook.id}`, { body: { status: "disabled" } });
    expect((await webhook(hook.id)).disabled_reason).toBe("disabled through the API");
    await suppress("x@dest.test");
    expect(await deliveries(hook.id)).toEqual([]);
  });

  test("a bounce carries bounce data {type, subType, message, diagnostic_code}", async () => {
    const smtp: SmtpDouble = await startSmtpDouble();
    const bouncing = await createTestApp(
      {
        webhooks: { allow_private_networks: true },
        delivery: { default_provider: "smtp" },
        smarthost: { host: "127.0.0.1", port: smtp.port, security: "none" },
      },
      { clock },
    );
    try {
      await bouncing.app.services.domains.add(bouncing.operator, "example.com", { verifiedOverride: true });
      const res = await bouncing.json("POST", "/v1/webhooks", {
        body: { endpoint: receiver.url, events: ["email.bounced"] },
      });
      receiver.secrets.push(res.body.signing_secret);
      smtp.rules.set("gone@dest.test", { reply: "reject", code: 550, message: "5.1.1 User unknown" });
      await bouncing.json("POST", "/v1/emails", {
        body: { from: "hi@example.com", to: "gone@dest.test", subject: "Hi", html: "<p>x</p>" },
      });
      await bouncing.app.services.worker.runOnce();
      await bouncing.app.services.webhookDispatcher.runOnce();
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]!.verifiedWith).toEqual([0]);
      expect(receiver.received[0]!.payload.data).toMatchObject({
        recipient: "gone@dest.test",
        bounce: {
          type: "Permanent",
          subType: "NoEmail",
          message: expect.stringContaining("550"),
          diagnostic_code: expect.stringContaining("5.1.1"),
        },
      });
    } finally {
      await bouncing.close();
      await smtp.close();
    }
  });

  test("rotation: during the overlap both secrets verify, afterwards only the new one", async () => {
    const hook = await register(["suppression.added"]);
    const rotated = await t.json("POST", `/v1/webhooks/${hook.id}/signing-secret/rotate`);
    expect(rotated.body.signing_secret).toMatch(/^whsec_/);
    expect(rotated.body.signing_secret).not.toBe(hook.signing_secret);
    receiver.secrets.push(rotated.body.signing_secret);

    await suppress("one@dest.test");
    await dispatch();
    expect(receiver.received[0]!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(receiver.received[0]!.verifiedWith).toEqual([0, 1]);

    clock.advance(24 * HOUR + SECOND);
    await suppress("two@dest.test");
    await dispatch();
    expect(receiver.received[1]!.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(receiver.received[1]!.verifiedWith).toEqual([1]);
  });

  test("a test event is signed and recorded like any delivery", async () => {
    const hook = await register(["email.delivered"]);
    const queued = await t.json("POST", `/v1/webhooks/${hook.id}/test`, { body: { type: "email.bounced" } });
    expect(queued.body).toMatchObject({ object: "webhook_event", type: "email.bounced", status: "pending" });
    await dispatch();
    expect(receiver.received[0]!.verifiedWith).toEqual([0]);
    expect(receiver.received[0]!.payload).toMatchObject({
      type: "email.bounced",
      data: { test: true, bounce: { type: "Permanent" } },
    });
    expect((await t.json("POST", `/v1/webhooks/${hook.id}/test`, { body: { type: "nope" } })).status).toBe(400);
    const received = await t.json("POST", `/v1/webhooks/${hook.id}/test`, { body: { type: "email.received" } });
    await dispatch();
    expect(receiver.received.at(-1)!.payload).toMatchObject({
      type: "email.received",
      data: { test: true, received_for: ["hello@example.com"], attachments: [] },
    });
    expect(received.status).toBe(200);
    // No body at all sends the default sample.
    expect((await t.json("POST", `/v1/webhooks/${hook.id}/test`)).body.type).toBe("email.sent");
  });
});

describe("retries", () => {
  test("receiver down → retries on the schedule → up → delivered with the same webhook-id", async () => {
    const hook = await register(["suppression.added"]);
    await receiver.down();
    await suppress("x@dest.test");
    expect(await dispatch()).toBe(1); // immediately: connection refused

    clock.advance(5 * SECOND - 1);
    expect(await dispatch()).toBe(0); // the 5 s step (plus jitter) has not passed
    clock.advance(0.5 * SECOND + 1);
    await receiver.up();
    receiver.reply = { status: 500, body: "boom" };
    expect(await dispatch()).toBe(1); // 2nd attempt: 500

    clock.advance(5 * MINUTE - 1);
    expect(await dispatch()).toBe(0);
    clock.advance(0.5 * MINUTE + 1);
    receiver.reply = { status: 200, body: "ok" };
    expect(await dispatch()).toBe(1); // 3rd attempt: delivered

    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({
      status: "success",
      attempt_count: 3,
      last_status_code: 200,
      next_attempt_at: null,
    });
    expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([delivery.id, delivery.id]);
    expect(receiver.received.every((r) => r.verifiedWith.length === 1)).toBe(true);
    const attempts = (await detail(hook.id, delivery.id)).attempts;
    expect(attempts.map((a: { http_status_code: number | null }) => a.http_status_code)).toEqual([null, 500, 200]);
    expect(attempts[0].error).toMatch(/^connection failed/);
    expect(attempts[1].response).toBe("boom");
  });

  test("only 2xx succeeds: a redirect is not followed", async () => {
    const hook = await register(["suppression.added"]);
    receiver.reply = { status: 302, headers: { location: "http://127.0.0.1:1/elsewhere" } };
    await suppress("x@dest.test");
    await dispatch();
    expect(receiver.received).toHaveLength(1);
    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({ status: "attempting", last_status_code: 302 });
  });

  test("an attempt records the first 1 KB of the answer and its duration", async () => {
    const hook = await register(["suppression.added"]);
    receiver.reply = { status: 400, body: `x${"é".repeat(2000)}` };
    await suppress("x@dest.test");
    await dispatch();
    const [delivery] = await deliveries(hook.id);
    const [attempt] = (await detail(hook.id, delivery.id)).attempts;
    // 1 + 2×511 bytes: the 1 KB cut falls inside a character, which is left out rather than mangled.
    expect(attempt.response).toBe(`x${"é".repeat(511)}`);
    expect(attempt.duration_ms).toBeGreaterThanOrEqual(0);
    expect(attempt.http_status_code).toBe(400);

    // A large answer is not read whole: only its first 1 KB is kept.
    receiver.reply = { status: 500, body: "y".repeat(200_000) };
    clock.advance(6_000);
    await dispatch();
    const attempts = (await detail(hook.id, delivery.id)).attempts;
    expect(attempts[1].response).toBe("y".repeat(1024));
  });

  test("429 with Retry-After is retried after that time, not the schedule's", async () => {
    const hook = await register(["suppression.added"]);
    receiver.reply = { status: 429, headers: { "retry-after": "120" } };
    await suppress("x@dest.test");
    await dispatch();
    const [delivery] = await deliveries(hook.id);
    expect(Date.parse(delivery.next_attempt_at)).toBe(clock.now() + 120 * SECOND);
    receiver.reply = { status: 204 };
    clock.advance(119 * SECOND);
    expect(await dispatch()).toBe(0);
    clock.advance(SECOND);
    expect(await dispatch()).toBe(1);
    expect((await deliveries(hook.id))[0].status).toBe("success");
  });

  test("410 Gone disables the endpoint at once; its other deliveries wait until it is enabled", async () => {
    const hook = await register(["suppression.added"]);
    receiver.reply = { status: 410 };
    await suppress("one@dest.test");
    await dispatch();
    const disabled = await webhook(hook.id);
    expect(disabled).toMatchObject({ status: "disabled", disabled_reason: "the endpoint answered 410 Gone" });
    expect((await deliveries(hook.id))[0].status).toBe("failed");

    // Events after disabling are not fanned out; a delivery already queued waits.
    await suppress("two@dest.test");
    expect(await deliveries(hook.id)).toHaveLength(1);
    receiver.reply = { status: 204 };
    await t.json("POST", `/v1/webhooks/${hook.id}/test`).then((res) => expect(res.status).toBe(409));
    await t.json("PATCH", `/v1/webhooks/${hook.id}`, { body: { status: "enabled" } });
    expect(await webhook(hook.id)).toMatchObject({ status: "enabled", disabled_reason: null });
  });

  test("deliveries that exhaust the schedule N times in a row disable the endpoint, with the reason", async () => {
    const short = await createTestApp(
      { webhooks: { allow_private_networks: true, retry_schedule: ["1s"], disable_after_failures: 2 } },
      { clock },
    );
    try {
      const created = await short.json("POST", "/v1/webhooks", {
        body: { endpoint: receiver.url, events: ["suppression.added"] },
      });
      const id = created.body.id;
      const run = () => short.app.services.webhookDispatcher.runOnce();
      receiver.reply = { status: 500 };
      await short.json("POST", "/v1/suppressions", { body: { email: "one@dest.test" } });
      await run();
      clock.advance(2 * SECOND);
      await run(); // 2nd and last attempt: the first delivery fails
      let list = (await short.json("GET", `/v1/webhooks/${id}/events`)).body.data;
      expect(list[0]).toMatchObject({ status: "failed", attempt_count: 2 });
      expect((await short.json("GET", `/v1/webhooks/${id}`)).body.status).toBe("enabled");

      await short.json("POST", "/v1/suppressions", { body: { email: "two@dest.test" } });
      await run();
      clock.advance(2 * SECOND);
      await run();
      const endpoint = (await short.json("GET", `/v1/webhooks/${id}`)).body;
      expect(endpoint).toMatchObject({
        status: "disabled",
        disabled_reason: "2 deliveries in a row failed after every retry",
      });
      list = (await short.json("GET", `/v1/webhooks/${id}/events?status=failed`)).body.data;
      expect(list).toHaveLength(2);
    } finally {
      await short.close();
    }
  });

  test("a success between exhausted deliveries resets the count", async () => {
    const short = await createTestApp(
      { webhooks: { allow_private_networks: true, retry_schedule: ["1s"], disable_after_failures: 2 } },
      { clock },
    );
    try {
      const id = (
        await short.json("POST", "/v1/webhooks", { body: { endpoint: receiver.url, events: ["suppression.added"] } })
      ).body.id;
      const run = async () => {
        await short.app.services.webhookDispatcher.runOnce();
        clock.advance(2 * SECOND);
        await short.app.services.webhookDispatcher.runOnce();
      };
      receiver.reply = { status: 500 };
      await short.json("POST", "/v1/suppressions", { body: { email: "one@dest.test" } });
      await run();
      receiver.reply = { status: 204 };
      await short.json("POST", "/v1/suppressions", { body: { email: "two@dest.test" } });
      await run();
      receiver.reply = { status: 500 };
      await short.json("POST", "/v1/suppressions", { body: { email: "three@dest.test" } });
      await run();
      expect((await short.json("GET", `/v1/webhooks/${id}`)).body.status).toBe("enabled");
    } finally {
      await short.close();
    }
  });

  test("replay sends a delivery again with the same webhook-id; replay-all takes every failed one", async () => {
    const hook = await register(["suppression.added"]);
    receiver.reply = { status: 204 };
    await suppress("one@dest.test");
    await dispatch();
    const [first] = await deliveries(hook.id);
    expect((await t.json("POST", `/v1/webhooks/${hook.id}/events/${first.id}/replay`)).body.status).toBe("attempting");
    await dispatch();
    expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([first.id, first.id]);
    expect((await detail(hook.id, first.id)).attempts).toHaveLength(2);

    // Two deliveries fail for good (410 fails at once), then the endpoint is enabled and all are replayed.
    receiver.reply = { status: 410 };
    await suppress("two@dest.test");
    await dispatch();
    await t.json("PATCH", `/v1/webhooks/${hook.id}`, { body: { status: "enabled" } });
    await suppress("three@dest.test");
    await dispatch();
    await t.json("PATCH", `/v1/webhooks/${hook.id}`, { body: { status: "enabled" } });
    receiver.reply = { status: 204 };
    const replayed = await t.json("POST", `/v1/webhooks/${hook.id}/replay`);
    expect(replayed.body).toEqual({ object: "replay", webhook_id: hook.id, replayed: 2 });
    expect(await dispatch()).toBe(2);
    expect((await deliveries(hook.id)).every((d: { status: string }) => d.status === "success")).toBe(true);
    expect(receiver.received.every((r) => r.verifiedWith.length === 1)).toBe(true);
  });

  test("a pending delivery cannot be replayed", async () => {
    const hook = await register(["suppression.added"]);
    await suppress("one@dest.test");
    const [pending] = await deliveries(hook.id);
    const res = await t.json("POST", `/v1/webhooks/${hook.id}/events/${pending.id}/replay`);
    expect(res.status).toBe(409);
  });

  test("a claim left behind by a crashed process is retaken once its lease expires", async () => {
    const hook = await register(["suppression.added"]);
    await suppress("x@dest.test");
    await t.app.services.store.query(
      sql`UPDATE webhook_deliveries SET lease_owner = 'crashed', lease_until = ${clock.now() + 60 * SECOND}`,
    );
    expect(await dispatch()).toBe(0);
    clock.advance(60 * SECOND + 1);
    expect(await dispatch()).toBe(1);
    expect((await deliveries(hook.id))[0].status).toBe("success");
  });
});

describe("restarts", () => {
  test("a delivery that failed before the app stopped is delivered after a restart on the same data dir", async () => {
    const dataDir = tempDir();
    const config = testConfig(dataDir, { webhooks: { allow_private_networks: true } });
    let app: App = await createApp(config, { logger: silentLogger, clock });
    try {
      const org = await app.services.organizations.ensureDefault();
      const key = (await app.services.keys.create(operatorActor(org.id), { name: "k", scopes: ["full_access"] })).key;
      const call = (target: App, method: string, path: string, body?: unknown) =>
        target.http
          .handle(
            new Request(`http://localhost${path}`, {
              method,
              headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
              body: body === undefined ? undefined : JSON.stringify(body),
            }),
          )
          .then((r) => r.json() as Promise<any>);

      const hook = await call(app, "POST", "/v1/webhooks", { endpoint: receiver.url, events: ["suppression.added"] });
      receiver.secrets.push(hook.signing_secret);
      await receiver.down();
      await call(app, "POST", "/v1/suppressions", { email: "x@dest.test" });
      await app.services.webhookDispatcher.runOnce();
      const [before] = (await call(app, "GET", `/v1/webhooks/${hook.id}/events`)).data;
      expect(before).toMatchObject({ status: "attempting", attempt_count: 1 });
      await app.stop();

      await receiver.up();
      clock.advance(6 * SECOND);
      app = await createApp(config, { logger: silentLogger, clock });
      expect(await app.services.webhookDispatcher.runOnce()).toBe(1);
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]!.headers["webhook-id"]).toBe(before.id);
      expect(receiver.received[0]!.verifiedWith).toEqual([0]);
      const [after] = (await call(app, "GET", `/v1/webhooks/${hook.id}/events`)).data;
      expect(after).toMatchObject({ id: before.id, status: "success", attempt_count: 2 });
    } finally {
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("a started app delivers by itself, without runOnce", async () => {
    const started = await createTestApp({ webhooks: { allow_private_networks: true } }, { clock });
    try {
      await started.app.start();
      const hook = await started.json("POST", "/v1/webhooks", {
        body: { endpoint: receiver.url, events: ["suppression.added"] },
      });
      receiver.secrets.push(hook.body.signing_secret);
      await started.json("POST", "/v1/suppressions", { body: { email: "x@dest.test" } });
      await receiver.waitFor(1);
      expect(receiver.received[0]!.verifiedWith).toEqual([0]);
    } finally {
      await started.close();
    }
  });
});
