/**
 * The inbound MX and received mail, in process on both store engines: the MX over real SMTP on loopback (RCPT
 * accepted only for receiving domains and verified return paths, 552 over the size limit, hostile bytes stored
 * as they came), SPF and DKIM judged through a DNS server on loopback, threading to the sent message, the
 * receiving API in Resend's shapes with scopes, organisations and signed download links, reports that prove
 * nothing stored as mail, and retention.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { dkimSign } from "mailauth";
import { operatorActor } from "../src/access.ts";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { inboundFixture } from "./helpers/inbound-fixtures.ts";
import { smtpChat, type SmtpChat } from "./helpers/smtp-chat.ts";

const DAY = 86_400_000;
let t: TestApp;
let dns: DnsServer;
let clock: ManualClock;
let mxPort: number;
let dkimKey: string;

beforeAll(async () => {
  dns = await startDnsServer();
  const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
  dkimKey = pair.privateKey.export({ type: "pkcs8", format: "pem" }) as string;
  const publicKey = (pair.publicKey.export({ type: "spki", format: "der" }) as Buffer).toString("base64");
  dns.set("sel._domainkey.dest.test", "TXT", [`v=DKIM1; k=rsa; p=${publicKey}`]);
  dns.set("dest.test", "TXT", ["v=spf1 ip4:127.0.0.1 -all"]);
  dns.set("_dmarc.dest.test", "TXT", ["v=DMARC1; p=reject"]);
  clock = new ManualClock(Date.now());
  t = await createTestApp(
    { dns: { servers: dns.servers }, inbound: { max_message_bytes: 256 * 1024, messages_per_ip_per_minute: 1000 } },
    { clock },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  await t.app.services.domains.add(t.operator, "quiet.example", { verifiedOverride: true });
  expect((await t.json("PATCH", "/v1/domains/example.com", { body: { receiving: true } })).body).toMatchObject({
    receiving_enabled: true,
    capabilities: { receiving: "enabled" },
  });
  const listeners = await t.app.start();
  mxPort = listeners.find((l) => l.name === "mx")!.port;
});

afterAll(async () => {
  await t.close();
  await dns.close();
});

/** One SMTP transaction on the MX; the replies to RCPT and to the data. */
async function deliver(message: string | Buffer, envelope: { from: string; to: string[] }) {
  const chat = await smtpChat(mxPort);
  try {
    expect((await chat.send("EHLO mail.dest.test")).code).toBe(250);
    expect((await chat.send(`MAIL FROM:<${envelope.from}>`)).code).toBe(250);
    const rcpt = [];
    for (const to of envelope.to) rcpt.push(await chat.send(`RCPT TO:<${to}>`));
    if (rcpt.some((reply) => reply.code !== 250)) return { rcpt, data: undefined };
    expect((await chat.send("DATA")).code).toBe(354);
    const body = Buffer.isBuffer(message) ? message : Buffer.from(message);
    // Bytes as given (bare LF included), dot-stuffed (RFC 5321 §4.5.2), then the end of data on a line of its own.
    const text = body.toString("latin1").replace(/(^|\n)\./g, "$1..");
    chat.write(Buffer.from(`${text}${text.endsWith("\r\n") ? "" : "\r\n"}.\r\n`, "latin1"));
    return { rcpt, data: await chat.next() };
  } finally {
    chat.close();
  }
}

const latest = async () => (await t.json("GET", "/v1/emails/receiving?limit=1")).body.data[0];

async function sendOne(subject = "Your receipt") {
  const res = await t.json("POST", "/v1/emails", {
    body: { from: "Acme <hello@example.com>", to: "someone@dest.test", subject, html: "<p>Thanks.</p>" },
  });
  expect(res.status).toBe(200);
  return (await t.json("GET", `/v1/emails/${res.body.id}`)).body as { id: string; message_id: string };
}

describe("RCPT", () => {
  test("only receiving domains and verified return paths; never a relay", async () => {
    const chat: SmtpChat = await smtpChat(mxPort);
    await chat.send("EHLO mail.dest.test");
    expect(await chat.send("MAIL FROM:<someone@dest.test>")).toMatchObject({ code: 250 });
    expect((await chat.send("RCPT TO:<anyone@example.com>")).code).toBe(250);
    const unknown = await chat.send("RCPT TO:<someone@elsewhere.test>");
    expect([unknown.code, unknown.text.slice(0, 5)]).toEqual([550, "5.7.1"]);
    const off = await chat.send("RCPT TO:<someone@quiet.example>");
    expect([off.code, off.text.slice(0, 5)]).toEqual([550, "5.7.1"]);
    expect(off.text).toContain("Receiving is not enabled");
    const forged = await chat.send(
      "RCPT TO:<bounces+0190f3a2b4c57d8e9f0a1b2c3d4e5f60-abcdefghijklmnop@send.example.com>",
    );
    expect([forged.code, forged.text.slice(0, 5)]).toEqual([550, "5.1.1"]);
    expect((await chat.send("AUTH PLAIN AGFwaWtleQBzZWNyZXQ=")).code).toBeGreaterThanOrEqual(500);
    chat.close();
    expect(await t.app.services.metrics.render()).toMatch(
      /mailroom_inbound_smtp_total\{outcome="recipient_refused"\} 3/,
    );
  });

  test("an internationalised receiving domain takes mail in either spelling", async () => {
    await t.app.services.domains.add(t.operator, "bücher.example", { verifiedOverride: true, receivingEnabled: true });
    const chat = await smtpChat(mxPort);
    await chat.send("EHLO mail.dest.test");
    await chat.send("MAIL FROM:<someone@dest.test>");
    expect((await chat.send("RCPT TO:<info@xn--bcher-kva.example>")).code).toBe(250);
    expect((await chat.send("RCPT TO:<info@b\u00fccher.example>")).code).toBe(250);
    chat.close();
  });

  test("STARTTLS is offered and works", async () => {
    const chat = await smtpChat(mxPort, { ca: readFileSync(join(t.dataDir, "tls", "smtp-cert.pem"), "utf8") });
    expect((await chat.send("EHLO mail.dest.test")).lines).toContain("STARTTLS");
    expect((await chat.starttls()).code).toBe(220);
    expect((await chat.send("EHLO mail.dest.test")).code).toBe(250);
    expect((await chat.send("MAIL FROM:<someone@dest.test>")).code).toBe(250);
    chat.close();
  });

  test("turning receiving off stops acceptance at RCPT", async () => {
    await t.json("PATCH", "/v1/domains/example.com", { body: { capabilities: { receiving: "disabled" } } });
    const { rcpt } = await deliver("Subject: x\r\n\r\nx\r\n", { from: "someone@dest.test", to: ["hello@example.com"] });
    expect(rcpt[0]).toMatchObject({ code: 550 });
    await t.json("PATCH", "/v1/domains/example.com", { body: { capabilities: { receiving: "enabled" } } });
    expect(
      (await t.json("PATCH", "/v1/domains/example.com", { body: { capabilities: { receiving: "maybe" } } })).status,
    ).toBe(400);
  });
});

describe("received mail", () => {
  test("a DKIM-signed reply is stored with its results, linked to the message it answers, and in that message's history", async () => {
    const sent = await sendOne();
    const message = [
      "From: Someone <someone@dest.test>",
      "To: Acme <hello@example.com>",
      "Subject: Re: Your receipt",
      "Message-ID: <reply-1@dest.test>",
      `In-Reply-To: ${sent.message_id}`,
      `References: ${sent.message_id}`,
      "Date: Mon, 23 Nov 2026 10:00:00 +0000",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="b1"',
      "",
      "--b1",
      "Content-Type: text/html; charset=utf-8",
      "",
      "<p>Thanks, received.</p>",
      "--b1",
      'Content-Type: text/csv; name="list.csv"',
      'Content-Disposition: attachment; filename="list.csv"',
      "",
      "a,b",
      "--b1--",
      "",
    ].join("\r\n");
    const signed = await dkimSign(message, {
      canonicalization: "relaxed/relaxed",
      signatureData: [{ signingDomain: "dest.test", selector: "sel", privateKey: dkimKey }],
    } as Parameters<typeof dkimSign>[1]);
    const { data } = await deliver(signed.signatures + message, {
      from: "someone@dest.test",
      to: ["hello@example.com"],
    });
    expect(data).toMatchObject({ code: 250 });

    const listed = await latest();
    expect(listed).toMatchObject({
      from: "Someone <someone@dest.test>",
      to: ["hello@example.com"],
      subject: "Re: Your receipt",
      received_for: ["hello@example.com"],
      in_reply_to_email_id: sent.id,
    });
    const got = (await t.json("GET", `/v1/emails/receiving/${listed.id}`)).body;
    expect(got).toMatchObject({ object: "email", html: "<p>Thanks, received.</p>", message_id: "<reply-1@dest.test>" });
    expect(got.authentication.spf).toEqual({ result: "pass", domain: "dest.test" });
    expect(got.authentication.dkim).toEqual([{ result: "pass", domain: "dest.test", selector: "sel", aligned: true }]);
    expect(got.authentication.dmarc).toMatchObject({ result: "pass" });
    // The list carries the same verdicts, so a reader sees them without opening each message.
    expect(listed.authentication).toEqual(got.authentication);
    expect(got.headers["In-Reply-To"]).toBe(sent.message_id);
    const history = (await t.json("GET", `/v1/emails/${sent.id}`)).body;
    expect(history.status).toBe("delivered");
    expect(history.events.find((e: { type: string }) => e.type === "email.received")?.data).toMatchObject({
      email_id: listed.id,
      subject: "Re: Your receipt",
    });

    const raw = await t.request("GET", `/v1/emails/receiving/${listed.id}/raw`);
    expect(raw.headers.get("content-type")).toBe("message/rfc822");
    expect(await raw.text()).toBe(signed.signatures + message);

    const attachments = (await t.json("GET", `/v1/emails/receiving/${listed.id}/attachments`)).body;
    expect(attachments.data).toHaveLength(1);
    expect(attachments.data[0]).toMatchObject({
      filename: "list.csv",
      content_type: "text/csv",
      content_disposition: "attachment",
      size: 3,
    });
    const url = new URL(attachments.data[0].download_url);
    const download = await t.request("GET", `${url.pathname}${url.search}`, { key: null });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toBe(
      `attachment; filename="list.csv"; filename*=UTF-8''list.csv`,
    );
    expect(await download.text()).toBe("a,b");
    // A link is for its one path and its time: altered or expired, it grants nothing.
    const tampered = `${url.pathname}?expires=${Number(url.searchParams.get("expires")) + 1}&signature=${url.searchParams.get("signature")}`;
    expect((await t.request("GET", tampered, { key: null })).status).toBe(401);
    expect((await t.request("GET", url.pathname, { key: null })).status).toBe(401);
    clock.advance(2 * 3_600_000);
    expect((await t.request("GET", `${url.pathname}${url.search}`, { key: null })).status).toBe(401);
  });

  test("scope and organisation: inbound:read is needed, and another organisation sees nothing", async () => {
    const id = (await latest()).id;
    const sender = await t.app.services.keys.create(t.operator, { name: "sender", scopes: ["emails:send"] });
    expect((await t.json("GET", "/v1/emails/receiving", { key: sender.key })).status).toBe(403);
    const reader = await t.app.services.keys.create(t.operator, { name: "reader", scopes: ["inbound:read"] });
    expect((await t.json("GET", `/v1/emails/receiving/${id}`, { key: reader.key })).status).toBe(200);
    const otherId = crypto.randomUUID();
    await t.app.services.store.query(
      sql`INSERT INTO organizations (id, name, created_at) VALUES (${otherId}, 'other', ${new Date().toISOString()})`,
    );
    const other = await t.app.services.keys.create(operatorActor(otherId), { name: "o", scopes: ["full_access"] });
    expect((await t.json("GET", `/v1/emails/receiving/${id}`, { key: other.key })).status).toBe(404);
    expect((await t.json("GET", `/v1/emails/receiving/${id}/raw`, { key: other.key })).status).toBe(404);
    expect((await t.json("GET", "/v1/emails/receiving", { key: other.key })).body.data).toEqual([]);
  });

  test("hostile bytes are stored as they came and read back: NUL, bare LF, 8-bit headers, a broken multipart", async () => {
    const cases: Array<[string, Buffer]> = [
      ["nul", Buffer.from("From: a@dest.test\r\nSubject: nul\r\n\r\nbefore\0after\r\n", "latin1")],
      ["bare-lf", Buffer.from("From: a@dest.test\nSubject: bare-lf\n\nline one\nline two\n", "latin1")],
      ["8bit", Buffer.from("From: J\xf6rg <a@dest.test>\r\nSubject: 8bit \xff\xfe\r\n\r\nbody\r\n", "latin1")],
      [
        "empty-type",
        Buffer.from(
          'From: a@dest.test\r\nSubject: empty-type\r\nContent-Type: multipart/mixed; boundary="x"\r\n\r\n--x\r\nContent-Type:\r\n\r\npart\r\n--x--\r\n',
          "latin1",
        ),
      ],
      // Beyond the parser's limits: kept whole, read as a message without headers.
      [
        "many-parts",
        Buffer.from(
          `From: a@dest.test\r\nSubject: many-parts\r\nContent-Type: multipart/mixed; boundary="x"\r\n\r\n${"--x\r\nContent-Type: text/plain\r\n\r\np\r\n".repeat(2000)}--x--\r\n`,
          "latin1",
        ),
      ],
      [
        "multipart",
        Buffer.from(
          'From: a@dest.test\r\nSubject: multipart\r\nContent-Type: multipart/mixed; boundary="x"\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\nunterminated\r\n',
          "latin1",
        ),
      ],
    ];
    for (const [name, bytes] of cases) {
      const { data } = await deliver(bytes, { from: "a@dest.test", to: ["hello@example.com"] });
      expect(data, name).toMatchObject({ code: 250 });
      const stored = await latest();
      const got = await t.json("GET", `/v1/emails/receiving/${stored.id}`);
      expect(got.status, name).toBe(200);
      const raw = Buffer.from(await (await t.request("GET", `/v1/emails/receiving/${stored.id}/raw`)).arrayBuffer());
      // What arrives after dot-unstuffing is the message, byte for byte (bare LF included).
      // Byte for byte; a message not ending in CRLF gets the one the end of data needs (RFC 5321 §4.1.1.4).
      expect(
        raw.equals(bytes.toString("latin1").endsWith("\r\n") ? bytes : Buffer.concat([bytes, Buffer.from("\r\n")])),
        name,
      ).toBe(true);
    }
    expect((await t.json("GET", `/v1/emails/receiving/${(await latest()).id}`)).body.text).toContain("unterminated");
  });

  test("inline images come back as data URIs by default and as cid: references on request; attachments byte for byte", async () => {
    const pixel = Buffer.from("R0lGODlhAQABAAAAACw=", "base64");
    const message = [
      "From: a@dest.test",
      "Subject: With a logo",
      "MIME-Version: 1.0",
      'Content-Type: multipart/related; boundary="r"',
      "",
      "--r",
      "Content-Type: text/html",
      "",
      '<p><img src="cid:logo@dest.test"></p>',
      "--r",
      "Content-Type: image/gif",
      "Content-ID: <logo@dest.test>",
      "Content-Transfer-Encoding: base64",
      "",
      pixel.toString("base64"),
      "--r--",
      "",
    ].join("\r\n");
    expect((await deliver(message, { from: "a@dest.test", to: ["hello@example.com"] })).data).toMatchObject({
      code: 250,
    });
    const { id } = await latest();
    expect((await t.json("GET", `/v1/emails/receiving/${id}`)).body.html).toContain(
      `src="data:image/gif;base64,${pixel.toString("base64")}"`,
    );
    expect((await t.json("GET", `/v1/emails/receiving/${id}?html_format=cid`)).body.html).toContain(
      'src="cid:logo@dest.test"',
    );
    const attachment = (await t.json("GET", `/v1/emails/receiving/${id}/attachments`)).body.data[0];
    const url = new URL(attachment.download_url);
    const download = await t.request("GET", `${url.pathname}${url.search}`, { key: null });
    expect(Buffer.from(await download.arrayBuffer()).equals(pixel)).toBe(true);
  });

  test("over the size limit: 552 5.3.4 after the data, nothing stored", async () => {
    const before = (await latest()).id;
    const { data } = await deliver(`Subject: big\r\n\r\n${"x".repeat(300 * 1024)}\r\n`, {
      from: "a@dest.test",
      to: ["hello@example.com"],
    });
    expect([data?.code, data?.text.slice(0, 5)]).toEqual([552, "5.3.4"]);
    expect((await latest()).id).toBe(before);
  });

  test("an out-of-office to a return path is kept as an automatic reply in the sent message's history", async () => {
    const sent = await sendOne("Second");
    const delivery = await t.app.services.store.query<{ id: string }>(
      sql`SELECT id FROM deliveries WHERE email_id = ${sent.id}`,
    );
    const returnPath = (await import("../src/domains/signing.ts"))
      .createReturnPathCodec(t.app.services.secrets.deriveKey("return-path"))
      .address(delivery[0]!.id, "send.example.com");
    const ooo = inboundFixture("out-of-office", { messageId: sent.message_id });
    expect((await deliver(ooo, { from: "", to: [returnPath] })).data).toMatchObject({ code: 250 });
    expect(await latest()).toMatchObject({
      auto_reply: "auto_reply",
      in_reply_to_email_id: sent.id,
      received_for: [returnPath],
    });
    const record = (await t.json("GET", `/v1/emails/${sent.id}`)).body;
    expect(record.status).not.toBe("bounced");
    expect(
      record.events.some(
        (e: { type: string; data: { auto_reply?: string } }) =>
          e.type === "email.received" && e.data.auto_reply === "auto_reply",
      ),
    ).toBe(true);
  });

  test("finding 4: a forged DSN naming a cc recipient of a real message changes nobody's status or the suppression list, and is stored as mail", async () => {
    const res = await t.json("POST", "/v1/emails", {
      body: {
        from: "Acme <hello@example.com>",
        to: "someone@dest.test",
        cc: "colleague@dest.test",
        subject: "Third",
        html: "<p>Thanks.</p>",
      },
    });
    expect(res.status).toBe(200);
    const sent = (await t.json("GET", `/v1/emails/${res.body.id}`)).body as { id: string; message_id: string };
    const statuses = async () =>
      Object.fromEntries(
        (
          (await t.json("GET", `/v1/emails/${sent.id}`)).body.recipients as Array<{ email: string; status: string }>
        ).map((r) => [r.email, r.status]),
      );
    const suppressions = async () => (await t.json("GET", "/v1/suppressions?limit=100")).body.data.length;
    const suppressedBefore = await suppressions();
    const forged = inboundFixture("postfix-5.1.1", { messageId: sent.message_id }).replaceAll(
      "someone@dest.test",
      "colleague@dest.test",
    );
    expect(forged).toContain("colleague@dest.test");

    // Unauthenticated, to a receiving address, quoting the real Message-ID: ordinary mail.
    expect((await deliver(forged, { from: "", to: ["hello@example.com"] })).data).toMatchObject({ code: 250 });
    expect(await latest()).toMatchObject({ received_for: ["hello@example.com"] });
    expect((await latest()).subject).toContain("Undelivered");
    // To the verified return path of the other recipient: that token proves nothing about the cc.
    const delivery = await t.app.services.store.query<{ id: string }>(
      sql`SELECT id FROM deliveries WHERE email_id = ${sent.id} AND recipient = 'someone@dest.test'`,
    );
    const returnPath = (await import("../src/domains/signing.ts"))
      .createReturnPathCodec(t.app.services.secrets.deriveKey("return-path"))
      .address(delivery[0]!.id, "send.example.com");
    expect((await deliver(forged, { from: "", to: [returnPath] })).data).toMatchObject({ code: 250 });
    expect(await latest()).toMatchObject({ received_for: [returnPath], in_reply_to_email_id: sent.id });

    // The capture provider may deliver meanwhile; a report applied would have made either one bounced.
    expect(Object.values(await statuses()).filter((status) => status === "bounced")).toEqual([]);
    expect(await suppressions()).toBe(suppressedBefore);
    expect((await t.json("GET", `/v1/suppressions/${encodeURIComponent("colleague@dest.test")}`)).status).toBe(404);
    const events = (await t.json("GET", `/v1/emails/${sent.id}`)).body.events.map((e: { type: string }) => e.type);
    expect(events).not.toContain("email.bounced");
    expect(events).toContain("email.received");
  });

  test("retention deletes received mail older than the configured period", async () => {
    const before = (await t.json("GET", "/v1/emails/receiving?limit=100")).body.data.length;
    expect(before).toBeGreaterThan(0);
    clock.advance(31 * DAY);
    expect(await t.app.services.mailbox.prune()).toBe(before);
    expect((await t.json("GET", "/v1/emails/receiving")).body.data).toEqual([]);
  });
});

test("pagination follows Resend's cursors", async () => {
  for (let i = 0; i < 3; i++)
    await deliver(`From: a@dest.test\r\nSubject: page ${i}\r\n\r\nx\r\n`, {
      from: "a@dest.test",
      to: ["hello@example.com"],
    });
  const first = (await t.json("GET", "/v1/emails/receiving?limit=2")).body;
  expect(first.data.map((e: { subject: string }) => e.subject)).toEqual(["page 2", "page 1"]);
  expect(first.has_more).toBe(true);
  const second = (await t.json("GET", `/v1/emails/receiving?limit=2&after=${first.data[1].id}`)).body;
  expect(second.data.map((e: { subject: string }) => e.subject)).toEqual(["page 0"]);
  expect(second.has_more).toBe(false);
  const back = (await t.json("GET", `/v1/emails/receiving?limit=2&before=${second.data[0].id}`)).body;
  expect(back.data.map((e: { subject: string }) => e.subject)).toEqual(["page 2", "page 1"]);
});
