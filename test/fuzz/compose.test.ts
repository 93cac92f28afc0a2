/**
 * Fuzzes the common shape's writer (src/emails/compose.ts `writeCommonShape`: text and html, no attachments)
 * against nodemailer's MailComposer, the reference it replaces: for generated fields — subjects and bodies of any
 * characters, long lines, every kind of line break, non-Latin scripts, custom headers, Cc and Reply-To, one-click
 * unsubscribe, plain-text messages — mailparser reads both messages the same (subject, addresses, Message-ID, Date,
 * text, html, every header), and the written message keeps MIME's rules: CRLF
 * line ends only, no line over 998 bytes, no Bcc header.
 *
 * Budget: FUZZ_SECONDS (default 2). Replay: FUZZ_SEED=<seed printed in a failure>, one case: FUZZ_CASE=<i>.
 */
import { expect, test } from "bun:test";
import { simpleParser, type ParsedMail } from "mailparser";
import { composeMessage, composeRequest } from "../../src/emails/compose.ts";
import { fuzzSeconds, fuzzSeed, fuzzTimeoutMs, randomString, runCases, Violations, type Rng } from "./prng.ts";

const SEED = fuzzSeed();
const SECONDS = fuzzSeconds(2);

/** A body: words and lines of any script, line breaks of every kind, now and then a line far over 76 characters. */
function randomBody(rng: Rng): string {
  const lines: string[] = [];
  const count = rng.range(0, 12);
  for (let i = 0; i < count; i++) {
    const line = rng.weighted<() => string>([
      [4, () => randomString(rng, 80)],
      [2, () => "Grüße aus Köln — ".repeat(rng.range(1, 8))],
      [1, () => "日本語のテキスト".repeat(rng.range(1, 30))],
      [1, () => "x".repeat(rng.range(70, 1200))],
      [1, () => ". leading dot, From me, trailing spaces   "],
      [1, () => '<p>Hello <a href="https://example.com/?a=1&b=2">link</a></p>'],
    ])();
    lines.push(line, rng.pick(["\r\n", "\n", "\r", "\n\n"]));
  }
  return lines.join("");
}

const HEADER_NAMES = ["X-Campaign", "X-Entity-Ref-ID", "In-Reply-To", "X-Priority", "Keywords"];

function randomFields(rng: Rng) {
  const mailbox = () => ({
    name: rng.chance(0.5) ? randomString(rng, 30) : "",
    address: `${rng.uuid().slice(0, 8)}@dest.test`,
  });
  const html = rng.chance(0.2) ? null : randomBody(rng);
  return {
    from: { name: rng.chance(0.7) ? randomString(rng, 30) : "", address: "hi@example.com" },
    to: Array.from({ length: rng.range(1, 3) }, mailbox),
    cc: rng.chance(0.3) ? [mailbox()] : [],
    bcc: rng.chance(0.3) ? [mailbox()] : [],
    replyTo: rng.chance(0.3) ? [mailbox()] : [],
    subject: rng.chance(0.2) ? "" : randomString(rng, 120),
    html,
    text: html === null || rng.chance(0.5) ? randomBody(rng) : undefined,
    headers: rng.chance(0.5)
      ? [[rng.pick(HEADER_NAMES), randomString(rng, 100)] as [string, string]].filter(([, v]) => v.trim() !== "")
      : [],
    attachments: [],
    tags: [],
  };
}

/**
 * The fields with each line break of the bodies written CRLF. MailComposer keeps a lone CR or LF as it is, which
 * RFC 5322 forbids outside CRLF, and mailparser then reads some of them apart (CR CR LF as one break); the writer
 * turns each into CRLF, so it is compared with MailComposer given the same.
 */
const withCrlf = <F extends { html: string | null; text?: string }>(fields: F): F => ({
  ...fields,
  html: fields.html?.replace(/\r\n|\r|\n/g, "\r\n") ?? null,
  text: fields.text?.replace(/\r\n|\r|\n/g, "\r\n"),
});

/** What a reader sees of a message: the parsed fields and every header but the multipart's own. */
function reading(mail: ParsedMail) {
  const headers = [...mail.headers]
    .filter(([name]) => !["content-type", "content-transfer-encoding", "mime-version"].includes(name))
    .map(([name, value]) => [name, JSON.stringify(value)]);
  return {
    subject: mail.subject,
    from: mail.from?.text,
    to: JSON.stringify(mail.to),
    cc: JSON.stringify(mail.cc),
    replyTo: mail.replyTo?.text,
    messageId: mail.messageId,
    date: mail.date?.toISOString(),
    text: mail.text,
    html: mail.html,
    headers,
  };
}

test(
  "fuzz compose: the common shape reads as MailComposer's message and keeps MIME's line rules",
  async () => {
    const v = new Violations("compose-common-shape", SEED);
    const cases = await runCases(
      "compose-common-shape",
      SEED,
      4,
      async (rng, index) => {
        const fields = randomFields(rng);
        const id = rng.uuid();
        const date = Date.now();
        const unsubscribeUrl = rng.chance(0.3) ? "https://mail.example.com/u/abc_DEF-123" : undefined;
        const [written, reference] = await Promise.all([
          composeMessage(composeRequest(id, fields, date, { unsubscribeUrl })),
          composeMessage(composeRequest(id, withCrlf(fields), date, { unsubscribeUrl }), "mail-composer"),
        ]);
        const raw = written.raw.toString("utf8");
        if (/\r(?!\n)|(?<!\r)\n/.test(raw)) v.add("every line ends CRLF", index, fields, raw);
        const long = raw.split("\r\n").find((line) => Buffer.byteLength(line) > 998);
        if (long) v.add("no line over 998 bytes", index, fields, long);
        if (/^bcc:/im.test(raw.slice(0, raw.indexOf("\r\n\r\n")))) v.add("no Bcc", index, fields, raw);
        const [mine, theirs] = await Promise.all([simpleParser(written.raw), simpleParser(reference.raw)]);
        const [a, b] = [reading(mine), reading(theirs)];
        for (const key of Object.keys(a) as Array<keyof typeof a>)
          if (JSON.stringify(a[key]) !== JSON.stringify(b[key]))
            v.add(`${key} reads the same`, index, fields, { written: a[key], mailComposer: b[key] });
      },
      SECONDS,
    );
    console.log(`fuzz compose-common-shape: ${cases} cases`);
    expect(cases).toBeGreaterThan(0);
    expect(v.count, v.report()).toBe(0);
  },
  fuzzTimeoutMs(2) + 10_000,
);
