/**
 * Fuzzes the inbound MX over real loopback sockets (unauthenticated sessions, STARTTLS on the same port): random
 * command sequences — EHLO/HELO, MAIL FROM with odd addresses and parameters (SIZE among them), RCPT TO mixing
 * receiving addresses (two organisations, one IDN domain), verified and forged return paths, unknown and
 * receiving-off domains and malformed addresses, RSET, NOOP, VRFY, AUTH attempts, STARTTLS, QUIT, garbage, long
 * lines, NUL bytes, bare LF, 8-bit bytes — sessions that get through DATA with random MIME (mime-gen.ts) or
 * with real-world reports (test/fixtures/inbound: DSNs, ARF, out-of-office…) carrying the return paths and
 * Message-IDs of real sent messages, mutated, and bursts of the same report over several connections at once.
 *
 * Properties: every reply line follows the RFC 5321 §4.2 grammar (the checks of smtp.test.ts); an internal error
 * is never answered with a 5xx, and no reply carries a "reference" at all (a 5xx one is the worse defect); no
 * internals in reply text; no session hangs (short per-reply deadlines, and no event-loop stall of 2 s or more:
 * the MX runs in this process, so a message that blocks it stalls every session at once); AUTH is never accepted;
 * an oversized message gets 552 5.3.4; never an open relay: a RCPT for an unknown or receiving-off domain or a
 * forged return path is never answered 250, while one for a receiving address or a verified return path is; a 250
 * after DATA means something durable happened: the received_emails rows are no more than the accepted messages
 * account for (one per organisation and per return path each reached), every accepted ordinary message to
 * receiving addresses only is stored (found by its unique envelope sender), and no delivery is bounced
 * (Permanent) or complained about twice however often its report arrives. Afterwards the MX still accepts a
 * well-formed message (250, then listed by the receiving API) and /healthz answers 200.
 *
 * Budget: FUZZ_SECONDS (default 15). Replay: FUZZ_SEED=<seed printed at start and in the failure>; with
 * FUZZ_CASE=<case> too, one case alone, its transcript printed.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createReturnPathCodec, type ReturnPathCodec } from "../../src/domains/signing.ts";
import { operatorActor } from "../../src/access.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { inboundFixture, SAMPLE_RETURN_PATH } from "../helpers/inbound-fixtures.ts";
import { randomMessage, shuffleLines, wellFormedMessage } from "./mime-gen.ts";
import {
  fuzzSeed,
  fuzzTimeoutMs,
  internalsIn,
  onlyCase,
  randomString,
  runCases,
  Violations,
  withTimeout,
  type Rng,
} from "./prng.ts";
import { dataPayload, replyFormProblems, shortLine, SmtpWire, type WireReply } from "./smtp-wire.ts";

const SEED = fuzzSeed();
/** A reply that takes longer than this is a hang. Generous for a loaded CI machine, short next to the budget. */
const REPLY_TIMEOUT_MS = 5_000;
const SESSION_TIMEOUT_MS = 30_000;
/**
 * An event-loop stall this long is a hang in the making: the MX runs in this process, and every session and the
 * HTTP API wait for it. Far above the loop's usual worst lag under this load (a few hundred ms).
 */
const STALL_MS = 2_000;
const MAX_MESSAGE_BYTES = 2_000_000;

let t: TestApp;
/**
 * Causes of internal errors as the MX logged them, by the reference its reply carried (for the report): the
 * error's name and message (which also names the violation, so each distinct cause gets its own examples) and
 * the start of the logged error.
 */
const causes = new Map<string, { summary: string; logged: string }>();
function rememberInternalError(line: string) {
  try {
    const entry = JSON.parse(line) as { reference?: string; err?: { name?: string; message?: string } };
    if (!entry.reference) return;
    const summary = `${entry.err?.name ?? "?"}: ${String(entry.err?.message ?? "")
      .replace(/ \(In '.*$/, "")
      .replace(/\d+/g, "N")
      .slice(0, 100)}`;
    causes.set(entry.reference, { summary, logged: JSON.stringify(entry.err).slice(0, 300) });
  } catch {
    // not JSON: nothing to remember
  }
}
let mxPort: number;
let codec: ReturnPathCodec;
/** Receiving domains (as a client writes them: A-label and lower case) → the organisation that owns them. */
const receivingOrg = new Map<string, string>();
/** Messages sent before the run: each has one delivery, whose return path and Message-ID the reports carry. */
const sent: Array<{ emailId: string; deliveryId: string; messageId: string; returnPath: string }> = [];
/** The case that sent each report burst's message, by email id (to name the case of a delivery changed twice). */
const burstCase = new Map<string, number>();

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

beforeAll(async () => {
  t = await createTestApp(
    {
      // Every session comes from 127.0.0.1: the per-client limits (tested in inbound-limits.test.ts) are set out of reach.
      inbound: {
        max_message_bytes: MAX_MESSAGE_BYTES,
        messages_per_ip_per_minute: 10_000_000,
        bytes_per_ip_per_minute: 2 ** 40,
        max_clients_per_ip: 10_000,
        idle_timeout: "20s",
      },
      // Report bursts send a fresh message each through the API; its rate limits are not what is fuzzed here.
      limits: { key_requests_per_minute: 10_000_000, org_requests_per_minute: 10_000_000 },
    },
    { logger: createLogger("error", rememberInternalError) },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true, receivingEnabled: true });
  await t.app.services.domains.add(t.operator, "bücher.example", { verifiedOverride: true, receivingEnabled: true });
  // Verified, but receiving is off: its addresses are refused like an unknown domain's.
  await t.app.services.domains.add(t.operator, "quiet.example", { verifiedOverride: true });
  // A second organisation that receives too: one message can reach both (two rows, one per organisation).
  const otherOrg = crypto.randomUUID();
  await t.app.services.store.query(
    sql`INSERT INTO organizations (id, name, created_at) VALUES (${otherOrg}, 'other', ${new Date().toISOString()})`,
  );
  await t.app.services.domains.add(operatorActor(otherOrg), "other.example", {
    verifiedOverride: true,
    receivingEnabled: true,
  });
  receivingOrg
    .set("example.com", t.organizationId)
    .set("xn--bcher-kva.example", t.organizationId)
    .set("other.example", otherOrg);

  codec = createReturnPathCodec(t.app.services.secrets.deriveKey("return-path"));
  for (let i = 0; i < 8; i++) {
    const res = await t.json("POST", "/v1/emails", {
      body: {
        from: "Acme <hello@example.com>",
        to: "someone@dest.test",
        subject: `receipt ${i}`,
        html: "<p>Thanks.</p>",
      },
    });
    if (res.status !== 200)
      throw new Error(`sending a message for the return paths failed: ${JSON.stringify(res.body)}`);
    const emailId = res.body.id as string;
    const [delivery] = await t.app.services.store.query<{ id: string }>(
      sql`SELECT id FROM deliveries WHERE email_id = ${emailId}`,
    );
    const messageId = (await t.json("GET", `/v1/emails/${emailId}`)).body.message_id as string;
    sent.push({
      emailId,
      deliveryId: delivery!.id,
      messageId,
      returnPath: codec.address(delivery!.id, "send.example.com"),
    });
  }
  const listeners = await t.app.start();
  mxPort = listeners.find((l) => l.name === "mx")!.port;
});

afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------------------------
// Addresses

/** Domains this server must never take mail for: unknown, receiving off, look-alikes, sub- and super-domains. */
const FOREIGN_DOMAINS = [
  "dest.test",
  "elsewhere.test",
  "quiet.example",
  "send.example.com",
  "sub.example.com",
  "example.com.evil.test",
  "other.example.evil.test",
  "ex\u0430mple.com",
  "example.co",
  "exmple.com",
  "xn--exmple-cua.com",
  "[127.0.0.1]",
  "[IPv6:::1]",
  "localhost",
  "gmail.com",
];
const FOREIGN = new Set(FOREIGN_DOMAINS.map((d) => d.toLowerCase()));
const LOCALS = [
  "hello",
  "a",
  "postmaster",
  "abuse",
  "fbl",
  "x+tag",
  "first.last",
  "bounces",
  "bounces-x",
  "MAILER-DAEMON",
  "a".repeat(64),
  '"q"',
  "b\xfccher",
];
const HEX = "0123456789abcdef";
const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** RFC 5321 source route, which smtp-server drops ("@a,@b:" before the mailbox). */
const stripRoute = (address: string) => address.replace(/^@[^\s,:@]+(?:,@[^\s,:@]+)*:/, "");
const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1).toLowerCase();

/**
 * Whether the MX must refuse this RCPT address: a return-path local part whose token does not verify (wherever it
 * points), or a domain of FOREIGN_DOMAINS. Anything else (receiving domains, odd syntax) is not judged here.
 */
function mustRefuse(address: string): boolean {
  const mailbox = stripRoute(address);
  const local = mailbox.slice(0, Math.max(0, mailbox.lastIndexOf("@")));
  if (/^bounces\+/i.test(local)) return !codec.parse(mailbox);
  return mailbox.includes("@") && FOREIGN.has(domainOf(mailbox));
}

/** Addresses a receiving domain owns, written as a sending MTA may write them. */
function receivingAddress(rng: Rng): string {
  const domain = rng.weighted([
    [6, "example.com"],
    [1, "EXAMPLE.COM"],
    [1, "Example.Com"],
    [3, "other.example"],
    [2, "xn--bcher-kva.example"],
  ]);
  const local = rng.weighted([
    [8, rng.pick(["hello", "support", "fbl", "postmaster", "abuse", "x+tag", "first.last", "Hello"])],
    [1, rng.pick(["a".repeat(64), "a!#$%&'*+/=?^_`{|}~b", '"q"', "%", "a%dest.test"])],
  ]);
  const address = `${local}@${domain}`;
  return rng.chance(0.05) ? `@relay.test:${address}` : address;
}

/** A well-formed receiving address the MX must accept. */
function cleanReceivingAddress(rng: Rng): string {
  return `${rng.pick(["hello", "support", "fbl", "postmaster", "x+tag", "first.last"])}@${rng.weighted([
    [6, "example.com"],
    [1, "EXAMPLE.COM"],
    [3, "other.example"],
    [2, "xn--bcher-kva.example"],
  ])}`;
}

/** A return path whose token verifies: a real delivery's (any case, any domain), or one naming no delivery. */
function validReturnPath(rng: Rng): string {
  const real = rng.pick(sent).returnPath;
  return rng.weighted([
    [8, () => real],
    [1, () => real.toUpperCase()],
    [
      1,
      () => real.replace(/@.*$/, `@${rng.pick(["bounces.example.com", "example.com", "other.example", "dest.test"])}`),
    ],
    [1, () => codec.address(rng.uuid(), "send.example.com")],
  ])();
}

/** Fisher–Yates with the case's Rng (a random comparator in `sort` does not replay: the engine decides the calls). */
function shuffle<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** One character of `s` replaced by a different one of `alphabet`. */
function swapOne(rng: Rng, s: string, alphabet: string): string {
  const i = rng.int(s.length);
  return s.slice(0, i) + rng.pick([...alphabet.replace(s[i]!, "")]) + s.slice(i + 1);
}

/** A return path whose token does not verify. */
function forgedReturnPath(rng: Rng): string {
  const [, hex, mac, home] = /^bounces\+([0-9a-f]{32})-([a-z2-7]{16})@(.+)$/.exec(
    rng.pick(sent).returnPath,
  )! as unknown as [string, string, string, string];
  const domain = rng.weighted([
    [4, home],
    [2, "example.com"],
    [1, "other.example"],
    [1, "dest.test"],
  ]);
  return rng.pick([
    () => `bounces+${hex}-${swapOne(rng, mac, BASE32)}@${domain}`,
    () => `bounces+${swapOne(rng, hex, HEX)}-${mac}@${domain}`,
    () => `BOUNCES+${hex}-${swapOne(rng, mac, BASE32)}@${domain}`,
    () => `bounces+${rng.hex(32)}-${Array.from({ length: 16 }, () => rng.pick([...BASE32])).join("")}@${domain}`,
    () => `bounces+${hex.slice(1)}-${mac}@${domain}`,
    () => `bounces+${hex}-${mac}x@${domain}`,
    () => `bounces+${hex}-${mac.slice(0, 15)}@${domain}`,
    () => `bounces+${hex}@${domain}`,
    () => `bounces+@${domain}`,
    () => `bounces++${hex}-${mac}@${domain}`,
    () => `bounces+${hex}-${mac}-${mac}@${domain}`,
    () => SAMPLE_RETURN_PATH,
  ])();
}

function foreignAddress(rng: Rng): string {
  const address = `${rng.pick(LOCALS)}@${rng.pick(FOREIGN_DOMAINS)}`;
  return rng.pick([
    () => address,
    () => address,
    () => address.toUpperCase(),
    () => `@example.com:${address}`,
    () => `@example.com,@other.example:${address}`,
  ])();
}

const MALFORMED_ADDRESSES = [
  "",
  "a@b@c",
  "hello@",
  "@example.com",
  "hello",
  "postmaster",
  "Postmaster",
  "hello@example..com",
  "hello@.example.com",
  "hello@example.com.",
  ".hello@example.com",
  "hello.@example.com",
  "hello@-example.com",
  "a\0b@example.com",
  "hello@exa mple.com",
  `${"x".repeat(300)}@example.com`,
  `hello@${"d".repeat(260)}.com`,
  "hello@[999.1.1.1]",
  "hello@[example.com]",
  "\u200bhello@example.com",
  "hello@example.com\x7f",
  "bücher@example.com",
  "hello@bücher.example",
  "hello@例え.テスト",
];

/** An RCPT address of any kind. */
function rcptAddress(rng: Rng): string {
  return rng.weighted([
    [5, () => receivingAddress(rng)],
    [3, () => validReturnPath(rng)],
    [3, () => forgedReturnPath(rng)],
    [4, () => foreignAddress(rng)],
    [2, () => rng.pick(MALFORMED_ADDRESSES)],
  ])();
}

const MAIL_FROMS = [
  "",
  "someone@dest.test",
  "MAILER-DAEMON@mx.dest.test",
  "hello@example.com",
  "a@b@c",
  "bücher@dest.test",
  "a@[127.0.0.1]",
  '"q u"@dest.test',
  `${"x".repeat(70)}@dest.test`,
  "a\0b@dest.test",
  "postmaster",
  "@relay.test:someone@dest.test",
  SAMPLE_RETURN_PATH,
];
const MAIL_PARAMS = [
  "",
  " SIZE=100",
  ` SIZE=${MAX_MESSAGE_BYTES}`,
  ` SIZE=${MAX_MESSAGE_BYTES + 1}`,
  " SIZE=99999999999",
  " SIZE=-1",
  " SIZE=abc",
  " SIZE",
  " SIZE=1 SIZE=2",
  " BODY=8BITMIME",
  " BODY=7BIT",
  " BODY=BINARYMIME",
  " SMTPUTF8",
  " RET=FULL",
  " ENVID=x",
  " AUTH=<>",
  " REQUIRETLS",
  " FOO=bar",
  " =",
  ` ${"P".repeat(600)}`,
];
const RCPT_PARAMS = ["", "", "", " NOTIFY=NEVER", " ORCPT=rfc822;x@y", " X=Y", " =", " NOTIFY"];

function rcptCommand(rng: Rng): string {
  const address = rcptAddress(rng);
  return rng.weighted([
    [8, `RCPT TO:<${address}>${rng.pick(RCPT_PARAMS)}`],
    [1, `${rng.pick(["rcpt to:", "RCPT TO: ", "Rcpt To:"])}<${address}>`],
    [1, `RCPT TO:${address}`],
    [1, `RCPT TO:<${address}>${rng.pick(["junk", ">", " <hello@example.com>", "\t"])}`],
  ]);
}

// ---------------------------------------------------------------------------------------------------------------
// Commands

const b64 = (s: string) => Buffer.from(s, "latin1").toString("base64");

/** A command that yields exactly one reply and never switches the session's mode (safe to pipeline). */
function simpleCommand(rng: Rng): string {
  return rng.weighted([
    [
      3,
      () =>
        `${rng.pick(["EHLO", "HELO", "ehlo", "Ehlo"])}${rng.pick([" mx.dest.test", " [127.0.0.1]", "", ` ${randomString(rng, 30).replace(/[\r\n]/g, "")}`, " h\xe9llo.test", " a b c"])}`,
    ],
    [3, () => `MAIL FROM:<${rng.pick(MAIL_FROMS)}>${rng.pick(MAIL_PARAMS)}`],
    [
      1,
      () =>
        rng.pick([
          "MAIL FROM:",
          "MAIL FROM:<>",
          "MAIL FROM: <>",
          "MAIL hello@dest.test",
          "MAIL FROM:someone@dest.test",
          "MAIL FROM:<<someone@dest.test>>",
        ]),
    ],
    [6, () => rcptCommand(rng)],
    [1, () => rng.pick(["RCPT TO:", "RCPT TO:<>", "RCPT TO:<postmaster>", "RCPT hello@example.com"])],
    [
      3,
      () =>
        rng.pick([
          "RSET",
          "NOOP",
          "NOOP hello",
          "HELP",
          "HELP DATA",
          "VRFY hello@example.com",
          "VRFY hello",
          "VRFY",
          "EXPN list",
          "TURN",
          "ETRN example.com",
          "XCLIENT ADDR=1.2.3.4",
          "XFORWARD NAME=x",
          "BDAT 10 LAST",
          "rset",
          " NOOP",
          "NOOP ",
        ]),
    ],
  ])();
}

/** Bytes no well-behaved client sends. */
function garbage(rng: Rng): string {
  return rng.pick([
    () => randomString(rng, 200).replace(/[\r\n]/g, " "),
    () =>
      Buffer.from(rng.bytes(rng.length(300)))
        .toString("latin1")
        .replace(/[\r\n]/g, "\0"),
    () => `NOOP ${"x".repeat(rng.pick([1000, 8000, 16_383, 16_385, 70_000, 200_000]))}`,
    () => "x".repeat(rng.pick([513, 1001, 16_385, 200_000])),
    () => `RCPT TO:<${"a".repeat(rng.pick([1000, 70_000]))}@example.com>`,
    () =>
      rng.pick([
        "\0",
        "NOOP\0",
        "\0NOOP",
        "EHLO a\0b",
        "MAIL FROM:<a\0@dest.test>",
        "RCPT TO:<hello\0@example.com>",
        "AUTH PLAIN \0\0\0",
        "\0".repeat(1000),
      ]),
    () =>
      rng.pick([
        "\xff\xfe",
        "EHLO \xe9\xe8",
        "MAIL FROM:<h\xe9@dest.test>",
        "RCPT TO:<h\xe9@example.com>",
        "\x1b[31m",
        "\x7f\x7f",
      ]),
    () => rng.pick(["GET / HTTP/1.1", "QUIT QUIT", "DATA DATA", "STARTTLS now", ".", "..", "", " ", "\t"]),
  ])();
}

/** The MX has no AUTH: every attempt is refused (5xx). */
function authCommand(rng: Rng): string {
  return rng.pick([
    () => `AUTH PLAIN ${b64(`\0apikey\0${rng.pick([t.liveKey, t.testKey, randomString(rng, 40)])}`)}`,
    () => `AUTH PLAIN ${rng.pick(["", "=", "!!!", "AAAA", "*"])}`,
    () =>
      rng.pick([
        "AUTH PLAIN",
        "AUTH LOGIN",
        `AUTH LOGIN ${b64("apikey")}`,
        "AUTH CRAM-MD5",
        "AUTH XOAUTH2 dXNlcj1h",
        "AUTH",
        "AUTH NTLM",
        "auth plain",
      ]),
  ])();
}

// ---------------------------------------------------------------------------------------------------------------
// Messages

/** A value one report field (DSN, ARF) may take: realistic, wrong, or hostile. */
function reportField(rng: Rng, name: string): string {
  const returnPath = () => `<${rng.chance(0.5) ? validReturnPath(rng) : forgedReturnPath(rng)}>`;
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
function mutateReport(rng: Rng, text: string, fieldsOnly = false): string {
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
        all || n++ === which ? `${name}: ${reportField(rng, name)}` : match,
      );
      return replaced === text && rng.chance(0.5) ? `${name}: ${reportField(rng, name)}\r\n${text}` : replaced;
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
const DEFINITE_REPORTS = [
  "arf-microsoft",
  "arf-yahoo",
  "gmail-5.2.2",
  "m365-5.1.10",
  "postfix-5.1.1",
  "ses-5.1.1",
  "exim-nonstandard",
];

/** A real-world report about `about`, carrying `returnPath`, mutated a few times (with `steady`, seldom: one field). */
function reportMessage(
  rng: Rng,
  about: (typeof sent)[number],
  returnPath: string,
  fixtures = FIXTURES,
  steady = false,
): Buffer {
  const fixture = rng.pick(fixtures);
  const messageId =
    steady || rng.chance(0.85) ? about.messageId : rng.pick(["<not-ours@elsewhere.test>", rng.pick(sent).messageId]);
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
  for (let i = 0; i < mutations; i++) text = mutateReport(rng, text, steady);
  return Buffer.from(text, "latin1");
}

/** For a random session's DATA: random MIME, a report, or an oversized message. */
function messageFor(rng: Rng): { message: Buffer; oversized: boolean } {
  if (rng.chance(0.04)) return { message: oversizedMessage(), oversized: true };
  if (rng.chance(0.4)) {
    const about = rng.pick(sent);
    return {
      message: reportMessage(rng, about, rng.chance(0.7) ? about.returnPath : forgedReturnPath(rng)),
      oversized: false,
    };
  }
  return { message: randomMessage(rng), oversized: false };
}

function oversizedMessage(): Buffer {
  return Buffer.from(wellFormedMessage("too big") + "x".repeat(MAX_MESSAGE_BYTES + 10), "latin1");
}

// ---------------------------------------------------------------------------------------------------------------
// Properties

interface Exchange {
  sent: string[];
  replies: WireReply[];
}

/** What a session knows of its mail transaction: the RCPT addresses answered 250 since the last end of data. */
interface Transaction {
  accepted: Set<string>;
}

function checkReply(v: Violations, index: number, ex: Exchange, reply: WireReply) {
  const input = { commands: ex.sent.slice(-6).map(shortLine) };
  const text = reply.lines.join("\n");
  for (const [property, shown] of replyFormProblems(reply)) v.add(property, index, input, shown);
  if (/reference/i.test(text)) {
    const cause = causes.get(/reference ([0-9a-f-]{36})/.exec(text)?.[1] ?? "");
    const because = cause ? ` — ${cause.summary}` : "";
    if (reply.code >= 500)
      v.add(`5xx reply for an internal error${because}`, index, input, { reply: text, loggedCause: cause?.logged });
    else
      v.add(`internal error (reply with a reference)${because}`, index, input, {
        reply: text,
        loggedCause: cause?.logged,
      });
  }
  const leak = internalsIn(text, t.dataDir);
  if (leak) v.add(`internals in reply text (${leak})`, index, input, text);
}

/** Per-command properties: AUTH never accepted, never an open relay; accepted recipients join the transaction. */
function checkCommand(v: Violations, index: number, ex: Exchange, tx: Transaction, command: string, reply: WireReply) {
  const input = { commands: ex.sent.slice(-6).map(shortLine) };
  if (/^AUTH\b/i.test(command) && reply.code < 400)
    v.add("AUTH accepted on the MX", index, input, reply.lines.join("\n"));
  const rcpt = /^RCPT TO:\s*<([^<>]*)>/i.exec(command);
  if (rcpt && mustRefuse(rcpt[1]!)) stats.mustRefuse++;
  if (rcpt && reply.code === 250) {
    if (mustRefuse(rcpt[1]!))
      v.add("open relay: RCPT accepted for an address the MX must refuse", index, input, reply.lines.join("\n"));
    tx.accepted.add(rcpt[1]!);
  }
}

const stats = {
  sessions: 0,
  commands: 0,
  mustRefuse: 0,
  accepted: 0,
  silentCloses: 0,
  unanswered: 0,
  mustStore: 0,
  rcptAccepted: 0,
  rcptRefused: 0,
};
const afterData = new Map<string, { count: number; example: string }>();
const silentExamples: string[] = [];
/** The slowest replies after DATA (for the summary: the cases to replay alone when something was slow). */
const slowest: Array<{ ms: number; index: number; bytes: number }> = [];
function noteSlow(ms: number, index: number, bytes: number) {
  slowest.push({ ms, index, bytes });
  slowest.sort((a, b) => b.ms - a.ms);
  slowest.length = Math.min(slowest.length, 3);
}

/**
 * One process runs the MX and this client: a message whose handling blocks the event loop stalls every session
 * (and the HTTP API) without any reply timing out, since the timers wait too. So the loop's lag is watched; a stall
 * of STALL_MS or more is reported, blamed on the messages being handled at the time (replay each alone: its own
 * reply time is in the summary).
 */
const handling = new Set<{ index: number; bytes: number }>();
const stalls: Array<{ ms: number; suspects: Array<{ index: number; bytes: number }> }> = [];
let worstLag = 0;
function watchEventLoop(): () => void {
  const tick = 100;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const lag = now - last - tick;
    last = now;
    worstLag = Math.max(worstLag, lag);
    if (lag >= STALL_MS) stalls.push({ ms: Math.round(lag), suspects: [...handling] });
  }, tick);
  return () => clearInterval(timer);
}
/** The most received_emails rows the 250s after DATA can account for: one per organisation and return path reached. */
let rowBound = 0;
/** Ordinary messages to receiving addresses only, answered 250: each must be stored (`orgs` rows, by envelope sender). */
const mustBeStored: Array<{ envelopeFrom: string; orgs: number; index: number; commands: string[] }> = [];

/** Rows a message accepted for these recipients may become: one per organisation, one per return-path delivery. */
function rowsFor(accepted: Set<string>): { bound: number; orgs: Set<string> } {
  const orgs = new Set<string>();
  const deliveries = new Set<string>();
  let unknown = 0;
  for (const address of accepted) {
    const mailbox = stripRoute(address);
    const returnPath = codec.parse(mailbox);
    if (returnPath) deliveries.add(returnPath.deliveryId);
    else if (receivingOrg.has(domainOf(mailbox))) orgs.add(receivingOrg.get(domainOf(mailbox))!);
    else unknown++;
  }
  return { bound: orgs.size + deliveries.size + unknown, orgs };
}

/**
 * Sends one line (or several joined by LF) and reads one reply per line; every reply is checked, and each one
 * against the command it answers. Ends early at 421/221 or when the session is over.
 */
async function exchange(
  v: Violations,
  index: number,
  wire: SmtpWire,
  ex: Exchange,
  tx: Transaction,
  line: string,
): Promise<WireReply | "closed" | "timeout"> {
  ex.sent.push(line);
  stats.commands++;
  // Text beyond latin1 goes out as UTF-8, as a real client would send it (latin1 would truncate U+020A to LF).
  const bytes = Buffer.from(`${line}\r\n`, /[^\x00-\xff]/.test(line) ? "utf8" : "latin1");
  // smtp-server ends a command at every LF: one reply per line.
  const commands = line.split("\n").map((c) => c.replace(/\r$/, ""));
  wire.write(bytes);
  let last: WireReply | "closed" | "timeout" = "closed";
  for (const command of commands) {
    last = await wire.read(REPLY_TIMEOUT_MS);
    if (last === "timeout") {
      v.add(
        "no reply in time (hang)",
        index,
        { commands: ex.sent.slice(-6).map(shortLine) },
        { partial: shortLine(wire.pending()) },
      );
      return last;
    }
    if (last === "closed") {
      stats.silentCloses++;
      if (silentExamples.length < 5) silentExamples.push(`case ${index}: ${shortLine(JSON.stringify(ex.sent.at(-1)))}`);
      return last;
    }
    ex.replies.push(last);
    checkReply(v, index, ex, last);
    checkCommand(v, index, ex, tx, command, last);
    // 421 and 221 end the session: commands pipelined after them get no reply (RFC 5321 §3.8).
    if (last.code === 421 || last.code === 221) break;
  }
  return last;
}

/**
 * DATA content after a 354, then the reply. A 250 is counted with the rows it may account for; an oversized
 * message must get 552 5.3.4. The transaction ends whatever the reply.
 */
async function sendData(
  v: Violations,
  index: number,
  wire: SmtpWire,
  ex: Exchange,
  tx: Transaction,
  rng: Rng,
  message: Buffer,
  oversized: boolean,
): Promise<WireReply | "closed" | "timeout"> {
  ex.sent.push(
    `<message ${message.length} bytes: ${shortLine(JSON.stringify(message.subarray(0, 150).toString("latin1")))}>`,
  );
  const accepted = rowsFor(tx.accepted);
  tx.accepted = new Set();
  if (rng.chance(0.03)) {
    // The client goes away mid-message: nothing may be stored, nothing may break.
    wire.write(message.subarray(0, message.length >> 1));
    wire.close();
    return "closed";
  }
  wire.write(dataPayload(message));
  const started = Date.now();
  const inHand = { index, bytes: message.length };
  handling.add(inHand);
  const reply = await wire.read(REPLY_TIMEOUT_MS + 10_000);
  handling.delete(inHand);
  noteSlow(Date.now() - started, index, message.length);
  if (reply === "timeout" || reply === "closed") {
    // Unknown whether it was stored: the row count may be one higher for it.
    stats.unanswered++;
    rowBound += accepted.bound;
    if (reply === "timeout")
      v.add(
        "no reply after the message (hang)",
        index,
        { commands: ex.sent.slice(-6) },
        { partial: shortLine(wire.pending()) },
      );
    return reply;
  }
  ex.replies.push(reply);
  checkReply(v, index, ex, reply);
  const text = reply.lines.join(" | ");
  const seen = afterData.get(String(reply.code)) ?? { count: 0, example: shortLine(text) };
  seen.count++;
  afterData.set(String(reply.code), seen);
  if (oversized && !(reply.code === 552 && /\b5\.3\.4\b/.test(text)))
    v.add("oversized message not answered 552 5.3.4", index, { commands: ex.sent.slice(-6) }, text);
  if (reply.code === 250) {
    stats.accepted++;
    rowBound += accepted.bound;
    if (oversized) v.add("250 for a message over the size limit", index, { commands: ex.sent.slice(-6) }, text);
  }
  return reply;
}

/** Reacts to a reply that changes the session's mode (TLS, AUTH challenge, DATA); false when the session ended. */
async function follow(
  v: Violations,
  index: number,
  wire: SmtpWire,
  ex: Exchange,
  tx: Transaction,
  rng: Rng,
  line: string,
  reply: WireReply | "closed" | "timeout",
): Promise<boolean> {
  let current = reply;
  for (let guard = 0; guard < 4 && typeof current === "object"; guard++) {
    if (current.code === 220 && /^starttls$/i.test(line.trim())) {
      if (!(await wire.upgrade(REPLY_TIMEOUT_MS))) {
        v.add("STARTTLS handshake failed after 220", index, { commands: ex.sent.slice(-6) }, "");
        return false;
      }
      // RFC 3207 §4.2: the session starts over.
      tx.accepted = new Set();
      return !rng.chance(0.8) || typeof (await exchange(v, index, wire, ex, tx, "EHLO mx.dest.test")) === "object";
    }
    if (current.code === 334) {
      // Already a violation (no AUTH here); answer so the session goes on.
      line = rng.pick(["*", b64(`\0apikey\0${t.liveKey}`), b64("apikey")]);
      current = await exchange(v, index, wire, ex, tx, line);
      continue;
    }
    if (current.code === 354) {
      const { message, oversized } = messageFor(rng);
      current = await sendData(v, index, wire, ex, tx, rng, message, oversized);
      continue;
    }
    if (current.code === 221 || current.code === 421) return false;
    return true;
  }
  return typeof current === "object";
}

/** A random command sequence on one connection. */
async function randomSession(v: Violations, index: number, rng: Rng, ex: Exchange) {
  ex.sent.push("<mx>");
  const wire = await SmtpWire.open(mxPort, false, REPLY_TIMEOUT_MS);
  const tx: Transaction = { accepted: new Set() };
  try {
    const greeting = await wire.read(REPLY_TIMEOUT_MS);
    if (typeof greeting !== "object") return v.add("no greeting", index, ex.sent, greeting);
    checkReply(v, index, ex, greeting);
    // Mostly past the greeting and into a transaction, so RCPT and DATA are judged rather than refused for order.
    const opening = [
      rng.chance(0.85) ? rng.pick(["EHLO mx.dest.test", "HELO mx.dest.test", "EHLO [127.0.0.1]"]) : "",
      rng.chance(0.7) ? `MAIL FROM:<${rng.pick(MAIL_FROMS)}>${rng.chance(0.7) ? "" : rng.pick(MAIL_PARAMS)}` : "",
    ];
    for (const line of opening.filter(Boolean))
      if (typeof (await exchange(v, index, wire, ex, tx, line)) !== "object") return;
    const steps = rng.range(1, 30);
    for (let step = 0; step < steps; step++) {
      const kind = rng.weighted([
        [34, "simple"],
        [8, "data"],
        [5, "auth"],
        [5, "starttls"],
        [12, "garbage"],
        [8, "pipelined"],
        [2, "quit"],
      ] as const);
      let line: string;
      if (kind === "simple") line = simpleCommand(rng);
      else if (kind === "data") line = rng.pick(["DATA", "data", "DATA x"]);
      else if (kind === "auth") line = authCommand(rng);
      else if (kind === "starttls") line = rng.pick(["STARTTLS", "starttls", "STARTTLS x"]);
      else if (kind === "garbage") line = garbage(rng);
      else if (kind === "quit") line = "QUIT";
      // Several commands in one write, some split by a bare LF: one reply each.
      else
        line = Array.from({ length: rng.range(2, 5) }, () => simpleCommand(rng))
          .map((c, i) => (i ? rng.pick(["\r\n", "\n"]) : "") + c)
          .join("");
      const reply = await exchange(v, index, wire, ex, tx, line);
      if (!(await follow(v, index, wire, ex, tx, rng, line, reply))) return;
    }
    if (rng.chance(0.7)) await exchange(v, index, wire, ex, tx, "QUIT");
  } finally {
    wire.close();
  }
}

/**
 * A well-behaved sending MTA (EHLO, STARTTLS or not, then up to three transactions): ordinary random MIME to
 * receiving addresses only (must be stored when accepted), real-world reports to return paths and receiving
 * addresses, or a mix; refused recipients interleaved.
 */
async function mailSession(v: Violations, index: number, rng: Rng, ex: Exchange) {
  ex.sent.push("<mx>");
  const wire = await SmtpWire.open(mxPort, false, REPLY_TIMEOUT_MS);
  const tx: Transaction = { accepted: new Set() };
  const step = async (line: string) => {
    const reply = await exchange(v, index, wire, ex, tx, line);
    return typeof reply === "object" ? reply : undefined;
  };
  try {
    const greeting = await wire.read(REPLY_TIMEOUT_MS);
    if (typeof greeting !== "object") return v.add("no greeting", index, ex.sent, greeting);
    checkReply(v, index, ex, greeting);
    const hello = rng.chance(0.85) ? "EHLO mx.dest.test" : "HELO mx.dest.test";
    if ((await step(hello))?.code !== 250) return v.add("EHLO refused", index, ex.sent, ex.replies.at(-1));
    if (hello.startsWith("EHLO") && rng.chance(0.5)) {
      if ((await step("STARTTLS"))?.code !== 220) return v.add("STARTTLS refused", index, ex.sent, ex.replies.at(-1));
      if (!(await wire.upgrade(REPLY_TIMEOUT_MS)))
        return v.add("STARTTLS handshake failed after 220", index, ex.sent, "");
      if ((await step(hello))?.code !== 250) return;
    }
    for (let n = rng.range(1, 3); n > 0; n--) {
      const kind = rng.weighted([
        [5, "ordinary"],
        [4, "report"],
        [2, "mixed"],
      ] as const);
      const about = rng.pick(sent);
      const returnPath = rng.chance(0.8) ? about.returnPath : validReturnPath(rng);
      // A unique envelope sender finds an ordinary message among the stored ones.
      const from =
        kind === "ordinary"
          ? `fuzz-${index}-${n}@sender.test`
          : kind === "report"
            ? rng.pick(["", "", "MAILER-DAEMON@mx.dest.test", "feedback@arf.mail.yahoo.com"])
            : rng.pick(MAIL_FROMS);
      const params = rng.pick(["", "", " BODY=8BITMIME", ` SIZE=${rng.range(100, MAX_MESSAGE_BYTES)}`]);
      const mail = await step(`MAIL FROM:<${from}>${params}`);
      if (!mail) return;
      if (mail.code !== 250) {
        if (kind !== "mixed") v.add("well-formed MAIL FROM refused", index, ex.sent.slice(-6), mail.lines.join("\n"));
        await step("RSET");
        continue;
      }
      // Recipients: what the MX must accept, with refused ones in between.
      const wanted: string[] = [];
      if (kind === "ordinary") for (let r = rng.range(1, 3); r > 0; r--) wanted.push(cleanReceivingAddress(rng));
      else if (kind === "report") {
        const to = rng.weighted([
          [5, [returnPath]],
          [3, [cleanReceivingAddress(rng)]],
          [2, [returnPath, cleanReceivingAddress(rng)]],
        ]);
        wanted.push(...to);
      }
      const refused =
        kind === "mixed"
          ? []
          : Array.from(
              {
                length: rng.weighted([
                  [5, 0],
                  [3, 1],
                  [1, 2],
                ]),
              },
              () => (rng.chance(0.5) ? forgedReturnPath(rng) : foreignAddress(rng)),
            );
      const recipients =
        kind === "mixed"
          ? Array.from({ length: rng.range(1, 4) }, () => rcptAddress(rng))
          : shuffle(rng, [...wanted, ...refused]);
      for (const address of recipients) {
        const rcpt = await step(`RCPT TO:<${address}>`);
        if (!rcpt) return;
        if (rcpt.code === 250) stats.rcptAccepted++;
        else stats.rcptRefused++;
        if (wanted.includes(address) && rcpt.code !== 250)
          v.add(
            "RCPT refused for a receiving address or a verified return path",
            index,
            ex.sent.slice(-6),
            rcpt.lines.join("\n"),
          );
      }
      const acceptedNow = new Set(tx.accepted);
      const data = await step("DATA");
      if (!data) return;
      if (data.code !== 354) {
        if (acceptedNow.size > 0)
          v.add("DATA refused after an accepted recipient", index, ex.sent.slice(-6), data.lines.join("\n"));
        await step("RSET");
        tx.accepted = new Set();
        continue;
      }
      const oversized = rng.chance(0.03);
      const message = oversized
        ? oversizedMessage()
        : kind === "report" || (kind === "mixed" && rng.chance(0.5))
          ? reportMessage(rng, about, returnPath)
          : randomMessage(rng);
      const reply = await sendData(v, index, wire, ex, tx, rng, message, oversized);
      if (typeof reply !== "object") return;
      // Ordinary MIME to receiving addresses only (never a report about this organisation's mail): stored.
      if (reply.code === 250 && kind === "ordinary") {
        const { orgs, bound } = rowsFor(acceptedNow);
        if (bound > 0 && orgs.size === bound) {
          stats.mustStore++;
          mustBeStored.push({ envelopeFrom: from, orgs: orgs.size, index, commands: ex.sent.slice(-8).map(shortLine) });
        }
      }
    }
    await step("QUIT");
  } finally {
    wire.close();
  }
}

/**
 * The same report delivered over several connections at once (a remote MTA retrying, copies through several MX
 * hosts of ours), about a fresh delivery: the first copy may bounce it or complain, the others must change nothing.
 */
async function burstSession(v: Violations, index: number, rng: Rng, ex: Exchange) {
  const res = await t.json("POST", "/v1/emails", {
    body: {
      from: "Acme <hello@example.com>",
      to: `burst-${index}@dest.test`,
      subject: `burst ${index}`,
      html: "<p>Thanks.</p>",
    },
  });
  if (res.status !== 200) return v.add("sending a message for a report burst failed", index, "POST /v1/emails", res);
  const emailId = res.body.id as string;
  burstCase.set(emailId, index);
  const [delivery] = await t.app.services.store.query<{ id: string }>(
    sql`SELECT id FROM deliveries WHERE email_id = ${emailId}`,
  );
  const messageId = (await t.json("GET", `/v1/emails/${emailId}`)).body.message_id as string;
  const about = {
    emailId,
    deliveryId: delivery!.id,
    messageId,
    returnPath: codec.address(delivery!.id, "send.example.com"),
  };
  const message = reportMessage(rng, about, about.returnPath, DEFINITE_REPORTS, true);
  // A feedback loop often reports to an address of the domain rather than to the return path.
  const to = rng.chance(0.3) ? "fbl@example.com" : about.returnPath;
  const copies = rng.range(2, 4);
  ex.sent.push(`<${copies} connections at once: the same report to ${to}>`);
  const wires = await Promise.all(Array.from({ length: copies }, () => SmtpWire.open(mxPort, false, REPLY_TIMEOUT_MS)));
  try {
    // Each connection up to the 354, then every copy of the message written at the same moment.
    const ready = await Promise.all(
      wires.map(async (wire) => {
        const tx: Transaction = { accepted: new Set() };
        const greeting = await wire.read(REPLY_TIMEOUT_MS);
        if (typeof greeting !== "object") return v.add("no greeting", index, ex.sent, greeting);
        checkReply(v, index, ex, greeting);
        for (const line of ["EHLO mx.dest.test", "MAIL FROM:<>", `RCPT TO:<${to}>`, "DATA"]) {
          const reply = await exchange(v, index, wire, ex, tx, line);
          if (typeof reply !== "object") return undefined;
          if (reply.code !== (line === "DATA" ? 354 : 250))
            return v.add(
              "a step of a well-formed report delivery refused",
              index,
              ex.sent.slice(-6),
              reply.lines.join("\n"),
            );
        }
        return tx;
      }),
    );
    await Promise.all(
      wires.map((wire, i) => (ready[i] ? sendData(v, index, wire, ex, ready[i], rng, message, false) : undefined)),
    );
  } finally {
    for (const wire of wires) wire.close();
  }
}

/** The reference message after the run: a plain message to a receiving address. */
async function referenceMessage(): Promise<string> {
  const wire = await SmtpWire.open(mxPort, false, REPLY_TIMEOUT_MS);
  const transcript: string[] = [];
  const say = async (line: string | Buffer) => {
    wire.write(typeof line === "string" ? `${line}\r\n` : line);
    const reply = await wire.read(REPLY_TIMEOUT_MS);
    transcript.push(typeof reply === "object" ? reply.lines.join(" | ") : reply);
    return typeof reply === "object" ? reply.code : 0;
  };
  try {
    const greeting = await wire.read(REPLY_TIMEOUT_MS);
    transcript.push(typeof greeting === "object" ? greeting.lines.join(" | ") : greeting);
    await say("EHLO mx.dest.test");
    await say("MAIL FROM:<after-the-run@sender.test>");
    await say("RCPT TO:<hello@example.com>");
    await say("DATA");
    const code = await say(dataPayload(Buffer.from(wellFormedMessage("mx after the fuzzing"), "latin1")));
    return code === 250 ? "250" : transcript.join("\n");
  } finally {
    wire.close();
  }
}

const parseJson = (value: unknown) =>
  typeof value === "string" ? (JSON.parse(value) as Record<string, any>) : (value as Record<string, any>);

test(
  "the MX answers random sessions with well-formed replies, is never an open relay, stores what it accepts, and keeps working",
  async () => {
    console.log(`fuzz mx seed=${SEED}`);
    const v = new Violations("mx", SEED);
    const stopWatching = watchEventLoop();
    const cases = await runCases("mx", SEED, 4, async (rng, index) => {
      stats.sessions++;
      const ex: Exchange = { sent: [], replies: [] };
      const kind = rng.weighted([
        [47, "mail"],
        [47, "random"],
        [6, "burst"],
      ] as const);
      const session =
        kind === "mail"
          ? mailSession(v, index, rng, ex)
          : kind === "random"
            ? randomSession(v, index, rng, ex)
            : burstSession(v, index, rng, ex);
      const outcome = await withTimeout(session, SESSION_TIMEOUT_MS);
      // Replaying one case (FUZZ_CASE) prints its transcript.
      if (onlyCase() !== undefined)
        console.log(
          `transcript of case ${index}:\n  sent: ${ex.sent
            .map(shortLine)
            .map((l) => JSON.stringify(l))
            .join("\n  sent: ")}\n  replies: ${ex.replies.map((r) => r.lines.join(" | ")).join("\n  replies: ")}`,
        );
      if (outcome === "timeout")
        v.add("session did not finish in time", index, ex.sent.slice(-6).map(shortLine), `${SESSION_TIMEOUT_MS} ms`);
      else if (!outcome.ok)
        v.add(
          "client error (connection refused or reset?)",
          index,
          ex.sent.slice(-6).map(shortLine),
          String(outcome.error),
        );
    });
    stopWatching();
    for (const stall of stalls) {
      v.add(
        "event loop blocked (every session and the API stall)",
        stall.suspects[0]?.index ?? -1,
        { messagesBeingHandled: stall.suspects.map((s) => `case ${s.index} (${s.bytes} bytes)`) },
        `${stall.ms} ms`,
      );
    }

    // What the 250s after DATA account for: never more rows than they can explain, every ordinary message stored.
    const rows = await t.app.services.store.query<{ envelope_from: string }>(
      sql`SELECT envelope_from FROM received_emails`,
    );
    if (rows.length > rowBound)
      v.add(
        "more received_emails rows than the 250s after DATA account for",
        -1,
        { accepted: stats.accepted, unanswered: stats.unanswered, rowBound },
        { rows: rows.length },
      );
    const byEnvelope = new Map<string, number>();
    for (const row of rows) byEnvelope.set(row.envelope_from, (byEnvelope.get(row.envelope_from) ?? 0) + 1);
    for (const message of mustBeStored) {
      const found = byEnvelope.get(message.envelopeFrom) ?? 0;
      if (found !== message.orgs)
        v.add(
          "an ordinary message answered 250 is not stored (once per organisation)",
          message.index,
          message.commands,
          { envelopeFrom: message.envelopeFrom, rowsFound: found, organisations: message.orgs },
        );
    }
    // A delivery is bounced (Permanent) or complained about once, however often its report arrived.
    const events = await t.app.services.store.query<{
      email_id: string;
      recipient: string;
      type: string;
      data: unknown;
    }>(
      sql`SELECT email_id, recipient, type, data FROM events WHERE type IN ('email.bounced', 'email.complained', 'email.delivery_delayed')`,
    );
    const once = new Map<string, { type: string; emailId: string; recipient: string; count: number }>();
    for (const event of events) {
      const data = parseJson(event.data);
      if (
        event.type === "email.delivery_delayed" ||
        (event.type === "email.bounced" && data.bounce?.type !== "Permanent")
      )
        continue;
      const key = `${event.type} ${event.email_id} ${event.recipient}`;
      const entry = once.get(key) ?? {
        type: event.type,
        emailId: event.email_id,
        recipient: event.recipient,
        count: 0,
      };
      entry.count++;
      once.set(key, entry);
    }
    for (const { type, emailId, recipient, count } of once.values()) {
      if (count > 1)
        v.add(
          "a delivery bounced (Permanent) or complained about more than once",
          burstCase.get(emailId) ?? -1,
          { email: emailId, recipient, burst: burstCase.has(emailId) },
          `${count} ${type} events`,
        );
    }
    const codes = [...afterData]
      .map(([code, { count, example }]) => `${code}×${count} (e.g. ${JSON.stringify(example)})`)
      .join(", ");
    console.log(
      `fuzz mx seed=${SEED}: ${cases} sessions, ${stats.commands} commands, RCPT in well-behaved sessions ${stats.rcptAccepted} accepted / ${stats.rcptRefused} refused, ${stats.mustRefuse} answered to addresses that must be refused; after DATA: ${codes || "none"}; ${stats.unanswered} unanswered; ${rows.length} rows stored (at most ${rowBound} accounted for), ${stats.mustStore} ordinary messages checked stored; ${events.length} report events; ${stats.silentCloses} closes without a reply${silentExamples.length ? ` (e.g. ${silentExamples.join("; ")})` : ""}; worst event-loop lag ${Math.round(worstLag)} ms; slowest replies after DATA: ${slowest.map((s) => `${s.ms} ms (case ${s.index}, ${s.bytes} bytes)`).join(", ")}`,
    );

    // The MX still takes a well-formed message, which the receiving API lists; the HTTP side is alive.
    const result = await withTimeout(referenceMessage(), 20_000);
    const ok = typeof result === "object" && result.ok && result.value === "250";
    if (!ok)
      v.add(
        "a well-formed message after the run is refused",
        -1,
        "EHLO, MAIL, RCPT hello@example.com, DATA",
        typeof result === "object" ? (result.ok ? result.value : String(result.error)) : result,
      );
    else {
      const listed = await t.json("GET", "/v1/emails/receiving?limit=100");
      if (!listed.body?.data?.some((e: { subject?: string }) => e.subject === "mx after the fuzzing"))
        v.add(
          "the message accepted after the run is not listed by the receiving API",
          -1,
          "GET /v1/emails/receiving?limit=100",
          {
            status: listed.status,
            subjects: listed.body?.data?.slice(0, 5).map((e: { subject?: string }) => e.subject),
          },
        );
    }
    const health = await t.app.http.handle(new Request("http://localhost/healthz"));
    if (health.status !== 200)
      v.add("healthz after the run", -1, "GET /healthz", { status: health.status, body: await health.text() });

    expect(v.list, v.report()).toEqual([]);
  },
  fuzzTimeoutMs(),
);
