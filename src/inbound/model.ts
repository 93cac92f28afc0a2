/**
 * Types of received mail (DESIGN §8): the stored attachment metadata and authentication results, and the API's
 * views in Resend's shapes (`emails.receiving.get/list`, `…attachments.get/list`) with Mailroom's additions
 * (`authentication`, `in_reply_to_email_id`, `auto_reply`).
 */
import type { ReceivedAttachment, ReceivedAuthentication } from "../db/schema/received.ts";

export type { ReceivedAttachment, ReceivedAuthentication };

/** `out_of_office` and similar RFC 3834 replies, or a challenge-response system asking the sender to confirm. */
export type AutoReplyKind = "auto_reply" | "challenge_response";

export interface ReceivedEmailSummary {
  id: string;
  to: string[];
  from: string;
  created_at: string;
  subject: string;
  bcc: string[] | null;
  cc: string[] | null;
  reply_to: string[] | null;
  received_for: string[];
  message_id: string | null;
  attachments: Array<Omit<ReceivedAttachment, "index">>;
  in_reply_to_email_id: string | null;
  auto_reply: AutoReplyKind | null;
  /** In the list too, so a reader sees which mail failed SPF, DKIM or DMARC without opening each message. */
  authentication: ReceivedAuthentication;
}

export interface ReceivedEmailView extends ReceivedEmailSummary {
  object: "email";
  html: string | null;
  text: string | null;
  headers: Record<string, string>;
  raw: { download_url: string; expires_at: string };
}

export interface AttachmentView extends Omit<ReceivedAttachment, "index"> {
  download_url: string;
  expires_at: string;
}

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
  };
}
