/**
 * Sending, wired (docs/architecture.md#the-composition-root): sending domains and their signing, the providers and
 * the router between them, the delivery worker and queue, pauses and the reputation guardrails that pause, TLS
 * reports, blocklists, sending IPs, and SES's events. Invariant: every provider is built at start, so one
 * misconfigured is an error then rather than at the first delivery.
 */
import type { KeyMode } from "../../access.ts";
import { createBlocklists } from "../../reputation/blocklists.ts";
import { createDaneStatus } from "../../reputation/dane-status.ts";
import { createGuardrails } from "../../reputation/guardrails.ts";
import { createTlsReporting } from "../../reputation/tls-reports.ts";
import { createDeliveryWorker } from "../../deliveries/attempts.ts";
import { createSendingPauses } from "../../deliveries/pauses.ts";
import { createSesEventIntake } from "../../deliveries/provider-events.ts";
import { createDeliveryQueue } from "../../deliveries/queue.ts";
import { createDomainService } from "../../domains/service.ts";
import { createOutgoingSigner, createReturnPathCodec, type OutgoingSignerDeps } from "../../domains/signing.ts";
import { domainOf } from "../../lib/addresses.ts";
import { createEndpointGuard } from "../../lib/endpoint-guard.ts";
import { newId } from "../../lib/ids.ts";
import { createCaptureProvider } from "../../providers/capture.ts";
import { createStoredPolicyCache } from "../../providers/mta-sts-store.ts";
import type { TlsSession } from "../../providers/mx.ts";
import { createRouter } from "../../providers/router.ts";
import { createSendingIps } from "../../providers/sending-ips.ts";
import { createSimulatorProvider, isSimulatorAddress } from "../../providers/simulator.ts";
import { createSnsVerifier } from "../../providers/sns.ts";
import type { Provider } from "../../providers/types.ts";
import type { Foundation } from "../foundation.ts";
import { providerConfigs } from "../../config/providers.ts";
import { buildProvider } from "../providers.ts";
import type { wireAccounts } from "./accounts.ts";

/** How often the domain scheduler looks for due DNS checks (their intervals are configured in [domains]). */
const DOMAIN_CHECK_POLL_MS = 60_000;
/** How often an instance looks for TLS reporting periods that ended ([tls_rpt] interval sets the period). */
const TLS_RPT_LOOK_MS = 3_600_000;
/** SNS's certificate and SubscribeURL requests: small answers from AWS, so a slow one is a fault, not a wait. */
const SNS_FETCH_TIMEOUT_MS = 10_000;

export interface SendingOptions {
  /** Replaces the configured live provider (tests drive a programmable one). */
  liveProvider?: Provider;
  /** Extra CA certificates (PEM) trusted for MTA-STS policy servers and the MX hosts under a policy; tests. */
  mxCa?: string;
  /** TEST ONLY: extra CA certificates (PEM) trusted for `[sns] test_certificate_host`. */
  snsCa?: string;
}

export function wireSending(base: Foundation, accounts: ReturnType<typeof wireAccounts>, options: SendingOptions) {
  const { db, writer, clock, config, store, events, logger, metrics, secrets, resolver, records, periodic } = base;
  const { lifecycle } = accounts;
  const providerNames = [...base.providers.keys()];
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
    providerNames,
    pools: config.ip_pools,
    options: {
      defaultReturnPathSubdomain: config.domains.return_path_subdomain,
      pendingCheckIntervalMs: config.domains.pending_check_interval,
      verifiedCheckIntervalMs: config.domains.verified_check_interval,
      failureTimeoutMs: config.domains.failure_timeout,
    },
    logger,
  });
  periodic.every("domain-checks", DOMAIN_CHECK_POLL_MS, () => domains.runOnce());
  const returnPaths = createReturnPathCodec(secrets.deriveKey("return-path"));
  // Topic mail's one-click headers come from the preferences (wired with mail): `listUnsubscribeFrom` hands them in.
  let listUnsubscribe: OutgoingSignerDeps["listUnsubscribe"];
  const signer = createOutgoingSigner({
    domains,
    returnPaths,
    dkim: base.cpu,
    clock,
    logger,
    listUnsubscribe: async (job, identity) => (listUnsubscribe ? listUnsubscribe(job, identity) : null),
  });
  const sendingIps = createSendingIps({ db, writer, clock, pools: config.ip_pools, shaping: config.shaping });
  const liveDeps = {
    resolver,
    signer,
    logger,
    clock,
    hostname: records.hostname,
    mtaStsCache: createStoredPolicyCache({ db, writer }),
    tlsSessions: (session: TlsSession) => tlsReports.record(session),
    sendingIps,
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
  periodic.every("tls-rpt", TLS_RPT_LOOK_MS, () => tlsReports.sendDue());

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
    providerNames,
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
  const named = new Map(
    [...base.providers].map(([name, provider]) => [name, buildProvider(name, provider, config, liveDeps)]),
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
        ? pauses.holdOf(job.organizationId, domainOf(job.envelopeFrom), job.lane)
        : Promise.resolve(undefined),
  });

  return {
    domains,
    returnPaths,
    /** Hands in the List-Unsubscribe lines of topic mail (docs/contacts-preferences.md), once the preferences exist. */
    listUnsubscribeFrom(build: NonNullable<OutgoingSignerDeps["listUnsubscribe"]>) {
      listUnsubscribe = build;
    },
    pauses,
    guardrails,
    tlsReports,
    daneStatus: createDaneStatus({
      db,
      clock,
      daneOn: [...providerConfigs(config)].some(([, provider]) => provider.kind === "mx" && provider.dane === "on"),
    }),
    blocklists,
    sendingIps,
    worker,
    queue: createDeliveryQueue({ db, writer, clock, lifecycle }),
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
    async closeProviders() {
      await capture.close();
      await live.close();
    },
  };
}
