/**
 * A message on its way into the store (docs/sending.md#what-acceptance-means): what the outgoing funnel prepared for
 * it, the request's acceptance it belongs to, and the row it is recorded as. Invariant: the record's texts hold no
 * NUL (PostgreSQL cannot), and system mail (docs/teams.md#system-mail) keeps no readable copy: it may carry a credential.
 */
import type { Actor } from "../access.ts";
import type { StagedContent } from "../db/store.ts";
import type { Lane } from "../deliveries/model.ts";
import type { IdempotencyClaim } from "../idempotency/service.ts";
import { addressKey, domainOf, type Mailbox } from "../lib/addresses.ts";
import { newId } from "../lib/ids.ts";
import { isoTime } from "../lib/clock.ts";
import type { EmailSource, SystemMailKind, Tag } from "./model.ts";
import type { RelayDsn } from "./relay-dsn.ts";

export interface PreparedMessage {
  id: string;
  organizationId: string;
  apiKeyId: string | null;
  source: EmailSource;
  mode: Actor["mode"];
  messageId: string;
  fromHeader: string;
  envelopeFrom: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string;
  html: string | null;
  text: string | null;
  tags: Tag[];
  scheduledAt?: number;
  templateId: string | null;
  lane: Lane;
  /** The topic it is sent for, or null (docs/contacts-preferences.md). */
  topicId: string | null;
  /** The broadcast and contact it was made for (docs/broadcasts.md), or null. */
  broadcastId: string | null;
  contactId: string | null;
  raw: Buffer;
  /** Distinct envelope recipients, in the order given. */
  recipients: string[];
  suppressed: Set<string>;
  /** Address keys of the recipients unsubscribed from the message's topic: recorded suppressed, never attempted. */
  leftTopic: Set<string>;
  /** The relayed message's delivery status notifications (relay-dsn.ts); absent: none are ever sent. */
  dsn?: RelayDsn;
  /** Mail Mailroom sends for itself (system-mail.ts), set by the funnel from `SubmitOptions.system` alone. */
  systemMail?: SystemMailKind;
}

/** Messages of one request on their way into the store, with what settles the request. */
export interface Acceptance {
  messages: PreparedMessage[];
  /** Large bodies staged ahead of the records, by message id. */
  bodies: Map<string, StagedContent>;
  discard: () => Promise<void>;
  idempotency?: IdempotencyClaim;
  response: unknown;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A prepared message's row in `emails`, inserted with its first status. */
export function emailRow(message: PreparedMessage, createdAt: string) {
  // System mail keeps no readable copy (docs/teams.md#system-mail); its raw MIME is kept for delivery alone.
  const readable = !message.systemMail;
  return {
    id: message.id,
    organizationId: message.organizationId,
    apiKeyId: message.apiKeyId,
    source: message.source,
    mode: message.mode,
    messageId: message.messageId,
    fromHeader: recordable(message.fromHeader),
    envelopeFrom: message.envelopeFrom,
    to: message.to.map(recordable),
    cc: message.cc.map(recordable),
    bcc: message.bcc,
    replyTo: message.replyTo.map(recordable),
    subject: recordable(message.subject),
    html: message.html === null || !readable ? null : recordable(message.html),
    text: message.text === null || !readable ? null : recordable(message.text),
    tags: message.tags,
    status: message.scheduledAt ? "scheduled" : "queued",
    scheduledAt: message.scheduledAt ? isoTime(message.scheduledAt) : null,
    size: message.raw.length,
    templateId: message.templateId,
    lane: message.lane,
    topicId: message.topicId,
    broadcastId: message.broadcastId,
    contactId: message.contactId,
    systemMail: message.systemMail ?? null,
    createdAt,
    updatedAt: createdAt,
  };
}

export function distinctAddresses(mailboxes: Mailbox[]): string[] {
  const seen = new Map<string, string>();
  for (const m of mailboxes) if (!seen.has(addressKey(m.address))) seen.set(addressKey(m.address), m.address);
  return [...seen.values()];
}

/**
 * The record's copy of a text (the MIME keeps the original bytes): NUL becomes U+FFFD, which both engines store —
 * PostgreSQL text and jsonb cannot hold NUL, and a decoded part may contain one.
 */
export const recordable = (value: string) => (value.includes("\0") ? value.replaceAll("\0", "\uFFFD") : value);

/** The delivery rows of accepted messages: one per recipient, queued (at `scheduledAt` if any) or suppressed. */
export function deliveryRows(messages: PreparedMessage[], now: number, createdAt: string) {
  return messages.flatMap((message) =>
    message.recipients.map((recipient) => {
      const key = addressKey(recipient);
      const suppressed = message.suppressed.has(key) || message.leftTopic.has(key);
      const dsn = message.dsn?.recipients.get(key);
      return {
        id: newId(),
        emailId: message.id,
        organizationId: message.organizationId,
        recipient,
        destination: domainOf(recipient),
        status: suppressed ? "suppressed" : "queued",
        nextAttemptAt: suppressed ? null : (message.scheduledAt ?? now),
        lastResponse: message.suppressed.has(key)
          ? "recipient is on the suppression list"
          : suppressed
            ? "recipient unsubscribed from the message's topic"
            : null,
        createdAt,
        updatedAt: createdAt,
        dsnNotify: dsn?.notify ?? null,
        dsnOrcpt: dsn?.orcpt ?? null,
        lane: message.lane,
      };
    }),
  );
}

/** The first events of accepted messages: each suppressed recipient's, then the message's queued or scheduled. */
export function acceptedEvents(messages: PreparedMessage[]) {
  return messages.flatMap((message) => {
    const base = { organizationId: message.organizationId, emailId: message.id };
    return [
      ...message.recipients.flatMap((recipient) => {
        const key = addressKey(recipient);
        // The suppression list answers first: a bounced address stays suppressed whatever its topic choices.
        const data = message.suppressed.has(key)
          ? { reason: "suppressed" }
          : message.leftTopic.has(key)
            ? { reason: "topic_unsubscribed", topic_id: message.topicId }
            : null;
        return data ? [{ ...base, type: "email.suppressed" as const, recipient, data }] : [];
      }),
      message.scheduledAt
        ? { ...base, type: "email.scheduled" as const, data: { scheduled_at: isoTime(message.scheduledAt) } }
        : { ...base, type: "email.queued" as const },
    ];
  });
}
