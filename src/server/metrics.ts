/**
 * Every metric Mailroom exposes on /metrics, named and described in this one place: the counters the areas
 * increment, registered with the registry itself (so an increment can never meet an unregistered name), and the
 * gauges, read at scrape time from the sources the composition root hands over.
 */
import type { HealthView } from "../domains/model.ts";
import { createMetrics, type Metrics } from "../lib/metrics.ts";

const COUNTERS = {
  mailroom_http_requests_total: "HTTP requests by route and status.",
  mailroom_emails_accepted_total: "Messages accepted for delivery.",
  mailroom_deliveries_total: "Delivery attempts by outcome, provider and lane (transactional, broadcast).",
  mailroom_provider_failovers_total:
    "Times a provider was failed over (its domains' mail went to their next provider), by provider.",
  mailroom_webhook_attempts_total: "Webhook delivery attempts by result.",
  mailroom_smtp_messages_total:
    "Messages the SMTP relay received (after DATA), by outcome: accepted, rejected (5xx), deferred (4xx).",
  mailroom_smtp_auth_total: "SMTP AUTH attempts, by outcome.",
  mailroom_inbound_reports_total:
    "Bounce and complaint reports received, by kind and reason: applied, repeated (already judged), unknown delivery, no recipient; about another recipient and not at its return path (proving nothing: stored as mail).",
  mailroom_inbound_messages_total:
    "Received messages stored (replies and other mail to receiving domains, automatic replies to return paths), by kind.",
  mailroom_inbound_limits_total:
    "Inbound mail refused by a limit, by limit: client_messages and client_bytes (a client network over messages_per_ip_per_minute or bytes_per_ip_per_minute; 451 4.7.1), stored_bytes (an organisation at max_stored_bytes; 452 4.2.2).",
  mailroom_inbound_routes_total:
    "Received messages the inbound routes refused (a reject route, a spam score at or over a route's threshold).",
  mailroom_inbound_spam_total:
    "Spam scoring by rspamd, by outcome: scored, timeout, unavailable, refused (an HTTP error), unreadable; all but scored leave the message without a verdict.",
  mailroom_inbound_smtp_total:
    "Inbound MX outcomes: accepted, rejected (5xx after DATA), deferred (4xx after DATA), recipient_refused (RCPT refused: unknown domain, receiving off, forged return path, too many).",
};

export function createMailroomMetrics(): Metrics {
  const metrics = createMetrics();
  for (const [name, help] of Object.entries(COUNTERS)) metrics.counter(name, help);
  return metrics;
}

export interface GaugeSources {
  /** Per sending lane (docs/operations.md#sending-lanes). */
  queue(): Promise<Array<{ lane: string; due: number; pending: number; oldestDueAgeSeconds: number }>>;
  deliveriesInFlight(): number;
  outbox(): Promise<{ pending: number; oldestDueAgeSeconds: number }>;
  smtpConnections(): Array<{ listener: string; open: number }>;
  /** What each organisation stores, as retention last counted it (emails/retention.ts). */
  storage(): Promise<Array<{ organizationId: string; messages: number; contentBytes: number }>>;
  /** Each organisation's (domain null) and sending domain's health, as the guardrails last measured it. */
  health(): Promise<Array<{ organizationId: string; domain: string | null; health: HealthView }>>;
  /** The blocklists' last answers about the sending addresses. */
  blocklists(): Promise<Array<{ address: string; list: string; listed: boolean }>>;
  /** The file system of the data directory: free bytes (for an unprivileged process) and its size. */
  disk(): { freeBytes: number; sizeBytes: number } | null;
  /** Each organisation's received mail, in bytes, and `[inbound] max_stored_bytes` (0: no quota). */
  inboundStorage(): Promise<{ limit: number; organizations: Array<{ organizationId: string; bytes: number }> }>;
  /** Destination back-offs in force on this instance (providers/sending-ips.ts). */
  backOffs(): Array<{ source: string; provider: string; messages_per_minute: number }>;
}

/** `mailroom_sending_health`'s values: what a status means as a number an alert can compare. */
const HEALTH_LEVEL = { ok: 0, warning: 1, paused: 2 } as const;

export function registerGauges(metrics: Metrics, sources: GaugeSources): void {
  const perLane = (value: (lane: Awaited<ReturnType<GaugeSources["queue"]>>[number]) => number) => async () =>
    (await sources.queue()).map((lane) => ({ labels: { lane: lane.lane }, value: value(lane) }));
  metrics.gauge(
    "mailroom_queue_due",
    "Deliveries due now, by lane.",
    perLane((lane) => lane.due),
  );
  metrics.gauge(
    "mailroom_queue_pending",
    "Deliveries not yet final (due or waiting for a retry or schedule), by lane.",
    perLane((lane) => lane.pending),
  );
  metrics.gauge(
    "mailroom_queue_oldest_due_age_seconds",
    "Age of the oldest due delivery, by lane.",
    perLane((lane) => lane.oldestDueAgeSeconds),
  );
  metrics.gauge("mailroom_deliveries_in_flight", "Delivery attempts in progress.", () => [
    { value: sources.deliveriesInFlight() },
  ]);
  metrics.gauge(
    "mailroom_webhook_outbox_pending",
    "Webhook deliveries waiting for an attempt (due or for a retry).",
    async () => [{ value: (await sources.outbox()).pending }],
  );
  metrics.gauge(
    "mailroom_webhook_outbox_oldest_due_age_seconds",
    "Age of the oldest due webhook delivery.",
    async () => [{ value: (await sources.outbox()).oldestDueAgeSeconds }],
  );
  metrics.gauge(
    "mailroom_stored_messages",
    "Sent messages stored, by organisation, as the retention job last counted them.",
    async () =>
      (await sources.storage()).map(({ organizationId, messages }) => ({
        labels: { organization: organizationId },
        value: messages,
      })),
  );
  metrics.gauge(
    "mailroom_stored_content_bytes",
    "Bytes of sent messages' content (raw MIME) still stored, by organisation, as the retention job last counted them.",
    async () =>
      (await sources.storage()).map(({ organizationId, contentBytes }) => ({
        labels: { organization: organizationId },
        value: contentBytes,
      })),
  );
  const health = async (value: (health: HealthView) => number) =>
    (await sources.health()).map((row) => ({
      labels: { organization: row.organizationId, domain: row.domain ?? "" },
      value: value(row.health),
    }));
  metrics.gauge(
    "mailroom_bounce_rate",
    "Permanent bounces over recipients ended in the guardrails' window, by organisation and sending domain (empty: the whole organisation).",
    () => health((h) => h.bounce_rate),
  );
  metrics.gauge(
    "mailroom_complaint_rate",
    "Complaints over recipients ended in the guardrails' window, by organisation and sending domain (empty: the whole organisation).",
    () => health((h) => h.complaint_rate),
  );
  metrics.gauge(
    "mailroom_sending_health",
    "The guardrails' verdict by organisation and sending domain: 0 ok, 1 warning, 2 paused.",
    () => health((h) => HEALTH_LEVEL[h.status]),
  );
  metrics.gauge(
    "mailroom_blocklisted",
    "1 when a DNS blocklist ([deliverability] dnsbl) listed the sending address at its last check, else 0; by address and list.",
    async () =>
      (await sources.blocklists()).map(({ address, list, listed }) => ({
        labels: { address, list },
        value: listed ? 1 : 0,
      })),
  );
  metrics.gauge(
    "mailroom_shaping_backoff_messages_per_minute",
    'Messages per minute a destination provider gets while it is backed off (a 421 or 4.7.x "try again later" halved it), by source address ("direct": the machine\'s own, mail of no IP pool) and provider (an MX host when no shaping rule names it); on this instance.',
    () =>
      sources.backOffs().map(({ source, provider, messages_per_minute }) => ({
        labels: { source, provider },
        value: messages_per_minute,
      })),
  );
  metrics.gauge(
    "mailroom_data_dir_free_bytes",
    "Bytes free for Mailroom on the file system of the data directory (the embedded store, master key and TLS files).",
    () => {
      const disk = sources.disk();
      return disk ? [{ value: disk.freeBytes }] : [];
    },
  );
  metrics.gauge("mailroom_data_dir_size_bytes", "Size of the file system of the data directory, in bytes.", () => {
    const disk = sources.disk();
    return disk ? [{ value: disk.sizeBytes }] : [];
  });
  metrics.gauge(
    "mailroom_inbound_stored_bytes",
    "Bytes of received mail stored, by organisation: what [inbound] max_stored_bytes limits.",
    async () =>
      (await sources.inboundStorage()).organizations.map(({ organizationId, bytes }) => ({
        labels: { organization: organizationId },
        value: bytes,
      })),
  );
  metrics.gauge(
    "mailroom_inbound_max_stored_bytes",
    "[inbound] max_stored_bytes: each organisation's storage quota for received mail (0: none); at it, the MX answers 452.",
    async () => [{ value: (await sources.inboundStorage()).limit }],
  );
  metrics.gauge("mailroom_smtp_connections", "Open SMTP relay connections, by listener.", () =>
    sources.smtpConnections().map(({ listener, open }) => ({ labels: { listener }, value: open })),
  );
}
