/**
 * The intake of SES events: an SNS message posted to `/v1/providers/ses/sns` is verified (providers/sns.ts), a
 * subscription confirmation is confirmed, and a notification's SES event goes to the inbound funnel, which applies it
 * like a DSN or a feedback report. Invariant: nothing in a message is acted on before its signature verifies and its
 * topic is one the operator configured.
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

export function createSesEventIntake(deps: { verifier: SnsVerifier; inbound: Pick<InboundService, "applySesEvent">; logger: Logger }): SesEventIntake {
  const { verifier, inbound, logger } = deps;
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
          const event = parseSesEvent(message.Message);
          if (!event) {
            logger.info("SNS notification without an SES event ignored", about);
            return { type: message.Type, applied: false };
          }
          const outcome = await inbound.applySesEvent(event);
          return { type: message.Type, applied: outcome !== null && "changed" in outcome && outcome.changed };
        }
      }
    },
  };
}
