/** Event types of the public contract (docs/events-and-webhooks.md) and the shape every appended event has. */

export const EMAIL_EVENT_TYPES = [
  "email.scheduled",
  "email.queued",
  "email.sent",
  "email.delivered",
  "email.delivery_delayed",
  "email.bounced",
  "email.complained",
  "email.opened",
  "email.clicked",
  "email.unsubscribed",
  "email.failed",
  "email.suppressed",
  "email.canceled",
  "email.received",
  "email.held",
] as const;

export const EVENT_TYPES = [
  ...EMAIL_EVENT_TYPES,
  "domain.created",
  "domain.updated",
  "domain.deleted",
  "suppression.added",
  "suppression.removed",
  // Sending paused and resumed (docs/operations.md): for the organisation, one sending domain or one provider.
  "sending.paused",
  "sending.resumed",
  // The audience (docs/contacts.md#events), Resend's names.
  "contact.created",
  "contact.updated",
  "contact.deleted",
  "contact.topics.updated",
  "topic.created",
  "topic.updated",
  "topic.deleted",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export interface NewEvent {
  organizationId: string;
  type: EventType;
  emailId?: string | null;
  recipient?: string | null;
  data?: Record<string, unknown>;
  /**
   * Only these webhook endpoints receive it (an inbound route's `webhook` action, docs/inbound.md#routes); absent:
   * every endpoint subscribed to its type. Not stored: it steers the fan-out in the event's own transaction.
   */
  webhookIds?: readonly string[];
}

/**
 * The `bounce` of an `email.bounced` event (docs/events-and-webhooks.md, Resend's shape plus Mailroom's `diagnostic_code`): one
 * builder for the bounces seen during delivery and those reported later by mail.
 */
export function bounceData(type: "Permanent" | "Transient" | "Undetermined", subType: string, response: string) {
  return { type, subType, message: response, diagnostic_code: response };
}

export interface StoredEvent extends Required<Omit<NewEvent, "data" | "webhookIds">> {
  webhookIds?: readonly string[];
  id: string;
  data: Record<string, unknown>;
  createdAt: string;
}

/**
 * An event's data as a reader who sees no message content reads it (a viewer, docs/teams.md): a click's link is null,
 * since links are the body's — a password-reset link among them.
 */
export function withoutContent(data: Record<string, unknown>): Record<string, unknown> {
  return "link" in data ? { ...data, link: null } : data;
}
