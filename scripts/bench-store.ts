/**
 * `npm run bench` (store part): the same executable on each engine, measured in one run.
 *   acceptance  durable HTTP sends at c=64 (split over the instances), BENCH_SECONDS (10) each
 *   delivery    BENCH_DELIVERIES (10000) queued messages → Postfix smtp-sink, until none is left
 * for SQLite (this build, and the build of BENCH_BASELINE_REF, default HEAD~1, for the ratio; `off`: none), PostgreSQL with one
 * instance and PostgreSQL with two. PostgreSQL is BENCH_PG_URL, else a throwaway cluster (scripts/test-postgres.sh);
 * BENCH_PG_URL=off measures SQLite only. BENCH_ROUNDS (default 1) repeats every setup, in turn, that many times
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
  deliveryEnv,
  spawnUntilReady,
  startSmtpSink,
} from "./bench/process.ts";
import { ANY_QUEUED, queueMessages } from "./bench/queue.ts";
import { record } from "./bench/report.ts";

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
  const results = await load(SECONDS);
  await stopAll(servers);
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  return {
    perSecond: results.reduce((sum, r) => sum + r.requestsPerSecond, 0),
    p99: Math.max(...results.map((r) => r.p99Ms)),
    errors: results.reduce((sum, r) => sum + r.non2xx, 0),
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

if (!existsSync(BINARY)) await Bun.$`${process.execPath} ${join(ROOT, "scripts/build.ts")}`.quiet();
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
}

const sink = await startSmtpSink();

console.log(
  `\nStore engines — ${SECONDS}s acceptance at c=64, ${DELIVERIES} deliveries to smtp-sink, ${ROUNDS} round(s)${pg ? "" : " (PostgreSQL: not available)"}`,
);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const figures: Record<string, Array<{ accept: number; p99: number; errors: number; deliver?: number }>> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const setup of setups) {
    // Each setup on a schema of its own, so none starts with another's rows.
    const fresh = (s: Setup): Setup =>
      s.env.MAILROOM_STORE_URL
        ? { ...s, env: { ...s.env, MAILROOM_STORE_URL: inSchema(s.env.MAILROOM_STORE_URL) } }
        : s;
    const a = await acceptance(fresh(setup));
    const d = sink ? await delivery(fresh(setup), sink.port) : undefined;
    (figures[setup.name] ??= []).push({ accept: a.perSecond, p99: a.p99, errors: a.errors, deliver: d?.perSecond });
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
    `  ${setup.name.padEnd(28)} accept ${fmt(median(runs.map((r) => r.accept))).padStart(6)} msg/s (p99 ${fmt(median(runs.map((r) => r.p99)), 1)} ms, errors ${errors})   deliver ${deliver ? `${fmt(deliver).padStart(6)} msg/s` : "skipped (no smtp-sink)"}`,
  );
}
if (baseline) {
  const now = figures.SQLite!;
  const before = figures[`SQLite, ${BASELINE_REF} build`]!;
  const ratios = (pick: (r: (typeof now)[number]) => number | undefined) =>
    now.map((r, i) => (pick(r) ?? NaN) / (pick(before[i]!) ?? NaN));
  const accept = ratios((r) => r.accept);
  const deliver = ratios((r) => r.deliver);
  const spread = (values: number[]) =>
    values.length > 1 ? ` (rounds ${values.map((v) => fmt(v, 2)).join(", ")})` : "";
  console.log(
    `  SQLite this build / ${BASELINE_REF}: accept ${fmt(median(accept), 2)}×${spread(accept)}${sink ? `, deliver ${fmt(median(deliver), 2)}×${spread(deliver)}` : ""}`,
  );
  Bun.spawnSync(["git", "worktree", "remove", "--force", baseline.replace(/\/dist\/mailroom$/, "")], { cwd: ROOT });
}
sink?.stop();
