/**
 * The one funnel for incoming mail, `inbound.receive(raw, envelope)` (the MX listener's and the tests'), and the
 * check the listener makes at RCPT (`acceptRecipient`).
 *
 * - To a return path (`bounces+<token>@…`): a delivery status notification about the recipient the token names, or
 *   a feedback report, is handed to the deliveries area (deliveries/reports.ts), which changes that delivery —
 *   bounced (Permanent: + suppression), delivery_delayed, or complained (+ suppression) — with its event, in one
 *   write; anything else there (a notification about someone else, an out-of-office, a challenge-response, a person
 *   answering the envelope sender) is stored as received mail in the history of the message it answers.
 * - To `dmarc@<return path>` of a verified domain (the `rua` of the DMARC record Mailroom suggests): DMARC aggregate
 *   reports, read off the event loop and stored for that domain (reputation/dmarc.ts); a message holding no
 *   report it can read is refused (554 5.6.0), so a zip bomb costs its sender a bounce and Mailroom nothing stored.
 * - To `unsubscribe+<token>@<return path>` (List-Unsubscribe's mailto): the token's recipient leaves its topic.
 * - To a receiving domain: a feedback report is applied only when the return path it quotes (Original-Mail-From)
 *   verifies and names a delivery of this organisation — the same token, so the same proof, as a report sent to
 *   that return path; everything else (a bounce quoting a Message-ID included) goes where the organisation's first
 *   matching inbound route says (route-plan.ts, apply-routes.ts; default: stored with its authentication results and
 *   rspamd's verdict, linked to the sent message it answers, with `email.received`).
 * - To an SRS address of a forwarded copy: a bounce, returned to the original sender (forwarding.ts).
 *
 * Invariants: a report changes only the delivery a return-path token whose MAC verifies names, and a notification
 * only as far as it speaks of that delivery's recipient (or of no one by name), so forged, misdirected and
 * cross-recipient reports (backscatter) change nothing; a delivery is bounced (Permanent) or complained about once,
 * however often the report arrives; nothing a report says suppresses unless it is definite; what is accepted and
 * not applied as a report is stored, never dropped; nothing is stored for an organisation whose received mail is at
 * `[inbound] max_stored_bytes` (452 4.2.2, at RCPT to its domains, after the data at a return path, where reports
 * still apply), and every stored message adds its size to the organisation's running total in the same write. The
 * CPU pool's work on a message is budgeted and taken in turn with other client networks': a message it cannot read in
 * time is kept whole, read as nothing; one it cannot authenticate in time (`[inbound] auth_timeout`) is kept with
 * temperror results — accepted mail is never lost to a budget.
 */
import { ASIDE_CONTENT_BYTES } from "../db/content-writes.ts";
import type { Db, Writer } from "../db/store.ts";
import type { DeliveryReport, ReportIntake } from "../deliveries/reports.ts";
import type { DomainService } from "../domains/service.ts";
import type { ReturnPathCodec } from "../domains/signing.ts";
import type { PreferenceService } from "../preferences/service.ts";
import { AppError } from "../errors.ts";
import type { EventLog } from "../events/service.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import { clientNetwork } from "../limits/auth-failures.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import type { RouteRule } from "../inbound-routes/match.ts";
import { applyRoutes, prepareForwards, receivedField } from "./apply-routes.ts";
import { messageAuthenticator, type ReceivedReader } from "./authentication.ts";
import { type DmarcIntake, dmarcReceiver } from "./dmarc-intake.ts";
import type { Forwarding } from "./forwarding.ts";
import { receivedEventData, type AutoReplyKind, type ReceivedAuthentication } from "./model.ts";
import type { ReceivedFields, SealedAuthentication, SessionFacts } from "./received.ts";
import { needsScore, planRoutes, routeRefusal } from "./route-plan.ts";
import type { ReceivedSpam, SpamScorer } from "./spam.ts";
import type { BouncedRecipient, InboundReport } from "./reports.ts";
import { findDelivery, insertReceived, sentWithMessageIds, storedBytes } from "./repo.ts";

export type { DmarcIntake, ReceivedReader };

export interface InboundEnvelope {
  /** MAIL FROM; empty for notifications (RFC 5321 §4.5.5). */
  from: string;
  /** The accepted RCPT TO addresses. */
  to: string[];
  /** The SMTP client's address and EHLO name, for SPF; absent when the message did not come over SMTP (tests). */
  client?: { address: string; helo: string };
}

/** What became of a received message, once per return path or organisation it reached. */
export type InboundOutcome =
  | { handled: "bounce"; deliveryId: string; outcome: BouncedRecipient["outcome"]; changed: boolean }
  | { handled: "complaint"; deliveryId: string; changed: boolean }
  | { handled: "stored"; receivedEmailId: string; organizationId: string; inReplyToEmailId: string | null }
  | { handled: "dmarc_report"; domain: string; reports: number; stored: number }
  | { handled: "unsubscribe"; applied: boolean }
  | { handled: "dropped"; organizationId: string; routeId: string }
  | { handled: "returned"; organizationId: string; emailId: string }
  | { handled: "ignored"; reason: "unknown delivery" | "no recipient" };

export interface InboundService {
  /** Throws the refusal for a recipient the MX does not take mail for; resolves when it does. */
  acceptRecipient(address: string): Promise<void>;
  receive(raw: Buffer, envelope: InboundEnvelope): Promise<InboundOutcome[]>;
}

/** What a received message may report about a delivery: a bounce or a complaint. */
type AppliedReport = Extract<InboundReport, { kind: "bounce" | "complaint" }>;

const RETURN_PATH_LOCAL = /^bounces\+/i;

export function createInboundService(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  events: EventLog;
  /** Where a report about a delivery is applied. */
  reports: ReportIntake;
  domains: DomainService;
  returnPaths: ReturnPathCodec;
  /** `[inbound] max_stored_bytes`: raw bytes of received mail one organisation may keep; 0, no limit. */
  maxStoredBytes: number;
  /** Where received mail is parsed and authenticated: megabytes of it would hold the event loop for seconds. */
  cpu: ReceivedReader;
  /** The configured resolver as mailauth calls it. */
  resolve: (name: string, rrtype: string) => Promise<unknown>;
  /** This server's name in Authentication-Results. */
  hostname: string;
  /** `[inbound] auth_timeout`: how long the checks of one message may take, DNS included. */
  authTimeoutMs: number;
  logger: Logger;
  metrics: Metrics;
  /** DMARC aggregate reports mailed to a domain's `rua` address (docs/deliverability.md). */
  dmarc: DmarcIntake;
  /** Mail to `unsubscribe+TOKEN@<return path>` (docs/contacts-preferences.md): the token alone decides, as one-click. */
  unsubscribes?: Pick<PreferenceService, "isUnsubscribeAddress" | "byMail">;
  /** Each organisation's inbound routes, in order (docs/inbound.md#routes). */
  routes: { rulesOf(organizationId: string): Promise<RouteRule[]> };
  /** A local rspamd's verdict (docs/inbound.md#spam-scoring); null when none is configured or it did not answer. */
  spam: SpamScorer;
  /** Forwarded copies and the bounces to them (docs/inbound.md#forwarding). */
  forwarding: Forwarding;
}): InboundService {
  const { db, writer, clock, events, reports, domains, returnPaths, logger, metrics } = deps;

  const count = (kind: string, reason: string) => metrics.inc("mailroom_inbound_reports_total", { kind, reason });

  /**
   * What a report may change of the delivery a verified token names, to `recipient`: a notification's lines about
   * that recipient (or naming no one); null when it speaks only of others — a cc or a stranger named in a report
   * sent to someone's return path. A feedback report is about the message the token names, whatever its
   * Original-Rcpt-To says: feedback loops redact that field, and the token alone decides which delivery changes.
   */
  const reportAbout = (report: AppliedReport, recipient: string): AppliedReport | null => {
    if (report.kind === "complaint") return report;
    const recipients = report.recipients.filter((r) => r.recipient === null || r.recipient === recipient.toLowerCase());
    return recipients.length ? { ...report, recipients } : null;
  };

  /**
   * The organisation's delivery a feedback report to one of its domains complains about: only the one its quoted
   * return path (a feedback loop's Original-Mail-From) names by a token that verifies — the proof a report to the
   * return path itself carries.
   */
  const deliveryForDomainReport = async (organizationId: string, report: AppliedReport) => {
    const quoted =
      report.kind === "complaint" && report.originalMailFrom ? returnPaths.parse(report.originalMailFrom) : null;
    if (!quoted) return undefined;
    const delivery = await findDelivery(db, quoted.deliveryId);
    return delivery?.organizationId === organizationId ? delivery : undefined;
  };

  /** Applies a report to the delivery (deliveries/reports.ts): its status, event and suppression, unless already judged. */
  const applyReport = async (deliveryId: string, report: DeliveryReport): Promise<InboundOutcome> => {
    const result = await reports.apply(deliveryId, report);
    const kind = result.kind === "complaint" ? "complaint" : `bounce_${result.outcome}`;
    if (result.changed === undefined) return ignoredUnknown(kind);
    count(kind, result.changed ? "applied" : "repeated");
    return result.kind === "complaint"
      ? { handled: "complaint", deliveryId, changed: result.changed }
      : { handled: "bounce", deliveryId, outcome: result.outcome, changed: result.changed };
  };

  const ignoredUnknown = (kind: string): InboundOutcome => {
    count(kind, "unknown delivery");
    return { handled: "ignored", reason: "unknown delivery" };
  };

  /** The organisation's sent message this one answers: the newest of its In-Reply-To and References it sent. */
  const answeredEmail = async (organizationId: string, answers: string[]) => {
    if (!answers.length) return null;
    const rows = await sentWithMessageIds(db, organizationId, answers);
    return answers.map((answer) => rows.find((row) => row.messageId === answer)?.id).find(Boolean) ?? null;
  };

  /** Stores the message for one organisation and appends its `email.received`, in one write. */
  const store = async (input: {
    organizationId: string;
    raw: Buffer;
    fields: ReceivedFields;
    envelope: InboundEnvelope;
    receivedFor: string[];
    authentication: ReceivedAuthentication;
    autoReply: AutoReplyKind | null;
    /** The sent message it answers when the return path it came to already says so. */
    answers?: string;
    spam: ReceivedSpam | null;
    routeId?: string | null;
    /** Only these webhooks hear of it (a `webhook` route's). */
    webhookIds?: readonly string[];
  }): Promise<InboundOutcome> => {
    const { fields } = input;
    // The ARC set sealed for a forwarded copy is the copy's, not the record's.
    const { arcSet: _, ...authentication } = input.authentication as SealedAuthentication;
    const inReplyToEmailId = input.answers ?? (await answeredEmail(input.organizationId, fields.answers));
    const id = newId();
    const createdAt = isoTime(clock.now());
    const row = {
      id,
      organizationId: input.organizationId,
      inReplyToEmailId,
      messageId: fields.messageId,
      envelopeFrom: input.envelope.from,
      receivedFor: input.receivedFor,
      fromHeader: fields.fromHeader,
      to: fields.to,
      cc: fields.cc,
      bcc: fields.bcc,
      replyTo: fields.replyTo,
      subject: fields.subject,
      html: fields.html,
      text: fields.text,
      headers: fields.headers,
      attachments: fields.attachments,
      authentication,
      autoReply: input.autoReply,
      spam: input.spam,
      routeId: input.routeId ?? null,
      clientAddress: input.envelope.client?.address ?? "",
      size: input.raw.length,
      createdAt,
    };
    // A large body is staged ahead of its record, so the event loop never carries it in one go (db/content-writes.ts).
    const staged =
      writer.stageContent && input.raw.length >= ASIDE_CONTENT_BYTES
        ? await writer.stageContent("received_contents", id, input.raw)
        : undefined;
    await writer
      .write(async (tx) => {
        await insertReceived(tx, row, staged ? { staged: true } : { raw: input.raw });
        if (staged) await staged.place(tx);
        await events.append(tx, {
          organizationId: input.organizationId,
          emailId: inReplyToEmailId,
          type: "email.received",
          data: receivedEventData(row),
          ...(input.webhookIds && { webhookIds: input.webhookIds }),
        });
      })
      .catch(async (error) => {
        await staged?.discard();
        throw error;
      });
    metrics.inc("mailroom_inbound_messages_total", { kind: input.autoReply ?? "message" });
    logger.info("inbound message stored", {
      received_email_id: id,
      organization_id: input.organizationId,
      size: input.raw.length,
      in_reply_to_email_id: inReplyToEmailId,
    });
    return { handled: "stored", receivedEmailId: id, organizationId: input.organizationId, inReplyToEmailId };
  };

  /**
   * Refuses mail for an organisation whose received mail already takes `[inbound] max_stored_bytes`: one read of
   * its running total (inbound_usage, by primary key), never a sum over its mail. Messages accepted meanwhile may
   * take it past the quota by what they hold; the next RCPT sees it.
   */
  const assertRoomFor = async (organizationId: string, stage: "rcpt" | "data") => {
    if (deps.maxStoredBytes === 0) return;
    const stored = await storedBytes(db, organizationId);
    if (stored < deps.maxStoredBytes) return;
    metrics.inc("mailroom_inbound_limits_total", { limit: "stored_bytes" });
    logger.warn("inbound mail refused: the organisation's received mail is at its quota", {
      organization_id: organizationId,
      stored_bytes: stored,
      max_stored_bytes: deps.maxStoredBytes,
      stage,
    });
    throw new AppError(
      "rate_limit_exceeded",
      "Mailbox full: this organisation's received mail is at its storage quota; try again later.",
      { condition: "storage_quota" },
    );
  };

  const { domainOf, dmarcReportDomain, receiveDmarcReports } = dmarcReceiver({ domains, dmarc: deps.dmarc, metrics });

  return {
    async acceptRecipient(address) {
      if (returnPaths.parse(address) || deps.unsubscribes?.isUnsubscribeAddress(address)) return;
      if (await dmarcReportDomain(address)) return;
      if (deps.forwarding.looksLike(address)) {
        if (await deps.forwarding.accepts(address)) return;
        throw new AppError("not_found", "No such forwarding address here.", { condition: "unknown_recipient" });
      }
      if (RETURN_PATH_LOCAL.test(address.slice(0, address.lastIndexOf("@"))))
        throw new AppError("not_found", "No such return path here.", { condition: "unknown_recipient" });
      const domain = domainOf(address);
      if (!domain) throw new AppError("not_found", "No such mailbox here.", { condition: "unknown_recipient" });
      const receiving = await domains.receivingState(domain);
      if (receiving.state === "receiving") return assertRoomFor(receiving.organizationId, "rcpt");
      // Never an open relay: mail for a name this server does not receive for is refused, whoever sends it.
      throw new AppError(
        "insufficient_scope",
        receiving.state === "off"
          ? `Receiving is not enabled for ${domain}.`
          : `Relaying denied: this server does not accept mail for ${domain}.`,
      );
    },

    async receive(raw, envelope) {
      // Work for one client network takes turns with other networks' on the CPU pool.
      const tenant = envelope.client ? clientNetwork(envelope.client.address) : "";
      const { report, fields, unparsed } = await deps.cpu.readReceived(raw, tenant);
      if (unparsed !== null)
        logger.warn("inbound message not parsed; stored raw", { reason: unparsed, size: raw.length });
      const isReport = report.kind === "bounce" || report.kind === "complaint";
      const autoReply: AutoReplyKind | null =
        report.kind === "auto_reply" ? (report.challenge ? "challenge_response" : "auto_reply") : null;
      const outcomes: InboundOutcome[] = [];
      const facts: SessionFacts = {
        clientAddress: envelope.client?.address ?? "127.0.0.1",
        helo: envelope.client?.helo ?? "localhost",
        sender: envelope.from,
        mta: deps.hostname,
      };
      const authenticated = messageAuthenticator({ ...deps, raw, facts, tenant, budgetMs: deps.authTimeoutMs });

      const toStore: Array<{ organizationId: string; receivedFor: string[]; answers?: string }> = [];
      const routed: Array<{ organizationId: string; receivedFor: string[] }> = [];
      const returnPathTo = new Map<string, string>();
      const byOrganization = new Map<string, string[]>();
      const dmarcFor: string[] = [];
      const srsTo: string[] = [];
      for (const address of envelope.to) {
        if (deps.unsubscribes?.isUnsubscribeAddress(address)) {
          outcomes.push({ handled: "unsubscribe", applied: await deps.unsubscribes.byMail(address) });
          continue;
        }
        if (deps.forwarding.looksLike(address)) {
          srsTo.push(address);
          continue;
        }
        const parsed = returnPaths.parse(address);
        if (parsed) {
          returnPathTo.set(parsed.deliveryId, address);
          continue;
        }
        const reportsFor = await dmarcReportDomain(address);
        if (reportsFor) {
          dmarcFor.push(reportsFor);
          continue;
        }
        const receiving = await domains.receivingState(domainOf(address));
        // A domain switched off between RCPT and now keeps what it accepted: its owner is still known.
        if (receiving.state === "unknown") continue;
        byOrganization.set(receiving.organizationId, [
          ...(byOrganization.get(receiving.organizationId) ?? []),
          address,
        ]);
      }
      if (dmarcFor.length) outcomes.push(...(await receiveDmarcReports(raw, dmarcFor, tenant)));
      // A bounce to a forwarded copy's SRS sender goes back to the original sender (docs/inbound.md#forwarding).
      for (const address of srsTo) {
        const returned = await deps.forwarding.returnToSender({ address, raw, envelopeFrom: envelope.from, fields });
        if (returned) outcomes.push({ handled: "returned", ...returned });
      }
      if (returnPathTo.size === 0 && byOrganization.size === 0) {
        if (outcomes.length || srsTo.length) return outcomes;
        logger.warn("inbound message for no known recipient ignored", {
          kind: report.kind,
          envelope_from: envelope.from,
          recipients: envelope.to.length,
        });
        count(report.kind, "no recipient");
        return [{ handled: "ignored", reason: "no recipient" }];
      }

      for (const [deliveryId, address] of returnPathTo) {
        const delivery = await findDelivery(db, deliveryId);
        if (!delivery) {
          outcomes.push(ignoredUnknown(isReport ? report.kind : (autoReply ?? "message")));
          continue;
        }
        const about = isReport ? reportAbout(report, delivery.recipient) : null;
        if (about) {
          outcomes.push(await applyReport(deliveryId, about));
          continue;
        }
        if (isReport) count(report.kind, "about another recipient");
        toStore.push({ organizationId: delivery.organizationId, receivedFor: [address], answers: delivery.emailId });
      }

      for (const [organizationId, addresses] of byOrganization) {
        const delivery = isReport ? await deliveryForDomainReport(organizationId, report) : undefined;
        if (delivery && isReport) {
          outcomes.push(await applyReport(delivery.id, report));
          continue;
        }
        if (isReport) count(report.kind, "not at its return path");
        routed.push({ organizationId, receivedFor: addresses });
      }

      // The routes decide for mail to receiving domains; a refusal (a reject route, a spam score over a threshold, a
      // loop) comes before anything is stored (docs/inbound.md#routes).
      const planned = await planRoutes(routed, fields.headers, deps.routes.rulesOf);
      const spam =
        toStore.length || needsScore(planned)
          ? await deps.spam.score(raw, {
              clientAddress: envelope.client?.address ?? null,
              helo: envelope.client?.helo ?? null,
              from: envelope.from,
              recipients: envelope.to,
            })
          : null;
      const refusal = routeRefusal(planned, spam);
      if (refusal) {
        metrics.inc("mailroom_inbound_routes_total", { outcome: "refused" });
        throw refusal;
      }
      const forwards = await prepareForwards(planned, raw, {
        forwarding: deps.forwarding,
        logger,
        received: receivedField({ ...facts, hostname: deps.hostname, now: clock.now() }),
      });

      // Checked before anything is stored, so the sender's retry of the whole message duplicates nothing (the
      // reports above are applied once however often they come). Return paths pass RCPT whatever the quota, for
      // their reports; what else comes to them is refused here.
      const stored = [...toStore, ...planned.filter((target) => target.route?.action !== "drop")];
      for (const organizationId of new Set(stored.map((target) => target.organizationId)))
        await assertRoomFor(organizationId, "data");
      for (const target of toStore)
        outcomes.push(
          await store({ ...target, raw, fields, envelope, authentication: await authenticated(), autoReply, spam }),
        );
      const routedOutcomes = await applyRoutes<InboundOutcome>({
        planned,
        forwards,
        spam,
        envelopeFrom: envelope.from,
        fields,
        forwarding: deps.forwarding,
        authenticate: authenticated,
        store: (target) => store({ ...target, raw, fields, envelope, autoReply }),
        dropped: (target) => {
          logger.info("inbound message dropped by its route", { route_id: target.route?.id });
          return { handled: "dropped", organizationId: target.organizationId, routeId: target.route?.id ?? "" };
        },
      });
      return [...outcomes, ...routedOutcomes];
    },
  };
}
