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
 * The commands come from relay-commands.ts, the session machinery shared with the MX from smtp-session.ts; this
 * file owns the relay under test, its checks, the two kinds of session and the run. The inbound MX has its own fuzz
 * target, test/fuzz/mx.test.ts (same wire client, unauthenticated sessions).
 *
 * Budget: FUZZ_SECONDS (default 15). Replay: FUZZ_SEED=<seed printed at start and in the failure>; with
 * FUZZ_CASE=<case> too, one case alone, its transcript printed.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Actor } from "../../src/access.ts";
import { CONFIG_OPTIONS } from "../../src/config/options.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { watchEventLoop } from "./loop-watchdog.ts";
import { wellFormedMessage } from "./mime-gen.ts";
import { fuzzSeed, fuzzTimeoutMs, runCases, Violations, type Rng } from "./prng.ts";
import {
  authCommand,
  authResponse,
  MAX_MESSAGE_BYTES,
  messageFor,
  relayGarbage,
  simpleCommand,
} from "./relay-commands.ts";
import {
  b64,
  checkReplyText,
  createCauseLog,
  type Exchange,
  inSession,
  type ModeHooks,
  randomLine,
  referenceAccepted,
  referenceMessage,
  REPLY_TIMEOUT_MS,
  type SmtpSession,
  type SmtpTarget,
  settle,
} from "./smtp-session.ts";
import { shortLine, type WireReply } from "./smtp-wire.ts";

const SEED = fuzzSeed();

let t: TestApp;
/** Causes of internal errors as the relay logged them, by the reference its reply carried (for the report). */
const causes = createCauseLog();
let ports: { submission: number; smtps: number; http: number };
let liveActor: Actor;

beforeAll(async () => {
  // Failed AUTH replies are slowed per client address (up to seconds); every fuzz session comes from 127.0.0.1
  // and fails AUTH on purpose, so the slowdown is off here — when the option exists — to keep sessions fast.
  const noAuthDelay = "auth_failure_delay" in CONFIG_OPTIONS.smtp ? { auth_failure_delay: "0s" } : {};
  t = await createTestApp(
    {
      smtp: { submission_port: 0, smtps_port: 0, idle_timeout: "20s", ...noAuthDelay },
      limits: {
        key_requests_per_minute: 10_000_000,
        org_requests_per_minute: 10_000_000,
        max_message_bytes: MAX_MESSAGE_BYTES,
      },
    },
    { logger: createLogger("error", causes.remember) },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const listeners = await t.app.start();
  const port = (name: string) => listeners.find((l) => l.name === name)!.port;
  ports = { submission: port("submission"), smtps: port("smtps"), http: port("http") };
  liveActor = await t.app.services.keys.authenticate(t.liveKey);
});

afterAll(() => t?.close());

// ---------------------------------------------------------------------------------------------------------------
// Properties

const stats = { sessions: 0, accepted: 0, refusedAfterData: 0, silentCloses: 0, commands: 0 };

/** The relay as the sessions see it: every reply checked the same way, whatever answered it. */
const relay: SmtpTarget = {
  stats,
  silentExamples: [],
  checkReply(v, index, ex, reply) {
    const input = { listenerAndCommands: ex.sent.slice(-6).map(shortLine) };
    checkReplyText(v, index, input, reply, t.dataDir, (reference, text, code) =>
      code >= 500
        ? ["5xx reply for an internal error", text]
        : ["internal error (reply with a reference)", { reply: text, loggedCause: causes.get(reference)?.logged }],
    );
  },
};

/** DATA content after a 354, then the reply; a 250 must name a stored message. */
async function sendData(session: SmtpSession, rng: Rng, message: Buffer): Promise<WireReply | "closed" | "timeout"> {
  const reply = await session.send(rng, message);
  if (reply === "hung up") return "closed";
  if (typeof reply !== "object") return reply;
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
      session.v.add(
        "250 after DATA without a stored message",
        session.index,
        { commands: session.ex.sent.slice(-6) },
        reply.lines.join("\n"),
      );
  } else stats.refusedAfterData++;
  return reply;
}

/** How a relay session answers a reply that changes its mode: go on after TLS, answer a 334, send a message. */
const modeHooks = (session: SmtpSession, rng: Rng): ModeHooks => ({
  afterTls: async () => true,
  answer: (challenge) => authResponse(rng, challenge, t),
  data: () => sendData(session, rng, messageFor(rng)),
});

/** A random command sequence on one connection. */
async function randomSession(v: Violations, index: number, rng: Rng, ex: Exchange) {
  const implicitTls = rng.chance(0.5);
  ex.sent.push(implicitTls ? "<smtps>" : "<submission>");
  const port = implicitTls ? ports.smtps : ports.submission;
  await inSession(relay, v, index, ex, { port, implicitTls }, (session) =>
    session.wander(
      rng,
      rng.range(1, 25),
      () =>
        randomLine(
          rng,
          [
            [30, "simple"],
            [8, "data"],
            [12, "auth"],
            [6, "starttls"],
            [14, "garbage"],
            [6, "pipelined"],
            [2, "quit"],
          ],
          { simple: simpleCommand, auth: (rng) => authCommand(rng, t), garbage: relayGarbage },
          4,
        ),
      modeHooks(session, rng),
    ),
  );
}

/** A well-behaved authenticated client that sends random MIME. */
async function mailSession(v: Violations, index: number, rng: Rng, ex: Exchange) {
  const implicitTls = rng.chance(0.6);
  ex.sent.push(implicitTls ? "<smtps>" : "<submission>");
  const port = implicitTls ? ports.smtps : ports.submission;
  await inSession(relay, v, index, ex, { port, implicitTls }, async (session) => {
    const step = (line: string) => session.step(line);
    if ((await step("EHLO client.test"))?.code !== 250) return;
    if (!implicitTls) {
      if ((await step("STARTTLS"))?.code !== 220) return;
      if (!(await session.wire.upgrade(REPLY_TIMEOUT_MS)))
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
      const ready = await session.startData(accepted);
      if (ready === undefined) return;
      if (!ready) continue;
      const reply = await sendData(session, rng, messageFor(rng));
      if (typeof reply !== "object") return;
    }
    await step("QUIT");
  });
}

/** The reference message after the run, on one listener. */
function relayReference(port: number, implicitTls: boolean): Promise<string> {
  return referenceMessage(
    port,
    implicitTls,
    async (say, wire) => {
      await say("EHLO client.test");
      if (!implicitTls) {
        if ((await say("STARTTLS")) !== 220 || !(await wire.upgrade(REPLY_TIMEOUT_MS))) return false;
        await say("EHLO client.test");
      }
      await say(`AUTH PLAIN ${b64(`\0apikey\0${t.liveKey}`)}`);
      await say("MAIL FROM:<hi@example.com>");
      await say("RCPT TO:<a@dest.test>");
      return true;
    },
    wellFormedMessage(),
  );
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
      await settle(v, index, ex, rng.chance(0.45) ? mailSession(v, index, rng, ex) : randomSession(v, index, rng, ex));
    });
    const silent = relay.silentExamples;
    console.log(
      `fuzz smtp seed=${SEED}: ${cases} sessions, ${stats.commands} commands, ${stats.accepted} messages accepted, ${stats.refusedAfterData} refused after DATA, ${stats.silentCloses} closes without a reply${silent.length ? ` (e.g. ${silent.join("; ")})` : ""}; longest event-loop stall ${Math.round(watchdog.stop())} ms`,
    );

    // The relay still takes a well-formed message on both listeners, and the HTTP side is alive.
    for (const [name, port, tls] of [
      ["smtps", ports.smtps, true],
      ["submission", ports.submission, false],
    ] as const) {
      await referenceAccepted(
        v,
        `a well-formed message after the run is refused (${name})`,
        "EHLO, AUTH, MAIL, RCPT, DATA",
        relayReference(port, tls),
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
