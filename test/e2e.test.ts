/**
 * End to end on the built executable (`npm run build` → dist/mailroom): first start on an empty data directory,
 * CLI key creation, a send over HTTP looked up until delivered, docs served from the binary, SIGTERM → exit 0.
 */
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./helpers/app.ts";
import { cleanEnv, runCli, runCommand, startMailroom, type MailroomProcess } from "./helpers/process.ts";
import { startSmtpDouble } from "./helpers/smtp-double.ts";

const dataDir = tempDir("mailroom-e2e-");
const env = { MAILROOM_DATA_DIR: dataDir, MAILROOM_HTTP_PORT: "0", MAILROOM_DNS_SERVERS: "127.0.0.1:1" };
let server: MailroomProcess | undefined;

afterAll(() => {
  server?.proc.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

test("the executable serves, sends, and stops cleanly on SIGTERM", async () => {
  server = await startMailroom(env, { binary: true });
  expect(server.stdout()).toMatch(/mr_test_[0-9A-Za-z]{32}/);
  expect(
    server
      .stdout()
      .split("\n")
      .filter((l) => l.startsWith("mailroom ready")),
  ).toHaveLength(1);

  await runCli(["init"], env, true);
  const { token: key } = JSON.parse(
    await runCli(["keys", "create", "--name", "e2e", "--scope", "full_access", "--json"], env, true),
  );
  await runCli(["domains", "add", "example.com", "--verified"], env, true);
  const listing = await runCli(["domains", "list"], env, true);
  expect(listing).toContain("example.com  verified (operator override)");

  const auth = { authorization: `Bearer ${key}` };
  const sent = await fetch(`${server.baseUrl}/v1/emails`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({
      from: "E2E <e2e@example.com>",
      to: "someone@dest.test",
      subject: "End to end",
      html: "<p>Hello</p>",
    }),
  });
  expect(sent.status).toBe(200);
  const { id } = (await sent.json()) as { id: string };

  let status = "";
  for (let i = 0; i < 100 && status !== "delivered"; i++) {
    const record = (await (await fetch(`${server.baseUrl}/v1/emails/${id}`, { headers: auth })).json()) as {
      status: string;
    };
    status = record.status;
    if (status !== "delivered") await Bun.sleep(50);
  }
  expect(status).toBe("delivered");

  // A consistent copy while the server runs holds the message just accepted.
  const backup = `${dataDir}-backup.db`;
  expect(await runCli(["backup", backup], env, true)).toContain(`copied the master key to ${backup}.secret.key`);
  const copy = new Database(backup, { readonly: true });
  expect(copy.query("SELECT status FROM emails WHERE id = ?").get(id)).toEqual({ status: "delivered" });
  copy.close();
  // The master key travels with the copy: without it the copy's DKIM keys and webhook secrets cannot be read.
  expect(readFileSync(`${backup}.secret.key`, "utf8")).toBe(readFileSync(`${dataDir}/secret.key`, "utf8"));
  expect(statSync(`${backup}.secret.key`).mode & 0o777).toBe(0o600);
  rmSync(backup);
  rmSync(`${backup}.secret.key`);
  // A failing backup (no such directory) is one error line, not a stack trace.
  await expect(runCli(["backup", `${dataDir}/no/such/dir/b.db`], env, true)).rejects.toThrow(/backup to .* failed: /);

  const docs = await fetch(`${server.baseUrl}/docs/assets/swagger-ui-bundle.js`);
  expect(docs.status).toBe(200);
  expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);

  server.proc.kill("SIGTERM");
  expect(await server.exited).toBe(0);
  server = undefined;
}, 30_000);

test("the CLI run where no store is refuses to make one, and names where it looked and what to run", async () => {
  const elsewhere = tempDir("mailroom-e2e-elsewhere-");
  try {
    const proc = Bun.spawn([`${import.meta.dir}/../dist/mailroom`, "keys", "list"], {
      cwd: elsewhere,
      env: { PATH: process.env.PATH! },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(1);
    expect(stderr).toContain(`no Mailroom store at ${elsewhere}/data/mailroom.db`);
    expect(stderr).toContain("mailroom init");
    expect(existsSync(`${elsewhere}/data`)).toBe(false);
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

test("mailroom send --test sends a plain-text message in test mode (from any domain, captured); without it the domain must be verified", async () => {
  const dir = tempDir("mailroom-e2e-send-");
  const sendEnv = { ...env, MAILROOM_DATA_DIR: dir };
  try {
    await runCli(["init"], sendEnv, true);
    const args = [
      "send",
      "--from",
      "hi@unverified.example",
      "--to",
      "a@x.org",
      "--subject",
      "Hello",
      "--text",
      "Plain.",
    ];
    expect(await runCli([...args, "--test"], sendEnv, true)).toMatch(
      /^queued [0-9a-f-]{36} \(test mode: captured, never delivered\)/,
    );
    await expect(runCli(args, sendEnv, true)).rejects.toThrow("domain_not_verified");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a bad configuration value is one clear error and a non-zero exit", async () => {
  const proc = Bun.spawn([`${import.meta.dir}/../dist/mailroom`, "serve"], {
    env: { ...env, MAILROOM_HTTP_PORT: "eighty" },
    stderr: "pipe",
    stdout: "pipe",
  });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  expect(code).not.toBe(0);
  expect(stderr.trim()).toBe('mailroom: configuration: http.port: expected an integer, got "eighty"');
});

test.each([
  ["an unknown flag", ["keys", "create", "--bogus"], 'unknown option "--bogus"\n'],
  ["a flag without its value", ["keys", "create", "--name"], 'option "--name" needs a value\n'],
])("%s is one line of error and the usage, never a stack trace", async (_name, args, message) => {
  const proc = Bun.spawn([`${import.meta.dir}/../dist/mailroom`, ...args], { env, stderr: "pipe", stdout: "pipe" });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  expect(code).toBe(2);
  expect(stderr).toStartWith("mailroom: ");
  expect(stderr).toContain(message);
  expect(stderr).toContain("Usage: mailroom");
  expect(stderr).not.toMatch(/^\s*\d+ \|/m);
});

/** The executable run with `args` in an empty directory with no store: its exit code and output. */
async function runNowhere(args: string[]) {
  const elsewhere = tempDir("mailroom-e2e-nowhere-");
  try {
    const { stdout, stderr, code } = await runCommand([`${import.meta.dir}/../dist/mailroom`, ...args], {
      cwd: elsewhere,
      env: { PATH: process.env.PATH! },
    });
    expect(existsSync(`${elsewhere}/data`)).toBe(false);
    return { stdout, stderr, code };
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
}

test.each([
  [["frobnicate"], 'mailroom: unknown command "frobnicate"; the commands are serve, init, mcp, keys, domains'],
  [["keys", "frob"], 'mailroom: unknown command "keys frob"; keys takes create, list, revoke'],
  [["domains"], 'mailroom: "domains" needs one of add, providers, list, verify, remove'],
])(
  "an unknown command (%p) is one line naming it and what there is, exit 2, before any store is looked for",
  async (args, line) => {
    const { stderr, code } = await runNowhere(args);
    expect(code).toBe(2);
    expect(stderr).toStartWith(line);
    expect(stderr.trim().split("\n")).toHaveLength(1);
  },
);

test.each([[["version"]], [["--version"]]])("mailroom %p prints the version", async (args) => {
  const { stdout, code } = await runNowhere(args);
  expect(code).toBe(0);
  expect(stdout).toBe(`${JSON.parse(readFileSync(`${import.meta.dir}/../package.json`, "utf8")).version}\n`);
});

test("mailroom init prints the first test key once; the server started on that store prints none", async () => {
  const dir = tempDir("mailroom-e2e-init-");
  try {
    const initEnv = { MAILROOM_DATA_DIR: dir, MAILROOM_HTTP_PORT: "0", MAILROOM_DNS_SERVERS: "127.0.0.1:1" };
    const printed = await runCli(["init"], initEnv, true);
    expect(printed.match(/^ {2}mr_test_[0-9A-Za-z]{32}$/gm)).toHaveLength(1);
    expect(await runCli(["init"], initEnv, true)).not.toContain("mr_test_");
    const started = await startMailroom(
      { ...initEnv, MAILROOM_SMTP_SUBMISSION_PORT: "0", MAILROOM_SMTP_SMTPS_PORT: "0", MAILROOM_INBOUND_PORT: "0" },
      { binary: true },
    );
    try {
      expect(started.stdout()).toContain("mailroom ready");
      expect(started.stdout()).not.toContain("mr_test_");
    } finally {
      started.proc.kill("SIGTERM");
      await started.exited;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a first start that cannot listen keeps the first-run test key for the next start", async () => {
  const taken = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const dir = tempDir("mailroom-e2e-first-run-");
  try {
    const failed = Bun.spawn([`${import.meta.dir}/../dist/mailroom`, "serve"], {
      env: {
        ...env,
        MAILROOM_DATA_DIR: dir,
        MAILROOM_SMTP_SUBMISSION_PORT: String(taken.port),
        MAILROOM_SMTP_SMTPS_PORT: "0",
        MAILROOM_INBOUND_PORT: "0",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, code] = await Promise.all([new Response(failed.stdout).text(), failed.exited]);
    expect(code).not.toBe(0);
    expect(stdout).not.toContain("mr_test_");
    const started = await startMailroom({ ...env, MAILROOM_DATA_DIR: dir }, { binary: true });
    try {
      expect(started.stdout()).toMatch(/mr_test_[0-9A-Za-z]{32}/);
    } finally {
      started.proc.kill("SIGTERM");
      await started.exited;
    }
  } finally {
    taken.stop(true);
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a first run of the executable in an empty directory: every command it prints works as printed", async () => {
  const dir = tempDir("mailroom-e2e-first-run-");
  const ran = (command: string) => {
    const result = Bun.spawnSync(["sh", "-c", command], { cwd: dir, env: cleanEnv(), stdout: "pipe", stderr: "pipe" });
    expect({ command, code: result.exitCode, stderr: result.stderr.toString() }).toEqual({
      command,
      code: 0,
      stderr: expect.any(String),
    });
    return result.stdout.toString();
  };
  const server = await startMailroom(
    { MAILROOM_HTTP_PORT: "0", MAILROOM_DNS_SERVERS: "127.0.0.1:1" },
    { binary: true, cwd: dir, args: [] },
  );
  try {
    const out = server.stdout();
    const printed = (pattern: RegExp) => {
      const match = pattern.exec(out);
      expect(match, `${pattern} in:\n${out}`).not.toBeNull();
      return match![1]!;
    };
    // The store is made where the user stands, and the commands it prints run from there without any setup.
    expect(existsSync(join(dir, "data"))).toBe(true);
    expect(ran(`${printed(/no command given, so serving \((.+) lists the commands\)/)}`)).toContain("keys create");
    const testKey = printed(/^ {2}(mr_test_[0-9A-Za-z]{32})$/m);
    const live = ran(printed(/^Create a live key with: (.+)$/m));
    const liveKey = /mr_live_[0-9A-Za-z]{32}/.exec(live)![0];
    const admin = ran(
      printed(/^Admin UI: \S+ +\(sign in with email and password, or with an API key; a new one: (.+)\)$/m),
    );
    const adminKey = /mr_live_[0-9A-Za-z]{32}/.exec(admin)![0];

    const ui = await fetch(printed(/^Admin UI: (\S+)/m));
    expect(ui.status).toBe(200);
    expect(ui.headers.get("content-type")).toStartWith("text/html");
    expect((await fetch(printed(/^API docs: (\S+)$/m))).status).toBe(200);
    // No public address is configured here: the banner says that links by email (invitations, resets) are off.
    expect(
      printed(/^(Links by email are off) \(invitations, password resets\): set \[http\] public_url/m),
    ).toBeTruthy();
    const current = async (key: string) =>
      (await fetch(`${server.baseUrl}/v1/api-keys/current`, { headers: { authorization: `Bearer ${key}` } })).json();
    expect(await current(testKey)).toMatchObject({
      mode: "test",
      scopes: expect.arrayContaining(["emails:read", "api_keys:write"]),
    });
    expect(await current(liveKey)).toMatchObject({ mode: "live", scopes: ["emails:send"] });
    expect(await current(adminKey)).toMatchObject({
      mode: "live",
      scopes: expect.arrayContaining(["emails:read", "domains:write"]),
    });
  } finally {
    server.proc.kill("SIGTERM");
    await server.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);

test("a second server on a taken HTTP port is an error naming the port, not a second answerer", async () => {
  const taken = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  try {
    const proc = Bun.spawn([`${import.meta.dir}/../dist/mailroom`, "serve"], {
      env: {
        ...env,
        MAILROOM_HTTP_PORT: String(taken.port),
        MAILROOM_SMTP_SUBMISSION_PORT: "0",
        MAILROOM_SMTP_SMTPS_PORT: "0",
        MAILROOM_INBOUND_PORT: "0",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `mailroom: configuration: http.port: cannot listen on 127.0.0.1:${taken.port} (EADDRINUSE)`,
    );
    expect(stderr).not.toContain("    at ");
  } finally {
    taken.stop(true);
  }
});

test("the executable signs outgoing mail on its DKIM thread", async () => {
  const smtp = await startSmtpDouble();
  const dir = tempDir("mailroom-e2e-dkim-");
  const relayEnv = {
    ...env,
    MAILROOM_DATA_DIR: dir,
    MAILROOM_DELIVERY_DEFAULT_PROVIDER: "smtp",
    MAILROOM_SMARTHOST_HOST: "127.0.0.1",
    MAILROOM_SMARTHOST_PORT: String(smtp.port),
    MAILROOM_SMARTHOST_SECURITY: "none",
  };
  let relay: MailroomProcess | undefined;
  try {
    await runCli(["init"], relayEnv, true);
    await runCli(["domains", "add", "example.com", "--verified"], relayEnv, true);
    const { token: key } = JSON.parse(
      await runCli(["keys", "create", "--name", "dkim", "--scope", "full_access", "--json"], relayEnv, true),
    );
    relay = await startMailroom(relayEnv, { binary: true });
    const sent = await fetch(`${relay.baseUrl}/v1/emails`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        from: "e2e@example.com",
        to: "someone@dest.test",
        subject: "Signed",
        html: "<p>Signed</p>",
      }),
    });
    expect(sent.status).toBe(200);
    await smtp.waitFor(1);
    const message = smtp.received[0]!;
    expect(message.raw.toString()).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=example.com;/);
    expect(message.mailFrom).toMatch(/^bounces\+[0-9a-f]{32}-[a-z2-7]{16}@send\.example\.com$/);
    relay.proc.kill("SIGTERM");
    expect(await relay.exited).toBe(0);
    relay = undefined;
  } finally {
    relay?.proc.kill("SIGKILL");
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);
