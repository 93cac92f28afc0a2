/**
 * Makes the upgrade fixtures of test/upgrade.test.ts (docs/operations.md#upgrades) with the executable of the
 * previous release: a SQLite data directory (database and master key) and a pg_dump of a PostgreSQL store, each
 * holding a key, a domain with its DKIM key, a template, a suppression, a webhook endpoint and sent messages, and
 * `fixture.json` naming them. Run once per release, from a build of that release:
 *
 *   git worktree add /tmp/rel-prev <release commit> && ln -s "$PWD/node_modules" /tmp/rel-prev/node_modules
 *   (cd /tmp/rel-prev && npx bun scripts/build.ts)
 *   MAILROOM_TEST_PG_URL=$(scripts/test-postgres.sh) npx bun scripts/upgrade-fixture.ts /tmp/rel-prev/dist/mailroom
 *   git worktree remove /tmp/rel-prev
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [binary] = Bun.argv.slice(2);
const pgUrl = process.env.MAILROOM_TEST_PG_URL;
if (!binary || !pgUrl) throw new Error("usage: MAILROOM_TEST_PG_URL=… bun scripts/upgrade-fixture.ts OLD_BINARY");
const OUT = join(import.meta.dir, "..", "test", "fixtures", "upgrade");
/** The schema the PostgreSQL fixture lives in: a name no data contains, so the test can move it to a schema of its own. */
export const FIXTURE_SCHEMA = "mailroom_upgrade_fixture";
/** The master key of the PostgreSQL fixture (a test value: it opens only the fixture's DKIM key). */
const PG_SECRET_KEY = "6d61696c726f6f6d2d757067726164652d666978747572652d6b65792d303031";

const clean = () =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("MAILROOM_"))) as Record<
    string,
    string
  >;

async function run(env: Record<string, string>, ...args: string[]) {
  const proc = Bun.spawn([binary!, ...args], { env: { ...clean(), ...env }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`${args.join(" ")} exited ${code}: ${err}`);
  return out;
}

/** Fills a store through the old release's own CLI and API; answers what the test looks for after the upgrade. */
async function fill(env: Record<string, string>) {
  await run(env, "init");
  const key = JSON.parse(await run(env, "keys", "create", "--name", "upgrade", "--scope", "full_access", "--json"))
    .token as string;
  await run(env, "domains", "add", "example.com", "--verified");
  const ports = { MAILROOM_HTTP_PORT: "0", MAILROOM_SMTP_SUBMISSION_PORT: "0", MAILROOM_SMTP_SMTPS_PORT: "0" };
  const server = Bun.spawn([binary!, "serve"], {
    env: {
      ...clean(),
      ...env,
      ...ports,
      MAILROOM_INBOUND_PORT: "0",
      MAILROOM_DNS_SERVERS: "127.0.0.1:1",
      MAILROOM_WEBHOOKS_ALLOW_PRIVATE_NETWORKS: "true",
    },
    stdout: "pipe",
    stderr: "ignore",
  });
  let seen = "";
  for await (const chunk of server.stdout as ReadableStream<Uint8Array>) {
    seen += new TextDecoder().decode(chunk);
    if (seen.includes("mailroom ready")) break;
  }
  const port = /http=[^\s]*:(\d+)/.exec(seen)?.[1];
  try {
    return await fillOver(port!, key);
  } finally {
    server.kill("SIGTERM");
    await server.exited;
  }
}

async function fillOver(port: string, key: string) {
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const template = await api("POST", "/v1/templates", {
    name: "welcome",
    subject: "Welcome, {{name}}",
    html: "<p>Hello {{name}}</p>",
  });
  await api("POST", "/v1/suppressions", { email: "gone@dest.test", reason: "upgrade fixture" });
  const webhook = await api("POST", "/v1/webhooks", {
    endpoint: "http://127.0.0.1:9/mailroom",
    events: ["email.delivered"],
  });
  const emails: string[] = [];
  for (const to of ["one@dest.test", "two@dest.test"])
    emails.push(
      (
        await api("POST", "/v1/emails", {
          from: "hello@example.com",
          to,
          subject: `Before the upgrade: ${to}`,
          html: "<p>Kept</p>",
        })
      ).id as string,
    );
  // The capture provider takes them: wait until neither is queued any more.
  for (let i = 0; i < 100; i++) {
    const statuses = await Promise.all(
      emails.map(async (id) => ((await api("GET", `/v1/emails/${id}`)).last_event as string) ?? ""),
    );
    if (statuses.every((status) => status !== "queued")) break;
    await Bun.sleep(100);
  }
  return { key, domain: "example.com", template: template.id, webhook: webhook.id, emails };
}

const sqliteDir = mkdtempSync(join(tmpdir(), "mailroom-upgrade-"));
const sqlite = await fill({ MAILROOM_DATA_DIR: sqliteDir });
mkdirSync(join(OUT, "sqlite"), { recursive: true });
for (const file of ["mailroom.db", "secret.key"]) copyFileSync(join(sqliteDir, file), join(OUT, "sqlite", file));

const url = new URL(pgUrl);
url.searchParams.set("options", `-c search_path=${FIXTURE_SCHEMA}`);
const pgDir = mkdtempSync(join(tmpdir(), "mailroom-upgrade-pg-"));
const postgres = await fill({
  MAILROOM_DATA_DIR: pgDir,
  MAILROOM_STORE_URL: url.href,
  MAILROOM_SECRET_KEY: PG_SECRET_KEY,
});
const dump = Bun.spawnSync(["pg_dump", "--no-owner", "--no-privileges", "-n", FIXTURE_SCHEMA, pgUrl], {
  stderr: "pipe",
});
if (dump.exitCode !== 0) throw new Error(`pg_dump: ${dump.stderr}`);
writeFileSync(join(OUT, "postgres.sql"), dump.stdout);

const version = (await run({}, "--version")).trim();
writeFileSync(
  join(OUT, "fixture.json"),
  `${JSON.stringify({ version, schema: FIXTURE_SCHEMA, pgSecretKey: PG_SECRET_KEY, sqlite, postgres }, null, 2)}\n`,
);
console.log(`fixtures of ${version} written to ${OUT}`);
