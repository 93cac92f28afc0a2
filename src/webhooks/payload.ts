/**
 * The JSON body every receiver gets (docs/events-and-webhooks.md#payloads): an event's payload, built once when the
 * outbox row is written, and the sample a test event carries.
 *
 * Invariant: a payload is built from what the event and its message held at the event's commit; the outbox keeps
 * those bytes, so every attempt and replay sends the same body.
 */
import type { Db } from "../db/store.ts";
import type { EventType, StoredEvent } from "../events/model.ts";
import { receivedEventData } from "../inbound/model.ts";
import type { WebhookPayload } from "./model.ts";
import { outboxStatements } from "./repo.ts";

/** Tags as Resend's payloads carry them: an object of name → value (a repeated name keeps its last value). */
const tagObject = (tags: ReadonlyArray<{ name: string; value: string }>) =>
  Object.fromEntries(tags.map((tag) => [tag.name, tag.value]));

/**
 * The payload of an event: `email.*` events carry the message's fields, then what the event itself recorded. Null
 * for an event of system mail, which is not the organisation's and goes to none of its endpoints
 * (docs/teams.md#system-mail).
 */
export async function buildPayload(tx: Db, event: StoredEvent): Promise<WebhookPayload | null> {
  let data: Record<string, unknown> = { ...event.data };
  // A received message's event carries its own data (Resend's received-email shape); its email_id is the received one.
  if (event.emailId && event.type !== "email.received") {
    const [email] = await outboxStatements(tx).emailFields.execute({ emailId: event.emailId });
    if (email?.systemMail) return null;
    data = {
      ...data,
      email_id: event.emailId,
      ...(email && {
        message_id: email.messageId,
        from: email.from,
        to: email.to,
        cc: email.cc,
        subject: email.subject,
        tags: tagObject(email.tags),
        ...(email.templateId && { template_id: email.templateId }),
        // Resend's field: the broadcast a message was sent for (docs/broadcasts.md#events).
        ...(email.broadcastId && { broadcast_id: email.broadcastId }),
      }),
      recipient: event.recipient ?? null,
    };
  }
  return { type: event.type, created_at: event.createdAt, data };
}

/** A test event's payload: the shape of a real event of `type`, with fixed sample values and `data.test: true`. */
export function samplePayload(type: EventType, createdAt: string): WebhookPayload {
  const data: Record<string, unknown> = type.startsWith("email.")
    ? {
        email_id: "00000000-0000-7000-8000-000000000000",
        message_id: "<00000000-0000-7000-8000-000000000000@example.com>",
        from: "Acme <hello@example.com>",
        to: ["recipient@example.org"],
        cc: [],
        subject: "Mailroom test event",
        tags: {},
        recipient: "recipient@example.org",
      }
    : {};
  if (type === "email.bounced")
    data.bounce = {
      type: "Permanent",
      subType: "General",
      message: "550 5.1.1 User unknown",
      diagnostic_code: "550 5.1.1 User unknown",
    };
  if (type === "email.received") {
    return {
      type,
      created_at: createdAt,
      data: {
        ...receivedEventData({
          id: "00000000-0000-7000-8000-000000000001",
          createdAt,
          fromHeader: "Recipient <recipient@example.org>",
          to: ["hello@example.com"],
          cc: [],
          bcc: [],
          receivedFor: ["hello@example.com"],
          messageId: "<reply@example.org>",
          subject: "Re: Mailroom test event",
          attachments: [],
          inReplyToEmailId: "00000000-0000-7000-8000-000000000000",
          autoReply: null,
        }),
        test: true,
      },
    };
  }
  return { type, created_at: createdAt, data: { ...data, test: true } };
}
