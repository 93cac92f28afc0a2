/**
 * Mail, wired (docs/architecture.md#the-composition-root): tracking, topic preferences, the outgoing funnel (emails.submit), webhooks
 * and their outbox, download links, received mail and the incoming funnel (inbound.receive), templates, retention,
 * DMARC reports, statistics and the AI writer. Invariant: every event appended once this is built fans out to the
 * webhook outbox, in the event's own transaction.
 */
import { createChatModel } from "../../ai/model.ts";
import { createAiService } from "../../ai/service.ts";
import { createDmarcReports } from "../../reputation/dmarc.ts";
import { createReportIntake } from "../../deliveries/reports.ts";
import { createSentAttachments } from "../../emails/attachments.ts";
import { createAttachmentFetcher } from "../../emails/remote-attachments.ts";
import { createRetention } from "../../emails/retention.ts";
import { createEmailService } from "../../emails/service.ts";
import { createEmailMetrics } from "../../emails/metrics.ts";
import { createEmailStats } from "../../emails/stats.ts";
import { createStatusReports } from "../../emails/status-reports.ts";
import { createAccountMailer } from "../../emails/system-mail.ts";
import { createMailbox } from "../../inbound/mailbox.ts";
import { createInboundService } from "../../inbound/service.ts";
import { createForwarding } from "../../inbound/forwarding.ts";
import { createSpamScorer } from "../../inbound/spam.ts";
import { createInboundRoutes } from "../../inbound-routes/service.ts";
import { createSrsCodec } from "../../lib/srs.ts";
import { resolveFunction } from "../../lib/dns.ts";
import { createEndpointGuard } from "../../lib/endpoint-guard.ts";
import { createSignedLinks } from "../../lib/signed-links.ts";
import { createDailyQuotas } from "../../limits/daily-quota.ts";
import { createTemplateService } from "../../templates/service.ts";
import { createTrackingService } from "../../tracking/service.ts";
import { createPreferenceService } from "../../preferences/service.ts";
import { createPreferenceTokens } from "../../preferences/tokens.ts";
import { createWebhookDispatcher } from "../../webhooks/dispatcher.ts";
import { createWebhookService } from "../../webhooks/service.ts";
import { createSigner } from "../../webhooks/signing.ts";
import type { Foundation } from "../foundation.ts";
import type { wireAccounts } from "./accounts.ts";
import type { wireSending } from "./sending.ts";

const INBOUND_PRUNE_MS = 3_600_000;
/** How often the relay's pending delivery status notifications are queued (docs/smtp.md). */
const DSN_LOOK_MS = 5_000;
/** Download links (received mail, attachments) work for an hour, as Resend's do. */
const DOWNLOAD_LINK_LIFETIME_MS = 3_600_000;
/** All of one message's attachment `path` fetches together: the sender's API request waits for them. */
const ATTACHMENT_FETCH_TIMEOUT_MS = 30_000;

export interface MailOptions {
  /** Extra CA certificates (PEM) trusted for webhook endpoints; tests use it for an https receiver of their own. */
  webhookCa?: string;
}

export function wireMail(
  base: Foundation,
  accounts: ReturnType<typeof wireAccounts>,
  sending: ReturnType<typeof wireSending>,
  options: MailOptions,
) {
  const { db, writer, clock, config, store, events, logger, metrics, secrets, resolver, records, periodic, cpu } = base;
  const { suppressions, lifecycle } = accounts;
  const { domains, worker } = sending;
  /** The HTTP listener's address once bound; links fall back to it when `http.public_url` is empty. */
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
  const preferences = createPreferenceService({
    db,
    writer,
    events,
    audience: accounts.contacts,
    domains,
    tokens: createPreferenceTokens(secrets.deriveKey("unsubscribe-tokens")),
    publicUrl,
  });
  sending.listUnsubscribeFrom(preferences.listUnsubscribe);
  const emails = createEmailService({
    db,
    writer,
    clock,
    events,
    suppressions,
    lifecycle,
    domains,
    idempotency: base.idempotency,
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
    topicChoices: preferences.unsubscribedAmong,
  });
  accounts.mailThrough(createAccountMailer({ emails, domains, maxRecipients: config.limits.max_recipients, logger }));
  const statusReports = createStatusReports({
    db,
    writer,
    clock,
    events,
    suppressions,
    hostname: records.hostname,
    maxMessageBytes: config.limits.max_message_bytes,
    onAccepted: () => worker.wake(),
    logger,
  });
  periodic.every("dsn-reports", DSN_LOOK_MS, () => statusReports.sendPending());

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
  periodic.every("inbound-retention", INBOUND_PRUNE_MS, () => mailbox.prune());
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
  const retention = createRetention({
    db,
    writer,
    clock,
    logger,
    defaults: base.organizationDefaults,
    auditRetentionMs: config.retention.audit,
    logsRetentionMs: config.retention.logs,
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
  const inboundRoutes = createInboundRoutes({ db, writer, clock, receivingState: domains.receivingState });
  const forwarding = createForwarding({
    srs: createSrsCodec(secrets.deriveKey("srs")),
    clock,
    logger,
    // The one outgoing funnel: a forwarded copy is delivered, retried and recorded as any of the organisation's mail.
    submit: (input, actor) => emails.submit(input, actor),
    signingIdentity: domains.signingIdentity,
    // An SRS address is on a domain's return-path name, `<subdomain>.<domain>`: the domain's organisation returns it.
    returnPathOwner: async (name) => {
      const state = await domains.receivingState(name.slice(name.indexOf(".") + 1));
      return state.state === "unknown" ? null : state.organizationId;
    },
  });
  const inbound = createInboundService({
    db,
    writer,
    clock,
    events,
    reports: createReportIntake({ writer, lifecycle }),
    domains,
    returnPaths: sending.returnPaths,
    maxStoredBytes: config.inbound.max_stored_bytes,
    authTimeoutMs: config.inbound.auth_timeout,
    cpu,
    resolve: resolveFunction(resolver),
    hostname: records.hostname,
    logger,
    metrics,
    dmarc: { read: cpu.readDmarc, store: dmarcReports.store },
    unsubscribes: preferences,
    routes: inboundRoutes,
    spam: createSpamScorer({
      url: config.inbound.rspamd_url,
      timeoutMs: config.inbound.rspamd_timeout,
      logger,
      metrics,
    }),
    forwarding,
  });

  const emailStats = createEmailStats({ db, clock });
  return {
    httpAddress,
    tracking,
    preferences,
    emails,
    webhooks,
    webhookDispatcher,
    mailbox,
    inboundRoutes,
    sentAttachments: createSentAttachments({ db, emails, links: downloads, read: cpu.readSentAttachments }),
    templates,
    retention,
    dmarcReports,
    inbound,
    emailStats,
    statusReports,
    emailMetrics: createEmailMetrics({ db, clock, stats: emailStats }),
    ai: createAiService({ model: createChatModel(config.ai), templates }),
  };
}
