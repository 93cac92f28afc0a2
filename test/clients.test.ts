/**
 * The client libraries (clients/<language>), each tested by its own language's runner against the built executable
 * on loopback: Node (bun test), Python (python3 -m unittest), Ruby (minitest) and Go (go test). One server for all:
 * a temporary data directory, a verified sending domain that also receives, a smarthost on loopback that records what
 * arrives, and an inbound message already received. The suites read what they need from the environment:
 *
 *   MAILROOM_BASE_URL      http://127.0.0.1:<port> (the API is under /v1)
 *   MAILROOM_API_KEY       a live full_access key
 *   MAILROOM_SENDING_KEY   a live sending_access key (emails:send only: reading domains is 403)
 *   MAILROOM_LIMITED_KEY   a live full_access key limited to 2 requests a minute (the third is 429 with Retry-After),
 *                          a fresh one per suite
 *   MAILROOM_FROM          an address on the verified domain (example.com)
 *   MAILROOM_INBOUND_SUBJECT  the subject of the message received before the suites start
 *   MAILROOM_PUBLIC_URL    https://mail.mailroom.test, the server's configured address: the links it hands out (an
 *                          invitation's) start with it, never with the address a request came to
 *
 * Each suite prints its runner's output on failure. A missing runtime skips its suite with the reason, except under
 * CI=true (`.ci/run` installs them), where it is a failure.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { tempDir } from "./helpers/app.ts";
import { peer, runs } from "./helpers/peers.ts";
import { cliKey, runCli, smarthostEnv, startMailroom, type MailroomProcess } from "./helpers/process.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";

const ROOT = join(import.meta.dir, "..");
const INBOUND_SUBJECT = "Inbound for the client libraries";

/** The suites talk to the executable on its own SQLite store: the suite's second run (on PostgreSQL) repeats nothing. */
const storeRun = process.env.MAILROOM_TEST_STORE !== "postgres";

let smarthost: SmtpDouble;
let server: MailroomProcess;
let env: Record<string, string>;

beforeAll(async () => {
  if (!storeRun) return;
  smarthost = await startSmtpDouble();
  const dataDir = tempDir("mailroom-clients-");
  const serverEnv = smarthostEnv(dataDir, smarthost.port, {
    MAILROOM_DELIVERY_POLL_INTERVAL: "200ms",
    MAILROOM_WEBHOOKS_POLL_INTERVAL: "200ms",
    MAILROOM_SERVER_HOSTNAME: "mail.mailroom.test",
    MAILROOM_LIMITS_KEY_REQUESTS_PER_MINUTE: "100000",
    MAILROOM_LIMITS_ORG_REQUESTS_PER_MINUTE: "100000",
  });
  await runCli(["init"], serverEnv, true);
  await runCli(["domains", "add", "example.com", "--verified"], serverEnv, true);
  const apiKey = await cliKey(serverEnv, "clients");
  const sendingKey = await cliKey(serverEnv, "clients-sending", "--scope", "sending_access");
  server = await startMailroom(serverEnv, { binary: true });
  const receiving = await fetch(`${server.baseUrl}/v1/domains/example.com`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ receiving: true }),
  });
  expect(receiving.status).toBe(200);
  const mx = nodemailer.createTransport({ host: "127.0.0.1", port: server.ports.mx!, secure: false, ignoreTLS: true });
  await mx.sendMail({
    from: "customer@elsewhere.test",
    to: "support@example.com",
    subject: INBOUND_SUBJECT,
    text: "A reply for the libraries to find.",
  });
  env = {
    MAILROOM_BASE_URL: server.baseUrl,
    MAILROOM_API_KEY: apiKey,
    MAILROOM_SENDING_KEY: sendingKey,
    MAILROOM_FROM: "Acme <hello@example.com>",
    MAILROOM_INBOUND_SUBJECT: INBOUND_SUBJECT,
    MAILROOM_PUBLIC_URL: "https://mail.mailroom.test",
  };
}, 60_000);

afterAll(async () => {
  server?.proc.kill("SIGTERM");
  await server?.exited;
  await smarthost?.close();
});

/** A key limited to 2 requests a minute, for one suite only: a window another suite spent would fail its 429 test. */
async function limitedKey(): Promise<string> {
  const res = await fetch(`${env.MAILROOM_BASE_URL}/v1/api-keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${env.MAILROOM_API_KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "clients-limited", rate_limit: 2 }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

/** Runs a suite; its output is shown when it fails. */
async function runSuite(command: string[], cwd: string, extraEnv: Record<string, string> = {}) {
  const suiteEnv = { ...process.env, ...env, MAILROOM_LIMITED_KEY: await limitedKey(), ...extraEnv };
  const proc = Bun.spawn(command, { cwd, env: suiteEnv, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) console.error(`${command.join(" ")} (in ${cwd}) exited ${code}\n${out}\n${err}`);
  expect(code).toBe(0);
}

const SUITE_TIMEOUT_MS = 180_000;

test.if(storeRun)(
  "Node.js: clients/node's tests pass",
  () => runSuite([process.execPath, "test"], join(ROOT, "clients/node")),
  SUITE_TIMEOUT_MS,
);

test.if(storeRun && peer("python3", () => runs("python3", ["--version"]), "apt-get install python3").available)(
  "Python: clients/python's tests pass",
  () => runSuite(["python3", "-m", "unittest", "discover", "-s", "tests", "-t", "."], join(ROOT, "clients/python")),
  SUITE_TIMEOUT_MS,
);

test.if(storeRun && peer("ruby", () => runs("ruby", ["-e", "require 'minitest'"]), "apt-get install ruby").available)(
  "Ruby: clients/ruby's tests pass",
  () =>
    runSuite(
      ["ruby", "-Ilib", "-Itest", "-e", "Dir['test/**/*_test.rb'].sort.each { |f| require File.expand_path(f) }"],
      join(ROOT, "clients/ruby"),
    ),
  SUITE_TIMEOUT_MS,
);

test.if(storeRun && peer("go", () => runs("go", ["version"]), "apt-get install golang-go").available)(
  "Go: clients/go's tests pass",
  // No module proxy exists here and the module needs none: any download attempt fails instead of hanging.
  () =>
    runSuite(["go", "test", "-count=1", "./..."], join(ROOT, "clients/go"), {
      GOPROXY: "off",
      GOFLAGS: "-mod=mod",
      GOTOOLCHAIN: "local",
      GOCACHE: tempDir("mailroom-gocache-"),
    }),
  SUITE_TIMEOUT_MS,
);
