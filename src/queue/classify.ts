/**
 * Classification of remote SMTP replies into delivery outcomes: a rules table checked in order, first match
 * wins, one test per rule. Invariant: a reply without a code (connection fault, timeout) is always temporary —
 * only a definite 5xx from the remote side bounces a message.
 */

export type BounceSubType = "General" | "NoEmail" | "MailboxFull" | "MessageTooLarge" | "ContentRejected" | "PolicyRejected";

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
  { name: "mailbox full", matches: (code, text) => code! >= 400 && /\b[45]\.2\.2\b|mailbox (is )?full|over ?quota|quota exceeded/i.test(text), outcome: "temporary", subType: "MailboxFull" },
  { name: "4xx temporary", matches: (code) => code! >= 400 && code! < 500, outcome: "temporary" },
  { name: "unknown user", matches: (code, text) => code! >= 500 && (/\b5\.1\.[0-3]\b/.test(text) || /user unknown|no such user|mailbox unavailable|does not exist|unknown recipient/i.test(text)), outcome: "permanent", subType: "NoEmail" },
  { name: "message too large", matches: (code, text) => code === 552 || (code! >= 500 && /\b5\.3\.4\b/.test(text)), outcome: "permanent", subType: "MessageTooLarge" },
  { name: "content rejected", matches: (code, text) => code! >= 500 && (/\b5\.7\.(?:7|13|26)\b/.test(text) || /spam|content|virus/i.test(text)), outcome: "permanent", subType: "ContentRejected" },
  { name: "policy block", matches: (code, text) => code! >= 500 && /\b5\.7\.\d{1,3}\b/.test(text), outcome: "permanent", subType: "PolicyRejected" },
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
