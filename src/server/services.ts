/**
 * The composition root's list of areas (docs/architecture.md#the-composition-root): what the app is built on
 * (foundation.ts), then the accounts, sending and mail areas, each wired in server/areas/ from what the ones before
 * it made. Invariant: nothing else constructs services or reads configuration.
 */
import type { AiService } from "../ai/service.ts";
import type { BroadcastService } from "../broadcasts/service.ts";
import type { LeasedQueue } from "../queue/leased-queue.ts";
import type { Config } from "../config/options.ts";
import type { Store, Writer } from "../db/store.ts";
import type { Blocklists } from "../reputation/blocklists.ts";
import type { DaneStatus } from "../reputation/dane-status.ts";
import type { DmarcReports } from "../reputation/dmarc.ts";
import type { Guardrails } from "../reputation/guardrails.ts";
import type { TlsReporting } from "../reputation/tls-reports.ts";
import type { PropertyService, SegmentService, TopicService } from "../contacts/audience.ts";
import type { ContactImports } from "../contacts/imports.ts";
import type { Membership } from "../contacts/membership.ts";
import type { ContactService } from "../contacts/service.ts";
import type { DeliveryWorker } from "../deliveries/attempts.ts";
import type { Lifecycle } from "../deliveries/lifecycle.ts";
import type { SendingPauses } from "../deliveries/pauses.ts";
import type { SesEventIntake } from "../deliveries/provider-events.ts";
import type { DeliveryQueue } from "../deliveries/queue.ts";
import type { DomainService } from "../domains/service.ts";
import type { SentAttachments } from "../emails/attachments.ts";
import type { Retention } from "../emails/retention.ts";
import type { EmailService } from "../emails/service.ts";
import type { StatusReports } from "../emails/status-reports.ts";
import type { EmailMetricsService } from "../emails/metrics.ts";
import type { EmailStatsService } from "../emails/stats.ts";
import type { EventLog } from "../events/service.ts";
import type { Idempotency } from "../idempotency/service.ts";
import type { Mailbox } from "../inbound/mailbox.ts";
import type { InboundService } from "../inbound/service.ts";
import type { InboundRoutes } from "../inbound-routes/service.ts";
import type { PeriodicJobs } from "../jobs/periodic.ts";
import type { KeyService } from "../keys/service.ts";
import type { Clock } from "../lib/clock.ts";
import type { DnsResolver } from "../lib/dns.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import type { SecretBox } from "../lib/secrets.ts";
import type { RateLimiter } from "../limits/rate-limiter.ts";
import type { OrganizationService } from "../organizations/service.ts";
import type { Members } from "../people/members.ts";
import type { People } from "../people/service.ts";
import type { SingleSignOn } from "../people/sso.ts";
import type { SendingIps } from "../providers/sending-ips.ts";
import type { SuppressionService } from "../suppressions/service.ts";
import type { TemplateService } from "../templates/service.ts";
import type { TrackingService } from "../tracking/service.ts";
import type { PreferenceService } from "../preferences/service.ts";
import type { WebhookDispatcher } from "../webhooks/dispatcher.ts";
import type { WebhookService } from "../webhooks/service.ts";
import type { RequestRecorder } from "../logs/recorder.ts";
import type { RequestLogs } from "../logs/service.ts";
import type { UsageService } from "../usage/service.ts";
import { wireAccounts } from "./areas/accounts.ts";
import { wireBroadcasts } from "./areas/broadcasts.ts";
import { wireInsight } from "./areas/insight.ts";
import { wireMail, type MailOptions } from "./areas/mail.ts";
import { wireSending, type SendingOptions } from "./areas/sending.ts";
import type { CpuPool } from "../cpu/pool.ts";
import { openFoundation, type FoundationOptions } from "./foundation.ts";

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
  /** Contacts, and the topic checks sending and unsubscribing ask of them (docs/contacts.md). */
  contacts: ContactService;
  /** A contact's segments and topic choices, as the API manages them. */
  membership: Membership;
  segments: SegmentService;
  topics: TopicService;
  contactProperties: PropertyService;
  /** CSV imports of contacts, worked in the background from their spooled upload. */
  contactImports: ContactImports;
  /** Broadcasts to a segment (docs/broadcasts.md), and the fan-out that makes their messages. */
  broadcasts: BroadcastService;
  broadcastFanOut: LeasedQueue;
  /** A recipient's fate: the one writer of its status. */
  lifecycle: Lifecycle;
  /** The delivery queue as an operator sees and steers it. */
  queue: DeliveryQueue;
  /** Sending paused for an organisation, a sending domain or a provider. */
  pauses: SendingPauses;
  guardrails: Guardrails;
  dmarcReports: DmarcReports;
  tlsReports: TlsReporting;
  daneStatus: DaneStatus;
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
  /** Topic preferences and unsubscribing: the topic check, one-click, mailto and the preference page. */
  preferences: PreferenceService;
  /** Incoming mail: the funnel for what the MX accepts (reports, replies, other mail to receiving domains). */
  inbound: InboundService;
  /** Received mail as the API reads it, and its retention. */
  mailbox: Mailbox;
  /** The organisation's rules for its received mail (docs/inbound.md#routes). */
  inboundRoutes: InboundRoutes;
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
  /** The relay's delivery status notifications waiting to be queued (docs/smtp.md). */
  statusReports: StatusReports;
  /** Resend's email metrics over the same counts. */
  emailMetrics: EmailMetricsService;
  /** Takes each finished API request made with a key, and writes them in batches (docs/logs-and-mcp.md). */
  requestLog: RequestRecorder;
  /** The request log as callers read it. */
  requestLogs: RequestLogs;
  /** Resend's usage figures. */
  usage: UsageService;
  /** The HTTP listener's address once bound; tracking links fall back to it when `http.public_url` is empty. */
  httpAddress: { host: string; port: number };
  closeProviders(): Promise<void>;
}

export interface AppOptions extends FoundationOptions, SendingOptions, MailOptions {}

export async function createServices(configured: Config, options: AppOptions = {}): Promise<Services> {
  const base = await openFoundation(configured, options);
  const accounts = wireAccounts(base);
  const sending = wireSending(base, accounts, options);
  const mail = wireMail(base, accounts, sending, options);
  const insight = wireInsight(base, accounts, mail);
  const broadcasts = wireBroadcasts(base, accounts, sending, mail);
  const { mailThrough: _, ...accountServices } = accounts;
  const { returnPaths: __, closeProviders, ...sendingServices } = sending;
  return {
    config: base.config,
    clock: base.clock,
    logger: base.logger,
    metrics: base.metrics,
    store: base.store,
    writer: base.writer,
    events: base.events,
    secrets: base.secrets,
    resolver: base.resolver,
    cpu: base.cpu,
    idempotency: base.idempotency,
    limiter: base.limiter,
    periodic: base.periodic,
    ...accountServices,
    ...sendingServices,
    ...mail,
    ...insight,
    ...broadcasts,
    async closeProviders() {
      await closeProviders();
      base.cpu.close();
    },
  };
}
