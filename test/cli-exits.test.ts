/**
 * Every CLI command ends once its work is done (issue 48, docs/operations.md#command-line): the commands that
 * send mail — `tls-rpt send` mails a report through Mailroom's own delivery, `send` queues a live message, `send
 * --test` captures one — are run as the built executable against a store with work for them, and each must exit
 * within a few seconds, its pooled SMTP connections, CPU threads and timers closed (cron would otherwise pile them
 * up). A loopback DNS server publishes the report address; an SMTP double is the smarthost that takes the report.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { BINARY, cleanEnv } from "./helpers/process.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

const DAY = 86_400_000;
/** What "ends at once" means here: the binary starts in about a second on a loaded machine. */
const EXIT_WITHIN_MS = 8_000;
let dns: DnsServer;
let relay: SmtpDouble;
let t: TestApp;
let env: Record<string, string>;

beforeAll(async () => {
  dns = await startDnsServer();
  relay = await startSmtpDouble();
  dns.set("_smtp._tls.reports.test", "TXT", ["v=TLSRPTv1; rua=mailto:tls@reports.test"]);
  const settings = {
    dns: { servers: dns.servers },
    server: { hostname: "mail.mailroom.test" },
    delivery: { default_provider: "smtp" },
    smarthost: { host: "127.0.0.1", port: relay.port, security: "none" },
  };
  // Yesterday, a session with reports.test's MX was counted: its report is due today.
  const clock = new ManualClock(Date.now() - DAY);
  t = await createTestApp(settings, { clock });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  t.app.services.tlsReports.record({
    policyDomain: "reports.test",
    policy: null,
    mxHost: "mx.reports.test",
    receivingIp: "192.0.2.25",
    sendingIp: "192.0.2.10",
    result: "success",
  });
  await t.app.services.tlsReports.settled();
  await t.app.services.store.close();
  env = {
    ...cleanEnv(),
    MAILROOM_DATA_DIR: t.dataDir,
    ...(t.config.store.url && { MAILROOM_STORE_URL: t.config.store.url }),
    MAILROOM_DNS_SERVERS: dns.servers.join(","),
    MAILROOM_SERVER_HOSTNAME: "mail.mailroom.test",
    MAILROOM_DELIVERY_DEFAULT_PROVIDER: "smtp",
    MAILROOM_SMARTHOST_HOST: "127.0.0.1",
    MAILROOM_SMARTHOST_PORT: String(relay.port),
    MAILROOM_SMARTHOST_SECURITY: "none",
  };
});

afterAll(async () => {
  await t?.close().catch(() => {});
  await relay?.close();
  await dns?.close();
});

/** Runs the executable; its exit code and output, or null for the code when it was still running after the limit. */
async function runTimed(args: string[]) {
  const started = performance.now();
  const proc = Bun.spawn([BINARY, ...args], { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const stdout = new Response(proc.stdout).text();
  const stderr = new Response(proc.stderr).text();
  const timer = setTimeout(() => proc.kill("SIGKILL"), EXIT_WITHIN_MS);
  const code = await proc.exited;
  clearTimeout(timer);
  return { code: proc.signalCode ? null : code, ms: performance.now() - started, out: await stdout, err: await stderr };
}

test("`tls-rpt send` mails the due report and exits", async () => {
  const run = await runTimed(["tls-rpt", "send", "--json"]);
  expect(run.code, `still running after ${EXIT_WITHIN_MS} ms; stderr: ${run.err}`).toBe(0);
  expect(JSON.parse(run.out)).toEqual({ sent: 1, notAsked: 0, failed: 0 });
  expect(relay.received.filter((m) => m.recipients.includes("tls@reports.test"))).toHaveLength(1);
});

test("`send` queues a live message and exits", async () => {
  const run = await runTimed([
    "send",
    "--from",
    "hi@example.com",
    "--to",
    "a@dest.test",
    "--subject",
    "S",
    "--text",
    "T",
    "--json",
  ]);
  expect(run.code, `still running after ${EXIT_WITHIN_MS} ms; stderr: ${run.err}`).toBe(0);
  expect(JSON.parse(run.out).id).toBeString();
});

test("`send --test` captures a message and exits", async () => {
  const run = await runTimed([
    "send",
    "--test",
    "--from",
    "hi@any.test",
    "--to",
    "a@dest.test",
    "--subject",
    "S",
    "--text",
    "T",
    "--json",
  ]);
  expect(run.code, `still running after ${EXIT_WITHIN_MS} ms; stderr: ${run.err}`).toBe(0);
  expect(JSON.parse(run.out).id).toBeString();
});
