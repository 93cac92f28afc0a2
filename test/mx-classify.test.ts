/**
 * The reply-classification rules table (src/providers/classify.ts), one test per rule: each example reply must be
 * decided by the rule named, with the outcome and bounce sub-type shown. A rule without an example fails.
 */
import { describe, expect, test } from "bun:test";
import { classifyReply, REPLY_RULES } from "../src/providers/classify.ts";

const EXAMPLES: Array<{
  rule: string;
  code: number | undefined;
  text: string;
  outcome: string;
  subType?: string;
  retryAfterMs?: number;
}> = [
  {
    rule: "no reply (network fault or timeout)",
    code: undefined,
    text: "ETIMEDOUT Connection timed out",
    outcome: "temporary",
  },
  { rule: "2xx accepted", code: 250, text: "250 2.0.0 OK 1700000000 queued", outcome: "accepted" },
  {
    rule: "mailbox full",
    code: 552,
    text: "552 5.2.2 The email account that you tried to reach is over quota",
    outcome: "temporary",
    subType: "MailboxFull",
  },
  {
    rule: "greylisting",
    code: 450,
    text: "450 4.2.0 <a@dest.test>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/",
    outcome: "temporary",
  },
  {
    rule: "sending IP or reputation block",
    code: 554,
    text: "554 5.7.1 Service unavailable; Client host [203.0.113.5] blocked using zen.spamhaus.org",
    outcome: "temporary",
    subType: "PolicyRejected",
  },
  { rule: "TLS required", code: 530, text: "530 5.7.0 Must issue a STARTTLS command first", outcome: "temporary" },
  {
    rule: "4xx temporary",
    code: 421,
    text: "421 4.3.2 Service shutting down, try again in 10 minutes",
    outcome: "temporary",
    retryAfterMs: 600_000,
  },
  {
    rule: "null MX",
    code: 556,
    text: "556 5.1.10 Recipient address has null MX",
    outcome: "permanent",
    subType: "NoEmail",
  },
  {
    rule: "unknown user",
    code: 550,
    text: "550 5.1.1 The email account that you tried to reach does not exist",
    outcome: "permanent",
    subType: "NoEmail",
  },
  {
    rule: "mailbox disabled",
    code: 550,
    text: "550 5.2.1 The email account that you tried to reach is disabled",
    outcome: "permanent",
    subType: "NoEmail",
  },
  {
    rule: "message too large",
    code: 552,
    text: "552 5.3.4 Message size exceeds fixed maximum message size",
    outcome: "permanent",
    subType: "MessageTooLarge",
  },
  {
    rule: "content rejected",
    code: 554,
    text: "554 5.7.1 Message rejected as spam by Content Filtering",
    outcome: "permanent",
    subType: "ContentRejected",
  },
  {
    rule: "policy block",
    code: 550,
    text: "550 5.7.1 Relaying denied",
    outcome: "permanent",
    subType: "PolicyRejected",
  },
  { rule: "5xx permanent", code: 554, text: "554 Transaction failed", outcome: "permanent", subType: "General" },
];

const decidingRule = (code: number | undefined, text: string) =>
  REPLY_RULES.find((rule) => rule.matches(code, text))?.name;

describe("reply classification", () => {
  for (const example of EXAMPLES) {
    test(`${example.rule}: "${example.text}" → ${example.outcome}${example.subType ? ` (${example.subType})` : ""}`, () => {
      expect(decidingRule(example.code, example.text)).toBe(example.rule);
      const verdict = classifyReply(example.code, example.text);
      expect(verdict.outcome).toBe(example.outcome as never);
      expect(verdict.subType).toBe(example.subType as never);
      if (example.retryAfterMs !== undefined) expect(verdict.retryAfterMs).toBe(example.retryAfterMs);
    });
  }

  test("every rule of the table has an example", () => {
    const covered = new Set(EXAMPLES.map((e) => e.rule));
    expect(REPLY_RULES.map((rule) => rule.name).filter((name) => !covered.has(name))).toEqual([]);
  });

  test("a reply code outside 2xx-5xx is retried, never bounced", () => {
    expect(classifyReply(650, "650 what").outcome).toBe("temporary");
  });
});
