/**
 * `npm run bench` (retention): what a run of the retention job costs the server it runs in (docs/operations.md: "no pause
 * in sending or look-ups above 50 ms"). A SQLite store of BENCH_RETENTION_MESSAGES (default 30,000) delivered
 * messages is built 40 days in the past (an injected clock), then content retention removes the content of all of
 * them, and, 400 days later, metadata retention removes them whole, while the same event loop serves look-ups:
 *   stall     the longest the event loop was held (a 1 ms timer's longest gap)                 [≤ 50 ms]
 *   look-up   services.emails.get of random stored messages, one after another, during the run  [max ≤ 50 ms]
 *   rate      messages per second each pass removes (for the record)
 * SQLite is the case to measure: its writes run on the event loop; PostgreSQL's run in the database server.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { operatorActor } from "../src/access.ts";
import { buildConfig } from "../src/config/load.ts";
import { parseSendRequest } from "../src/emails/validate.ts";
import { ManualClock } from "../src/lib/clock.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { createServices } from "../src/server/app.ts";
import { BENCH_BODY as BODY } from "./bench/process.ts";
import { check, fmt, record } from "./bench/report.ts";

const MESSAGES = Number(process.env.BENCH_RETENTION_MESSAGES ?? 30_000);
const BATCH = 100;
const DAY = 86_400_000;
const BAR_MS = 50;

const dataDir = mkdtempSync(join(tmpdir(), "mailroom-bench-retention-"));
const clock = new ManualClock(Date.now() - 40 * DAY);
const config = buildConfig({}, {}, { "": { data_dir: dataDir }, limits: { max_batch_size: BATCH } });
const services = await createServices(config, {
  logger: silentLogger,
  clock,
  secretKey: Buffer.alloc(32, 9).toString("base64"),
});
const actor = operatorActor((await services.organizations.ensureDefault()).id);
await services.domains.add(actor, "example.com", { verifiedOverride: true });

console.log(`\nRetention — ${fmt(MESSAGES)} delivered messages, SQLite`);
const template = JSON.parse(BODY);
const ids: string[] = [];
for (let first = 0; first < MESSAGES; first += BATCH) {
  const inputs = Array.from({ length: Math.min(BATCH, MESSAGES - first) }, (_, i) => ({
    kind: "fields" as const,
    source: "api" as const,
    fields: parseSendRequest(
      { ...template, to: `user${first + i}@dest.test` },
      { now: clock.now(), maxRecipients: 50 },
    ),
  }));
  ids.push(...(await services.emails.submitBatch(inputs, actor)).data.map((row) => row.id));
  await services.worker.runOnce();
}
while ((await services.worker.runOnce()) > 0);

/** Runs one retention pass while measuring the event loop's longest stall and look-ups' latencies. */
async function measured(pass: string, days: number) {
  clock.set(clock.now() + days * DAY);
  let stall = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 1);
  let running = true;
  const latencies: number[] = [];
  const lookups = (async () => {
    while (running) {
      const started = performance.now();
      await services.emails.get(actor, ids[Math.floor(Math.random() * ids.length)]!).catch(() => undefined);
      latencies.push(performance.now() - started);
      await Bun.sleep(1);
    }
  })();
  const started = performance.now();
  const run = await services.retention.runOnce();
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await lookups;
  clearInterval(timer);
  latencies.sort((a, b) => a - b);
  const slowest = latencies.at(-1) ?? 0;
  const removed = pass === "content" ? run.contentRemoved : run.messagesRemoved;
  console.log(
    `    ${pass.padEnd(8)} ${fmt(removed)} messages in ${fmt(seconds, 1)} s (${fmt(removed / seconds)}/s); longest stall ${fmt(stall, 1)} ms; look-ups p99 ${fmt(latencies[Math.floor(latencies.length * 0.99)] ?? 0, 2)} ms, max ${fmt(slowest, 1)} ms (${fmt(latencies.length)})   [≤ ${BAR_MS} ms: ${check(stall <= BAR_MS && slowest <= BAR_MS)}]`,
  );
  record({
    measure: `retention (${pass}) of ${fmt(MESSAGES)} messages: longest event-loop stall, slowest look-up`,
    result: `${fmt(stall, 1)} ms, ${fmt(slowest, 1)} ms (${fmt(removed / seconds)} msg/s)`,
    target: `≤ ${BAR_MS} ms`,
    met: stall <= BAR_MS && slowest <= BAR_MS,
  });
}

await measured("content", 31);
await measured("metadata", 401);
await services.closeProviders();
await services.store.close();
rmSync(dataDir, { recursive: true, force: true });
