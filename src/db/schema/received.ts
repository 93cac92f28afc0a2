import { blob, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The stored shapes of a received message's JSON columns; the inbound area re-exports them. */
export interface ReceivedAttachment {
  id: string;
  /** Position among the parser's attachments: how the content is found again in the raw message. */
  index: number;
  filename: string | null;
  content_type: string;
  content_disposition: "inline" | "attachment";
  content_id: string | null;
  size: number;
}

/** What mailauth found, reduced to what a user acts on; `header` is the Authentication-Results line as written. */
export interface ReceivedAuthentication {
  spf: { result: string; domain: string | null } | null;
  dkim: Array<{ result: string; domain: string | null; selector: string | null; aligned: boolean }>;
  dmarc: { result: string; policy: string | null; domain: string | null } | null;
  arc: { result: string } | null;
  header: string;
}

/** A message the inbound MX accepted for a receiving domain (or an automatic reply to a return path). */
export const receivedEmails = sqliteTable("received_emails", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  /** The sent message this one answers (In-Reply-To, References, or the return path it came back to). */
  inReplyToEmailId: text("in_reply_to_email_id"),
  messageId: text("message_id"),
  envelopeFrom: text("envelope_from").notNull(),
  /** The envelope recipients of this organisation (RCPT TO), as Resend's `received_for`. */
  receivedFor: text("received_for", { mode: "json" }).$type<string[]>().notNull(),
  fromHeader: text("from_header").notNull(),
  to: text("to_addresses", { mode: "json" }).$type<string[]>().notNull(),
  cc: text("cc_addresses", { mode: "json" }).$type<string[]>().notNull(),
  bcc: text("bcc_addresses", { mode: "json" }).$type<string[]>().notNull(),
  replyTo: text("reply_to", { mode: "json" }).$type<string[]>().notNull(),
  subject: text("subject").notNull(),
  html: text("html"),
  text: text("text"),
  headers: text("headers", { mode: "json" }).$type<Record<string, string>>().notNull(),
  attachments: text("attachments", { mode: "json" }).$type<ReceivedAttachment[]>().notNull(),
  authentication: text("authentication", { mode: "json" }).$type<ReceivedAuthentication>().notNull(),
  /** RFC 3834 automatic reply (`out_of_office`, `challenge_response`, `auto_replied`), else null. */
  autoReply: text("auto_reply"),
  clientAddress: text("client_address").notNull(),
  size: integer("size").notNull(),
  createdAt: text("created_at").notNull(),
});

/** The message as received, byte for byte: read by `/raw` and to serve attachments. */
export const receivedContents = sqliteTable("received_contents", {
  receivedEmailId: text("received_email_id").primaryKey(),
  raw: blob("raw", { mode: "buffer" }).notNull(),
});

/** Raw bytes of each organisation's received mail, kept as it changes: what `[inbound] max_stored_bytes` limits. */
export const inboundUsage = sqliteTable("inbound_usage", {
  organizationId: text("organization_id").primaryKey(),
  storedBytes: integer("stored_bytes").notNull(),
});
