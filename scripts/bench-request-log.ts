/**
 * The request log's cost (docs/logs-and-mcp.md#the-request-log), recorded in the performance table:
 *   (rl) durable HTTP send acceptance at c=64 on the built executable with SQLite, `[http] request_log` on against
 *        off — two servers, each on its own data directory, loaded one at a time in BENCH_RL_PAIRS short pairs
 *        (BENCH_RL_SECONDS each, the order swapped every pair). Each pair gives a ratio, on / off, of throughput
 *        and of the server's CPU time per accepted send (from /proc); the rows are the medians of those ratios, so
 *        a machine whose load drifts between pairs (other processes on the 2 cores) does not decide the result.
 *        On a CPU-bound server throughput goes as 1 / CPU per send. Target: with the log ≥ 95 % of without. The
 *        "on" server's rows are counted afterwards, so a row cannot pass with a log that recorded nothing.
 *   (rl2) the same sends in one process, through the HTTP app's handler (no sockets, no load tool beside it): two
 *        apps, log on and off, BENCH_RL_BATCHES alternating batches of 512 sends at 64 at a time, the process's CPU
 *        time per send of each pair's batches (the recorder's flush included) — a pair runs within a second, so the
 *        machine is the same for both halves.
 */
import { Database } from "bun:sqlite";
import { sql } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { operatorActor } from "../src/access.ts";
import { buildConfig } from "../src/config/load.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { createApp } from "../src/server/app.ts";
import { runLoad } from "./bench/load.ts";
import { BENCH_BODY, benchServerEnv, buildThisBuild, cli, cpuMsOf, spawnUntilReady } from "./bench/process.ts";
import { check, fmt, record } from "./bench/report.ts";

const SECONDS = Number(process.env.BENCH_RL_SECONDS ?? 3);
const PAIRS = Math.max(1, Number(process.env.BENCH_RL_PAIRS ?? 12));
const ROOT = join(import.meta.dir, "..");
const BINARY = join(ROOT, "dist", "mailroom");
const TARGET = 0.95;

await buildThisBuild(ROOT);

/** A server with a verified domain and a full-access key, the request log on or off. */
async function start(requestLog: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), `mailroom-bench-rl-${requestLog ? "on" : "off"}-`));
  const env = {
    ...benchServerEnv(Buffer.alloc(32, 5).toString("base64")),
    MAILROOM_DATA_DIR: dataDir,
    MAILROOM_HTTP_REQUEST_LOG: String(requestLog),
  };
  await cli(BINARY, env, ["init"]);
  await cli(BINARY, env, ["domains", "add", "example.com", "--verified"]);
  const key = JSON.parse(
    await cli(BINARY, env, ["keys", "create", "--name", "bench", "--scope", "full_access", "--json"]),
  ).token as string;
  const server = await spawnUntilReady([BINARY, "serve"], env, "mailroom ready");
  return {
    dataDir,
    proc: server.proc,
    url: `http://127.0.0.1:${server.port}/v1/emails`,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  };
}

type Server = Awaited<ReturnType<typeof start>>;

/** One load of `server`: accepted sends per second, and the server's CPU ms per accepted send. */
async function measure(server: Server, seconds = SECONDS) {
  const cpu = () => cpuMsOf((_, pid) => pid === server.proc.pid);
  const before = cpu();
  const result = await runLoad(server.url, server.headers, BENCH_BODY, 64, seconds);
  // The recorder writes what gathered within 250 ms: that work belongs to the load too.
  await Bun.sleep(300);
  return { perSecond: result.requestsPerSecond, cpuPerSend: (cpu() - before) / (result.requestsPerSecond * seconds) };
}

const on = await start(true);
const off = await start(false);
await measure(on, 2); // warm-up: JIT, prepared statements, the page cache
await measure(off, 2);
const pairs: Array<{ on: Awaited<ReturnType<typeof measure>>; off: Awaited<ReturnType<typeof measure>> }> = [];
for (let pair = 0; pair < PAIRS; pair++) {
  // Swapped each pair: whichever runs second meets a larger store and the machine as the first left it.
  const first = pair % 2 === 0 ? on : off;
  const a = await measure(first);
  const b = await measure(first === on ? off : on);
  pairs.push(first === on ? { on: a, off: b } : { on: b, off: a });
}
for (const server of [on, off]) server.proc.kill("SIGTERM");
await Promise.all([on.proc.exited, off.proc.exited]);
// Stopping writes what the recorder held: every accepted send of the "on" server is a row by now.
const database = new Database(join(on.dataDir, "mailroom.db"), { readonly: true });
const count = (statement: string) => database.query<{ n: number }, []>(statement).get()!.n;
const sent = count("SELECT count(*) AS n FROM emails");
const logged = count("SELECT count(*) AS n FROM request_logs WHERE endpoint = '/emails' AND response_status = 200");
database.close();
for (const server of [on, off]) rmSync(server.dataDir, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const throughput = median(pairs.map((p) => p.on.perSecond / p.off.perSecond));
// CPU per send off / on: the share of its throughput a CPU-bound server keeps with the log.
const cpuShare = median(pairs.map((p) => p.off.cpuPerSend / p.on.cpuPerSend));
const recorded = logged >= sent;
console.log(`(rl) acceptance with the request log on vs off, c=64, ${PAIRS} alternating pairs of ${SECONDS} s:`);
for (const [i, p] of pairs.entries())
  console.log(
    `    pair ${String(i + 1).padStart(2)}: on ${fmt(p.on.perSecond)} msg/s ${fmt(p.on.cpuPerSend, 3)} CPU ms/send; off ${fmt(p.off.perSecond)} msg/s ${fmt(p.off.cpuPerSend, 3)} CPU ms/send`,
  );
console.log(`    ${fmt(logged)} of ${fmt(sent)} accepted sends logged (warm-up's included)`);
console.log(
  `    median of the pairs: throughput ${fmt(throughput * 100, 1)} %, CPU per send (off / on) ${fmt(cpuShare * 100, 1)} %   [bar ≥ ${TARGET * 100} %: ${check(throughput >= TARGET && recorded)}, ${check(cpuShare >= TARGET && recorded)}]`,
);
const medianOf = (pick: (p: (typeof pairs)[number]) => number) => fmt(median(pairs.map(pick)), 3);
record({
  measure: "acceptance with the request log on / off (HTTP, durable, c=64; median of paired ratios)",
  result: `${fmt(throughput * 100, 1)} % (${fmt(median(pairs.map((p) => p.on.perSecond)))} vs ${fmt(median(pairs.map((p) => p.off.perSecond)))} msg/s; ${fmt(logged)} requests logged)`,
  target: "≥ 95 % (drop ≤ 5 %)",
  met: throughput >= TARGET && recorded,
});
record({
  measure: "server CPU per accepted send, request log off / on (median of paired ratios)",
  result: `${fmt(cpuShare * 100, 1)} % (${medianOf((p) => p.off.cpuPerSend)} vs ${medianOf((p) => p.on.cpuPerSend)} CPU ms per send)`,
  target: "≥ 95 % (drop ≤ 5 %)",
  met: cpuShare >= TARGET && recorded,
});

/** An app in this process with a verified domain, the request log on or off, and its key's send request. */
async function inProcess(requestLog: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), `mailroom-bench-rl2-${requestLog ? "on" : "off"}-`));
  const config = buildConfig(
    {},
    {},
    {
      "": { data_dir: dataDir },
      http: { request_log: requestLog },
      limits: { key_requests_per_minute: 10_000_000, org_requests_per_minute: 10_000_000 },
    },
  );
  const app = await createApp(config, { logger: silentLogger, secretKey: Buffer.alloc(32, 6).toString("base64") });
  const org = await app.services.organizations.ensureDefault();
  await app.services.domains.add(operatorActor(org.id), "example.com", { verifiedOverride: true });
  const { key } = await app.services.keys.create(operatorActor(org.id), {
    name: "bench",
    scopes: ["full_access"],
    mode: "live",
  });
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const send = async () => {
    const response = await app.http.handle(
      new Request("http://localhost/v1/emails", { method: "POST", headers, body: BENCH_BODY }),
    );
    if (response.status !== 200) throw new Error(`send answered ${response.status}`);
    await response.arrayBuffer();
  };
  /** CPU ms of this process per send over `n` sends, 64 at a time, the recorder's writes of them included. */
  const batch = async (n: number) => {
    const before = process.cpuUsage();
    for (let done = 0; done < n; done += 64) await Promise.all(Array.from({ length: Math.min(64, n - done) }, send));
    await app.services.requestLog.flush();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / n;
  };
  return { app, dataDir, batch };
}

const BATCHES = Math.max(2, Number(process.env.BENCH_RL_BATCHES ?? 24));
const apps = { on: await inProcess(true), off: await inProcess(false) };
await apps.on.batch(512); // warm-up
await apps.off.batch(512);
const shares: number[] = [];
const perSend = { on: [] as number[], off: [] as number[] };
for (let pair = 0; pair < BATCHES; pair++) {
  const order = pair % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const);
  const cost = { on: 0, off: 0 };
  for (const which of order) cost[which] = await apps[which].batch(512);
  perSend.on.push(cost.on);
  perSend.off.push(cost.off);
  shares.push(cost.off / cost.on);
}
const inProcessShare = median(shares);
// A request is handed to the recorder after its answer is read: the last batch's last ones reach it a moment later.
await Bun.sleep(100);
await apps.on.app.services.requestLog.flush();
const inProcessLogged = (
  await apps.on.app.services.store.query<{ n: number }>(
    sql`SELECT CAST(count(*) AS INTEGER) AS n FROM request_logs WHERE endpoint = '/emails'`,
  )
)[0]!.n;
for (const { app, dataDir } of Object.values(apps)) {
  await app.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
const inProcessRecorded = inProcessLogged >= (BATCHES + 1) * 512;
console.log(
  `(rl2) in one process, ${BATCHES} alternating pairs of 512 sends: CPU per send on ${fmt(median(perSend.on), 3)} ms, off ${fmt(median(perSend.off), 3)} ms; median of the pairs' off / on ${fmt(inProcessShare * 100, 1)} %   [bar ≥ ${TARGET * 100} %: ${check(inProcessShare >= TARGET && inProcessRecorded)}] (${fmt(inProcessLogged)} sends logged)`,
);
record({
  measure: "CPU per send through the HTTP handler, request log off / on (one process, median of paired batches)",
  result: `${fmt(inProcessShare * 100, 1)} % (${fmt(median(perSend.off), 3)} vs ${fmt(median(perSend.on), 3)} CPU ms per send)`,
  target: "≥ 95 % (drop ≤ 5 %)",
  met: inProcessShare >= TARGET && inProcessRecorded,
});
