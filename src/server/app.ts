/**
 * The composition root: builds every service with explicit dependencies, starts and stops the listeners and
 * workers. Invariant: nothing else constructs services or reads configuration; `stop()` stops accepting first,
 * then drains deliveries in flight, then closes the store.
 */
import { CONTENT_THREAD, CPU_THREAD } from "../thread-entries.ts";
import { createChatModel } from "../ai/model.ts";
import { createAiService, type AiService } from "../ai/service.ts";
import { ConfigError } from "../lib/config-error.ts";
import { providerConfigs } from "../config/providers.ts";
import { unsealConfig } from "../config/sealed.ts";
import type { Config } from "../config/schema.ts";
import { openStore } from "../db/open.ts";
import type { Store, Writer } from "../db/store.ts";
import { createDeliveryWorker, queueGauges, type DeliveryWorker } from "../deliveries/attempts.ts";
import { createLifecycle, type Lifecycle } from "../deliveries/lifecycle.ts";
import { createSendingPauses, type SendingPauses } from "../deliveries/pauses.ts";
import { createGuardrails, type Guardrails } from "../deliverability/guardrails.ts";
import { createStoredPolicyCache } from "../providers/mta-sts-store.ts";
import { createTlsReporting, type TlsReporting } from "../deliverability/tls-reports.ts";
import { createBlocklists, type Blocklists } from "../deliverability/blocklists.ts";
import type { TlsSession } from "../providers/mx.ts";
import { createSendingIps, type SendingIps } from "../providers/sending-ips.ts";
import { createDmarcReports, type DmarcReports } from "../deliverability/dmarc.ts";
import { createDeliveryQueue, type DeliveryQueue } from "../deliveries/queue.ts";
import { createSesEventIntake, type SesEventIntake } from "../deliveries/provider-events.ts";
import { createReportIntake } from "../deliveries/reports.ts";
import { recordSettings } from "../domains/records.ts";
import { createDomainService, type DomainService } from "../domains/service.ts";
import { createOutgoingSigner, createReturnPathCodec } from "../domains/signing.ts";
import { createIdempotency, type Idempotency } from "../idempotency/service.ts";
import { createMailbox, type Mailbox } from "../inbound/mailbox.ts";
import { createInboundService, type InboundService } from "../inbound/service.ts";
import { createAttachmentFetcher } from "../emails/remote-attachments.ts";
import { createEmailService, type EmailService } from "../emails/service.ts";
import { createAccountMailer } from "../emails/system-mail.ts";
import { createEventLog, type EventLog } from "../events/service.ts";
import { createHttpApp, listenHttp, type HttpApp } from "./routes.ts";
import { listenMetrics, parseListenAddress } from "./metrics-listener.ts";
import type { KeyMode } from "../access.ts";
import { createKeyService, type KeyService } from "../keys/service.ts";
import {
  createRateLimiter,
  createStoreRateLimiter,
  pruneAdmissions,
  type RateLimiter,
} from "../limits/rate-limiter.ts";
import { domainOf } from "../lib/addresses.ts";
import { systemClock, type Clock } from "../lib/clock.ts";
import { createResolver, resolveFunction, type DnsResolver } from "../lib/dns.ts";
import { createLogger, type Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import { createMailroomMetrics, registerGauges } from "./metrics.ts";
import { createSecretBox, loadMasterKey, type SecretBox } from "../lib/secrets.ts";
import { createSignedLinks } from "../lib/signed-links.ts";
import { createSentAttachments, type SentAttachments } from "../emails/attachments.ts";
import { createEmailStats, type EmailStatsService } from "../emails/stats.ts";
import { createOrganizationService, type OrganizationService } from "../organizations/service.ts";
import { createMembers, type Members } from "../people/members.ts";
import { createPeople, type AccountMail, type People } from "../people/service.ts";
import { publicLinkBase } from "../config/links.ts";
import { createSingleSignOn, type SingleSignOn } from "../people/sso.ts";
import { createRetention, storageFigures, type Retention } from "../emails/retention.ts";
import { createDailyQuotas } from "../limits/daily-quota.ts";
import { createCaptureProvider } from "../providers/capture.ts";
import { createSimulatorProvider, isSimulatorAddress } from "../providers/simulator.ts";
import { createRouter } from "../providers/router.ts";
import { createSnsVerifier } from "../providers/sns.ts";
import type { Provider } from "../providers/types.ts";
import { DELIVERIES_DUE, WEBHOOKS_DUE } from "../queue/channels.ts";
import { createPeriodicJobs, type PeriodicJobs } from "../jobs/periodic.ts";
import { createInboundMx, type InboundMx } from "../smtp/inbound.ts";
import { createSmtpRelay, type SmtpRelay } from "../smtp/relay.ts";
import { createSuppressionService, type SuppressionService } from "../suppressions/service.ts";
import { createTemplateService, type TemplateService } from "../templates/service.ts";
import { createTrackingService, type TrackingService } from "../tracking/service.ts";
import { createWebhookDispatcher, outboxGauges, type WebhookDispatcher } from "../webhooks/dispatcher.ts";
import { createEndpointGuard } from "../lib/endpoint-guard.ts";
import { newId } from "../lib/ids.ts";
import { createWebhookService, type WebhookService } from "../webhooks/service.ts";
import { createSigner } from "../webhooks/signing.ts";
import { buildProvider } from "./providers.ts";
import { createCpuPool, type CpuPool } from "./cpu-pool.ts";

export const VERSION = "0.1.0";
const IDEMPOTENCY_PRUNE_MS = 3_600_000;
/** How often the domain scheduler looks for due DNS checks (their intervals are configured in [domains]). */
const DOMAIN_CHECK_POLL_MS = 60_000;
const RATE_LIMIT_PRUNE_MS = 60_000;
/** How often an instance looks for TLS reporting periods that ended ([tls_rpt] interval sets the period). */
const TLS_RPT_LOOK_MS = 3_600_000;
/** How long stopping waits for HTTP requests in flight before it closes their connections. */
const HTTP_DRAIN_MS = 10_000;
const INBOUND_PRUNE_MS = 3_600_000;
/** Download links (received mail, attachments) work for an hour, as Resend's do. */
const DOWNLOAD_LINK_LIFETIME_MS = 3_600_000;
/** SNS's certificate and SubscribeURL requests: small answers from AWS, so a slow one is a fault, not a wait. */
const SNS_FETCH_TIMEOUT_MS = 10_000;
/** All of one message's attachment `path` fetches together: the sender's API request waits for them. */
const ATTACHMENT_FETCH_TIMEOUT_MS = 30_000;

export interface Services {
  config: Config;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  store: Store;
  writer: Writer;
  events: EventLog;
  organizations: OrganizationService;
  people: People;
  members: Members;
  sso: SingleSignOn;
  retention: Retention;
  keys: KeyService;
  domains: DomainService;
  suppressions: SuppressionService;
  /** A recipient's fate: the one writer of its status. */
  lifecycle: Lifecycle;
  /** The delivery queue as an operator sees and steers it. */
  queue: DeliveryQueue;
  /** Sending paused for an organisation, a sending domain or a provider. */
  pauses: SendingPauses;
  guardrails: Guardrails;
  dmarcReports: DmarcReports;
  tlsReports: TlsReporting;
  blocklists: Blocklists;
  sendingIps: SendingIps;
  idempotency: Idempotency;
  emails: EmailService;
  limiter: RateLimiter;
  /** Domain re-checks and pruning, each run once across the instances sharing the store. */
  periodic: PeriodicJobs;
  worker: DeliveryWorker;
  /** Seals secrets stored in the database (DKIM keys, webhook secrets). */
  secrets: SecretBox;
  /** The one DNS resolver (`[dns] servers`) every lookup goes through. */
  resolver: DnsResolver;
  webhooks: WebhookService;
  /** Sends the webhook outbox. */
  webhookDispatcher: WebhookDispatcher;
  tracking: TrackingService;
  /** Incoming mail: the funnel for what the MX accepts (reports, replies, other mail to receiving domains). */
  inbound: InboundService;
  /** Received mail as the API reads it, and its retention. */
  mailbox: Mailbox;
  /** Saved templates and their rendering. */
  templates: TemplateService;
  /** The CPU pool's threads: signing, composition, templates and parsing, off the event loop. */
  cpu: CpuPool;
  /** The AI writer and subject optimiser. */
  ai: AiService;
  sesEvents: SesEventIntake;
  sentAttachments: SentAttachments;
  /** Email counts over time, read from the event log (the admin overview). */
  emailStats: EmailStatsService;
  /** The HTTP listener's address once bound; tracking links fall back to it when `http.public_url` is empty. */
  httpAddress: { host: string; port: number };
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
  /** The SMTP relay (submission and smtps listeners). */
  smtp: SmtpRelay;
  /** The inbound MX listener. */
  mx: InboundMx;
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
  /** Extra CA certificates (PEM) trusted for webhook endpoints; tests use it for an https receiver of their own. */
  webhookCa?: string;
  /** Extra CA certificates (PEM) trusted for MTA-STS policy servers and the MX hosts under a policy; tests. */
  mxCa?: string;
  /** TEST ONLY: extra CA certificates (PEM) trusted for `[sns] test_certificate_host`. */
  snsCa?: string;
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
export async function createServices(configured: Config, options: AppOptions = {}): Promise<Services> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? createLogger(configured.log.level as "info");
  const metrics = createMailroomMetrics();
  const secrets = createSecretBox(loadMasterKey(options.secretKey, configured.data_dir, logger));
  const config = unsealConfig(configured, secrets);
  const store = await openStore(config, logger, { contentThread: CONTENT_THREAD });
  const { db } = store;
  const writer: Writer = store;
  const events = createEventLog({ clock });
  const organizationDefaults = {
    requestsPerMinute: config.limits.org_requests_per_minute,
    contentRetentionMs: config.retention.content,
    metadataRetentionMs: config.retention.metadata,
  };
  const organizations = createOrganizationService({ db, writer, clock, defaults: organizationDefaults });
  // Mail about accounts goes through the emails service, built further down on services built after people.
  let accountMailer: AccountMail | undefined;
  const accountMail: AccountMail = { send: async (input) => (await accountMailer?.send(input)) ?? false };
  const linkBase = publicLinkBase(config);
  const people = createPeople({
    db,
    writer,
    clock,
    secrets,
    totpIssuer: config.http.public_url ? `Mailroom (${new URL(config.http.public_url).host})` : "Mailroom",
    ssoRequired: config.oidc.required && Boolean(config.oidc.issuer),
    mail: accountMail,
    linkBase,
    logger,
  });
  const members = createMembers({ db, writer, clock, people, mail: accountMail, linkBase });
  const sso = createSingleSignOn({
    db,
    writer,
    clock,
    config: config.oidc,
    people,
  });
  const suppressions = createSuppressionService({ db, writer, clock, events, listen: store.listen });
  const lifecycle = createLifecycle({ events, suppressions, clock });
  const keys = createKeyService({
    db,
    writer,
    clock,
    defaultKeyRateLimit: config.limits.key_requests_per_minute,
    listen: store.listen,
  });
  const resolver = createResolver(config.dns.servers);
  // Derived once: the records, the providers to build and the names domains may give all come from these.
  const records = recordSettings(config);
  const providers = providerConfigs(config);
  const domains = createDomainService({
    db,
    writer,
    clock,
    listen: store.listen,
    events,
    lifecycle,
    secrets,
    resolver,
    settings: records,
    providerNames: [...providers.keys()],
    pools: config.ip_pools,
    options: {
      defaultReturnPathSubdomain: config.domains.return_path_subdomain,
      pendingCheckIntervalMs: config.domains.pending_check_interval,
      verifiedCheckIntervalMs: config.domains.verified_check_interval,
      failureTimeoutMs: config.domains.failure_timeout,
    },
    logger,
  });
  const cpu = createCpuPool(CPU_THREAD);
  const returnPaths = createReturnPathCodec(secrets.deriveKey("return-path"));
  const signer = createOutgoingSigner({ domains, returnPaths, dkim: cpu, clock, logger });
  const liveDeps = {
    resolver,
    signer,
    logger,
    clock,
    hostname: records.hostname,
    mtaStsCache: createStoredPolicyCache({ db, writer }),
    tlsSessions: (session: TlsSession) => tlsReports.record(session),
    sendingIps: createSendingIps({ db, writer, clock, pools: config.ip_pools, shaping: config.shaping }),
    mxCa: options.mxCa,
  };
  const tlsReports = createTlsReporting({
    db,
    writer,
    clock,
    logger,
    resolver,
    guard: createEndpointGuard({
      resolver,
      allowPrivateNetworks: config.webhooks.allow_private_networks,
      hint: "TLS report endpoints must be public (set [webhooks] allow_private_networks = true for local receivers)",
    }),
    hostname: records.hostname,
    sendingIp: config.server.public_ips[0] ?? "0.0.0.0",
    periodMs: config.tls_rpt.interval,
    // One message to one address, through the providers as any of Mailroom's own mail (unsigned: the server's name
    // is no organisation's domain); a report that fails is tried again at the next run.
    mail: async ({ from, to, raw }) => {
      const id = newId();
      const result = await live.deliver({
        deliveryId: id,
        emailId: id,
        organizationId: "",
        envelopeFrom: from,
        recipient: to,
        attempts: 0,
        messageId: `<${id}@${records.hostname}>`,
        raw,
      });
      return result.outcome === "delivered" || result.outcome === "sent";
    },
    ca: options.mxCa,
  });
  const idempotency = createIdempotency({ db, writer, clock });
  // The windows live where every instance sees them: in the store when instances share it, else in memory.
  const limiter = store.shared ? createStoreRateLimiter({ db, writer, clock }) : createRateLimiter(clock);
  const periodic = createPeriodicJobs({ db, writer, clock, logger });
  periodic.every("domain-checks", DOMAIN_CHECK_POLL_MS, () => domains.runOnce());
  periodic.every("idempotency-prune", IDEMPOTENCY_PRUNE_MS, () => idempotency.prune());
  if (store.shared)
    periodic.every("rate-limit-prune", RATE_LIMIT_PRUNE_MS, () => pruneAdmissions({ db, writer, clock }));

  /** The providers a sending domain's mail goes through, in order: the domain's, else the default one. */
  const routeOf = async (organizationId: string, sendingDomain: string) => {
    const named = await domains.providersOf(organizationId, sendingDomain);
    return named.length ? named : [config.delivery.default_provider];
  };
  const pauses = createSendingPauses({
    db,
    writer,
    clock,
    events,
    lifecycle,
    listen: store.listen,
    providerNames: [...providers.keys()],
    routeOf,
    systemPauseResumed: (tx, organizationId, scope, name) => guardrails.restart(tx, organizationId, scope, name),
  });
  const guardrailSettings = config.guardrails;
  const guardrails = createGuardrails({
    db,
    writer,
    clock,
    events,
    pauses,
    recordSettings: records,
    settings: {
      windowMs: guardrailSettings.window,
      minRecipients: guardrailSettings.min_recipients,
      bounceRateWarn: guardrailSettings.bounce_rate_warn,
      complaintRateWarn: guardrailSettings.complaint_rate_warn,
      bounceRatePause: guardrailSettings.bounce_rate_pause,
      complaintRatePause: guardrailSettings.complaint_rate_pause,
    },
  });
  periodic.every("guardrails", guardrailSettings.interval, () => guardrails.evaluate());
  periodic.every("tls-rpt", TLS_RPT_LOOK_MS, () => tlsReports.sendDue());
  const blocklists = createBlocklists({
    db,
    writer,
    clock,
    logger,
    resolver,
    zones: config.deliverability.dnsbl,
    addresses: () => [
      ...new Set([...config.server.public_ips, ...Object.values(config.ip_pools).flatMap((pool) => pool.addresses)]),
    ],
  });
  if (config.deliverability.dnsbl.length)
    periodic.every("blocklists", config.deliverability.dnsbl_interval, () => blocklists.check());
  const capture = createCaptureProvider();
  // Built now, so a provider misconfigured is an error at start rather than at the first delivery.
  const named = new Map(
    [...providers].map(([name, provider]) => [name, buildProvider(name, provider, config, liveDeps)]),
  );
  const live: Provider =
    options.liveProvider ??
    createRouter({
      providers: named,
      defaultProvider: config.delivery.default_provider,
      // The From domain as accepted: emails.submit stores the From address as the envelope sender, so the header
      // need not be parsed again for every delivery (it was 7.7 % of an unsigned drain's event loop).
      // A paused provider is skipped as a failed-over one is; mail whose every provider is paused is held before.
      routeOf: async (job) =>
        pauses.unpausedRoute(
          job.organizationId,
          await domains.providersOf(job.organizationId, domainOf(job.envelopeFrom)),
        ),
      windowMs: config.delivery.failover_window,
      probeIntervalMs: config.delivery.failover_probe_interval,
      clock,
      logger,
      metrics,
    });
  const simulator = createSimulatorProvider();
  const providerFor = (job: { mode: KeyMode; recipient: string }) =>
    isSimulatorAddress(job.recipient) ? simulator : job.mode === "test" ? capture : live;
  const delivery = config.delivery;
  const worker = createDeliveryWorker({
    db,
    writer,
    clock,
    lifecycle,
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
    // Pauses hold live mail only: a test key's and the simulator's never leave the machine anyway.
    holdOf: (job) =>
      job.mode === "live" && !isSimulatorAddress(job.recipient)
        ? pauses.holdOf(job.organizationId, domainOf(job.envelopeFrom))
        : Promise.resolve(undefined),
  });

  const httpAddress = { host: config.http.host, port: config.http.port };
  const publicUrl = () =>
    config.http.public_url.replace(/\/+$/, "") ||
    `http://${httpAddress.host.includes(":") ? `[${httpAddress.host}]` : httpAddress.host}:${httpAddress.port}`;
  const tracking = createTrackingService({
    db,
    writer,
    clock,
    events,
    suppressions,
    domains,
    secrets,
    logger,
    publicUrl,
    scannerWindowMs: config.tracking.scanner_window,
    linkLifetimeMs: config.tracking.link_lifetime,
  });

  const emails = createEmailService({
    db,
    writer,
    clock,
    events,
    suppressions,
    lifecycle,
    domains,
    idempotency,
    quotas: createDailyQuotas({ db, writer, clock, listen: store.listen }),
    limits: {
      maxRecipients: config.limits.max_recipients,
      maxMessageBytes: config.limits.max_message_bytes,
      maxBatchSize: config.limits.max_batch_size,
    },
    onAccepted: (count) => {
      metrics.inc("mailroom_emails_accepted_total", {}, count);
      worker.wake();
    },
    compose: cpu.compose,
    readSubmitted: cpu.readSubmitted,
    fetchAttachments: createAttachmentFetcher({
      guard: createEndpointGuard({
        resolver,
        allowPrivateNetworks: config.webhooks.allow_private_networks,
        hint: "attachment URLs must be public (set [webhooks] allow_private_networks = true for local servers)",
      }),
      timeoutMs: ATTACHMENT_FETCH_TIMEOUT_MS,
      ca: options.webhookCa,
    }),
    decorate: tracking.decorate,
  });
  accountMailer = createAccountMailer({ emails, domains, maxRecipients: config.limits.max_recipients });

  const hooks = config.webhooks;
  const guard = createEndpointGuard({
    resolver,
    allowPrivateNetworks: hooks.allow_private_networks,
    hint: "webhook endpoints must be public (set [webhooks] allow_private_networks = true for local receivers)",
  });
  const webhookDispatcher = createWebhookDispatcher({
    writer,
    clock,
    guard,
    signer: createSigner(secrets),
    options: {
      concurrency: hooks.concurrency,
      perEndpointConcurrency: hooks.per_endpoint_concurrency,
      schedule: hooks.retry_schedule,
      timeoutMs: hooks.timeout,
      disableAfterFailures: hooks.disable_after_failures,
      leaseMs: hooks.lease,
      pollMs: hooks.poll_interval,
    },
    logger,
    metrics,
    tlsCa: options.webhookCa,
  });
  const webhooks = createWebhookService({
    db,
    writer,
    clock,
    secrets,
    guard,
    rotationOverlapMs: hooks.secret_rotation_overlap,
    wake: webhookDispatcher.wake,
    listen: store.listen,
  });
  // Every event appended from here on fans out to the webhook outbox, in the event's own transaction.
  events.onAppend(webhooks.fanOut);

  // One signer for every download link (received mail, sent attachments); the key keeps its first purpose's name so
  // links handed out before sent attachments existed stay valid.
  const downloads = createSignedLinks({
    key: secrets.deriveKey("inbound-downloads"),
    clock,
    publicUrl,
    lifetimeMs: DOWNLOAD_LINK_LIFETIME_MS,
  });
  const mailbox = createMailbox({ db, writer, clock, links: downloads, retentionMs: config.inbound.retention, cpu });
  const sentAttachments = createSentAttachments({ db, emails, links: downloads, read: cpu.readSentAttachments });
  const templates = createTemplateService({
    db,
    writer,
    clock,
    cpu,
    limits: {
      maxMessageBytes: config.limits.max_message_bytes,
      renderTimeoutMs: config.limits.template_render_timeout,
    },
  });
  periodic.every("inbound-retention", INBOUND_PRUNE_MS, () => mailbox.prune());
  const retention = createRetention({
    db,
    writer,
    clock,
    logger,
    defaults: organizationDefaults,
    auditRetentionMs: config.retention.audit,
    reclaimSpace: store.reclaimSpace,
  });
  periodic.every("retention", config.retention.interval, () => retention.runOnce());

  const dmarcReports = createDmarcReports({
    db,
    writer,
    clock,
    publicIps: config.server.public_ips,
    resolve: resolveFunction(resolver),
    hostname: records.hostname,
  });
  const inbound = createInboundService({
    db,
    writer,
    clock,
    events,
    reports: createReportIntake({ writer, lifecycle }),
    domains,
    returnPaths,
    maxStoredBytes: config.inbound.max_stored_bytes,
    authTimeoutMs: config.inbound.auth_timeout,
    cpu,
    resolve: resolveFunction(resolver),
    hostname: records.hostname,
    logger,
    metrics,
    dmarc: { read: cpu.readDmarc, store: dmarcReports.store },
  });

  const closeProviders = async () => {
    await capture.close();
    await live.close();
    cpu.close();
  };

  return {
    config,
    clock,
    logger,
    metrics,
    store,
    writer,
    events,
    organizations,
    people,
    members,
    sso,
    retention,
    keys,
    domains,
    suppressions,
    lifecycle,
    queue: createDeliveryQueue({ db, writer, clock, lifecycle }),
    pauses,
    guardrails,
    dmarcReports,
    tlsReports,
    blocklists,
    sendingIps: liveDeps.sendingIps,
    idempotency,
    emails,
    limiter,
    periodic,
    worker,
    secrets,
    resolver,
    webhooks,
    webhookDispatcher,
    tracking,
    inbound,
    sesEvents: createSesEventIntake({
      db,
      writer,
      lifecycle,
      verifier: createSnsVerifier({
        topics: config.sns.topics,
        timeoutMs: SNS_FETCH_TIMEOUT_MS,
        guard: createEndpointGuard({
          resolver,
          allowPrivateNetworks: false,
          hint: "SNS certificates and subscription URLs come from SNS's public hosts",
        }),
        clock,
        logger,
        testCertificateHost: config.sns.test_certificate_host || undefined,
        ca: options.snsCa,
      }),
      logger,
      metrics,
    }),
    mailbox,
    sentAttachments,
    emailStats: createEmailStats({ db, clock }),
    templates,
    cpu,
    ai: createAiService({ model: createChatModel(config.ai), templates }),
    httpAddress,
    closeProviders,
  };
}

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
      await Promise.all([worker.stop(), services.webhookDispatcher.stop(), services.periodic.stop()]);
      await services.tlsReports.settled();
      await services.closeProviders();
      await store.close();
      logger.info("stopped");
    },
  };
}
