/**
 * Turns validated fields into the MIME message that is stored and sent, with nodemailer's composer:
 * html with a text alternative (generated from the html when absent), attachments, inline `cid:` parts, custom
 * headers, a Message-ID on the sender's domain. Invariant: Bcc never appears in the output.
 */
import { compile } from "html-to-text";
import MailComposer from "nodemailer/lib/mail-composer";
import { domainOf, type Mailbox } from "../lib/addresses.ts";
import type { ComposedFields } from "./model.ts";

export interface ComposedMessage {
  raw: Buffer;
  messageId: string;
  text: string;
}

const asAddress = (m: Mailbox) => ({ name: m.name, address: m.address });

// Compiled once: html-to-text otherwise re-parses its selector options on every call, which dominated send CPU.
const convertHtml = compile({ wordwrap: 78, selectors: [{ selector: "img", format: "skip" }] });

export function htmlToText(html: string): string {
  return convertHtml(html);
}

export async function composeMessage(emailId: string, fields: ComposedFields, date: Date): Promise<ComposedMessage> {
  const messageId = `<${emailId}@${domainOf(fields.from.address)}>`;
  const text = fields.text ?? htmlToText(fields.html);
  const composer = new MailComposer({
    from: asAddress(fields.from),
    to: fields.to.map(asAddress),
    cc: fields.cc.length ? fields.cc.map(asAddress) : undefined,
    replyTo: fields.replyTo.length ? fields.replyTo.map(asAddress) : undefined,
    subject: fields.subject,
    html: fields.html,
    text,
    messageId,
    date,
    headers: fields.headers.map(([key, value]) => ({ key, value })),
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
  const raw = await composer.compile().build();
  return { raw, messageId, text };
}
