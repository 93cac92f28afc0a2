/**
 * What every area is built on (docs/architecture.md#the-composition-root): the clock, logger and metrics, the master
 * key and the configuration it unseals, the store, the event log, the one DNS resolver, the CPU pool, idempotency,
 * the request limiter and the periodic jobs. Invariant: each is made once per app, here, and handed down.
 */
import { providerConfigs } from "../config/providers.ts";
import { unsealConfig } from "../config/sealed.ts";
import type { Config } from "../config/options.ts";
import { openStore } from "../db/open.ts";
import type { Writer } from "../db/store.ts";
import { recordSettings } from "../domains/records.ts";
import { createEventLog } from "../events/service.ts";
import { createIdempotency } from "../idempotency/service.ts";
import { createPeriodicJobs } from "../jobs/periodic.ts";
import { systemClock, type Clock } from "../lib/clock.ts";
import { createResolver } from "../lib/dns.ts";
import { createLogger, type Logger } from "../lib/logger.ts";
import { createSecretBox, loadMasterKey } from "../lib/secrets.ts";
import { createRateLimiter, createStoreRateLimiter, pruneAdmissions } from "../limits/rate-limiter.ts";
import { CONTENT_THREAD, CPU_THREAD } from "../thread-entries.ts";
import { createCpuPool } from "../cpu/pool.ts";
import { createMailroomMetrics } from "./metrics.ts";

const IDEMPOTENCY_PRUNE_MS = 3_600_000;
const RATE_LIMIT_PRUNE_MS = 60_000;

export interface FoundationOptions {
  clock?: Clock;
  logger?: Logger;
  /** The master key's environment value (`MAILROOM_SECRET_KEY`); the CLI passes it, tests may leave it out. */
  secretKey?: string;
}

export type Foundation = Awaited<ReturnType<typeof openFoundation>>;

export async function openFoundation(configured: Config, options: FoundationOptions) {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(configured.log.level as "info");
  const secrets = createSecretBox(loadMasterKey(options.secretKey, configured.data_dir, logger));
  const config = unsealConfig(configured, secrets);
  const store = await openStore(config, logger, { contentThread: CONTENT_THREAD });
  const { db } = store;
  const writer: Writer = store;
  const idempotency = createIdempotency({ db, writer, clock });
  const periodic = createPeriodicJobs({ db, writer, clock, logger });
  periodic.every("idempotency-prune", IDEMPOTENCY_PRUNE_MS, () => idempotency.prune());
  if (store.shared)
    periodic.every("rate-limit-prune", RATE_LIMIT_PRUNE_MS, () => pruneAdmissions({ db, writer, clock }));
  return {
    config,
    clock,
    logger,
    metrics: createMailroomMetrics(),
    secrets,
    store,
    db,
    writer,
    events: createEventLog({ clock }),
    /** The one DNS resolver (`[dns] servers`) every lookup goes through. */
    resolver: createResolver(config.dns.servers),
    // Derived once: the records, the providers to build and the names domains may give all come from these.
    records: recordSettings(config),
    providers: providerConfigs(config),
    cpu: createCpuPool(CPU_THREAD),
    idempotency,
    // The windows live where every instance sees them: in the store when instances share it, else in memory.
    limiter: store.shared ? createStoreRateLimiter({ db, writer, clock }) : createRateLimiter(clock),
    periodic,
    organizationDefaults: {
      requestsPerMinute: config.limits.org_requests_per_minute,
      contentRetentionMs: config.retention.content,
      metadataRetentionMs: config.retention.metadata,
    },
  };
}
