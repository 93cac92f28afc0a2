/**
 * What each received report means, one fixture per line: delivery status notifications as Postfix, Gmail,
 * Microsoft 365 and Amazon SES send them (RFC 3464), feedback reports from Yahoo- and Microsoft-style loops
 * (RFC 5965), an out-of-office and a challenge-response (RFC 3834), bounces without a delivery-status part, and an
 * ordinary reply. The fixtures are written from the RFCs and the providers' published formats.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseFieldBlocks, parseReceived, readInboundReport } from "../src/inbound/reports.ts";

const report = async (raw: Buffer) => readInboundReport(await parseReceived(raw), raw);

const fixture = (name: string) => readFileSync(join(import.meta.dir, "fixtures", "inbound", `${name}.eml`));
const ORIGINAL = "<0190f3a2-b4c5-7d8e-9f0a-1b2c3d4e5f60@example.com>";
const bounce = (outcome: string, status: string | null, subType: string, standard = true) => ({
  kind: "bounce",
  standard,
  recipients: [expect.objectContaining({ recipient: "someone@dest.test", outcome, status, subType })],
});

const EXPECTED: Array<[fixture: string, report: Record<string, unknown>]> = [
  ["postfix-5.1.1", { ...bounce("permanent", "5.1.1", "NoEmail"), originalMessageId: ORIGINAL }],
  ["gmail-5.2.2", { ...bounce("permanent", "5.2.2", "MailboxFull"), originalMessageId: ORIGINAL }],
  ["m365-5.1.10", { ...bounce("permanent", "5.1.10", "NoEmail"), originalMessageId: ORIGINAL }],
  ["ses-5.1.1", { ...bounce("permanent", "5.1.1", "NoEmail"), originalMessageId: ORIGINAL }],
  ["postfix-4.4.7-delayed", { ...bounce("temporary", "4.4.7", "General"), originalMessageId: ORIGINAL }],
  [
    "arf-yahoo",
    {
      kind: "complaint",
      feedbackType: "abuse",
      recipient: "someone@dest.test",
      originalMailFrom: "bounces+0190f3a2b4c57d8e9f0a1b2c3d4e5f60-abcdefghijklmnop@bounces.example.com",
      originalMessageId: ORIGINAL,
    },
  ],
  [
    "arf-microsoft",
    {
      kind: "complaint",
      feedbackType: "abuse",
      recipient: "someone@dest.test",
      originalMailFrom: null,
      originalMessageId: ORIGINAL,
    },
  ],
  ["out-of-office", { kind: "auto_reply", challenge: false, inReplyTo: ORIGINAL }],
  ["challenge-response", { kind: "auto_reply", challenge: true, inReplyTo: null }],
  ["exim-nonstandard", { ...bounce("permanent", "5.1.1", "NoEmail", false), originalMessageId: ORIGINAL }],
  [
    "undetermined-nonstandard",
    {
      kind: "bounce",
      standard: false,
      recipients: [expect.objectContaining({ outcome: "undetermined", subType: "Undetermined" })],
    },
  ],
  ["ordinary-reply", { kind: "message" }],
];

describe("received reports", () => {
  test.each(EXPECTED)("%s", async (name, expected) => {
    expect(await report(fixture(name))).toMatchObject(expected);
  });

  test("a DSN's recipient blocks are read unfolded, and the per-message block is not a recipient", () => {
    const blocks = parseFieldBlocks(
      "Reporting-MTA: dns; mx\r\n\r\nFinal-Recipient: rfc822; a@b.test\r\nDiagnostic-Code: smtp; 550 5.1.1\r\n  user unknown\r\nStatus: 5.1.1\r\n",
    );
    expect(blocks).toHaveLength(2);
    expect(blocks[1]!.get("diagnostic-code")).toBe("smtp; 550 5.1.1 user unknown");
  });

  test("malformed input is an ordinary message, not a report, and does not throw", async () => {
    for (const raw of [
      "",
      "\0\0\0",
      "Content-Type: multipart/report; boundary=x\n\n--x\nContent-Type: message/delivery-status\n\n\n--x--",
      "From: \u00ff\u00fe\n\nbody",
    ]) {
      const read = await report(Buffer.from(raw, "latin1"));
      expect(["message", "bounce"]).toContain(read.kind);
      if (read.kind === "bounce") expect(read.recipients.every((r) => r.outcome !== "permanent")).toBe(true);
    }
  });
});
