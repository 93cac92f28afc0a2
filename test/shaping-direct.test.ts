/**
 * Destination shaping and adaptive back-off without an IP pool (issue 48, docs/deliverability.md#sending-ips): a
 * single-address machine's direct mail is shaped too, and a destination no rule names is its own provider, keyed by
 * its MX host — a receiver answering `421 4.7.0 try again later` halves the rate to that MX for an hour, and mail to
 * another unknown MX goes on at the full rate. A loopback DNS server points two domains at an SMTP double that
 * throttles one recipient; no `[ip_pools]` is configured.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

let dns: DnsServer;
let smtp: SmtpDouble;
let t: TestApp;
const clock = new ManualClock(Date.parse("2026-06-01T08:00:00.000Z"));

beforeAll(async () => {
  dns = await startDnsServer();
  smtp = await startSmtpDouble();
  dns.set("corp.test", "MX", [{ exchange: "mx.corp.test", priority: 10 }]);
  dns.set("mx.corp.test", "A", ["127.0.0.1"]);
  dns.set("elsewhere.test", "MX", [{ exchange: "mx.elsewhere.test", priority: 10 }]);
  dns.set("mx.elsewhere.test", "A", ["127.0.0.1"]);
  smtp.rules.set("busy@corp.test", { reply: "reject", code: 421, message: "4.7.0 Try again later" });
  t = await createTestApp(
    {
      dns: { servers: dns.servers },
      delivery: { default_provider: "mx" },
      mx: { port: smtp.port, connect_timeout: "2s", socket_timeout: "5s", allow_private_networks: true },
      // Unknown destinations' limits, small enough to see the halving with a handful of messages.
      shaping: { other: { messages_per_minute: 4 } },
    },
    { clock },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await dns?.close();
});

async function sendEach(recipients: string[]) {
  const ids: string[] = [];
  for (const to of recipients) {
    const sent = await t.json("POST", "/v1/emails", {
      body: { from: "hi@example.com", to, subject: "Hi", text: "Hello" },
    });
    expect(sent.status).toBe(200);
    ids.push(sent.body.id);
  }
  while ((await t.app.services.worker.runOnce()) > 0);
  const rows = [];
  for (const id of ids) {
    const row = await t.app.services.store.db.query.deliveries.findFirst({ where: (d, { eq }) => eq(d.emailId, id) });
    rows.push({ status: row!.status, response: row!.lastResponse ?? "" });
  }
  return rows;
}

test("a 421 from an MX halves the rate to that MX host, without an IP pool; mail over the rate waits", async () => {
  const [throttled] = await sendEach(["busy@corp.test"]);
  expect(throttled).toMatchObject({ status: "deferred" });
  expect(throttled!.response).toContain("Try again later");
  expect(t.app.services.sendingIps.backOffs()).toEqual([
    {
      source: "direct",
      provider: "mx.corp.test",
      messages_per_minute: 2,
      until: new Date(clock.now() + 3_600_000).toISOString(),
    },
  ]);
  const metrics = await (await t.request("GET", "/metrics", { key: null })).text();
  expect(metrics).toContain('mailroom_shaping_backoff_messages_per_minute{source="direct",provider="mx.corp.test"} 2');
  // The minute's budget left for mx.corp.test is two at the halved rate: two go, the others wait, saying why.
  const rows = await sendEach(["a@corp.test", "b@corp.test", "c@corp.test", "d@corp.test"]);
  expect(rows.filter((r) => r.status === "delivered")).toHaveLength(2);
  const waiting = rows.filter((r) => r.status === "deferred");
  expect(waiting).toHaveLength(2);
  for (const row of waiting) expect(row.response).toContain("Shaping: at the rate for mx.corp.test");
});

test("another unknown MX is its own provider and keeps its full rate", async () => {
  const rows = await sendEach(["a@elsewhere.test", "b@elsewhere.test", "c@elsewhere.test", "d@elsewhere.test"]);
  expect(rows.map((r) => r.status)).toEqual(["delivered", "delivered", "delivered", "delivered"]);
  expect(t.app.services.sendingIps.backOffs().map((b) => b.provider)).toEqual(["mx.corp.test"]);
});

test("after the hour the back-off is over: what waited goes, and the MX takes its full rate again", async () => {
  smtp.rules.delete("busy@corp.test");
  clock.advance(3_600_000 + 60_000);
  expect(t.app.services.sendingIps.backOffs()).toEqual([]);
  // The three that waited are due again and take three of the minute's four (the halved rate would allow two).
  const rows = await sendEach(["e@corp.test"]);
  expect(rows.map((r) => r.status)).toEqual(["delivered"]);
  const corp = smtp.received.map((m) => m.recipients[0]!).filter((to) => to.endsWith("@corp.test"));
  expect(corp.sort()).toEqual([
    "a@corp.test",
    "b@corp.test",
    "busy@corp.test",
    "c@corp.test",
    "d@corp.test",
    "e@corp.test",
  ]);
});
