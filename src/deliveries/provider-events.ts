/**
 * What a provider's own events do to a recipient: Amazon SES reports through SNS (docs/delivery.md) what became of a message
 * it took. An SNS message posted to `/v1/providers/ses/sns` is verified (providers/sns.ts), a subscription
 * confirmation is confirmed, and a notification's SES event becomes a cause of the lifecycle (deliveries/lifecycle.ts)
 * of the delivery whose provider message id SES names: Delivery → delivered, Bounce → bounced (+ suppression when
 * Permanent), Complaint → complained + suppression, DeliveryDelay → its history only, Reject → failed; Send and the
 * rest are acknowledged and change nothing.
 *
 * Invariants: nothing in a message is acted on before its signature verifies and its topic is one the operator
 * configured. SNS delivers at least once: a notification already applied (by its MessageId, remembered per process)
 * is acknowledged again without being applied twice; the lifecycle's `from` states keep a repeat from moving a
 * recipient anyway.
 */
import { eq } from "drizzle-orm";
import { tablesOf, type Db, type Writer } from "../db/store.ts";
import { bounceData } from "../events/model.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import { parseSesEvent, type SesEvent, type SesEventKind, type SnsVerifier } from "../providers/sns.ts";
import type { Applied, Lifecycle } from "./lifecycle.ts";
import type { SesEventAnswer } from "./wire.ts";

export interface SesEventIntake {
  receive(body: unknown): Promise<SesEventAnswer>;
}

/** Notifications remembered as applied: SNS's redeliveries come within minutes, far fewer than this. */
const REMEMBERED_NOTIFICATIONS = 10_000;

export function createSesEventIntake(deps: {
  db: Db;
  writer: Writer;
  lifecycle: Lifecycle;
  verifier: SnsVerifier;
  logger: Logger;
  metrics: Metrics;
}): SesEventIntake {
  const { db, writer, lifecycle, verifier, logger, metrics } = deps;
  const { deliveries } = tablesOf(db);
  const applied = new Set<string>();
  const remember = (messageId: string) => {
    applied.add(messageId);
    if (applied.size > REMEMBERED_NOTIFICATIONS) applied.delete(applied.values().next().value!);
  };
  const count = (kind: string, reason: string) => metrics.inc("mailroom_inbound_reports_total", { kind, reason });

  /** Whether the event changed a delivery. */
  const apply = async (event: SesEvent): Promise<boolean> => {
    // One recipient per SendEmail, so SES's id names one delivery; the recipient check keeps an id from elsewhere out.
    const rows = await db
      .select({ id: deliveries.id, recipient: deliveries.recipient })
      .from(deliveries)
      .where(eq(deliveries.providerMessageId, event.sesMessageId));
    const delivery = rows.find((row) => event.recipients.some((r) => r.email === row.recipient));
    const kind = `ses_${event.kind}`;
    if (!delivery) {
      count(kind, "unknown delivery");
      return false;
    }
    const recipient = event.recipients.find((r) => r.email === delivery.recipient)!;
    const response = recipient.diagnostic ?? recipient.status ?? `SES ${event.kind}`;
    const target = { deliveryId: delivery.id };
    const bounceType = event.bounceType ?? "Undetermined";
    const feedbackType = event.complaintFeedbackType ?? "abuse";
    const rejected = `SES rejected the message: ${event.rejectReason ?? "no reason given"}`;
    // Send and the rest change nothing (SES reports a Send for every message): no write for them.
    const causes: Partial<Record<SesEventKind, (tx: Db) => Promise<Applied>>> = {
      delivery: (tx) =>
        lifecycle.apply(tx, "provider.delivered", target, { response, data: { response, provider_event: "Delivery" } }),
      // SES sends a bounce once it gave up (a Transient one after its own retries): final either way; only a
      // Permanent one says the address is gone.
      bounce: (tx) =>
        lifecycle.apply(tx, bounceType === "Permanent" ? "provider.bounce_permanent" : "provider.bounce", target, {
          response,
          data: { bounce: bounceData(bounceType, event.bounceSubType ?? "Undetermined", response) },
        }),
      complaint: (tx) =>
        lifecycle.apply(tx, "provider.complaint", target, {
          data: { complaint: { type: feedbackType } },
          reason: `feedback report: ${feedbackType}`,
        }),
      delivery_delay: (tx) =>
        lifecycle.apply(tx, "provider.delay", target, {
          data: { response, status: recipient.status, delay_type: event.delayType ?? null },
        }),
      reject: (tx) =>
        lifecycle.apply(tx, "provider.reject", target, { response: rejected, data: { reason: rejected } }),
    };
    const cause = causes[event.kind];
    if (!cause) return false;
    const result = await writer.write(cause);
    if (result.outcome === "unknown") {
      count(kind, "unknown delivery");
      return false;
    }
    // A complaint applied counts as the feedback report it is.
    count(event.kind === "complaint" ? "complaint" : kind, result.outcome === "applied" ? "applied" : "repeated");
    return result.outcome === "applied";
  };

  return {
    async receive(body) {
      const message = await verifier.verify(body);
      const about = { topic: message.TopicArn, sns_message_id: message.MessageId };
      switch (message.Type) {
        case "SubscriptionConfirmation":
          await verifier.confirmSubscription(message);
          logger.info("SNS subscription confirmed: SES events of this topic now arrive here", about);
          return { type: message.Type };
        case "UnsubscribeConfirmation":
          // Visiting its URL would subscribe again; an operator who unsubscribed meant it.
          logger.warn("SNS subscription ended: SES events of this topic no longer arrive here", about);
          return { type: message.Type };
        case "Notification": {
          if (applied.has(message.MessageId)) return { type: message.Type, applied: false };
          const event = parseSesEvent(message.Message);
          if (!event) {
            logger.info("SNS notification without an SES event ignored", about);
            return { type: message.Type, applied: false };
          }
          const changed = await apply(event);
          remember(message.MessageId);
          return { type: message.Type, applied: changed };
        }
      }
    },
  };
}
