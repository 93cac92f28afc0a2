/**
 * Direct delivery (provider `mx`) against real SMTP servers on loopback named by MX records in a loopback DNS
 * server: preference order and fallback, null MX, implicit MX, per-recipient results at RCPT and after DATA,
 * greylisting, STARTTLS and the EHLO name, pooling capped per destination, and mailauth on what arrives.
 * Every MX host listens on the same port (the test-only `mx.port`) at its own loopback address (127.0.0.x).
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from "smtp-server";
import type { DomainView } from "../src/domains/model.ts";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { checkAuthentication } from "./helpers/mail-auth.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

let dns: DnsServer;
let mx: SmtpDouble;
let clock: ManualClock;
let t: TestApp;
let extra: SMTPServer[];
const connections = { open: 0, max: 0, total: 0 };

beforeEach(async () => {
  Object.assign(connections, { open: 0, max: 0, total: 0 });
  extra = [];
  dns = await startDnsServer();
  mx = await startSmtpDouble({
    onConnect(_session, callback) {
      connections.total++;
      connections.max = Math.max(connections.max, ++connections.open);
      callback();
    },
    onClose() {
      connections.open--;
    },
  });
  clock = new ManualClock(Date.now());
  t = await createTestApp(
    {
      dns: { servers: dns.servers },
      server: { hostname: "mail.mailroom.test", public_ips: ["127.0.0.1"] },
      delivery: { default_provider: "mx", retry_schedule: ["1m", "5m"], retry_max_age: "1h" },
      mx: {
        port: mx.port,
        ehlo_name: "out.mailroom.test",
        connect_timeout: "2s",
        socket_timeout: "5s",
        max_connections_per_domain: 2,
        allow_private_networks: true,
      },
    },
    { clock },
  );
  const view = (await t.json("POST", "/v1/domains", { body: { name: "example.com" } })).body as DomainView;
  for (const record of view.records) {
    if (record.status === "not_started") continue;
    if (record.type === "TXT") dns.set(record.name, "TXT", [record.value]);
    else dns.set(record.name, "MX", [{ exchange: record.value, priority: record.priority! }]);
  }
  expect((await t.json("POST", `/v1/domains/${view.id}/verify`)).body.status).toBe("verified");
  // dest.test: the preferred host refuses connections (nothing listens on 127.0.0.2), the second is the double.
  dns.set("dest.test", "MX", [
    { exchange: "mx2.dest.test", priority: 20 },
    { exchange: "mx1.dest.test", priority: 10 },
  ]);
  dns.set("mx1.dest.test", "A", ["127.0.0.2"]);
  dns.set("mx2.dest.test", "A", ["127.0.0.1"]);
});

afterEach(async () => {
  await t.close();
  await Promise.all(extra.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  await mx.close();
  await dns.close();
});

/** Another SMTP server on the MX port at loopback address `ip`. */
async function serverAt(ip: string, options: Partial<SMTPServerOptions>): Promise<SMTPServer> {
  const server = new SMTPServer({ disableReverseLookup: true, authOptional: true, logger: false, ...options });
  server.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(mx.port, ip, () => resolve());
  });
  extra.push(server);
  return server;
}

async function send(to: string | string[], from = "Acme <hi@example.com>"): Promise<string> {
  const res = await t.json("POST", "/v1/emails", { body: { from, to, subject: "Hello", html: "<p>Hi</p>" } });
  expect(res.status).toBe(200);
  return res.body.id;
}

const lookup = async (id: string) => (await t.json("GET", `/v1/emails/${id}`)).body;
const recipient = async (id: string, email: string) =>
  (await lookup(id)).recipients.find((r: { email: string }) => r.email === email);

describe("routing by MX", () => {
  test("the preferred MX refuses connections: the message arrives at the next one, delivered and authenticated", async () => {
    const id = await send("a@dest.test");
    await t.app.services.worker.runOnce();
    expect(mx.received).toHaveLength(1);
    const r = await recipient(id, "a@dest.test");
    expect(r.status).toBe("delivered");
    expect(r.last_response).toStartWith("250");
    expect((await lookup(id)).status).toBe("delivered");
    const preferred = dns.queries.indexOf("mx1.dest.test A");
    expect(preferred).toBeGreaterThanOrEqual(0);
    expect(preferred).toBeLessThan(dns.queries.indexOf("mx2.dest.test A"));

    const message = mx.received[0]!;
    expect(message.mailFrom).toMatch(/^bounces\+[0-9a-f]{32}-[a-z2-7]{16}@send\.example\.com$/);
    const verdict = await checkAuthentication(message.raw, { mailFrom: message.mailFrom, dnsServers: dns.servers });
    expect(verdict).toMatchObject({
      dkim: "pass",
      dkimDomain: "example.com",
      spf: "pass",
      dmarc: "pass",
      spfAligned: "send.example.com",
      dkimAligned: "example.com",
    });
  });

  test("the preferred MX answers 421 at the greeting: the next one is tried", async () => {
    let refused = 0;
    await serverAt("127.0.0.3", {
      onConnect(_session, callback) {
        refused++;
        callback(Object.assign(new Error("Too busy, try later"), { responseCode: 421 }));
      },
    });
    dns.set("busy.test", "MX", [
      { exchange: "mx1.busy.test", priority: 5 },
      { exchange: "mx2.busy.test", priority: 50 },
    ]);
    dns.set("mx1.busy.test", "A", ["127.0.0.3"]);
    dns.set("mx2.busy.test", "A", ["127.0.0.1"]);
    const id = await send("a@busy.test");
    await t.app.services.worker.runOnce();
    expect(refused).toBe(1);
    expect((await recipient(id, "a@busy.test")).status).toBe("delivered");
  });

  test("a null MX (RFC 7505) bounces permanently and suppresses the address; nothing is contacted", async () => {
    dns.set("nullmx.test", "MX", [{ exchange: ".", priority: 0 }]);
    const id = await send("a@nullmx.test");
    await t.app.services.worker.runOnce();
    const record = await lookup(id);
    expect(record.status).toBe("bounced");
    expect(record.recipients[0].last_response).toContain("5.1.10");
    const bounced = record.events.find((e: { type: string }) => e.type === "email.bounced");
    expect(bounced.data.bounce.type).toBe("Permanent");
    expect((await t.json("GET", "/v1/suppressions/a@nullmx.test")).status).toBe(200);
    expect(connections.total).toBe(0);
  });

  test("without MX records the domain's own address is the mail server (implicit MX)", async () => {
    dns.set("implicit.test", "A", ["127.0.0.1"]);
    const id = await send("a@implicit.test");
    await t.app.services.worker.runOnce();
    expect((await recipient(id, "a@implicit.test")).status).toBe("delivered");
  });

  test("a domain with neither MX nor address bounces", async () => {
    const id = await send("a@nowhere.test");
    await t.app.services.worker.runOnce();
    const r = await recipient(id, "a@nowhere.test");
    expect(r.status).toBe("bounced");
    expect(r.last_response).toContain("5.1.2");
  });

  test("a failing DNS lookup defers the delivery instead of bouncing it", async () => {
    dns.fail("broken.test");
    const id = await send("a@broken.test");
    await t.app.services.worker.runOnce();
    const r = await recipient(id, "a@broken.test");
    expect(r.status).toBe("deferred");
    expect(r.last_response).toContain("4.4.3");
  });

  test("every MX host unreachable defers the delivery", async () => {
    dns.set("down.test", "MX", [{ exchange: "mx1.dest.test", priority: 10 }]);
    const id = await send("a@down.test");
    await t.app.services.worker.runOnce();
    const r = await recipient(id, "a@down.test");
    expect(r.status).toBe("deferred");
    expect(r.last_response).toContain("4.4.1");
  });
});

describe("non-public addresses", () => {
  test("are refused unless allowed: an MX on loopback bounces and is never contacted", async () => {
    await t.close();
    t = await createTestApp(
      {
        dns: { servers: dns.servers },
        server: { hostname: "mail.mailroom.test", public_ips: ["127.0.0.1"] },
        delivery: { default_provider: "mx" },
        mx: { port: mx.port, connect_timeout: "2s" },
      },
      { clock },
    );
    await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
    const id = await send("a@dest.test");
    await t.app.services.worker.runOnce();
    const r = await recipient(id, "a@dest.test");
    expect(r.status).toBe("bounced");
    expect(r.last_response).toContain("not a public address (loopback)");
    expect(connections.total).toBe(0);
  });
});

describe("results per recipient", () => {
  test("one recipient rejected at RCPT bounces; the other is delivered", async () => {
    mx.rules.set("gone@dest.test", { reply: "reject", code: 550, message: "5.1.1 User unknown" });
    const id = await send(["gone@dest.test", "ok@dest.test"]);
    await t.app.services.worker.runOnce();
    expect((await recipient(id, "gone@dest.test")).status).toBe("bounced");
    expect((await recipient(id, "ok@dest.test")).status).toBe("delivered");
    expect(mx.received.map((m) => m.recipients)).toEqual([["ok@dest.test"]]);
  });

  test("a rejection after DATA is that recipient's result", async () => {
    await serverAt("127.0.0.4", {
      disabledCommands: ["STARTTLS"],
      onData(stream, _session, callback) {
        stream.resume();
        stream.on("end", () =>
          callback(Object.assign(new Error("5.7.1 Message content rejected"), { responseCode: 554 })),
        );
      },
    });
    dns.set("strict.test", "MX", [{ exchange: "mx.strict.test", priority: 10 }]);
    dns.set("mx.strict.test", "A", ["127.0.0.4"]);
    const id = await send("a@strict.test");
    await t.app.services.worker.runOnce();
    const record = await lookup(id);
    expect(record.recipients[0]).toMatchObject({ status: "bounced" });
    expect(record.recipients[0].last_response).toContain("554");
    expect(record.events.find((e: { type: string }) => e.type === "email.bounced").data.bounce.subType).toBe(
      "ContentRejected",
    );
  });

  test("greylisting defers, and the retry on the schedule is delivered", async () => {
    mx.rules.set("grey@dest.test", { reply: "reject", code: 451, message: "4.7.1 Greylisted, please try again later" });
    const id = await send("grey@dest.test");
    await t.app.services.worker.runOnce();
    expect((await recipient(id, "grey@dest.test")).status).toBe("deferred");
    mx.rules.delete("grey@dest.test");
    clock.advance(60_000);
    expect(await t.app.services.worker.runOnce()).toBe(1);
    const r = await recipient(id, "grey@dest.test");
    expect(r).toMatchObject({ status: "delivered", attempts: 2 });
  });
});

describe("the connection", () => {
  test("uses STARTTLS when offered and says the configured EHLO name", async () => {
    const seen: Array<{ secure: boolean; helo: string }> = [];
    await serverAt("127.0.0.5", {
      onMailFrom(_address, session: SMTPServerSession, callback) {
        seen.push({ secure: session.secure, helo: session.hostNameAppearsAs });
        callback();
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on("end", () => callback());
      },
    });
    dns.set("tls.test", "MX", [{ exchange: "mx.tls.test", priority: 10 }]);
    dns.set("mx.tls.test", "A", ["127.0.0.5"]);
    const id = await send("a@tls.test");
    await t.app.services.worker.runOnce();
    expect((await recipient(id, "a@tls.test")).status).toBe("delivered");
    expect(seen).toEqual([{ secure: true, helo: "out.mailroom.test" }]);
  });

  test("a STARTTLS handshake that fails is followed by delivery in plain text to the same host", async () => {
    const seen: boolean[] = [];
    let handshakes = 0;
    await serverAt("127.0.0.6", {
      // STARTTLS is offered, but only TLS 1.0, which no client of today accepts: every handshake fails.
      minVersion: "TLSv1",
      maxVersion: "TLSv1",
      onConnect(_session, callback) {
        handshakes++;
        callback();
      },
      onMailFrom(_address, session: SMTPServerSession, callback) {
        seen.push(session.secure);
        callback();
      },
      onData(stream, _session, callback) {
        stream.resume();
        stream.on("end", () => callback());
      },
    });
    dns.set("badtls.test", "MX", [{ exchange: "mx.badtls.test", priority: 10 }]);
    dns.set("mx.badtls.test", "A", ["127.0.0.6"]);
    const id = await send("a@badtls.test");
    await t.app.services.worker.runOnce();
    // The first connection's handshake failed; the second delivered without STARTTLS.
    expect(handshakes).toBe(2);
    expect(seen).toEqual([false]);
    expect((await recipient(id, "a@badtls.test")).status).toBe("delivered");
  });

  test("is pooled and capped per destination domain", async () => {
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await send(`r${i}@dest.test`));
    await t.app.services.worker.runOnce();
    for (const [i, id] of ids.entries()) expect((await recipient(id, `r${i}@dest.test`)).status).toBe("delivered");
    expect(mx.received).toHaveLength(6);
    expect(connections.max).toBeLessThanOrEqual(2);
    expect(connections.total).toBeLessThanOrEqual(2);

    // The idle connections are reused for the next message.
    const later = await send("later@dest.test");
    await t.app.services.worker.runOnce();
    expect((await recipient(later, "later@dest.test")).status).toBe("delivered");
    expect(connections.total).toBeLessThanOrEqual(2);
  });
});
