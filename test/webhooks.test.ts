/**
 * Webhook endpoints through the API, with a real receiver on loopback: the whsec_ signing secret shown once and
 * sealed at rest, create bodies refused at the offending field, the scopes that may read and write, another
 * organisation's endpoint out of sight, update and delete, and a test event or replay racing a deletion (never a
 * 500). What is delivered, and how failures are retried, are in webhooks-delivery and webhooks-retries.
 */
import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { operatorActor } from "../src/access.ts";
import type { TestApp } from "./helpers/app.ts";
import type { WebhookReceiver } from "./helpers/webhook-receiver.ts";
import { setUpWebhookApp } from "./helpers/webhooks.ts";

let t: TestApp;
let receiver: WebhookReceiver;

const { register, dispatch, webhook } = setUpWebhookApp((app) => ({ t, receiver } = app));

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
