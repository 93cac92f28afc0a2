/**
 * Per-statement timers: where the event loop's store time goes, statement by statement, per accepted message and
 * per delivered message (SQLite). Every statement bun:sqlite runs for Mailroom is timed around its call, with the
 * transaction control (BEGIN, SAVEPOINT, COMMIT) apart, in this process:
 *   acceptance  N messages sent over HTTP by 64 concurrent clients in this process, each then delivered by the
 *               capture provider as in `npm run bench`'s acceptance row (statements per message, µs per message)
 *   delivery    N queued messages (to 100 domains) drained by the capture provider (per delivery)
 * The clients share the event loop, so absolute times run higher than under wrk; the counts and the shares are
 * what this is for. It replaces methods of bun:sqlite's classes, so it runs in its own process (bench.ts spawns it).
 * BENCH_STATEMENT_MESSAGES (default 3000) sets N.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, record } from "./bench/report.ts";

const MESSAGES = Number(process.env.BENCH_STATEMENT_MESSAGES ?? 3000);

interface Timing {
  runs: number;
  micros: number;
}
const timings = new Map<string, Timing>();
/** Marks this script's own progress queries, which are not timed. */
const OWN = "/* bench */";
const commits: number[] = [];

/** A statement's name for the table: what it does to which table, by the columns it sets and tests. */
function labelOf(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const verb = /^(\w+)/.exec(flat)?.[1]?.toLowerCase() ?? "?";
  const table =
    /^(?:insert into|update|delete from) "(\w+)"/i.exec(flat)?.[1] ?? / from "(\w+)"/i.exec(flat)?.[1] ?? "?";
  const names = (part: string | undefined) =>
    [...new Set([...(part ?? "").matchAll(/"(\w+)" (?:=|<=|<|>|is|IN)/gi)].map((m) => m[1]))].join(", ");
  const set = verb === "update" ? ` set ${names(/ set (.*?) where /i.exec(flat)?.[1])}` : "";
  const joined = / join "(\w+)"/i.exec(flat)?.[1];
  const where = / where (.*)$/i.exec(flat)?.[1];
  return `${verb} ${table}${joined ? ` ⋈ ${joined}` : ""}${set}${where ? ` where ${names(where)}` : ""}`;
}

function timed<A extends unknown[], R>(label: string, call: (...args: A) => R, self: unknown, args: A): R {
  const started = performance.now();
  try {
    return call.apply(self, args);
  } finally {
    const micros = (performance.now() - started) * 1000;
    const timing = timings.get(label) ?? { runs: 0, micros: 0 };
    timing.runs++;
    timing.micros += micros;
    timings.set(label, timing);
    if (label === "COMMIT") commits.push(micros);
  }
}

// bun:sqlite gives each statement its own run/all/get/values, so they are wrapped where statements are made.
type Statement = Record<"run" | "all" | "get" | "values", (...args: unknown[]) => unknown>;
for (const method of ["prepare", "query"] as const) {
  const original = Database.prototype[method] as (this: Database, sql: string, ...rest: unknown[]) => Statement;
  (Database.prototype as unknown as Record<string, unknown>)[method] = function (
    this: Database,
    sql: string,
    ...rest: unknown[]
  ) {
    const statement = original.call(this, sql, ...rest);
    if (sql.startsWith(OWN)) return statement;
    const label = labelOf(sql);
    for (const run of ["run", "all", "get", "values"] as const) {
      const call = statement[run];
      if (typeof call === "function") statement[run] = (...args: unknown[]) => timed(label, call, statement, args);
    }
    return statement;
  };
}
const exec = Database.prototype.exec;
(Database.prototype as unknown as Record<string, unknown>).exec = function (
  this: Database,
  sql: string,
  ...rest: unknown[]
) {
  return timed(/^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/.exec(sql)?.[1] ?? sql.slice(0, 40), exec, this, [
    sql,
    ...rest,
  ] as Parameters<typeof exec>);
};

// Imported after the wrappers are in place, so every connection Mailroom opens is timed.
const { createApp, createServices } = await import("../src/server/app.ts");
const { buildConfig } = await import("../src/config/load.ts");
const { silentLogger } = await import("../src/lib/logger.ts");
const { operatorActor } = await import("../src/access.ts");
const { BENCH_BODY, deliveryEnv } = await import("./bench/process.ts");
const { ANY_QUEUED, queueMessages } = await import("./bench/queue.ts");

const secretKey = Buffer.alloc(32, 4).toString("base64");
const ports = {
  MAILROOM_HTTP_PORT: "0",
  MAILROOM_SMTP_SUBMISSION_PORT: "0",
  MAILROOM_SMTP_SMTPS_PORT: "0",
  MAILROOM_INBOUND_PORT: "0",
};
const unlimited = {
  MAILROOM_LIMITS_KEY_REQUESTS_PER_MINUTE: "10000000",
  MAILROOM_LIMITS_ORG_REQUESTS_PER_MINUTE: "10000000",
};

/** Prints and records the statements of `count` units (messages or deliveries) measured since the last reset. */
function report(what: string, unit: string, count: number) {
  const rows = [...timings].sort((a, b) => b[1].micros - a[1].micros);
  const total = rows.reduce((sum, [, t]) => sum + t.micros, 0) / count;
  const statements = rows.reduce((sum, [, t]) => sum + t.runs, 0) / count;
  const sorted = [...commits].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0) / 1000;
  console.log(
    `(s) ${what}: ${fmt(statements, 1)} SQLite calls, ${fmt(total)} µs per ${unit}; COMMIT p50 ${fmt(at(0.5), 2)} ms, p99 ${fmt(at(0.99), 2)} ms (${sorted.length} commits)`,
  );
  for (const [label, t] of rows.slice(0, 12)) {
    console.log(
      `    ${fmt(t.runs / count, 2).padStart(6)} × ${fmt(t.micros / t.runs, 1).padStart(7)} µs = ${fmt(t.micros / count, 1).padStart(6)} µs  ${label}`,
    );
  }
  const top = rows.slice(0, 4).map(([label, t]) => `${label} ${fmt(t.micros / count)} µs`);
  record({
    measure: `SQLite per ${unit}, ${what} (in-process timers)`,
    result: `${fmt(statements, 1)} calls, ${fmt(total)} µs; top: ${top.join("; ")}`,
    target: "—",
    met: null,
  });
}

function reset() {
  timings.clear();
  commits.length = 0;
}

async function acceptance() {
  const dataDir = mkdtempSync(join(tmpdir(), "mailroom-bench-statements-"));
  const config = buildConfig({}, { ...ports, ...unlimited }, { "": { data_dir: dataDir } });
  const app = await createApp(config, { logger: silentLogger, secretKey });
  const listeners = await app.start();
  const actor = operatorActor((await app.services.organizations.ensureDefault()).id);
  await app.services.domains.add(actor, "example.com", { verifiedOverride: true });
  const { key } = await app.services.keys.create(actor, { name: "bench", scopes: ["full_access"], mode: "live" });
  const url = `http://127.0.0.1:${listeners.find((l) => l.name === "http")!.port}/v1/emails`;
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const send = async () => {
    const response = await fetch(url, { method: "POST", headers, body: BENCH_BODY });
    if (response.status !== 200) throw new Error(`send answered ${response.status}: ${await response.text()}`);
  };
  const load = async (count: number) => {
    let left = count;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (left-- > 0) await send();
      }),
    );
  };
  const drained = async () => ((await app.services.store.query<{ n: number }>(anyQueued))[0]?.n ?? 1) === 0;
  await load(1000); // warm-up: JIT, caches
  while (!(await drained())) await Bun.sleep(20);
  reset();
  await load(MESSAGES);
  while (!(await drained())) await Bun.sleep(20);
  report("acceptance, each message then captured", "message", MESSAGES);
  await app.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

async function delivery() {
  const dataDir = mkdtempSync(join(tmpdir(), "mailroom-bench-statements-"));
  const config = buildConfig({}, deliveryEnv(undefined), {
    "": { data_dir: dataDir },
    limits: { max_batch_size: 1000 },
  });
  const services = await createServices(config, { logger: silentLogger, secretKey });
  await queueMessages(services, BENCH_BODY, MESSAGES);
  reset();
  services.worker.start();
  while (((await services.store.query<{ n: number }>(anyQueued))[0]?.n ?? 1) !== 0) await Bun.sleep(20);
  await services.worker.stop();
  report("unsigned delivery (capture)", "delivery", MESSAGES);
  await services.closeProviders();
  await services.store.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const { sql } = await import("drizzle-orm");
const anyQueued = sql.raw(`${OWN} ${ANY_QUEUED}`);
await acceptance();
await delivery();
process.exit(0);
