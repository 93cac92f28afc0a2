/**
 * The intake of SES events: an SNS message posted to `/v1/providers/ses/sns` is verified (providers/sns.ts), a
 * subscription confirmation is confirmed, and a notification's SES event goes to the inbound funnel, which applies it
 * like a DSN or a feedback report. Invariant: nothing in a message is acted on before its signature verifies and its
 * topic is one the operator configured. SNS delivers at least once: a notification already applied (by its MessageId,
 * remembered per process) is acknowledged again without being applied twice; statuses never move backwards anyway.
 */
import type { InboundService } from "../inbound/service.ts";
import type { Logger } from "../lib/logger.ts";
import { parseSesEvent, type SnsVerifier } from "./sns.ts";

export interface SesEventAnswer {
  type: string;
  /** For a notification: whether it changed a delivery (false: repeated, unknown message, or an event Mailroom ignores). */
  applied?: boolean;
}

export interface SesEventIntake {
  receive(body: unknown): Promise<SesEventAnswer>;
}

/** Notifications remembered as applied: SNS's redeliveries come within minutes, far fewer than this. */
const REMEMBERED_NOTIFICATIONS = 10_000;

export function createSesEventIntake(deps: {
  verifier: SnsVerifier;
  inbound: Pick<InboundService, "applySesEvent">;
  logger: Logger;
}): SesEventIntake {
  const { verifier, inbound, logger } = deps;
  const applied = new Set<string>();
  const remember = (messageId: string) => {
    applied.add(messageId);
    if (applied.size > REMEMBERED_NOTIFICATIONS) applied.delete(applied.values().next().value!);
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
          const outcome = await inbound.applySesEvent(event);
          remember(message.MessageId);
          return { type: message.Type, applied: outcome !== null && "changed" in outcome && outcome.changed };
        }
      }
    },
  };
}
