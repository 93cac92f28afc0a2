/**
 * Messages: the validated input every front end builds, the statuses, and the wire of sent mail
 * (docs/sending.md#the-look-up-record) — the record, its list entry, its attachments and the answers to a send, a
 * batch, a reschedule and a cancel — written once, as the schemas that type the services' answers and document the
 * routes (docs/architecture.md#one-contract-per-route).
 */
import { type Static, Type as t } from "@sinclair/typebox";
import type { Tag } from "../db/schema/emails.ts";
import { RECIPIENT_STATUSES, type Lane } from "../deliveries/model.ts";
import type { Mailbox } from "../lib/addresses.ts";
import { named, Nullable, OneOf } from "../lib/wire.ts";
import type { RelayDsnParams } from "./relay-dsn.ts";

export type { Tag };

export const EMAIL_STATUSES = [
  "scheduled",
  "queued",
  // Accepted while a pause applies (docs/operations.md#pauses): email.held is its last event until resumed.
  "held",
  "sent",
  "delivered",
  "delivery_delayed",
  "bounced",
  "complained",
  "opened",
  "clicked",
  "unsubscribed",
  "failed",
  "suppressed",
  "canceled",
] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** How a message came in: the HTTP API, the SMTP relay, the command line, or an inbound route forwarding mail. */
export const EMAIL_SOURCES = ["api", "smtp", "cli", "forward"] as const;
export type EmailSource = (typeof EMAIL_SOURCES)[number];

export interface AttachmentInput {
  filename: string;
  /** Empty while `path` is set: the service fills it from the URL before the message is composed. */
  content: Buffer;
  /** An http(s) URL given instead of `content`, fetched at acceptance (remote-attachments.ts); never composed. */
  path?: string;
  contentType?: string;
  /** Makes the attachment inline, referenced from html as `cid:<contentId>`. */
  contentId?: string;
}

/** A message built from JSON fields (HTTP API, CLI), validated and normalised. */
export interface ComposedFields {
  from: Mailbox;
  /** A `Sender` header given among the custom headers; its domain must pass the same check as From's. */
  sender?: Mailbox;
  to: Mailbox[];
  cc: Mailbox[];
  bcc: Mailbox[];
  replyTo: Mailbox[];
  subject: string;
  /** Null for a plain-text message. */
  html: string | null;
  text?: string;
  headers: Array<[name: string, value: string]>;
  attachments: AttachmentInput[];
  tags: Tag[];
  /** Epoch ms; absent for immediate sending. */
  scheduledAt?: number;
  /** Per-message override of the sending domain's open/click tracking defaults. */
  tracking?: { opens?: boolean; clicks?: boolean };
  /** Adds RFC 8058 one-click unsubscribe headers and fills `{{unsubscribe_url}}`; needs exactly one recipient. */
  unsubscribe?: boolean;
  /** The saved template the fields were rendered from (docs/sending.md `template`). */
  templateId?: string;
  /**
   * The topic the message is sent for (docs/contacts-preferences.md#sending-with-a-topic): who left it is recorded
   * suppressed, and each recipient's copy carries one-click unsubscribe headers.
   */
  topicId?: string;
}

/**
 * A message as the SMTP relay received it: the bytes after DATA and the SMTP envelope. The bytes are kept as sent
 * (only Bcc, Idempotency-Key, a missing Message-ID and Date are touched); the envelope names the recipients.
 */
export interface RawInput {
  kind: "raw";
  source: "smtp";
  raw: Buffer;
  /** MAIL FROM and RCPT TO. MAIL FROM is informational: the return path is always Mailroom's own. */
  envelope: { from: string; to: string[] };
  /** The delivery status notifications the client asked for (RFC 3461; relay-dsn.ts decides what is sent). */
  dsn?: RelayDsnParams;
}

/**
 * A received message an inbound route forwards (docs/inbound.md#forwarding): its bytes as they will leave (the ARC set
 * and a Received field prepended, nothing else changed), the envelope it leaves with (an SRS sender, or empty for a
 * bounce returned to its sender) and the fields its record shows, read when it was received. Its From is someone
 * else's: no sending policy applies to it, only the recipient rules, the size limit and the quotas.
 */
export interface ForwardInput {
  kind: "forward";
  source: "forward";
  raw: Buffer;
  envelope: { from: string; to: string[] };
  fields: {
    messageId: string | null;
    fromHeader: string;
    to: string[];
    cc: string[];
    replyTo: string[];
    subject: string;
    html: string | null;
    text: string | null;
  };
}

/** What every front end hands to `emails.submit`. */
export type SubmitInput =
  | {
      kind: "fields";
      source: EmailSource;
      fields: ComposedFields;
      /** Set by a broadcast's fan-out alone; no front end sets it (docs/operations.md#sending-lanes). */
      lane?: Lane;
      /**
       * The broadcast and contact a fan-out made the message for (docs/broadcasts.md#exactly-once): written on the
       * message's own row, unique together, so a contact never gets a broadcast twice. Set by the fan-out alone.
       */
      broadcast?: { id: string; contactId: string };
    }
  | RawInput
  | ForwardInput;

export const EmailStatusSchema = named("EmailStatus", OneOf(EMAIL_STATUSES, { description: "The last event" }));
export const RecipientStatusSchema = named("RecipientStatus", OneOf(RECIPIENT_STATUSES));
export const TagSchema = named("Tag", t.Object({ name: t.String(), value: t.String() }));

export const EmailRecipientSchema = named(
  "EmailRecipient",
  t.Object({
    email: t.String(),
    status: RecipientStatusSchema,
    attempts: t.Integer(),
    last_response: Nullable(t.String(), { description: "The receiving server's last reply" }),
    provider: Nullable(t.String(), { description: "The provider of the last attempt (its name in the config)" }),
    provider_message_id: Nullable(t.String(), { description: "The id that provider gave the message" }),
    updated_at: t.String({ format: "date-time" }),
  }),
);
export type RecipientView = Static<typeof EmailRecipientSchema>;

export const EmailEventSchema = named(
  "EmailEvent",
  t.Object({
    type: t.String({ description: "email.queued, email.delivered, …" }),
    created_at: t.String({ format: "date-time" }),
    recipient: Nullable(t.String()),
    data: t.Record(t.String(), t.Unknown()),
  }),
);
export type EventView = Static<typeof EmailEventSchema>;

/** An email as a list shows it (Resend's list entry, with Mailroom's source, tags and template). */
export const EmailSummarySchema = named(
  "EmailSummary",
  t.Object({
    object: t.Literal("email"),
    id: t.String({ format: "uuid" }),
    message_id: t.String(),
    source: OneOf(EMAIL_SOURCES),
    from: t.String(),
    to: t.Array(t.String()),
    cc: t.Array(t.String()),
    bcc: t.Array(t.String()),
    reply_to: t.Array(t.String()),
    subject: t.String(),
    tags: t.Array(TagSchema),
    status: EmailStatusSchema,
    last_event: EmailStatusSchema,
    created_at: t.String({ format: "date-time" }),
    scheduled_at: Nullable(t.String({ format: "date-time" })),
    template_id: Nullable(t.String()),
    topic_id: Nullable(t.String(), { description: "The topic it was sent for (docs/contacts-preferences.md)" }),
    broadcast_id: Nullable(t.String(), { description: "The broadcast it was sent for (docs/broadcasts.md)" }),
    mode: OneOf(["live", "test"] as const, {
      description:
        "test: sent with a test key, into the sandbox (docs/keys-and-limits.md#test-keys-are-a-sandbox); live otherwise",
    }),
  }),
);
export type EmailSummary = Static<typeof EmailSummarySchema>;

/** The look-up record: the message, each recipient's state and the event history. */
export const EmailSchema = named(
  "Email",
  t.Composite([
    EmailSummarySchema,
    t.Object({
      // A viewer reads the record without its content (docs/sending.md#the-look-up-record): null, the fields kept.
      html: Nullable(t.String()),
      text: Nullable(t.String()),
      content_removed_at: Nullable(t.String({ format: "date-time" }), {
        description: "When retention removed the raw message, bodies and attachments; null while they are kept",
      }),
      recipients: t.Array(EmailRecipientSchema),
      events: t.Array(EmailEventSchema),
    }),
  ]),
);
export type EmailRecord = Static<typeof EmailSchema>;

/** What the API shows of an attachment, sent or received (lib/attachment-parts.ts describes it). */
export const AttachmentFields = t.Object({
  id: t.String({ format: "uuid" }),
  filename: Nullable(t.String()),
  content_type: t.String(),
  content_disposition: OneOf(["inline", "attachment"]),
  content_id: Nullable(t.String({ description: "Without angle brackets: what html refers to as cid:" })),
  size: t.Integer({ description: "Bytes" }),
});

/** An attachment with its signed download link; `object` in the answer for one, not in a list's entries. */
export const EmailAttachmentSchema = named(
  "EmailAttachment",
  t.Composite([
    t.Object({ object: t.Optional(t.Literal("attachment")) }),
    AttachmentFields,
    t.Object({
      download_url: t.String({ description: "Valid for an hour without an API key" }),
      expires_at: t.String({ format: "date-time" }),
    }),
  ]),
);
export type AttachmentView = Static<typeof EmailAttachmentSchema>;

export const SENT_MESSAGE = "Email sent.";

export const CreateEmailResponseSchema = named(
  "CreateEmailResponse",
  t.Object({ id: t.String({ format: "uuid" }), message: t.Literal(SENT_MESSAGE) }),
);
export type SentAnswer = Static<typeof CreateEmailResponseSchema>;

export const CreateBatchResponseSchema = named(
  "CreateBatchResponse",
  t.Object({
    data: t.Array(t.Object({ id: t.String({ format: "uuid" }) }), { description: "The messages sent, in order" }),
    errors: t.Optional(
      t.Array(t.Object({ index: t.Integer(), message: t.String() }), {
        description: "Permissive batches: the messages refused, by their index",
      }),
    ),
  }),
);
export type BatchAnswer = Static<typeof CreateBatchResponseSchema>;

export const UpdateEmailResponseSchema = named(
  "UpdateEmailResponse",
  t.Object({ object: t.Literal("email"), id: t.String({ format: "uuid" }) }),
);

export const CancelEmailResponseSchema = named(
  "CancelEmailResponse",
  t.Object({ object: t.Literal("email"), id: t.String({ format: "uuid" }), status: t.Literal("canceled") }),
);

/** A page of the message list: the cursor and the filters (docs/sending.md). */
export interface ListOptions {
  limit: number;
  after?: string;
  before?: string;
  status?: string;
  to?: string;
  from?: string;
  tag?: string;
}

/**
 * Mail Mailroom sends for itself about people's accounts (system-mail.ts, docs/teams.md#system-mail): a password
 * link, an invitation, or a notice (a locked sign-in). Recorded in `emails.system_mail` by the funnel alone
 * (`SubmitOptions.system`): no body, header or SMTP command can set it. Such a message keeps no readable copy, its
 * raw MIME answers 410, and it is left out of the organisation's lists, counts and webhooks.
 */
export const SYSTEM_MAIL_KINDS = ["password_link", "invitation", "notice"] as const;
export type SystemMailKind = (typeof SYSTEM_MAIL_KINDS)[number];
