/**
 * The SMTP relay's replies over loopback, a table of conversations with the exact reply each policy case must give
 * (the codes of the error table: a wrong username or a revoked key, a missing scope, an unverified From, too many
 * recipients, too large a message, a used-up rate limit, suppressed recipients, Idempotency-Key replayed or reused);
 * what some of those replies say; Message-ID and Date added; test-mode keys captured; and one rate limit shared by
 * HTTP and SMTP.
 */
import { describe, expect, test } from "bun:test";
import type { TestApp } from "./helpers/app.ts";
import { authPlain, type SmtpChat, type SmtpReply } from "./helpers/smtp-chat.ts";
import type { SmtpDouble } from "./helpers/smtp-double.ts";
import { MAX_MESSAGE_BYTES, queuedId, setUpRelay } from "./helpers/smtp-relay.ts";

let t: TestApp;
let smarthost: SmtpDouble;
let submissionPort: number;
let smtpsPort: number;

const { open } = setUpRelay((relay) => ({ t, smarthost, submissionPort, smtpsPort } = relay));

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
