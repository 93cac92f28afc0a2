/**
 * The composition root: builds every service with explicit dependencies, starts and stops the listeners and
 * workers. Invariant: nothing else constructs services or reads configuration; `stop()` stops accepting first,
 * then drains deliveries in flight, then closes the store.
 */
import { join } from "node:path";
import { ConfigError } from "./config/load.ts";
import type { Config } from "./config/schema.ts";
import { openStore, type Store } from "./db/client.ts";
import { createWriter, type Writer } from "./db/writer.ts";
import { createDomainService, type DomainService } from "./domains/service.ts";
import { createIdempotency, type Idempotency } from "./emails/idempotency.ts";
import { createEmailService, type EmailService } from "./emails/service.ts";
import { createEventLog, type EventLog } from "./events/service.ts";
import { createHttpApp, type HttpApp } from "./http/app.ts";
import type { KeyMode } from "./keys/model.ts";
import { createKeyService, type KeyService } from "./keys/service.ts";
import { createRateLimiter, type RateLimiter } from "./limits/rate-limiter.ts";
import { systemClock, type Clock } from "./lib/clock.ts";
import { createLogger, type Logger } from "./lib/logger.ts";
import { createMetrics, type Metrics } from "./lib/metrics.ts";
import { createSecretBox, loadMasterKey, type SecretBox } from "./lib/secrets.ts";
import { createOrganizationService, type OrganizationService } from "./organizations/service.ts";
import { createCaptureProvider } from "./providers/capture.ts";
import { createSmtpProvider } from "./providers/smtp.ts";
import type { Provider } from "./providers/types.ts";
import { createDeliveryWorker, queueGauges, type DeliveryWorker } from "./queue/worker.ts";
import { createSuppressionService, type SuppressionService } from "./suppressions/service.ts";

export const VERSION = "0.1.0";
const IDEMPOTENCY_PRUNE_MS = 3_600_000;

export interface Services {
  config: Config;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  store: Store;
  writer: Writer;
  events: EventLog;
  organizations: OrganizationService;
  keys: KeyService;
  domains: DomainService;
  suppressions: SuppressionService;
  idempotency: Idempotency;
  emails: EmailService;
  limiter: RateLimiter;
  worker: DeliveryWorker;
  /** Seals secrets stored in the database (DKIM keys, webhook secrets). */
  secrets: SecretBox;
  closeProviders(): Promise<void>;
}

export interface Listener {
  name: string;
  host: string;
  port: number;
}

export interface App {
  services: Services;
  http: HttpApp;
  /** Starts listeners and workers; resolves with the bound addresses. */
  start(): Promise<Listener[]>;
  stop(): Promise<void>;
}

export interface AppOptions {
  clock?: Clock;
  logger?: Logger;
  /** Replaces the configured live provider (tests drive a programmable one). */
  liveProvider?: Provider;
  /** The master key's environment value (`MAILROOM_SECRET_KEY`); the CLI passes it, tests may leave it out. */
  secretKey?: string;
}

export function databasePath(config: Config): string {
  return join(config.data_dir, "mailroom.db");
}

function buildLiveProvider(config: Config): Provider {
  if (config.delivery.provider === "capture") return createCaptureProvider();
  const smarthost = config.smarthost;
  if (!smarthost.host) throw new ConfigError("smarthost.host: required when delivery.provider = \"smtp\"");
  return createSmtpProvider({
    host: smarthost.host,
    port: smarthost.port,
    security: smarthost.security as "starttls" | "tls" | "none",
    username: smarthost.username,
    password: smarthost.password,
    poolSize: smarthost.pool_size,
    connectTimeoutMs: smarthost.connect_timeout,
    socketTimeoutMs: smarthost.socket_timeout,
    tlsRejectUnauthorized: smarthost.tls_reject_unauthorized,
  });
}

/** Builds the services on the store in `config.data_dir` (the CLI uses these without starting anything). */
export function createServices(config: Config, options: AppOptions = {}): Services {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(config.log.level as "info");
  const metrics = createMetrics();
  const store = openStore(databasePath(config));
  const secrets = createSecretBox(loadMasterKey(options.secretKey, config.data_dir, logger));
  const { db } = store;
  const writer = createWriter(store.sqlite, db);
  const events = createEventLog({ clock });
  const organizations = createOrganizationService({ db, writer, clock });
  const keys = createKeyService({ db, writer, clock });
  const domains = createDomainService({ db, writer, clock });
  const suppressions = createSuppressionService({ db, writer, clock, events });
  const idempotency = createIdempotency({ db, clock });
  const limiter = createRateLimiter(clock);

  const capture = createCaptureProvider();
  let live: Provider | undefined = options.liveProvider;
  const providerFor = (mode: KeyMode) => (mode === "test" ? capture : (live ??= buildLiveProvider(config)));
  const delivery = config.delivery;
  const worker = createDeliveryWorker({
    db,
    writer,
    clock,
    events,
    suppressions,
    providerFor,
    options: {
      concurrency: delivery.concurrency,
      perDestinationConcurrency: delivery.per_destination_concurrency,
      schedule: delivery.retry_schedule,
      maxAgeMs: delivery.retry_max_age,
      leaseMs: delivery.lease,
      pollMs: delivery.poll_interval,
    },
    logger,
    metrics,
  });

  metrics.counter("mailroom_emails_accepted_total", "Messages accepted for delivery.");
  const emails = createEmailService({
    db,
    writer,
    clock,
    events,
    suppressions,
    domains,
    idempotency,
    limits: { maxRecipients: config.limits.max_recipients, maxMessageBytes: config.limits.max_message_bytes, maxBatchSize: config.limits.max_batch_size },
    onAccepted: (count) => {
      metrics.inc("mailroom_emails_accepted_total", {}, count);
      worker.wake();
    },
  });

  const gauges = queueGauges(db, clock);
  metrics.gauge("mailroom_queue_due", "Deliveries due now.", () => [{ value: gauges().due }]);
  metrics.gauge("mailroom_queue_pending", "Deliveries not yet final (due or waiting for a retry or schedule).", () => [{ value: gauges().pending }]);
  metrics.gauge("mailroom_queue_oldest_due_age_seconds", "Age of the oldest due delivery.", () => [{ value: gauges().oldestDueAgeSeconds }]);
  metrics.gauge("mailroom_deliveries_in_flight", "Delivery attempts in progress.", () => [{ value: worker.inFlight }]);

  // Validate the provider configuration now rather than at the first delivery.
  if (!options.liveProvider) live = buildLiveProvider(config);

  const closeProviders = async () => {
    await capture.close();
    await live?.close();
  };

  return { config, clock, logger, metrics, store, writer, events, organizations, keys, domains, suppressions, idempotency, emails, limiter, worker, secrets, closeProviders };
}

export function createApp(config: Config, options: AppOptions = {}): App {
  const services = createServices(config, options);
  const { logger, worker, writer, store } = services;
  let ready = false;
  let server: ReturnType<HttpApp["listen"]> | undefined;
  let janitor: ReturnType<typeof setInterval> | undefined;

  const http = createHttpApp({ ...services, version: VERSION, isReady: () => ready });

  return {
    services,
    http,
    async start() {
      server = http.listen({ hostname: config.http.host, port: config.http.port, maxRequestBodySize: config.http.max_body_bytes + 1024 });
      const bound = server.server!;
      worker.start();
      janitor = setInterval(() => services.idempotency.prune(), IDEMPOTENCY_PRUNE_MS);
      ready = true;
      return [{ name: "http", host: config.http.host, port: bound.port! }];
    },
    async stop() {
      ready = false;
      if (janitor) clearInterval(janitor);
      // Stop accepting: in-flight requests finish (their writes commit) before the server closes.
      await server?.stop();
      await worker.stop();
      writer.flush();
      await services.closeProviders();
      store.close();
      logger.info("stopped");
    },
  };
}
