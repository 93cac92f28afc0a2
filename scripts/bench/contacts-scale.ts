/**
 * The scale rows of scripts/bench-contacts.ts (docs/contacts.md#scale): one organisation with BENCH_SCALE_CONTACTS
 * (default 1,000,000) contacts, a tenth of whom left a topic, seeded in bulk through the store; then, in process
 * through the services the routes call, BENCH_SCALE_QUERIES (default 2,000) each of: the first page of contacts,
 * a deep page (after a random contact's id), a look-up by address, and the topic check a send makes (one contact
 * and one address that is none). On SQLite, and on PostgreSQL when one is at hand. Target: p99 under 20 ms each.
 */
import { sql } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { operatorActor } from "../../src/access.ts";
import { buildConfig } from "../../src/config/load.ts";
import { insertTopic } from "../../src/contacts/audience-repo.ts";
import { urlInSchema } from "../../src/db/postgres/adapter.ts";
import { tablesOf } from "../../src/db/store.ts";
import { newId } from "../../src/lib/ids.ts";
import { silentLogger } from "../../src/lib/logger.ts";
import { createServices } from "../../src/server/app.ts";
import { check, fmt, record } from "./report.ts";

const CONTACTS = Number(process.env.BENCH_SCALE_CONTACTS ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_SCALE_QUERIES ?? 2_000);
const TARGET_MS = 20;
const SEED_BATCH = 1_000;
const SECRET = Buffer.alloc(32, 10).toString("base64");

const address = (i: number) => `member${i}@scale${i % 101}.test`;

function postgresUrl(root: string): string | undefined {
  if (process.env.BENCH_PG_URL === "off") return undefined;
  const given = process.env.BENCH_PG_URL ?? process.env.MAILROOM_TEST_PG_URL;
  if (given) return given;
  const started = Bun.spawnSync([join(root, "scripts", "test-postgres.sh")], { stdout: "pipe", stderr: "ignore" });
  return started.exitCode === 0 ? started.stdout.toString().trim() : undefined;
}

async function timed(label: string, run: (i: number) => Promise<unknown>) {
  for (let i = 0; i < Math.min(200, QUERIES); i++) await run(i); // warm-up: prepared statements, caches
  const took: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const started = performance.now();
    await run(i);
    took.push(performance.now() - started);
  }
  took.sort((a, b) => a - b);
  const at = (p: number) => took[Math.min(took.length - 1, Math.floor(took.length * p))]!;
  return { label, p50: at(0.5), p99: at(0.99), max: took.at(-1)! };
}

async function onEngine(engine: "SQLite" | "PostgreSQL", storeUrl?: string) {
  const dataDir = mkdtempSync(join(tmpdir(), "mailroom-bench-scale-"));
  const schema = `bench_contacts_${newId().replace(/-/g, "")}`;
  const config = buildConfig(
    {},
    {},
    { "": { data_dir: dataDir }, ...(storeUrl && { store: { url: urlInSchema(storeUrl, schema) } }) },
  );
  const services = await createServices(config, { logger: silentLogger, secretKey: SECRET });
  const org = await services.organizations.ensureDefault();
  const actor = operatorActor(org.id);
  const topicId = newId();
  const at = new Date().toISOString();
  await services.writer.write((tx) =>
    insertTopic(tx, {
      id: topicId,
      organizationId: org.id,
      name: "Newsletter",
      description: null,
      defaultSubscription: "opt_in",
      visibility: "public",
      createdAt: at,
      updatedAt: at,
    }),
  );
  // Every thousandth id, for cursors spread over the whole list.
  const cursors: string[] = [];
  const seeded = performance.now();
  for (let start = 0; start < CONTACTS; start += SEED_BATCH) {
    await services.writer.write(async (tx) => {
      const { contacts, contactTopics } = tablesOf(tx);
      const rows = Array.from({ length: Math.min(SEED_BATCH, CONTACTS - start) }, (_, k) => ({
        id: newId(),
        organizationId: org.id,
        email: address(start + k),
        firstName: `First${start + k}`,
        lastName: null,
        unsubscribed: (start + k) % 50 === 0,
        properties: {},
        createdAt: at,
        updatedAt: at,
      }));
      cursors.push(rows[0]!.id);
      await tx.insert(contacts).values(rows);
      const left = rows.filter((_, k) => (start + k) % 10 === 0);
      await tx
        .insert(contactTopics)
        .values(left.map((row) => ({ contactId: row.id, topicId, subscription: "opt_out" as const, updatedAt: at })));
    });
    if (start > 0 && start % 200_000 === 0) console.log(`    … ${engine}: ${fmt(start)} contacts`);
  }
  // What autovacuum (PostgreSQL) and the optimizer's statistics would hold after a bulk load.
  await services.store.query(sql.raw(engine === "SQLite" ? "ANALYZE" : "ANALYZE contacts, contact_topics"));
  console.log(`(cs) ${engine}: ${fmt(CONTACTS)} contacts seeded in ${fmt((performance.now() - seeded) / 1000, 1)} s`);

  // A fixed pseudo-random walk over the contacts, the same on both engines.
  const pick = (i: number) => (i * 7919 + 13) % CONTACTS;
  const results = [
    await timed("first page (100)", () => services.contacts.list(actor, { limit: 100 })),
    await timed("deep page (100, after a random id)", (i) =>
      services.contacts.list(actor, { limit: 100, after: cursors[pick(i) % cursors.length]! }),
    ),
    await timed("look-up by address", (i) => services.contacts.get(actor, address(pick(i)))),
    await timed("topic check at send (2 recipients)", (i) =>
      services.contacts.subscribedTo(org.id, topicId, [address(pick(i)), `stranger${i}@elsewhere.test`]),
    ),
  ];
  // The check itself, not only its speed: the walk's contacts and strangers are told apart as the rules say.
  const sample = await services.contacts.subscribedTo(org.id, topicId, [address(10), address(11), "x@none.test"]);
  if (sample.has(address(10)) || !sample.has(address(11)) || !sample.has("x@none.test"))
    throw new Error(`the topic check answered wrongly: ${[...sample].join(", ")}`);
  for (const r of results) {
    console.log(
      `(cs) ${engine.padEnd(10)} ${r.label.padEnd(36)} p50 ${fmt(r.p50, 2).padStart(6)} ms  p99 ${fmt(r.p99, 2).padStart(6)} ms  max ${fmt(r.max, 1).padStart(6)} ms   [p99 < ${TARGET_MS} ms: ${check(r.p99 < TARGET_MS)}]`,
    );
  }
  record({
    measure: `${fmt(CONTACTS)} contacts, ${engine}: first page / deep page / by address / topic check at send (p99)`,
    result: `${results.map((r) => `${fmt(r.p99, 2)}`).join(" / ")} ms`,
    target: `each < ${TARGET_MS} ms`,
    met: results.every((r) => r.p99 < TARGET_MS),
  });
  if (engine === "PostgreSQL") await services.store.query(sql.raw(`DROP SCHEMA ${schema} CASCADE`));
  await services.closeProviders();
  await services.store.close();
  rmSync(dataDir, { recursive: true, force: true });
}

export async function measureScale(root: string): Promise<void> {
  await onEngine("SQLite");
  const pg = postgresUrl(root);
  if (pg) await onEngine("PostgreSQL", pg);
  else console.log("(cs) PostgreSQL: skipped (no BENCH_PG_URL and scripts/test-postgres.sh could not start one)");
}
