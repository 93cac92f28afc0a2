/**
 * Content retention of mail a relay took (issue 48, docs/operations.md#retention): a message a smarthost accepted
 * stays `sent` — its fate is the relay's to report — and is past its content age all the same, so its raw MIME and
 * bodies go after `[retention] content`; a bounce that arrives later still moves the kept record. A real SMTP server
 * on loopback stands in for the smarthost.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { inboundFixture } from "./helpers/inbound-fixtures.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

const DAY = 86_400_000;
const clock = new ManualClock(Date.parse("2026-03-02T09:00:00.000Z"));
let relay: SmtpDouble;
let t: TestApp;
let sent: string;

beforeAll(async () => {
  relay = await startSmtpDouble();
  t = await createTestApp(
    {
      delivery: { default_provider: "smtp", poll_interval: "200ms" },
      smarthost: { host: "127.0.0.1", port: relay.port, security: "none", connect_timeout: "2s", socket_timeout: "2s" },
    },
    { clock },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const { status, body } = await t.json("POST", "/v1/emails", {
    body: { from: "hello@example.com", to: "someone@dest.test", subject: "Relayed", html: "<p>Hi</p>" },
  });
  expect(status).toBe(200);
  sent = body.id;
  await t.app.services.worker.runOnce();
  await relay.waitFor(1);
});

afterAll(async () => {
  await t?.close();
  await relay?.close();
});

test("a message the smarthost took is `sent` and keeps its content inside the window", async () => {
  const record = (await t.json("GET", `/v1/emails/${sent}`)).body;
  expect(record.recipients).toEqual([expect.objectContaining({ email: "someone@dest.test", status: "sent" })]);
  clock.set(clock.now() + 29 * DAY);
  expect((await t.app.services.retention.runOnce()).contentRemoved).toBe(0);
  expect((await t.request("GET", `/v1/emails/${sent}/raw`)).status).toBe(200);
});

test("past the content age its content goes, though no report of its fate ever came", async () => {
  clock.set(clock.now() + 2 * DAY);
  expect((await t.app.services.retention.runOnce()).contentRemoved).toBe(1);
  expect((await t.json("GET", `/v1/emails/${sent}/raw`)).status).toBe(410);
  const record = (await t.json("GET", `/v1/emails/${sent}`)).body;
  expect(record.content_removed_at).toBe(new Date(clock.now()).toISOString());
  expect(record.html).toBeNull();
  expect(record.recipients[0].status).toBe("sent");
});

test("a bounce reported afterwards, through the MX, still applies to the record", async () => {
  const record = (await t.json("GET", `/v1/emails/${sent}`)).body;
  const report = inboundFixture("postfix-5.1.1", {
    messageId: record.message_id,
    returnPath: relay.received[0]!.mailFrom,
  });
  const outcomes = await t.app.services.inbound.receive(Buffer.from(report), {
    from: "",
    to: [relay.received[0]!.mailFrom],
  });
  expect(outcomes).toMatchObject([{ handled: "bounce" }]);
  const after = (await t.json("GET", `/v1/emails/${sent}`)).body;
  expect(after.recipients[0].status).toBe("bounced");
  expect(after.events.map((e: { type: string }) => e.type)).toContain("email.bounced");
  expect(after.content_removed_at).not.toBeNull();
});
