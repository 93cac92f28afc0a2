/**
 * `npm run bench` (large store): Mailroom steady with BENCH_STORE_MESSAGES (default 1,000,000) messages stored.
 *   acceptance  durable HTTP sends at c=64 on the large store vs a fresh one, same run     [≥ 0.8× the empty store]
 *   look-up     GET /v1/emails/:id of random stored messages, 8 connections                  [p99 ≤ 5 ms]
 *   list        GET /v1/emails?limit=50, first pages and pages after random cursors, 8 conns.  [p99 ≤ 20 ms]
 *   search      the admin UI's filters on the same store: a recipient (one match), a status and a sender that
 *               match nothing (the whole store is searched), 8 connections                    [p99 ≤ 20 ms]
 * The store is built through the service (submitBatch, as the API's batch endpoint does) with the capture
 * provider delivering as it goes, so it holds what a busy installation holds: messages, contents, deliveries
 * and events. Building a million takes several minutes, so the store is kept in the temp directory and reused
 * while the schema version and size match (BENCH_STORE_REBUILD=1 forces a new one).
 */
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServices } from "../src/server/app.ts";
import { buildConfig } from "../src/config/load.ts";
import { MIGRATIONS } from "../src/db/migrations/index.ts";
import { parseSendRequest } from "../src/emails/validate.ts";
import { operatorActor } from "../src/access.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { runGets, runLoad } from "./bench/load.ts";
import { BENCH_BODY as BODY, benchServerEnv, buildThisBuild, cli, spawnUntilReady } from "./bench/process.ts";
import { ANY_QUEUED } from "./bench/queue.ts";
import { check, fmt, record } from "./bench/report.ts";

const MESSAGES = Number(process.env.BENCH_STORE_MESSAGES ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROOT = join(import.meta.dir, "..");
const BINARY = join(ROOT, "dist", "mailroom");
const SECRET = Buffer.alloc(32, 7).toString("base64");
const STORE_DIR = join(tmpdir(), `mailroom-bench-large-${MESSAGES}-v${MIGRATIONS.at(-1)!.version}`);
const BATCH = 100;
const env = benchServerEnv(SECRET);

async function buildLargeStore(): Promise<void> {
  const marker = join(STORE_DIR, "complete");
  if (existsSync(marker) && !process.env.BENCH_STORE_REBUILD) return;
  rmSync(STORE_DIR, { recursive: true, force: true });
  const started = performance.now();
  const config = buildConfig({}, {}, { "": { data_dir: STORE_DIR }, limits: { max_batch_size: BATCH } });
  const services = await createServices(config, { logger: silentLogger, secretKey: SECRET });
  const actor = operatorActor((await services.organizations.ensureDefault()).id);
  await services.domains.add(actor, "example.com", { verifiedOverride: true });
  services.worker.start();
  const template = JSON.parse(BODY);
  let next = 0;
  // A few batches in flight: composition runs on the CPU pool while the event loop validates and commits.
  const submitter = async () => {
    while (next < MESSAGES) {
      const first = next;
      next += BATCH;
      const inputs = Array.from({ length: Math.min(BATCH, MESSAGES - first) }, (_, i) => ({
        kind: "fields" as const,
        source: "api" as const,
        fields: parseSendRequest(
          {
            ...template,
            to: `user${first + i}@dest${(first + i) % 100}.test`,
            tags: [{ name: "batch", value: String(Math.floor((first + i) / 10_000)) }],
          },
          { now: Date.now(), maxRecipients: 50 },
        ),
      }));
      await services.emails.submitBatch(inputs, actor);
      if ((first / BATCH) % 1000 === 0 && first > 0)
        console.log(`    … ${fmt(first)} messages stored (${fmt((performance.now() - started) / 1000)} s)`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, submitter));
  const database = new Database(join(STORE_DIR, "mailroom.db"), { readonly: true });
  const queued = () => database.query<{ n: number }, []>(ANY_QUEUED).get()!.n;
  while (queued() > 0) await Bun.sleep(200);
  database.close();
  await services.worker.stop();
  await services.closeProviders();
  await services.store.close();
  writeFileSync(marker, new Date().toISOString());
  console.log(
    `    built a store of ${fmt(MESSAGES)} messages in ${fmt((performance.now() - started) / 1000)} s (kept in ${STORE_DIR})`,
  );
}

async function acceptanceOn(dataDir: string) {
  const withDir = { ...env, MAILROOM_DATA_DIR: dataDir };
  if (!existsSync(join(dataDir, "mailroom.db"))) {
    await cli(BINARY, withDir, ["init"]);
    await cli(BINARY, withDir, ["domains", "add", "example.com", "--verified"]);
  }
  const { token: key } = JSON.parse(
    await cli(BINARY, withDir, ["keys", "create", "--name", "bench", "--scope", "full_access", "--json"]),
  );
  const server = await spawnUntilReady([BINARY, "serve"], withDir, "mailroom ready");
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const url = `http://127.0.0.1:${server.port}/v1/emails`;
  await runLoad(url, headers, BODY, 64, 2);
  const load = await runLoad(url, headers, BODY, 64, SECONDS);
  return { load, server, key };
}

await buildThisBuild(ROOT);
console.log(`\nLarge store — ${fmt(MESSAGES)} messages, ${SECONDS}s acceptance at c=64`);
await buildLargeStore();

const emptyDir = mkdtempSync(join(tmpdir(), "mailroom-bench-empty-"));
const empty = await acceptanceOn(emptyDir);
empty.server.proc.kill("SIGTERM");
await empty.server.proc.exited;
rmSync(emptyDir, { recursive: true, force: true });

const large = await acceptanceOn(STORE_DIR);
const database = new Database(join(STORE_DIR, "mailroom.db"), { readonly: true });
// The look-ups start once the messages accepted under load are delivered, so they measure reading alone.
while (database.query<{ n: number }, []>(ANY_QUEUED).get()!.n > 0) await Bun.sleep(100);
const ids = database
  .query<{ id: string }, []>("SELECT id FROM emails ORDER BY random() LIMIT 2000")
  .all()
  .map((r) => r.id);
database.close();
const base = `http://127.0.0.1:${large.server.port}`;
const auth = { authorization: `Bearer ${large.key}` };
const lookup = await runGets(
  base,
  auth,
  ids.map((id) => `/v1/emails/${id}`),
  8,
  5,
);
const listPaths = ids
  .slice(0, 1000)
  .map((id, i) => (i % 4 === 0 ? "/v1/emails?limit=50" : `/v1/emails?limit=50&after=${id}`));
const list = await runGets(base, auth, listPaths, 8, 5);
const searchPaths = ids.slice(0, 300).flatMap((_, i) => {
  const n = Math.floor(Math.random() * MESSAGES);
  return [
    `/v1/emails?limit=20&to=user${n}%40dest${n % 100}.test`,
    `/v1/emails?limit=20&status=bounced`,
    `/v1/emails?limit=20&from=nobody${i}%40example.com`,
  ];
});
const search = await runGets(base, auth, searchPaths, 8, 5);
large.server.proc.kill("SIGTERM");
await large.server.proc.exited;

const ratio = large.load.requestsPerSecond / empty.load.requestsPerSecond;
console.log(
  `    acceptance  empty ${fmt(empty.load.requestsPerSecond)} msg/s, ${fmt(MESSAGES)} stored ${fmt(large.load.requestsPerSecond)} msg/s (p99 ${fmt(large.load.p99Ms, 1)} ms): ${fmt(ratio, 2)}×   [≥ 0.8×: ${check(ratio >= 0.8)}]`,
);
console.log(
  `    look-up     p50 ${fmt(lookup.p50Ms, 2)} ms, p99 ${fmt(lookup.p99Ms, 2)} ms (${fmt(lookup.requestsPerSecond)}/s, ${lookup.non2xx} failed, ${lookup.tool})   [p99 ≤ 5 ms: ${check(lookup.p99Ms <= 5)}]`,
);
console.log(
  `    list page   p50 ${fmt(list.p50Ms, 2)} ms, p99 ${fmt(list.p99Ms, 2)} ms (${fmt(list.requestsPerSecond)}/s, ${list.non2xx} failed, ${list.tool})   [p99 ≤ 20 ms: ${check(list.p99Ms <= 20)}]`,
);
record({
  measure: `acceptance with ${fmt(MESSAGES)} stored / empty store`,
  result: `${fmt(ratio, 2)}× (${fmt(large.load.requestsPerSecond)} vs ${fmt(empty.load.requestsPerSecond)} msg/s)`,
  target: "≥ 0.8×",
  met: ratio >= 0.8,
});
record({
  measure: `look-up, ${fmt(MESSAGES)} stored, 8 connections`,
  result: `p99 ${fmt(lookup.p99Ms, 2)} ms`,
  target: "p99 ≤ 5 ms",
  met: lookup.p99Ms <= 5,
});
record({
  measure: `list page of 50, ${fmt(MESSAGES)} stored, 8 connections`,
  result: `p99 ${fmt(list.p99Ms, 2)} ms`,
  target: "p99 ≤ 20 ms",
  met: list.p99Ms <= 20,
});
console.log(
  `    search      p50 ${fmt(search.p50Ms, 2)} ms, p99 ${fmt(search.p99Ms, 2)} ms (${fmt(search.requestsPerSecond)}/s, ${search.non2xx} failed, ${search.tool})   [p99 ≤ 20 ms: ${check(search.p99Ms <= 20)}]`,
);
record({
  measure: `search by recipient, status, sender, ${fmt(MESSAGES)} stored, 8 connections`,
  result: `p99 ${fmt(search.p99Ms, 2)} ms`,
  target: "p99 ≤ 20 ms",
  met: search.p99Ms <= 20,
});
