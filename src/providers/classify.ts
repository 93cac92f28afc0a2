/**
 * Classification of remote SMTP replies into delivery outcomes: a rules table checked in order, first match
 * wins, one test per rule. Invariant: a reply without a code (connection fault, timeout) is always temporary —
 * only a definite 5xx from the remote side bounces a message.
 */

export type BounceSubType =
  | "General"
  | "NoEmail"
  | "MailboxFull"
  | "MessageTooLarge"
  | "ContentRejected"
  | "PolicyRejected";

export interface ReplyClass {
  outcome: "accepted" | "temporary" | "permanent";
  subType?: BounceSubType;
  /** Delay the server asked for ("try again in 5 minutes"), in ms. */
  retryAfterMs?: number;
}

interface Rule {
  name: string;
  matches(code: number | undefined, text: string): boolean;
  outcome: ReplyClass["outcome"];
  subType?: BounceSubType;
}

export const REPLY_RULES: readonly Rule[] = [
  { name: "no reply (network fault or timeout)", matches: (code) => code === undefined, outcome: "temporary" },
  { name: "2xx accepted", matches: (code) => code! >= 200 && code! < 300, outcome: "accepted" },
  // Quotas clear; RFC 3463 makes 5.2.2 permanent, but retrying a full mailbox is what large receivers expect.
  {
    name: "mailbox full",
    matches: (code, text) => code! >= 400 && /\b[45]\.2\.2\b|mailbox (is )?full|over ?quota|quota exceeded/i.test(text),
    outcome: "temporary",
    subType: "MailboxFull",
  },
  // Greylisting (a first attempt refused on purpose) passes on a later try; any "try again in N" hint is honoured.
  {
    name: "greylisting",
    matches: (code, text) =>
      code! >= 400 && code! < 500 && /grey ?list|gray ?list|greylisted|try again later/i.test(text),
    outcome: "temporary",
  },
  // A block of the sending IP or its reputation says nothing about the recipient: retry (and never suppress), so
  // mail flows again once the listing is lifted; after retry_max_age it bounces Transient.
  {
    name: "sending IP or reputation block",
    matches: (code, text) =>
      code! >= 400 &&
      /spamhaus|spamcop|barracuda|block ?list|black ?list|\bdnsbl\b|\brbl\b|blocked using|listed (?:at|on|in)\b|reputation|\b5\.7\.(?:60[6-9]|6[1-4]\d)\b/i.test(
        text,
      ),
    outcome: "temporary",
    subType: "PolicyRejected",
  },
  // Our side offered no TLS the receiver accepts (RFC 3207 §4, RFC 3463 5.7.10/5.7.11): not the recipient's fault.
  {
    name: "TLS required",
    matches: (code, text) =>
      code! >= 500 &&
      (/\b5\.7\.1[01]\b/.test(text) ||
        /starttls|tls (?:is )?required|encryption required|must issue a starttls/i.test(text)),
    outcome: "temporary",
  },
  { name: "4xx temporary", matches: (code) => code! >= 400 && code! < 500, outcome: "temporary" },
  // RFC 7505 §3.2: the domain publishes a null MX, it accepts no mail at all.
  {
    name: "null MX",
    matches: (code, text) => code === 556 || (code! >= 500 && /\b5\.1\.10\b/.test(text)),
    outcome: "permanent",
    subType: "NoEmail",
  },
  {
    name: "unknown user",
    matches: (code, text) =>
      code! >= 500 &&
      (/\b5\.1\.[0-3]\b/.test(text) ||
        /user unknown|no such user|mailbox unavailable|does not exist|unknown recipient|invalid recipient|recipient not found|no mailbox/i.test(
          text,
        )),
    outcome: "permanent",
    subType: "NoEmail",
  },
  // RFC 3463 X.2.1: the mailbox exists but is disabled and takes no mail.
  {
    name: "mailbox disabled",
    matches: (code, text) =>
      code! >= 500 &&
      (/\b5\.2\.1\b/.test(text) || /account (?:is |has been )?disabled|mailbox (?:is )?disabled|inactive/i.test(text)),
    outcome: "permanent",
    subType: "NoEmail",
  },
  {
    name: "message too large",
    matches: (code, text) => code === 552 || (code! >= 500 && /\b5\.3\.4\b/.test(text)),
    outcome: "permanent",
    subType: "MessageTooLarge",
  },
  {
    name: "content rejected",
    matches: (code, text) => code! >= 500 && (/\b5\.7\.(?:7|13|26)\b/.test(text) || /spam|content|virus/i.test(text)),
    outcome: "permanent",
    subType: "ContentRejected",
  },
  {
    name: "policy block",
    matches: (code, text) => code! >= 500 && /\b5\.7\.\d{1,3}\b/.test(text),
    outcome: "permanent",
    subType: "PolicyRejected",
  },
  { name: "5xx permanent", matches: (code) => code! >= 500 && code! < 600, outcome: "permanent", subType: "General" },
];

const HINT = /(?:try|retry|again|wait)[^0-9]{0,24}(\d{1,6})\s*(seconds?|secs?|s\b|minutes?|mins?|m\b|hours?|h\b)/i;
const HINT_UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };

/** Extracts "try again in N seconds/minutes/hours" style hints. */
export function retryHint(text: string): number | undefined {
  const match = HINT.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * HINT_UNIT_MS[match[2]![0]!.toLowerCase()]!;
}

export function classifyReply(code: number | undefined, text: string): ReplyClass {
  const rule = REPLY_RULES.find((r) => r.matches(code, text));
  // A code outside 2xx–5xx is a protocol violation: retry rather than lose or bounce the message.
  if (!rule) return { outcome: "temporary", retryAfterMs: retryHint(text) };
  const result: ReplyClass = { outcome: rule.outcome, subType: rule.subType };
  if (rule.outcome === "temporary") result.retryAfterMs = retryHint(text);
  return result;
}
