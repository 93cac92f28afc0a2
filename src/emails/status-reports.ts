/**
 * Delivery status notifications for relayed mail (RFC 3464, docs/smtp.md#delivery-status-notifications): each report
 * the lifecycle asked for (deliveries/status-notices.ts, the `dsn_reports` outbox) becomes a message of its own —
 * `multipart/report; report-type=delivery-status` from `MAILER-DAEMON@<[server] hostname>` to the relayed message's
 * envelope sender, with an empty return path (RFC 3461 §6.2) — stored and queued as any accepted message is, so it
 * is delivered by the worker, listed with the organisation's mail and has a history of its own (tagged with the
 * message it reports on).
 *
 * Invariants: a report is stored in the same transaction that marks its outbox row sent, so it goes once (the job
 * runs once across instances, jobs/periodic.ts); a report is never about a report (its own recipients have no
 * `dsn_notify`); everything written into its header fields is printable ASCII on one line.
 */
import { and, asc, eq, isNull } from "drizzle-orm";
import MimeNode from "nodemailer/lib/mime-node";
import { notifyAtCommit } from "../db/dialect.ts";
import { tablesOf, type Db, type Writer } from "../db/store.ts";
import type { NoticeAction } from "../deliveries/status-notices.ts";
import type { EventLog } from "../events/service.ts";
import { domainOf } from "../lib/addresses.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { blankLineAfter } from "../lib/header-end.ts";
import { newId } from "../lib/ids.ts";
import type { Logger } from "../lib/logger.ts";
import { DELIVERIES_DUE } from "../queue/channels.ts";
import type { SuppressionService } from "../suppressions/service.ts";
import { emailRow, type PreparedMessage } from "./intake-rows.ts";
import { formatRfc5322Date } from "./raw-message.ts";
import { insertAccepted } from "./repo.ts";

/** Reports composed per run; the rest wait for the next (the job runs every few seconds). */
const BATCH = 50;
/** Room left in a report for its own parts when it returns the full message. */
const REPORT_OVERHEAD_BYTES = 8 * 1024;

export interface StatusReports {
  /** Composes and queues the reports waiting in the outbox; how many were queued. */
  sendPending(): Promise<number>;
}

interface Pending {
  deliveryId: string;
  action: NoticeAction;
  organizationId: string;
  emailId: string;
  recipient: string;
  response: string | null;
  createdAt: number;
  returnTo: string;
  ret: "FULL" | "HDRS" | null;
  envid: string | null;
  orcpt: string | null;
  mode: "live" | "test";
  messageCreatedAt: string;
}

const SUBJECTS: Record<NoticeAction, string> = {
  failed: "Undelivered Mail Returned to Sender",
  delayed: "Delayed Mail (still being retried)",
  delivered: "Successful Mail Delivery Report",
  relayed: "Mail Relayed Report",
};

const SAID: Record<NoticeAction, string> = {
  failed: "could not be delivered to",
  delayed: "has not yet been delivered to; delivery is still being tried for",
  delivered: "was delivered to",
  relayed: "was passed on to a system that sends no further reports, for",
};

/** The class RFC 3463 status a report gives when the reply carried none. */
const DEFAULT_STATUS: Record<NoticeAction, string> = {
  failed: "5.0.0",
  delayed: "4.0.0",
  delivered: "2.0.0",
  relayed: "2.0.0",
};

/** One line of printable ASCII: header fields of a report carry nothing that could end the field (no injection). */
const oneLine = (text: string, max = 900) =>
  text
    .replace(/[^\x20-\x7e]+/g, " ")
    .trim()
    .slice(0, max);

/** The RFC 3463 status in a reply (`550 5.1.1 …`), else the action's default. */
export function statusOf(action: NoticeAction, response: string | null): string {
  const found = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/.exec(response ?? "");
  return found ? `${found[1]}.${found[2]}.${found[3]}` : DEFAULT_STATUS[action];
}

/** RFC 3464 §2.2 and §2.3: the per-message fields, a blank line, then the recipient's. */
export function deliveryStatus(report: Pending, hostname: string, now: Date): string {
  const lines = [`Reporting-MTA: dns; ${oneLine(hostname)}`];
  if (report.envid) lines.push(`Original-Envelope-Id: ${oneLine(report.envid, 100)}`);
  lines.push(`Arrival-Date: ${formatRfc5322Date(new Date(report.messageCreatedAt))}`, "");
  if (report.orcpt) lines.push(`Original-Recipient: ${oneLine(report.orcpt, 510)}`);
  lines.push(
    `Final-Recipient: rfc822; ${oneLine(report.recipient)}`,
    `Action: ${report.action}`,
    `Status: ${statusOf(report.action, report.response)}`,
  );
  if (report.response) lines.push(`Diagnostic-Code: smtp; ${oneLine(report.response)}`);
  lines.push(`Last-Attempt-Date: ${formatRfc5322Date(now)}`);
  return `${lines.join("\r\n")}\r\n`;
}

/**
 * The report's MIME: a human-readable part, the `message/delivery-status` part and what RET asked to return — the
 * whole message (FULL, when it fits under the size limit) or its header (HDRS, the default: a report should not
 * carry an attachment back to a sender who has it).
 */
export async function composeReport(
  report: Pending,
  original: Buffer | null,
  options: { hostname: string; now: Date; messageId: string; maxMessageBytes: number },
): Promise<{ raw: Buffer; subject: string; text: string }> {
  const subject = SUBJECTS[report.action];
  const recipient = oneLine(report.recipient);
  const text =
    `This is the mail system at ${oneLine(options.hostname)}.\r\n\r\n` +
    `Your message ${SAID[report.action]} ${recipient}.\r\n` +
    (report.response ? `\r\nThe mail system said: ${oneLine(report.response)}\r\n` : "");
  const full = report.ret === "FULL" && original && original.length + REPORT_OVERHEAD_BYTES <= options.maxMessageBytes;
  // RFC 6522 §3: the human-readable part, the machine-readable part, then the returned message or its header.
  const root = new MimeNode("multipart/report; report-type=delivery-status");
  root.setHeader({
    From: `Mail Delivery System <MAILER-DAEMON@${options.hostname}>`,
    To: report.returnTo,
    Subject: subject,
    "Message-ID": options.messageId,
    Date: formatRfc5322Date(options.now),
    // RFC 3834 §5: a report is an automatic reply; responders must not answer it.
    "Auto-Submitted": "auto-replied",
  });
  root.createChild("text/plain; charset=us-ascii").setContent(text);
  root
    .createChild("message/delivery-status")
    .setHeader("Content-Description", "Delivery report")
    .setContent(deliveryStatus(report, options.hostname, options.now));
  if (original && full) {
    // RFC 2046 §5.2.1: message/rfc822 is never encoded; 8-bit bytes are declared, not transformed.
    root
      .createChild("message/rfc822")
      .setHeader("Content-Transfer-Encoding", original.some((byte) => byte > 0x7f) ? "8bit" : "7bit")
      .setContent(original);
  } else if (original) {
    const headerEnd = blankLineAfter(original);
    root.createChild("text/rfc822-headers").setContent(headerEnd >= 0 ? original.subarray(0, headerEnd) : original);
  }
  const raw = await new Promise<Buffer>((resolve, reject) =>
    root.build((error, message) => (error ? reject(error) : resolve(message))),
  );
  return { raw, subject, text };
}

export function createStatusReports(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  events: EventLog;
  suppressions: SuppressionService;
  /** `[server] hostname`: the reports' sender and Reporting-MTA. */
  hostname: string;
  maxMessageBytes: number;
  /** Wakes this instance's delivery worker after reports were queued. */
  onAccepted: (count: number) => void;
  logger: Logger;
}): StatusReports {
  const { db, writer, clock, events, logger, hostname } = deps;
  const { dsnReports, relayEnvelopes, deliveries, emails, emailContents } = tablesOf(db);

  const pending = () =>
    db
      .select({
        deliveryId: dsnReports.deliveryId,
        action: dsnReports.action,
        organizationId: dsnReports.organizationId,
        emailId: dsnReports.emailId,
        recipient: dsnReports.recipient,
        response: dsnReports.response,
        createdAt: dsnReports.createdAt,
        returnTo: relayEnvelopes.returnTo,
        ret: relayEnvelopes.ret,
        envid: relayEnvelopes.envid,
        orcpt: deliveries.dsnOrcpt,
        mode: emails.mode,
        messageCreatedAt: emails.createdAt,
      })
      .from(dsnReports)
      .innerJoin(relayEnvelopes, eq(relayEnvelopes.emailId, dsnReports.emailId))
      .innerJoin(emails, eq(emails.id, dsnReports.emailId))
      .leftJoin(deliveries, eq(deliveries.id, dsnReports.deliveryId))
      .where(isNull(dsnReports.reportEmailId))
      .orderBy(asc(dsnReports.createdAt))
      .limit(BATCH) as Promise<Pending[]>;

  const originalOf = async (emailId: string) => {
    const [row] = await db
      .select({ raw: emailContents.raw })
      .from(emailContents)
      .where(eq(emailContents.emailId, emailId));
    return row?.raw ?? null;
  };

  /** The report as a message of the organisation, queued to the sender with a null return path. */
  const prepare = async (report: Pending): Promise<PreparedMessage> => {
    const id = newId();
    const now = new Date(clock.now());
    const messageId = `<${id}@${hostname}>`;
    const composed = await composeReport(report, await originalOf(report.emailId), {
      hostname,
      now,
      messageId,
      maxMessageBytes: deps.maxMessageBytes,
    });
    const suppressed = await deps.suppressions.suppressedAmong(report.organizationId, [report.returnTo]);
    return {
      id,
      organizationId: report.organizationId,
      apiKeyId: null,
      source: "smtp",
      mode: report.mode,
      messageId,
      fromHeader: `Mail Delivery System <MAILER-DAEMON@${hostname}>`,
      // RFC 3461 §6.2, RFC 5321 §4.5.5: a notification goes with the null reverse path, so none is ever sent about it.
      envelopeFrom: "",
      to: [report.returnTo],
      cc: [],
      bcc: [],
      replyTo: [],
      subject: composed.subject,
      html: null,
      text: composed.text,
      tags: [
        { name: "dsn", value: report.action },
        { name: "dsn_for", value: report.emailId },
      ],
      templateId: null,
      broadcastId: null,
      contactId: null,
      raw: composed.raw,
      recipients: [report.returnTo],
      suppressed,
      // A report belongs to no topic: it answers the sender's own message.
      topicId: null,
      leftTopic: new Set(),
      // Mail a person or a program wrote to one recipient, not a newsletter: the transactional lane.
      lane: "transactional",
    };
  };

  /** Stores the report, its queued delivery and event, and marks its outbox row, in one transaction. */
  const store = (report: Pending, message: PreparedMessage) =>
    writer.write(async (tx) => {
      const createdAt = isoTime(clock.now());
      const suppressed = message.suppressed.size > 0;
      const marked = await tx
        .update(tablesOf(tx).dsnReports)
        .set({ reportEmailId: message.id })
        .where(
          and(
            eq(tablesOf(tx).dsnReports.deliveryId, report.deliveryId),
            eq(tablesOf(tx).dsnReports.action, report.action),
            isNull(tablesOf(tx).dsnReports.reportEmailId),
          ),
        )
        .returning({ deliveryId: tablesOf(tx).dsnReports.deliveryId });
      if (!marked.length) return false;
      await insertAccepted(tx, {
        emails: [emailRow(message, createdAt)],
        contents: [{ emailId: message.id, raw: message.raw }],
        deliveries: [
          {
            id: newId(),
            emailId: message.id,
            organizationId: message.organizationId,
            recipient: report.returnTo,
            destination: domainOf(report.returnTo),
            status: suppressed ? "suppressed" : "queued",
            nextAttemptAt: suppressed ? null : clock.now(),
            lastResponse: suppressed ? "recipient is on the suppression list" : null,
            createdAt,
            updatedAt: createdAt,
            dsnNotify: null,
            dsnOrcpt: null,
            lane: message.lane,
          },
        ],
      });
      const base = { organizationId: message.organizationId, emailId: message.id };
      const data = { dsn: report.action, dsn_for: report.emailId, recipient: report.recipient };
      await events.appendRecorded(tx, [
        suppressed
          ? { ...base, type: "email.suppressed", recipient: report.returnTo, data: { reason: "suppressed" } }
          : { ...base, type: "email.queued", data },
      ]);
      await notifyAtCommit(tx, DELIVERIES_DUE);
      return !suppressed;
    });

  return {
    async sendPending() {
      let queued = 0;
      for (const report of await pending()) {
        try {
          if (await store(report, await prepare(report))) queued++;
        } catch (error) {
          // This report waits for the next run; the others go on.
          logger.error("delivery status notification not queued", {
            email_id: report.emailId,
            delivery_id: report.deliveryId,
            err: error,
          });
        }
      }
      if (queued) deps.onAccepted(queued);
      return queued;
    },
  };
}
