/**
 * The app: the services (services.ts) behind their front ends — the HTTP API, the SMTP relay and the inbound MX —
 * started and stopped in order. Invariant: `stop()` stops accepting first, then drains deliveries in flight, then
 * closes the store.
 */
import type { Config } from "../config/options.ts";
import { queueGauges } from "../deliveries/attempts.ts";
import { storageFigures } from "../emails/retention.ts";
import { everyStoredBytes } from "../inbound/repo.ts";
import { ConfigError } from "../lib/config-error.ts";
import { diskOf } from "../lib/disk.ts";
import type { Logger } from "../lib/logger.ts";
import { DELIVERIES_DUE, WEBHOOKS_DUE } from "../queue/channels.ts";
import { createInboundMx, type InboundMx } from "../smtp/inbound.ts";
import { createSmtpRelay, type SmtpRelay } from "../smtp/relay.ts";
import { outboxGauges } from "../webhooks/dispatcher.ts";
import { listenMetrics, parseListenAddress } from "./metrics-listener.ts";
import { registerGauges } from "./metrics.ts";
import { assertDaneResolver } from "./providers.ts";
import packageJson from "../../package.json" with { type: "json" };
import { createHttpApp, listenHttp, type HttpApp } from "./routes.ts";
import { createServices, type AppOptions, type Services } from "./services.ts";

export { createServices, type AppOptions, type Services };

/** The release, from package.json alone (bundled into the executable), so `mailroom version` and the tag agree. */
export const VERSION: string = packageJson.version;
/** How long stopping waits for HTTP requests in flight before it closes their connections. */
const HTTP_DRAIN_MS = 10_000;

export interface Listener {
  name: string;
  host: string;
  port: number;
}

export interface App {
  services: Services;
  http: HttpApp;
  /** The SMTP relay (submission and smtps listeners). */
  smtp: SmtpRelay;
  /** The inbound MX listener. */
  mx: InboundMx;
  /** Starts listeners and workers; resolves with the bound addresses. */
  start(): Promise<Listener[]>;
  stop(): Promise<void>;
}

/**
 * Stops the HTTP listener: no new connections, and the requests in flight may finish for HTTP_DRAIN_MS. A request
 * that is still open then (a client that stalls its body or never reads its answer) has its connection closed, so
 * shutdown is never held up by a peer; its client sees the connection drop and may retry with its idempotency key.
 */
async function stopHttp(server: ReturnType<typeof listenHttp> | undefined, logger: Logger): Promise<void> {
  if (!server) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const drained = await Promise.race([
    server.stop().then(() => true),
    new Promise<false>((resolve) => (timer = setTimeout(resolve, HTTP_DRAIN_MS, false))),
  ]);
  clearTimeout(timer);
  if (drained) return;
  logger.warn("stopping: HTTP requests still open after the drain time; closing their connections", {
    pending_requests: server.pendingRequests,
    drain_ms: HTTP_DRAIN_MS,
  });
  await server.stop(true);
}

/** Builds the services on the configured store (the CLI uses these without starting anything). */
export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const services = await createServices(config, options);
  const { logger, worker, store } = services;
  let ready = false;
  let server: ReturnType<typeof listenHttp> | undefined;
  let metricsServer: ReturnType<typeof listenMetrics> | undefined;

  const http = createHttpApp({ ...services, version: VERSION, isReady: () => ready });
  const smtp = createSmtpRelay(services);
  const mx = createInboundMx(services);
  registerGauges(services.metrics, {
    queue: queueGauges(services.store.db, services.clock),
    deliveriesInFlight: () => worker.inFlight,
    outbox: outboxGauges(services.store.db, services.clock),
    smtpConnections: () => [...smtp.connections(), { listener: "mx", open: mx.connections() }],
    storage: () => storageFigures(services.store.db),
    health: () => services.guardrails.everyHealth(),
    blocklists: () => services.blocklists.listings(),
    backOffs: () => services.sendingIps.backOffs(),
    disk: () => diskOf(config.data_dir),
    inboundStorage: async () => ({
      limit: config.inbound.max_stored_bytes,
      organizations: await everyStoredBytes(services.store.db),
    }),
  });

  /** `[metrics] listen`: /metrics on a listener of its own (and then not on the API's port, server/routes.ts). */
  const startMetricsListener = (): Listener[] => {
    const address = parseListenAddress(config.metrics.listen);
    try {
      metricsServer = listenMetrics(services.metrics, logger, { ...address, token: config.metrics.token });
    } catch (error) {
      throw new ConfigError(
        `metrics.listen: cannot listen on ${config.metrics.listen} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      );
    }
    return [{ name: "metrics", host: address.hostname, port: metricsServer.port! }];
  };

  return {
    services,
    http,
    smtp,
    mx,
    async start() {
      // Before anything listens: DANE over a resolver that does not validate would authenticate nothing.
      await assertDaneResolver(config);
      try {
        server = listenHttp(http, logger, {
          hostname: config.http.host,
          port: config.http.port,
          idleTimeout: Math.ceil(config.http.idle_timeout / 1000),
        });
      } catch (error) {
        // A taken or forbidden port is a setting to change, said as such (the SMTP listeners say it the same way).
        throw new ConfigError(
          `http.port: cannot listen on ${config.http.host}:${config.http.port} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        );
      }
      services.httpAddress.port = server.port!;
      const metricsListener = config.metrics.listen ? startMetricsListener() : [];
      const relay = await smtp.start();
      const inboundMx = await mx.start();
      // Other instances sharing the store announce new work at commit; polling covers what is due by time.
      store.listen(DELIVERIES_DUE, worker.wake);
      store.listen(WEBHOOKS_DUE, services.webhookDispatcher.wake);
      worker.start();
      services.webhookDispatcher.start();
      services.periodic.start();
      services.contactImports.start();
      services.broadcastFanOut.start();
      ready = true;
      return [
        { name: "http", host: config.http.host, port: server.port! },
        ...metricsListener,
        ...relay,
        ...(inboundMx ? [{ name: "mx", ...inboundMx }] : []),
      ];
    },
    async stop() {
      ready = false;
      // Stop accepting: in-flight requests and SMTP messages finish (their writes commit) before the servers close.
      await Promise.all([stopHttp(server, logger), metricsServer?.stop(), smtp.stop(), mx.stop()]);
      await services.domains.stop();
      await Promise.all([
        worker.stop(),
        services.webhookDispatcher.stop(),
        services.periodic.stop(),
        services.contactImports.stop(),
        services.broadcastFanOut.stop(),
      ]);
      await services.tlsReports.settled();
      await services.requestLog.stop();
      await services.closeProviders();
      await store.close();
      logger.info("stopped");
    },
  };
}
