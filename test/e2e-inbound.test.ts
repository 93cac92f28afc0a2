/**
 * The inbound MX end to end on the built executable (`npm run build` → dist/mailroom), with swaks as the sending
 * MTA over loopback: a bounce and a feedback report to the per-delivery return paths of messages sent through a
 * real SMTP server change those deliveries, suppress their recipients and fire verified webhooks; a DKIM-signed
 * reply to a receiving domain is stored with its SPF and DKIM verdicts (against a loopback DNS server), linked to
 * the message it answers, and announced by `email.received`; recipients the MX does not take mail for are refused
 * at RCPT with the exact reply; a 10 MiB attachment comes back byte for byte from its signed link without an API
 * key; and oversized, malformed, 8-bit, bare-LF and NUL-carrying messages each get a clear reply, are kept whole
 * when accepted, and never take the server down.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dkimSign } from "mailauth";
import { tempDir } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { inboundFixture } from "./helpers/inbound-fixtures.ts";
import { swaksPeer } from "./helpers/peers.ts";
import { runCli, startMailroom, type MailroomProcess } from "./helpers/process.ts";
import { smtpChat, type SmtpReply } from "./helpers/smtp-chat.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "./helpers/webhook-receiver.ts";

const peer = swaksPeer();

const MIB = 1024 * 1024;
// A 10 MiB binary attachment is ~13.7 MiB once base64-encoded in 76-column lines, so the limit sits above that
// and the oversized message (16 MiB of data) clearly above the limit.
const MAX_MESSAGE_BYTES = 15 * MIB;
const ATTACHMENT_BYTES = 10 * MIB;

const dataDir = tempDir("mailroom-e2e-inbound-");
const workDir = tempDir("mailroom-e2e-inbound-files-");
let server: MailroomProcess | undefined;
let smtp: SmtpDouble | undefined;
let dns: DnsServer | undefined;
let hooks: WebhookReceiver | undefined;
let key = "";

afterAll(async () => {
  server?.proc.kill("SIGKILL");
  await server?.exited;
  await smtp?.close();
  await dns?.close();
  await hooks?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(workDir, { recursive: true, force: true });
});

const api = async (method: string, path: string, body?: unknown, withKey = true) => {
  const res = await fetch(`${server!.baseUrl}${path}`, {
    method,
    headers: {
      ...(withKey ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, body: json, text };
};

/** Polls `probe` until it returns something truthy; fails with `what` after `timeoutMs`. */
async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/** Sends one message through Mailroom to the SMTP double; its id, Message-ID and the return path it left with. */
async function sendOne(to: string, subject: string) {
  const before = smtp!.received.length;
  const res = await api("POST", "/v1/emails", {
    from: "Acme <hello@example.com>",
    to,
    subject,
    html: "<p>Thanks.</p>",
  });
  expect(res.status).toBe(200);
  await smtp!.waitFor(before + 1);
  const sent = smtp!.received.at(-1)!;
  expect(sent.recipients).toEqual([to]);
  expect(sent.mailFrom).toMatch(/^bounces\+[0-9a-f]{32}-[a-z2-7]{16}@send\.example\.com$/);
  const record = (await api("GET", `/v1/emails/${res.body.id}`)).body;
  expect(record.message_id).toMatch(/^<.+@.+>$/);
  return { id: res.body.id as string, messageId: record.message_id as string, returnPath: sent.mailFrom };
}

let fileCount = 0;
function file(content: string | Buffer): string {
  const path = join(workDir, `message-${++fileCount}.eml`);
  writeFileSync(path, content);
  return path;
}

/** swaks delivering `data` (a file) to the MX; its exit code and its whole transcript. */
async function swaks(args: { from: string; to: string; data: string }) {
  const child = Bun.spawn(
    [
      "swaks",
      "--server",
      "127.0.0.1",
      "--port",
      String(server!.ports.mx),
      "--helo",
      "mx.dest.test",
      "--from",
      args.from,
      "--to",
      args.to,
      "--data",
      `@${args.data}`,
      "--suppress-data",
      "--timeout",
      "30",
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  return { code: await child.exited, output: out + err };
}

/** The server's replies in a swaks transcript (`<-` for replies, `<**` for refusals), one space after the marker. */
const replies = (output: string) =>
  output
    .split("\n")
    .filter((line) => /^\s*<(-|~|\*\*) /.test(line))
    .map((line) => line.trim().replace(/ +/, " "))
    .join("\n");

const webhookOf = (type: string, match: (hook: ReceivedWebhook) => boolean = () => true) =>
  until(`an ${type} webhook`, () => hooks!.received.find((hook) => hook.payload?.type === type && match(hook)));

/** The received message with this Message-ID, from the list as an API client finds it. */
const receivedByMessageId = (messageId: string) =>
  until(`a received message ${messageId}`, async () => {
    const list = await api("GET", "/v1/emails/receiving?limit=100");
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ object: "list", has_more: false });
    return (list.body.data as Array<{ id: string; message_id: string | null }>).find(
      (row) => row.message_id === messageId,
    );
  });

/** One SMTP transaction over a raw socket, for replies checked exactly and message bytes sent exactly as given. */
async function transaction(
  from: string,
  to: string,
  data?: Buffer,
): Promise<{ mail: SmtpReply; rcpt: SmtpReply; end?: SmtpReply }> {
  const chat = await smtpChat(server!.ports.mx!);
  try {
    expect(chat.greeting.code).toBe(220);
    expect((await chat.send("EHLO mx.dest.test")).code).toBe(250);
    const mail = await chat.send(`MAIL FROM:<${from}>`);
    const rcpt = await chat.send(`RCPT TO:<${to}>`);
    if (!data || rcpt.code !== 250) return { mail, rcpt };
    expect((await chat.send("DATA")).code).toBe(354);
    // Written as is (smtpChat.data would turn bare LF into CRLF): the terminator is the protocol's, the rest ours.
    chat.write(Buffer.concat([data, Buffer.from(".\r\n")]));
    const end = await chat.next();
    await chat.send("QUIT").catch(() => undefined);
    return { mail, rcpt, end };
  } finally {
    chat.close();
  }
}

const enhanced = (reply: SmtpReply) => [reply.code, reply.lines[0]!.split(" ")[0]];

describe.skipIf(!peer.available)("inbound MX with swaks as the sending MTA", () => {
  let dkimPrivateKey = "";

  beforeAll(async () => {
    smtp = await startSmtpDouble();
    dns = await startDnsServer();
    hooks = await startWebhookReceiver();

    // What a receiving MTA checks of the replies from dest.test: SPF for the loopback client, a DKIM key, DMARC.
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    dkimPrivateKey = pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const spki = pair.publicKey.export({ type: "spki", format: "der" }).toString("base64");
    dns.set("dest.test", "TXT", ["v=spf1 ip4:127.0.0.1 -all"]);
    dns.set("e2e._domainkey.dest.test", "TXT", [`v=DKIM1; k=rsa; p=${spki}`]);
    dns.set("_dmarc.dest.test", "TXT", ["v=DMARC1; p=reject"]);

    const env = {
      MAILROOM_DATA_DIR: dataDir,
      MAILROOM_HTTP_PORT: "0",
      MAILROOM_DNS_SERVERS: dns.servers[0]!,
      MAILROOM_DELIVERY_DEFAULT_PROVIDER: "smtp",
      MAILROOM_SMARTHOST_HOST: "127.0.0.1",
      MAILROOM_SMARTHOST_PORT: String(smtp.port),
      MAILROOM_SMARTHOST_SECURITY: "none",
      MAILROOM_WEBHOOKS_ALLOW_PRIVATE_NETWORKS: "true",
      MAILROOM_INBOUND_MAX_MESSAGE_BYTES: String(MAX_MESSAGE_BYTES),
    };
    await runCli(["init"], env, true);
    ({ token: key } = JSON.parse(
      await runCli(["keys", "create", "--name", "e2e-inbound", "--scope", "full_access", "--json"], env, true),
    ));
    await runCli(["domains", "add", "example.com", "--verified"], env, true);
    await runCli(["domains", "add", "quiet.example", "--verified"], env, true);
    server = await startMailroom(env, { binary: true });
    expect(server.ports.mx).toBeGreaterThan(0);

    const webhook = await api("POST", "/v1/webhooks", {
      endpoint: hooks.url,
      events: ["email.bounced", "email.complained", "email.received"],
    });
    expect(webhook.status).toBe(200);
    hooks.secrets.push(webhook.body.signing_secret);
  }, 30_000);

  test("a 5.1.1 notification to a return path bounces the delivery Permanent, suppresses, and fires email.bounced", async () => {
    const sent = await sendOne("someone@dest.test", "Your receipt");
    // A notification travels with the null sender (RFC 5321 §4.5.5); swaks spells it "<>".
    const result = await swaks({ from: "<>", to: sent.returnPath, data: file(inboundFixture("postfix-5.1.1", sent)) });
    expect(result.output).toContain(" -> MAIL FROM:<>\n");
    expect(replies(result.output)).toContain("<- 250 2.0.0 Ok: received");
    expect(result.code).toBe(0);

    const record = (await api("GET", `/v1/emails/${sent.id}`)).body;
    expect(record.status).toBe("bounced");
    expect(record.recipients[0]).toMatchObject({ email: "someone@dest.test", status: "bounced" });
    const bounced = record.events.filter((e: { type: string }) => e.type === "email.bounced");
    expect(bounced).toHaveLength(1);
    expect(bounced[0].data.bounce.type).toBe("Permanent");

    const suppression = await api("GET", `/v1/suppressions/${encodeURIComponent("someone@dest.test")}`);
    expect(suppression.status).toBe(200);
    expect(suppression.body).toMatchObject({ origin: "bounce" });

    const hook = await webhookOf("email.bounced", (h) => h.payload.data.email_id === sent.id);
    expect(hook.verifiedWith).toEqual([0]);
    expect(hook.payload.data.bounce.type).toBe("Permanent");
  }, 15_000);

  test("a feedback report to a return path marks the delivery complained, suppresses, and fires email.complained", async () => {
    const sent = await sendOne("reader@dest.test", "Our newsletter");
    const result = await swaks({
      from: "feedback@arf.mail.yahoo.com",
      to: sent.returnPath,
      data: file(inboundFixture("arf-yahoo", sent)),
    });
    expect(replies(result.output)).toContain("<- 250 2.0.0 Ok: received");
    expect(result.code).toBe(0);

    const record = (await api("GET", `/v1/emails/${sent.id}`)).body;
    expect(record.status).toBe("complained");
    expect(record.recipients[0]).toMatchObject({ email: "reader@dest.test", status: "complained" });

    const suppression = await api("GET", `/v1/suppressions/${encodeURIComponent("reader@dest.test")}`);
    expect(suppression.status).toBe(200);
    expect(suppression.body).toMatchObject({ origin: "complaint" });

    const hook = await webhookOf("email.complained", (h) => h.payload.data.email_id === sent.id);
    expect(hook.verifiedWith).toEqual([0]);
  }, 15_000);

  test("a DKIM-signed reply to a receiving domain is stored with SPF and DKIM pass, linked, and fires email.received", async () => {
    // someone@ and reader@ are suppressed by now: the conversation is with a third correspondent.
    const sent = await sendOne("friend@dest.test", "Your order");
    const patched = await api("PATCH", "/v1/domains/example.com", { receiving: true });
    expect(patched.status).toBe(200);

    const unsigned = [
      "From: Friend <friend@dest.test>",
      "To: Acme <hello@example.com>",
      "Subject: Re: Your order",
      `Date: ${new Date().toUTCString().replace("GMT", "+0000")}`,
      "Message-ID: <reply-e2e@dest.test>",
      `In-Reply-To: ${sent.messageId}`,
      `References: ${sent.messageId}`,
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Thanks, it arrived. One question about the invoice.",
      "",
    ].join("\r\n");
    // mailauth's typings ask for top-level key fields, but the signer reads only signatureData.
    const signed = await dkimSign(unsigned, {
      signatureData: [{ signingDomain: "dest.test", selector: "e2e", privateKey: dkimPrivateKey }],
    } as Parameters<typeof dkimSign>[1]);
    expect(signed.errors).toEqual([]);
    const result = await swaks({
      from: "friend@dest.test",
      to: "hello@example.com",
      data: file(signed.signatures + unsigned),
    });
    expect(replies(result.output)).toContain("<- 250 2.0.0 Ok: received");
    expect(result.code).toBe(0);

    const { id } = await receivedByMessageId("<reply-e2e@dest.test>");
    const received = await api("GET", `/v1/emails/receiving/${id}`);
    expect(received.status).toBe(200);
    expect(received.body).toMatchObject({
      object: "email",
      id,
      subject: "Re: Your order",
      to: ["hello@example.com"],
      received_for: ["hello@example.com"],
      in_reply_to_email_id: sent.id,
      auto_reply: null,
    });
    expect(received.body.from).toContain("friend@dest.test");
    expect(received.body.text).toContain("One question about the invoice.");
    const { authentication } = received.body;
    expect(authentication.spf).toMatchObject({ result: "pass", domain: "dest.test" });
    expect(authentication.dkim).toContainEqual(
      expect.objectContaining({ result: "pass", domain: "dest.test", selector: "e2e" }),
    );
    expect(authentication.dmarc).toMatchObject({ result: "pass" });

    // The signed raw link needs no API key and gives the message as it arrived, signature and all.
    const raw = await fetch(received.body.raw.download_url);
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toStartWith("message/rfc822");
    // swaks ends DATA with CRLF.CRLF after the file's own last line break: one empty line more arrives.
    expect(await raw.text()).toBe(`${signed.signatures}${unsigned}\r\n`);

    const original = (await api("GET", `/v1/emails/${sent.id}`)).body;
    expect(original.events.map((e: { type: string }) => e.type)).toContain("email.received");

    const hook = await webhookOf("email.received", (h) => h.payload.data.email_id === id);
    expect(hook.verifiedWith).toEqual([0]);
    expect(hook.payload.data).toMatchObject({
      email_id: id,
      message_id: "<reply-e2e@dest.test>",
      subject: "Re: Your order",
      in_reply_to_email_id: sent.id,
      received_for: ["hello@example.com"],
    });
  }, 15_000);

  test("recipients the MX does not receive for are refused at RCPT with the exact reply", async () => {
    const unknown = await transaction("friend@dest.test", "someone@unknown.test");
    expect(unknown.mail.code).toBe(250);
    expect(enhanced(unknown.rcpt)).toEqual([550, "5.7.1"]);

    // The token's MAC is its last 16 characters: another value there names no delivery.
    const sent = smtp!.received.at(-1)!.mailFrom;
    const forgedToken = sent.replace(
      /-([a-z2-7]{16})@/,
      (_, mac: string) => `-${mac === "aaaaaaaaaaaaaaaa" ? "bbbbbbbbbbbbbbbb" : "aaaaaaaaaaaaaaaa"}@`,
    );
    expect(forgedToken).not.toBe(sent);
    const forged = await transaction("", forgedToken);
    expect(enhanced(forged.rcpt)).toEqual([550, "5.1.1"]);

    const quiet = await transaction("friend@dest.test", "hello@quiet.example");
    expect(enhanced(quiet.rcpt)).toEqual([550, "5.7.1"]);

    // swaks, as a real MTA would see it: the refusal ends the transaction before DATA.
    const refused = await swaks({
      from: "friend@dest.test",
      to: "someone@unknown.test",
      data: file("Subject: x\r\n\r\nx\r\n"),
    });
    expect(replies(refused.output)).toMatch(/<\*\* 550 5\.7\.1 /);
    expect(refused.output).not.toContain("354");
    expect(refused.code).not.toBe(0);
  }, 15_000);

  test("a 10 MiB attachment comes back byte for byte from its signed download_url, without an API key", async () => {
    const content = randomBytes(ATTACHMENT_BYTES);
    const base64 = content.toString("base64").replace(/.{76}/g, "$&\r\n");
    const message = [
      "From: Friend <friend@dest.test>",
      "To: hello@example.com",
      "Subject: The big file",
      "Message-ID: <big-attachment@dest.test>",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="big-boundary"',
      "",
      "--big-boundary",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "The file is attached.",
      "--big-boundary",
      'Content-Type: application/octet-stream; name="measurements.bin"',
      'Content-Disposition: attachment; filename="measurements.bin"',
      "Content-Transfer-Encoding: base64",
      "",
      base64.trimEnd(),
      "--big-boundary--",
      "",
    ].join("\r\n");
    expect(message.length).toBeLessThan(MAX_MESSAGE_BYTES);
    const result = await swaks({ from: "friend@dest.test", to: "hello@example.com", data: file(message) });
    expect(replies(result.output)).toContain("<- 250 2.0.0 Ok: received");
    expect(result.code).toBe(0);

    const { id } = await receivedByMessageId("<big-attachment@dest.test>");
    const listed = await api("GET", `/v1/emails/receiving/${id}/attachments`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toHaveLength(1);
    const attachment = listed.body.data[0];
    expect(attachment).toMatchObject({
      filename: "measurements.bin",
      content_type: "application/octet-stream",
      content_disposition: "attachment",
      size: ATTACHMENT_BYTES,
    });

    const one = await api("GET", `/v1/emails/receiving/${id}/attachments/${attachment.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: attachment.id, filename: "measurements.bin", size: ATTACHMENT_BYTES });

    const download = await fetch(attachment.download_url);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/octet-stream");
    expect(download.headers.get("content-disposition")).toStartWith('attachment; filename="measurements.bin"');
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.length).toBe(ATTACHMENT_BYTES);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(createHash("sha256").update(content).digest("hex"));

    // The link is what grants access: the same path without it needs a key.
    expect((await fetch(new URL(new URL(attachment.download_url).pathname, server!.baseUrl))).status).toBe(401);
  }, 30_000);

  describe("bad input gets a clear reply and never takes the server down", () => {
    test("a message over the size limit is refused with 552 5.3.4", async () => {
      const oversized = [
        "From: friend@dest.test",
        "To: hello@example.com",
        "Subject: Too big",
        "Message-ID: <too-big@dest.test>",
        "",
        randomBytes(12 * MIB)
          .toString("base64")
          .replace(/.{76}/g, "$&\r\n"),
        "",
      ].join("\r\n");
      expect(oversized.length).toBeGreaterThan(MAX_MESSAGE_BYTES);
      const result = await swaks({ from: "friend@dest.test", to: "hello@example.com", data: file(oversized) });
      expect(replies(result.output)).toMatch(/<\*\* 552 5\.3\.4 /);
      expect(result.code).not.toBe(0);
      const list = await api("GET", "/v1/emails/receiving?limit=100");
      expect(list.body.data.map((row: { message_id: string | null }) => row.message_id)).not.toContain(
        "<too-big@dest.test>",
      );
    }, 30_000);

    /** Delivers `raw` exactly, expects 250, and reads it back: the parsed record and the raw bytes. */
    const acceptedAndReadable = async (raw: Buffer, messageId: string) => {
      const { end } = await transaction("friend@dest.test", "hello@example.com", raw);
      expect(end?.code).toBe(250);
      expect(end?.text).toBe("2.0.0 Ok: received");
      const { id } = await receivedByMessageId(messageId);
      const record = await api("GET", `/v1/emails/receiving/${id}`);
      expect(record.status).toBe(200);
      const stored = await fetch(`${server!.baseUrl}/v1/emails/receiving/${id}/raw`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(stored.status).toBe(200);
      expect(stored.headers.get("content-type")).toStartWith("message/rfc822");
      // Nothing lost: the stored message is the bytes sent.
      expect(Buffer.from(await stored.arrayBuffer()).equals(raw)).toBe(true);
      return record.body;
    };

    test("a multipart message with a broken boundary is accepted and readable", async () => {
      // A stray boundary nobody declared, a base64 part that is not base64, and no closing delimiter.
      const raw = Buffer.from(
        [
          "From: friend@dest.test",
          "To: hello@example.com",
          "Subject: Broken boundary",
          "Message-ID: <broken-mime@dest.test>",
          "MIME-Version: 1.0",
          'Content-Type: multipart/mixed; boundary="declared"',
          "",
          "--declared",
          "Content-Type: text/plain",
          "",
          "Readable part.",
          "--other",
          "Content-Type: text/plain",
          "",
          "Inside a boundary that was never declared.",
          "--declared",
          "Content-Type: application/octet-stream",
          "Content-Transfer-Encoding: base64",
          "",
          "!!! not base64 at all !!!",
          "",
        ].join("\r\n"),
      );
      const record = await acceptedAndReadable(raw, "<broken-mime@dest.test>");
      expect(record.subject).toBe("Broken boundary");
      expect(record.text).toContain("Readable part.");
      expect(record.text).toContain("Inside a boundary that was never declared.");
    });

    test("raw 8-bit bytes in headers are accepted and readable", async () => {
      const raw = Buffer.concat([
        Buffer.from("From: Fran\xe7ois <friend@dest.test>\r\n", "latin1"),
        Buffer.from(
          "To: hello@example.com\r\nSubject: Grüße aus Köln\r\nMessage-ID: <eight-bit@dest.test>\r\nX-Note: ünïcödé\r\n\r\nBody.\r\n",
          "utf8",
        ),
      ]);
      const record = await acceptedAndReadable(raw, "<eight-bit@dest.test>");
      expect(record.subject).toBe("Grüße aus Köln");
      expect(record.from).toContain("friend@dest.test");
      expect(record.text).toContain("Body.");
      // UTF-8 in headers (RFC 6532) reads the same in the header map as in the parsed fields.
      expect(record.headers.Subject).toBe("Grüße aus Köln");
      expect(record.headers["X-Note"]).toBe("ünïcödé");
    });

    test("bare LF line endings are accepted and readable", async () => {
      const raw = Buffer.from(
        "From: friend@dest.test\nTo: hello@example.com\nSubject: Bare line feeds\nMessage-ID: <bare-lf@dest.test>\n\nFirst line.\nSecond line.\r\n",
      );
      const record = await acceptedAndReadable(raw, "<bare-lf@dest.test>");
      expect(record.subject).toBe("Bare line feeds");
      expect(record.text).toContain("First line.");
      expect(record.text).toContain("Second line.");
    });

    test("NUL bytes in the body are accepted and readable", async () => {
      const raw = Buffer.from(
        "From: friend@dest.test\r\nTo: hello@example.com\r\nSubject: Nulls\r\nMessage-ID: <nul-bytes@dest.test>\r\n\r\nbefore\0after\r\n",
      );
      const record = await acceptedAndReadable(raw, "<nul-bytes@dest.test>");
      expect(record.subject).toBe("Nulls");
      // The store holds text without NUL: the parsed text marks it, the raw message (checked above) keeps it.
      expect(record.text).toContain("before\uFFFDafter");
    });

    test("afterwards the server is healthy and still accepts ordinary mail", async () => {
      expect((await fetch(`${server!.baseUrl}/healthz`)).status).toBe(200);
      expect(server!.proc.exitCode).toBeNull();
      const result = await swaks({
        from: "friend@dest.test",
        to: "hello@example.com",
        data: file(
          "From: friend@dest.test\r\nTo: hello@example.com\r\nSubject: Still here\r\nMessage-ID: <still-here@dest.test>\r\n\r\nHello again.\r\n",
        ),
      });
      expect(replies(result.output)).toContain("<- 250 2.0.0 Ok: received");
      expect(result.code).toBe(0);
      const { id } = await receivedByMessageId("<still-here@dest.test>");
      expect((await api("GET", `/v1/emails/receiving/${id}`)).body.subject).toBe("Still here");
    });
  });
});
