/**
 * Sending with a template over the SMTP relay, as an application that only speaks SMTP does: X-Mailroom-Template
 * and X-Mailroom-Variables render the published version (attachments, Bcc and other headers kept, the two fields
 * never delivered), and a missing or malformed variable, an unknown template or a To outside the envelope is
 * refused after DATA with a permanent reply naming it. The app starts with Welcome published, as the template API's
 * tests (templates.test.ts) leave it.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import type { Resend } from "resend";
import type { TestApp } from "./helpers/app.ts";
import type { SmtpDouble } from "./helpers/smtp-double.ts";
import { setUpTemplateApp, WELCOME } from "./helpers/templates.ts";

let t: TestApp;
let smtp: SmtpDouble;
let resend: Resend;
let submissionPort: number;

setUpTemplateApp((app) => ({ t, smtp, resend, submissionPort } = app));

beforeAll(async () => {
  expect((await resend.templates.create(WELCOME)).error).toBeNull();
  expect((await resend.templates.publish("welcome")).error).toBeNull();
});

describe("over SMTP", () => {
  const relay = () =>
    nodemailer.createTransport({
      host: "127.0.0.1",
      port: submissionPort,
      secure: false,
      requireTLS: true,
      auth: { user: "apikey", pass: t.liveKey },
      tls: { ca: readFileSync(join(t.dataDir, "tls", "smtp-cert.pem"), "utf8") },
    });
  const queuedId = (response: string) => /queued as ([0-9a-f-]{36})/.exec(response)?.[1];

  test("X-Mailroom-Template and X-Mailroom-Variables render the published version; the two fields never reach the recipient", async () => {
    const transport = relay();
    const info = await transport.sendMail({
      from: "Billing <billing@example.com>",
      to: "ann@dest.test",
      bcc: "audit@dest.test",
      headers: {
        "X-Mailroom-Template": "welcome",
        "X-Mailroom-Variables": JSON.stringify({ name: "Zoë <3", count: 7 }),
        "X-Entity-Ref-ID": "order-42",
      },
      attachments: [{ filename: "invoice.pdf", content: Buffer.from("%PDF-1.4 invoice") }],
    });
    transport.close();
    const id = queuedId(info.response)!;
    expect(id).toBeString();
    await t.app.services.worker.runOnce();
    const delivered = smtp.received.filter((message) => message.raw.toString().includes(`order-42`));
    expect(delivered.flatMap((message) => message.recipients).sort()).toEqual(["ann@dest.test", "audit@dest.test"]);
    const parsed = await simpleParser(delivered[0]!.raw);
    expect(parsed.subject).toBe("Welcome, Zoë <3 & co");
    expect(parsed.from!.value).toEqual([{ name: "Billing", address: "billing@example.com" }]);
    expect(parsed.html).toContain("Hello Zoë &lt;3, you have 7 credits.");
    expect(parsed.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([
      ["invoice.pdf", "%PDF-1.4 invoice"],
    ]);
    expect(parsed.headers.get("x-entity-ref-id")).toBe("order-42");
    expect(parsed.headers.has("x-mailroom-template")).toBe(false);
    expect(parsed.headers.has("x-mailroom-variables")).toBe(false);
    expect(parsed.headers.has("bcc")).toBe(false);
    expect((await t.json("GET", `/v1/emails/${id}`)).body).toMatchObject({
      source: "smtp",
      template_id: (await resend.templates.get("welcome")).data!.id,
      bcc: ["audit@dest.test"],
    });
  });

  test.each([
    [
      "a missing variable",
      { "X-Mailroom-Template": "welcome" },
      /^554 5\.6\.0 .*X-Mailroom-Variables\.count: is required/,
    ],
    [
      "variables that are not JSON",
      { "X-Mailroom-Template": "welcome", "X-Mailroom-Variables": "{count: 1}" },
      /^554 5\.6\.0 .*X-Mailroom-Variables: must be a JSON object/,
    ],
    [
      "an unknown template",
      { "X-Mailroom-Template": "nope", "X-Mailroom-Variables": "{}" },
      /^554 5\.6\.0 .*X-Mailroom-Template: no template has the id or alias "nope"/,
    ],
  ])("%s is refused after DATA with a permanent reply naming it", async (_name, headers, reply) => {
    const transport = relay();
    const error = await transport
      .sendMail({ from: "billing@example.com", to: "ann@dest.test", subject: "s", text: "x", headers })
      .catch((e: { response: string }) => e);
    transport.close();
    expect((error as { response: string }).response).toMatch(reply);
  });

  test("To and Cc must be among the envelope recipients", async () => {
    const transport = relay();
    const error = await transport
      .sendMail({
        envelope: { from: "billing@example.com", to: ["ann@dest.test"] },
        from: "billing@example.com",
        to: "ann@dest.test",
        cc: "eve@dest.test",
        headers: { "X-Mailroom-Template": "welcome", "X-Mailroom-Variables": '{"count":1}' },
      })
      .catch((e: { response: string }) => e);
    transport.close();
    expect((error as { response: string }).response).toMatch(
      /^554 5\.6\.0 .*eve@dest\.test is not among the envelope recipients/,
    );
  });
});
