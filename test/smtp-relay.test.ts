/**
 * The SMTP relay end to end over loopback: nodemailer and swaks as clients on both ports, a programmable SMTP
 * server as the smarthost, and a table of conversations with the exact reply each policy case must give.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import MailComposer from "nodemailer/lib/mail-composer";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { swaksPeer } from "./helpers/peers.ts";
import { authPlain, smtpChat, type SmtpChat, type SmtpReply } from "./helpers/smtp-chat.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

const MAX_MESSAGE_BYTES = 64 * 1024;

let t: TestApp;
let smarthost: SmtpDouble;
let dns: DnsServer;
let ca: string;
let submissionPort: number;
let smtpsPort: number;

beforeAll(async () => {
  smarthost = await startSmtpDouble();
  // Domain checks run in the background; a local DNS server answers them at once.
  dns = await startDnsServer();
  t = await createTestApp({
    dns: { servers: dns.servers },
    delivery: { default_provider: "smtp" },
    smarthost: { host: "127.0.0.1", port: smarthost.port, security: "none" },
    limits: { max_message_bytes: MAX_MESSAGE_BYTES },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const listeners = await t.app.start();
  submissionPort = listeners.find((l) => l.name === "submission")!.port;
  smtpsPort = listeners.find((l) => l.name === "smtps")!.port;
  ca = readFileSync(join(t.dataDir, "tls", "smtp-cert.pem"), "utf8");
});

/** Every conversation a test opens, closed after it. */
const chats: SmtpChat[] = [];
const open = async (port: number, options: { tls?: boolean } = {}) => {
  const chat = await smtpChat(port, { ca, ...options });
  chats.push(chat);
  return chat;
};
afterEach(() => chats.splice(0).forEach((chat) => chat.close()));

afterAll(async () => {
  await t.close();
  await smarthost.close();
  await dns.close();
});

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

const queuedId = (reply: string) => /^250 2\.0\.0 Ok: queued as ([0-9a-f-]{36})$/.exec(reply.trim())?.[1];

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

/** An authenticated session on the submission port: STARTTLS, EHLO, AUTH. */
async function session(key = t.liveKey): Promise<SmtpChat> {
  const chat = await open(submissionPort);
  expect((await chat.send("EHLO client.test")).code).toBe(250);
  expect((await chat.starttls()).code).toBe(220);
  expect((await chat.send("EHLO client.test")).code).toBe(250);
  expect((await chat.send(authPlain("apikey", key))).code).toBe(235);
  return chat;
}

function message(options: { from?: string; to?: string; headers?: string[]; body?: string } = {}): string {
  return [
    `From: ${options.from ?? "Acme <hi@example.com>"}`,
    `To: ${options.to ?? "someone@dest.test"}`,
    "Subject: Hello",
    ...(options.headers ?? []),
    "",
    options.body ?? "Hi there.",
  ].join("\r\n");
}

/** MAIL, RCPT for each recipient, DATA: the reply to the message (or to the first refused command). */
async function transaction(
  chat: SmtpChat,
  recipients: string[],
  body: string,
  mailFrom = "hi@example.com",
): Promise<SmtpReply> {
  const mailReply = await chat.send(`MAIL FROM:<${mailFrom}>`);
  if (mailReply.code !== 250) return mailReply;
  for (const recipient of recipients) {
    const reply = await chat.send(`RCPT TO:<${recipient}>`);
    if (reply.code !== 250) return reply;
  }
  const go = await chat.send("DATA");
  if (go.code !== 354) return go;
  return chat.data(body);
}

async function send(key: string, recipients: string[], body: string): Promise<SmtpReply> {
  const chat = await session(key);
  try {
    return await transaction(chat, recipients, body);
  } finally {
    chat.close();
  }
}

const createKey = async (input: { scopes?: string[]; rateLimitPerMinute?: number } = {}) =>
  t.app.services.keys.create(t.operator, {
    name: "case",
    scopes: input.scopes ?? ["sending_access"],
    mode: "live",
    rateLimitPerMinute: input.rateLimitPerMinute,
  });

describe("SMTP conversations answer with the code of the error table", () => {
  const cases: Array<[string, () => Promise<SmtpReply>, number, string]> = [
    [
      "a username other than apikey",
      async () => {
        const chat = await open(smtpsPort, { tls: true });
        await chat.send("EHLO client.test");
        return chat.send(authPlain("hi@example.com", t.liveKey));
      },
      535,
      "5.7.8",
    ],
    [
      "a revoked key",
      async () => {
        const key = await createKey();
        await t.app.services.keys.revoke(t.operator, key.id);
        const chat = await open(smtpsPort, { tls: true });
        await chat.send("EHLO client.test");
        return chat.send(authPlain("apikey", key.key));
      },
      535,
      "5.7.8",
    ],
    [
      "a key without the emails:send scope (at MAIL FROM)",
      async () => send((await createKey({ scopes: ["emails:read"] })).key, ["a@dest.test"], message()),
      550,
      "5.7.1",
    ],
    [
      "a From header on an unverified domain",
      async () => send(t.liveKey, ["a@dest.test"], message({ from: "Mallory <ceo@unverified.test>" })),
      550,
      "5.7.1",
    ],
    [
      "a 51st recipient",
      async () => {
        const chat = await session();
        expect((await chat.send("MAIL FROM:<hi@example.com>")).code).toBe(250);
        for (let i = 1; i <= 50; i++) expect((await chat.send(`RCPT TO:<r${i}@dest.test>`)).code).toBe(250);
        const refused = await chat.send("RCPT TO:<r51@dest.test>");
        // The 50 accepted recipients still get the message.
        expect((await chat.send("DATA")).code).toBe(354);
        expect((await chat.data(message())).code).toBe(250);
        chat.close();
        return refused;
      },
      452,
      "4.5.3",
    ],
    [
      "a message over the size limit",
      async () => send(t.liveKey, ["a@dest.test"], message({ body: "x".repeat(MAX_MESSAGE_BYTES) })),
      552,
      "5.3.4",
    ],
    [
      "the key's rate limit is used up",
      async () => {
        const key = await createKey({ rateLimitPerMinute: 1 });
        expect((await send(key.key, ["a@dest.test"], message())).code).toBe(250);
        return send(key.key, ["a@dest.test"], message());
      },
      451,
      "4.7.1",
    ],
    [
      "every recipient is suppressed",
      async () => {
        await t.app.services.suppressions.add(t.operator, { email: "gone@dest.test" });
        return send(t.liveKey, ["gone@dest.test"], message({ to: "gone@dest.test" }));
      },
      550,
      "5.7.1",
    ],
    [
      "an Idempotency-Key replayed (the original id again, see below)",
      async () => {
        expect((await send(t.liveKey, ["a@dest.test"], message({ headers: ["Idempotency-Key: order-76"] }))).code).toBe(
          250,
        );
        return send(t.liveKey, ["a@dest.test"], message({ headers: ["Idempotency-Key: order-76"] }));
      },
      250,
      "2.0.0",
    ],
    [
      "an Idempotency-Key reused with another message",
      async () => {
        expect((await send(t.liveKey, ["a@dest.test"], message({ headers: ["Idempotency-Key: order-77"] }))).code).toBe(
          250,
        );
        return send(
          t.liveKey,
          ["a@dest.test"],
          message({ headers: ["Idempotency-Key: order-77"], body: "Something else." }),
        );
      },
      550,
      "5.7.1",
    ],
  ];

  test.each(cases)("%s", async (_name, run, code, enhanced) => {
    const reply = await run();
    expect(reply.code).toBe(code);
    expect(reply.lines[0]!.split(" ")[0]).toBe(enhanced);
  });

  test("a rate-limited MAIL FROM says when to try again", async () => {
    const key = await createKey({ rateLimitPerMinute: 1 });
    await send(key.key, ["a@dest.test"], message());
    const reply = await send(key.key, ["a@dest.test"], message());
    expect(reply.text).toMatch(/^4\.7\.1 .*try again in \d+ seconds/);
  });

  test("an Idempotency-Key replay answers 250 with the original id and sends nothing twice", async () => {
    const body = message({ to: "once@dest.test", headers: ["Idempotency-Key: receipt-2026-0001"] });
    const first = await send(t.liveKey, ["once@dest.test"], body);
    // A client retry rebuilds the message: a new Message-ID and Date do not make it another request.
    const retry = await send(
      t.liveKey,
      ["once@dest.test"],
      message({
        to: "once@dest.test",
        headers: ["Idempotency-Key: receipt-2026-0001", "Message-ID: <retry@client.test>"],
      }),
    );
    expect(first.code).toBe(250);
    expect(retry.code).toBe(250);
    const id = queuedId(`250 ${first.text}`)!;
    expect(retry.text).toBe(`2.0.0 Ok: queued as ${id}`);
    const list = (await t.json("GET", "/v1/emails?to=once@dest.test")).body;
    expect(list.data.map((e: { id: string }) => e.id)).toEqual([id]);
    const raw = (await t.request("GET", `/v1/emails/${id}/raw`).then((r) => r.text())) as string;
    expect(raw).not.toMatch(/^Idempotency-Key:/im);
  });

  test("SIZE on MAIL FROM above the advertised limit is refused before the data", async () => {
    const chat = await session();
    const ehlo = await chat.send("EHLO client.test");
    expect(ehlo.lines).toContain(`SIZE ${MAX_MESSAGE_BYTES}`);
    const reply = await chat.send(`MAIL FROM:<hi@example.com> SIZE=${MAX_MESSAGE_BYTES + 1}`);
    expect(reply.code).toBe(552);
    chat.close();
  });

  test("a message without Message-ID and Date gets both, the Message-ID on the sender's domain", async () => {
    const reply = await send(t.liveKey, ["bare@dest.test"], message({ to: "bare@dest.test" }));
    const id = queuedId(`250 ${reply.text}`)!;
    const record = (await t.json("GET", `/v1/emails/${id}`)).body;
    expect(record.message_id).toBe(`<${id}@example.com>`);
    const raw = await t.request("GET", `/v1/emails/${id}/raw`).then((r) => r.text());
    expect(raw).toContain(`\r\nMessage-ID: <${id}@example.com>\r\n`);
    expect(raw).toMatch(/\r\nDate: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000\r\n/);
    expect(raw.endsWith("\r\n\r\nHi there.\r\n")).toBe(true);
  });

  test("a test-mode key is accepted from any domain and its message is captured", async () => {
    const reply = await send(t.testKey, ["t@dest.test"], message({ from: "dev@anything.test", to: "t@dest.test" }));
    const id = queuedId(`250 ${reply.text}`)!;
    await t.app.services.worker.runOnce();
    const record = (await t.json("GET", `/v1/emails/${id}`, { key: t.testKey })).body;
    expect(record.status).toBe("delivered");
    expect(smarthost.received.some((m) => m.recipients.includes("t@dest.test"))).toBe(false);
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

describe("one rate limit for HTTP and SMTP", () => {
  test("the same key sending over both within a minute is held to its limit, each message counting once", async () => {
    const key = await createKey({ rateLimitPerMinute: 4 });
    const http = () =>
      t.json("POST", "/v1/emails", {
        key: key.key,
        body: { from: "hi@example.com", to: "mix@dest.test", subject: "Mixed", html: "<p>x</p>" },
      });
    expect((await http()).status).toBe(200);
    // Two messages on one SMTP connection count twice.
    const chat = await session(key.key);
    expect((await transaction(chat, ["mix@dest.test"], message())).code).toBe(250);
    expect((await transaction(chat, ["mix@dest.test"], message())).code).toBe(250);
    expect((await http()).status).toBe(200);
    const refusedSmtp = await chat.send("MAIL FROM:<hi@example.com>");
    chat.close();
    expect([refusedSmtp.code, refusedSmtp.lines[0]!.split(" ")[0]]).toEqual([451, "4.7.1"]);
    const refusedHttp = await http();
    expect(refusedHttp.status).toBe(429);
    expect(refusedHttp.body.name).toBe("rate_limit_exceeded");
  });
});
