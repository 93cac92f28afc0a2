/**
 * SMTP TLS reporting (issue 30, RFC 8460, docs/deliverability.md) on the suite's engine, against a loopback DNS server, an SMTP
 * server with STARTTLS and an https report receiver, with a certificate the test trusts: a day of direct
 * deliveries — MTA-STS successes, a certificate that does not match its MX host refused for a sender that enforces
 * TLS, a destination without a policy — yields, once the day is over, one report per destination that publishes
 * `_smtp._tls`: POSTed (https:) and mailed through Mailroom (mailto:, multipart/report), each valid against RFC
 * 8460's schema and counting what happened; a destination that asks for none gets none; a report goes once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { simpleParser } from "mailparser";
import { generate } from "selfsigned";
import { ManualClock } from "../src/lib/clock.ts";
import schema from "./fixtures/tls-rpt/rfc8460-schema.json";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { runCli } from "./helpers/process.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

const DAY = 86_400_000;
const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
const validReport = ajv.compile(schema);

/** Names the certificate covers; mx.bad.test is not among them. */
const NAMES = ["mx.good.test", "mta-sts.good.test", "reports.good.test", "mx.reports.test", "mx.quiet.test"];

let dns: DnsServer;
let smtp: SmtpDouble;
let receiver: ReturnType<typeof Bun.serve>;
let t: TestApp;
// Noon, so a day of deliveries stays within one UTC day.
const clock = new ManualClock(Math.floor(Date.now() / DAY) * DAY + DAY / 2);
const posted: Array<{ contentType: string | null; body: Buffer }> = [];

beforeAll(async () => {
  const now = new Date();
  const pair = await generate([{ name: "commonName", value: NAMES[0]! }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate: new Date(now.getTime() - DAY),
    notAfterDate: new Date(now.getTime() + 30 * DAY),
    extensions: [{ name: "subjectAltName", altNames: NAMES.map((value) => ({ type: 2, value })) }],
  });
  dns = await startDnsServer();
  smtp = await startSmtpDouble({ disabledCommands: [], key: pair.private, cert: pair.cert });
  receiver = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    tls: { cert: pair.cert, key: pair.private },
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === "/.well-known/mta-sts.txt")
        return new Response("version: STSv1\r\nmode: enforce\r\nmx: mx.good.test\r\nmax_age: 86400\r\n");
      posted.push({ contentType: request.headers.get("content-type"), body: Buffer.from(await request.arrayBuffer()) });
      return new Response(null, { status: 201 });
    },
  });
  for (const [domain, mx] of [
    ["good.test", "mx.good.test"],
    ["bad.test", "mx.bad.test"],
    ["quiet.test", "mx.quiet.test"],
    ["reports.test", "mx.reports.test"],
  ] as const) {
    dns.set(domain, "MX", [{ exchange: mx, priority: 10 }]);
    dns.set(mx, "A", ["127.0.0.1"]);
  }
  dns.set("mta-sts.good.test", "A", ["127.0.0.1"]);
  dns.set("reports.good.test", "A", ["127.0.0.1"]);
  dns.set("_mta-sts.good.test", "TXT", ["v=STSv1; id=20261126"]);
  const endpoint = `https://reports.good.test:${receiver.port}/tlsrpt`;
  dns.set("_smtp._tls.good.test", "TXT", [`v=TLSRPTv1; rua=${endpoint},mailto:tls@reports.test`]);
  dns.set("_smtp._tls.bad.test", "TXT", [`v=TLSRPTv1; rua=${endpoint}`]);
  t = await createTestApp(
    {
      dns: { servers: dns.servers },
      server: { hostname: "mail.mailroom.test", public_ips: ["192.0.2.10"] },
      webhooks: { allow_private_networks: true },
      delivery: { default_provider: "mx" },
      mx: {
        port: smtp.port,
        mta_sts_port: receiver.port,
        connect_timeout: "2s",
        socket_timeout: "5s",
        allow_private_networks: true,
      },
    },
    { clock, mxCa: pair.cert },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  await t.app.services.domains.add(t.operator, "strict.example", { verifiedOverride: true, tls: "enforced" });
});

afterAll(async () => {
  await t.close();
  receiver.stop(true);
  await smtp.close();
  await dns.close();
});

async function deliver(to: string, from = "hello@example.com") {
  const sent = await t.json("POST", "/v1/emails", { body: { from, to, subject: "Hello", html: "<p>Hi</p>" } });
  expect(sent.status).toBe(200);
  await t.app.services.worker.runOnce();
  return (await t.json("GET", `/v1/emails/${sent.body.id}`)).body.recipients[0].status as string;
}

describe("a day of direct deliveries", () => {
  test("produces one report per destination that asks, valid against RFC 8460's schema, sent once", async () => {
    expect(await deliver("a@good.test")).toBe("delivered");
    expect(await deliver("b@good.test")).toBe("delivered");
    expect(await deliver("c@bad.test", "hello@strict.example")).toBe("deferred");
    expect(await deliver("d@bad.test")).toBe("delivered");
    expect(await deliver("e@quiet.test")).toBe("delivered");
    await t.app.services.tlsReports.settled();
    // Nothing goes before the day is over.
    expect(await t.app.services.tlsReports.sendDue()).toEqual({ sent: 0, notAsked: 0, failed: 0 });

    clock.advance(DAY);
    const before = smtp.received.length;
    expect(await t.app.services.tlsReports.sendDue()).toEqual({ sent: 2, notAsked: 1, failed: 0 });

    expect(posted).toHaveLength(2);
    const reports = posted.map((post) => {
      expect(post.contentType).toBe("application/tlsrpt+gzip");
      return JSON.parse(gunzipSync(post.body).toString());
    });
    for (const report of reports) {
      const valid = validReport(report);
      if (!valid) throw new Error(JSON.stringify(validReport.errors));
      expect(report["organization-name"]).toBe("mail.mailroom.test");
      expect(report["contact-info"]).toBe("tls-reports@mail.mailroom.test");
    }
    const about = (domain: string) =>
      reports.find((r) => r.policies[0].policy["policy-domain"] === domain).policies as Array<{
        policy: Record<string, unknown>;
        summary: Record<string, number>;
        "failure-details": Array<Record<string, unknown>>;
      }>;

    const good = about("good.test");
    expect(good).toHaveLength(1);
    expect(good[0]!.policy).toMatchObject({
      "policy-type": "sts",
      "policy-string": ["version: STSv1", "mode: enforce", "mx: mx.good.test", "max_age: 86400"],
      "mx-host": "mx.good.test",
    });
    expect(good[0]!.summary["total-successful-session-count"]).toBeGreaterThanOrEqual(1);
    expect(good[0]!.summary["total-failure-session-count"]).toBe(0);

    const bad = about("bad.test");
    expect(bad).toHaveLength(1);
    expect(bad[0]!.policy["policy-type"]).toBe("no-policy-found");
    expect(bad[0]!.summary["total-successful-session-count"]).toBeGreaterThanOrEqual(1);
    expect(bad[0]!.summary["total-failure-session-count"]).toBeGreaterThanOrEqual(1);
    expect(bad[0]!["failure-details"][0]).toMatchObject({
      "result-type": "certificate-host-mismatch",
      "receiving-mx-hostname": "mx.bad.test",
      "receiving-ip": "127.0.0.1",
    });

    // The mailto: copy, delivered through Mailroom's own direct delivery.
    const mailed = smtp.received.slice(before).filter((m) => m.recipients.includes("tls@reports.test"));
    expect(mailed).toHaveLength(1);
    const message = await simpleParser(mailed[0]!.raw);
    expect(message.headers.get("content-type")).toMatchObject({
      value: "multipart/report",
      params: { "report-type": "tlsrpt" },
    });
    expect(message.headers.get("tls-report-domain")).toBe("good.test");
    expect(message.subject).toStartWith("Report Domain: good.test Submitter: mail.mailroom.test Report-ID: <");
    const attachment = message.attachments.find((a) => a.contentType === "application/tlsrpt+gzip")!;
    expect(attachment.filename).toMatch(/^mail\.mailroom\.test!good\.test!\d+!\d+![0-9a-f]+\.json\.gz$/);
    expect(validReport(JSON.parse(gunzipSync(attachment.content).toString()))).toBe(true);

    // Handled once: the next run sends nothing again.
    expect(await t.app.services.tlsReports.sendDue()).toEqual({ sent: 0, notAsked: 0, failed: 0 });
    expect(posted).toHaveLength(2);
  });

  test("`mailroom tls-rpt send` sends what is due and says what it did", async () => {
    const env = { MAILROOM_DATA_DIR: t.dataDir, ...(t.config.store.url && { MAILROOM_STORE_URL: t.config.store.url }) };
    expect(JSON.parse(await runCli(["tls-rpt", "send", "--json"], env))).toEqual({ sent: 0, notAsked: 0, failed: 0 });
    expect(await runCli(["tls-rpt", "send"], env)).toContain("TLS reports: 0 sent");
  });
});
