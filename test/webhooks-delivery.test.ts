/**
 * What webhooks deliver, to a real receiver on loopback that verifies every request with the standardwebhooks
 * package: events of real sends, suppressions and domains fanned out to the endpoints subscribed to them, signed
 * (Svix's header names too) and timestamped by an injected clock, with the message's fields or the bounce's; a
 * disabled endpoint left out; both secrets verifying during a rotation's overlap; test events signed and recorded
 * like any delivery.
 */
import { describe, expect, test } from "bun:test";
import type { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";
import type { WebhookReceiver } from "./helpers/webhook-receiver.ts";
import { HOUR, SECOND, setUpWebhookApp } from "./helpers/webhooks.ts";

let t: TestApp;
let clock: ManualClock;
let receiver: WebhookReceiver;

const { register, dispatch, suppress, deliveries, webhook } = setUpWebhookApp((app) => ({ t, clock, receiver } = app));

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
