/**
 * A received message as its stored record: addresses, subject, bodies, headers and attachment metadata read from
 * the parsed message, and its SPF, DKIM, DMARC and ARC results from mailauth through the configured resolver.
 * Both read megabytes in JavaScript (about a second each for 25 MiB), so the funnel runs them in the CPU pool
 * (cpu/pool.ts), never on the event loop; they return plain data for that reason.
 * Invariant: every text that reaches the store is well-formed Unicode without NUL (PostgreSQL's text and jsonb
 * refuse both, and a message carrying them must still be stored, not refused); the raw message keeps the bytes.
 */
import type { AddressObject, ParsedMail } from "mailparser";
import { describeAttachment } from "../lib/attachment-parts.ts";
import { inSharedMemory } from "../lib/bytes.ts";
import { newId } from "../lib/ids.ts";
import type { ReceivedAttachment, ReceivedAuthentication } from "./model.ts";
import { parseReceived, readInboundReport, type InboundReport } from "./reports.ts";

/** Text as the store can hold it: lone surrogates become U+FFFD, as do NUL characters. */
export const storable = (text: string) => text.toWellFormed().replace(/\0/g, "\uFFFD");

const addresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : [])
    .flatMap((object) => object.value)
    .flatMap((entry) => (entry.group ? entry.group : [entry]))
    .map((entry) => storable(entry.address ?? ""))
    .filter(Boolean);

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** mailparser hands header lines over as one character per byte; raw 8-bit headers are UTF-8 when they decode as it. */
function headerText(line: string): string {
  if (!/[\x80-\xff]/.test(line)) return line;
  try {
    return strictUtf8.decode(Buffer.from(line, "latin1"));
  } catch {
    return line;
  }
}

/** Each header once, by its name as written first; repeated ones (Received) joined by newlines, none lost. */
function headerMap(mail: ParsedMail): Record<string, string> {
  const map = new Map<string, { name: string; values: string[] }>();
  for (const { key, line: bytes } of mail.headerLines) {
    const line = headerText(bytes);
    const colon = line.indexOf(":");
    const name = storable(colon > 0 ? line.slice(0, colon).trim() : key);
    const value = storable((colon > 0 ? line.slice(colon + 1) : line).replace(/\r?\n[ \t]+/g, " ").trim());
    const entry = map.get(key);
    if (entry) entry.values.push(value);
    else map.set(key, { name, values: [value] });
  }
  return Object.fromEntries([...map.values()].map(({ name, values }) => [name, values.join("\n")]));
}

export interface ReceivedFields {
  messageId: string | null;
  fromHeader: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string;
  html: string | null;
  text: string | null;
  headers: Record<string, string>;
  attachments: ReceivedAttachment[];
  /** In-Reply-To and References, newest first: the Message-IDs this message answers. */
  answers: string[];
}

export function readReceived(mail: ParsedMail): ReceivedFields {
  const references = typeof mail.references === "string" ? [mail.references] : (mail.references ?? []);
  const inReplyTo = mail.inReplyTo ? mail.inReplyTo.split(/\s+/).filter(Boolean) : [];
  return {
    messageId: mail.messageId ? storable(mail.messageId) : null,
    fromHeader: storable(
      (mail.from?.value ?? [])
        .map(({ name, address }) => (name ? `${name} <${address ?? ""}>` : (address ?? "")))
        .join(", "),
    ),
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    bcc: addresses(mail.bcc),
    replyTo: addresses(mail.replyTo),
    subject: storable(mail.subject ?? ""),
    html: typeof mail.html === "string" ? storable(mail.html) : null,
    text: mail.text === undefined ? null : storable(mail.text),
    headers: headerMap(mail),
    attachments: (mail.attachments ?? []).map((attachment, index) => {
      const described = describeAttachment(attachment);
      return {
        id: newId(),
        index,
        ...described,
        filename: described.filename === null ? null : storable(described.filename),
        content_type: storable(described.content_type),
        content_id: described.content_id === null ? null : storable(described.content_id),
      };
    }),
    answers: [...inReplyTo, ...[...references].reverse()].map(storable),
  };
}

/** Everything the inbound funnel reads from a message's bytes, as plain data: it is read in the CPU pool. */
export interface ReadMessage {
  report: InboundReport;
  fields: ReceivedFields;
  /** Why the parser refused the message (it is then kept whole and read as nothing); null when it was read. */
  unparsed: string | null;
}

/** What a message the parser refuses reads as: no headers, no parts; its raw bytes are what is kept. */
const UNPARSED = { headers: new Map(), headerLines: [], attachments: [] } as unknown as ParsedMail;

/**
 * A message beyond the parser's limits (a header of megabytes, thousands of parts, or more work than its time budget
 * allows): kept whole, read as nothing.
 */
export function unreadMessage(reason: string): ReadMessage {
  return { report: { kind: "message" }, fields: readReceived(UNPARSED), unparsed: reason };
}

/** Parses the message once and reads both what it reports and its stored record. */
export async function readReceivedMessage(raw: Buffer): Promise<ReadMessage> {
  let mail: ParsedMail;
  try {
    mail = await parseReceived(raw);
  } catch (error) {
    return unreadMessage(error instanceof Error ? error.message : String(error));
  }
  return { report: readInboundReport(mail, raw), fields: readReceived(mail), unparsed: null };
}

/** A part of a stored message read again on request: the html with its inline images as data URIs, or an attachment. */
export type ReceivedPart = { kind: "html_with_images" } | { kind: "attachment"; index: number };

/**
 * The part asked for, or null when the message has none (or no longer parses). An attachment's bytes come in shared
 * memory, so the event loop receives them from a thread without a copy.
 */
export async function readReceivedPart(raw: Buffer, part: ReceivedPart): Promise<string | Uint8Array | null> {
  if (part.kind === "html_with_images") {
    // mailparser's default turns `cid:` references into data URIs, as Resend's answer carries them.
    const { simpleParser } = await import("mailparser");
    const parsed = await simpleParser(raw).catch(() => null);
    return typeof parsed?.html === "string" ? storable(parsed.html) : null;
  }
  const parsed = await parseReceived(raw).catch(() => null);
  const content = parsed?.attachments[part.index]?.content;
  return content ? inSharedMemory(content) : null;
}

export interface SessionFacts {
  /** The client's address, as the connection saw it. */
  clientAddress: string;
  /** The EHLO/HELO name. */
  helo: string;
  /** MAIL FROM (empty for notifications). */
  sender: string;
  /** This server's name, written into Authentication-Results. */
  mta: string;
  /**
   * The key an ARC set is sealed with when the message is to be forwarded (docs/inbound.md#forwarding): the receiving
   * domain's DKIM key. Absent: nothing is sealed.
   */
  seal?: { signingDomain: string; selector: string; privateKey: string };
}

/** The results, and for a message to be forwarded the ARC set (RFC 8617) to prepend to its copy, when one was sealed. */
export type SealedAuthentication = ReceivedAuthentication & { arcSet?: string };

type Resolve = (name: string, rrtype: string) => Promise<unknown>;

interface MailauthResult {
  spf?: { domain?: string; status?: { result?: string } } | false;
  dkim?: {
    results?: Array<{ signingDomain?: string; selector?: string; status?: { result?: string; aligned?: unknown } }>;
  };
  dmarc?: { domain?: string; policy?: string; status?: { result?: string } } | false;
  arc?: { status?: { result?: string } } | false;
  headers?: string;
}

/** The ARC-* fields of mailauth's header block, folded lines kept: the set it sealed. */
const arcFields = (headers: string) =>
  headers
    .split(/\r?\n(?![ \t])/)
    .filter((field) => /^arc-/i.test(field))
    .map((field) => `${field}\r\n`)
    .join("");

/**
 * SPF for the client and MAIL FROM (or HELO), DKIM signatures, DMARC alignment of the From domain, and the ARC
 * chain (RFC 7208, 6376, 7489, 8617). BIMI is not evaluated: it would fetch logos over the network. With `facts.seal`,
 * mailauth also seals the next ARC instance — its ARC-Authentication-Results these results, its `cv=` the chain's
 * verdict — unless the chain it found is broken past sealing (RFC 8617 §5.1.2).
 */
export async function authenticateReceived(
  raw: Buffer,
  facts: SessionFacts,
  resolve: Resolve,
): Promise<SealedAuthentication> {
  const { authenticate } = await import("mailauth");
  const result = (await authenticate(raw, {
    ip: facts.clientAddress,
    helo: facts.helo,
    sender: facts.sender,
    mta: facts.mta,
    resolver: resolve as never,
    disableBimi: true,
    ...(facts.seal && { seal: facts.seal }),
  })) as MailauthResult;
  const arcSet = facts.seal ? arcFields(result.headers ?? "") : "";
  // Anchored: the ARC-Authentication-Results of a sealed set holds the same words.
  const header = /^Authentication-Results:[\s\S]*$/m.exec(result.headers ?? "")?.[0]?.trim() ?? "";
  return {
    spf: result.spf ? { result: result.spf.status?.result ?? "none", domain: result.spf.domain ?? null } : null,
    dkim: (result.dkim?.results ?? []).map((row) => ({
      result: row.status?.result ?? "none",
      domain: row.signingDomain ?? null,
      selector: row.selector ?? null,
      aligned: Boolean(row.status?.aligned),
    })),
    dmarc: result.dmarc
      ? {
          result: result.dmarc.status?.result ?? "none",
          policy: result.dmarc.policy ?? null,
          domain: result.dmarc.domain ?? null,
        }
      : null,
    arc: result.arc ? { result: result.arc.status?.result ?? "none" } : null,
    header: storable(header),
    ...(arcSet && { arcSet }),
  };
}
