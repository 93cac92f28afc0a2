/** Messages: the validated input every front end builds, the statuses, and the public look-up record. */
import type { Tag } from "../db/schema/emails.ts";
import type { RecipientStatus } from "../deliveries/model.ts";
import type { Mailbox } from "../lib/addresses.ts";

export type { Tag };

export const EMAIL_STATUSES = [
  "scheduled",
  "queued",
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

export type EmailSource = "api" | "smtp" | "cli";

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
  /** The saved template the fields were rendered from (DESIGN §1 `template`). */
  templateId?: string;
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
}

/** What every front end hands to `emails.submit`. */
export type SubmitInput = { kind: "fields"; source: EmailSource; fields: ComposedFields } | RawInput;

export interface RecipientView {
  email: string;
  status: RecipientStatus;
  attempts: number;
  last_response: string | null;
  /** The provider of the last attempt (its name in config), and the id it gave the message (SES's message id). */
  provider: string | null;
  provider_message_id: string | null;
  updated_at: string;
}

export interface EventView {
  type: string;
  created_at: string;
  recipient: string | null;
  data: Record<string, unknown>;
}

export interface EmailSummary {
  object: "email";
  id: string;
  message_id: string;
  source: EmailSource;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  reply_to: string[];
  subject: string;
  tags: Tag[];
  status: EmailStatus;
  last_event: EmailStatus;
  created_at: string;
  scheduled_at: string | null;
  template_id: string | null;
}

export interface EmailRecord extends EmailSummary {
  html: string | null;
  text: string | null;
  /** When retention removed the raw message, bodies and attachments (DESIGN §12); null while they are kept. */
  content_removed_at: string | null;
  recipients: RecipientView[];
  events: EventView[];
}

/** A page of the message list: the cursor and the filters (DESIGN §1). */
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
 * Marks a message whose content no reader sees (a password link or an invitation, system-mail.ts): its record keeps
 * no html or text and its raw MIME answers 410. The colon keeps clients from giving it: their tags are
 * [A-Za-z0-9_-]. The value says which kind of link it carries.
 */
export const PRIVATE_CONTENT_TAG: Tag = { name: "mailroom:private", value: "password_link" };

export const hasPrivateContent = (tags: readonly Tag[]) => tags.some((tag) => tag.name === PRIVATE_CONTENT_TAG.name);
