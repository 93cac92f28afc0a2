/**
 * Broadcasts and sending lanes (docs/broadcasts.md, docs/operations.md#sending-lanes), recorded in the performance
 * table, in this process on the sources:
 *   (bf) the fan-out: a broadcast to BENCH_BROADCAST_CONTACTS contacts (default 100,000, seeded straight into the
 *        store; every 25th unsubscribed, every 40th suppressed) from send to `sent`, every eligible contact's message
 *        made through emails.submit — on SQLite and on PostgreSQL (BENCH_PG_URL, else a throwaway cluster from
 *        scripts/test-postgres.sh; BENCH_PG_URL=off: SQLite only)                                       [< 60 s each]
 *   (bl) the lane: with the SQLite run's broadcast recipients waiting behind a slow sink (each broadcast attempt
 *        takes BENCH_SINK_MS, default 250 ms), transactional messages sent one every 50 ms; from each one's
 *        acceptance to the start of its first attempt                                                  [p99 ≤ 2 s]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { operatorActor } from "../src/access.ts";
import { buildConfig } from "../src/config/load.ts";
import { urlInSchema } from "../src/db/postgres/adapter.ts";
import { newId } from "../src/lib/ids.ts";
import { silentLogger } from "../src/lib/logger.ts";
import type { DeliveryJob, DeliveryResult, Provider } from "../src/providers/types.ts";
import { createServices, type Services } from "../src/server/app.ts";
import { seedAudience } from "./bench/audience.ts";
import { check, fmt, record } from "./bench/report.ts";

const CONTACTS = Number(process.env.BENCH_BROADCAST_CONTACTS ?? 100_000);
const SINK_MS = Number(process.env.BENCH_SINK_MS ?? 250);
const RECEIPTS = Number(process.env.BENCH_LANE_RECEIPTS ?? 200);
const ROOT = join(import.meta.dir, "..");

/** Attempts started, by recipient: when each first attempt began. A broadcast's recipient waits SINK_MS. */
const firstAttempt = new Map<string, number>();
const slowSink: Provider = {
  name: "slow-sink",
  async deliver(job: DeliveryJob): Promise<DeliveryResult> {
    if (!firstAttempt.has(job.recipient)) firstAttempt.set(job.recipient, performance.now());
    if (job.broadcast) await Bun.sleep(SINK_MS);
    return { outcome: "delivered", response: "250 2.0.0 OK" };
  },
  async close() {},
};

async function open(storeUrl: string) {
  const dataDir = mkdtempSync(join(tmpdir(), "mailroom-bench-broadcasts-"));
  const config = buildConfig({}, {}, { "": { data_dir: dataDir }, store: { url: storeUrl } });
  const services = await createServices(config, {
    logger: silentLogger,
    secretKey: Buffer.alloc(32, 5).toString("base64"),
    liveProvider: slowSink,
  });
  const org = await services.organizations.ensureDefault();
  const actor = operatorActor(org.id);
  await services.domains.add(actor, "example.com", { verifiedOverride: true });
  return { services, actor, dataDir };
}

/** (bf): seeds the audience, sends, and times the fan-out to `sent`. */
async function fanOut(engine: string, services: Services, actor: ReturnType<typeof operatorActor>) {
  const seededAt = performance.now();
  const { segmentId, eligible } = await seedAudience(services.store, actor.organizationId, CONTACTS, {
    unsubscribedEvery: 25,
    suppressedEvery: 40,
  });
  console.log(`(bf) ${engine}: ${fmt(CONTACTS)} contacts seeded in ${fmt((performance.now() - seededAt) / 1000, 1)} s`);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const { id } = await services.broadcasts.create(actor, {
    segment_id: segmentId,
    from: "News <news@example.com>",
    subject: "The news, {{{FIRST_NAME|reader}}}",
    html: '<p>Hello {{{FIRST_NAME|there}}}</p><p><a href="{{{RESEND_UNSUBSCRIBE_URL}}}">Unsubscribe</a></p>',
    send: true,
  });
  while ((await services.broadcastFanOut.runOnce()) > 0);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const view = await services.broadcasts.get(actor, id);
  const made = view.counts.messages;
  const ok = view.status === "sent" && made === eligible && seconds < 60;
  console.log(
    `(bf) ${engine}: ${fmt(made)} of ${fmt(eligible)} eligible contacts' messages made in ${fmt(seconds, 1)} s (${fmt(made / seconds)}/s, ${fmt((used.user + used.system) / 1000 / made, 2)} ms CPU each) ${check(ok)}`,
  );
  record({
    measure: `broadcast fan-out of ${fmt(CONTACTS)} contacts, ${engine}`,
    result: `${fmt(seconds, 1)} s (${fmt(made / seconds)} messages/s)`,
    target: "< 60 s",
    met: ok,
  });
}

/** (bl): receipts sent while the broadcast's recipients wait behind the slow sink; acceptance → first attempt. */
async function lane(services: Services, actor: ReturnType<typeof operatorActor>) {
  services.worker.start();
  await Bun.sleep(2_000); // the broadcast lane fills its slots with slow attempts
  const waits: number[] = [];
  const accepted = new Map<string, number>();
  for (let i = 0; i < RECEIPTS; i++) {
    const to = `buyer-${i}@shop.test`;
    const at = performance.now();
    await services.emails.submit(
      {
        kind: "fields",
        source: "api",
        fields: {
          from: { name: "", address: "receipts@example.com" },
          to: [{ name: "", address: to }],
          cc: [],
          bcc: [],
          replyTo: [],
          subject: "Your receipt",
          html: null,
          text: "Thanks",
          headers: [],
          attachments: [],
          tags: [],
        },
      },
      actor,
    );
    accepted.set(to, at);
    await Bun.sleep(50);
  }
  const deadline = performance.now() + 30_000;
  while ([...accepted.keys()].some((to) => !firstAttempt.has(to)) && performance.now() < deadline) await Bun.sleep(20);
  for (const [to, at] of accepted) waits.push((firstAttempt.get(to) ?? Number.POSITIVE_INFINITY) - at);
  waits.sort((a, b) => a - b);
  const p = (q: number) => waits[Math.min(waits.length - 1, Math.floor(q * waits.length))]!;
  const waiting = (await services.queue.summary(actor)).by_lane.find((l) => l.lane === "broadcast");
  const ok = p(0.99) <= 2_000;
  console.log(
    `(bl) ${RECEIPTS} receipts behind ${fmt(waiting?.queued ?? 0)} broadcast recipients queued (sink ${SINK_MS} ms each): first attempt p50 ${fmt(p(0.5))} ms, p99 ${fmt(p(0.99))} ms, max ${fmt(waits.at(-1)!)} ms ${check(ok)}`,
  );
  record({
    measure: `transactional first attempt behind ${fmt(waiting?.queued ?? 0)} waiting broadcast recipients (slow sink)`,
    result: `p99 ${fmt(p(0.99))} ms (p50 ${fmt(p(0.5))} ms)`,
    target: "p99 ≤ 2 s",
    met: ok,
  });
  await services.worker.stop();
}

const sqlite = await open("");
await fanOut("SQLite", sqlite.services, sqlite.actor);
await lane(sqlite.services, sqlite.actor);
await sqlite.services.closeProviders();
await sqlite.services.store.close();
rmSync(sqlite.dataDir, { recursive: true, force: true });

const pgUrl =
  process.env.BENCH_PG_URL === "off"
    ? undefined
    : (process.env.BENCH_PG_URL ??
      (() => {
        const started = Bun.spawnSync([join(ROOT, "scripts", "test-postgres.sh")], {
          stdout: "pipe",
          stderr: "ignore",
        });
        return started.exitCode === 0 ? started.stdout.toString().trim() : undefined;
      })());
if (pgUrl) {
  const pg = await open(urlInSchema(pgUrl, `bench_${newId().replace(/-/g, "")}`));
  await fanOut("PostgreSQL", pg.services, pg.actor);
  await pg.services.closeProviders();
  await pg.services.store.close();
  rmSync(pg.dataDir, { recursive: true, force: true });
} else console.log("(bf) PostgreSQL: skipped (no BENCH_PG_URL and no throwaway cluster)");
