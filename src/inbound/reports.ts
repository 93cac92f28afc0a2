/**
 * What a received message reports about mail Mailroom sent: a delivery status notification (RFC 3464), a feedback
 * report (RFC 5965), an automatic reply (RFC 3834), a bounce that follows no standard, or nothing (an ordinary
 * message). Pure reading of the message — finding the delivery it concerns belongs to the inbound funnel, acting on
 * it to the deliveries area (deliveries/reports.ts). Invariants: only a definite 5.x.x status (or a 5xx reply in a
 * non-standard bounce) is `permanent`; a report this module cannot decide is `undetermined`, which never suppresses
 * anyone.
 */
import type { AddressObject, Attachment, ParsedMail } from "mailparser";
import type { BounceOutcome } from "../deliveries/reports.ts";
import { classifyReply, type BounceSubType } from "../providers/classify.ts";

export interface BouncedRecipient {
  /** Final-Recipient (or Original-Recipient) address, lower-cased; null when the report names none. */
  recipient: string | null;
  /** RFC 3463 status code, e.g. `5.1.1`. */
  status: string | null;
  action: string | null;
  /** The receiving server's reply, e.g. `smtp; 550 5.1.1 user unknown`. */
  diagnostic: string | null;
  outcome: BounceOutcome;
  subType: BounceSubType | "Undetermined";
}

export type InboundReport =
  | { kind: "bounce"; standard: boolean; recipients: BouncedRecipient[]; originalMessageId: string | null }
  | {
      kind: "complaint";
      feedbackType: string;
      recipient: string | null;
      originalMailFrom: string | null;
      originalMessageId: string | null;
    }
  | { kind: "auto_reply"; challenge: boolean; inReplyTo: string | null }
  | { kind: "message" };

/** The fields of an RFC 822-style block list (RFC 3464 §2.1, RFC 5965 §3.1): blocks split by blank lines, lines unfolded. */
export function parseFieldBlocks(text: string): Array<Map<string, string>> {
  return text
    .replace(/\r\n/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((block) => {
      const fields = new Map<string, string>();
      for (const line of block.replace(/\n[ \t]+/g, " ").split("\n")) {
        const colon = line.indexOf(":");
        if (colon <= 0) continue;
        const name = line.slice(0, colon).trim().toLowerCase();
        if (!fields.has(name)) fields.set(name, line.slice(colon + 1).trim());
      }
      return fields;
    })
    .filter((fields) => fields.size > 0);
}

/** `rfc822; user@example.com` → `user@example.com` (RFC 3464 §2.3.2 address-type prefix). */
const typedAddress = (value: string | undefined) => {
  if (!value) return null;
  const address = value.includes(";") ? value.slice(value.indexOf(";") + 1) : value;
  return address.trim().replace(/^<|>$/g, "").toLowerCase() || null;
};

const STATUS = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/;

/** The outcome of one recipient's status and action: 5.x.x bounces, 4.x.x or `delayed` defers, the rest is undecided. */
function recipientOutcome(
  status: string | null,
  action: string | null,
  diagnostic: string | null,
): Pick<BouncedRecipient, "outcome" | "subType"> {
  const code = STATUS.exec(status ?? "")?.[1];
  if (action === "delayed" || code === "4")
    return {
      outcome: "temporary",
      subType: classifyReply(450, `${status ?? ""} ${diagnostic ?? ""}`).subType ?? "General",
    };
  if (code === "5" && action !== "delivered" && action !== "relayed" && action !== "expanded") {
    // The reply text refines the kind (mailbox full, message too large…) by the providers' own rules table.
    const replyCode = Number(/\b([45]\d\d)\b/.exec(diagnostic ?? "")?.[1] ?? 550);
    const verdict = classifyReply(replyCode >= 500 ? replyCode : 550, `${status} ${diagnostic ?? ""}`);
    // A definite 5.x.x is permanent even where the rules would retry an SMTP reply (a full mailbox reported after the fact is final).
    return { outcome: "permanent", subType: verdict.subType ?? "General" };
  }
  return { outcome: "undetermined", subType: "Undetermined" };
}

const partText = (attachment: Attachment) => attachment.content.toString("utf8");
// mailparser leaves contentType false for a part whose Content-Type is empty.
const isType = (attachment: Attachment, type: string) =>
  typeof attachment.contentType === "string" && attachment.contentType.toLowerCase() === type;

const MESSAGE_ID_LINE = /^message-id:[ \t]*(<[^>\s]+>)/im;

/**
 * The Message-ID of the returned original: from a message/rfc822 or text/rfc822-headers part the parser kept
 * apart, else the first Message-ID header line in the body — where an inline original, or the copy a
 * non-standard bounce quotes, leaves it (the report's own Message-ID is in its header, which is skipped).
 */
function returnedMessageId(raw: Buffer, attachments: Attachment[]): string | null {
  const original = attachments.find(
    (a) => isType(a, "message/rfc822") || isType(a, "text/rfc822-headers") || isType(a, "message/rfc822-headers"),
  );
  if (original) {
    const id = MESSAGE_ID_LINE.exec(partText(original).split(/\r?\n\r?\n/)[0]!)?.[1];
    if (id) return id;
  }
  const text = raw.toString("latin1");
  const body = text.slice(text.search(/\r?\n\r?\n/) + 1);
  return MESSAGE_ID_LINE.exec(body)?.[1] ?? null;
}

function dsnRecipients(deliveryStatus: string): BouncedRecipient[] {
  // The first block is about the message; the others are one per recipient.
  const [, ...perRecipient] = parseFieldBlocks(deliveryStatus);
  return perRecipient
    .filter((fields) => fields.has("final-recipient") || fields.has("original-recipient") || fields.has("status"))
    .map((fields) => {
      const status = STATUS.exec(fields.get("status") ?? "")?.[0] ?? null;
      const action = fields.get("action")?.toLowerCase().split(/\s/)[0] ?? null;
      const diagnostic = fields.get("diagnostic-code") ?? null;
      return {
        recipient: typedAddress(fields.get("final-recipient") ?? fields.get("original-recipient")),
        status,
        action,
        diagnostic,
        ...recipientOutcome(status, action, diagnostic),
      };
    });
}

/**
 * How much of a message's text the heuristics read: what a notice says comes first, and a message of megabytes
 * must not hold the event loop (a regular expression over one long line can take quadratic time).
 */
const TEXT_SCANNED = 16_384;
const LINE_SCANNED = 1_000;

const AUTO_REPLY_SUBJECT = /^(automatic reply|auto[- ]?reply|auto[- ]?response|out of (the )?office)\b/i;

/** RFC 3834 §5: Auto-Submitted other than `no`; and the widespread non-standard markers of vacation responders. */
function isAutoReply(mail: ParsedMail): boolean {
  const header = (name: string) => String(mail.headers.get(name) ?? "").toLowerCase();
  const autoSubmitted = header("auto-submitted");
  if (autoSubmitted && autoSubmitted !== "no") return true;
  if (mail.headers.has("x-autoreply") || mail.headers.has("x-autorespond")) return true;
  return /^auto_?reply$/.test(header("precedence")) || AUTO_REPLY_SUBJECT.test(mail.subject ?? "");
}

/** Challenge-response systems ask the sender to prove they are human before delivering. */
const isChallenge = (mail: ParsedMail) =>
  mail.headers.has("x-challenge") ||
  mail.headers.has("x-boxbe-challenge") ||
  /\b(please )?(confirm|verify) (that )?(you are|you're) (a )?(human|real)|sender verification|challenge[- ]response/i.test(
    `${mail.subject ?? ""} ${(mail.text ?? "").slice(0, TEXT_SCANNED)}`,
  );

const fromMailSystem = (mail: ParsedMail) =>
  ((mail.from as AddressObject | undefined)?.value ?? []).some((m) =>
    /^(mailer-daemon|postmaster|mail-daemon)@/i.test(m.address ?? ""),
  );
const BOUNCE_SUBJECT =
  /undeliver|delivery (status notification|failure|has failed)|returned mail|failure notice|mail delivery (failed|failure|subsystem)|could not be delivered|delivery problem/i;

function nonStandardBounce(mail: ParsedMail): BouncedRecipient[] {
  const text = (mail.text ?? "").slice(0, TEXT_SCANNED);
  const reply = /\b([45]\d\d)[ -](?:([45]\.\d{1,3}\.\d{1,3})\b)?[^\n]*/.exec(text);
  const line =
    text
      .split(/\n/)
      .find((candidate) => /@/.test(candidate) && !/^(from|to|subject|date|message-id):/i.test(candidate)) ?? "";
  const recipient =
    /<?([^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)>?:?\s*$/m.exec(line.slice(0, LINE_SCANNED))?.[1]?.toLowerCase() ?? null;
  if (!reply)
    return [
      { recipient, status: null, action: null, diagnostic: null, outcome: "undetermined", subType: "Undetermined" },
    ];
  const code = Number(reply[1]);
  const verdict = classifyReply(code, reply[0]);
  const outcome: BounceOutcome = code >= 500 ? "permanent" : "temporary";
  return [
    {
      recipient,
      status: reply[2] ?? null,
      action: code >= 500 ? "failed" : "delayed",
      diagnostic: reply[0].trim(),
      outcome,
      subType: verdict.subType ?? "General",
    },
  ];
}

/**
 * Parses a received message once for everything the inbound funnel reads: delivery-status parts kept as parts,
 * inline images left as `cid:` references and no html made up from the text (the stored record keeps what was sent).
 */
export async function parseReceived(raw: Buffer): Promise<ParsedMail> {
  // Loaded on first use, as everywhere else: mailparser is a large part of the cold start.
  const { simpleParser } = await import("mailparser");
  return simpleParser(raw, { keepDeliveryStatus: true, skipImageLinks: true, skipTextToHtml: true });
}

export function readInboundReport(mail: ParsedMail, raw: Buffer): InboundReport {
  const contentType = String(
    (mail.headers.get("content-type") as { value?: string; params?: Record<string, string> } | undefined)?.value ?? "",
  ).toLowerCase();
  const reportType = (
    (mail.headers.get("content-type") as { params?: Record<string, string> } | undefined)?.params?.["report-type"] ?? ""
  ).toLowerCase();
  const attachments = mail.attachments ?? [];

  const feedback = attachments.find((a) => isType(a, "message/feedback-report"));
  if (feedback || (contentType === "multipart/report" && reportType === "feedback-report")) {
    const fields = parseFieldBlocks(feedback ? partText(feedback) : "")[0] ?? new Map<string, string>();
    return {
      kind: "complaint",
      feedbackType: (fields.get("feedback-type") ?? "abuse").toLowerCase(),
      recipient: typedAddress(fields.get("original-rcpt-to")),
      originalMailFrom: typedAddress(fields.get("original-mail-from")),
      originalMessageId: returnedMessageId(raw, attachments),
    };
  }

  const status = attachments.find(
    (a) => isType(a, "message/delivery-status") || isType(a, "message/global-delivery-status"),
  );
  if (status)
    return {
      kind: "bounce",
      standard: true,
      recipients: dsnRecipients(partText(status)),
      originalMessageId: returnedMessageId(raw, attachments),
    };

  // Mail systems mark their bounces Auto-Submitted too (RFC 3834 §2), so the sender is asked first: a bounce without
  // a delivery-status part (older Exim, qmail, some gateways) still comes from one.
  const nonStandard = (): InboundReport => ({
    kind: "bounce",
    standard: false,
    recipients: nonStandardBounce(mail),
    originalMessageId: returnedMessageId(raw, attachments),
  });
  if (fromMailSystem(mail)) return nonStandard();
  if (isAutoReply(mail) || isChallenge(mail)) {
    return {
      kind: "auto_reply",
      challenge: isChallenge(mail),
      inReplyTo: typeof mail.inReplyTo === "string" ? mail.inReplyTo : null,
    };
  }
  if (BOUNCE_SUBJECT.test(mail.subject ?? "")) return nonStandard();
  return { kind: "message" };
}
