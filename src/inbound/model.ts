/**
 * Types of received mail (docs/inbound.md#reading-received-mail): the stored attachment metadata and authentication
 * results, and the API's answers in Resend's shapes (`emails.receiving.get/list`, `…attachments.get/list`) with
 * Mailroom's additions (`authentication`, `in_reply_to_email_id`, `auto_reply`) — written once, as the schemas that
 * type the mailbox's answers and document the routes (docs/architecture.md#one-contract-per-route).
 */
import { type Static, Type as t } from "@sinclair/typebox";
import type { ReceivedAttachment, ReceivedAuthentication, ReceivedSpam } from "../db/schema/received.ts";
import { AttachmentFields, type AttachmentView } from "../emails/model.ts";
import { named, Nullable, OneOf } from "../lib/wire.ts";

/** A received attachment with its signed link has sent mail's attachment shape (the client's EmailAttachment). */
export type { AttachmentView, ReceivedAttachment, ReceivedAuthentication };

/** `out_of_office` and similar RFC 3834 replies, or a challenge-response system asking the sender to confirm. */
export const AUTO_REPLY_KINDS = ["auto_reply", "challenge_response"] as const;
export type AutoReplyKind = (typeof AUTO_REPLY_KINDS)[number];

/** An attachment as a received message lists it (its bytes at …/attachments/:id/content). */
export const ReceivedAttachmentSchema = named("ReceivedAttachment", AttachmentFields);

/** What mailauth found, reduced to what a reader acts on; `header` is the Authentication-Results line as written. */
export const ReceivedEmailAuthenticationSchema = named(
  "ReceivedEmailAuthentication",
  t.Object({
    spf: Nullable(t.Object({ result: t.String(), domain: Nullable(t.String()) })),
    dkim: t.Array(
      t.Object({
        result: t.String(),
        domain: Nullable(t.String()),
        selector: Nullable(t.String()),
        aligned: t.Boolean(),
      }),
    ),
    dmarc: Nullable(t.Object({ result: t.String(), policy: Nullable(t.String()), domain: Nullable(t.String()) })),
    arc: Nullable(t.Object({ result: t.String() })),
    header: t.String(),
  }),
);

/** A local rspamd's verdict (docs/inbound.md#spam-scoring). */
export const ReceivedEmailSpamSchema = named(
  "ReceivedEmailSpam",
  t.Object({
    score: t.Number(),
    action: t.String({
      description: "rspamd's action: no action, greylist, add header, rewrite subject, soft reject, reject",
    }),
    symbols: t.Array(t.Object({ name: t.String(), score: t.Number() }), {
      description: "The rules that fired, highest first",
    }),
  }),
);

export const ReceivedEmailSummarySchema = named(
  "ReceivedEmailSummary",
  t.Object({
    id: t.String({ format: "uuid" }),
    to: t.Array(t.String()),
    from: t.String(),
    created_at: t.String({ format: "date-time" }),
    subject: t.String(),
    bcc: Nullable(t.Array(t.String())),
    cc: Nullable(t.Array(t.String())),
    reply_to: Nullable(t.Array(t.String())),
    received_for: t.Array(t.String(), { description: "The envelope recipients of this organisation (RCPT TO)" }),
    message_id: Nullable(t.String()),
    attachments: t.Array(ReceivedAttachmentSchema),
    in_reply_to_email_id: Nullable(t.String(), {
      description: "The sent email this one answers (In-Reply-To / References)",
    }),
    auto_reply: Nullable(OneOf(AUTO_REPLY_KINDS)),
    // In the list too, so a reader sees which mail failed SPF, DKIM or DMARC without opening each message.
    authentication: ReceivedEmailAuthenticationSchema,
    spam: Nullable(ReceivedEmailSpamSchema, {
      description: "rspamd's verdict; null when none is configured or it did not answer in time",
    }),
    route_id: Nullable(t.String(), { description: "The inbound route that decided; null: none matched (stored)" }),
  }),
);
export type ReceivedEmailSummary = Static<typeof ReceivedEmailSummarySchema>;

export const ReceivedEmailSchema = named(
  "ReceivedEmail",
  t.Composite([
    t.Object({ object: t.Literal("email") }),
    ReceivedEmailSummarySchema,
    t.Object({
      html: Nullable(t.String({ description: "Inline images as data: URIs, or cid: references (html_format)" })),
      text: Nullable(t.String()),
      headers: t.Record(t.String(), t.String()),
      raw: t.Object(
        {
          download_url: t.String({ description: "The message as it arrived; valid for an hour without an API key" }),
          expires_at: t.String({ format: "date-time" }),
        },
        { description: "The raw message's signed link" },
      ),
    }),
  ]),
);
export type ReceivedEmailView = Static<typeof ReceivedEmailSchema>;

/** The `email.received` payload: Resend's received-email data, with Mailroom's link to the answered message. */
export function receivedEventData(row: {
  id: string;
  createdAt: string;
  fromHeader: string;
  to: string[];
  cc: string[];
  bcc: string[];
  receivedFor: string[];
  messageId: string | null;
  subject: string;
  attachments: Array<{
    id: string;
    filename: string | null;
    content_type: string;
    content_disposition: string;
    content_id: string | null;
  }>;
  inReplyToEmailId: string | null;
  autoReply: string | null;
  spam?: ReceivedSpam | null;
  routeId?: string | null;
}) {
  return {
    email_id: row.id,
    created_at: row.createdAt,
    from: row.fromHeader,
    to: row.to,
    bcc: row.bcc,
    cc: row.cc,
    received_for: row.receivedFor,
    message_id: row.messageId,
    subject: row.subject,
    attachments: row.attachments.map(({ id, filename, content_type, content_disposition, content_id }) => ({
      id,
      filename,
      content_type,
      content_disposition,
      content_id,
    })),
    in_reply_to_email_id: row.inReplyToEmailId,
    auto_reply: row.autoReply,
    spam: row.spam ?? null,
    route_id: row.routeId ?? null,
  };
}
