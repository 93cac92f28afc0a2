/**
 * DANE for direct delivery (RFC 7672, docs/deliverability.md#dane) against a real validating resolver: Unbound with
 * the test zone's DS set as its trust anchor, in front of an authoritative Unbound serving a zone signed at test time
 * (test/helpers/dnssec.ts), and an SMTP sink whose certificate is self-signed and expired. A matching TLSA record
 * delivers over TLS anyway (DANE-EE ignores names and dates); a mismatched or bogus one defers with 4.7.5 and nothing
 * is sent; an unsigned destination is delivered as without DANE; TLS reports name the tlsa policy; the domain's DANE
 * status per destination (GET /v1/domains/:id/dane) says each outcome; and a resolver that does not validate stops the
 * server from starting, saying which resolver and what to do.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash, X509Certificate } from "node:crypto";
import { generate } from "selfsigned";
import { tablesOf } from "../src/db/store.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { dnssecPeer, startDnssecServers, type DnssecServers } from "./helpers/dnssec.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

const peer = dnssecPeer();
const DAY = 86_400_000;

let dns: DnssecServers;
let sink: SmtpDouble;
let t: TestApp;
const secured: string[] = [];

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

beforeAll(async () => {
  if (!peer.available) return;
  const now = Date.now();
  // Self-signed and expired yesterday, for a name no one would check: DANE-EE(3) must still accept it.
  const pair = await generate([{ name: "commonName", value: "expired.invalid" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate: new Date(now - 3 * DAY),
    notAfterDate: new Date(now - DAY),
  });
  const cert = new X509Certificate(pair.cert);
  sink = await startSmtpDouble({
    disabledCommands: [],
    key: pair.private,
    cert: pair.cert,
    onSecure(_socket, session, callback) {
      secured.push(String(session.servername || ""));
      callback();
    },
  });
  const tlsa = (host: string, record: string) => `_${sink.port}._tcp.${host} IN TLSA ${record}`;
  const destination = (label: string) => [`${label} IN MX 10 mx.${label}`, `mx.${label} IN A 127.0.0.1`];
  const spki = sha256(cert.publicKey.export({ type: "spki", format: "der" }));
  const spki512 = createHash("sha512")
    .update(cert.publicKey.export({ type: "spki", format: "der" }))
    .digest("hex");
  dns = await startDnssecServers([
    {
      origin: "dane.test",
      signed: true,
      records: [
        ...destination("good"),
        tlsa("mx.good", `3 1 1 ${spki}`),
        ...destination("whole"),
        tlsa("mx.whole", `3 0 1 ${sha256(cert.raw)}`),
        ...destination("wrong"),
        tlsa("mx.wrong", `3 1 1 ${"00".repeat(32)}`),
        ...destination("bogus"),
        tlsa("mx.bogus", `3 1 2 ${spki512}`),
        ...destination("nodane"),
      ],
      // The bogus host's TLSA data (its own: a SHA-512 of the key) changed after signing: its signature no longer
      // verifies. The signed file writes the hex in pieces; its first 16 digits stay on one line.
      tamper: (text) => text.replace(spki512.slice(0, 16).toUpperCase(), "0".repeat(16)),
    },
    {
      origin: "plain.test",
      signed: false,
      records: ["@ IN MX 10 mx", "mx IN A 127.0.0.1", tlsa("mx", `3 1 1 ${"00".repeat(32)}`)],
    },
  ]);
  t = await createTestApp({
    dns: { servers: [dns.resolver] },
    delivery: { default_provider: "mx", retry_schedule: ["1m"], retry_max_age: "1h" },
    mx: {
      port: sink.port,
      dane: "on",
      dane_probe: "dane.test.",
      mta_sts: false,
      connect_timeout: "2s",
      socket_timeout: "5s",
      allow_private_networks: true,
    },
  });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  // The probe passes against the validating resolver: the server starts.
  await t.app.start();
});

afterAll(async () => {
  await t?.close();
  await sink?.close();
  await dns?.close();
});

/** Sends one message to `to` and runs the worker until it was attempted; the recipient's state. */
async function deliver(to: string) {
  const sent = await t.json("POST", "/v1/emails", {
    body: { from: "hello@example.com", to, subject: "Hi", text: "Hi" },
  });
  expect(sent.status).toBe(200);
  for (let i = 0; i < 20; i++) {
    const recipient = (await t.json("GET", `/v1/emails/${sent.body.id}`)).body.recipients[0];
    if (recipient.attempts > 0) return recipient as { status: string; last_response: string | null };
    await t.app.services.worker.runOnce();
  }
  throw new Error(`${to} was never attempted`);
}

describe.skipIf(!peer.available)("DANE", () => {
  test("a TLSA record matching the key (3 1 1) or the certificate (3 0 1) delivers over TLS to a self-signed, expired certificate", async () => {
    for (const domain of ["good.dane.test", "whole.dane.test"]) {
      const before = sink.received.length;
      const recipient = await deliver(`ann@${domain}`);
      expect(recipient).toMatchObject({ status: "delivered" });
      expect(sink.received.length).toBe(before + 1);
      expect(secured).toContain(`mx.${domain}`);
    }
  });

  test("a TLSA record that matches nothing defers with 4.7.5 and sends nothing, in the clear or otherwise", async () => {
    const before = sink.received.length;
    const recipient = await deliver("ann@wrong.dane.test");
    expect(recipient.status).toBe("deferred");
    expect(recipient.last_response).toStartWith(
      "4.7.5 DANE: no mail server of wrong.dane.test passed its TLSA records",
    );
    expect(recipient.last_response).toContain("no TLSA record matches the certificate");
    expect(sink.received.length).toBe(before);
  });

  test("a bogus TLSA answer (its signature broken) defers with 4.7.5 without connecting", async () => {
    const before = { received: sink.received.length, secured: secured.length };
    const recipient = await deliver("ann@bogus.dane.test");
    expect(recipient.status).toBe("deferred");
    expect(recipient.last_response).toContain("its TLSA records failed DNSSEC validation");
    expect(recipient.last_response).toStartWith("4.7.5");
    expect(sink.received.length).toBe(before.received);
    expect(secured.length).toBe(before.secured);
  });

  test("a secure destination without TLSA records, and an unsigned one, are delivered as without DANE", async () => {
    expect((await deliver("ann@nodane.dane.test")).status).toBe("delivered");
    // plain.test is unsigned: its (mismatched) TLSA record is not DNSSEC-secure, so it is ignored.
    expect((await deliver("ann@plain.test")).status).toBe("delivered");
  });

  test("TLS reports count DANE sessions under the tlsa policy, with the records as its policy string", async () => {
    await t.app.services.tlsReports.settled();
    const db = t.app.services.store.db;
    const rows = await db.select().from(tablesOf(db).tlsRptCounts);
    const of = (domain: string) => rows.filter((row) => row.policyDomain === domain);
    expect(of("good.dane.test")).toContainEqual(
      expect.objectContaining({ policyType: "tlsa", result: "success", mxHost: "mx.good.dane.test" }),
    );
    expect(of("good.dane.test")[0]!.policyString![0]).toMatch(/^3 1 1 [0-9a-f]{64}$/);
    expect(of("wrong.dane.test")).toContainEqual(
      expect.objectContaining({ policyType: "tlsa", result: "tlsa-invalid" }),
    );
    expect(of("bogus.dane.test")).toContainEqual(expect.objectContaining({ result: "dnssec-invalid" }));
    expect(of("plain.test").every((row) => row.policyType === "no-policy-found")).toBe(true);
  });

  test("GET /v1/domains/:id/dane: per destination and MX host, secure TLSA or not and the last outcome; only where the domain's mail went", async () => {
    await t.app.services.tlsReports.settled();
    const answer = await t.json("GET", "/v1/domains/example.com/dane");
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: "dane_status", dane: "on", days: 7 });
    const byDestination = Object.fromEntries(
      answer.body.data.map((row: any) => [row.destination, [row.mx_host, row.tlsa, row.outcome, row.result]]),
    );
    expect(byDestination).toEqual({
      "good.dane.test": ["mx.good.dane.test", "secure", "verified", "success"],
      "whole.dane.test": ["mx.whole.dane.test", "secure", "verified", "success"],
      "wrong.dane.test": ["mx.wrong.dane.test", "secure", "mismatched", "tlsa-invalid"],
      "bogus.dane.test": ["mx.bogus.dane.test", "bogus", "bogus", "dnssec-invalid"],
      "nodane.dane.test": ["mx.nodane.dane.test", "none", "tls_policy", "success"],
      "plain.test": ["mx.plain.test", "none", "tls_policy", "success"],
    });
    // Most recent first: plain.test was the last destination tried.
    expect(answer.body.data[0].destination).toBe("plain.test");
    expect(answer.body.data.every((row: any) => row.sessions >= 1 && Date.parse(row.last_at) > 0)).toBe(true);
    // Another domain of the organisation sent nothing: it has no destination, though the server negotiated with them.
    await t.app.services.domains.add(t.operator, "quiet.example", { verifiedOverride: true });
    expect((await t.json("GET", "/v1/domains/quiet.example/dane")).body.data).toEqual([]);
    expect((await t.json("GET", "/v1/domains/nowhere.example/dane")).status).toBe(404);
  });

  test("a resolver that does not validate DNSSEC stops the server from starting, naming it and the fix", async () => {
    const other = await createTestApp({
      dns: { servers: [dns.authoritative] },
      mx: { dane: "on", dane_probe: "dane.test." },
    });
    try {
      await expect(other.app.start()).rejects.toThrow(
        new RegExp(
          `mx\\.dane = "on" needs a DNSSEC-validating resolver, but the resolver ${dns.authoritative.replace(/\./g, "\\.")} \\(\\[dns\\] servers\\): it answered dane\\.test\\. \\(a DNSSEC-signed name\\) without the AD bit.*set mx\\.dane = "off"`,
        ),
      );
    } finally {
      await other.close();
    }
  });
});
