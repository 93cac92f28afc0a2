/**
 * Reports arriving after delivery, through the inbound funnel: a message is sent through a real SMTP server on
 * loopback with its per-delivery return path, then a delivery status notification or feedback report addressed to
 * that return path (built from the fixtures, with the real token) changes the delivery, its history and the
 * suppression list — once; forged tokens and ordinary mail change nothing.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { inboundFixture } from "./helpers/inbound-fixtures.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

let smtp: SmtpDouble;
let t: TestApp;

beforeEach(async () => {
  smtp = await startSmtpDouble();
  t = await createTestApp({
    delivery: { default_provider: "smtp" },
    smarthost: { host: "127.0.0.1", port: smtp.port, security: "none" },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
});

afterEach(async () => {
  await t.close();
  await smtp.close();
});

/** Sends one message to someone@dest.test; its id, Message-ID and the return path it left with. */
async function sendOne() {
  const res = await t.json("POST", "/v1/emails", {
    body: {
      from: "Acme <hello@example.com>",
      to: "someone@dest.test",
      subject: "Your receipt",
      html: "<p>Thanks.</p>",
    },
  });
  expect(res.status).toBe(200);
  await t.app.services.worker.runOnce();
  const sent = smtp.received.at(-1)!;
  expect(sent.mailFrom).toMatch(/^bounces\+[0-9a-f]{32}-[a-z2-7]{16}@/);
  const record = (await t.json("GET", `/v1/emails/${res.body.id}`)).body;
  return { id: res.body.id as string, messageId: record.message_id as string, returnPath: sent.mailFrom };
}

/** A fixture with the sample return path and Message-ID replaced by the real ones. */
const report = (fixture: string, sent: { messageId: string; returnPath: string }) =>
  Buffer.from(inboundFixture(fixture, sent));

/** The funnel's outcome for a message that reached one return path or organisation. */
async function receiveOne(raw: Buffer, envelope: { from: string; to: string[] }) {
  const outcomes = await t.app.services.inbound.receive(raw, envelope);
  expect(outcomes).toHaveLength(1);
  return outcomes[0]!;
}

const history = async (id: string) => (await t.json("GET", `/v1/emails/${id}`)).body;
const suppression = async (email: string) => t.json("GET", `/v1/suppressions/${encodeURIComponent(email)}`);

describe("reports to return paths", () => {
  test("a 5.1.1 notification bounces the delivery Permanent and suppresses the recipient, once", async () => {
    const sent = await sendOne();
    const envelope = { from: "", to: [sent.returnPath] };
    expect(await receiveOne(report("postfix-5.1.1", sent), envelope)).toMatchObject({
      handled: "bounce",
      outcome: "permanent",
      changed: true,
    });
    expect(await receiveOne(report("postfix-5.1.1", sent), envelope)).toMatchObject({
      handled: "bounce",
      changed: false,
    });
    const record = await history(sent.id);
    expect(record.status).toBe("bounced");
    expect(record.recipients[0]).toMatchObject({ email: "someone@dest.test", status: "bounced" });
    const bounces = record.events.filter((e: { type: string }) => e.type === "email.bounced");
    expect(bounces).toHaveLength(1);
    expect(bounces[0].data.bounce).toMatchObject({ type: "Permanent", subType: "NoEmail" });
    const listed = await suppression("someone@dest.test");
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ origin: "bounce", source_id: sent.id });
  });

  test("the same report arriving several times at once bounces once (the delivery is locked while judged)", async () => {
    const sent = await sendOne();
    const envelope = { from: "", to: [sent.returnPath] };
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () => receiveOne(report("postfix-5.1.1", sent), envelope)),
    );
    expect(outcomes.filter((o) => o.handled === "bounce" && o.changed)).toHaveLength(1);
    const record = await history(sent.id);
    expect(record.events.filter((e: { type: string }) => e.type === "email.bounced")).toHaveLength(1);
  });

  test("a delayed notification is history only: no status change, no suppression", async () => {
    const sent = await sendOne();
    expect(await receiveOne(report("postfix-4.4.7-delayed", sent), { from: "", to: [sent.returnPath] })).toMatchObject({
      outcome: "temporary",
      changed: true,
    });
    const record = await history(sent.id);
    expect(record.recipients[0].status).toBe("sent");
    expect(record.events.map((e: { type: string }) => e.type)).toContain("email.delivery_delayed");
    expect((await suppression("someone@dest.test")).status).toBe(404);
  });

  test("a feedback report names the delivery by its Original-Mail-From: complained and suppressed", async () => {
    const sent = await sendOne();
    expect(
      await receiveOne(report("arf-yahoo", sent), { from: "feedback@arf.mail.yahoo.com", to: ["fbl@example.com"] }),
    ).toMatchObject({ handled: "complaint", changed: true });
    const record = await history(sent.id);
    expect(record.status).toBe("complained");
    expect(record.recipients[0].status).toBe("complained");
    expect((await suppression("someone@dest.test")).body).toMatchObject({ origin: "complaint" });
  });

  test("a forged token changes nothing; ordinary mail to a return path is stored, linked, and changes nothing", async () => {
    const sent = await sendOne();
    const forged = sent.returnPath.replace(/-[a-z2-7]{16}@/, "-aaaaaaaaaaaaaaaa@");
    expect(await receiveOne(report("postfix-5.1.1", sent), { from: "", to: [forged] })).toEqual({
      handled: "ignored",
      reason: "no recipient",
    });
    expect(
      await receiveOne(report("ordinary-reply", sent), { from: "someone@dest.test", to: [sent.returnPath] }),
    ).toMatchObject({ handled: "stored", inReplyToEmailId: sent.id });
    const record = await history(sent.id);
    expect(record.status).toBe("sent");
    expect(record.recipients[0].status).toBe("sent");
    expect((await suppression("someone@dest.test")).status).toBe(404);
  });
});
