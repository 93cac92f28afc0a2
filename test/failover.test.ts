/**
 * Routing and failover between named providers (docs/delivery.md): a domain's first provider takes its mail; when it
 * refuses connections the next one delivers in the same attempt, and the first gets the mail back once a probe
 * finds it serving again. Two real SMTP servers on loopback; the primary is stopped and restarted on its port.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

let primary: SmtpDouble;
let secondary: SmtpDouble;
let primaryPort: number;
let t: TestApp;
let clock: ManualClock;

const smarthost = (port: number) => ({
  kind: "smtp",
  host: "127.0.0.1",
  port,
  security: "none",
  connect_timeout: "2s",
  socket_timeout: "2s",
});

beforeEach(async () => {
  primary = await startSmtpDouble();
  secondary = await startSmtpDouble();
  primaryPort = primary.port;
  clock = new ManualClock(Date.now());
  t = await createTestApp(
    {
      providers: { primary: smarthost(primary.port), secondary: smarthost(secondary.port) },
      delivery: { failover_window: "0s", failover_probe_interval: "30s" },
    },
    { clock },
  );
  await t.app.services.domains.add(t.operator, "example.com", {
    verifiedOverride: true,
    providers: ["primary", "secondary"],
  });
});

afterEach(async () => {
  await t.close();
  await primary.close();
  await secondary.close();
});

async function sendAndDeliver(to: string) {
  const res = await t.json("POST", "/v1/emails", {
    body: { from: "hi@example.com", to, subject: "Hello", html: "<p>Hi</p>" },
  });
  expect(res.status).toBe(200);
  await t.app.services.worker.runOnce();
  return (await t.json("GET", `/v1/emails/${res.body.id}`)).body;
}

test("the first provider takes the domain's mail while it serves", async () => {
  const record = await sendAndDeliver("a@dest.test");
  expect(record.recipients[0]).toMatchObject({ status: "sent", provider: "primary" });
  expect(record.events.find((e: { type: string }) => e.type === "email.sent").data.provider).toBe("primary");
  expect(primary.received).toHaveLength(1);
  expect(secondary.received).toHaveLength(0);
});

test("a primary refusing connections fails over to the secondary, which delivers; the primary back, a probe gives it its mail again", async () => {
  await primary.close();

  const first = await sendAndDeliver("a@dest.test");
  expect(first.recipients[0]).toMatchObject({ status: "sent", provider: "secondary", attempts: 1 });
  expect(secondary.received.map((m) => m.recipients[0])).toEqual(["a@dest.test"]);

  // Failed over: the next message goes straight to the secondary, without waiting on the primary.
  const second = await sendAndDeliver("b@dest.test");
  expect(second.recipients[0]).toMatchObject({ status: "sent", provider: "secondary" });

  primary = await startSmtpDouble({}, primaryPort);
  // Before the probe interval the primary is not tried, even though it is back.
  const third = await sendAndDeliver("c@dest.test");
  expect(third.recipients[0].provider).toBe("secondary");
  expect(primary.received).toHaveLength(0);

  clock.advance(30_000);
  const probe = await sendAndDeliver("d@dest.test");
  expect(probe.recipients[0]).toMatchObject({ status: "sent", provider: "primary" });
  const after = await sendAndDeliver("e@dest.test");
  expect(after.recipients[0].provider).toBe("primary");
  expect(primary.received.map((m) => m.recipients[0])).toEqual(["d@dest.test", "e@dest.test"]);
  expect(secondary.received.map((m) => m.recipients[0])).toEqual(["a@dest.test", "b@dest.test", "c@dest.test"]);

  const metrics = await (await t.request("GET", "/metrics")).text();
  expect(metrics).toMatch(/mailroom_provider_failovers_total\{provider="primary"\} 1/);
  expect(metrics).toMatch(/mailroom_deliveries_total\{outcome="sent",provider="secondary",lane="transactional"\} 3/);
});

test("within the failover window a failing primary defers its mail instead of moving it", async () => {
  await t.close();
  t = await createTestApp(
    {
      providers: { primary: smarthost(primary.port), secondary: smarthost(secondary.port) },
      delivery: { failover_window: "5m" },
    },
    { clock },
  );
  await t.app.services.domains.add(t.operator, "example.com", {
    verifiedOverride: true,
    providers: ["primary", "secondary"],
  });
  await primary.close();
  const record = await sendAndDeliver("a@dest.test");
  expect(record.recipients[0]).toMatchObject({ status: "deferred", provider: "primary" });
  expect(secondary.received).toHaveLength(0);
  primary = await startSmtpDouble({}, primaryPort);
});

test("a recipient's refusal at the primary never moves the domain's mail", async () => {
  primary.rules.set("busy@dest.test", { reply: "reject", code: 452, message: "4.2.2 Mailbox full" });
  const busy = await sendAndDeliver("busy@dest.test");
  expect(busy.recipients[0]).toMatchObject({ status: "deferred", provider: "primary" });
  const next = await sendAndDeliver("ok@dest.test");
  expect(next.recipients[0].provider).toBe("primary");
  expect(secondary.received).toHaveLength(0);
});

test("a domain may name only configured providers; the API and the records follow its providers", async () => {
  const bad = await t.json("POST", "/v1/domains", { body: { name: "other.com", providers: ["primary", "nope"] } });
  expect(bad.status).toBe(400);
  expect(bad.body.message).toContain("providers[1]");
  expect(bad.body.message).toContain("no provider named nope");
  const dup = await t.json("PATCH", "/v1/domains/example.com", { body: { providers: ["primary", "primary"] } });
  expect(dup.status).toBe(400);
  const updated = await t.json("PATCH", "/v1/domains/example.com", { body: { providers: ["secondary"] } });
  expect(updated.status).toBe(200);
  expect(updated.body.providers).toEqual(["secondary"]);
  const record = await sendAndDeliver("a@dest.test");
  expect(record.recipients[0].provider).toBe("secondary");
});
