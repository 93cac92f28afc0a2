/**
 * Delivery status notifications for relayed mail (RFC 3461/3464, docs/smtp.md#delivery-status-notifications), end to
 * end over loopback: nodemailer relays with DSN parameters to the simulator's addresses, the worker settles them, the
 * outbox job queues the reports, and the smarthost receives each report from the null reverse path; the report is
 * parsed with mailparser and its delivery-status fields read. The cases that must have no report have none.
 */
import { describe, expect, test } from "bun:test";
import { inArray } from "drizzle-orm";
import { simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import { tablesOf } from "../src/db/store.ts";
import type { TestApp } from "./helpers/app.ts";
import { authPlain } from "./helpers/smtp-chat.ts";
import type { SmtpDouble } from "./helpers/smtp-double.ts";
import { queuedId, setUpRelay } from "./helpers/smtp-relay.ts";

let t: TestApp;
let smarthost: SmtpDouble;
let ca: string;
let submissionPort: number;

const { open } = setUpRelay((relay) => ({ t, smarthost, ca, submissionPort } = relay));

const SIM = "simulator.mailroom.test";

const relay = () =>
  nodemailer.createTransport({
    host: "127.0.0.1",
    port: submissionPort,
    secure: false,
    requireTLS: true,
    auth: { user: "apikey", pass: t.liveKey },
    tls: { ca },
  });

/** Runs the worker until no recipient of `emailId` waits, then the outbox job; how many reports of it were queued. */
async function settle(emailId: string): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const { body } = await t.json("GET", `/v1/emails/${emailId}`, { key: t.liveKey });
    if (body.recipients.every((r: { status: string }) => !["queued", "deferred"].includes(r.status))) break;
    await t.app.services.worker.runOnce();
  }
  await t.app.services.statusReports.sendPending();
  // The periodic job may have queued it first: the outbox says what was asked and sent for this message.
  const db = t.app.services.store.db;
  const { dsnReports } = tablesOf(db);
  const rows = await db
    .select()
    .from(dsnReports)
    .where(inArray(dsnReports.emailId, [emailId]));
  return rows.filter((row) => row.reportEmailId !== null).length;
}

/** The report the smarthost received for `sender`, once the worker delivered it. */
async function reportTo(sender: string) {
  for (let i = 0; i < 50 && !smarthost.received.some((m) => m.recipients.includes(sender)); i++)
    await t.app.services.worker.runOnce();
  const message = smarthost.received.find((m) => m.recipients.includes(sender));
  if (!message) throw new Error(`no report reached ${sender}`);
  return message;
}

/** RFC 3464 §2.1: the delivery-status body's groups of fields, each as a name → value map. */
function statusGroups(text: string): Array<Record<string, string>> {
  return text
    .trim()
    .split(/\r?\n\r?\n/)
    .map((group) =>
      Object.fromEntries(
        group
          .split(/\r?\n/)
          .map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      ),
    );
}

describe("relay DSN", () => {
  test("a failed recipient with NOTIFY=FAILURE, ENVID, RET=HDRS and ORCPT gets a standard report at its envelope sender", async () => {
    const info = await relay().sendMail({
      from: "hi@example.com",
      to: `bounced@${SIM}`,
      subject: "Order 77",
      text: "A body the report must not return.",
      envelope: { from: "app-bounces@example.com", to: [`bounced@${SIM}`] },
      dsn: { id: "X", return: "headers", notify: ["failure"], recipient: "original@example.org" },
    });
    const emailId = queuedId(info.response)!;
    expect(await settle(emailId)).toBe(1);
    const report = await reportTo("app-bounces@example.com");
    // RFC 3461 §6.2: from the null reverse path.
    expect(report.mailFrom).toBe("");
    const raw = report.raw.toString("latin1");
    expect(raw).toMatch(/^Content-Type: multipart\/report; report-type=delivery-status;/m);
    expect(raw).toMatch(/^From: Mail Delivery System <MAILER-DAEMON@/m);
    expect(raw).toMatch(/^Auto-Submitted: auto-replied\r$/m);
    const parsed = await simpleParser(report.raw, { keepDeliveryStatus: true });
    const status = parsed.attachments.find((a) => a.contentType === "message/delivery-status");
    expect(status).toBeDefined();
    const [perMessage, perRecipient] = statusGroups(status!.content.toString());
    expect(perMessage!["original-envelope-id"]).toBe("X");
    expect(perMessage!["reporting-mta"]).toMatch(/^dns; /);
    expect(perRecipient).toMatchObject({
      "original-recipient": "rfc822;original@example.org",
      "final-recipient": `rfc822; bounced@${SIM}`,
      action: "failed",
      status: "5.1.1",
    });
    expect(perRecipient!["diagnostic-code"]).toMatch(/^smtp; 550 5\.1\.1 /);
    // RET=HDRS: the header comes back, the body does not.
    const headers = parsed.attachments.find((a) => a.contentType === "text/rfc822-headers");
    expect(headers!.content.toString()).toContain("Subject: Order 77");
    expect(raw).not.toContain("must not return");
    // The report is a message of the organisation, with its own history, tagged with the message it is about.
    const list = await t.json("GET", "/v1/emails?limit=5", { key: t.liveKey });
    const listed = list.body.data.find((e: { subject: string }) => e.subject === "Undelivered Mail Returned to Sender");
    expect(listed.tags).toContainEqual({ name: "dsn_for", value: emailId });
    const record = await t.json("GET", `/v1/emails/${listed.id}`, { key: t.liveKey });
    expect(record.body.recipients[0]).toMatchObject({ email: "app-bounces@example.com", status: "sent" });
  });

  test("NOTIFY=SUCCESS reports the relay to the smarthost, and RET=FULL returns the whole message", async () => {
    const info = await relay().sendMail({
      from: "hi@example.com",
      to: "someone@dest.test",
      subject: "Full return",
      text: "The whole message comes back.",
      envelope: { from: "full-app@example.com", to: ["someone@dest.test"] },
      dsn: { return: "full", notify: ["success", "failure"] },
    });
    expect(await settle(queuedId(info.response)!)).toBe(1);
    const report = await reportTo("full-app@example.com");
    const parsed = await simpleParser(report.raw, { keepDeliveryStatus: true });
    const [, perRecipient] = statusGroups(
      parsed.attachments.find((a) => a.contentType === "message/delivery-status")!.content.toString(),
    );
    expect(perRecipient).toMatchObject({ action: "relayed", status: "2.0.0" });
    // RET=FULL: the message itself, unencoded (RFC 2046 §5.2.1), after the report's parts.
    const raw = report.raw.toString("latin1");
    expect(raw).toMatch(/^Content-Type: message\/rfc822\r\nContent-Transfer-Encoding: 7bit\r\n/m);
    expect(raw.slice(raw.indexOf("message/rfc822"))).toContain("The whole message comes back.");
  });

  test("no report for NOTIFY=NEVER, a null sender, a report relayed, or a delivery nobody asked to hear of", async () => {
    const sends = [
      { envelope: { from: "never@example.com", to: [`bounced+never@${SIM}`] }, dsn: { notify: "never" } },
      { envelope: { from: "quiet@example.com", to: [`delivered@${SIM}`] } },
    ];
    const ids: string[] = [];
    for (const extra of sends) {
      const info = await relay().sendMail({ from: "hi@example.com", subject: "none", text: "x", ...extra } as never);
      ids.push(queuedId(info.response)!);
    }
    // A null sender, and a message that is itself a report, over a plain conversation.
    const chat = await open(submissionPort);
    await chat.send("EHLO client.test");
    await chat.starttls();
    await chat.send("EHLO client.test");
    expect((await chat.send(authPlain("apikey", t.liveKey))).code).toBe(235);
    for (const [from, contentType, label] of [
      ["", "text/plain", "null"],
      ["app@example.com", 'multipart/report; report-type=delivery-status; boundary="b"', "report"],
    ]) {
      expect((await chat.send(`MAIL FROM:<${from}>`)).code).toBe(250);
      expect((await chat.send(`RCPT TO:<bounced+${label}@${SIM}> NOTIFY=FAILURE`)).code).toBe(250);
      expect((await chat.send("DATA")).code).toBe(354);
      const reply = await chat.data(
        `From: hi@example.com\r\nTo: x@${SIM}\r\nSubject: r\r\nContent-Type: ${contentType}\r\n\r\n--b\r\n\r\nx\r\n--b--\r\n.\r\n`,
      );
      expect(reply.code).toBe(250);
      ids.push(queuedId(`250 ${reply.text}`)!);
    }
    for (const id of ids) await settle(id);
    // Nothing asked for a report of them (the outbox job may run in the background too, so the outbox is read).
    const db = t.app.services.store.db;
    const { dsnReports } = tablesOf(db);
    expect(await db.select().from(dsnReports).where(inArray(dsnReports.emailId, ids))).toEqual([]);
    const { body } = await t.json("GET", `/v1/emails/${ids[0]}`, { key: t.liveKey });
    expect(body.recipients[0].status).toBe("bounced");
  });

  test("an ENVID that is not xtext is refused at MAIL FROM, an ORCPT at RCPT TO", async () => {
    const chat = await open(submissionPort);
    const ehlo = await chat.send("EHLO client.test");
    await chat.starttls();
    expect((await chat.send("EHLO client.test")).lines).toContain("DSN");
    void ehlo;
    expect((await chat.send(authPlain("apikey", t.liveKey))).code).toBe(235);
    expect((await chat.send("MAIL FROM:<a@example.com> ENVID=a+0D+0Ab")).code).toBe(501);
    expect((await chat.send("MAIL FROM:<a@example.com> ENVID=ok")).code).toBe(250);
    expect((await chat.send(`RCPT TO:<delivered@${SIM}> ORCPT=rfc822;x+0AInjected:+20y`)).code).toBe(501);
  });
});
