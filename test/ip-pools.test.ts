/**
 * Sending IPs for direct delivery (issue 30, docs/deliverability.md) on the suite's engine, with source addresses bound on
 * 127.0.0.x, a loopback DNS server and an SMTP server that records where each session came from: a domain's mail
 * leaves from its pool's addresses round-robin, each greeting with its own EHLO name; a receiver's throttling reply
 * halves that provider's rate for the address, and mail over the rate waits; warm-up caps an address's daily
 * volume per destination provider at 50 on day 1, and the excess goes the next day.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

const DAY = 86_400_000;
let dns: DnsServer;
let smtp: SmtpDouble;
let t: TestApp;
// Early in a UTC day, so a test's sends stay within it.
const clock = new ManualClock(Math.floor(Date.now() / DAY) * DAY + 3_600_000);
const sessions: Array<{ from: string; ehlo: string }> = [];

beforeAll(async () => {
  dns = await startDnsServer();
  smtp = await startSmtpDouble({
    onConnect(session, callback) {
      sessions.push({ from: session.remoteAddress, ehlo: "" });
      callback();
    },
    onMailFrom(_address, session, callback) {
      const last = [...sessions].reverse().find((s) => s.from === session.remoteAddress && !s.ehlo);
      if (last) last.ehlo = session.hostNameAppearsAs;
      callback();
    },
  });
  // gmail by its MX host (a built-in shaping rule); slow.test by a configured one.
  dns.set("gmail-like.test", "MX", [{ exchange: "aspmx.l.google.com", priority: 5 }]);
  dns.set("aspmx.l.google.com", "A", ["127.0.0.1"]);
  dns.set("throttle.test", "MX", [{ exchange: "mx.slow.test", priority: 5 }]);
  dns.set("mx.slow.test", "A", ["127.0.0.1"]);
  smtp.rules.set("throttle-me@throttle.test", {
    reply: "reject",
    code: 421,
    message: "4.7.0 Rate limited; try again later",
  });
  t = await createTestApp(
    {
      dns: { servers: dns.servers },
      delivery: { default_provider: "mx" },
      mx: { port: smtp.port, connect_timeout: "2s", socket_timeout: "5s", allow_private_networks: true },
      ip_pools: {
        main: { addresses: ["127.0.0.2", "127.0.0.3"], ehlo_names: ["mta2.example.com", "mta3.example.com"] },
        fresh: { addresses: ["127.0.0.4"], warmup: "30d" },
      },
      shaping: { slowmail: { mx: ["*.slow.test"], messages_per_minute: 8 } },
    },
    { clock },
  );
  for (const [domain, pool] of [
    ["example.com", "main"],
    ["fresh.example", "fresh"],
  ] as const) {
    await t.app.services.domains.add(t.operator, domain, { verifiedOverride: true });
    const patched = await t.json("PATCH", `/v1/domains/${domain}`, { body: { ip_pool: pool } });
    expect(patched.body.ip_pool).toBe(pool);
  }
});

afterAll(async () => {
  await t.close();
  await smtp.close();
  await dns.close();
});

/** Sends one message per recipient from `from`, then runs the worker until nothing is due. */
async function sendEach(from: string, recipients: string[]) {
  const ids: string[] = [];
  for (const to of recipients) {
    const sent = await t.json("POST", "/v1/emails", { body: { from, to, subject: "Hi", text: "Hello" } });
    expect(sent.status).toBe(200);
    ids.push(sent.body.id);
  }
  while ((await t.app.services.worker.runOnce()) > 0);
  return ids;
}
/** The recipient's delivery, from the store: a test of 51 messages would pass the key's request rate otherwise. */
const recipientOf = async (id: string) => {
  const row = await t.app.services.store.db.query.deliveries.findFirst({ where: (d, { eq }) => eq(d.emailId, id) });
  return { status: row!.status, last_response: row!.lastResponse ?? "" };
};
const poolState = async (name: string) =>
  (await t.json("GET", "/v1/ip-pools")).body.data.find((pool: { name: string }) => pool.name === name);

describe("an IP pool", () => {
  test("its addresses are in every domain's suggested SPF record", async () => {
    const spf = (await t.json("GET", "/v1/domains/example.com")).body.records.find(
      (r: { record: string }) => r.record === "SPF",
    );
    for (const ip of ["127.0.0.2", "127.0.0.3", "127.0.0.4"]) expect(spf.value).toContain(`ip4:${ip}`);
  });

  test("an unknown pool is refused", async () => {
    const res = await t.json("PATCH", "/v1/domains/example.com", { body: { ip_pool: "nope" } });
    expect([res.status, res.body.name]).toEqual([400, "validation_error"]);
  });

  test("mail leaves from its addresses round-robin, each with its own EHLO name", async () => {
    const ids = await sendEach("hi@example.com", ["a@gmail-like.test", "b@gmail-like.test", "c@gmail-like.test"]);
    for (const id of ids) expect((await recipientOf(id)).status).toBe("delivered");
    const used = sessions.filter((s) => s.from === "127.0.0.2" || s.from === "127.0.0.3");
    expect(new Set(used.map((s) => s.from))).toEqual(new Set(["127.0.0.2", "127.0.0.3"]));
    for (const session of used)
      expect(session.ehlo).toBe(session.from === "127.0.0.2" ? "mta2.example.com" : "mta3.example.com");
    const state = await poolState("main");
    const today = state.addresses.map((a: { today: Record<string, number> }) => a.today.gmail ?? 0);
    expect(today.reduce((a: number, b: number) => a + b, 0)).toBe(3);
  });
});

describe("destination shaping", () => {
  test("a throttling reply halves that provider's rate for the address for an hour; mail over the rate waits", async () => {
    const [throttled] = await sendEach("hi@fresh.example", ["throttle-me@throttle.test"]);
    const answer = await recipientOf(throttled!);
    expect(answer.status).toBe("deferred");
    expect(answer.last_response).toContain("Rate limited");
    const address = (await poolState("fresh")).addresses[0];
    expect(address.backed_off).toEqual([
      { provider: "slowmail", messages_per_minute: 4, until: new Date(clock.now() + 3_600_000).toISOString() },
    ]);
    // Four go within the minute at the halved rate; the rest wait as deferred, saying why.
    smtp.rules.delete("throttle-me@throttle.test");
    const ids = await sendEach(
      "hi@fresh.example",
      Array.from({ length: 6 }, (_, i) => `r${i}@throttle.test`),
    );
    const statuses = await Promise.all(ids.map(async (id) => (await recipientOf(id)).status));
    expect(statuses.filter((s) => s === "delivered")).toHaveLength(4);
    const waiting = await Promise.all(ids.map(recipientOf).map(async (r) => (await r).last_response ?? ""));
    expect(waiting.filter((r) => r.includes("Shaping: IP pool fresh is at its rate for slowmail"))).toHaveLength(2);
  });
});

describe("warm-up", () => {
  test("day 1 caps an address at 50 messages per provider; the excess waits for the next day and then goes", async () => {
    const ids = await sendEach(
      "hi@fresh.example",
      Array.from({ length: 51 }, (_, i) => `w${i}@gmail-like.test`),
    );
    const statuses = await Promise.all(ids.map(async (id) => (await recipientOf(id)).status));
    expect(statuses.filter((s) => s === "delivered")).toHaveLength(50);
    const over = (await Promise.all(ids.map(recipientOf))).filter((r) => r.status === "deferred");
    expect(over).toHaveLength(1);
    expect(over[0]!.last_response).toContain("Warm-up: every address of IP pool fresh sent today's volume to gmail");
    const first = (await poolState("fresh")).addresses[0];
    expect(first).toMatchObject({ address: "127.0.0.4", warmup_day: 1, daily_cap: 50, today: { gmail: 50 } });

    // The next UTC day: day 2 of the warm-up, a cap of 100; what waited goes.
    clock.advance(DAY);
    while ((await t.app.services.worker.runOnce()) > 0);
    expect(
      (await Promise.all(ids.map(async (id) => (await recipientOf(id)).status))).every((s) => s === "delivered"),
    ).toBe(true);
    expect((await poolState("fresh")).addresses[0]).toMatchObject({
      warmup_day: 2,
      daily_cap: 100,
      today: { gmail: 1 },
    });
  });
});
