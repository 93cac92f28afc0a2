/**
 * Test addresses (providers/simulator.ts): mail to `<outcome>@simulator.mailroom.test` rehearses a real recipient's
 * fate — status, events, suppression and signed webhooks — within seconds, on the real clock with the worker and the
 * webhook dispatcher running, and never leaves the machine: the configured smarthost receives nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./helpers/webhook-receiver.ts";

let t: TestApp;
let smtp: SmtpDouble;
let receiver: WebhookReceiver;

beforeAll(async () => {
  smtp = await startSmtpDouble();
  receiver = await startWebhookReceiver();
  t = await createTestApp({
    delivery: { default_provider: "smtp" },
    smarthost: { host: "127.0.0.1", port: smtp.port, security: "none", socket_timeout: "2s", connect_timeout: "2s" },
    webhooks: { allow_private_networks: true },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const hook = await t.json("POST", "/v1/webhooks", {
    body: {
      endpoint: receiver.url,
      events: [
        "email.delivered",
        "email.delivery_delayed",
        "email.bounced",
        "email.complained",
        "email.suppressed",
        "suppression.added",
      ],
    },
  });
  expect(hook.status).toBe(200);
  receiver.secrets.push(hook.body.signing_secret);
  await t.app.start();
});

afterAll(async () => {
  await t.close();
  await smtp.close();
  await receiver.close();
});

const FINAL = new Set(["delivered", "bounced", "complained", "suppressed", "failed"]);

async function send(to: string[], key = t.liveKey, from = "Acme <hi@example.com>") {
  return t.json("POST", "/v1/emails", { key, body: { from, to, subject: "Rehearsal", text: "Hello" } });
}

/** The message once every recipient is final (complained counts only once complained), polling for up to 20 s. */
async function settled(id: string, key = t.liveKey) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { body } = await t.json("GET", `/v1/emails/${id}`, { key });
    const done = body.recipients.every(
      (r: { email: string; status: string }) =>
        FINAL.has(r.status) && (!r.email.startsWith("complained") || r.status === "complained"),
    );
    if (done || Date.now() > deadline) return body;
    await Bun.sleep(100);
  }
}

const statusOf = (email: { recipients: Array<{ email: string; status: string }> }) =>
  Object.fromEntries(email.recipients.map((r) => [r.email, r.status]));
const eventsOf = (email: { events: Array<{ type: string; recipient?: string }> }, recipient: string) =>
  email.events.filter((e) => e.recipient === recipient).map((e) => e.type);

describe("test addresses", () => {
  test("each address ends as its real counterpart would, with suppressions and signed webhooks, and nothing leaves", async () => {
    const started = Date.now();
    const to = [
      "delivered@simulator.mailroom.test",
      "bounced+signup@simulator.mailroom.test",
      "Complained@Simulator.Mailroom.Test",
      "delayed@simulator.mailroom.test",
      "suppressed@simulator.mailroom.test",
    ];
    const res = await send(to);
    expect(res.status).toBe(200);
    const email = await settled(res.body.id);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(statusOf(email)).toEqual({
      "delivered@simulator.mailroom.test": "delivered",
      "bounced+signup@simulator.mailroom.test": "bounced",
      "Complained@simulator.mailroom.test": "complained",
      "delayed@simulator.mailroom.test": "delivered",
      "suppressed@simulator.mailroom.test": "suppressed",
    });
    const delayed = email.recipients.find((r: { email: string }) => r.email.startsWith("delayed"));
    expect(delayed.attempts).toBe(3);
    expect(eventsOf(email, "delayed@simulator.mailroom.test")).toEqual([
      "email.delivery_delayed",
      "email.delivery_delayed",
      "email.delivered",
    ]);
    expect(eventsOf(email, "Complained@simulator.mailroom.test")).toEqual(["email.delivered", "email.complained"]);
    expect(eventsOf(email, "bounced+signup@simulator.mailroom.test")).toEqual(["email.bounced"]);
    const bounce = email.events.find((e: { type: string }) => e.type === "email.bounced");
    expect(bounce.data.bounce).toMatchObject({ type: "Permanent", subType: "NoEmail" });
    expect(eventsOf(email, "suppressed@simulator.mailroom.test")).toEqual(["email.suppressed"]);
    expect(smtp.received).toHaveLength(0);

    // Bounced and complained are on the suppression list, as a real bounce and complaint put them; suppressed@
    // needs no entry.
    const list = (await t.json("GET", "/v1/suppressions")).body.data;
    expect(list.map((s: { email: string; origin: string }) => [s.email, s.origin]).sort()).toEqual([
      ["bounced+signup@simulator.mailroom.test", "bounce"],
      ["complained@simulator.mailroom.test", "complaint"],
    ]);

    // The webhooks a real recipient's fate sends, each signed.
    const types = ["email.bounced", "email.complained", "email.suppressed", "suppression.added"];
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !types.every((type) => receiver.received.some((w) => w.payload.type === type)))
      await Bun.sleep(100);
    for (const type of types) expect(receiver.received.some((w) => w.payload.type === type)).toBe(true);
    expect(receiver.received.filter((w) => w.payload.type === "email.delivery_delayed").length).toBeGreaterThanOrEqual(
      2,
    );
    expect(receiver.received.every((w) => w.verifiedWith.length === 1)).toBe(true);

    // A second rehearsal of the same bounce meets the suppression, as a real address would; a new label bounces.
    const again = await send(["bounced+signup@simulator.mailroom.test", "bounced+again@simulator.mailroom.test"]);
    expect(statusOf(await settled(again.body.id))).toEqual({
      "bounced+signup@simulator.mailroom.test": "suppressed",
      "bounced+again@simulator.mailroom.test": "bounced",
    });

    // Rehearsals are not the organisation's mail: the statistics leave them out whole — a message to test addresses
    // alone is not even counted accepted, so accepted and what became of it add up (docs/sending.md#test-mode-and-test-addresses).
    const stats = (await t.json("GET", "/v1/emails/stats")).body.totals;
    expect(stats).toMatchObject({ accepted: 0, delivered: 0, bounced: 0, complained: 0, suppressed: 0 });
  }, 40_000);

  test("a test key rehearses too, from a domain it has not verified", async () => {
    const res = await send(["bounced+sandbox@simulator.mailroom.test"], t.testKey, "someone@unverified.example");
    expect(res.status).toBe(200);
    const email = await settled(res.body.id, t.testKey);
    expect(statusOf(email)).toEqual({ "bounced+sandbox@simulator.mailroom.test": "bounced" });
    expect(email.recipients[0].last_response).toMatch(/^550 5\.1\.1 /);
  });

  test("an address of the simulator that rehearses nothing is refused, naming the ones that do", async () => {
    const res = await send(["delivered@simulator.mailroom.test", "nobody@simulator.mailroom.test"]);
    expect(res.status).toBe(400);
    expect(res.body.name).toBe("validation_error");
    expect(res.body.details[0].message).toContain(
      "nobody@simulator.mailroom.test is not a test address: use delivered@",
    );
  });

  test("suppressed@ alone is refused as any message whose every recipient is suppressed", async () => {
    const res = await send(["suppressed+only@simulator.mailroom.test"]);
    expect(res.status).toBe(422);
    expect(res.body.name).toBe("domain_not_verified");
    // The refusal names the rule, and how to see the address recorded suppressed instead.
    expect(res.body.message).toBe(
      "Every recipient is on the suppression list, so nothing was sent: a message needs at least one recipient who is not. suppressed@simulator.mailroom.test is always on it: send it beside another recipient to see it recorded suppressed.",
    );
  });
});
