/**
 * The relay fuzz target's commands (smtp.test.ts): addresses and MAIL parameters, the commands that never switch a
 * session's mode (safe to pipeline), garbage, AUTH PLAIN and LOGIN with valid and invalid credentials and what to
 * answer to a 334, and the messages for DATA (random MIME, sometimes over the size limit). `keys` are the run's API
 * keys; everything else comes from the case's Rng alone.
 */
import { randomMessage, wellFormedMessage } from "./mime-gen.ts";
import { randomString, type Rng } from "./prng.ts";
import { b64, garbage, helloCommand, MAIL_EXTENSIONS, otherCommands } from "./smtp-session.ts";

/** The relay's size limit (smtp.test.ts configures it): a message over it must be refused. */
export const MAX_MESSAGE_BYTES = 2_000_000;

/** The live and test API keys of the run: AUTH's passwords. */
export interface RelayKeys {
  liveKey: string;
  testKey: string;
}

/** MAIL and RCPT addresses: the verified sender, recipients, unverified, empty, malformed, long, with NUL. */
const ADDRESSES = [
  "hi@example.com",
  "a@dest.test",
  "A@DEST.TEST",
  "x@unverified.example",
  "",
  "a@b@c",
  "bücher@dest.test",
  "a@[127.0.0.1]",
  '"q u"@dest.test',
  "a@xn--.test",
  `${"x".repeat(70)}@dest.test`,
  `a@${"d".repeat(260)}.test`,
  "postmaster",
  "a\0b@dest.test",
  "a@dest.test>junk",
];
/** Commands outside a transaction (smtp-session.ts), with the relay's VRFY lines. */
const OTHER_COMMANDS = otherCommands(["VRFY a@dest.test", "VRFY"], "x");
const MAIL_PARAMS = [
  "",
  " SIZE=100",
  " SIZE=99999999999",
  " SIZE=-1",
  " BODY=8BITMIME",
  ...MAIL_EXTENSIONS,
  " SIZE",
  " =",
  ` ${"P".repeat(600)}`,
];

function password(rng: Rng, keys: RelayKeys): string {
  return rng.weighted([
    [6, keys.liveKey],
    [3, keys.testKey],
    [2, "mr_live_00000000000000000000000000000000"],
    [1, keys.liveKey.slice(0, -1)],
    [1, ""],
    [1, randomString(rng, 40)],
  ]);
}

function username(rng: Rng): string {
  return rng.weighted([
    [8, "apikey"],
    [1, "APIKEY"],
    [1, ""],
    [1, randomString(rng, 20)],
  ]);
}

/** A command that yields exactly one reply and never switches the session's mode (safe to pipeline). */
export function simpleCommand(rng: Rng): string {
  return rng.pick([
    () => helloCommand(rng, "client.test"),
    () => `MAIL FROM:<${rng.pick(ADDRESSES)}>${rng.pick(MAIL_PARAMS)}`,
    () =>
      rng.pick([
        "MAIL FROM:",
        "MAIL FROM:<>",
        "MAIL FROM: <hi@example.com>",
        "MAIL hi@example.com",
        "MAIL FROM:hi@example.com",
        "MAIL FROM:<<hi@example.com>>",
      ]),
    () => `RCPT TO:<${rng.pick(ADDRESSES)}>${rng.pick(["", " NOTIFY=NEVER", " ORCPT=rfc822;x@y", " X=Y"])}`,
    () => rng.pick(["RCPT TO:", "RCPT TO:<>", "RCPT TO:<postmaster>", "RCPT a@dest.test"]),
    () => rng.pick(OTHER_COMMANDS),
  ])();
}

/** Bytes no well-behaved client sends (smtp-session.ts), with the relay's own NUL and 8-bit lines. */
export function relayGarbage(rng: Rng): string {
  return garbage(rng, {
    nul: ["\0", "NOOP\0", "\0NOOP", "EHLO a\0b", "MAIL FROM:<a\0@dest.test>", "AUTH PLAIN \0\0\0", "\0".repeat(1000)],
    eightBit: ["\xff\xfe", "EHLO \xe9\xe8", "MAIL FROM:<h\xe9@example.com>", "\x1b[31m", "\x7f\x7f"],
  });
}

/** AUTH PLAIN and LOGIN, valid and not, and mechanisms the relay does not offer. */
export function authCommand(rng: Rng, keys: RelayKeys): string {
  return rng.pick([
    () => `AUTH PLAIN ${b64(`\0${username(rng)}\0${password(rng, keys)}`)}`,
    () => `AUTH PLAIN ${b64(`${rng.pick(["", "authz"])}\0${username(rng)}\0${password(rng, keys)}`)}`,
    () =>
      `AUTH PLAIN ${rng.pick(["", "=", "!!!", "AAAA", b64("noseparators"), b64("\0\0"), b64(`\0apikey\0${keys.liveKey}\0extra`), "*"])}`,
    () => "AUTH PLAIN",
    () => "AUTH LOGIN",
    () => `AUTH LOGIN ${b64(username(rng))}`,
    () =>
      rng.pick([
        "AUTH CRAM-MD5",
        "AUTH XOAUTH2 dXNlcj1h",
        "AUTH",
        "AUTH NTLM",
        `AUTH plain ${b64(`\0apikey\0${keys.liveKey}`)}`,
      ]),
  ])();
}

/** What to answer to a 334 challenge. */
export function authResponse(rng: Rng, challenge: string, keys: RelayKeys): string {
  if (rng.chance(0.15)) return rng.pick(["*", "", "!!!", b64(randomString(rng, 30))]);
  if (/VXNlcm5hbWU6/.test(challenge)) return b64(username(rng));
  if (/UGFzc3dvcmQ6/.test(challenge)) return b64(password(rng, keys));
  return b64(`\0${username(rng)}\0${password(rng, keys)}`);
}

/** A message for DATA: random MIME most of the time, sometimes oversized. */
export function messageFor(rng: Rng): Buffer {
  if (rng.chance(0.04)) return Buffer.from(wellFormedMessage() + "x".repeat(MAX_MESSAGE_BYTES + 10), "latin1");
  return randomMessage(rng);
}
