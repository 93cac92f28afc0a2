/**
 * `npm run bench` (store part): the same executable on each engine, measured in one run.
 *   acceptance  durable HTTP sends at c=64 (split over the instances), BENCH_SECONDS (10) each
 *   delivery    BENCH_DELIVERIES (10000) queued messages → Postfix smtp-sink, until none is left
 * for SQLite (this build, and the build of BENCH_BASELINE_REF, default HEAD~1, for the ratio; `off`: none), PostgreSQL with one
 * instance (this build and the baseline's) and PostgreSQL with two. PostgreSQL is BENCH_PG_URL, else a throwaway cluster (scripts/test-postgres.sh);
 * BENCH_PG_URL=off measures SQLite only; BENCH_ONLY=text keeps the setups whose name contains it; BENCH_DELIVERIES=0
 * skips delivery. BENCH_ROUNDS (default 1) repeats every setup, in turn, that many times
 * and reports medians: on a shared 2-core VM single runs differ by ±30 %, so a change is judged on several
 * alternating rounds, the ratio taken round by round.
 */
import { sql } from "drizzle-orm";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServices } from "../src/server/app.ts";
import { buildConfig } from "../src/config/load.ts";
import { openStore } from "../src/db/open.ts";
import { urlInSchema } from "../src/db/postgres/adapter.ts";
import { newId } from "../src/lib/ids.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { runLoad } from "./bench/load.ts";
import {
  BENCH_BODY as BODY,
  benchServerEnv,
  cli,
  cpuMsOf,
  deliveryEnv,
  spawnUntilReady,
  startSmtpSink,
  buildThisBuild,
} from "./bench/process.ts";
import { ANY_QUEUED, queueMessages } from "./bench/queue.ts";
import { check, record } from "./bench/report.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 10_000);
const BASELINE_REF = process.env.BENCH_BASELINE_REF ?? "HEAD~1";
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
const ROOT = join(import.meta.dir, "..");
const BINARY = join(ROOT, "dist", "mailroom");
const SECRET = Buffer.alloc(32, 5).toString("base64");
const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

interface Setup {
  name: string;
  binary: string;
  instances: number;
  /** Environment of every instance but its data directory. */
  env: Record<string, string>;
}

/** Starts the setup's instances, each on a data directory of its own (SQLite: one instance, its own store). */
async function startAll(setup: Setup, dataDirs: string[]) {
  const servers = [];
  for (let i = 0; i < setup.instances; i++)
    servers.push(
      await spawnUntilReady(
        [setup.binary, "serve"],
        { ...setup.env, MAILROOM_DATA_DIR: dataDirs[i]! },
        "mailroom ready",
      ),
    );
  return servers;
}

async function stopAll(servers: Array<{ proc: ReturnType<typeof Bun.spawn> }>) {
  for (const server of servers) server.proc.kill("SIGTERM");
  await Promise.all(servers.map((server) => server.proc.exited));
}

async function acceptance(setup: Setup) {
  const dataDirs = Array.from({ length: setup.instances }, () => tmp("mailroom-bench-store-"));
  const env = { ...setup.env, MAILROOM_DATA_DIR: dataDirs[0]! };
  await cli(setup.binary, env, ["init"]);
  await cli(setup.binary, env, ["domains", "add", "example.com", "--verified"]);
  const { token: key } = JSON.parse(
    await cli(setup.binary, env, ["keys", "create", "--name", "bench", "--scope", "full_access", "--json"]),
  );
  const servers = await startAll(setup, dataDirs);
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const connections = 64 / setup.instances;
  const load = (seconds: number) =>
    Promise.all(
      servers.map((s) => runLoad(`http://127.0.0.1:${s.port}/v1/emails`, headers, BODY, connections, seconds)),
    );
  await load(2);
  // PostgreSQL's share, when the cluster runs on this machine: the CPU its processes used during the load.
  const storeCpuBefore = cpuMsOf((command) => command === "postgres");
  const results = await load(SECONDS);
  const storeCpuMs = cpuMsOf((command) => command === "postgres") - storeCpuBefore;
  await stopAll(servers);
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  const perSecond = results.reduce((sum, r) => sum + r.requestsPerSecond, 0);
  return {
    perSecond,
    p99: Math.max(...results.map((r) => r.p99Ms)),
    errors: results.reduce((sum, r) => sum + r.non2xx, 0),
    storeCpuPerMessageMs: storeCpuMs / (perSecond * SECONDS),
  };
}

/** Queues DELIVERIES messages with the workers stopped, then starts the instances and times the queue's drain. */
async function delivery(setup: Setup, sinkPort: number) {
  const dataDirs = Array.from({ length: setup.instances }, () => tmp("mailroom-bench-store-"));
  const env: Record<string, string> = { ...setup.env, ...deliveryEnv(sinkPort) };
  const config = buildConfig(
    {},
    {},
    { "": { data_dir: dataDirs[0]! }, store: { url: env.MAILROOM_STORE_URL ?? "" }, limits: { max_batch_size: 1000 } },
  );
  const services = await createServices(config, { logger: silentLogger, secretKey: SECRET });
  await queueMessages(services, BODY, DELIVERIES);
  await services.closeProviders();
  await services.store.close();

  const watcher = await openStore(config, silentLogger);
  const left = async () => (await watcher.query<{ n: number }>(sql.raw(ANY_QUEUED)))[0]!.n;
  const started = performance.now();
  const servers = await startAll({ ...setup, env }, dataDirs);
  while ((await left()) > 0) await Bun.sleep(20);
  const seconds = (performance.now() - started) / 1000;
  await stopAll(servers);
  await watcher.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  return { perSecond: DELIVERIES / seconds };
}

/** The executable of `ref`, built in a worktree that borrows this checkout's node_modules. */
async function buildBaseline(ref: string): Promise<string | undefined> {
  const dir = tmp("mailroom-bench-baseline-");
  const added = Bun.spawnSync(["git", "worktree", "add", "--detach", dir, ref], { cwd: ROOT, stderr: "pipe" });
  if (added.exitCode !== 0) return undefined;
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  const built = Bun.spawnSync([process.execPath, join(dir, "scripts", "build.ts")], {
    cwd: dir,
    stdout: "ignore",
    stderr: "pipe",
  });
  return built.exitCode === 0 && existsSync(join(dir, "dist", "mailroom")) ? join(dir, "dist", "mailroom") : undefined;
}

function postgresUrl(): string | undefined {
  if (process.env.BENCH_PG_URL === "off") return undefined;
  if (process.env.BENCH_PG_URL) return process.env.BENCH_PG_URL;
  const started = Bun.spawnSync([join(ROOT, "scripts", "test-postgres.sh")], { stdout: "pipe", stderr: "ignore" });
  return started.exitCode === 0 ? started.stdout.toString().trim() : undefined;
}

await buildThisBuild(ROOT);
const common = benchServerEnv(SECRET);
const setups: Setup[] = [{ name: "SQLite", binary: BINARY, instances: 1, env: common }];
const baseline = BASELINE_REF === "off" ? undefined : await buildBaseline(BASELINE_REF);
if (baseline) setups.unshift({ name: `SQLite, ${BASELINE_REF} build`, binary: baseline, instances: 1, env: common });
const pg = postgresUrl();
const inSchema = (url: string) => urlInSchema(url, `bench_${newId().replace(/-/g, "")}`);
if (pg) {
  setups.push({
    name: "PostgreSQL, 1 instance",
    binary: BINARY,
    instances: 1,
    env: { ...common, MAILROOM_STORE_URL: pg },
  });
  setups.push({
    name: "PostgreSQL, 2 instances",
    binary: BINARY,
    instances: 2,
    env: { ...common, MAILROOM_STORE_URL: pg },
  });
  if (baseline)
    setups.push({
      name: `PostgreSQL, 1 instance, ${BASELINE_REF} build`,
      binary: baseline,
      instances: 1,
      env: { ...common, MAILROOM_STORE_URL: pg },
    });
}

const only = process.env.BENCH_ONLY;
if (only) setups.splice(0, setups.length, ...setups.filter((setup) => setup.name.includes(only)));
const sink = DELIVERIES > 0 ? await startSmtpSink() : undefined;

console.log(
  `\nStore engines — ${SECONDS}s acceptance at c=64, ${DELIVERIES} deliveries to smtp-sink, ${ROUNDS} round(s)${pg ? "" : " (PostgreSQL: not available)"}`,
);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
interface Figures {
  accept: number;
  p99: number;
  errors: number;
  storeCpu: number;
  deliver?: number;
}
const figures: Record<string, Figures[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const setup of setups) {
    // Each setup on a schema of its own, so none starts with another's rows.
    const fresh = (s: Setup): Setup =>
      s.env.MAILROOM_STORE_URL
        ? { ...s, env: { ...s.env, MAILROOM_STORE_URL: inSchema(s.env.MAILROOM_STORE_URL) } }
        : s;
    const a = await acceptance(fresh(setup));
    const d = sink ? await delivery(fresh(setup), sink.port) : undefined;
    (figures[setup.name] ??= []).push({
      accept: a.perSecond,
      p99: a.p99,
      errors: a.errors,
      storeCpu: a.storeCpuPerMessageMs,
      deliver: d?.perSecond,
    });
  }
}
for (const setup of setups) {
  const runs = figures[setup.name]!;
  const deliver = sink ? median(runs.map((r) => r.deliver!)) : undefined;
  const errors = runs.reduce((sum, r) => sum + r.errors, 0);
  record({
    measure: `${setup.name}: acceptance / delivery (signed)`,
    result: `${fmt(median(runs.map((r) => r.accept)))} msg/s (p99 ${fmt(median(runs.map((r) => r.p99)))} ms) / ${deliver ? `${fmt(deliver)} msg/s` : "—"}`,
    target: "—",
    met: null,
  });
  console.log(
    `  ${setup.name.padEnd(28)} accept ${fmt(median(runs.map((r) => r.accept))).padStart(6)} msg/s (p99 ${fmt(median(runs.map((r) => r.p99)), 1)} ms, errors ${errors}${setup.env.MAILROOM_STORE_URL ? `, store CPU ${fmt(median(runs.map((r) => r.storeCpu)), 2)} ms/msg` : ""})   deliver ${deliver ? `${fmt(deliver).padStart(6)} msg/s` : "skipped (no smtp-sink)"}`,
  );
}
/** The bars of the scale-out rows: PostgreSQL beside SQLite, two instances beside one, the store's CPU per message. */
const one = figures["PostgreSQL, 1 instance"];
const two = figures["PostgreSQL, 2 instances"];
const sqlite = figures.SQLite;
if (one && sqlite) {
  const ratio = median(one.map((r, i) => r.accept / sqlite[i]!.accept));
  console.log(
    `  PostgreSQL 1 instance / SQLite: ${fmt(ratio, 2)}×   [bar ≥ 0.4×: ${check(ratio >= 0.4)}; goal ≥ 0.7×]`,
  );
  record({
    measure: "PostgreSQL, 1 instance, vs SQLite (HTTP acceptance, c=64)",
    result: `${fmt(ratio, 2)}× (${fmt(median(one.map((r) => r.accept)))} vs ${fmt(median(sqlite.map((r) => r.accept)))} msg/s), p99 ${fmt(median(one.map((r) => r.p99)))} ms`,
    target: "≥ 0.4× (goal ≥ 0.7×)",
    met: ratio >= 0.4,
  });
}
if (one && two) {
  const ratio = median(two.map((r, i) => r.accept / one[i]!.accept));
  console.log(
    `  PostgreSQL 2 instances / 1: ${fmt(ratio, 2)}×   [bar ≥ 1.0× on this box: ${check(ratio >= 1)}; goal ≥ 1.8×]`,
  );
  record({
    measure: "PostgreSQL, two instances vs one",
    result: `${fmt(ratio, 2)}× (${fmt(median(two.map((r) => r.accept)))} vs ${fmt(median(one.map((r) => r.accept)))} msg/s)`,
    target: "≥ 1.0× on this box (goal ≥ 1.8× with the store on its own cores)",
    met: ratio >= 1,
  });
}
if (one) {
  const cpu = median(one.map((r) => r.storeCpu));
  console.log(
    `  PostgreSQL server CPU per accepted message: ${fmt(cpu, 2)} ms   [bar ≤ 0.5 ms: ${check(cpu <= 0.5)}; goal ≤ 0.2 ms]`,
  );
  record({
    measure: "PostgreSQL server CPU per accepted message (1 instance, from /proc)",
    result: `${fmt(cpu, 2)} ms`,
    target: "≤ 0.5 ms (goal ≤ 0.2 ms)",
    met: cpu <= 0.5,
  });
}
/** This build beside the baseline's, round by round, for each engine both ran on. */
for (const [engine, name] of [
  ["SQLite", "SQLite"],
  ["PostgreSQL", "PostgreSQL, 1 instance"],
] as const) {
  const now = figures[name];
  const before = figures[`${name}, ${BASELINE_REF} build`];
  if (!now || !before) continue;
  const ratios = (pick: (r: Figures) => number | undefined) =>
    now.map((r, i) => (pick(r) ?? NaN) / (pick(before[i]!) ?? NaN));
  const accept = ratios((r) => r.accept);
  const deliver = ratios((r) => r.deliver);
  const spread = (values: number[]) =>
    values.length > 1 ? ` (rounds ${values.map((v) => fmt(v, 2)).join(", ")})` : "";
  console.log(
    `  ${engine} this build / ${BASELINE_REF}: accept ${fmt(median(accept), 2)}×${spread(accept)}${sink ? `, deliver ${fmt(median(deliver), 2)}×${spread(deliver)}` : ""}`,
  );
}
if (baseline)
  Bun.spawnSync(["git", "worktree", "remove", "--force", baseline.replace(/\/dist\/mailroom$/, "")], { cwd: ROOT });
sink?.stop();
