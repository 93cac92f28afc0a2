/**
 * Webhook deliveries that fail, against a real receiver on loopback that can go down and answer as programmed:
 * retries on the schedule (driven by an injected clock and `webhookDispatcher.runOnce()`) with the same webhook-id,
 * only 2xx as success, the first 1 KB of each answer recorded, Retry-After honoured, 410 and repeated exhaustion
 * disabling the endpoint, replays, a crashed claim retaken after its lease; and deliveries surviving a restart on
 * the same data directory, or made by a started app on its own.
 */
import { describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import { operatorActor } from "../src/access.ts";
import type { ManualClock } from "../src/lib/clock.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { createApp, type App } from "../src/server/app.ts";
import { createTestApp, tempDir, testConfig, type TestApp } from "./helpers/app.ts";
import type { WebhookReceiver } from "./helpers/webhook-receiver.ts";
import { MINUTE, SECOND, setUpWebhookApp } from "./helpers/webhooks.ts";

let t: TestApp;
let clock: ManualClock;
let receiver: WebhookReceiver;

const { register, dispatch, suppress, deliveries, detail, webhook } = setUpWebhookApp(
  (app) => ({ t, clock, receiver } = app),
);

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
