/**
 * Messages that arrive as MIME (the SMTP relay): reading them for the record and the sending policy, and the few
 * header changes a submission server makes (RFC 6409 §8). Invariant: the bytes are kept as sent — the body is
 * never touched, header fields other than Bcc and Idempotency-Key are copied byte for byte (folding, encodings,
 * 8-bit text included), and only a missing Message-ID and Date are added.
 */
import type { AddressObject, EmailAddress, ParsedMail } from "mailparser";
import { validationError } from "../errors.ts";
import { addressKey, normalizeAddress, type Mailbox } from "../lib/addresses.ts";
import { blankLineAfter } from "../lib/header-end.ts";
import { isUuid } from "../lib/ids.ts";

/** Header fields removed before a message is stored: Bcc must not reach recipients (RFC 5322 §3.6.3), the
 * Idempotency-Key and X-Mailroom-Topic are instructions to Mailroom, not part of the message. */
const REMOVED_FIELDS = new Set(["bcc", "idempotency-key", "x-mailroom-topic"]);

interface HeaderField {
  /** Lower-case field name; empty for a line that is not a field (kept as is). */
  name: string;
  /** The field as received: name, colon, value and folded continuation lines, with their line endings. */
  text: string;
}

interface SplitMessage {
  fields: HeaderField[];
  /** Everything from the blank line that ends the header on (empty when the message has no body). */
  rest: Buffer;
  eol: string;
}

/**
 * Splits the header block into fields (RFC 5322 §2.2: a line starting with a space or tab continues the field
 * above). Works on latin1 text, which maps every byte to one character and back, so nothing is re-encoded.
 */
function splitMessage(raw: Buffer): SplitMessage {
  const blank = blankLineAfter(raw);
  let headerEnd: number;
  // A message that starts with a blank line (or is a lone CR) has an empty header.
  if (raw[0] === 0x0a || (raw[0] === 0x0d && (raw[1] === 0x0a || raw.length === 1))) headerEnd = 0;
  else if (blank >= 0) headerEnd = blank;
  // A last line of a lone CR is the blank line that ends the header, cut before its LF.
  else if (raw.length >= 2 && raw[raw.length - 1] === 0x0d && raw[raw.length - 2] === 0x0a) headerEnd = raw.length - 1;
  else headerEnd = raw.length;
  const header = raw.subarray(0, headerEnd).toString("latin1");
  const eol = header.includes("\r\n") || (headerEnd === 0 && raw[0] === 0x0d) ? "\r\n" : "\n";
  const fields: HeaderField[] = [];
  for (const line of header.split(/(?<=\n)/)) {
    if (line === "") continue; // an empty header block splits into one empty string
    const last = fields.at(-1);
    if (last && (line[0] === " " || line[0] === "\t")) last.text += line;
    else {
      const colon = line.indexOf(":");
      fields.push({ name: colon > 0 ? line.slice(0, colon).trim().toLowerCase() : "", text: line });
    }
  }
  return { fields, rest: raw.subarray(headerEnd), eol };
}

/** The unfolded value of a field (RFC 5322 §2.2.3), without surrounding whitespace. */
function fieldValue(field: HeaderField): string {
  return field.text
    .slice(field.text.indexOf(":") + 1)
    .replace(/\r?\n(?=[ \t])/g, "")
    .trim();
}

/** RFC 5321 §4.5.3.1.6: a text line is at most 1000 octets with its CRLF. */
const MAX_LINE_OCTETS = 998;

/**
 * Refuses bytes that no SMTP hop downstream may carry: NUL (RFC 5322 §2.3 / RFC 5321 §4.5.2 transparency does not
 * cover it), header lines whose ends readers disagree on (see assertUnambiguousHeader) and lines over the RFC 5321
 * limit, which a smarthost would refuse or break — better refused at submission, where the client still learns why.
 */
export function assertTransmittable(raw: Buffer): void {
  const nul = raw.indexOf(0);
  if (nul >= 0) {
    throw validationError(
      [{ path: "message", message: `NUL byte at offset ${nul}` }],
      "The message contains a NUL byte, which mail cannot carry.",
    );
  }
  assertUnambiguousHeader(raw);
  for (let start = 0, line = 1; start < raw.length; line++) {
    const newline = raw.indexOf(0x0a, start);
    const end = newline < 0 ? raw.length : newline;
    const length = end - start - (end > start && raw[end - 1] === 0x0d ? 1 : 0);
    if (length > MAX_LINE_OCTETS) {
      throw validationError(
        [{ path: "message", message: `line ${line} is ${length} octets` }],
        `Line ${line} of the message is ${length} octets long; SMTP allows ${MAX_LINE_OCTETS} plus CRLF (RFC 5321 section 4.5.3.1.6).`,
      );
    }
    start = end + 1;
  }
}

/** RFC 5322 §3.6.8 field name (printable ASCII but the colon), short enough to quote in a reply. */
const QUOTABLE_FIELD_NAME = /^[\x21-\x39\x3b-\x7e]{1,76}$/;

/** How a reply names a header line: its number and what it is, never the bytes a client sent when they are odd. */
function headerLineName(line: number, field: string | null, blank: boolean): string {
  return `line ${line} (${blank ? "the blank line that ends the header" : field === null ? "not a header field" : `the ${field} field`})`;
}

/**
 * Refuses a header that mail software can split into lines in more than one way: a CR that does not begin a CRLF
 * anywhere in the header, or a line ending in a bare LF among header lines ending in CRLF (RFC 5322 §2.2: CR and
 * LF occur only together, as CRLF). mailparser reads `From: a@x.test<CR>From: Boss <ceo@bank.test>` as one field
 * while other readers break the line at the CR and show a second author the From check never saw. A header whose
 * every line (the blank line that ends it included) ends in a bare LF is read alike by every parser, which splits
 * on LF, and is accepted, as it always was: some clients and scripts submit LF-only messages, and the hops after
 * Mailroom (nodemailer's SMTP transport first) write those LFs as CRLF. The body is not checked: it is MIME
 * content, never read for the From/Sender rules. Linear in the header's size.
 */
export function assertUnambiguousHeader(raw: Buffer): void {
  let firstBareLf: string | undefined;
  let crlfSeen = false;
  let field: string | null = null;
  for (let start = 0, line = 1; start < raw.length; line++) {
    const newline = raw.indexOf(0x0a, start);
    const end = newline < 0 ? raw.length : newline;
    const endsInCrlf = newline >= 0 && end > start && raw[end - 1] === 0x0d;
    const content = raw.subarray(start, endsInCrlf ? end - 1 : end);
    if (content[0] !== 0x20 && content[0] !== 0x09) {
      const colon = content.indexOf(0x3a);
      const name = colon > 0 ? content.subarray(0, colon).toString("latin1").trim() : "";
      field = QUOTABLE_FIELD_NAME.test(name) ? name : null;
    }
    if (content.includes(0x0d)) {
      const where = headerLineName(line, field, false);
      throw validationError(
        [{ path: "message", message: `${where} holds a bare CR` }],
        `Header ${where} holds a CR that does not end the line; header lines end in CRLF and hold no bare CR (RFC 5322 section 2.2).`,
      );
    }
    if (endsInCrlf) crlfSeen = true;
    else if (newline >= 0) firstBareLf ??= headerLineName(line, field, content.length === 0);
    if (content.length === 0) break; // the blank line that ends the header
    start = end + 1;
  }
  if (crlfSeen && firstBareLf !== undefined) {
    throw validationError(
      [{ path: "message", message: `${firstBareLf} ends in a bare LF` }],
      `Header ${firstBareLf} ends in a bare LF while other header lines end in CRLF; a header's lines all end alike, in CRLF (RFC 5322 section 2.2).`,
    );
  }
}

/** The first value of a header field, or undefined. */
export function readHeader(raw: Buffer, name: string): string | undefined {
  const field = splitMessage(raw).fields.find((f) => f.name === name.toLowerCase());
  return field && fieldValue(field);
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * The topic a relayed message is sent for (`X-Mailroom-Topic: <id>`, docs/contacts-preferences.md), or undefined.
 * Named at most once, and never beside the client's own List-Unsubscribe: each recipient's copy of topic mail gets
 * Mailroom's own one-click headers.
 */
export function relayTopic(raw: Buffer): string | undefined {
  const fields = splitMessage(raw).fields;
  const named = fields.filter((field) => field.name === "x-mailroom-topic");
  if (named.length === 0) return undefined;
  const topicId = fieldValue(named[0]!);
  const problems: Array<{ path: string; message: string }> = [];
  if (named.length > 1) problems.push({ path: "X-Mailroom-Topic", message: "must appear at most once" });
  else if (!isUuid(topicId)) problems.push({ path: "X-Mailroom-Topic", message: `no topic has the id "${topicId}"` });
  if (fields.some((field) => field.name === "list-unsubscribe" || field.name === "list-unsubscribe-post"))
    problems.push({
      path: "List-Unsubscribe",
      message: "topic mail carries its own List-Unsubscribe headers; give X-Mailroom-Topic or your own, not both",
    });
  if (problems.length) throw validationError(problems);
  return topicId;
}

/** RFC 5322 §3.3 date-time in UTC, e.g. `Sun, 22 Nov 2026 10:00:00 +0000` (never the obsolete "GMT"). */
export function formatRfc5322Date(date: Date): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${DAYS[date.getUTCDay()]}, ${two(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`;
}

export interface FinalizedMessage {
  raw: Buffer;
  /** The Message-ID as it stands in the message, angle brackets included. */
  messageId: string;
}

/**
 * Makes the submission ready to store: removes Bcc and Idempotency-Key fields (with their continuation lines),
 * adds `Message-ID: <newMessageId>` and `Date` when absent (RFC 6409 §8.2, §8.3). Everything else stays byte-identical.
 */
export function finalizeRawMessage(raw: Buffer, added: { messageId: string; date: Date }): FinalizedMessage {
  const { fields, rest, eol } = splitMessage(raw);
  const kept = fields.filter((field) => !REMOVED_FIELDS.has(field.name));
  const existingId = kept.find((field) => field.name === "message-id");
  const messageId = existingId ? fieldValue(existingId) : added.messageId;
  const additions: string[] = [];
  if (!existingId) additions.push(`Message-ID: ${messageId}${eol}`);
  if (!kept.some((field) => field.name === "date")) additions.push(`Date: ${formatRfc5322Date(added.date)}${eol}`);
  const last = kept.at(-1);
  // A header without a final line break (a message of headers only) gets one before the added fields.
  if (additions.length && last && !last.text.endsWith("\n")) last.text += last.text.endsWith("\r") ? "\n" : eol;
  const header = Buffer.from([...kept.map((field) => field.text), ...additions].join(""), "latin1");
  // A message read into shared memory stays there: the threads that parse and store it read it without a copy.
  const out =
    raw.buffer instanceof SharedArrayBuffer
      ? Buffer.from(new SharedArrayBuffer(header.length + rest.length))
      : Buffer.allocUnsafe(header.length + rest.length);
  header.copy(out, 0);
  rest.copy(out, header.length);
  return { raw: out, messageId };
}

/** What the record and the sending policy need to know about a MIME message. */
export interface RawMessageView {
  from: Mailbox[];
  /** How many From header fields the message has: RFC 5322 §3.6 allows exactly one. */
  fromFields: number;
  /** The Sender header's mailboxes (RFC 5322 §3.6.2), held to the same domain rule as From. */
  sender: Mailbox[];
  /** How many Sender header fields the message has: at most one (RFC 5322 §3.6). */
  senderFields: number;
  to: Mailbox[];
  cc: Mailbox[];
  replyTo: Mailbox[];
  subject: string;
  html: string | null;
  text: string | null;
  attachments: Array<{ filename: string | null; contentType: string; checksum: string }>;
}

/** Flattens parsed address headers (groups included) into mailboxes; addresses that do not validate are kept as
 * written so the record still shows them, but never become envelope recipients. */
export function mailboxes(header: AddressObject | AddressObject[] | undefined): Mailbox[] {
  const entries: EmailAddress[] = [];
  const visit = (list: EmailAddress[]) =>
    list.forEach((entry) => (entry.group ? visit(entry.group) : entries.push(entry)));
  for (const object of header ? [header].flat() : []) visit(object.value);
  return entries.map((entry) => {
    const normalized = normalizeAddress(entry.address ?? "");
    return { name: entry.name ?? "", address: "error" in normalized ? (entry.address ?? "") : normalized.address };
  });
}

/** A submitted MIME message parsed by mailparser; a message beyond its limits is the sender's fault (400). */
export async function parseSubmitted(raw: Buffer): Promise<ParsedMail> {
  // Loaded on first use (SMTP only): importing mailparser costs a noticeable share of start-up time.
  const { simpleParser } = await import("mailparser");
  try {
    return await simpleParser(raw, {
      keepCidLinks: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      checksumAlgo: "sha256",
    });
  } catch (error) {
    // mailparser's own limits (too many parts, a part's header too large): the message's fault, said plainly.
    if ((error as { code?: string }).code === "EMAXLEN") {
      throw validationError(
        [{ path: "message", message: (error as Error).message }],
        `The message is beyond what Mailroom parses: ${(error as Error).message}.`,
      );
    }
    throw error;
  }
}

/** Parses a MIME message (mailparser): decoded addresses, subject, html and text parts, attachment checksums. */
export async function readRawMessage(raw: Buffer): Promise<RawMessageView> {
  const parsed = await parseSubmitted(raw);
  return {
    from: mailboxes(parsed.from),
    fromFields: parsed.headerLines.filter((line) => line.key === "from").length,
    sender: mailboxes(parsed.headers.get("sender") as AddressObject | undefined),
    senderFields: parsed.headerLines.filter((line) => line.key === "sender").length,
    to: mailboxes(parsed.to),
    cc: mailboxes(parsed.cc),
    replyTo: mailboxes(parsed.replyTo),
    subject: parsed.subject ?? "",
    html: typeof parsed.html === "string" ? parsed.html : null,
    text: parsed.text ?? null,
    attachments: parsed.attachments.map((a) => ({
      filename: a.filename ?? null,
      contentType: a.contentType,
      checksum: a.checksum,
    })),
  };
}

/** The single author a message may have for Mailroom: exactly one From field with one valid mailbox, at most one Sender. */
export function singleFrom(view: RawMessageView): Mailbox {
  const [from, ...others] = view.from;
  const valid = from && !("error" in normalizeAddress(from.address));
  // A second From field would let a reader show an author the domain check never saw (mailparser keeps the last).
  if (!from || others.length || !valid || view.fromFields !== 1) {
    throw validationError([
      { path: "from", message: "the message needs a From header with exactly one valid address" },
    ]);
  }
  if (view.senderFields > 1)
    throw validationError([{ path: "sender", message: "the message may have at most one Sender header" }]);
  return from;
}

/**
 * What makes two SMTP submissions "the same request" for idempotency: the content, not the bytes. A client that
 * retries rebuilds the message with a fresh Message-ID, Date and MIME boundaries, so those cannot count.
 */
export async function idempotencyRequest(raw: Buffer, recipients: string[]): Promise<Record<string, unknown>> {
  const view = await readRawMessage(raw);
  return {
    from: view.from.map((m) => addressKey(m.address)),
    recipients: [...new Set(recipients.map(addressKey))].sort(),
    subject: view.subject,
    html: view.html,
    text: view.text,
    attachments: view.attachments,
  };
}
