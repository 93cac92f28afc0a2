/**
 * Webhook benchmarks (issue 5; targets in brackets):
 *   (w1) deliveries/s from the outbox to a local receiver                               [≥ 2,000/s]
 *   (w2) delay from an event's append to its arrival at the receiver, at light load    [p99 ≤ 50 ms]
 * The receiver is a second process (this file with `--receiver`), so it does not share the dispatcher's event
 * loop; it verifies every 50th request with the standardwebhooks package and answers with its arrival time,
 * which the dispatcher stores as the attempt's response. Everything runs on 127.0.0.1 with
 * `webhooks.allow_private_networks`, the default concurrency settings and a real SQLite file (synchronous=FULL).
 * BENCH_WEBHOOKS (default 20000) sets the size of (w1); BENCH_SECONDS (default 10) the duration of (w2).
 */
import { sql } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { createServices, type Services } from "../src/server/app.ts";
import { buildConfig } from "../src/config/load.ts";
import { operatorActor } from "../src/access.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { check, fmt, record } from "./bench/report.ts";

const DELIVERIES = Number(process.env.BENCH_WEBHOOKS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LIGHT_RATE = 100; // events per second in (w2)
const VERIFY_EVERY = 50;

/** Wall-clock milliseconds with sub-millisecond precision, comparable across the two processes. */
const wallMs = () => performance.timeOrigin + performance.now();

async function runReceiver(secret: string): Promise<void> {
  const webhook = new Webhook(secret);
  let count = 0;
  let failures = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const arrived = wallMs();
      const body = await request.text();
      if (++count % VERIFY_EVERY === 0) {
        try {
          webhook.verify(body, Object.fromEntries(request.headers.entries()));
        } catch {
          failures++;
        }
      }
      return new Response(JSON.stringify({ arrived, failures }), { headers: { "content-type": "application/json" } });
    },
  });
  process.stdout.write(`receiver ready ${server.port}\n`);
  await new Promise<void>((resolve) => process.on("SIGTERM", () => resolve()));
  server.stop(true);
}

async function startReceiver(secret: string) {
  const proc = Bun.spawn([process.execPath, import.meta.path, "--receiver", secret], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const decoder = new TextDecoder();
  let out = "";
  for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
    out += decoder.decode(chunk);
    const match = /receiver ready (\d+)/.exec(out);
    if (match) return { proc, port: Number(match[1]) };
  }
  throw new Error(`receiver exited: ${out}`);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function setUp() {
  const dataDir = mkdtempSync(join(tmpdir(), "mailroom-bench-webhooks-"));
  const config = buildConfig({}, {}, { "": { data_dir: dataDir }, webhooks: { allow_private_networks: true } });
  const services = await createServices(config, {
    logger: silentLogger,
    secretKey: Buffer.alloc(32, 3).toString("base64"),
  });
  const org = await services.organizations.ensureDefault();
  const actor = operatorActor(org.id);
  return { dataDir, services, org, actor };
}

async function tearDown(services: Services, dataDir: string) {
  await services.webhookDispatcher.stop();
  await services.closeProviders();
  await services.store.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * Resolves when no delivery is pending. The check is one step of the outbox's partial index — cheap enough not
 * to slow the dispatcher it shares the thread with (a count over the table would).
 */
async function drained(services: Services) {
  const waiting = () =>
    services.store.query(sql`SELECT 1 AS one FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL LIMIT 1`);
  while ((await waiting()).length > 0) await Bun.sleep(5);
}

/** Appends `count` events (domain.updated: no message needed) in transactions of up to 1,000. */
async function appendEvents(services: Services, organizationId: string, count: number, firstSeq = 0) {
  for (let done = 0; done < count; done += 1000) {
    const batch = Math.min(1000, count - done);
    await services.writer.write(async (tx) => {
      for (let i = 0; i < batch; i++)
        await services.events.append(tx, {
          organizationId,
          type: "domain.updated",
          data: { seq: firstSeq + done + i },
        });
    });
  }
}

async function responses(services: Services) {
  return (
    await services.store.query<{ body: string; status: number | null }>(
      sql`SELECT response_body AS body, status_code AS status FROM webhook_attempts`,
    )
  ).map((row) => ({
    status: row.status,
    ...(JSON.parse(row.body || "{}") as { arrived?: number; failures?: number }),
  }));
}

async function throughput() {
  const { dataDir, services, org, actor } = await setUp();
  const created = await services.webhooks.create(actor, {
    endpoint: "http://127.0.0.1:9/",
    events: ["domain.updated"],
  });
  const receiver = await startReceiver(created.signing_secret);
  await services.webhooks.update(actor, created.id, { endpoint: `http://127.0.0.1:${receiver.port}/hooks` });
  try {
    await appendEvents(services, org.id, DELIVERIES);
    const started = performance.now();
    services.webhookDispatcher.start();
    await drained(services);
    const seconds = (performance.now() - started) / 1000;
    const answers = await responses(services);
    const failed = (
      await services.store.query<{ n: number }>(
        sql`SELECT CAST(count(*) AS INTEGER) AS n FROM webhook_deliveries WHERE status <> 'succeeded'`,
      )
    )[0]!.n;
    const verifyFailures = Math.max(0, ...answers.map((a) => a.failures ?? 0));
    return { perSecond: DELIVERIES / seconds, seconds, failed, verifyFailures, attempts: answers.length };
  } finally {
    receiver.proc.kill("SIGTERM");
    await receiver.proc.exited;
    await tearDown(services, dataDir);
  }
}

async function latency() {
  const { dataDir, services, org, actor } = await setUp();
  const created = await services.webhooks.create(actor, {
    endpoint: "http://127.0.0.1:9/",
    events: ["domain.updated"],
  });
  const receiver = await startReceiver(created.signing_secret);
  await services.webhooks.update(actor, created.id, { endpoint: `http://127.0.0.1:${receiver.port}/hooks` });
  services.webhookDispatcher.start();
  const appendedAt = new Map<number, number>();
  try {
    const total = SECONDS * LIGHT_RATE;
    const started = performance.now();
    for (let seq = 0; seq < total; seq++) {
      // Paced against the start, so a slow append does not slow the rate that follows.
      const due = started + (seq * 1000) / LIGHT_RATE;
      const wait = due - performance.now();
      if (wait > 0) await Bun.sleep(wait);
      appendedAt.set(seq, wallMs());
      await services.writer.write(async (tx) =>
        services.events.append(tx, { organizationId: org.id, type: "domain.updated", data: { seq } }),
      );
    }
    await drained(services);
    const rows = await services.store.query<{ payload: string; body: string }>(
      sql`SELECT d.payload AS payload, a.response_body AS body FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id`,
    );
    const delays = rows
      .map((row) => {
        const seq = (JSON.parse(row.payload) as { data: { seq: number } }).data.seq;
        return (JSON.parse(row.body) as { arrived: number }).arrived - appendedAt.get(seq)!;
      })
      .sort((a, b) => a - b);
    return { samples: delays.length, p50: percentile(delays, 50), p99: percentile(delays, 99), max: delays.at(-1)! };
  } finally {
    receiver.proc.kill("SIGTERM");
    await receiver.proc.exited;
    await tearDown(services, dataDir);
  }
}

if (process.argv[2] === "--receiver") {
  await runReceiver(process.argv[3]!);
} else {
  console.log(
    `Mailroom webhook benchmarks — ${new Date().toISOString()} — ${navigator.hardwareConcurrency} cores, Bun ${Bun.version}\n`,
  );
  const w1 = await throughput();
  console.log(
    `(w1) outbox → local receiver: ${fmt(w1.perSecond, 0)} deliveries/s (${DELIVERIES} in ${fmt(w1.seconds, 2)} s, ${w1.failed} not delivered, ` +
      `${w1.attempts} attempts, ${w1.verifyFailures} sampled signatures failed)   [target ≥ 2,000/s: ${check(w1.perSecond >= 2000 && w1.failed === 0)}]`,
  );
  record({
    measure: "webhook deliveries, outbox → local receiver",
    result: `${fmt(w1.perSecond)}/s (${w1.failed} not delivered)`,
    target: "≥ 2,000/s",
    met: w1.perSecond >= 2000 && w1.failed === 0,
  });
  const w2 = await latency();
  console.log(
    `(w2) event → arrival at ${LIGHT_RATE} events/s for ${SECONDS} s: p50 ${fmt(w2.p50, 2)} ms   p99 ${fmt(w2.p99, 2)} ms   max ${fmt(w2.max, 2)} ms ` +
      `(${w2.samples} samples)   [target p99 ≤ 50 ms: ${check(w2.p99 <= 50)}]`,
  );
  record({
    measure: `webhook event → arrival at ${LIGHT_RATE} events/s`,
    result: `p99 ${fmt(w2.p99, 1)} ms`,
    target: "p99 ≤ 50 ms",
    met: w2.p99 <= 50,
  });
}
