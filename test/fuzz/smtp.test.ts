/**
 * Fuzzes the SMTP relay over real loopback sockets (submission with STARTTLS, smtps with implicit TLS): random
 * command sequences — EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, VRFY, AUTH PLAIN/LOGIN with valid and invalid
 * credentials, STARTTLS, QUIT, garbage, long lines, NUL bytes, bare LF, 8-bit bytes — and authenticated sessions
 * that send random MIME (mime-gen.ts) through DATA.
 *
 * Properties: every reply line follows the RFC 5321 §4.2 grammar (code, then SP or "-", CRLF, at most 512
 * octets, one code per multi-line reply); an internal error is never answered with a 5xx (the relay answers
 * 451 4.3.0 with a "reference"; any reply carrying a reference is reported, a 5xx one as the worse defect); no
 * internals in reply text; no session hangs (short per-reply deadlines); a 250 after DATA names a stored
 * message. Afterwards the relay still accepts a well-formed authenticated message (250) on both listeners and
 * /healthz answers 200.
 *
 * The inbound MX has its own fuzz target, test/fuzz/mx.test.ts (same wire client, unauthenticated sessions).
 *
 * Budget: FUZZ_SECONDS (default 15). Replay: FUZZ_SEED=<seed printed at start and in the failure>.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { CONFIG_SCHEMA } from "../../src/config/schema.ts";
import type { Actor } from "../../src/access.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { randomMessage, wellFormedMessage } from "./mime-gen.ts";
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
import { watchEventLoop } from "./loop-watchdog.ts";

const SEED = fuzzSeed();
/** A reply that takes longer than this is a hang. Generous for a loaded CI machine, short next to the budget. */
const REPLY_TIMEOUT_MS = 5_000;
const SESSION_TIMEOUT_MS = 30_000;
const MAX_MESSAGE_BYTES = 2_000_000;

let t: TestApp;
/** Causes of internal errors as the relay logged them, by the reference its reply carried (for the report). */
const causes = new Map<string, string>();
function rememberInternalError(line: string) {
  try {
    const entry = JSON.parse(line) as { reference?: string; err?: unknown };
    if (entry.reference) causes.set(entry.reference, JSON.stringify(entry.err).slice(0, 300));
  } catch {
    // not JSON: nothing to remember
  }
}
let ports: { submission: number; smtps: number; http: number };
let liveActor: Actor;

beforeAll(async () => {
  // Failed AUTH replies are slowed per client address (up to seconds); every fuzz session comes from 127.0.0.1
  // and fails AUTH on purpose, so the slowdown is off here — when the option exists — to keep sessions fast.
  const noAuthDelay = "auth_failure_delay" in CONFIG_SCHEMA.smtp ? { auth_failure_delay: "0s" } : {};
  t = await createTestApp(
    {
      smtp: { submission_port: 0, smtps_port: 0, idle_timeout: "20s", ...noAuthDelay },
      limits: {
        key_requests_per_minute: 10_000_000,
        org_requests_per_minute: 10_000_000,
        max_message_bytes: MAX_MESSAGE_BYTES,
      },
    },
    { logger: createLogger("error", rememberInternalError) },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const listeners = await t.app.start();
  const port = (name: string) => listeners.find((l) => l.name === name)!.port;
  ports = { submission: port("submission"), smtps: port("smtps"), http: port("http") };
  liveActor = await t.app.services.keys.authenticate(t.liveKey);
});

afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------------------------
// Generators

const b64 = (s: string) => Buffer.from(s, "latin1").toString("base64");
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
const MAIL_PARAMS = [
  "",
  " SIZE=100",
  " SIZE=99999999999",
  " SIZE=-1",
  " BODY=8BITMIME",
  " BODY=BINARYMIME",
  " SMTPUTF8",
  " RET=FULL",
  " ENVID=x",
  " AUTH=<>",
  " REQUIRETLS",
  " FOO=bar",
  " SIZE",
  " =",
  ` ${"P".repeat(600)}`,
];

function password(rng: Rng): string {
  return rng.weighted([
    [6, t.liveKey],
    [3, t.testKey],
    [2, "mr_live_00000000000000000000000000000000"],
    [1, t.liveKey.slice(0, -1)],
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
function simpleCommand(rng: Rng): string {
  return rng.pick([
    () =>
      `${rng.pick(["EHLO", "HELO", "ehlo", "Ehlo"])}${rng.pick([" client.test", " [127.0.0.1]", "", ` ${randomString(rng, 30).replace(/[\r\n]/g, "")}`, " h\xe9llo.test", " a b c"])}`,
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
    () =>
      rng.pick([
        "RSET",
        "NOOP",
        "NOOP hello",
        "HELP",
        "HELP DATA",
        "VRFY a@dest.test",
        "VRFY",
        "EXPN list",
        "TURN",
        "ETRN x",
        "XCLIENT ADDR=1.2.3.4",
        "XFORWARD NAME=x",
        "BDAT 10 LAST",
        "rset",
        " NOOP",
        "NOOP ",
      ]),
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
    () =>
      rng.pick([
        "\0",
        "NOOP\0",
        "\0NOOP",
        "EHLO a\0b",
        "MAIL FROM:<a\0@dest.test>",
        "AUTH PLAIN \0\0\0",
        "\0".repeat(1000),
      ]),
    () => rng.pick(["\xff\xfe", "EHLO \xe9\xe8", "MAIL FROM:<h\xe9@example.com>", "\x1b[31m", "\x7f\x7f"]),
    () => rng.pick(["GET / HTTP/1.1", "QUIT QUIT", "DATA DATA", "STARTTLS now", ".", "..", "", " ", "\t"]),
  ])();
}

function authCommand(rng: Rng): string {
  return rng.pick([
    () => `AUTH PLAIN ${b64(`\0${username(rng)}\0${password(rng)}`)}`,
    () => `AUTH PLAIN ${b64(`${rng.pick(["", "authz"])}\0${username(rng)}\0${password(rng)}`)}`,
    () =>
      `AUTH PLAIN ${rng.pick(["", "=", "!!!", "AAAA", b64("noseparators"), b64("\0\0"), b64(`\0apikey\0${t.liveKey}\0extra`), "*"])}`,
    () => "AUTH PLAIN",
    () => "AUTH LOGIN",
    () => `AUTH LOGIN ${b64(username(rng))}`,
    () =>
      rng.pick([
        "AUTH CRAM-MD5",
        "AUTH XOAUTH2 dXNlcj1h",
        "AUTH",
        "AUTH NTLM",
        `AUTH plain ${b64(`\0apikey\0${t.liveKey}`)}`,
      ]),
  ])();
}

/** What to answer to a 334 challenge. */
function authResponse(rng: Rng, challenge: string): string {
  if (rng.chance(0.15)) return rng.pick(["*", "", "!!!", b64(randomString(rng, 30))]);
  if (/VXNlcm5hbWU6/.test(challenge)) return b64(username(rng));
  if (/UGFzc3dvcmQ6/.test(challenge)) return b64(password(rng));
  return b64(`\0${username(rng)}\0${password(rng)}`);
}

/** A message for DATA: random MIME most of the time, sometimes oversized. */
function messageFor(rng: Rng): Buffer {
  if (rng.chance(0.04)) return Buffer.from(wellFormedMessage() + "x".repeat(MAX_MESSAGE_BYTES + 10), "latin1");
  return randomMessage(rng);
}

// ---------------------------------------------------------------------------------------------------------------
// Properties

interface Exchange {
  sent: string[];
  replies: WireReply[];
}

function checkReply(v: Violations, index: number, ex: Exchange, reply: WireReply) {
  const input = { listenerAndCommands: ex.sent.slice(-6).map(shortLine) };
  const text = reply.lines.join("\n");
  for (const [property, shown] of replyFormProblems(reply)) v.add(property, index, input, shown);
  if (/reference/i.test(text)) {
    if (reply.code >= 500) v.add("5xx reply for an internal error", index, input, text);
    else
      v.add("internal error (reply with a reference)", index, input, {
        reply: text,
        loggedCause: causes.get(/reference ([0-9a-f-]{36})/.exec(text)?.[1] ?? ""),
      });
  }
  const leak = internalsIn(text, t.dataDir);
  if (leak) v.add(`internals in reply text (${leak})`, index, input, text);
}

const stats = { sessions: 0, accepted: 0, refusedAfterData: 0, silentCloses: 0, commands: 0 };
const silentExamples: string[] = [];

/** Sends one line (or raw bytes) and reads `expect` replies; false when the session is over. */
async function exchange(
  v: Violations,
  index: number,
  wire: SmtpWire,
  ex: Exchange,
  line: string,
  expect = 1,
): Promise<WireReply | "closed" | "timeout"> {
  ex.sent.push(line);
  stats.commands++;
  // Text beyond latin1 goes out as UTF-8, as a real client would send it (latin1 would truncate U+020A to LF).
  const bytes = Buffer.from(`${line}\r\n`, /[^\x00-\xff]/.test(line) ? "utf8" : "latin1");
  // smtp-server ends a command at every LF: one reply per line.
  expect = Math.max(expect, bytes.toString("latin1").split("\n").length - 1);
  wire.write(bytes);
  let last: WireReply | "closed" | "timeout" = "closed";
  for (let i = 0; i < expect; i++) {
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
    // 421 and 221 end the session: commands pipelined after them get no reply (RFC 5321 §3.8).
    if (last.code === 421 || last.code === 221) break;
  }
  return last;
}

/** DATA content after a 354, then the reply; a 250 must name a stored message. */
async function sendData(
  v: Violations,
  index: number,
  wire: SmtpWire,
  ex: Exchange,
  rng: Rng,
  message: Buffer,
): Promise<WireReply | "closed" | "timeout"> {
  ex.sent.push(
    `<message ${message.length} bytes: ${shortLine(JSON.stringify(message.subarray(0, 150).toString("latin1")))}>`,
  );
  if (rng.chance(0.03)) {
    // The client goes away mid-message: nothing may be stored, nothing may break.
    wire.write(message.subarray(0, message.length >> 1));
    wire.close();
    return "closed";
  }
  wire.write(dataPayload(message));
  const reply = await wire.read(REPLY_TIMEOUT_MS + 10_000);
  if (reply === "timeout") {
    v.add(
      "no reply after the message (hang)",
      index,
      { commands: ex.sent.slice(-6) },
      { partial: shortLine(wire.pending()) },
    );
    return reply;
  }
  if (reply === "closed") return reply;
  ex.replies.push(reply);
  checkReply(v, index, ex, reply);
  if (reply.code === 250) {
    stats.accepted++;
    const id = /queued as ([0-9a-f-]{36})/.exec(reply.lines.join(" "))?.[1];
    let stored = false;
    try {
      stored = !!id && !!t.app.services.emails.get(liveActor, id);
    } catch {
      stored = false;
    }
    if (!stored)
      v.add("250 after DATA without a stored message", index, { commands: ex.sent.slice(-6) }, reply.lines.join("\n"));
  } else stats.refusedAfterData++;
  return reply;
}

/** Reacts to a reply that changes the session's mode (TLS, AUTH challenge, DATA); false when the session ended. */
async function follow(
  v: Violations,
  index: number,
  wire: SmtpWire,
  ex: Exchange,
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
      return true;
    }
    if (current.code === 334) {
      line = authResponse(rng, current.lines.join(" "));
      current = await exchange(v, index, wire, ex, line);
      continue;
    }
    if (current.code === 354) {
      current = await sendData(v, index, wire, ex, rng, messageFor(rng));
      continue;
    }
    if (current.code === 221 || current.code === 421) return false;
    return true;
  }
  return typeof current === "object";
}

/** A random command sequence on one connection. */
async function randomSession(v: Violations, index: number, rng: Rng, ex: Exchange) {
  const implicitTls = rng.chance(0.5);
  ex.sent.push(implicitTls ? "<smtps>" : "<submission>");
  const wire = await SmtpWire.open(implicitTls ? ports.smtps : ports.submission, implicitTls, REPLY_TIMEOUT_MS);
  try {
    const greeting = await wire.read(REPLY_TIMEOUT_MS);
    if (typeof greeting !== "object") return v.add("no greeting", index, ex.sent, greeting);
    checkReply(v, index, ex, greeting);
    const steps = rng.range(1, 25);
    for (let step = 0; step < steps; step++) {
      const kind = rng.weighted([
        [30, "simple"],
        [8, "data"],
        [12, "auth"],
        [6, "starttls"],
        [14, "garbage"],
        [6, "pipelined"],
        [2, "quit"],
      ] as const);
      let line: string;
      let expect = 1;
      if (kind === "simple") line = simpleCommand(rng);
      else if (kind === "data") line = rng.pick(["DATA", "data", "DATA x"]);
      else if (kind === "auth") line = authCommand(rng);
      else if (kind === "starttls") line = rng.pick(["STARTTLS", "starttls", "STARTTLS x"]);
      else if (kind === "garbage") line = garbage(rng);
      else if (kind === "quit") line = "QUIT";
      else {
        // Several commands in one write, some split by a bare LF: one reply each.
        const commands = Array.from({ length: rng.range(2, 4) }, () => simpleCommand(rng));
        expect = commands.length;
        line = commands.map((c, i) => (i ? rng.pick(["\r\n", "\n"]) : "") + c).join("");
      }
      const reply = await exchange(v, index, wire, ex, line, expect);
      if (!(await follow(v, index, wire, ex, rng, line, reply))) return;
    }
    if (rng.chance(0.7)) await exchange(v, index, wire, ex, "QUIT");
  } finally {
    wire.close();
  }
}

/** A well-behaved authenticated client that sends random MIME. */
async function mailSession(v: Violations, index: number, rng: Rng, ex: Exchange) {
  const implicitTls = rng.chance(0.6);
  ex.sent.push(implicitTls ? "<smtps>" : "<submission>");
  const wire = await SmtpWire.open(implicitTls ? ports.smtps : ports.submission, implicitTls, REPLY_TIMEOUT_MS);
  const step = async (line: string) => {
    const reply = await exchange(v, index, wire, ex, line);
    return typeof reply === "object" ? reply : undefined;
  };
  try {
    const greeting = await wire.read(REPLY_TIMEOUT_MS);
    if (typeof greeting !== "object") return v.add("no greeting", index, ex.sent, greeting);
    checkReply(v, index, ex, greeting);
    if ((await step("EHLO client.test"))?.code !== 250) return;
    if (!implicitTls) {
      if ((await step("STARTTLS"))?.code !== 220) return;
      if (!(await wire.upgrade(REPLY_TIMEOUT_MS)))
        return v.add("STARTTLS handshake failed after 220", index, ex.sent, "");
      if ((await step("EHLO client.test"))?.code !== 250) return;
    }
    const key = rng.chance(0.7) ? t.liveKey : t.testKey;
    if (rng.chance(0.5)) {
      if ((await step(`AUTH PLAIN ${b64(`\0apikey\0${key}`)}`))?.code !== 235)
        return v.add("valid AUTH PLAIN refused", index, ex.sent, ex.replies.at(-1));
    } else {
      if ((await step("AUTH LOGIN"))?.code !== 334 || (await step(b64("apikey")))?.code !== 334) return;
      if ((await step(b64(key)))?.code !== 235)
        return v.add("valid AUTH LOGIN refused", index, ex.sent, ex.replies.at(-1));
    }
    for (let n = rng.range(1, 3); n > 0; n--) {
      const from = rng.weighted([
        [8, "hi@example.com"],
        [1, "x@unverified.example"],
        [1, ""],
      ]);
      const mail = await step(`MAIL FROM:<${from}>${rng.pick(["", " BODY=8BITMIME", " SIZE=1000"])}`);
      if (!mail) return;
      if (mail.code !== 250) continue;
      let accepted = 0;
      for (let r = rng.range(1, 3); r > 0; r--) {
        const rcpt = await step(
          `RCPT TO:<${rng.pick(["a@dest.test", "b@dest.test", "c@other.test", "A@Dest.Test", "bad@", "x@unverified.example"])}>`,
        );
        if (!rcpt) return;
        if (rcpt.code === 250) accepted++;
      }
      const data = await step("DATA");
      if (!data) return;
      if (data.code !== 354) {
        if (accepted > 0)
          v.add("DATA refused after an accepted recipient", index, ex.sent.slice(-6), data.lines.join("\n"));
        await step("RSET");
        continue;
      }
      const reply = await sendData(v, index, wire, ex, rng, messageFor(rng));
      if (typeof reply !== "object") return;
    }
    await step("QUIT");
  } finally {
    wire.close();
  }
}

/** The reference message after the run, on one listener. */
async function referenceMessage(port: number, implicitTls: boolean): Promise<string> {
  const wire = await SmtpWire.open(port, implicitTls, REPLY_TIMEOUT_MS);
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
    await say("EHLO client.test");
    if (!implicitTls) {
      if ((await say("STARTTLS")) !== 220 || !(await wire.upgrade(REPLY_TIMEOUT_MS))) return transcript.join("\n");
      await say("EHLO client.test");
    }
    await say(`AUTH PLAIN ${b64(`\0apikey\0${t.liveKey}`)}`);
    await say("MAIL FROM:<hi@example.com>");
    await say("RCPT TO:<a@dest.test>");
    await say("DATA");
    const code = await say(dataPayload(Buffer.from(wellFormedMessage(), "latin1")));
    return code === 250 ? "250" : transcript.join("\n");
  } finally {
    wire.close();
  }
}

test(
  "the relay answers random sessions with well-formed replies, never a 5xx for an internal error, and keeps working",
  async () => {
    console.log(`fuzz smtp seed=${SEED}`);
    const v = new Violations("smtp", SEED);
    const watchdog = watchEventLoop();
    const cases = await runCases("smtp", SEED, 4, async (rng, index) => {
      stats.sessions++;
      const ex: Exchange = { sent: [], replies: [] };
      const session = rng.chance(0.45) ? mailSession(v, index, rng, ex) : randomSession(v, index, rng, ex);
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
    console.log(
      `fuzz smtp seed=${SEED}: ${cases} sessions, ${stats.commands} commands, ${stats.accepted} messages accepted, ${stats.refusedAfterData} refused after DATA, ${stats.silentCloses} closes without a reply${silentExamples.length ? ` (e.g. ${silentExamples.join("; ")})` : ""}; longest event-loop stall ${Math.round(watchdog.stop())} ms`,
    );

    // The relay still takes a well-formed message on both listeners, and the HTTP side is alive.
    for (const [name, port, tls] of [
      ["smtps", ports.smtps, true],
      ["submission", ports.submission, false],
    ] as const) {
      const result = await withTimeout(referenceMessage(port, tls), 20_000);
      const ok = typeof result === "object" && result.ok && result.value === "250";
      if (!ok)
        v.add(
          `a well-formed message after the run is refused (${name})`,
          -1,
          "EHLO, AUTH, MAIL, RCPT, DATA",
          typeof result === "object" ? (result.ok ? result.value : String(result.error)) : result,
        );
    }
    const health = await t.json("GET", "/healthz", { key: null });
    if (health.status !== 200 || health.body?.status !== "ok")
      v.add("healthz after the run", -1, "GET /healthz", health);
    const overSocket = await fetch(`http://127.0.0.1:${ports.http}/healthz`);
    if (overSocket.status !== 200)
      v.add("healthz over the socket after the run", -1, "GET /healthz", overSocket.status);

    expect(v.list, v.report()).toEqual([]);
  },
  fuzzTimeoutMs(),
);
