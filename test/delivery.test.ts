/**
 * Delivery through the smarthost provider to a real SMTP server on loopback, with programmable replies:
 * accept, defer with a retry hint, reject, dropped connection, slow reply; retries driven by an injected clock.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

let smtp: SmtpDouble;
let t: TestApp;
let clock: ManualClock;

beforeEach(async () => {
  smtp = await startSmtpDouble();
  clock = new ManualClock(Date.now());
  t = await createTestApp(
    {
      delivery: { default_provider: "smtp", retry_schedule: ["1m", "5m"], retry_max_age: "10m" },
      smarthost: { host: "127.0.0.1", port: smtp.port, security: "none", socket_timeout: "2s", connect_timeout: "2s" },
    },
    { clock },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
});

afterEach(async () => {
  await t.close();
  await smtp.close();
});

async function send(to: string[]): Promise<string> {
  const res = await t.json("POST", "/v1/emails", {
    body: { from: "Acme <hi@example.com>", to, subject: "Hello", html: "<p>Hi</p>" },
  });
  expect(res.status).toBe(200);
  return res.body.id;
}

const lookup = async (id: string) => (await t.json("GET", `/v1/emails/${id}`)).body;
const recipient = async (id: string, email: string) =>
  (await lookup(id)).recipients.find((r: { email: string }) => r.email === email);

describe("delivery to a smarthost", () => {
  test("an accepted message reaches the server without Bcc and is marked sent", async () => {
    const res = await t.json("POST", "/v1/emails", {
      body: { from: "hi@example.com", to: "a@dest.test", bcc: "hidden@dest.test", subject: "Hello", html: "<p>Hi</p>" },
    });
    await t.app.services.worker.runOnce();
    expect(smtp.received).toHaveLength(2);
    for (const message of smtp.received) expect(message.raw.toString()).not.toMatch(/^bcc:/im);
    expect(smtp.received.map((m) => m.recipients[0]).sort()).toEqual(["a@dest.test", "hidden@dest.test"]);
    const record = await lookup(res.body.id);
    expect(record.status).toBe("sent");
    expect(record.recipients.every((r: { status: string }) => r.status === "sent")).toBe(true);
  });

  test("451 with a retry hint defers, the retry honours the hint, then delivers", async () => {
    smtp.rules.set("grey@dest.test", {
      reply: "reject",
      code: 451,
      message: "4.7.1 Greylisted, try again in 30 seconds",
    });
    const id = await send(["grey@dest.test"]);
    await t.app.services.worker.runOnce();
    let r = await recipient(id, "grey@dest.test");
    expect(r.status).toBe("deferred");
    expect((await lookup(id)).status).toBe("delivery_delayed");
    expect(r.last_response).toContain("451");

    clock.advance(29_000);
    expect(await t.app.services.worker.runOnce()).toBe(0);
    smtp.rules.delete("grey@dest.test");
    clock.advance(1_000);
    expect(await t.app.services.worker.runOnce()).toBe(1);
    r = await recipient(id, "grey@dest.test");
    expect(r.status).toBe("sent");
    expect(r.attempts).toBe(2);
    expect(smtp.received).toHaveLength(1);
  });

  test("5xx bounces permanently and suppresses the address", async () => {
    smtp.rules.set("gone@dest.test", { reply: "reject", code: 550, message: "5.1.1 User unknown" });
    const id = await send(["gone@dest.test", "ok@dest.test"]);
    await t.app.services.worker.runOnce();
    const record = await lookup(id);
    const bounced = record.events.find((e: { type: string }) => e.type === "email.bounced");
    expect(bounced.data.bounce).toMatchObject({ type: "Permanent", subType: "NoEmail" });
    expect((await recipient(id, "gone@dest.test")).status).toBe("bounced");
    expect((await recipient(id, "ok@dest.test")).status).toBe("sent");
    const suppression = await t.json("GET", "/v1/suppressions/gone@dest.test");
    expect(suppression.body).toMatchObject({ email: "gone@dest.test", origin: "bounce", source_id: id });

    const next = await t.json("POST", "/v1/emails", {
      body: { from: "hi@example.com", to: ["gone@dest.test", "ok@dest.test"], subject: "Again", html: "<p>x</p>" },
    });
    const again = await lookup(next.body.id);
    expect(again.recipients.find((r: { email: string }) => r.email === "gone@dest.test").status).toBe("suppressed");
    expect(
      again.events.some(
        (e: { type: string; recipient: string }) => e.type === "email.suppressed" && e.recipient === "gone@dest.test",
      ),
    ).toBe(true);
  });

  test("temporary failures until the maximum age end as a Transient bounce", async () => {
    smtp.rules.set("full@dest.test", { reply: "reject", code: 452, message: "4.2.2 Mailbox full" });
    const id = await send(["full@dest.test"]);
    await t.app.services.worker.runOnce(); // attempt 1 → retry after 1m
    clock.advance(60_000);
    await t.app.services.worker.runOnce(); // attempt 2 → retry after 5m
    clock.advance(5 * 60_000);
    await t.app.services.worker.runOnce(); // attempt 3 at 6m → retry capped at the 10m deadline
    clock.advance(4 * 60_000);
    await t.app.services.worker.runOnce(); // attempt 4 at 10m → give up
    const r = await recipient(id, "full@dest.test");
    expect(r.status).toBe("bounced");
    expect(r.attempts).toBe(4);
    const bounce = (await lookup(id)).events.find((e: { type: string }) => e.type === "email.bounced");
    expect(bounce.data.bounce).toMatchObject({ type: "Transient", subType: "MailboxFull" });
    // A transient bounce does not suppress the address.
    expect((await t.json("GET", "/v1/suppressions/full@dest.test")).status).toBe(404);
  });

  test("a dropped connection and a reply slower than the timeout are retried, not bounced", async () => {
    smtp.rules.set("drop@dest.test", { reply: "drop" });
    smtp.rules.set("slow@dest.test", { reply: "slow", delayMs: 3_000 });
    const id = await send(["drop@dest.test", "slow@dest.test"]);
    await t.app.services.worker.runOnce();
    expect((await recipient(id, "drop@dest.test")).status).toBe("deferred");
    expect((await recipient(id, "slow@dest.test")).status).toBe("deferred");
    smtp.rules.clear();
    clock.advance(60_000);
    await t.app.services.worker.runOnce();
    expect((await recipient(id, "drop@dest.test")).status).toBe("sent");
    expect((await recipient(id, "slow@dest.test")).status).toBe("sent");
  });
});
