/**
 * The MX fuzz target's commands (mx.test.ts): MAIL FROM senders and parameters (SIZE around the limit among them),
 * RCPT TO in the forms sending MTAs and broken clients write, the commands that never switch a session's mode (safe
 * to pipeline), garbage, and AUTH attempts (the MX has no AUTH: every one must be refused).
 */
import { SAMPLE_RETURN_PATH } from "../helpers/inbound-fixtures.ts";
import { rcptAddress } from "./mx-addresses.ts";
import { MAX_MESSAGE_BYTES, type MxWorld } from "./mx-world.ts";
import { randomString, type Rng } from "./prng.ts";
import { b64, garbage, helloCommand, MAIL_EXTENSIONS, otherCommands } from "./smtp-session.ts";

/** Envelope senders: null, ordinary, a bounce daemon, malformed, a source route, a return path. */
export const MAIL_FROMS = [
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
export const MAIL_PARAMS = [
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
  ...MAIL_EXTENSIONS,
  " =",
  ` ${"P".repeat(600)}`,
];
/** Commands outside a transaction (smtp-session.ts), with the MX's VRFY lines. */
const OTHER_COMMANDS = otherCommands(["VRFY hello@example.com", "VRFY hello", "VRFY"], "example.com");
const RCPT_PARAMS = ["", "", "", " NOTIFY=NEVER", " ORCPT=rfc822;x@y", " X=Y", " =", " NOTIFY"];

function rcptCommand(rng: Rng, world: MxWorld): string {
  const address = rcptAddress(rng, world);
  return rng.weighted([
    [8, `RCPT TO:<${address}>${rng.pick(RCPT_PARAMS)}`],
    [1, `${rng.pick(["rcpt to:", "RCPT TO: ", "Rcpt To:"])}<${address}>`],
    [1, `RCPT TO:${address}`],
    [1, `RCPT TO:<${address}>${rng.pick(["junk", ">", " <hello@example.com>", "\t"])}`],
  ]);
}

/** A command that yields exactly one reply and never switches the session's mode (safe to pipeline). */
export function simpleCommand(rng: Rng, world: MxWorld): string {
  return rng.weighted([
    [3, () => helloCommand(rng, "mx.dest.test")],
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
    [6, () => rcptCommand(rng, world)],
    [1, () => rng.pick(["RCPT TO:", "RCPT TO:<>", "RCPT TO:<postmaster>", "RCPT hello@example.com"])],
    [3, () => rng.pick(OTHER_COMMANDS)],
  ])();
}

/** Bytes no well-behaved client sends (smtp-session.ts), with an over-long RCPT and the MX's NUL and 8-bit lines. */
export function mxGarbage(rng: Rng): string {
  return garbage(rng, {
    long: () => `RCPT TO:<${"a".repeat(rng.pick([1000, 70_000]))}@example.com>`,
    nul: [
      "\0",
      "NOOP\0",
      "\0NOOP",
      "EHLO a\0b",
      "MAIL FROM:<a\0@dest.test>",
      "RCPT TO:<hello\0@example.com>",
      "AUTH PLAIN \0\0\0",
      "\0".repeat(1000),
    ],
    eightBit: [
      "\xff\xfe",
      "EHLO \xe9\xe8",
      "MAIL FROM:<h\xe9@dest.test>",
      "RCPT TO:<h\xe9@example.com>",
      "\x1b[31m",
      "\x7f\x7f",
    ],
  });
}

/** The MX has no AUTH: every attempt is refused (5xx). */
export function authCommand(rng: Rng, { t }: MxWorld): string {
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
