/**
 * Forwarding by an inbound route, end to end over real sockets on both store engines (docs/inbound.md#forwarding):
 * a DKIM-signed message from sender.test arrives at the MX over SMTP, a forward route sends its copy through the
 * smarthost to a real SMTP server on loopback, and there mailauth — as the next hop, its DNS answered by the test's
 * own server — finds the ARC set valid (cv=none on the first set, cv=pass after an upstream one), sealed by the
 * receiving domain with the inbound verdicts in its ARC-Authentication-Results, and SPF passing for the SRS sender.
 * A bounce to that SRS address through the MX goes back to the original sender with a null sender; a forged SRS
 * address and a non-bounce to a real one are refused; a copy that comes round again, or with 31 Received fields,
 * is refused as a loop and stored nowhere.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { authenticate, dkimSign } from "mailauth";
import type { DomainView } from "../src/domains/model.ts";
import { createResolver, resolveFunction } from "../src/lib/dns.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { smtpChat } from "./helpers/smtp-chat.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

let t: TestApp;
let dns: DnsServer;
let sink: SmtpDouble;
let mxPort: number;
let senderKey: string;
let upstreamKey: string;

const keyPair = () => {
  const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privateKey: pair.privateKey.export({ type: "pkcs8", format: "pem" }) as string,
    record: `v=DKIM1; k=rsa; p=${(pair.publicKey.export({ type: "spki", format: "der" }) as Buffer).toString("base64")}`,
  };
};

beforeAll(async () => {
  dns = await startDnsServer();
  sink = await startSmtpDouble();
  // The original sender: SPF for the loopback client, a DKIM key, DMARC at reject.
  const sender = keyPair();
  senderKey = sender.privateKey;
  dns.set("sel._domainkey.sender.test", "TXT", [sender.record]);
  dns.set("sender.test", "TXT", ["v=spf1 ip4:127.0.0.1 -all"]);
  dns.set("_dmarc.sender.test", "TXT", ["v=DMARC1; p=reject"]);
  // A forwarder before us, sealing its own ARC set.
  const upstream = keyPair();
  upstreamKey = upstream.privateKey;
  dns.set("arc._domainkey.upstream.test", "TXT", [upstream.record]);
  t = await createTestApp({
    dns: { servers: dns.servers },
    server: { hostname: "mail.mailroom.test", public_ips: ["127.0.0.1"] },
    delivery: { default_provider: "smtp" },
    smarthost: { host: "127.0.0.1", port: sink.port, security: "none", connect_timeout: "2s", socket_timeout: "5s" },
    inbound: { messages_per_ip_per_minute: 1000 },
  });
  // example.com verified the way a customer does it: its records published in DNS (DKIM, SPF of the return path).
  const view = (await t.json("POST", "/v1/domains", { body: { name: "example.com" } })).body as DomainView;
  for (const record of view.records) {
    if (record.type === "TXT") dns.set(record.name, "TXT", [record.value]);
    else if (record.type === "MX") dns.set(record.name, "MX", [{ exchange: record.value, priority: record.priority! }]);
  }
  expect((await t.json("POST", `/v1/domains/${view.id}/verify`)).body.status).toBe("verified");
  expect((await t.json("PATCH", "/v1/domains/example.com", { body: { receiving: true } })).status).toBe(200);
  const route = await t.json("POST", "/v1/inbound/routes", {
    body: { match: { recipient: "support@example.com" }, action: "forward", forward_to: ["desk@helpdesk.test"] },
  });
  expect(route.status).toBe(200);
  const listeners = await t.app.start();
  mxPort = listeners.find((l) => l.name === "mx")!.port;
});

afterAll(async () => {
  await t.close();
  await sink.close();
  await dns.close();
});

/** One SMTP transaction on the MX: the reply to RCPT when refused, else to the data. */
async function deliver(raw: Buffer | string, envelope: { from: string; to: string }) {
  const chat = await smtpChat(mxPort);
  try {
    await chat.send("EHLO mail.sender.test");
    await chat.send(`MAIL FROM:<${envelope.from}>`);
    const rcpt = await chat.send(`RCPT TO:<${envelope.to}>`);
    if (rcpt.code !== 250) return rcpt;
    expect((await chat.send("DATA")).code).toBe(354);
    const text = (Buffer.isBuffer(raw) ? raw : Buffer.from(raw)).toString("latin1").replace(/(^|\n)\./g, "$1..");
    chat.write(Buffer.from(`${text}${text.endsWith("\r\n") ? "" : "\r\n"}.\r\n`, "latin1"));
    return await chat.next();
  } finally {
    chat.close();
  }
}

/** A message from author@sender.test, signed with sender.test's key. */
async function signedMessage(subject: string) {
  const message = [
    "From: Author <author@sender.test>",
    "To: support@example.com",
    `Subject: ${subject}`,
    `Message-ID: <${crypto.randomUUID()}@sender.test>`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "My order has not arrived.",
    "",
  ].join("\r\n");
  const signed = await dkimSign(message, {
    canonicalization: "relaxed/relaxed",
    signatureData: [{ signingDomain: "sender.test", selector: "sel", privateKey: senderKey }],
  } as Parameters<typeof dkimSign>[1]);
  return signed.signatures + message;
}

/** Delivers the outbound queue and returns what the sink got since `before`. */
async function sent(before: number) {
  await t.app.services.worker.runOnce();
  return sink.received.slice(before);
}

/** The next hop: mailauth over the forwarded copy, as the sink's MTA would check it. */
const nextHop = (raw: Buffer, mailFrom: string) =>
  authenticate(raw, {
    ip: "127.0.0.1",
    helo: "mail.mailroom.test",
    sender: mailFrom,
    mta: "mx.helpdesk.test",
    resolver: resolveFunction(createResolver(dns.servers, { timeoutMs: 2000, tries: 1 })),
    disableBimi: true,
  });

const field = (raw: Buffer, name: string) =>
  [...raw.toString("latin1").matchAll(new RegExp(`^${name}:(.*(?:\\r\\n[ \\t].*)*)`, "gim"))].map((m) =>
    m[1]!.replace(/\r\n[ \t]+/g, " ").trim(),
  );

describe("a forwarded message at the next hop", () => {
  let copy: { mailFrom: string; raw: Buffer };

  test("verifies ARC sealed by the receiving domain, cv=none, with the inbound verdicts; SPF passes for SRS", async () => {
    const before = sink.received.length;
    const original = await signedMessage("Where is my order?");
    expect((await deliver(original, { from: "author@sender.test", to: "support@example.com" })).code).toBe(250);
    const [forwarded, ...more] = await sent(before);
    expect(more).toEqual([]);
    expect(forwarded!.recipients).toEqual(["desk@helpdesk.test"]);
    copy = forwarded!;
    // The envelope sender is SRS on example.com's return-path name, naming the original sender.
    expect(copy.mailFrom).toMatch(/^SRS0=[a-z2-7]{8}=[a-z2-7]{2}=sender\.test=author@[a-z0-9-]+\.example\.com$/i);
    // The original header and body come unchanged after our Received field and the ARC set.
    const text = copy.raw.toString("latin1");
    expect(text.endsWith(original.slice(original.indexOf("DKIM-Signature:")))).toBe(true);
    expect(field(copy.raw, "Received")[0]).toContain("by mail.mailroom.test");
    const seal = field(copy.raw, "ARC-Seal");
    expect(seal).toHaveLength(1);
    expect(seal[0]).toMatch(/(^|;)\s*i=1;/);
    expect(seal[0]).toMatch(/cv=none/);
    expect(seal[0]).toMatch(/d=example\.com/);

    const verdict = await nextHop(copy.raw, copy.mailFrom);
    expect((verdict.arc || undefined)?.status.result).toBe("pass");
    expect((verdict.arc || undefined)?.i).toBe(1);
    const aar = (verdict.arc || undefined)?.authenticationResults as {
      spf?: { result: string };
      dkim?: Array<{ result: string }>;
      dmarc?: { result: string };
    };
    expect(aar.spf?.result).toBe("pass");
    expect(aar.dkim?.[0]?.result).toBe("pass");
    expect(aar.dmarc?.result).toBe("pass");
    // SPF at the next hop is checked on our return-path name, and passes; the author's signature survived.
    expect((verdict.spf || undefined)?.status.result).toBe("pass");
    expect(verdict.dkim.results.find((r) => r.signingDomain === "sender.test")?.status.result).toBe("pass");
    // The message is also stored, routed.
    const stored = (await t.json("GET", "/v1/emails/receiving?limit=100")).body.data.find(
      (m: { subject: string }) => m.subject === "Where is my order?",
    );
    expect(stored.route_id).toBeString();
  });

  test("after an upstream forwarder's ARC set, our seal is i=2 with cv=pass, and the chain verifies", async () => {
    const before = sink.received.length;
    const original = Buffer.from(await signedMessage("Forwarded twice"));
    const upstream = await authenticate(original, {
      ip: "127.0.0.1",
      helo: "mail.sender.test",
      sender: "author@sender.test",
      mta: "mx.upstream.test",
      resolver: resolveFunction(createResolver(dns.servers, { timeoutMs: 2000, tries: 1 })),
      disableBimi: true,
      seal: { signingDomain: "upstream.test", selector: "arc", privateKey: upstreamKey },
    });
    const arcSet = upstream.headers
      .split(/\r?\n(?![ \t])/)
      .filter((line) => /^arc-/i.test(line))
      .map((line) => `${line}\r\n`)
      .join("");
    expect(arcSet).toContain("ARC-Seal:");
    const reply = await deliver(Buffer.concat([Buffer.from(arcSet), original]), {
      from: "author@sender.test",
      to: "support@example.com",
    });
    expect(reply.code).toBe(250);
    const [forwarded] = await sent(before);
    const seals = field(forwarded!.raw, "ARC-Seal");
    expect(seals).toHaveLength(2);
    const ours = seals.find((s) => /d=example\.com/.test(s))!;
    expect(ours).toMatch(/i=2;/);
    expect(ours).toMatch(/cv=pass/);
    const verdict = await nextHop(forwarded!.raw, forwarded!.mailFrom);
    expect((verdict.arc || undefined)?.status.result).toBe("pass");
    expect((verdict.arc || undefined)?.i).toBe(2);
  });

  test("a bounce to the SRS sender through the MX returns to the original sender with a null sender", async () => {
    const before = sink.received.length;
    const dsn = [
      "From: Mail Delivery System <MAILER-DAEMON@helpdesk.test>",
      `To: ${copy.mailFrom}`,
      "Subject: Undelivered Mail Returned to Sender",
      "MIME-Version: 1.0",
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
      "",
      "--b",
      "Content-Type: text/plain",
      "",
      "desk@helpdesk.test: mailbox full",
      "--b",
      "Content-Type: message/delivery-status",
      "",
      "Reporting-MTA: dns; mx.helpdesk.test",
      "",
      "Final-Recipient: rfc822; desk@helpdesk.test",
      "Action: failed",
      "Status: 5.2.2",
      "--b--",
      "",
    ].join("\r\n");
    expect((await deliver(dsn, { from: "", to: copy.mailFrom })).code).toBe(250);
    const [returned, ...more] = await sent(before);
    expect(more).toEqual([]);
    expect(returned!.mailFrom).toBe("");
    expect(returned!.recipients).toEqual(["author@sender.test"]);
    expect(returned!.raw.toString("latin1")).toContain("Status: 5.2.2");
  });

  test("an SRS address is no relay: forged, it is unknown; real, it takes only bounces", async () => {
    const forged = copy.mailFrom.replace(/^SRS0=[a-z2-7]{8}/i, "SRS0=aaaaaaaa").replace("author@", "victim@");
    const refused = await deliver("Subject: hi\r\n\r\nhi\r\n", { from: "", to: forged });
    expect(refused.code).toBe(550);
    expect(refused.text).toContain("5.1.1");
    const notABounce = await deliver("Subject: spam\r\n\r\nbuy\r\n", { from: "spammer@bad.test", to: copy.mailFrom });
    expect(notABounce.code).toBe(550);
    expect(notABounce.text).toContain("5.7.1");
  });

  test("a copy that comes round again, or that passed 31 servers, is refused as a loop and kept nowhere", async () => {
    const before = sink.received.length;
    const storedBefore = (await t.json("GET", "/v1/emails/receiving?limit=100")).body.data.length;
    const again = await deliver(copy.raw, { from: copy.mailFrom, to: "support@example.com" });
    expect(again.code).toBe(554);
    expect(again.text).toContain("5.4.6");
    const hops = Array.from(
      { length: 31 },
      (_, i) => `Received: from hop${i}.test by hop${i + 1}.test; ${new Date().toUTCString()}\r\n`,
    );
    const tooFar = await deliver(hops.join("") + (await signedMessage("Round and round")), {
      from: "author@sender.test",
      to: "support@example.com",
    });
    expect(tooFar.code).toBe(554);
    expect(tooFar.text).toContain("5.4.6");
    expect(await sent(before)).toEqual([]);
    expect((await t.json("GET", "/v1/emails/receiving?limit=100")).body.data).toHaveLength(storedBefore);
  });
});
