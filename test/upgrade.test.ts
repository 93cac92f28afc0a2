/**
 * Upgrades (issue 48, docs/operations.md#upgrades): a store written by the previous release (test/fixtures/upgrade,
 * made by scripts/upgrade-fixture.ts with that release's executable) is migrated when this release starts on it, and
 * everything it held is there afterwards — the key made then still signs in, the domain keeps its DKIM key (new mail
 * verifies against the record published before), the template, suppression, webhook endpoint and messages with
 * their content. On SQLite the data directory the old release left; on PostgreSQL its pg_dump, loaded into a schema
 * of the test server.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS } from "../src/db/migrations/index.ts";
import { urlInSchema } from "../src/db/postgres/adapter.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { createApp, type App } from "../src/server/app.ts";
import { tempDir, testConfig } from "./helpers/app.ts";
import { startDnsServer, type DnsServer } from "./helpers/dns-server.ts";
import { freshSchema, postgresUrl } from "./helpers/postgres.ts";
import { startSmtpDouble, type SmtpDouble } from "./helpers/smtp-double.ts";
import { apiAt, expectIntact, expectNewMailVerifies, type Api } from "./helpers/store-drill.ts";

const FIXTURES = join(import.meta.dir, "fixtures", "upgrade");
const fixture = JSON.parse(readFileSync(join(FIXTURES, "fixture.json"), "utf8"));
const postgres = process.env.MAILROOM_TEST_STORE === "postgres";
const made = postgres ? fixture.postgres : fixture.sqlite;

let dns: DnsServer;
let smarthost: SmtpDouble;
let app: App;
let api: Api;
let migrationsBefore: number[];
let migrationsAfter: number[];

/** Loads the fixture's dump into a new schema of the test server (its schema name replaced): the store's URL. */
function loadDump(): string {
  const schema = freshSchema("upgrade");
  const dump = readFileSync(join(FIXTURES, "postgres.sql"), "utf8").replaceAll(fixture.schema, schema);
  const loaded = Bun.spawnSync(["psql", "-q", "-v", "ON_ERROR_STOP=1", "-d", postgresUrl()], {
    stdin: Buffer.from(dump),
    stderr: "pipe",
    stdout: "ignore",
  });
  if (loaded.exitCode !== 0) throw new Error(`psql: ${loaded.stderr}`);
  return urlInSchema(postgresUrl(), schema);
}

/** The versions of the migrations the store has applied, read beside the app (psql, or Python's sqlite3). */
function appliedMigrations(dataDir: string, url: string): number[] {
  const schema = url && new URL(url).searchParams.get("options")!.split("=")[1];
  const query = `SELECT version FROM ${schema ? `${schema}.` : ""}schema_migrations ORDER BY version`;
  const proc = url
    ? Bun.spawnSync(["psql", "-tA", "-d", postgresUrl(), "-c", query])
    : Bun.spawnSync([
        "python3",
        "-c",
        `import sqlite3\nfor (v,) in sqlite3.connect("${join(dataDir, "mailroom.db")}").execute("${query}"): print(v)`,
      ]);
  return proc.stdout.toString().trim().split("\n").filter(Boolean).map(Number);
}

beforeAll(async () => {
  dns = await startDnsServer();
  smarthost = await startSmtpDouble();
  const dataDir = tempDir("mailroom-upgrade-");
  let url = "";
  if (postgres) url = loadDump();
  else
    for (const file of ["mailroom.db", "secret.key"]) copyFileSync(join(FIXTURES, "sqlite", file), join(dataDir, file));
  migrationsBefore = appliedMigrations(dataDir, url);
  const config = testConfig(dataDir, {
    store: { url },
    dns: { servers: dns.servers },
    delivery: { default_provider: "smtp" },
    smarthost: { host: "127.0.0.1", port: smarthost.port, security: "none" },
  });
  app = await createApp(config, { logger: silentLogger, ...(postgres && { secretKey: fixture.pgSecretKey }) });
  const http = (await app.start()).find((listener) => listener.name === "http")!;
  migrationsAfter = appliedMigrations(dataDir, url);
  api = apiAt(`http://127.0.0.1:${http.port}`, made.key);
});

afterAll(async () => {
  await app?.stop();
  await smarthost?.close();
  await dns?.close();
});

test(`the previous release's store (${fixture.version}) is migrated at start`, async () => {
  expect(migrationsBefore.length).toBeGreaterThan(0);
  expect(migrationsAfter).toEqual(MIGRATIONS.map((migration) => migration.version).sort((a, b) => a - b));
});

test("everything it held is there: key, domain and DKIM key, template, suppression, webhook, messages", async () => {
  await expectIntact(api, made);
});

test("new mail is signed with the domain's DKIM key from before and verifies", async () => {
  await expectNewMailVerifies(api, made.domain, dns, smarthost);
});
