/**
 * Validation of the JSON send body (DESIGN §1). Pure: no store, no framework. Collects every problem with its
 * path, so one 400 tells the caller all that is wrong. Invariant: what passes is safe to compose — no CR/LF in any
 * header, no structural header overridden, every address valid, at most `maxRecipients` distinct recipients.
 */
import { validationError, type ErrorDetail } from "../errors.ts";
import { addressKey, parseMailbox, type Mailbox } from "../lib/addresses.ts";
import type { AttachmentInput, ComposedFields, Tag } from "./model.ts";

export interface ValidationContext {
  now: number;
  maxRecipients: number;
}

/** Every field of the send body; the documented schema (routes.ts) names the same (validate.test.ts). */
export const KNOWN_FIELDS = new Set([
  "from",
  "to",
  "cc",
  "bcc",
  "reply_to",
  "reply-to",
  "subject",
  "html",
  "text",
  "headers",
  "attachments",
  "tags",
  "scheduled_at",
  "tracking",
  "unsubscribe",
]);

/** Headers Mailroom writes itself; a custom header may not replace them (DESIGN §1). */
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

const typeName = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

/** Validates a send body; throws `validation_error` listing every problem. */
export function parseSendRequest(body: unknown, ctx: ValidationContext): ComposedFields {
  const details: ErrorDetail[] = [];
  const problem = (path: string, message: string) => details.push({ path, message });

  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw validationError([{ path: "", message: `the body must be a JSON object, got ${typeName(body)}` }]);
  }
  const input = body as Record<string, unknown>;
  for (const key of Object.keys(input)) if (!KNOWN_FIELDS.has(key)) problem(key, "unknown field");
  if ("reply_to" in input && "reply-to" in input) problem("reply-to", "give reply_to or its alias reply-to, not both");

  const mailbox = (path: string, value: unknown): Mailbox | undefined => {
    if (typeof value !== "string") {
      problem(path, `must be a string, got ${typeName(value)}`);
      return undefined;
    }
    const parsed = parseMailbox(value);
    if ("error" in parsed) {
      problem(path, parsed.error);
      return undefined;
    }
    return parsed;
  };

  const mailboxList = (path: string, value: unknown, required: boolean): Mailbox[] => {
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
  if (typeof input.subject !== "string")
    problem(
      "subject",
      input.subject === undefined ? "is required" : `must be a string, got ${typeName(input.subject)}`,
    );
  else if (!input.subject.trim()) problem("subject", "must not be empty");
  else if (/[\r\n\0]/.test(input.subject)) problem("subject", "must not contain line breaks");
  else if (input.subject.length > MAX_SUBJECT) problem("subject", `must be at most ${MAX_SUBJECT} characters`);
  else subject = input.subject;

  // At least one body: html (text is then generated from it when absent), or text alone (a plain-text message).
  let html: string | null = null;
  let text: string | undefined;
  const hasText = input.text !== undefined && input.text !== null;
  if (input.text !== undefined && input.text !== null) {
    if (typeof input.text !== "string") problem("text", `must be a string, got ${typeName(input.text)}`);
    else text = input.text;
  }
  if (input.html === undefined || input.html === null) {
    if (!hasText) problem("html", "html or text is required");
  } else if (typeof input.html !== "string") problem("html", `must be a string, got ${typeName(input.html)}`);
  else if (!input.html.trim()) problem("html", "must not be empty");
  else html = input.html;
  if (html === null && text !== undefined && !text.trim()) problem("text", "must not be empty");

  const headers: Array<[string, string]> = [];
  let sender: Mailbox | undefined;
  if (input.headers !== undefined && input.headers !== null) {
    if (typeof input.headers !== "object" || Array.isArray(input.headers))
      problem("headers", "must be an object of header name to string value");
    else {
      const entries = Object.entries(input.headers as Record<string, unknown>);
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
        else if (typeof value !== "string") problem(path, `must be a string, got ${typeName(value)}`);
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
  }

  const attachments: AttachmentInput[] = [];
  if (input.attachments !== undefined && input.attachments !== null) {
    if (!Array.isArray(input.attachments)) problem("attachments", "must be an array");
    else {
      if (input.attachments.length > MAX_ATTACHMENTS) problem("attachments", `at most ${MAX_ATTACHMENTS} attachments`);
      input.attachments.forEach((item, i) => {
        const path = `attachments.${i}`;
        if (item === null || typeof item !== "object" || Array.isArray(item))
          return problem(path, "must be an object with filename and content or path");
        const a = item as Record<string, unknown>;
        for (const key of Object.keys(a))
          if (!["filename", "content", "path", "content_type", "content_id"].includes(key))
            problem(`${path}.${key}`, "unknown field");
        const before = details.length;
        if (typeof a.filename !== "string" || !a.filename || a.filename.length > 255 || /[\r\n\0/\\]/.test(a.filename))
          problem(`${path}.filename`, "is required: 1 to 255 characters, no line breaks or slashes");
        // `path` is only checked for form here; whether its host may be fetched is the fetch's own guard's question.
        if (a.path !== undefined) {
          if (a.content !== undefined) problem(path, "give content or path, not both");
          else if (
            typeof a.path !== "string" ||
            a.path.length > MAX_PATH_LENGTH ||
            !/^https?:\/\/[^\s]+$/i.test(a.path) ||
            !URL.canParse(a.path)
          )
            problem(`${path}.path`, `must be an https URL of at most ${MAX_PATH_LENGTH} characters`);
        } else if (typeof a.content !== "string" || !BASE64.test(a.content))
          problem(`${path}.content`, "is required (standard base64 without line breaks), or give path");
        if (a.content_type !== undefined && (typeof a.content_type !== "string" || !CONTENT_TYPE.test(a.content_type)))
          problem(`${path}.content_type`, 'must be a media type such as "application/pdf"');
        if (a.content_id !== undefined && (typeof a.content_id !== "string" || !CONTENT_ID.test(a.content_id)))
          problem(`${path}.content_id`, "must be 1 to 250 characters without spaces, quotes or angle brackets");
        if (details.length > before) return;
        attachments.push({
          filename: a.filename as string,
          ...(typeof a.path === "string"
            ? { content: Buffer.alloc(0), path: a.path }
            : { content: Buffer.from(a.content as string, "base64") }),
          contentType: a.content_type as string | undefined,
          contentId: a.content_id as string | undefined,
        });
      });
    }
  }

  const tags: Tag[] = [];
  if (input.tags !== undefined && input.tags !== null) {
    if (!Array.isArray(input.tags)) problem("tags", "must be an array of {name, value}");
    else {
      if (input.tags.length > MAX_TAGS) problem("tags", `at most ${MAX_TAGS} tags`);
      input.tags.forEach((item, i) => {
        const tag = item as Record<string, unknown> | null;
        if (!tag || typeof tag !== "object" || Array.isArray(tag))
          return problem(`tags.${i}`, "must be an object {name, value}");
        for (const key of Object.keys(tag))
          if (key !== "name" && key !== "value") problem(`tags.${i}.${key}`, "unknown field");
        const ok = (part: "name" | "value") => {
          const value = tag[part];
          if (typeof value === "string" && TAG_PART.test(value)) return true;
          problem(`tags.${i}.${part}`, "must be 1 to 256 characters of A-Z, a-z, 0-9, _ and -");
          return false;
        };
        if ([ok("name"), ok("value")].every(Boolean))
          tags.push({ name: tag.name as string, value: tag.value as string });
      });
    }
  }

  let scheduledAt: number | undefined;
  if (input.scheduled_at !== undefined && input.scheduled_at !== null) {
    const at = parseScheduledAt(input.scheduled_at, ctx.now);
    if ("problem" in at) problem("scheduled_at", at.problem);
    else scheduledAt = at.time;
  }

  let tracking: ComposedFields["tracking"];
  if (input.tracking !== undefined && input.tracking !== null) {
    const given = input.tracking as Record<string, unknown>;
    if (typeof given !== "object" || Array.isArray(given)) problem("tracking", "must be an object {opens?, clicks?}");
    else {
      tracking = {};
      for (const [key, value] of Object.entries(given)) {
        if (key !== "opens" && key !== "clicks") problem(`tracking.${key}`, "unknown field");
        else if (typeof value !== "boolean")
          problem(`tracking.${key}`, `must be true or false, got ${typeName(value)}`);
        else tracking[key] = value;
      }
    }
  }

  let unsubscribe: boolean | undefined;
  if (input.unsubscribe !== undefined && input.unsubscribe !== null) {
    if (typeof input.unsubscribe !== "boolean")
      problem("unsubscribe", `must be true or false, got ${typeName(input.unsubscribe)}`);
    else unsubscribe = input.unsubscribe;
  }
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
  };
}

/** A send time: an ISO 8601 date-time in the future, at most 30 days ahead (ms), or what is wrong with it. */
export function parseScheduledAt(value: unknown, now: number): { time: number } | { problem: string } {
  const parsed = typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(parsed)) return { problem: "must be an ISO 8601 date-time, e.g. 2026-11-22T10:00:00Z" };
  if (parsed <= now) return { problem: "must be in the future" };
  if (parsed > now + MAX_SCHEDULE_AHEAD_MS) return { problem: "must be at most 30 days ahead" };
  return { time: parsed };
}
