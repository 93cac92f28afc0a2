/**
 * The backup and restore drill (issue 48, docs/operations.md#backup), with the built executable: a server runs and
 * sends; a backup is taken while it serves; it stops; the backup is restored into an empty data directory (a
 * non-empty one is refused); a server starts on it — and the key, the domain with its DKIM key, the template,
 * suppression, webhook, contacts (where the store has them) and messages are all there, and new mail is signed with
 * the same DKIM key and verifies (mailauth, against the record published before the backup).
 *
 * On SQLite that is `mailroom backup` and `mailroom restore`; on PostgreSQL both say to use pg_dump and psql, and
 * the drill does that: pg_dump of the store's schema, loaded by psql into a new one.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { urlInSchema } from "../src/db/postgres/adapter.ts";
import { tempDir } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { freshSchema, postgresUrl } from "./helpers/postgres.ts";
import {
  BINARY,
  cliKey,
  runCli,
  runCommand,
  smarthostEnv,
  startMailroom,
  type MailroomProcess,
} from "./helpers/process.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";
import { apiAt, expectIntact, expectNewMailVerifies, type Made } from "./helpers/store-drill.ts";

const postgres = process.env.MAILROOM_TEST_STORE === "postgres";
let dns: DnsServer;
let smarthost: SmtpDouble;
const dirs: string[] = [];
let server: MailroomProcess | undefined;
let before: Record<string, string>;
let key: string;
let made: Made;
let backupFile: string;
let after: Record<string, string>;

const dir = (prefix: string) => {
  const path = tempDir(prefix);
  dirs.push(path);
  return path;
};
const stop = async () => {
  server?.proc.kill("SIGTERM");
  await server?.exited;
  server = undefined;
};
const mailroom = (args: string[], env: Record<string, string>) => runCommand([BINARY, ...args], { env });

beforeAll(async () => {
  dns = await startDnsServer();
  smarthost = await startSmtpDouble();
  const schema = freshSchema("drill");
  before = {
    ...smarthostEnv(dir("mailroom-drill-"), smarthost.port),
    MAILROOM_DNS_SERVERS: dns.servers.join(","),
    ...(postgres && {
      MAILROOM_STORE_URL: urlInSchema(postgresUrl(), schema),
      MAILROOM_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
    }),
  };
  await runCli(["init"], before, true);
  key = await cliKey(before, "drill");
  await runCli(["domains", "add", "example.com", "--verified"], before, true);
  server = await startMailroom(before, { binary: true });
  const api = apiAt(server.baseUrl, key);
  const template = await api("POST", "/v1/templates", { name: "welcome", subject: "Hi {{name}}", html: "<p>Hi</p>" });
  await api("POST", "/v1/suppressions", { email: "gone@dest.test" });
  const webhook = await api("POST", "/v1/webhooks", {
    endpoint: "http://127.0.0.1:9/hooks",
    events: ["email.delivered"],
  });
  // Contacts exist once the audience API has landed (§15); the drill covers them when the store has them.
  const contact = await api("POST", "/v1/contacts", { email: "reader@dest.test" });
  const emails: string[] = [];
  for (const to of ["one@dest.test", "two@dest.test"]) {
    const sent = await api("POST", "/v1/emails", {
      from: "hello@example.com",
      to,
      subject: `Before: ${to}`,
      html: "<p>Kept</p>",
    });
    expect(sent.status).toBe(200);
    emails.push(sent.body.id);
  }
  await smarthost.waitFor(2, 15_000);
  const dkim = (await api("GET", "/v1/domains/example.com")).body.records.find(
    (r: { record: string }) => r.record === "DKIM",
  ).value;
  made = {
    domain: "example.com",
    template: template.body.id,
    webhook: webhook.body.id,
    emails,
    dkim,
    ...(contact.status === 200 && { contacts: ["reader@dest.test"] }),
  };
  expect([template.status, webhook.status]).toEqual([200, 200]);

  // The backup, taken while the server serves.
  backupFile = join(dir("mailroom-backups-"), "mailroom-backup.db");
  const backup = await mailroom(["backup", backupFile], before);
  if (postgres) {
    expect(backup.code).not.toBe(0);
    expect(backup.stderr).toContain("pg_dump");
    const dump = Bun.spawnSync(["pg_dump", "--no-owner", "--no-privileges", "-n", schema, postgresUrl()], {
      stderr: "pipe",
    });
    expect(dump.exitCode).toBe(0);
    await Bun.write(backupFile, dump.stdout);
  } else expect(backup.code, backup.stderr).toBe(0);
  await stop();

  const restored = freshSchema("restored");
  after = {
    ...before,
    MAILROOM_DATA_DIR: join(dir("mailroom-restored-"), "data"),
    ...(postgres && { MAILROOM_STORE_URL: urlInSchema(postgresUrl(), restored) }),
  };
  if (postgres) {
    const restore = await mailroom(["restore", backupFile], after);
    expect(restore.code).not.toBe(0);
    expect(restore.stderr).toContain("psql");
    const sql = (await Bun.file(backupFile).text()).replaceAll(schema, restored);
    const loaded = Bun.spawnSync(["psql", "-q", "-v", "ON_ERROR_STOP=1", "-d", postgresUrl()], {
      stdin: Buffer.from(sql),
      stderr: "pipe",
      stdout: "ignore",
    });
    expect(loaded.exitCode, loaded.stderr.toString()).toBe(0);
  }
});

afterAll(async () => {
  await stop();
  await smarthost?.close();
  await dns?.close();
  for (const path of dirs) rmSync(path, { recursive: true, force: true });
});

test.skipIf(postgres)("restore refuses a data directory that holds anything", async () => {
  const refused = await mailroom(["restore", backupFile], before);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain("is not empty");
});

test.skipIf(postgres)("restore refuses a file that is not a Mailroom database, writing nothing", async () => {
  const bogus = join(dir("mailroom-bogus-"), "not-a-backup.db");
  await Bun.write(bogus, "hello");
  const refused = await mailroom(["restore", bogus], after);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain("not a SQLite database");
  expect(existsSync(after.MAILROOM_DATA_DIR!) && readdirSync(after.MAILROOM_DATA_DIR!).length).toBeFalsy();
});

test.skipIf(postgres)("restore puts the backup and its master key into an empty data directory", async () => {
  const restored = await mailroom(["restore", backupFile], after);
  expect(restored.code, restored.stderr).toBe(0);
  expect(restored.stdout).toContain("1 domains");
  expect(readdirSync(after.MAILROOM_DATA_DIR!).sort()).toEqual(expect.arrayContaining(["mailroom.db", "secret.key"]));
});

test("a server started on the restored store has everything, and new mail signs and verifies", async () => {
  server = await startMailroom(after, { binary: true });
  const api = apiAt(server.baseUrl, key);
  await expectIntact(api, made);
  await expectNewMailVerifies(api, made.domain, dns, smarthost);
});
