/**
 * The messages of the MX fuzz target's DATA (mx.test.ts): real-world reports and replies (test/fixtures/inbound:
 * DSNs, ARF, out-of-office…) carrying the return path and Message-ID of a message sent before the run, mutated in
 * their fields (realistic, wrong or hostile values), structure (recipient blocks repeated thousands of times,
 * boundaries broken, containers), bytes, line endings and line lengths; random MIME (mime-gen.ts); and messages over
 * the size limit. DEFINITE_REPORTS are those that, unmutated, bounce or complain: what may change a delivery once.
 */
import { inboundFixture } from "../helpers/inbound-fixtures.ts";
import { forgedReturnPath, validReturnPath } from "./mx-addresses.ts";
import { MAX_MESSAGE_BYTES, type MxWorld, type SentMessage } from "./mx-world.ts";
import { randomMessage, shuffleLines, wellFormedMessage } from "./mime-gen.ts";
import { randomString, type Rng } from "./prng.ts";

/** The report and reply fixtures (test/fixtures/inbound), which carry a real message's return path and Message-ID. */
const FIXTURES = [
  "arf-microsoft",
  "arf-yahoo",
  "challenge-response",
  "exim-nonstandard",
  "gmail-5.2.2",
  "m365-5.1.10",
  "ordinary-reply",
  "out-of-office",
  "postfix-4.4.7-delayed",
  "postfix-5.1.1",
  "ses-5.1.1",
  "undetermined-nonstandard",
];

/** A value one report field (DSN, ARF) may take: realistic, wrong, or hostile. */
function reportField(rng: Rng, name: string, world: MxWorld): string {
  const { sent } = world;
  const returnPath = () => `<${rng.chance(0.5) ? validReturnPath(rng, world) : forgedReturnPath(rng, world)}>`;
  const values: Record<string, () => string> = {
    Status: () =>
      rng.pick([
        "5.1.1",
        "4.4.7",
        "5.0.0",
        "2.0.0",
        "4.2.2",
        "5.7.1",
        "9.9.9",
        "5.1",
        "x.y.z",
        "",
        "5.1.1 5.2.2",
        "55555.1.1",
        "5.1.1\0",
      ]),
    Action: () => rng.pick(["failed", "delayed", "delivered", "relayed", "expanded", "FAILED", "", "bogus"]),
    "Feedback-Type": () => rng.pick(["abuse", "fraud", "not-spam", "virus", "other", "ABUSE", "", "x".repeat(2000)]),
    "Final-Recipient": () =>
      rng.pick([
        "rfc822; someone@dest.test",
        "rfc822;someone@dest.test",
        "rfc822; <someone@dest.test>",
        "rfc822;",
        "",
        "x400; junk",
        "rfc822; other@dest.test",
        `rfc822; ${"a".repeat(3000)}@dest.test`,
      ]),
    "Original-Recipient": () => rng.pick(["rfc822; someone@dest.test", "", "rfc822; \xff@dest.test"]),
    "Diagnostic-Code": () =>
      rng.pick([
        "smtp; 550 5.1.1 User unknown",
        "smtp; 452 4.2.2 Mailbox full",
        "",
        `smtp; ${"x".repeat(5000)}`,
        "x-unknown; \xff\xfe\0",
      ]),
    "Original-Mail-From": returnPath,
    "Return-Path": returnPath,
    "X-Postfix-Sender": () => `rfc822; ${returnPath().slice(1, -1)}`,
    "Message-ID": () =>
      rng.pick([...sent.map((s) => s.messageId), "<not-ours@elsewhere.test>", "", "<>", `<${"m".repeat(2000)}@x>`]),
    "In-Reply-To": () => rng.pick([...sent.map((s) => s.messageId), "<not-ours@elsewhere.test>", ""]),
    "Auto-Submitted": () => rng.pick(["auto-replied", "auto-generated", "no", ""]),
    "Content-Type": () =>
      rng.pick([
        'multipart/report; report-type=delivery-status; boundary="b1"',
        'multipart/report; report-type=feedback-report; boundary="fb1"',
        "multipart/report; report-type=disposition-notification",
        "multipart/report",
        "message/delivery-status",
        "message/feedback-report",
        "message/rfc822",
        "text/plain",
        "text/rfc822-headers",
        "",
        ";;;",
      ]),
  };
  return (values[name] ?? (() => randomString(rng, 80).replace(/[\r\n]/g, "")))();
}

const REPORT_FIELDS = [
  "Status",
  "Action",
  "Feedback-Type",
  "Final-Recipient",
  "Original-Recipient",
  "Diagnostic-Code",
  "Original-Mail-From",
  "Return-Path",
  "X-Postfix-Sender",
  "Message-ID",
  "In-Reply-To",
  "Auto-Submitted",
  "Content-Type",
  "Subject",
  "From",
  "To",
];

/** One mutation of a report: its fields, its structure, its bytes (with `fieldsOnly`, a field's value only). */
function mutateReport(rng: Rng, world: MxWorld, text: string, fieldsOnly = false): string {
  const at = (n: number) => rng.int(Math.max(1, n));
  switch (fieldsOnly ? 0 : rng.int(13)) {
    case 0:
    case 1:
    case 2: {
      // A field's value, in one occurrence or all.
      const name = rng.pick(REPORT_FIELDS);
      const field = new RegExp(`^${name}:[^\\r\\n]*`, "gim");
      const all = rng.chance(0.3);
      let n = 0;
      const which = rng.int(4);
      const replaced = text.replace(field, (match) =>
        all || n++ === which ? `${name}: ${reportField(rng, name, world)}` : match,
      );
      return replaced === text && rng.chance(0.5) ? `${name}: ${reportField(rng, name, world)}\r\n${text}` : replaced;
    }
    case 3:
      return shuffleLines(rng, text);
    case 4:
      // Truncated anywhere.
      return text.slice(0, at(text.length));
    case 5: {
      // Many recipients: the per-recipient block repeated.
      const block = /\r?\n\r?\n((?:Original-Recipient:[^\n]*\n)?Final-Recipient:[\s\S]*?)(?=\r?\n\r?\n|\r?\n--)/i.exec(
        text,
      )?.[1];
      if (!block)
        return `${text}\r\n${"Final-Recipient: rfc822; x@dest.test\r\nStatus: 5.1.1\r\n".repeat(rng.pick([2, 100]))}`;
      const copies = Array.from({ length: rng.pick([2, 10, 500, 3000]) }, () => block).join("\r\n\r\n");
      return text.replace(block, () => copies);
    }
    case 6:
      // Boundaries: the closing delimiter dropped, a declared boundary that never appears, one nested in itself.
      return rng.pick([
        () => text.replace(/--([\w-]+)--/g, "--$1"),
        () => text.replace(/boundary="?([\w-]+)"?/i, 'boundary="nowhere"'),
        () => text.replace(/(--([\w-]+)\r?\n)/, '$1Content-Type: multipart/mixed; boundary="$2"\r\n\r\n$1'),
      ])();
    case 7:
      // The returned message replaced by random MIME, or the report wrapped in containers.
      return rng.chance(0.5)
        ? text.replace(
            /(Content-Type: message\/rfc822[^\n]*\n(?:[^\n]+\n)*\r?\n)[\s\S]*?(?=\r?\n--)/i,
            (_m, head: string) => head + randomMessage(rng).toString("latin1"),
          )
        : `Content-Type: ${rng.pick(["message/rfc822", "multipart/mixed; boundary=w"])}\r\n\r\n${rng.chance(0.5) ? "--w\r\n" : ""}${text}`;
    case 8: {
      // Flip or insert bytes.
      const chars = [...text];
      for (let i = rng.range(1, 8); i > 0 && chars.length; i--)
        chars[at(chars.length)] = String.fromCharCode(rng.int(256));
      const pos = at(chars.length);
      chars.splice(
        pos,
        0,
        rng.pick(["\0", "\xff", "\r", "\n", "\r\n\r\n", "\r\n.\r\n", "\r\n..\r\n", "=\r\n", "\x1b$B"]),
      );
      return chars.join("");
    }
    case 9:
      // Line endings: all CRLF, all bare LF, all bare CR, or mixed.
      return rng.pick([
        text.replace(/\r?\n/g, "\r\n"),
        text.replace(/\r\n/g, "\n"),
        text.replace(/\r?\n/g, "\r"),
        text.replace(/\r?\n/g, () => (rng.chance(0.5) ? "\n" : "\r\n")),
      ]);
    case 10:
      // A very long line or header.
      return rng.pick([
        `X-Long: ${"h".repeat(rng.pick([1000, 70_000]))}\r\n${text}`,
        `${text}\r\n${"x".repeat(rng.pick([1000, 70_000]))}\r\n`,
      ]);
    case 11: {
      // The first body line names the failed address, with a huge local part or domain (what report readers scan).
      const blank = /\r?\n\r?\n/.exec(text);
      const body = blank ? blank.index + blank[0].length : text.length;
      // 100 000 octets: long enough to show a quadratic scan (seconds), short enough not to stall the run for long.
      const long = "d".repeat(rng.pick([1000, 100_000]));
      const address = rng.pick([`someone@${long}`, `${long}@dest.test`, `someone@dest.test${long}`]);
      return `${text.slice(0, body)}<${address}>: host said: 550 5.1.1 user unknown\r\n${text.slice(body)}`;
    }
    default:
      // Encoded words and 8-bit text in the headers.
      return `Subject: ${rng.pick(["=?utf-8?B?@@@?=", "=?x-bogus?Q?a=ZZ?=", "=?utf-8?Q?", "R\xe9sum\xe9 \xff", `=?utf-8?B?${"QUFB".repeat(2000)}?=`])}\r\n${text}`;
  }
}

/** Fixtures whose report, unmutated, bounces (Permanent) or complains: what may change a delivery only once. */
export const DEFINITE_REPORTS = [
  "arf-microsoft",
  "arf-yahoo",
  "gmail-5.2.2",
  "m365-5.1.10",
  "postfix-5.1.1",
  "ses-5.1.1",
  "exim-nonstandard",
];

/** A real-world report about `about`, carrying `returnPath`, mutated a few times (with `steady`, seldom: one field). */
export function reportMessage(
  rng: Rng,
  world: MxWorld,
  about: SentMessage,
  returnPath: string,
  fixtures = FIXTURES,
  steady = false,
): Buffer {
  const fixture = rng.pick(fixtures);
  const messageId =
    steady || rng.chance(0.85)
      ? about.messageId
      : rng.pick(["<not-ours@elsewhere.test>", rng.pick(world.sent).messageId]);
  let text = inboundFixture(fixture, { returnPath, messageId });
  if (rng.chance(0.8)) text = text.replace(/\r?\n/g, "\r\n");
  const mutations = steady
    ? rng.weighted([
        [4, 0],
        [1, 1],
      ])
    : rng.weighted([
        [3, 0],
        [4, 1],
        [2, 2],
        [1, 4],
      ]);
  for (let i = 0; i < mutations; i++) text = mutateReport(rng, world, text, steady);
  return Buffer.from(text, "latin1");
}

/** For a random session's DATA: random MIME, a report, or an oversized message. */
export function messageFor(rng: Rng, world: MxWorld): { message: Buffer; oversized: boolean } {
  if (rng.chance(0.04)) return { message: oversizedMessage(), oversized: true };
  if (rng.chance(0.4)) {
    const about = rng.pick(world.sent);
    return {
      message: reportMessage(rng, world, about, rng.chance(0.7) ? about.returnPath : forgedReturnPath(rng, world)),
      oversized: false,
    };
  }
  return { message: randomMessage(rng), oversized: false };
}

export function oversizedMessage(): Buffer {
  return Buffer.from(wellFormedMessage("too big") + "x".repeat(MAX_MESSAGE_BYTES + 10), "latin1");
}
