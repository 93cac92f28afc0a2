/**
 * The SMTP relay end to end over loopback with real clients: nodemailer on both ports (STARTTLS on submission,
 * implicit TLS on smtps) and swaks, a programmable SMTP server as the smarthost; what arrives is byte-identical but
 * for Bcc, and AUTH is offered and taken only after TLS. The exact reply to each policy case is in
 * smtp-relay-replies.test.ts.
 */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import MailComposer from "nodemailer/lib/mail-composer";
import type { TestApp } from "./helpers/app.ts";
import { swaksPeer } from "./helpers/peers.ts";
import { authPlain } from "./helpers/smtp-chat.ts";
import type { SmtpDouble } from "./helpers/smtp-double.ts";
import { queuedId, setUpRelay } from "./helpers/smtp-relay.ts";

let t: TestApp;
let smarthost: SmtpDouble;
let ca: string;
let submissionPort: number;
let smtpsPort: number;

const { open } = setUpRelay((relay) => ({ t, smarthost, ca, submissionPort, smtpsPort } = relay));

/** Removes every occurrence of the named header fields (with continuation lines) from a raw message. */
function withoutFields(raw: Buffer, names: string[]): string {
  const text = raw.toString("latin1");
  const split = text.indexOf("\r\n\r\n");
  const lines = text.slice(0, split + 2).split(/(?<=\r\n)/);
  const kept: string[] = [];
  let dropping = false;
  for (const line of lines) {
    if (line.startsWith(" ") || line.startsWith("\t")) {
      if (!dropping) kept.push(line);
      continue;
    }
    dropping = names.includes(line.slice(0, line.indexOf(":")).toLowerCase());
    if (!dropping) kept.push(line);
  }
  return kept.join("") + text.slice(split + 2);
}

async function receivedFor(recipient: string) {
  for (let i = 0; i < 50 && !smarthost.received.some((m) => m.recipients.includes(recipient)); i++)
    await t.app.services.worker.runOnce();
  const message = smarthost.received.find((m) => m.recipients.includes(recipient));
  if (!message) throw new Error(`nothing delivered to ${recipient}`);
  return message;
}

const PDF = randomBytes(3000);
const mail = (tag: string) => ({
  from: "Acme Billing <hi@example.com>",
  to: `Ann Example <ann-${tag}@dest.test>`,
  cc: `cy-${tag}@dest.test`,
  bcc: `hidden-${tag}@dest.test`,
  subject: "Invoice №42 — ready",
  text: "Your invoice is attached.\nThanks!",
  html: "<p>Your invoice is attached. <b>Thanks!</b></p>",
  headers: { "X-Campaign": "spring-2026", "X-Order": "A-1009" },
  attachments: [
    { filename: "invoice.pdf", content: PDF, contentType: "application/pdf" },
    { filename: "note.txt", content: "héllo wörld" },
  ],
});

describe("nodemailer as a client", () => {
  test("over STARTTLS and AUTH on the submission port, the message reaches the smarthost byte-identical without Bcc", async () => {
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: submissionPort,
      secure: false,
      requireTLS: true,
      auth: { user: "apikey", pass: t.liveKey },
      tls: { ca },
    });
    const node = new MailComposer(mail("starttls")).compile();
    node.keepBcc = true; // the client sends a Bcc header, as many applications do
    const raw = await node.build();
    expect(raw.toString()).toMatch(/^Bcc: hidden-starttls@dest\.test\r$/m);
    const info = await transport.sendMail({
      envelope: {
        from: "hi@example.com",
        to: ["ann-starttls@dest.test", "cy-starttls@dest.test", "hidden-starttls@dest.test"],
      },
      raw,
    });
    transport.close();
    const id = queuedId(info.response);
    expect(id).toBeDefined();

    for (const recipient of ["ann-starttls@dest.test", "cy-starttls@dest.test", "hidden-starttls@dest.test"]) {
      const delivered = await receivedFor(recipient);
      // Everything but the Bcc line is as the client sent it (a DKIM signature may be added on the way out); the
      // client itself sends every line ending as CRLF (RFC 5321 §2.3.8).
      const onTheWire = Buffer.from(raw.toString("latin1").replace(/\r?\n/g, "\r\n"), "latin1");
      expect(withoutFields(delivered.raw, ["dkim-signature"])).toBe(withoutFields(onTheWire, ["bcc"]));
      const parsed = await simpleParser(delivered.raw);
      expect(parsed.headers.has("bcc")).toBe(false);
      expect(parsed.cc && !Array.isArray(parsed.cc) && parsed.cc.text).toBe("cy-starttls@dest.test");
      expect(parsed.headers.get("x-campaign")).toBe("spring-2026");
      expect(parsed.subject).toBe("Invoice №42 — ready");
      expect(parsed.attachments.map((a) => a.filename)).toEqual(["invoice.pdf", "note.txt"]);
      expect(Buffer.compare(parsed.attachments[0]!.content, PDF)).toBe(0);
      expect(parsed.attachments[1]!.content.toString()).toBe("héllo wörld");
    }

    const record = (await t.json("GET", `/v1/emails/${id}`)).body;
    expect(record).toMatchObject({
      source: "smtp",
      from: "Acme Billing <hi@example.com>",
      to: ["Ann Example <ann-starttls@dest.test>"],
      cc: ["cy-starttls@dest.test"],
      bcc: ["hidden-starttls@dest.test"],
      subject: "Invoice №42 — ready",
      text: "Your invoice is attached.\nThanks!",
    });
    expect(record.html).toContain("<b>Thanks!</b>");
    expect(record.recipients).toHaveLength(3);
  });

  test("over implicit TLS on the smtps port, the message arrives with its attachments, cc and headers", async () => {
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: smtpsPort,
      secure: true,
      auth: { user: "apikey", pass: t.liveKey },
      tls: { ca },
    });
    const info = await transport.sendMail(mail("smtps"));
    transport.close();
    const id = queuedId(info.response)!;
    expect(id).toBeDefined();
    const delivered = await receivedFor("hidden-smtps@dest.test");
    const parsed = await simpleParser(delivered.raw);
    expect(parsed.messageId).toBe(info.messageId);
    expect(parsed.headers.has("bcc")).toBe(false);
    expect(parsed.headers.get("x-order")).toBe("A-1009");
    expect(parsed.attachments.map((a) => [a.filename, a.size])).toEqual([
      ["invoice.pdf", PDF.length],
      ["note.txt", Buffer.byteLength("héllo wörld")],
    ]);
    const record = (await t.json("GET", `/v1/emails/${id}`)).body;
    expect(record).toMatchObject({ source: "smtp", message_id: info.messageId, bcc: ["hidden-smtps@dest.test"] });
  });
});

describe("AUTH only after TLS", () => {
  test("before STARTTLS, EHLO offers no AUTH and MAIL FROM is refused with 530 5.7.0", async () => {
    const chat = await open(submissionPort);
    const ehlo = await chat.send("EHLO client.test");
    expect(ehlo.lines).toContain("STARTTLS");
    expect(ehlo.lines.some((line) => line.startsWith("AUTH"))).toBe(false);
    expect((await chat.send(authPlain("apikey", t.liveKey))).code).toBe(500);
    const mail = await chat.send("MAIL FROM:<hi@example.com>");
    expect([mail.code, mail.lines[0]!.split(" ")[0]]).toEqual([530, "5.7.0"]);
    chat.close();
  });

  test("after STARTTLS, AUTH PLAIN and LOGIN are offered and a mail transaction needs AUTH", async () => {
    const chat = await open(submissionPort);
    await chat.send("EHLO client.test");
    await chat.starttls();
    const ehlo = await chat.send("EHLO client.test");
    expect(ehlo.lines).toContain("AUTH PLAIN LOGIN");
    const mail = await chat.send("MAIL FROM:<hi@example.com>");
    expect([mail.code, mail.lines[0]!.split(" ")[0]]).toEqual([530, "5.7.0"]);
    expect((await chat.send("AUTH LOGIN")).code).toBe(334);
    expect((await chat.send(Buffer.from("apikey").toString("base64"))).code).toBe(334);
    expect((await chat.send(Buffer.from(t.liveKey).toString("base64"))).code).toBe(235);
    chat.close();
  });
});

describe.skipIf(!swaksPeer().available)("swaks as a client", () => {
  const swaks = async (args: string[]) => {
    const child = Bun.spawn(
      [
        "swaks",
        "--server",
        `127.0.0.1:${submissionPort}`,
        "--from",
        "hi@example.com",
        "--to",
        "swaks@dest.test",
        "--h-From",
        "Acme <hi@example.com>",
        ...args,
      ],
      {
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
    return { code: await child.exited, output: out + err };
  };
  const caFile = () => join(t.dataDir, "tls", "smtp-cert.pem");

  test("sends over STARTTLS with AUTH PLAIN, verifying the certificate", async () => {
    const result = await swaks([
      "--tls",
      "--tls-verify",
      "--tls-ca-path",
      caFile(),
      "--auth",
      "PLAIN",
      "--auth-user",
      "apikey",
      "--auth-password",
      t.liveKey,
    ]);
    expect(result.output).toMatch(/<~ {2}250 2\.0\.0 Ok: queued as [0-9a-f-]{36}/);
    expect(result.code).toBe(0);
  });

  test("cannot authenticate before STARTTLS", async () => {
    const result = await swaks(["--auth", "PLAIN", "--auth-user", "apikey", "--auth-password", t.liveKey]);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("Host did not advertise authentication");
    expect(result.output).not.toContain("AUTH PLAIN");
  });
});
