/**
 * Sending with a topic and unsubscribing from it (docs/contacts-preferences.md), end to end over real sockets: the
 * API and the SMTP relay send, a smarthost double receives each recipient's copy with its own List-Unsubscribe
 * (checked with mailauth against a DNS server on loopback: inside the DKIM signature), and the three paths out —
 * one-click POST and the preference page on the HTTP listener, a mail to the mailto address through the MX — each
 * change the recipient's choice of that topic only.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq, inArray } from "drizzle-orm";
import nodemailer from "nodemailer";
import { insertTopic } from "../src/contacts/audience-repo.ts";
import type { DomainView } from "../src/domains/model.ts";
import { tablesOf } from "../src/db/store.ts";
import { newId } from "../src/lib/ids.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { checkAuthentication } from "./helpers/mail-auth.ts";
import { smtpChat } from "./helpers/smtp-chat.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

let dns: DnsServer;
let smtp: SmtpDouble;
let t: TestApp;
let http: string;
let mxPort: number;
let submissionPort: number;
let ca: string;
const topics = { news: newId(), product: newId(), secret: newId(), digest: newId() };

async function addTopic(id: string, name: string, defaultSubscription: "opt_in" | "opt_out", visibility = "public") {
  const at = new Date().toISOString();
  await t.app.services.writer.write((tx) =>
    insertTopic(tx, {
      id,
      organizationId: t.organizationId,
      name,
      description: `About ${name}`,
      defaultSubscription,
      visibility: visibility as "public" | "private",
      createdAt: at,
      updatedAt: at,
    }),
  );
}

beforeAll(async () => {
  dns = await startDnsServer();
  smtp = await startSmtpDouble();
  t = await createTestApp({
    dns: { servers: dns.servers },
    server: { hostname: "mail.mailroom.test", public_ips: ["127.0.0.1"] },
    delivery: { default_provider: "smtp", poll_interval: "50ms" },
    smarthost: { host: "127.0.0.1", port: smtp.port, security: "none", connect_timeout: "2s", socket_timeout: "5s" },
  });
  const view = (await t.json("POST", "/v1/domains", { body: { name: "example.com" } })).body as DomainView;
  for (const record of view.records) {
    if (record.status === "not_started") continue;
    if (record.type === "TXT") dns.set(record.name, "TXT", [record.value]);
    else dns.set(record.name, "MX", [{ exchange: record.value, priority: record.priority! }]);
  }
  expect((await t.json("POST", `/v1/domains/${view.id}/verify`)).body.status).toBe("verified");
  await addTopic(topics.news, "Newsletter", "opt_in");
  await addTopic(topics.product, "Product updates", "opt_in");
  await addTopic(topics.secret, "Internal tests", "opt_in", "private");
  await addTopic(topics.digest, "Weekly digest", "opt_out");
  const listeners = await t.app.start();
  const port = (name: string) => listeners.find((listener) => listener.name === name)!.port;
  http = `http://127.0.0.1:${port("http")}`;
  mxPort = port("mx");
  submissionPort = port("submission");
  ca = readFileSync(join(t.dataDir, "tls", "smtp-cert.pem"), "utf8");
});

afterAll(async () => {
  await t.close();
  await smtp.close();
  await dns.close();
});

const send = (body: Record<string, unknown>) =>
  t.json("POST", "/v1/emails", {
    body: { from: "Acme <news@example.com>", subject: "Hello", html: "<p>Hi</p>", ...body },
  });

const record = async (id: string) => (await t.json("GET", `/v1/emails/${id}`)).body;
const statusOf = async (id: string, recipient: string) =>
  (await record(id)).recipients.find((r: { email: string }) => r.email.toLowerCase() === recipient.toLowerCase())
    ?.status;
const receives = async (topicId: string, email: string) =>
  (await t.app.services.contacts.subscribedTo(t.organizationId, topicId, [email])).has(email);

/** The copy the smarthost received for `recipient` (after `count` messages in all). */
async function copyFor(recipient: string) {
  for (let i = 0; i < 100; i++) {
    const found = smtp.received.find((message) => message.recipients.includes(recipient));
    if (found) return found;
    await Bun.sleep(50);
  }
  throw new Error(`no message reached ${recipient}`);
}

/** The https-or-http link and the mailto address of a copy's List-Unsubscribe. */
function unsubscribeLinks(raw: Buffer) {
  const header = raw.toString("latin1").slice(0, raw.indexOf("\r\n\r\n"));
  const field = /^List-Unsubscribe:(.*(?:\r\n[ \t].*)*)/im.exec(header)![1]!.replace(/\r\n[ \t]/g, " ");
  const [, url, mailto] = /<(https?:\/\/[^>]+)>,\s*<mailto:([^>]+)>/.exec(field)!;
  expect(header).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/im);
  return { url: url!, mailto: mailto!, path: new URL(url!).pathname };
}

async function eventsOf(types: string[], recipient: string) {
  const { events } = tablesOf(t.app.services.store.db);
  return t.app.services.store.db
    .select()
    .from(events)
    .where(and(inArray(events.type, types), eq(events.organizationId, t.organizationId)))
    .then((rows) => rows.filter((row) => row.recipient === recipient || JSON.stringify(row.data).includes(recipient)));
}

describe("sending with a topic", () => {
  test("who left the topic is recorded suppressed (even as the only recipient) and still gets mail without a topic", async () => {
    await t.app.services.contacts.setTopicSubscription(t.organizationId, "left@dest.test", topics.news, "opt_out");
    const both = await send({ to: ["left@dest.test", "stays@dest.test"], topic_id: topics.news });
    expect(both.status).toBe(200);
    expect(await statusOf(both.body.id, "left@dest.test")).toBe("suppressed");
    expect(await statusOf(both.body.id, "stays@dest.test")).not.toBe("suppressed");
    const view = await record(both.body.id);
    expect(view.topic_id).toBe(topics.news);
    expect(view.events).toContainEqual(
      expect.objectContaining({
        type: "email.suppressed",
        recipient: "left@dest.test",
        data: { reason: "topic_unsubscribed", topic_id: topics.news },
      }),
    );
    // The only recipient: still accepted, 200 — a preference is not the caller's fault.
    const only = await send({ to: "Left@Dest.test", topic_id: topics.news });
    expect(only.status).toBe(200);
    expect(await statusOf(only.body.id, "Left@Dest.test")).toBe("suppressed");
    // Another topic, and mail without one, are not affected (a password reset still arrives).
    const other = await send({ to: "left@dest.test", topic_id: topics.product });
    expect(await statusOf(other.body.id, "left@dest.test")).not.toBe("suppressed");
    const plain = await send({ to: "left@dest.test" });
    expect(await statusOf(plain.body.id, "left@dest.test")).not.toBe("suppressed");
    // An address that is no contact receives opt_in topics, not opt_out ones.
    const digest = await send({ to: ["stranger@dest.test"], topic_id: topics.digest });
    expect(await statusOf(digest.body.id, "stranger@dest.test")).toBe("suppressed");
  });

  test("the suppression list applies to topic mail too; an unknown topic is a validation error naming topic_id", async () => {
    await t.json("POST", "/v1/suppressions", { body: { email: "bounced@dest.test" } });
    const refused = await send({ to: "bounced@dest.test", topic_id: topics.news });
    expect(refused.status).toBe(422);
    for (const topic_id of [newId(), "not-a-topic"]) {
      const unknown = await send({ to: "a@dest.test", topic_id });
      expect(unknown.status).toBe(400);
      expect(unknown.body.name).toBe("validation_error");
      expect(unknown.body.details[0].path).toBe("topic_id");
    }
    const both = await send({ to: "a@dest.test", topic_id: topics.news, unsubscribe: true });
    expect(both.body.details[0].path).toBe("unsubscribe");
    const batch = await t.json("POST", "/v1/emails/batch", {
      body: [
        { from: "news@example.com", to: "left@dest.test", subject: "b", text: "b", topic_id: topics.news },
        { from: "news@example.com", to: "left@dest.test", subject: "b", text: "b" },
      ],
    });
    expect(batch.status).toBe(200);
    expect(await statusOf(batch.body.data[0].id, "left@dest.test")).toBe("suppressed");
    expect(await statusOf(batch.body.data[1].id, "left@dest.test")).not.toBe("suppressed");
  });
});

describe("unsubscribing", () => {
  test("each copy carries its own List-Unsubscribe inside the DKIM signature; one-click leaves that topic only", async () => {
    const sent = await send({ to: ["one@dest.test", "two@dest.test"], topic_id: topics.product });
    expect(sent.status).toBe(200);
    const one = await copyFor("one@dest.test");
    const two = await copyFor("two@dest.test");
    const links = unsubscribeLinks(one.raw);
    // Per recipient: the other copy names another token, and no token names the address in clear.
    expect(unsubscribeLinks(two.raw).path).not.toBe(links.path);
    expect(links.url).not.toContain("one");
    expect(links.mailto).toMatch(/^unsubscribe\+[a-z2-7]{47}@send\.example\.com$/);
    const signature = /^DKIM-Signature:[\s\S]*?(?=\r\n\S)/m.exec(one.raw.toString())![0].replace(/\r\n\s+/g, " ");
    const signed = /h=([^;]+)/.exec(signature)![1]!.replace(/\s/g, "").toLowerCase().split(":");
    expect(signed).toContain("list-unsubscribe");
    expect(signed).toContain("list-unsubscribe-post");
    const verdict = await checkAuthentication(one.raw, { mailFrom: one.mailFrom, dnsServers: dns.servers });
    expect(verdict.dkim).toBe("pass");
    // The stored message has no per-recipient lines; the relay's X-Mailroom-Topic never leaves either.
    expect(await (await t.request("GET", `/v1/emails/${sent.body.id}/raw`)).text()).not.toContain("List-Unsubscribe");

    expect(await receives(topics.product, "one@dest.test")).toBe(true);
    // RFC 8058 §3.2: the mailbox provider POSTs this body, with no cookie and no confirmation.
    const click = await fetch(`${http}${links.path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(click.status).toBe(200);
    expect(await click.text()).toContain("You are unsubscribed from Product updates.");
    expect(await receives(topics.product, "one@dest.test")).toBe(false);
    expect(await receives(topics.news, "one@dest.test")).toBe(true);
    expect(await receives(topics.product, "two@dest.test")).toBe(true);
    // Once: a second POST changes nothing and announces nothing more.
    await fetch(`${http}${links.path}`, { method: "POST", body: "List-Unsubscribe=One-Click" });
    const unsubscribed = await eventsOf(["email.unsubscribed"], "one@dest.test");
    expect(unsubscribed).toHaveLength(1);
    expect(unsubscribed[0]!.data).toEqual({ topic_id: topics.product });
    expect(unsubscribed[0]!.emailId).toBe(sent.body.id);
    expect(await eventsOf(["contact.topics.updated"], "one@dest.test")).toHaveLength(1);
    // A forged or altered token changes nothing.
    const forged = links.path.replace(/.$/, (c) => (c === "a" ? "b" : "a"));
    expect((await fetch(`${http}${forged}`, { method: "POST", body: "List-Unsubscribe=One-Click" })).status).toBe(404);
  });

  test("a mail to the mailto address, through the MX, leaves the topic", async () => {
    const sent = await send({ to: "mailer@dest.test", topic_id: topics.news });
    expect(sent.status).toBe(200);
    const { mailto } = unsubscribeLinks((await copyFor("mailer@dest.test")).raw);
    const chat = await smtpChat(mxPort);
    try {
      await chat.send("EHLO client.dest.test");
      expect((await chat.send("MAIL FROM:<mailer@dest.test>")).code).toBe(250);
      expect((await chat.send(`RCPT TO:<${mailto}>`)).code).toBe(250);
      expect((await chat.send("DATA")).code).toBe(354);
      const reply = await chat.data(
        `From: mailer@dest.test\r\nTo: ${mailto}\r\nSubject: unsubscribe\r\n\r\nunsubscribe\r\n.\r\n`,
      );
      expect(reply.code).toBe(250);
      // A token whose MAC fails is refused at RCPT, as any unknown return path.
      expect((await chat.send("MAIL FROM:<mailer@dest.test>")).code).toBe(250);
      const wrong = mailto.replace(/\+(.)/, (_, c) => `+${c === "a" ? "b" : "a"}`);
      expect((await chat.send(`RCPT TO:<${wrong}>`)).code).toBe(550);
    } finally {
      chat.close();
    }
    expect(await receives(topics.news, "mailer@dest.test")).toBe(false);
    expect(await receives(topics.product, "mailer@dest.test")).toBe(true);
    expect(await eventsOf(["email.unsubscribed"], "mailer@dest.test")).toHaveLength(1);
  });

  test("the preference page shows the choices without changing them, and saves what the form sends", async () => {
    const sent = await send({ to: "reader@dest.test", topic_id: topics.news });
    expect(sent.status).toBe(200);
    const { path } = unsubscribeLinks((await copyFor("reader@dest.test")).raw);
    const page = await fetch(`${http}${path}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("form-action 'self'");
    const html = await page.text();
    expect(html).not.toContain("<script");
    expect(html).toContain("Newsletter");
    expect(html).toContain("Product updates");
    expect(html).toContain("Weekly digest");
    expect(html).not.toContain("Internal tests");
    expect(html).toContain("Unsubscribe from everything");
    expect(html).toContain("r***@dest.test");
    expect(await receives(topics.news, "reader@dest.test")).toBe(true);
    expect(await eventsOf(["contact.created", "contact.topics.updated"], "reader@dest.test")).toHaveLength(0);

    // Keeps the newsletter, leaves product updates, joins the digest.
    const form = new URLSearchParams([
      ["form", "preferences"],
      ["topic", topics.news],
      ["topic", topics.digest],
      ["topic", topics.secret],
    ]);
    const saved = await fetch(`${http}${path}`, { method: "POST", body: form });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Your preferences are saved.");
    expect(await receives(topics.news, "reader@dest.test")).toBe(true);
    expect(await receives(topics.product, "reader@dest.test")).toBe(false);
    expect(await receives(topics.digest, "reader@dest.test")).toBe(true);

    const everything = new URLSearchParams([
      ["form", "preferences"],
      ["everything", "1"],
    ]);
    await fetch(`${http}${path}`, { method: "POST", body: everything });
    expect(await receives(topics.news, "reader@dest.test")).toBe(false);
    expect(await receives(topics.digest, "reader@dest.test")).toBe(false);
    const plain = await send({ to: "reader@dest.test" });
    expect(await statusOf(plain.body.id, "reader@dest.test")).not.toBe("suppressed");
  });

  test("over the SMTP relay, X-Mailroom-Topic applies the topic and never leaves", async () => {
    await t.app.services.contacts.setTopicSubscription(
      t.organizationId,
      "relay-left@dest.test",
      topics.news,
      "opt_out",
    );
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: submissionPort,
      secure: false,
      requireTLS: true,
      auth: { user: "apikey", pass: t.liveKey },
      tls: { ca },
    });
    const info = await transport.sendMail({
      from: "news@example.com",
      to: ["relay-left@dest.test", "relay-stays@dest.test"],
      subject: "Relayed",
      text: "Relayed news",
      headers: { "X-Mailroom-Topic": topics.news },
    });
    transport.close();
    const id = /queued as ([0-9a-f-]{36})/.exec(info.response)![1]!;
    expect(await statusOf(id, "relay-left@dest.test")).toBe("suppressed");
    const copy = await copyFor("relay-stays@dest.test");
    expect(copy.raw.toString("latin1")).not.toMatch(/^X-Mailroom-Topic:/im);
    expect(unsubscribeLinks(copy.raw).mailto).toMatch(/^unsubscribe\+/);
  });
});
