/**
 * Turns validated fields into the MIME message that is stored and sent, with nodemailer's composer:
 * html with a text alternative (generated from the html when absent), attachments, inline `cid:` parts, custom
 * headers, a Message-ID on the sender's domain, and the decorations of tracking and one-click unsubscribe (the
 * message is composed once and stored, so they are written here). It runs on a thread of the CPU pool
 * (src/server/cpu-pool.ts), so the request is plain data. Invariant: Bcc never appears in the output.
 */
import type MailComposerClass from "nodemailer/lib/mail-composer";
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

/** Everything composition needs, as plain data: it runs on a thread of the CPU pool (src/server/cpu-pool.ts). */
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
export async function composeMessage(request: ComposeRequest): Promise<ComposedMessage> {
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
  const MailComposer = await (mailComposer ??= import("nodemailer/lib/mail-composer").then((module) => module.default));
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
    .map(([key, list]) => `${encodeAddressHeader(key, list)}\r\n`);
  const composer = new MailComposer({
    html,
    text: fill(text),
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
  const raw = Buffer.concat([Buffer.from(addressLines.join(""), "utf8"), await composer.compile().build()]);
  return { raw, messageId, text };
}
