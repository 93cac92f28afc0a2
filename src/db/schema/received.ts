import { blob, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

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

/** A local rspamd's verdict on a received message (docs/inbound.md#spam-scoring). */
export interface ReceivedSpam {
  score: number;
  /** rspamd's action: `no action`, `greylist`, `add header`, `rewrite subject`, `soft reject` or `reject`. */
  action: string;
  /** The rules that fired, highest score first. */
  symbols: Array<{ name: string; score: number }>;
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
  /** rspamd's verdict; null when no rspamd is configured or it did not answer in time. */
  spam: text("spam", { mode: "json" }).$type<ReceivedSpam>(),
  /** The inbound route that decided what became of it; null: the default (store). */
  routeId: text("route_id"),
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

/** What an inbound route does with a message it matches (docs/inbound.md#routes). */
export const ROUTE_ACTIONS = ["store", "webhook", "forward", "reject", "drop"] as const;
export type RouteAction = (typeof ROUTE_ACTIONS)[number];

/** An organisation's inbound routes: the first by position whose match fits a recipient decides. */
export const inboundRoutes = sqliteTable("inbound_routes", {
  id: text("id").primaryKey(),
  organizationId: text("organization_id").notNull(),
  position: integer("position").notNull(),
  /** An address, or `*@domain`; null matches every recipient. */
  matchRecipient: text("match_recipient"),
  matchHeaderName: text("match_header_name"),
  matchHeaderContains: text("match_header_contains"),
  action: text("action", { enum: ROUTE_ACTIONS }).notNull(),
  forwardTo: text("forward_to", { mode: "json" }).$type<string[]>().notNull(),
  webhookIds: text("webhook_ids", { mode: "json" }).$type<string[]>().notNull(),
  spamThreshold: real("spam_threshold"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});
