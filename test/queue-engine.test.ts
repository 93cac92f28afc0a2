/**
 * The leased-queue engine on each store engine, through the delivery queue with a provider that holds each attempt
 * a moment: the workers on one store (two instances on PostgreSQL; SQLite has one writer, so one) never attempt a
 * delivery twice, hold the per-destination cap (per instance), and `stop()` returns only once every attempt in
 * flight is recorded, its lease cleared.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import { createServices, type Services } from "../src/server/app.ts";
import { parseSendRequest } from "../src/emails/validate.ts";
import { operatorActor } from "../src/access.ts";
import { silentLogger } from "../src/lib/logger.ts";
import type { DeliveryJob, Provider } from "../src/providers/types.ts";
import { tempDir, testConfig } from "./helpers/app.ts";
import { freshStoreUrl } from "./helpers/postgres.ts";

const pgUrl = process.env.MAILROOM_TEST_PG_URL;
const CAP = 2;
const dirs: string[] = [];
const opened: Services[] = [];
afterAll(async () => {
  for (const services of opened) {
    await services.closeProviders();
    await services.store.close();
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A provider that holds every attempt 20 ms and records who was attempted and how many ran at once. */
function holdingProvider() {
  const attempts: string[] = [];
  const running = new Map<string, number>();
  let maxPerDestination = 0;
  let inFlight = 0;
  const provider: Provider = {
    name: "holding",
    async deliver(job: DeliveryJob) {
      attempts.push(job.deliveryId);
      const destination = job.recipient.split("@")[1]!;
      running.set(destination, (running.get(destination) ?? 0) + 1);
      maxPerDestination = Math.max(maxPerDestination, running.get(destination)!);
      inFlight++;
      await Bun.sleep(20);
      inFlight--;
      running.set(destination, running.get(destination)! - 1);
      return { outcome: "sent", response: "250 OK" };
    },
    async close() {},
  };
  return {
    provider,
    attempts,
    get maxPerDestination() {
      return maxPerDestination;
    },
    get inFlight() {
      return inFlight;
    },
  };
}

const engines: Array<[string, string, number]> = [
  ["SQLite", "", 1],
  ...(pgUrl ? [["PostgreSQL", freshStoreUrl("q", pgUrl), 2] as [string, string, number]] : []),
];

describe.each(engines)("the leased-queue engine on %s", (_engine, storeUrl, instances) => {
  test("the workers share the queue: each delivery once, the cap held, stop drains", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const config = testConfig(dir, {
      store: { url: storeUrl },
      delivery: { per_destination_concurrency: CAP, concurrency: 8, poll_interval: "50ms" },
    });
    const holding = holdingProvider();
    const pair: Services[] = [];
    for (let i = 0; i < instances; i++)
      pair.push(await createServices(config, { logger: silentLogger, liveProvider: holding.provider }));
    opened.push(...pair);
    const actor = operatorActor((await pair[0]!.organizations.ensureDefault()).id);
    await pair[0]!.domains.add(actor, "example.com", { verifiedOverride: true });
    const inputs = Array.from({ length: 60 }, (_, i) => ({
      kind: "fields" as const,
      source: "api" as const,
      fields: parseSendRequest(
        { from: "q@example.com", to: `r${i}@dest${i % 3}.test`, subject: "Queue", html: "<p>q</p>" },
        { now: Date.now(), maxRecipients: 50 },
      ),
    }));
    await pair[0]!.emails.submitBatch(inputs, actor);

    for (const services of pair) services.worker.start();
    const queued = async () =>
      (
        await pair[0]!.store.query<{ n: number }>(
          sql`SELECT CAST(count(*) AS INTEGER) AS n FROM deliveries WHERE status = 'queued'`,
        )
      )[0]!.n;
    while ((await queued()) > 40) await Bun.sleep(5);
    // Stop in the middle of the work: stop() resolves only when the attempts in flight are recorded.
    await Promise.all(pair.map((services) => services.worker.stop()));
    expect(holding.inFlight).toBe(0);
    const leased = await pair[0]!.store.query<{ n: number }>(
      sql`SELECT CAST(count(*) AS INTEGER) AS n FROM deliveries WHERE lease_owner IS NOT NULL`,
    );
    expect(leased[0]!.n).toBe(0);

    // The rest is delivered by one worker alone, run by hand.
    while ((await queued()) > 0) await pair.at(-1)!.worker.runOnce();
    expect(new Set(holding.attempts).size).toBe(60);
    expect(holding.attempts).toHaveLength(60);
    expect(holding.maxPerDestination).toBeLessThanOrEqual(CAP * instances);
    expect(holding.maxPerDestination).toBeGreaterThan(0);
  }, 30_000);
});
