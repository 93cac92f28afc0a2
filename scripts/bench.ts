/**
 * `npm run bench`: the foundation's benchmarks (issue targets in brackets).
 *   (a) durable HTTP send acceptance at c=64 vs a naive insert-per-request baseline   [≥ 3× baseline, p99 ≤ 15 ms]
 *   (b) delivery throughput from the queue to a local SMTP sink (Postfix smtp-sink)    [≥ 5,000 msg/s]
 *   (c) cold start to the ready line, idle RSS, RSS under (a)                          [≤ 80 ms, ≤ 80 MiB, ≤ 250 MiB]
 * BENCH_SECONDS (default 10) sets the load duration; BENCH_MESSAGES (default 20000) the size of (b).
 */
import { sql, type SQL } from "drizzle-orm";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServices } from "../src/app.ts";
import { buildConfig } from "../src/config/load.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { runLoad } from "./bench/load.ts";
import { cli, spawnUntilReady } from "./bench/process.ts";
import { queueMessages } from "./bench/queue.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const ROOT = join(import.meta.dir, "..");
const BINARY = join(ROOT, "dist", "mailroom");
const BODY = JSON.stringify({ from: "Bench <bench@example.com>", to: ["someone@dest.test"], subject: "Benchmark", html: "<p>Hello from the benchmark</p>" });

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024;
const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
const fmt = (n: number, digits = 1) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function acceptance() {
  const dataDir = tmp("mailroom-bench-a-");
  const env = {
    MAILROOM_DATA_DIR: dataDir,
    MAILROOM_HTTP_PORT: "0",
    MAILROOM_LIMITS_KEY_REQUESTS_PER_MINUTE: "10000000",
    MAILROOM_LIMITS_ORG_REQUESTS_PER_MINUTE: "10000000",
    MAILROOM_LOG_LEVEL: "warn",
    MAILROOM_SECRET_KEY: Buffer.alloc(32, 1).toString("base64"),
    // Ephemeral ports: the benchmark must not need root or collide with a mail server on this machine.
    MAILROOM_SMTP_SUBMISSION_PORT: "0",
    MAILROOM_SMTP_SMTPS_PORT: "0",
  };
  await cli(BINARY, env, ["domains", "add", "example.com", "--verified"]);
  const { key } = JSON.parse(await cli(BINARY, env, ["keys", "create", "--name", "bench", "--scope", "full_access", "--json"]));

  const coldStarts: number[] = [];
  for (let i = 0; i < 7; i++) {
    const run = await spawnUntilReady([BINARY, "serve"], env, "mailroom ready");
    coldStarts.push(run.readyMs);
    run.proc.kill("SIGTERM");
    await run.proc.exited;
  }
  coldStarts.sort((a, b) => a - b);

  const server = await spawnUntilReady([BINARY, "serve"], env, "mailroom ready");
  await Bun.sleep(1000);
  const idleRss = rssMiB(server.proc.pid);
  let peakRss = idleRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMiB(server.proc.pid))), 100);
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const url = `http://127.0.0.1:${server.port}/v1/emails`;
  await runLoad(url, headers, BODY, 64, 2); // warm-up
  const mailroom = await runLoad(url, headers, BODY, 64, SECONDS);
  clearInterval(sampler);
  server.proc.kill("SIGTERM");
  await server.proc.exited;

  const baselineDir = tmp("mailroom-bench-base-");
  const baseline = await spawnUntilReady([process.execPath, join(ROOT, "scripts/bench/baseline-server.ts"), join(baselineDir, "baseline.db")], {}, "baseline ready");
  await runLoad(`http://127.0.0.1:${baseline.port}/v1/emails`, headers, BODY, 64, 2);
  const naive = await runLoad(`http://127.0.0.1:${baseline.port}/v1/emails`, headers, BODY, 64, SECONDS);
  baseline.proc.kill("SIGTERM");
  await baseline.proc.exited;
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(baselineDir, { recursive: true, force: true });
  return { mailroom, naive, coldStartMs: coldStarts[Math.floor(coldStarts.length / 2)]!, idleRss, peakRss };
}

async function freePort(): Promise<number> {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

async function deliveryThroughput() {
  if (!Bun.which("smtp-sink")) return undefined;
  const port = await freePort();
  const sink = Bun.spawn(["smtp-sink", "-u", "nobody", "-c", `127.0.0.1:${port}`, "1024"], { stdout: "ignore", stderr: "ignore" });
  await Bun.sleep(300);
  const dataDir = tmp("mailroom-bench-b-");
  const config = buildConfig({}, {}, {
    "": { data_dir: dataDir },
    delivery: { provider: "smtp", concurrency: 128, per_destination_concurrency: 128 },
    smarthost: { host: "127.0.0.1", port, security: "none", pool_size: 32 },
    limits: { max_batch_size: 1000 },
  });
  const services = await createServices(config, { logger: silentLogger, secretKey: Buffer.alloc(32, 2).toString("base64") });
  await queueMessages(services, BODY, MESSAGES);
  const count = async (statement: SQL) => (await services.store.query<{ n: number }>(statement))[0]!.n;
  const remaining = () => count(sql`SELECT CAST(count(*) AS INTEGER) AS n FROM deliveries WHERE status = 'queued'`);
  const started = performance.now();
  services.worker.start();
  while ((await remaining()) > 0) await Bun.sleep(20);
  const seconds = (performance.now() - started) / 1000;
  const failed = await count(sql`SELECT CAST(count(*) AS INTEGER) AS n FROM deliveries WHERE status <> 'sent'`);
  await services.worker.stop();
  await services.closeProviders();
  await services.store.close();
  sink.kill();
  rmSync(dataDir, { recursive: true, force: true });
  return { perSecond: MESSAGES / seconds, seconds, failed };
}

if (!existsSync(BINARY)) {
  console.log("building dist/mailroom …");
  await Bun.$`${process.execPath} ${join(ROOT, "scripts/build.ts")}`.quiet();
}
console.log(`Mailroom benchmarks — ${new Date().toISOString()} — ${navigator.hardwareConcurrency} cores, Bun ${Bun.version}, ${SECONDS}s per load run\n`);

const a = await acceptance();
const ratio = a.mailroom.requestsPerSecond / a.naive.requestsPerSecond;
const check = (ok: boolean) => (ok ? "met" : "NOT met");
console.log(`(a) durable send acceptance, c=64 (${a.mailroom.tool}):`);
console.log(`    mailroom  ${fmt(a.mailroom.requestsPerSecond, 0)} msg/s   p50 ${fmt(a.mailroom.p50Ms, 2)} ms   p99 ${fmt(a.mailroom.p99Ms, 2)} ms   errors ${a.mailroom.non2xx}`);
console.log(`    baseline  ${fmt(a.naive.requestsPerSecond, 0)} msg/s   p50 ${fmt(a.naive.p50Ms, 2)} ms   p99 ${fmt(a.naive.p99Ms, 2)} ms   (insert + fsync per request)`);
console.log(`    ratio     ${fmt(ratio, 2)}×   [target ≥ 3×: ${check(ratio >= 3)}; p99 ≤ 15 ms: ${check(a.mailroom.p99Ms <= 15)}]`);

const b = await deliveryThroughput();
if (b) console.log(`(b) delivery queue → smtp-sink: ${fmt(b.perSecond, 0)} msg/s (${MESSAGES} messages in ${fmt(b.seconds, 2)} s, ${b.failed} not sent)   [target ≥ 5,000: ${check(b.perSecond >= 5000)}]`);
else console.log("(b) skipped: smtp-sink not installed (apt-get install postfix)");

console.log(`(c) cold start to ready line ${fmt(a.coldStartMs, 0)} ms [≤ 80: ${check(a.coldStartMs <= 80)}]; idle RSS ${fmt(a.idleRss)} MiB [≤ 80: ${check(a.idleRss <= 80)}]; RSS under (a) ${fmt(a.peakRss)} MiB [≤ 250: ${check(a.peakRss <= 250)}]`);
