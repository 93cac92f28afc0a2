/**
 * SMTP TLS reporting (RFC 8460, docs/deliverability.md): the outcome of every TLS negotiation of direct delivery is counted per
 * reporting period and recipient domain; once a period is over, each domain that publishes a TLS-RPT record at
 * `_smtp._tls.<domain>` gets one aggregate report (JSON, gzip) at each address it names — mailed through Mailroom's
 * own delivery (mailto:) or POSTed (https:, through the endpoint guard) — from `[server] hostname`.
 *
 * Invariants: a domain's report for a period is handled once across instances (the periodic job runs once, and
 * `tls_rpt_periods` records what was handled); counting never holds up a delivery (the write runs beside it and a
 * failure is logged); a period whose report could not be delivered anywhere is tried again at the next run, and
 * given up after three periods.
 */
import { randomBytes } from "node:crypto";
import { and, eq, lt, notExists, sql } from "drizzle-orm";
import MailComposer from "nodemailer/lib/mail-composer";
import { tablesOf, type Db, type Writer } from "../db/store.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { isNotFound, type DnsResolver } from "../lib/dns.ts";
import { pinnedRequest, type EndpointGuard } from "../lib/endpoint-guard.ts";
import type { Logger } from "../lib/logger.ts";
import type { TlsSession } from "../providers/mx.ts";
import {
  buildTlsReport,
  packTlsReport,
  parseTlsRptRecord,
  tlsReportMail,
  type TlsOutcomeCount,
} from "../providers/tls-report.ts";

export interface TlsReporting {
  /** Counts one negotiation (the MX provider's `tlsSessions`). */
  record(session: TlsSession): void;
  /** Waits for the counts being written (tests, shutdown). */
  settled(): Promise<void>;
  /** Sends the reports of every period that is over and not yet handled; what became of them. */
  sendDue(): Promise<{ sent: number; notAsked: number; failed: number }>;
}

/** How a report mailed to a `mailto:` address leaves: Mailroom's own delivery of one message to one recipient. */
export type ReportMailer = (message: { from: string; to: string; raw: Buffer }) => Promise<boolean>;

/** Periods whose report could not be delivered are tried at each run, and given up after this many periods. */
const GIVE_UP_AFTER_PERIODS = 3;
const POST_TIMEOUT_MS = 30_000;

/** The policy text a report names (RFC 8460 §4.4: the policy's lines). */
const policyLines = (policy: NonNullable<TlsSession["policy"]>) => [
  "version: STSv1",
  `mode: ${policy.mode}`,
  ...policy.mx.map((pattern) => `mx: ${pattern}`),
  `max_age: ${policy.maxAgeSeconds}`,
];

export function createTlsReporting(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  logger: Logger;
  resolver: DnsResolver;
  guard: EndpointGuard;
  /** `[server] hostname`: the submitter, and the domain of the reports' contact address. */
  hostname: string;
  /** The first of `[server] public_ips`: the sending address named when a session did not say its own. */
  sendingIp: string;
  /** `[tls_rpt] interval`: the reporting period. */
  periodMs: number;
  mail: ReportMailer;
  /** TEST ONLY: extra CA certificates (PEM) trusted for https report endpoints. */
  ca?: string;
}): TlsReporting {
  const { db, writer, clock, logger } = deps;
  const { tlsRptCounts, tlsRptPeriods } = tablesOf(db);
  const writing = new Set<Promise<unknown>>();
  const contact = `tls-reports@${deps.hostname}`;

  const count = (session: TlsSession) =>
    writer.write(async (tx) => {
      const counts = tablesOf(tx).tlsRptCounts;
      await tx
        .insert(counts)
        .values({
          periodStart: Math.floor(clock.now() / deps.periodMs) * deps.periodMs,
          policyDomain: session.policyDomain,
          policyType: session.tlsa ? "tlsa" : session.policy ? "sts" : "no-policy-found",
          mxHost: session.mxHost,
          result: session.result,
          sendingIp: session.sendingIp ?? "",
          receivingIp: session.receivingIp,
          // RFC 8460 §4.4: a tlsa policy's string is its TLSA records in presentation form.
          policyString: session.tlsa ?? (session.policy ? policyLines(session.policy) : null),
          sessions: 1,
          lastAt: clock.now(),
        })
        .onConflictDoUpdate({
          target: [
            counts.periodStart,
            counts.policyDomain,
            counts.policyType,
            counts.mxHost,
            counts.result,
            counts.sendingIp,
            counts.receivingIp,
          ],
          // The row seen last is a destination's last outcome (docs/deliverability.md#dane-per-destination).
          set: { sessions: sql`${counts.sessions} + 1`, lastAt: clock.now() },
        });
    });

  const post = async (url: string, packed: { filename: string; gzip: Uint8Array }) => {
    const request = pinnedRequest(await deps.guard.resolve(deps.guard.parse(url)));
    const response = await fetch(request.url, {
      method: "POST",
      headers: { host: request.host, "content-type": "application/tlsrpt+gzip" },
      body: packed.gzip,
      redirect: "error",
      proxy: false,
      signal: AbortSignal.timeout(POST_TIMEOUT_MS),
      tls: { serverName: request.serverName, ...(deps.ca && { ca: deps.ca }) },
    } as RequestInit);
    await response.body?.cancel().catch(() => {});
    return response.status >= 200 && response.status < 300;
  };

  const mailTo = async (address: string, mail: ReturnType<typeof tlsReportMail>) => {
    const root = new MailComposer({
      from: contact,
      to: address,
      subject: mail.subject,
      headers: mail.headers,
      text: mail.text,
      attachments: [mail.attachment],
    }).compile();
    // MailComposer builds multipart/mixed; RFC 8460 §5.3 asks for multipart/report with the same parts.
    root.setHeader("Content-Type", mail.rootContentType);
    const raw = await new Promise<Buffer>((resolve, reject) =>
      root.build((error, message) => (error ? reject(error) : resolve(message))),
    );
    return deps.mail({ from: contact, to: address, raw });
  };

  /** One domain's report for one period; what was done. */
  const report = async (periodStart: number, domain: string): Promise<"sent" | "no_record" | "failed" | "later"> => {
    let txt: string[][];
    try {
      txt = await deps.resolver.resolveTxt(`_smtp._tls.${domain}`);
    } catch (error) {
      if (!isNotFound(error)) return "later";
      txt = [];
    }
    const record = parseTlsRptRecord(txt);
    if (!record?.rua.length) return "no_record";
    const rows = await db
      .select()
      .from(tlsRptCounts)
      .where(and(eq(tlsRptCounts.periodStart, periodStart), eq(tlsRptCounts.policyDomain, domain)));
    const counts: TlsOutcomeCount[] = rows.map((row) => ({
      policyDomain: row.policyDomain,
      policyType: row.policyType,
      ...(row.policyString && { policyString: row.policyString }),
      mxHost: row.mxHost,
      result: row.result as TlsOutcomeCount["result"],
      sendingMtaIp: row.sendingIp || deps.sendingIp,
      receivingMxHostname: row.mxHost,
      receivingIp: row.receivingIp,
      count: row.sessions,
    }));
    const start = new Date(periodStart);
    const end = new Date(periodStart + deps.periodMs);
    const uniqueId = randomBytes(8).toString("hex");
    const built = buildTlsReport({
      organizationName: deps.hostname,
      contactInfo: contact,
      reportId: `${start.toISOString()}_${domain}_${uniqueId}`,
      start,
      end,
      policyDomain: domain,
      counts,
    });
    const packed = packTlsReport(built, deps.hostname, domain, start, end, uniqueId);
    let delivered = false;
    for (const target of record.rua) {
      try {
        delivered =
          (target.kind === "https"
            ? await post(target.url, packed)
            : await mailTo(
                target.address,
                tlsReportMail({ report: built, policyDomain: domain, sender: deps.hostname, packed }),
              )) || delivered;
      } catch (error) {
        logger.warn("TLS report not delivered", {
          domain,
          to: target.kind === "https" ? target.url : target.address,
          error: (error as Error).message,
        });
      }
    }
    return delivered ? "sent" : "failed";
  };

  return {
    record(session) {
      const write = count(session).catch((error: unknown) =>
        logger.warn("TLS session not counted for TLS reports", { error: (error as Error).message }),
      );
      writing.add(write);
      void write.finally(() => writing.delete(write));
    },

    async settled() {
      await Promise.all(writing);
    },

    async sendDue() {
      const now = clock.now();
      const over = Math.floor(now / deps.periodMs) * deps.periodMs;
      const handled = db
        .select({ one: sql`1` })
        .from(tlsRptPeriods)
        .where(
          and(
            eq(tlsRptPeriods.periodStart, tlsRptCounts.periodStart),
            eq(tlsRptPeriods.policyDomain, tlsRptCounts.policyDomain),
          ),
        );
      const due = await db
        .selectDistinct({ periodStart: tlsRptCounts.periodStart, policyDomain: tlsRptCounts.policyDomain })
        .from(tlsRptCounts)
        .where(and(lt(tlsRptCounts.periodStart, over), notExists(handled)));
      const tally = { sent: 0, notAsked: 0, failed: 0 };
      for (const { periodStart, policyDomain } of due) {
        const outcome = await report(periodStart, policyDomain);
        if (outcome === "later") continue;
        const givenUp = over - periodStart >= GIVE_UP_AFTER_PERIODS * deps.periodMs;
        if (outcome === "failed" && !givenUp) {
          tally.failed++;
          continue;
        }
        if (outcome === "sent") tally.sent++;
        else if (outcome === "no_record") tally.notAsked++;
        else tally.failed++;
        await writer.write((tx) =>
          tx
            .insert(tablesOf(tx).tlsRptPeriods)
            .values({ periodStart, policyDomain, handledAt: isoTime(now), outcome })
            .onConflictDoNothing(),
        );
      }
      return tally;
    },
  };
}
