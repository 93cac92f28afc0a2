/**
 * The JSON send body (docs/sending.md): its schema, which the API documents and checks shapes with (HTTP and the SMTP
 * relay's templated messages alike), and the rules a schema cannot say. Pure: no store, no framework. Collects every
 * problem with its path, so one 400 tells the caller all that is wrong. Invariant: what passes is safe to compose —
 * no CR/LF in any header, no structural header overridden, every address valid, at most `maxRecipients` distinct
 * recipients.
 */
import { type Static, type TSchema, Type as t } from "@sinclair/typebox";
import { validationError, type ErrorDetail } from "../errors.ts";
import { addressKey, parseMailbox, type Mailbox } from "../lib/addresses.ts";
import { isUuid } from "../lib/ids.ts";
import { checkBody } from "../shape-check.ts";
import { VariableValues } from "../templates/validate.ts";
import type { AttachmentInput, ComposedFields, Tag } from "./model.ts";

export interface ValidationContext {
  now: number;
  maxRecipients: number;
}

/** Optional; null reads as not given (as the hand-written checks before the schema took it). */
const nullable = <S extends TSchema>(schema: S) => t.Optional(t.Union([schema, t.Null()]));
const Addresses = t.Union([t.String(), t.Array(t.String())]);

export const SendEmailSchema = t.Object(
  {
    from: t.Optional(
      t.String({
        description: "`addr` or `Display Name <addr>` on a verified domain; required unless the template gives it",
        examples: ["Acme <hello@example.com>"],
      }),
    ),
    to: Addresses,
    cc: nullable(Addresses),
    bcc: nullable(Addresses),
    reply_to: nullable(Addresses),
    "reply-to": nullable(
      t.Union([t.String(), t.Array(t.String())], { description: "Alias of reply_to, as Resend's API accepts it" }),
    ),
    subject: t.Optional(t.String({ description: "Required unless the template gives it" })),
    html: nullable(t.String({ description: "At least one of html and text (or a template)" })),
    text: nullable(t.String({ description: "Generated from html when absent; alone, a plain-text message" })),
    headers: nullable(t.Record(t.String(), t.String())),
    attachments: nullable(
      t.Array(
        t.Object(
          {
            filename: t.String(),
            content: t.Optional(t.String({ description: "base64; or give path" })),
            path: t.Optional(
              t.String({
                description:
                  "an https URL fetched at acceptance instead of content (public addresses only, at most the message size limit)",
              }),
            ),
            content_type: t.Optional(t.String()),
            content_id: t.Optional(t.String()),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    tags: nullable(t.Array(t.Object({ name: t.String(), value: t.String() }, { additionalProperties: false }))),
    scheduled_at: nullable(t.String({ format: "date-time" })),
    tracking: nullable(
      t.Object(
        { opens: t.Optional(t.Boolean()), clicks: t.Optional(t.Boolean()) },
        { additionalProperties: false, description: "Overrides the sending domain's tracking defaults" },
      ),
    ),
    unsubscribe: nullable(
      t.Boolean({
        description: "One-click unsubscribe headers (RFC 8058) and {{unsubscribe_url}}; one recipient per message",
      }),
    ),
    topic_id: nullable(
      t.String({
        description:
          "The topic the message is sent for: recipients unsubscribed from it are recorded suppressed, and each copy carries one-click unsubscribe headers",
      }),
    ),
    template: t.Optional(
      t.Object(
        {
          id: t.String({ description: "Template id or alias (its published version)" }),
          variables: nullable(VariableValues),
        },
        {
          additionalProperties: false,
          description: "Render a saved template; from, subject, html and text come from it unless given here",
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export type SendEmailBody = Static<typeof SendEmailSchema>;

/** Headers Mailroom writes itself; a custom header may not replace them (docs/sending.md). */
export const STRUCTURAL_HEADERS = new Set([
  "from",
  "to",
  "cc",
  "bcc",
  "subject",
  "date",
  "message-id",
  "mime-version",
  "dkim-signature",
  "return-path",
  "received",
]);

const HEADER_NAME = /^[!-9;-~]{1,76}$/;
const TAG_PART = /^[A-Za-z0-9_-]{1,256}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const CONTENT_TYPE = /^[a-z0-9!#$&^_.+-]{1,127}\/[a-z0-9!#$&^_.+-]{1,127}$/i;
const CONTENT_ID = /^[^\s<>"]{1,250}$/;
const MAX_SCHEDULE_AHEAD_MS = 30 * 24 * 3_600_000;
const MAX_TAGS = 50;
const MAX_HEADERS = 50;
const MAX_ATTACHMENTS = 100;
const MAX_PATH_LENGTH = 2048;
const MAX_SUBJECT = 998;

export function isStructuralHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return STRUCTURAL_HEADERS.has(lower) || lower.startsWith("content-");
}

/** A send body of any shape (the CLI's flags, a fixture) checked whole: the schema, then the rules. */
export const checkSendRequest = (body: unknown, ctx: ValidationContext): Promise<ComposedFields> =>
  checkBody(SendEmailSchema, body, (input) => parseSendRequest(input, ctx));

/** The rules of a send body whose shape the schema has checked; throws `validation_error` listing every problem. */
export function parseSendRequest(input: SendEmailBody, ctx: ValidationContext): ComposedFields {
  const details: ErrorDetail[] = [];
  const problem = (path: string, message: string) => details.push({ path, message });

  if ("reply_to" in input && "reply-to" in input) problem("reply-to", "give reply_to or its alias reply-to, not both");

  const mailbox = (path: string, value: string): Mailbox | undefined => {
    const parsed = parseMailbox(value);
    if ("error" in parsed) {
      problem(path, parsed.error);
      return undefined;
    }
    return parsed;
  };

  const mailboxList = (path: string, value: string | string[] | null | undefined, required: boolean): Mailbox[] => {
    if (value === undefined || value === null) {
      if (required) problem(path, "is required");
      return [];
    }
    const items = Array.isArray(value) ? value : [value];
    if (required && items.length === 0) problem(path, "needs at least one address");
    const out: Mailbox[] = [];
    items.forEach((item, i) => {
      const parsed = mailbox(Array.isArray(value) ? `${path}.${i}` : path, item);
      if (parsed) out.push(parsed);
    });
    return out;
  };

  const from = input.from === undefined ? (problem("from", "is required"), undefined) : mailbox("from", input.from);
  const to = mailboxList("to", input.to, true);
  const cc = mailboxList("cc", input.cc, false);
  const bcc = mailboxList("bcc", input.bcc, false);
  const replyTo = mailboxList("reply_to", input.reply_to ?? input["reply-to"], false);

  const distinct = new Set([...to, ...cc, ...bcc].map((m) => addressKey(m.address)));
  if (distinct.size > ctx.maxRecipients) {
    problem(
      "to",
      `to, cc and bcc together name ${distinct.size} distinct recipients; at most ${ctx.maxRecipients} are allowed`,
    );
  }

  let subject = "";
  if (input.subject === undefined) problem("subject", "is required");
  else if (!input.subject.trim()) problem("subject", "must not be empty");
  else if (/[\r\n\0]/.test(input.subject)) problem("subject", "must not contain line breaks");
  else if (input.subject.length > MAX_SUBJECT) problem("subject", `must be at most ${MAX_SUBJECT} characters`);
  else subject = input.subject;

  // At least one body: html (text is then generated from it when absent), or text alone (a plain-text message).
  let html: string | null = null;
  let text: string | undefined;
  const hasText = input.text !== undefined && input.text !== null;
  if (input.text !== undefined && input.text !== null) text = input.text;
  if (input.html === undefined || input.html === null) {
    if (!hasText) problem("html", "html or text is required");
  } else if (!input.html.trim()) problem("html", "must not be empty");
  else html = input.html;
  if (html === null && text !== undefined && !text.trim()) problem("text", "must not be empty");

  const headers: Array<[string, string]> = [];
  let sender: Mailbox | undefined;
  if (input.headers !== undefined && input.headers !== null) {
    const entries = Object.entries(input.headers);
    if (entries.length > MAX_HEADERS) problem("headers", `at most ${MAX_HEADERS} custom headers`);
    const seen = new Set<string>();
    for (const [name, value] of entries) {
      const path = `headers.${name}`;
      const lower = name.toLowerCase();
      if (!HEADER_NAME.test(name))
        problem(path, "header names are printable ASCII without spaces or colons, at most 76 characters");
      else if (isStructuralHeader(name))
        problem(path, `${name} is set by Mailroom and cannot be given as a custom header`);
      else if (lower === "reply-to") problem(path, "give the reply_to field instead of a Reply-To header");
      else if (seen.has(lower)) problem(path, "given twice (header names are case-insensitive)");
      else if (/[\r\n\0]/.test(value)) problem(path, "must not contain line breaks or NUL");
      else if (value.trim() === "") problem(path, "must not be empty");
      else if (value.length > 998) problem(path, "must be at most 998 characters");
      else if (lower === "sender") {
        // Sender names the mailbox that sent the message (RFC 5322 §3.6.2): it is held to the From rule.
        sender = mailbox(path, value);
      } else headers.push([name, value]);
      seen.add(lower);
    }
  }

  const attachments: AttachmentInput[] = [];
  if (input.attachments !== undefined && input.attachments !== null) {
    if (input.attachments.length > MAX_ATTACHMENTS) problem("attachments", `at most ${MAX_ATTACHMENTS} attachments`);
    input.attachments.forEach((a, i) => {
      const path = `attachments.${i}`;
      const before = details.length;
      if (!a.filename || a.filename.length > 255 || /[\r\n\0/\\]/.test(a.filename))
        problem(`${path}.filename`, "is required: 1 to 255 characters, no line breaks or slashes");
      // `path` is only checked for form here; whether its host may be fetched is the fetch's own guard's question.
      if (a.path !== undefined) {
        if (a.content !== undefined) problem(path, "give content or path, not both");
        else if (a.path.length > MAX_PATH_LENGTH || !/^https?:\/\/[^\s]+$/i.test(a.path) || !URL.canParse(a.path))
          problem(`${path}.path`, `must be an https URL of at most ${MAX_PATH_LENGTH} characters`);
      } else if (a.content === undefined || !BASE64.test(a.content))
        problem(`${path}.content`, "is required (standard base64 without line breaks), or give path");
      if (a.content_type !== undefined && !CONTENT_TYPE.test(a.content_type))
        problem(`${path}.content_type`, 'must be a media type such as "application/pdf"');
      if (a.content_id !== undefined && !CONTENT_ID.test(a.content_id))
        problem(`${path}.content_id`, "must be 1 to 250 characters without spaces, quotes or angle brackets");
      if (details.length > before) return;
      attachments.push({
        filename: a.filename,
        ...(a.path !== undefined
          ? { content: Buffer.alloc(0), path: a.path }
          : { content: Buffer.from(a.content ?? "", "base64") }),
        contentType: a.content_type,
        contentId: a.content_id,
      });
    });
  }

  const tags: Tag[] = [];
  if (input.tags !== undefined && input.tags !== null) {
    if (input.tags.length > MAX_TAGS) problem("tags", `at most ${MAX_TAGS} tags`);
    input.tags.forEach((tag, i) => {
      const ok = (part: "name" | "value") => {
        if (TAG_PART.test(tag[part])) return true;
        problem(`tags.${i}.${part}`, "must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -");
        return false;
      };
      if ([ok("name"), ok("value")].every(Boolean)) tags.push({ name: tag.name, value: tag.value });
    });
  }

  let scheduledAt: number | undefined;
  if (input.scheduled_at !== undefined && input.scheduled_at !== null) {
    const at = parseScheduledAt(input.scheduled_at, ctx.now);
    if ("problem" in at) problem("scheduled_at", at.problem);
    else scheduledAt = at.time;
  }

  const tracking: ComposedFields["tracking"] = input.tracking ?? undefined;
  const unsubscribe = input.unsubscribe ?? undefined;
  if (unsubscribe) {
    // The message is composed once for all its recipients, so its unsubscribe link can name only one of them.
    if (distinct.size > 1)
      problem(
        "unsubscribe",
        "one-click unsubscribe needs a message with exactly one recipient; send one message per recipient (the batch endpoint helps)",
      );
    if (headers.some(([name]) => /^list-unsubscribe(?:-post)?$/i.test(name)))
      problem("headers", "give unsubscribe: true or your own List-Unsubscribe headers, not both");
  }

  const topicId = input.topic_id ?? undefined;
  if (topicId !== undefined) {
    // Whether the topic exists is the intake's question (a store read); its shape is checked here.
    if (!isUuid(topicId)) problem("topic_id", `no topic has the id "${topicId}"`);
    // Each recipient's copy of topic mail carries its own one-click headers (docs/contacts-preferences.md).
    if (unsubscribe)
      problem(
        "unsubscribe",
        "topic mail carries its own one-click unsubscribe; give topic_id or unsubscribe, not both",
      );
    if (headers.some(([name]) => /^list-unsubscribe(?:-post)?$/i.test(name)))
      problem("headers", "topic mail carries its own List-Unsubscribe headers; give topic_id or your own, not both");
  }

  if (details.length || !from) throw validationError(details);
  return {
    from,
    sender,
    to,
    cc,
    bcc,
    replyTo,
    subject,
    html,
    text,
    headers,
    attachments,
    tags,
    scheduledAt,
    tracking,
    unsubscribe,
    ...(topicId !== undefined && { topicId }),
  };
}

/** A send time: an ISO 8601 date-time in the future, at most 30 days ahead (ms), or what is wrong with it. */
export function parseScheduledAt(value: string, now: number): { time: number } | { problem: string } {
  const parsed = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(parsed)) return { problem: "must be an ISO 8601 date-time, e.g. 2026-11-22T10:00:00Z" };
  if (parsed <= now) return { problem: "must be in the future" };
  if (parsed > now + MAX_SCHEDULE_AHEAD_MS) return { problem: "must be at most 30 days ahead" };
  return { time: parsed };
}
