/**
 * Random MIME messages for the MIME and SMTP fuzz targets: a few realistic seeds written inline, and mutations of
 * their bytes, lines, headers, boundaries, transfer encodings and nesting. Everything is latin1 so one character
 * is one byte and 8-bit bytes survive.
 */
import { randomString, type Rng } from "./prng.ts";

const CRLF = "\r\n";

/** Realistic starting points (what mail clients, libraries and bounce generators send). */
export const SEED_MESSAGES: readonly string[] = [
  // Plain text, the minimum a library sends.
  [
    "From: Acme <hi@example.com>",
    "To: a@dest.test",
    "Subject: Hello",
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Hello there.",
    "",
  ].join(CRLF),
  // Alternative text and HTML, quoted-printable, encoded-word subject, folded To with a group.
  [
    "From: =?utf-8?B?QWNtw6k=?= <hi@example.com>",
    "Sender: Mailer <bulk@example.com>",
    'To: Team: a@dest.test, "B, Jr." <b@dest.test>;,',
    "\tc@dest.test",
    "Cc: d@dest.test",
    "Bcc: secret@dest.test",
    "Subject: =?utf-8?Q?Caf=C3=A9_=E2=82=AC?= order",
    "Message-ID: <abc.123@client.test>",
    "Date: Sun, 22 Nov 2026 10:00:00 +0000",
    "MIME-Version: 1.0",
    'Content-Type: multipart/alternative; boundary="alt-b1"',
    "",
    "--alt-b1",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: quoted-printable",
    "",
    "Caf=C3=A9 costs 3 =E2=82=AC. A long line that is soft-broken=",
    " here.",
    "--alt-b1",
    "Content-Type: text/html; charset=utf-8",
    "Content-Transfer-Encoding: quoted-printable",
    "",
    '<p>Caf=C3=A9 <a href=3D"https://example.com/x?a=3D1">link</a></p>',
    "--alt-b1--",
    "",
  ].join(CRLF),
  // Mixed with related inline image and an attachment with an RFC 2231 file name.
  [
    "From: hi@example.com",
    "To: a@dest.test",
    "Subject: Invoice",
    "Idempotency-Key: order-77",
    "MIME-Version: 1.0",
    'Content-Type: multipart/mixed; boundary="mix"',
    "",
    "preamble",
    "--mix",
    'Content-Type: multipart/related; boundary="rel"; type="text/html"',
    "",
    "--rel",
    "Content-Type: text/html; charset=iso-8859-1",
    "Content-Transfer-Encoding: 8bit",
    "",
    '<p>Gr\xfc\xdfe <img src="cid:logo@x"></p>',
    "--rel",
    "Content-Type: image/gif",
    "Content-ID: <logo@x>",
    "Content-Transfer-Encoding: base64",
    "",
    "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7",
    "--rel--",
    "--mix",
    'Content-Type: application/pdf; name="inv.pdf"',
    "Content-Disposition: attachment; filename*=utf-8''r%C3%A9sum%C3%A9.pdf",
    "Content-Transfer-Encoding: base64",
    "",
    "JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoKPDwvTGVuZ3RoIDMgMCBSL0ZpbHRlci9GbGF0ZURlY29kZT4+",
    "--mix--",
    "epilogue",
    "",
  ].join(CRLF),
  // A bounce report with an attached message (message/rfc822 nesting) and bare LF line ends.
  [
    "From: MAILER-DAEMON@example.com",
    "To: hi@example.com",
    "Subject: Undelivered Mail Returned to Sender",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="r1"',
    "",
    "--r1",
    "Content-Type: text/plain",
    "",
    "Your message could not be delivered.",
    "--r1",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.example.com",
    "",
    "Final-Recipient: rfc822; gone@dest.test",
    "Action: failed",
    "Status: 5.1.1",
    "--r1",
    "Content-Type: message/rfc822",
    "",
    "From: hi@example.com",
    "To: gone@dest.test",
    "Subject: original",
    "",
    "Original body.",
    "--r1--",
    "",
  ].join("\n"),
  // 8-bit headers without encoding, long folded header, headers only (no body).
  [
    "From: Jos\xe9 P\xe9rez <hi@example.com>",
    "To: a@dest.test",
    "Subject: R\xe9sum\xe9",
    `X-Long: ${Array.from({ length: 30 }, (_, i) => `word${i}`).join(`${CRLF} `)}`,
    "Reply-To: reply@example.com",
  ].join(CRLF),
];

const FROM_VALUES = [
  "hi@example.com",
  "Acme <hi@example.com>",
  "a@example.com, b@example.com",
  "Group: hi@example.com;",
  "undisclosed-recipients:;",
  "<>",
  "hi@",
  "@example.com",
  '"hi@example.com"',
  `=?utf-8?B?${Buffer.from("Évil <x@evil.test>").toString("base64")}?= <hi@example.com>`,
  "hi@example.com (comment (nested))",
  "hi@unverified.example",
  "hi@EXAMPLE.COM",
  "hi@xn--bcher-kva.example",
  "h\xefi@example.com",
  `${"a".repeat(70)}@example.com`,
  `hi@${"x".repeat(300)}.com`,
  "",
];

const CONTENT_TYPES = [
  "text/plain",
  "text/html; charset=utf-8",
  "text/plain; charset=x-unknown-charset",
  "text/plain; charset=utf-7",
  "text/plain; charset=iso-2022-jp",
  'text/plain; charset="',
  "multipart/mixed",
  "multipart/mixed; boundary=",
  'multipart/mixed; boundary=""',
  "multipart/alternative; boundary=alt-b1",
  'multipart/mixed; boundary="a b c"',
  `multipart/mixed; boundary=${"b".repeat(500)}`,
  "message/rfc822",
  'message/partial; id="x"; number=2; total=3',
  "application/octet-stream; name*0*=utf-8''a%E0%A4; name*1=b",
  "/",
  ";;;",
  "text/",
  "TEXT/HTML; CHARSET=UTF-8",
];

const TRANSFER_ENCODINGS = [
  "base64",
  "quoted-printable",
  "7bit",
  "8bit",
  "binary",
  "x-uuencode",
  "BASE64",
  "bogus",
  "",
];

/** Base64 and QP bodies that are almost right. */
function encodedBody(rng: Rng): string {
  switch (rng.int(5)) {
    case 0:
      return Buffer.from(rng.bytes(rng.length(600)))
        .toString("base64")
        .replace(/.{76}/g, `$&${CRLF}`);
    case 1:
      return `SGVsbG8=${rng.pick(["!!!", "=", "==", "===", "\x00", "SGVs", "\xff\xfe"])}bG8`;
    case 2:
      return `Soft=\r\nbreak=ZZ=4=\r\n=E2=82${rng.pick(["", "=", "=\r\n", "=A"])}`;
    case 3:
      return "begin 644 file.txt\r\n#0V%T\r\n`\r\nend\r\n";
    default:
      return randomString(rng, 200);
  }
}

function latin1(rng: Rng, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += String.fromCharCode(rng.int(256));
  return s;
}

/** Wraps `inner` into `depth` levels of multipart (or message/rfc822) containers. */
function nest(rng: Rng, inner: string, depth: number): string {
  let message = inner;
  for (let level = 0; level < depth; level++) {
    if (rng.chance(0.3)) {
      message = `Content-Type: message/rfc822${CRLF}${CRLF}${message}`;
    } else {
      const boundary = rng.chance(0.9) ? `n${level}` : "n";
      message = `Content-Type: multipart/mixed; boundary="${boundary}"${CRLF}${CRLF}--${boundary}${CRLF}${message}${CRLF}--${boundary}--${CRLF}`;
    }
  }
  return `From: hi@example.com${CRLF}To: a@dest.test${CRLF}Subject: nested ${depth}${CRLF}MIME-Version: 1.0${CRLF}${message}`;
}

function headerBlock(text: string): { header: string; body: string; eol: string } {
  const crlf = text.indexOf("\r\n\r\n");
  const lf = text.indexOf("\n\n");
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { header: text.slice(0, crlf), body: text.slice(crlf + 4), eol: CRLF };
  if (lf >= 0) return { header: text.slice(0, lf), body: text.slice(lf + 2), eol: "\n" };
  return { header: text, body: "", eol: CRLF };
}

/** One mutation, chosen at random, applied to a latin1 message. */
function mutate(rng: Rng, text: string): string {
  const lines = text.split(/(?<=\n)/);
  const at = (n: number) => rng.int(Math.max(1, n));
  switch (rng.int(16)) {
    case 0: {
      // Flip bytes.
      const chars = [...text];
      for (let i = rng.range(1, 8); i > 0 && chars.length; i--)
        chars[at(chars.length)] = String.fromCharCode(rng.int(256));
      return chars.join("");
    }
    case 1: {
      // Insert special bytes.
      const pos = at(text.length);
      return (
        text.slice(0, pos) +
        rng.pick([
          "\0",
          "\xff",
          "\r",
          "\n",
          "\r\n\r\n",
          " \r\n",
          "\t\r\n",
          "\r\n.\r\n",
          "\r\n..\r\n",
          "--",
          "=\r\n",
          "\x1b$B",
        ]) +
        text.slice(pos)
      );
    }
    case 2: {
      // Delete a range.
      const pos = at(text.length);
      return text.slice(0, pos) + text.slice(pos + rng.length(200));
    }
    case 3: {
      // Duplicate a range.
      const pos = at(text.length);
      const piece = text.slice(pos, pos + rng.length(200));
      return text.slice(0, pos) + piece.repeat(rng.range(2, 20)) + text.slice(pos);
    }
    case 4:
      return shuffleLines(rng, text);
    case 5:
      // Line endings: all bare LF, all bare CR, or mixed.
      return rng.pick([
        text.replace(/\r\n/g, "\n"),
        text.replace(/\r?\n/g, "\r"),
        text.replace(/\r?\n/g, () => (rng.chance(0.5) ? "\n" : "\r\n")),
      ]);
    case 6: {
      // A whitespace-only continuation line inside the header.
      const { header, body, eol } = headerBlock(text);
      const hl = header.split(eol);
      hl.splice(rng.range(1, hl.length), 0, rng.pick([" ", "\t", "  \t ", " \u00a0"]));
      return hl.join(eol) + eol + eol + body;
    }
    case 7: {
      // Replace or add a From (or Sender) header; adding one makes two.
      const { header, body, eol } = headerBlock(text);
      const field = rng.chance(0.8) ? "From" : "Sender";
      const value = rng.chance(0.8) ? rng.pick(FROM_VALUES) : randomString(rng, 80).replace(/[\r\n]/g, "");
      const existing = new RegExp(`^${field}:.*$`, "im");
      const replaced =
        existing.test(header) && rng.chance(0.6)
          ? header.replace(existing, `${field}: ${value}`)
          : `${field}: ${value}${eol}${header}`;
      return replaced + eol + eol + body;
    }
    case 8: {
      // Content-Type and Content-Transfer-Encoding of some part.
      const header = rng.chance(0.5)
        ? `Content-Type: ${rng.pick(CONTENT_TYPES)}`
        : `Content-Transfer-Encoding: ${rng.pick(TRANSFER_ENCODINGS)}`;
      const i = at(lines.length);
      lines.splice(i, 0, header + CRLF);
      return lines.join("");
    }
    case 9:
      // Break boundaries: drop the closing delimiter, or make one a prefix of another.
      return rng.chance(0.5)
        ? text.replace(/--([\w-]+)--/g, "--$1")
        : text.replace(/boundary="?([\w-]+)"?/i, 'boundary="$1"').replace(/--([\w-]+)\r?\n/, "--$1-x\r\n--$1\r\n");
    case 10:
      // An encoded body, nearly valid.
      return text + CRLF + encodedBody(rng);
    case 11: {
      // A very long line (header or body).
      const pos = at(text.length);
      return (
        text.slice(0, pos) +
        rng.pick(["X-Long: ", "", "Subject: "]) +
        "x".repeat(rng.pick([1000, 5000, 70_000])) +
        CRLF +
        text.slice(pos)
      );
    }
    case 12:
      // Deep nesting.
      return nest(rng, text, rng.pick([2, 10, 50, 200, rng.range(1, 400)]));
    case 13: {
      // Many headers, a huge header, or many parts.
      if (rng.chance(0.1)) return `X-Big: ${"h".repeat(rng.pick([70_000, 1_100_000]))}${CRLF}${text}`;
      if (rng.chance(0.1))
        return `X-Folded: ${`${"h".repeat(900)}${CRLF} `.repeat(rng.pick([100, 1200]))}x${CRLF}${text}`;
      if (rng.chance(0.5))
        return Array.from({ length: rng.pick([100, 1000, 5000]) }, (_, i) => `X-H${i}: v`).join(CRLF) + CRLF + text;
      const n = rng.pick([50, 500, 2000]);
      const parts = Array.from(
        { length: n },
        (_, i) => `--m${CRLF}Content-Type: text/plain${CRLF}${CRLF}part ${i}${CRLF}`,
      ).join("");
      return `From: hi@example.com${CRLF}Content-Type: multipart/mixed; boundary=m${CRLF}${CRLF}${parts}--m--${CRLF}`;
    }
    case 14: {
      // Encoded words and RFC 2231 parameters, malformed.
      const word = rng.pick([
        "=?utf-8?B?@@@?=",
        "=?x-bogus?Q?a=ZZ?=",
        "=?utf-8?Q?",
        "=??B?SGk=?=",
        "=?utf-8*en?Q?hi?=",
        "=?iso-2022-jp?B?GyRCJCIbKEI=?=",
        `=?utf-8?B?${"QUFB".repeat(2000)}?=`,
      ]);
      const { header, body, eol } = headerBlock(text);
      return `${header}${eol}${rng.pick(["Subject", "From", "To", "Content-Type", "Content-Disposition"])}: ${word}${rng.chance(0.5) ? "; filename*0*=utf-8''%E0%A4%A; filename*1=x" : ""}${eol}${eol}${body}`;
    }
    default:
      // 8-bit noise.
      return text + latin1(rng, rng.length(300));
  }
}

/** A random message: a seed, a synthetic one or noise, then a few mutations. */
export function randomMessage(rng: Rng): Buffer {
  let text: string;
  const start = rng.int(10);
  if (start < 7) text = rng.pick(SEED_MESSAGES);
  else if (start < 9) text = nest(rng, `Content-Type: text/plain${CRLF}${CRLF}hello${CRLF}`, rng.range(0, 5));
  else text = latin1(rng, rng.length(400));
  const mutations = rng.weighted([
    [2, 0],
    [4, 1],
    [3, 2],
    [2, 4],
    [1, 8],
  ]);
  for (let i = 0; i < mutations; i++) text = mutate(rng, text);
  return Buffer.from(text, "latin1");
}

/** A well-formed message that the relay must accept (after the fuzzing, to show it still works). */
export function wellFormedMessage(subject = "after the fuzzing"): string {
  return ["From: hi@example.com", "To: a@dest.test", `Subject: ${subject}`, "", "Still working.", ""].join(CRLF);
}

/** Removes, duplicates or swaps lines of `text` (line endings kept with their lines). */
export function shuffleLines(rng: Rng, text: string): string {
  const lines = text.split(/(?<=\n)/);
  const i = rng.int(Math.max(1, lines.length));
  const j = rng.int(Math.max(1, lines.length));
  const op = rng.int(3);
  if (op === 0) lines.splice(i, 1);
  else if (op === 1) lines.splice(i, 0, lines[i] ?? "");
  else [lines[i], lines[j]] = [lines[j] ?? "", lines[i] ?? ""];
  return lines.join("");
}
