/**
 * Webhooks: the Standard Webhooks verifier on signatures made here (tampering, stale timestamps, svix headers,
 * rotated secrets), then on a real delivery from the server to a receiver of the test's own on 127.0.0.1, and the
 * endpoint's round trip (update, rotate, test, events, attempts, replay, remove).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import type { Mailroom, WebhookEndpoint } from "@mailroom/node";
import { addressOf, env, live, loadLibrary, ok, unique, waitFor, type Library } from "./support.ts";

let lib: Library;
beforeAll(async () => {
  lib = await loadLibrary();
}, 120_000);

const secretOf = (text: string) => `whsec_${Buffer.from(text).toString("base64")}`;
const SECRET = secretOf("a-32-byte-secret-for-the-tests!!");
const BODY =
  '{"type":"email.sent","created_at":"2026-11-22T10:00:00.000Z","data":{"email_id":"4ef9a417-02e9-4d39-ad75-9611e0fcc33c"}}';

function signed(secret: string, body: string, at = new Date(), id = "msg_2Lh9KbLsV1") {
  const signature = new lib.Webhook(secret).sign(id, at, body);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": signature,
  };
}

function rejection(run: () => unknown) {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected verification to fail");
}

describe("the verifier", () => {
  test("a valid signature answers the parsed payload", () => {
    const payload = new lib.Webhook(SECRET).verify(BODY, signed(SECRET, BODY));
    expect(payload.type).toBe("email.sent");
    expect(payload.data.email_id).toBe("4ef9a417-02e9-4d39-ad75-9611e0fcc33c");
  });

  test("a tampered body, another secret or a garbled signature fails with a typed error", () => {
    const headers = signed(SECRET, BODY);
    for (const attempt of [
      () => new lib.Webhook(SECRET).verify(BODY.replace("email.sent", "email.bounced"), headers),
      () => new lib.Webhook(secretOf("another secret")).verify(BODY, headers),
      () => new lib.Webhook(SECRET).verify(BODY, { ...headers, "webhook-signature": "v1,AAAA" }),
      () => new lib.Webhook(SECRET).verify(BODY, { ...headers, "webhook-id": "msg_other" }),
    ]) {
      const error = rejection(attempt) as InstanceType<Library["WebhookVerificationError"]>;
      expect(error).toBeInstanceOf(lib.WebhookVerificationError);
      expect(error.reason).toBe("no_matching_signature");
    }
  });

  test("a timestamp outside the tolerance fails (replays), and the tolerance is configurable", () => {
    const old = new Date(Date.now() - 10 * 60 * 1000);
    const future = new Date(Date.now() + 10 * 60 * 1000);
    expect(
      (rejection(() => new lib.Webhook(SECRET).verify(BODY, signed(SECRET, BODY, old))) as { reason: string }).reason,
    ).toBe("timestamp_too_old");
    expect(
      (rejection(() => new lib.Webhook(SECRET).verify(BODY, signed(SECRET, BODY, future))) as { reason: string })
        .reason,
    ).toBe("timestamp_too_new");
    expect(new lib.Webhook(SECRET, { tolerance: 15 * 60 }).verify(BODY, signed(SECRET, BODY, old)).type).toBe(
      "email.sent",
    );
  });

  test("missing headers fail; svix-* headers, a fetch Headers object and mixed casing are accepted", () => {
    expect((rejection(() => new lib.Webhook(SECRET).verify(BODY, {})) as { reason: string }).reason).toBe(
      "missing_headers",
    );
    const headers = signed(SECRET, BODY);
    const svix = {
      "svix-id": headers["webhook-id"],
      "svix-timestamp": headers["webhook-timestamp"],
      "svix-signature": headers["webhook-signature"],
    };
    expect(new lib.Webhook(SECRET).verify(BODY, svix).type).toBe("email.sent");
    expect(new lib.Webhook(SECRET).verify(BODY, new Headers(headers)).type).toBe("email.sent");
    expect(
      new lib.Webhook(SECRET).verify(Buffer.from(BODY), {
        "Webhook-Id": headers["webhook-id"],
        "Webhook-Timestamp": headers["webhook-timestamp"],
        "Webhook-Signature": headers["webhook-signature"],
      }).type,
    ).toBe("email.sent");
  });

  test("any one valid signature of several passes (a rotated endpoint signs with both secrets)", () => {
    const rotated = secretOf("the new secret after a rotation");
    const at = new Date();
    const headers = signed(SECRET, BODY, at);
    const both = {
      ...headers,
      "webhook-signature": `${new lib.Webhook(rotated).sign(headers["webhook-id"], at, BODY)} ${headers["webhook-signature"]}`,
    };
    expect(new lib.Webhook(SECRET).verify(BODY, both).type).toBe("email.sent");
    expect(new lib.Webhook(rotated).verify(BODY, both).type).toBe("email.sent");
    expect(rejection(() => new lib.Webhook(secretOf("neither")).verify(BODY, both))).toBeInstanceOf(
      lib.WebhookVerificationError,
    );
  });

  test("mailroom.webhooks.verify takes the headers as received or Resend's {id, timestamp, signature}", () => {
    const client = new lib.Mailroom("mr_test_key");
    const headers = signed(SECRET, BODY);
    expect(client.webhooks.verify({ payload: BODY, headers, secret: SECRET }).type).toBe("email.sent");
    const resendShape = {
      id: headers["webhook-id"],
      timestamp: headers["webhook-timestamp"],
      signature: headers["webhook-signature"],
    };
    expect(client.webhooks.verify({ payload: BODY, headers: resendShape, webhookSecret: SECRET }).type).toBe(
      "email.sent",
    );
    expect(() => client.webhooks.verify({ payload: `${BODY} `, headers, secret: SECRET })).toThrow(
      lib.WebhookVerificationError,
    );
  });
});

interface Delivery {
  headers: Record<string, string>;
  body: string;
}

describe.skipIf(!live)("webhooks against the server", () => {
  let mailroom: Mailroom;
  let receiver: Server<undefined>;
  const deliveries: Delivery[] = [];
  const created: string[] = [];

  beforeAll(async () => {
    lib = await loadLibrary();
    mailroom = new lib.Mailroom(env("MAILROOM_API_KEY"), { baseUrl: env("MAILROOM_BASE_URL") });
    receiver = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(request) {
        deliveries.push({ headers: Object.fromEntries(request.headers), body: await request.text() });
        return new Response("ok");
      },
    });
  }, 120_000);

  afterAll(async () => {
    // The other languages' suites run against the same server: leave no endpoint pointing at a closed port.
    for (const id of created) await mailroom.webhooks.remove(id);
    receiver?.stop(true);
  });

  /** The first delivery whose payload satisfies `match`. */
  const deliveryWhere = (match: (payload: { type: string; data: Record<string, unknown> }) => boolean) =>
    waitFor(async () => deliveries.find((delivery) => match(JSON.parse(delivery.body))), "a webhook delivery");

  test("a real email.sent delivery verifies with the signing secret; a tampered body does not", async () => {
    const endpoint = `http://127.0.0.1:${receiver.port}/hooks/${unique("sent")}`;
    const webhook = ok(
      await mailroom.webhooks.create({ endpoint, events: ["email.sent"], description: "node client test" }),
    );
    created.push(webhook.id);
    expect(webhook.object).toBe("webhook");
    expect(webhook.signing_secret).toStartWith("whsec_");

    const to = `${unique("hooked")}@example.org`;
    const { id: emailId } = ok(
      await mailroom.emails.send({ from: env("MAILROOM_FROM"), to, subject: "Webhook check", html: "<p>Hooked</p>" }),
    );
    const delivery = await deliveryWhere(
      (payload) => payload.type === "email.sent" && payload.data.email_id === emailId,
    );

    const payload = new lib.Webhook(webhook.signing_secret).verify(delivery.body, delivery.headers);
    expect(payload.type).toBe("email.sent");
    expect(payload.data.email_id).toBe(emailId);
    expect(payload.data.from).toContain(addressOf(env("MAILROOM_FROM")));
    expect(
      mailroom.webhooks.verify({ payload: delivery.body, headers: delivery.headers, secret: webhook.signing_secret })
        .type,
    ).toBe("email.sent");
    // The svix-* copies carry the same signature.
    expect(delivery.headers["svix-signature"]).toBe(delivery.headers["webhook-signature"]!);

    const tampered = delivery.body.replace(emailId, "00000000-0000-4000-8000-000000000000");
    expect(() => new lib.Webhook(webhook.signing_secret).verify(tampered, delivery.headers)).toThrow(
      lib.WebhookVerificationError,
    );

    // The server's own record of that delivery: the event, its payload and the attempt that succeeded.
    const events = ok(await mailroom.webhooks.events.list({ webhookId: webhook.id, limit: 100 }));
    expect(events.object).toBe("list");
    const event = events.data.find((candidate) => candidate.id === delivery.headers["webhook-id"]);
    expect(event?.type).toBe("email.sent");
    const detail = ok(await mailroom.webhooks.events.get({ webhookId: webhook.id, eventId: event!.id }));
    expect(detail.payload.data.email_id).toBe(emailId);
    const attempts = await waitFor(async () => {
      const list = ok(await mailroom.webhooks.events.attempts.list({ webhookId: webhook.id, eventId: event!.id }));
      return list.data.some((attempt) => attempt.http_status_code === 200) ? list : undefined;
    }, "the successful attempt to be recorded");
    expect(attempts.data[0]!.object).toBe("webhook_attempt");

    // A replay is delivered again under the same webhook-id.
    const before = deliveries.filter((d) => d.headers["webhook-id"] === event!.id).length;
    ok(await mailroom.webhooks.events.replay({ webhookId: webhook.id, eventId: event!.id }));
    await waitFor(
      async () => (deliveries.filter((d) => d.headers["webhook-id"] === event!.id).length > before ? true : undefined),
      "the replayed delivery",
    );
  }, 60_000);

  test("endpoint round trip: get, list, update, rotate (both secrets sign), test event, remove", async () => {
    const path = `/hooks/${unique("crud")}`;
    const webhook = ok(
      await mailroom.webhooks.create({
        endpoint: `http://127.0.0.1:${receiver.port}${path}`,
        events: ["email.delivered"],
      }),
    );
    created.push(webhook.id);

    const fetched: WebhookEndpoint = ok(await mailroom.webhooks.get(webhook.id));
    expect(fetched.events).toEqual(["email.delivered"]);
    expect(fetched.status).toBe("enabled");
    const listed = ok(await mailroom.webhooks.list({ limit: 100 }));
    expect(listed.object).toBe("list");
    expect(typeof listed.has_more).toBe("boolean");
    expect(listed.data.map((item) => item.id)).toContain(webhook.id);

    const updated = ok(
      await mailroom.webhooks.update(webhook.id, { events: ["email.sent", "email.bounced"], description: "updated" }),
    );
    expect(updated.events).toEqual(["email.sent", "email.bounced"]);
    expect(updated.description).toBe("updated");

    const rotated = ok(await mailroom.webhooks.rotateSigningSecret(webhook.id));
    expect(rotated.signing_secret).toStartWith("whsec_");
    expect(rotated.signing_secret).not.toBe(webhook.signing_secret);

    const sample = ok(await mailroom.webhooks.test(webhook.id, { type: "email.sent" }));
    expect(sample.object).toBe("webhook_event");
    const delivery = await waitFor(
      async () => deliveries.find((d) => d.headers["webhook-id"] === sample.id),
      "the test event",
    );
    expect(new lib.Webhook(rotated.signing_secret).verify(delivery.body, delivery.headers).type).toBe("email.sent");
    expect(new lib.Webhook(webhook.signing_secret).verify(delivery.body, delivery.headers).type).toBe("email.sent");

    const removed = ok(await mailroom.webhooks.remove(webhook.id));
    expect(removed).toMatchObject({ object: "webhook", id: webhook.id, deleted: true });
    created.splice(created.indexOf(webhook.id), 1);
    expect((await mailroom.webhooks.get(webhook.id)).error?.name).toBe("not_found");
  }, 60_000);
});
