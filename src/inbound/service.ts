/**
 * The one funnel for incoming mail, `inbound.receive(raw, envelope)` (the MX listener's and the tests'). This part
 * handles what comes back to return paths: a delivery status notification or a feedback report about a delivery
 * changes that delivery — bounced (Permanent: + suppression), delivery_delayed, or complained (+ suppression) —
 * with its event, in one write. Invariants: only a return-path token whose MAC verifies (signing.ts) names a
 * delivery, so forged and misdirected reports (backscatter) change nothing; a delivery is bounced (Permanent) or
 * complained about once, however often the report arrives; nothing a report says suppresses unless it is definite.
 */
import { eq } from "drizzle-orm";
import { first, tablesOf, type Db, type Writer } from "../db/store.ts";
import type { ReturnPathCodec } from "../domains/signing.ts";
import { bounceData } from "../events/model.ts";
import type { EventLog } from "../events/service.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import type { SuppressionService } from "../suppressions/service.ts";
import { readInboundReport, type BouncedRecipient, type InboundReport } from "./reports.ts";

export interface InboundEnvelope {
  /** MAIL FROM; empty for notifications (RFC 5321 §4.5.5). */
  from: string;
  to: string[];
}

/** What became of a received message. */
export type InboundOutcome =
  | { handled: "bounce"; deliveryId: string; outcome: BouncedRecipient["outcome"]; changed: boolean }
  | { handled: "complaint"; deliveryId: string; changed: boolean }
  | { handled: "ignored"; reason: "no verified return path" | "not a report" | "unknown delivery" };

export interface InboundService {
  receive(raw: Buffer, envelope: InboundEnvelope): Promise<InboundOutcome>;
}

/** Statuses a late report may still change: the delivery left (or is leaving) and has not been judged yet. */
const REPORTABLE = new Set(["queued", "deferred", "sent", "delivered"]);

export function createInboundService(deps: {
  writer: Writer;
  clock: Clock;
  events: EventLog;
  suppressions: SuppressionService;
  returnPaths: ReturnPathCodec;
  logger: Logger;
  metrics: Metrics;
}): InboundService {
  const { writer, clock, events, suppressions, returnPaths, logger, metrics } = deps;

  /** The delivery a report concerns: the envelope's return path, else the one the report quotes (feedback loops). */
  const deliveryOf = (envelope: InboundEnvelope, report: InboundReport) => {
    const quoted = report.kind === "complaint" ? [report.originalMailFrom ?? ""] : [];
    for (const address of [...envelope.to, ...quoted]) {
      const parsed = returnPaths.parse(address);
      if (parsed) return parsed.deliveryId;
    }
    return null;
  };

  const ignored = (reason: Extract<InboundOutcome, { handled: "ignored" }>["reason"]): InboundOutcome => {
    metrics.inc("mailroom_inbound_reports_total", { kind: "ignored", reason });
    return { handled: "ignored", reason };
  };

  /** Applies the report to the delivery in one write; false when the delivery was already judged. */
  const apply = (deliveryId: string, change: (tx: Db, delivery: { id: string; emailId: string; organizationId: string; recipient: string; status: string }) => Promise<boolean>) =>
    writer.write(async (tx) => {
      const { deliveries } = tablesOf(tx);
      const delivery = await first(
        tx
          .select({ id: deliveries.id, emailId: deliveries.emailId, organizationId: deliveries.organizationId, recipient: deliveries.recipient, status: deliveries.status })
          .from(deliveries)
          .where(eq(deliveries.id, deliveryId)),
      );
      if (!delivery) return undefined;
      return change(tx, delivery);
    });

  const setStatus = (tx: Db, deliveryId: string, status: string, response: string | null) => {
    const { deliveries } = tablesOf(tx);
    return tx
      .update(deliveries)
      .set({ status, nextAttemptAt: null, leaseOwner: null, leaseUntil: null, ...(response ? { lastResponse: response.slice(0, 1000) } : {}), updatedAt: isoTime(clock.now()) })
      .where(eq(deliveries.id, deliveryId));
  };

  return {
    async receive(raw, envelope) {
      const report = await readInboundReport(raw);
      if (report.kind !== "bounce" && report.kind !== "complaint") return ignored("not a report");
      const deliveryId = deliveryOf(envelope, report);
      if (!deliveryId) {
        logger.warn("inbound report without a verified return path ignored", { kind: report.kind, envelope_from: envelope.from });
        return ignored("no verified return path");
      }

      if (report.kind === "complaint") {
        const changed = await apply(deliveryId, async (tx, delivery) => {
          if (delivery.status === "complained") return false;
          await setStatus(tx, delivery.id, "complained", null);
          const base = { organizationId: delivery.organizationId, emailId: delivery.emailId, recipient: delivery.recipient };
          await events.append(tx, { ...base, type: "email.complained", data: { complaint: { type: report.feedbackType } } });
          await suppressions.addInTransaction(tx, delivery.organizationId, { email: delivery.recipient, origin: "complaint", sourceId: delivery.emailId, reason: `feedback report: ${report.feedbackType}` });
          return true;
        });
        if (changed === undefined) return ignored("unknown delivery");
        metrics.inc("mailroom_inbound_reports_total", { kind: "complaint", reason: changed ? "applied" : "repeated" });
        return { handled: "complaint", deliveryId, changed };
      }

      // The token names the delivery, so one recipient's verdict applies; a definite one wins over an undecided one.
      const verdict = report.recipients.find((r) => r.outcome === "permanent") ?? report.recipients.find((r) => r.outcome === "temporary") ?? report.recipients[0];
      const outcome = verdict?.outcome ?? "undetermined";
      const message = verdict?.diagnostic ?? verdict?.status ?? "bounce report without a diagnostic";
      const changed = await apply(deliveryId, async (tx, delivery) => {
        if (!REPORTABLE.has(delivery.status)) return false;
        const base = { organizationId: delivery.organizationId, emailId: delivery.emailId, recipient: delivery.recipient };
        if (outcome === "temporary") {
          // The remote side is still retrying; the delivery stays as it is and only its history says so.
          await events.append(tx, { ...base, type: "email.delivery_delayed", data: { response: message, status: verdict?.status ?? null } });
          return true;
        }
        const type = outcome === "permanent" ? "Permanent" : "Undetermined";
        if (outcome === "permanent") await setStatus(tx, delivery.id, "bounced", message);
        await events.append(tx, { ...base, type: "email.bounced", data: { bounce: bounceData(type, verdict?.subType ?? "Undetermined", message) } });
        if (outcome === "permanent") await suppressions.addInTransaction(tx, delivery.organizationId, { email: delivery.recipient, origin: "bounce", sourceId: delivery.emailId, reason: message });
        return true;
      });
      if (changed === undefined) return ignored("unknown delivery");
      metrics.inc("mailroom_inbound_reports_total", { kind: `bounce_${outcome}`, reason: changed ? "applied" : "repeated" });
      return { handled: "bounce", deliveryId, outcome, changed };
    },
  };
}
