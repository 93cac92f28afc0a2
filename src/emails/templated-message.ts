/**
 * A relay message that names a template (`X-Mailroom-Template: <id or alias>`, `X-Mailroom-Variables: <JSON
 * object>`), read into the send body it stands for, so that it is rendered and validated exactly like the API's
 * `template` (send-fields.ts). The template makes the body; the message gives From, To, Cc, Reply-To and Subject
 * (each over the template's), its other header fields as custom headers, and its attachments; its own text and
 * html parts are replaced. The message is composed anew, so the two X-Mailroom fields never reach a recipient.
 *
 * Invariant: the envelope still decides who gets the message — To and Cc must be among the RCPT TO addresses
 * (anyone else on the envelope is a blind copy), so a template never mails an address the client did not name.
 */
import { validationError } from "../errors.ts";
import { addressKey, formatMailbox, normalizeAddress } from "../lib/addresses.ts";
import { assertUnambiguousHeader, mailboxes, parseSubmitted, readHeader } from "./raw-message.ts";
import { isStructuralHeader } from "./validate.ts";

export const TEMPLATE_FIELDS = { id: "X-Mailroom-Template", variables: "X-Mailroom-Variables" };

/** Fields that become fields of the send body, or are instructions to Mailroom, rather than custom headers. */
const NOT_CARRIED = new Set([
  "reply-to",
  "bcc",
  "idempotency-key",
  "x-mailroom-template",
  "x-mailroom-variables",
  "x-mailroom-topic",
]);

export const namesTemplate = (raw: Buffer): boolean => readHeader(raw, TEMPLATE_FIELDS.id) !== undefined;

export async function templatedSendBody(raw: Buffer, envelopeTo: string[]): Promise<Record<string, unknown>> {
  // The fields read here must be the ones every reader sees, as for a message relayed as it is (raw-message.ts).
  assertUnambiguousHeader(raw);
  const parsed = await parseSubmitted(raw);
  const fields = (key: string) => parsed.headerLines.filter((line) => line.key === key);
  const once = (key: string, name: string) => {
    if (fields(key).length > 1) throw validationError([{ path: name, message: "must appear at most once" }]);
  };
  once("x-mailroom-template", TEMPLATE_FIELDS.id);
  once("x-mailroom-variables", TEMPLATE_FIELDS.variables);
  once("from", "from");

  // Clients encode a value with quotes or non-ASCII text as RFC 2047 encoded-words (nodemailer does). libmime is
  // loaded here, on first use, because its charset tables cost every cold start about 5 ms.
  const { default: libmime } = await import("libmime");
  const value = (name: string) => {
    const text = readHeader(raw, name);
    return text === undefined ? undefined : libmime.decodeWords(text);
  };
  let variables: unknown = {};
  const encoded = value(TEMPLATE_FIELDS.variables);
  if (encoded !== undefined) {
    try {
      variables = JSON.parse(encoded);
    } catch (error) {
      throw validationError([
        {
          path: TEMPLATE_FIELDS.variables,
          message: `must be a JSON object of variable values: ${(error as Error).message}`,
        },
      ]);
    }
  }

  const envelope = new Set(envelopeTo.map((address) => addressKey(address)));
  const shown = (key: "to" | "cc") => {
    const list = mailboxes(parsed[key]);
    const outside = list.find((mailbox) => {
      const normalized = normalizeAddress(mailbox.address);
      return "error" in normalized || !envelope.has(addressKey(normalized.address));
    });
    if (outside)
      throw validationError([
        { path: key, message: `${outside.address} is not among the envelope recipients (RCPT TO)` },
      ]);
    return list;
  };
  const to = shown("to");
  const cc = shown("cc");
  const visible = new Set([...to, ...cc].map((mailbox) => addressKey(mailbox.address)));

  const body: Record<string, unknown> = {
    to: to.map(formatMailbox),
    cc: cc.map(formatMailbox),
    bcc: envelopeTo.filter((address) => !visible.has(addressKey(address))),
    template: { id: value(TEMPLATE_FIELDS.id), variables },
  };
  // The topic a templated message is sent for becomes the body's topic_id (docs/contacts-preferences.md).
  const topic = value("X-Mailroom-Topic");
  if (topic !== undefined) body.topic_id = topic;
  const from = mailboxes(parsed.from);
  if (from.length > 1) throw validationError([{ path: "from", message: "must name exactly one address" }]);
  if (from[0]) body.from = formatMailbox(from[0]);
  const replyTo = mailboxes(parsed.replyTo);
  if (replyTo.length) body.reply_to = replyTo.map(formatMailbox);
  if (parsed.subject?.trim()) body.subject = parsed.subject;

  const headers: Record<string, string> = {};
  for (const { key, line } of parsed.headerLines) {
    if (isStructuralHeader(key) || NOT_CARRIED.has(key)) continue;
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim()] = line
      .slice(colon + 1)
      .replace(/\r?\n(?=[ \t])/g, "")
      .trim();
  }
  if (Object.keys(headers).length) body.headers = headers;
  if (parsed.attachments.length) {
    body.attachments = parsed.attachments.map((attachment) => ({
      filename: attachment.filename ?? "attachment",
      content: attachment.content.toString("base64"),
      content_type: attachment.contentType,
      ...(attachment.cid ? { content_id: attachment.cid } : {}),
    }));
  }
  return body;
}
