/**
 * Crash drill for broadcasts (issue 44, docs/broadcasts.md#exactly-once), on the suite's engine: the built executable
 * is killed with SIGKILL while it fans out a broadcast to BROADCAST_DRILL_CONTACTS contacts (default 100,000, seeded
 * straight into the store), then started again on the same store. The guarantee under test: when the broadcast is
 * sent, every eligible contact (not unsubscribed, not suppressed) has exactly one message, and no one else has any.
 * The broadcast lane is paused throughout, so the drill measures the fan-out rather than deliveries.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import { seedAudience } from "../scripts/bench/audience.ts";
import { buildConfig } from "../src/config/load.ts";
import { openStore } from "../src/db/open.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { tempDir, testStoreUrl } from "./helpers/app.ts";
import { runCli, startMailroom, type MailroomProcess } from "./helpers/process.ts";

const CONTACTS = Number(process.env.BROADCAST_DRILL_CONTACTS ?? 100_000);
const dataDir = tempDir("mailroom-broadcast-crash-");
const storeUrl = testStoreUrl();
const env: Record<string, string> = {
  MAILROOM_DATA_DIR: dataDir,
  MAILROOM_HTTP_PORT: "0",
  MAILROOM_DNS_SERVERS: "127.0.0.1:1",
  MAILROOM_DELIVERY_DEFAULT_PROVIDER: "capture",
  // The drill polls the broadcast's progress.
  MAILROOM_LIMITS_KEY_REQUESTS_PER_MINUTE: "1000000",
  MAILROOM_LIMITS_ORG_REQUESTS_PER_MINUTE: "1000000",
  MAILROOM_SECRET_KEY: Buffer.alloc(32, 9).toString("base64"),
  ...(storeUrl && { MAILROOM_STORE_URL: storeUrl }),
};
let server: MailroomProcess | undefined;
let key = "";

const openOwnStore = () =>
  openStore(buildConfig({}, {}, { "": { data_dir: dataDir }, store: { url: storeUrl } }), silentLogger);

beforeAll(async () => {
  await runCli(["init"], env, true);
  await runCli(["domains", "add", "news.example", "--verified"], env, true);
  key = JSON.parse(
    await runCli(["keys", "create", "--name", "drill", "--scope", "full_access", "--json"], env, true),
  ).token;
}, 60_000);

afterAll(async () => {
  server?.proc.kill("SIGKILL");
  await server?.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the executable; a store the seeding just closed may still be locked for a moment (SQLITE_BUSY at start). */
const start = async (): Promise<MailroomProcess> => {
  for (let tries = 1; ; tries++) {
    try {
      return await startMailroom(env, { binary: true, timeoutMs: 30_000 });
    } catch (error) {
      if (tries >= 5 || !String(error).includes("database is locked")) throw error;
      await Bun.sleep(1_000);
    }
  }
};

const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server!.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
};

test(`SIGKILL during the fan-out of ${CONTACTS.toLocaleString("en-US")} contacts, then a restart: exactly one message per eligible contact`, async () => {
  const store = await openOwnStore();
  const [organization] = await store.query<{ id: string }>(sql`SELECT id FROM organizations`);
  const seededAt = performance.now();
  const { segmentId, eligible } = await seedAudience(store, organization!.id, CONTACTS, {
    unsubscribedEvery: 25,
    suppressedEvery: 40,
  });
  console.log(`seeded ${CONTACTS} contacts in ${Math.round(performance.now() - seededAt)} ms; ${eligible} eligible`);
  await store.close();

  server = await start();
  expect((await call("POST", "/v1/sending/pause", { scope: "lane", name: "broadcast" })).status).toBe(200);
  const created = await call("POST", "/v1/broadcasts", {
    name: "Drill",
    segment_id: segmentId,
    from: "News <news@news.example>",
    subject: "Hello {{{FIRST_NAME|reader}}}",
    html: "<p>Hi {{{FIRST_NAME|there}}}</p>",
    send: true,
  });
  expect(created.status).toBe(200);
  const id = created.body.id as string;
  const progress = async () => (await call("GET", `/v1/broadcasts/${id}`)).body;

  // Killed once some batches are in and more are on their way.
  const killAt = Math.min(20_000, Math.floor(eligible / 4));
  const started = performance.now();
  for (let b = await progress(); b.counts.messages < killAt; b = await progress()) {
    expect(b.status).toBe("queued");
    await Bun.sleep(100);
  }
  server.proc.kill("SIGKILL");
  await server.exited;
  const before = await progress().catch(() => undefined);
  expect(before).toBeUndefined();

  server = await start();
  let last = await progress();
  while (last.status === "queued") {
    await Bun.sleep(250);
    last = await progress();
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(`fan-out with a SIGKILL and a restart: ${last.counts.messages} messages in ${seconds.toFixed(1)} s`);
  expect(last.status).toBe("sent");
  expect(last.counts.contacts_reached).toBe(CONTACTS);
  server.proc.kill("SIGTERM");
  await server.exited;
  server = undefined;

  const check = await openOwnStore();
  try {
    const [made] = await check.query<{ messages: number; contacts: number }>(
      sql`SELECT count(*) AS messages, count(DISTINCT contact_id) AS contacts FROM emails WHERE broadcast_id = ${id}`,
    );
    expect(Number(made!.messages)).toBe(eligible);
    expect(Number(made!.contacts)).toBe(eligible);
    // Each to its own contact, and only to contacts who may receive it.
    const [strays] = await check.query<{ n: number }>(sql`
        SELECT count(*) AS n FROM emails e
        LEFT JOIN contacts c ON c.id = e.contact_id
        LEFT JOIN suppressions s ON s.organization_id = c.organization_id AND s.email = c.email
        WHERE e.broadcast_id = ${id}
          AND (c.id IS NULL OR c.unsubscribed = ${storeUrl ? sql`true` : sql`1`} OR s.email IS NOT NULL
               OR ${storeUrl ? sql`e.to_addresses::text` : sql`e.to_addresses`} NOT LIKE ${sql`'%' || c.email || '%'`})`);
    expect(Number(strays!.n)).toBe(0);
    const [recipients] = await check.query<{ n: number }>(
      sql`SELECT count(*) AS n FROM deliveries d JOIN emails e ON e.id = d.email_id WHERE e.broadcast_id = ${id}`,
    );
    expect(Number(recipients!.n)).toBe(eligible);
  } finally {
    await check.close();
  }
  // 100,000 contacts take a minute or two on an idle 2-core machine; far longer when it is shared.
}, 1_800_000);
