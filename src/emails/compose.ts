/**
 * Turns validated fields into the MIME message that is stored and sent: html with a text alternative (generated
 * from the html when absent), attachments, inline `cid:` parts, custom headers, a Message-ID on the sender's
 * domain, and the decorations of tracking and one-click unsubscribe (the message is composed once and stored, so
 * they are written here). It runs on a thread of the CPU pool (src/cpu/pool.ts), so the request is plain
 * data. The common shape — text and html, no attachments, no References header — is written here directly
 * (`writeCommonShape`: the parts nodemailer's MailComposer would write, with its choice of transfer encoding, for a
 * twentieth of its CPU); anything else goes through MailComposer. Invariants: Bcc never appears in the output; every
 * line of the common shape ends CRLF.
 */
import { randomBytes } from "node:crypto";
import * as base64 from "nodemailer/lib/base64";
import type MailComposerClass from "nodemailer/lib/mail-composer";
import { hasLongerLines, isPlainText } from "nodemailer/lib/mime-funcs";
import * as qp from "nodemailer/lib/qp";
import { domainOf, type Mailbox } from "../lib/addresses.ts";
import { type MessageDecorations, type TrackingPlan, writeTracking } from "../tracking/decorations.ts";
import { encodeAddressHeader, encodeHeaderValue } from "./header-encoding.ts";
import { htmlToText } from "../lib/html-text.ts";
import type { ComposedFields } from "./model.ts";

export interface ComposedMessage {
  raw: Buffer;
  messageId: string;
  text: string;
}

/** Loaded by the first message composed: only the CPU pool's threads compose, so the event loop's start skips it. */
let mailComposer: Promise<typeof MailComposerClass> | undefined;

// Tracking owns the decorations' shape; the intake that asks tracking for them and hands them here names it here.

/** Everything composition needs, as plain data: it runs on a thread of the CPU pool (src/cpu/pool.ts). */
export interface ComposeRequest {
  emailId: string;
  fields: ComposedFields;
  /** The Date header, epoch ms: fixed at acceptance. */
  date: number;
  unsubscribeUrl?: string;
  tracking?: TrackingPlan;
}

const UNSUBSCRIBE_PLACEHOLDER = /\{\{\s*unsubscribe_url\s*\}\}/g;

const filler = (unsubscribeUrl: string | undefined) => (content: string) =>
  // The URL is base64url and path characters only, so it needs no escaping in html.
  unsubscribeUrl ? content.replace(UNSUBSCRIBE_PLACEHOLDER, unsubscribeUrl) : content;

/** The request for one message. It only gathers: every pass over the html happens in composeMessage, off the loop. */
export function composeRequest(
  emailId: string,
  fields: ComposedFields,
  date: number,
  decorations: MessageDecorations = {},
): ComposeRequest {
  return { emailId, fields, date, unsubscribeUrl: decorations.unsubscribeUrl, tracking: decorations.tracking };
}

/**
 * `text` is the text part as stored in the message record: the given one or the one generated from the original
 * html, before placeholders and tracking links are filled in (the record shows what the sender wrote).
 */
export async function composeMessage(
  request: ComposeRequest,
  /** `mail-composer`: MailComposer even for the common shape — the reference the fuzz suite reads it against. */
  writer: "fitting" | "mail-composer" = "fitting",
): Promise<ComposedMessage> {
  const { emailId, fields, unsubscribeUrl, tracking } = request;
  const messageId = `<${emailId}@${domainOf(fields.from.address)}>`;
  const text = fields.text ?? (await htmlToText(fields.html ?? ""));
  const fill = filler(unsubscribeUrl);
  // A plain-text message has no html part at all, so no tracking pixel or rewritten links either.
  const html =
    fields.html === null
      ? undefined
      : tracking
        ? writeTracking(fill(fields.html), emailId, tracking)
        : fill(fields.html);
  // Subject, custom and address headers are written by the one header encoder (header-encoding.ts), not folded by
  // nodemailer, whose folding leaves lines of whitespace alone when a value holds a long run of spaces.
  const prepared = (key: string, value: string) => ({
    key,
    value: { prepared: true, value: encodeHeaderValue(key, value) },
  });
  // References is one of the fields nodemailer formats itself (a list of message ids) and ignores when prepared.
  const custom = fields.headers.map(([key, value]) =>
    key.toLowerCase() === "references" ? { key, value } : prepared(key, value),
  );
  const headers: Array<{ key: string; value: string | { prepared: boolean; value: string } }> = [
    prepared("Subject", fields.subject),
    ...custom,
  ];
  if (unsubscribeUrl) {
    // RFC 8058 §3.1: an https URI in List-Unsubscribe plus List-Unsubscribe-Post with this exact value; both must
    // be covered by the DKIM signature (RFC 8058 §4), which the signer's header list takes care of.
    headers.push(
      prepared("List-Unsubscribe", `<${unsubscribeUrl}>`),
      prepared("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"),
    );
  }
  // nodemailer formats address fields itself even when given as prepared headers, so it gets none: they are
  // written here, before its header lines.
  const addressFields: Array<[string, Mailbox[]]> = [
    ["From", [fields.from]],
    ["Sender", fields.sender ? [fields.sender] : []],
    ["To", fields.to],
    ["Cc", fields.cc],
    ["Reply-To", fields.replyTo],
  ];
  const addressLines = addressFields
    .filter(([, list]) => list.length > 0)
    .map(([key, list]) => `${encodeAddressHeader(key, list)}\r\n`)
    .join("");
  const filledText = fill(text);
  const commonShape = fields.attachments.length === 0 && custom.every((header) => typeof header.value !== "string");
  if (commonShape && writer === "fitting") {
    const lines = headers.map((header) => `${header.key}: ${(header.value as { value: string }).value}`);
    return { raw: writeCommonShape(addressLines, lines, messageId, request.date, filledText, html), messageId, text };
  }
  const MailComposer = await (mailComposer ??= import("nodemailer/lib/mail-composer").then((module) => module.default));
  const composer = new MailComposer({
    html,
    text: filledText,
    messageId,
    date: new Date(request.date),
    headers,
    attachments: fields.attachments.map((a) => ({
      filename: a.filename,
      content: a.content,
      contentType: a.contentType,
      cid: a.contentId,
      contentDisposition: a.contentId ? ("inline" as const) : ("attachment" as const),
    })),
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const raw = Buffer.concat([Buffer.from(addressLines, "utf8"), await composer.compile().build()]);
  return { raw, messageId, text };
}

/** Line breaks of any kind, written as CRLF. */
const LINE_BREAKS = /\r\n|\r|\n/g;

/**
 * A text part's transfer encoding, as nodemailer chooses it: 7bit for ASCII without control characters and lines of
 * at most 76 characters; else quoted-printable when Latin letters outnumber the other bytes, base64 when not.
 */
function transferEncoding(body: string): "7bit" | "quoted-printable" | "base64" {
  if (isPlainText(body) && !hasLongerLines(body, 76)) return "7bit";
  let latin = 0;
  let other = 0;
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    if (code <= 0x08 || code === 0x0b || code === 0x0c || (code >= 0x0e && code <= 0x1f) || code >= 0x80) other++;
    else if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) latin++;
  }
  return other < latin ? "quoted-printable" : "base64";
}

function textPart(type: "text/plain" | "text/html", body: string): string {
  const normalized = body.replace(LINE_BREAKS, "\r\n");
  const encoding = transferEncoding(normalized);
  const content =
    encoding === "7bit"
      ? normalized
      : encoding === "quoted-printable"
        ? qp.wrap(qp.encode(normalized), 76)
        : base64.wrap(base64.encode(normalized), 76);
  return `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: ${encoding}\r\n\r\n${content}`;
}

/**
 * The message of text and html without attachments: the address lines, the prepared header lines, Message-ID, Date
 * and MIME-Version, then the one part that is not empty, or both as multipart/alternative. The boundary starts with `=_`,
 * which quoted-printable and base64 never write, and carries 96 random bits, so no 7bit part can hold it.
 */
function writeCommonShape(
  addressLines: string,
  headerLines: string[],
  messageId: string,
  date: number,
  text: string,
  html: string | undefined,
): Buffer {
  const head = [
    ...headerLines,
    `Message-ID: ${messageId}`,
    `Date: ${new Date(date).toUTCString().replace(/GMT/, "+0000")}`,
    "MIME-Version: 1.0",
  ].join("\r\n");
  // An empty part is left out, as MailComposer leaves it out: one part alone is the whole body.
  const parts = [text && textPart("text/plain", text), html && textPart("text/html", html)].filter(Boolean);
  if (parts.length < 2) {
    const part = parts[0] ?? textPart("text/plain", "");
    return Buffer.from(`${addressLines}${head}\r\n${part}${part.endsWith("\r\n") ? "" : "\r\n"}`, "utf8");
  }
  const boundary = `=_mailroom_${randomBytes(12).toString("hex")}`;
  return Buffer.from(
    `${addressLines}${head}\r\nContent-Type: multipart/alternative;\r\n boundary="${boundary}"\r\n\r\n` +
      parts.map((part) => `--${boundary}\r\n${part}\r\n`).join("") +
      `--${boundary}--\r\n`,
    "utf8",
  );
}
