/**
 * What the two SMTP fuzz targets — the relay (smtp.test.ts) and the MX (mx.test.ts) — share above the wire
 * (smtp-wire.ts): a session's transcript, one line exchanged for its replies, a message written after a 354, the
 * reaction to a reply that changes the session's mode, the generators of commands both listeners get, a session run
 * under its deadline, and the scripted client of the message each sends after its run.
 *
 * A target brings its own judgement through `SmtpTarget` (how it checks a reply, what it counts), and a session its
 * own through hooks; the checks common to both listeners are `checkReplyText`. Nothing here draws from the case's
 * Rng except where a function takes one, and then in the order the targets always drew.
 */
import { internalsIn, onlyCase, randomString, type Rng, type Violations, withTimeout } from "./prng.ts";
import { dataPayload, type ReadOutcome, replyFormProblems, shortLine, SmtpWire, type WireReply } from "./smtp-wire.ts";

/** A reply that takes longer than this is a hang. Generous for a loaded CI machine, short next to the budget. */
export const REPLY_TIMEOUT_MS = 5_000;
export const SESSION_TIMEOUT_MS = 30_000;

export const b64 = (s: string) => Buffer.from(s, "latin1").toString("base64");

/** What a session sent (lines, markers such as "<smtps>" or "<message …>") and the replies it got. */
export interface Exchange {
  sent: string[];
  replies: WireReply[];
}

// ---------------------------------------------------------------------------------------------------------------
// Internal errors and the checks every reply gets

/** An internal error as the listener logged it: a summary (name and message, digits as N) and the logged error. */
export interface LoggedCause {
  summary: string;
  logged: string;
}

/**
 * Causes of internal errors as the app logged them, by the reference its reply carried (for the report). `remember`
 * is the app logger's sink.
 */
export function createCauseLog() {
  const causes = new Map<string, LoggedCause>();
  return {
    remember(line: string) {
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
    },
    get: (reference: string) => causes.get(reference),
  };
}

/**
 * The checks of every reply on every listener: the RFC 5321 §4.2 form (smtp-wire.ts), no "reference" (an internal
 * error: `internal` names the violation and what to show, given the reference, the text and the code), no internals
 * in the text.
 */
export function checkReplyText(
  v: Violations,
  index: number,
  input: unknown,
  reply: WireReply,
  dataDir: string,
  internal: (reference: string, text: string, code: number) => [property: string, observed: unknown],
): void {
  const text = reply.lines.join("\n");
  for (const [property, shown] of replyFormProblems(reply)) v.add(property, index, input, shown);
  if (/reference/i.test(text)) {
    const [property, observed] = internal(/reference ([0-9a-f-]{36})/.exec(text)?.[1] ?? "", text, reply.code);
    v.add(property, index, input, observed);
  }
  const leak = internalsIn(text, dataDir);
  if (leak) v.add(`internals in reply text (${leak})`, index, input, text);
}

// ---------------------------------------------------------------------------------------------------------------
// Sessions

/** A fuzz target's side of a session: how it judges a reply, and what it counts. */
export interface SmtpTarget {
  stats: { commands: number; silentCloses: number };
  /** A few sessions the listener closed without a reply, for the summary. */
  silentExamples: string[];
  checkReply(v: Violations, index: number, ex: Exchange, reply: WireReply): void;
  /** Called once a message is written; the function it returns once its reply came (or did not). */
  handling?(index: number, bytes: number): () => void;
}

/** What a session does when a reply changes its mode (see `follow`). */
export interface ModeHooks {
  /** After a completed STARTTLS handshake; false ends the session. */
  afterTls(): Promise<boolean>;
  /** The answer to a 334 challenge. */
  answer(challenge: string): string;
  /** The message after a 354, and its reply. */
  data(): Promise<ReadOutcome>;
}

/** One connection of a case: its wire, the case's transcript, and the target that judges its replies. */
export class SmtpSession {
  constructor(
    readonly target: SmtpTarget,
    readonly v: Violations,
    readonly index: number,
    readonly ex: Exchange,
    readonly wire: SmtpWire,
    /** Per-command checks: each reply with the command it answers. */
    private readonly onCommand?: (command: string, reply: WireReply) => void,
  ) {}

  /** Reads and checks the greeting; false (and a violation) when none came. */
  async greet(): Promise<boolean> {
    const greeting = await this.wire.read(REPLY_TIMEOUT_MS);
    if (typeof greeting !== "object") {
      this.v.add("no greeting", this.index, this.ex.sent, greeting);
      return false;
    }
    this.target.checkReply(this.v, this.index, this.ex, greeting);
    return true;
  }

  /**
   * Sends one line (or several joined by LF) and reads one reply per line; every reply is checked, and each one
   * against the command it answers. Ends early at 421/221 or when the session is over.
   */
  async exchange(line: string): Promise<ReadOutcome> {
    const { v, index, ex, wire, target } = this;
    ex.sent.push(line);
    target.stats.commands++;
    // Text beyond latin1 goes out as UTF-8, as a real client would send it (latin1 would truncate U+020A to LF).
    const bytes = Buffer.from(`${line}\r\n`, /[^\x00-\xff]/.test(line) ? "utf8" : "latin1");
    // smtp-server ends a command at every LF: one reply per line.
    const commands = line.split("\n").map((c) => c.replace(/\r$/, ""));
    wire.write(bytes);
    let last: ReadOutcome = "closed";
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
        target.stats.silentCloses++;
        if (target.silentExamples.length < 5)
          target.silentExamples.push(`case ${index}: ${shortLine(JSON.stringify(ex.sent.at(-1)))}`);
        return last;
      }
      ex.replies.push(last);
      target.checkReply(v, index, ex, last);
      this.onCommand?.(command, last);
      // 421 and 221 end the session: commands pipelined after them get no reply (RFC 5321 §3.8).
      if (last.code === 421 || last.code === 221) break;
    }
    return last;
  }

  /** `exchange`, with the reply only when there was one. */
  async step(line: string): Promise<WireReply | undefined> {
    const reply = await this.exchange(line);
    return typeof reply === "object" ? reply : undefined;
  }

  /** Upgrades after a 220 to STARTTLS; false (and a violation) when the handshake fails. */
  async upgrade(): Promise<boolean> {
    if (await this.wire.upgrade(REPLY_TIMEOUT_MS)) return true;
    this.v.add("STARTTLS handshake failed after 220", this.index, { commands: this.ex.sent.slice(-6) }, "");
    return false;
  }

  /**
   * The message after a 354, then its reply, checked; 3 % of the time the client goes away mid-message instead
   * ("hung up"). A reply that never comes is a hang.
   */
  async send(rng: Rng, message: Buffer): Promise<ReadOutcome | "hung up"> {
    const { v, index, ex, wire, target } = this;
    ex.sent.push(
      `<message ${message.length} bytes: ${shortLine(JSON.stringify(message.subarray(0, 150).toString("latin1")))}>`,
    );
    if (rng.chance(0.03)) {
      // The client goes away mid-message: nothing may be stored, nothing may break.
      wire.write(message.subarray(0, message.length >> 1));
      wire.close();
      return "hung up";
    }
    wire.write(dataPayload(message));
    const handled = target.handling?.(index, message.length);
    const reply = await wire.read(REPLY_TIMEOUT_MS + 10_000);
    handled?.();
    if (reply === "timeout")
      v.add(
        "no reply after the message (hang)",
        index,
        { commands: ex.sent.slice(-6) },
        { partial: shortLine(wire.pending()) },
      );
    if (typeof reply !== "object") return reply;
    ex.replies.push(reply);
    target.checkReply(v, index, ex, reply);
    return reply;
  }

  /**
   * DATA after a transaction that accepted `accepted` recipients: true at a 354; false when refused (a violation
   * after an accepted recipient), after an RSET; undefined when the session ended.
   */
  async startData(accepted: number): Promise<boolean | undefined> {
    const data = await this.step("DATA");
    if (!data) return undefined;
    if (data.code === 354) return true;
    if (accepted > 0)
      this.v.add("DATA refused after an accepted recipient", this.index, this.ex.sent.slice(-6), data.lines.join("\n"));
    await this.step("RSET");
    return false;
  }

  /** Reacts to a reply that changes the session's mode (TLS, AUTH challenge, DATA); false when the session ended. */
  async follow(line: string, reply: ReadOutcome, hooks: ModeHooks): Promise<boolean> {
    let current = reply;
    for (let guard = 0; guard < 4 && typeof current === "object"; guard++) {
      if (current.code === 220 && /^starttls$/i.test(line.trim())) return (await this.upgrade()) && hooks.afterTls();
      if (current.code === 334) {
        line = hooks.answer(current.lines.join(" "));
        current = await this.exchange(line);
        continue;
      }
      if (current.code === 354) {
        current = await hooks.data();
        continue;
      }
      if (current.code === 221 || current.code === 421) return false;
      return true;
    }
    return typeof current === "object";
  }

  /** `steps` random lines (`next`), each reply followed; then, mostly, QUIT. */
  async wander(rng: Rng, steps: number, next: () => string, hooks: ModeHooks): Promise<void> {
    for (let step = 0; step < steps; step++) {
      const line = next();
      const reply = await this.exchange(line);
      if (!(await this.follow(line, reply, hooks))) return;
    }
    if (rng.chance(0.7)) await this.exchange("QUIT");
  }
}

/** Opens a connection, reads its greeting and, if one came, runs `body`; the connection is closed after. */
export async function inSession(
  target: SmtpTarget,
  v: Violations,
  index: number,
  ex: Exchange,
  connection: { port: number; implicitTls: boolean; onCommand?: (command: string, reply: WireReply) => void },
  body: (session: SmtpSession) => Promise<unknown>,
): Promise<void> {
  const wire = await SmtpWire.open(connection.port, connection.implicitTls, REPLY_TIMEOUT_MS);
  const session = new SmtpSession(target, v, index, ex, wire, connection.onCommand);
  try {
    if (await session.greet()) await body(session);
  } finally {
    wire.close();
  }
}

/**
 * Runs one case's session under SESSION_TIMEOUT_MS: a session that does not finish, or whose client fails, is a
 * violation. Replaying one case (FUZZ_CASE) prints its transcript.
 */
export async function settle(v: Violations, index: number, ex: Exchange, session: Promise<unknown>): Promise<void> {
  const outcome = await withTimeout(session, SESSION_TIMEOUT_MS);
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
}

// ---------------------------------------------------------------------------------------------------------------
// Commands both listeners get

/** A random line of a session: `weights` say how often each kind comes, `make` writes the target's own kinds. */
export type LineKind = "simple" | "data" | "auth" | "starttls" | "garbage" | "pipelined" | "quit";

export function randomLine(
  rng: Rng,
  weights: ReadonlyArray<readonly [number, LineKind]>,
  make: { simple(rng: Rng): string; auth(rng: Rng): string; garbage(rng: Rng): string },
  maxPipelined: number,
): string {
  const kind = rng.weighted(weights);
  if (kind === "simple") return make.simple(rng);
  if (kind === "data") return rng.pick(["DATA", "data", "DATA x"]);
  if (kind === "auth") return make.auth(rng);
  if (kind === "starttls") return rng.pick(["STARTTLS", "starttls", "STARTTLS x"]);
  if (kind === "garbage") return make.garbage(rng);
  if (kind === "quit") return "QUIT";
  // Several commands in one write, some split by a bare LF: one reply each.
  return Array.from({ length: rng.range(2, maxPipelined) }, () => make.simple(rng))
    .map((c, i) => (i ? rng.pick(["\r\n", "\n"]) : "") + c)
    .join("");
}

/** EHLO or HELO, in any case, with `name` or an odd argument. */
export const helloCommand = (rng: Rng, name: string) =>
  `${rng.pick(["EHLO", "HELO", "ehlo", "Ehlo"])}${rng.pick([` ${name}`, " [127.0.0.1]", "", ` ${randomString(rng, 30).replace(/[\r\n]/g, "")}`, " h\xe9llo.test", " a b c"])}`;

/** MAIL FROM parameters both listeners may meet (RFC 1870, 6152, 6531, 3461, 4954, 8689, and unknown ones). */
export const MAIL_EXTENSIONS = [
  " BODY=BINARYMIME",
  " SMTPUTF8",
  " RET=FULL",
  " ENVID=x",
  " AUTH=<>",
  " REQUIRETLS",
  " FOO=bar",
];

/** Commands outside a mail transaction, some no listener offers; with the target's VRFY lines and ETRN argument. */
export const otherCommands = (vrfy: readonly string[], etrn: string) => [
  "RSET",
  "NOOP",
  "NOOP hello",
  "HELP",
  "HELP DATA",
  ...vrfy,
  "EXPN list",
  "TURN",
  `ETRN ${etrn}`,
  "XCLIENT ADDR=1.2.3.4",
  "XFORWARD NAME=x",
  "BDAT 10 LAST",
  "rset",
  " NOOP",
  "NOOP ",
];

/**
 * Bytes no well-behaved client sends: random text and bytes, long lines, the target's own `long` line if any, a pick
 * of its lines with NUL and with 8-bit bytes, and other protocols' or half commands.
 */
export function garbage(
  rng: Rng,
  own: { long?: () => string; nul: readonly string[]; eightBit: readonly string[] },
): string {
  return rng.pick([
    () => randomString(rng, 200).replace(/[\r\n]/g, " "),
    () =>
      Buffer.from(rng.bytes(rng.length(300)))
        .toString("latin1")
        .replace(/[\r\n]/g, "\0"),
    () => `NOOP ${"x".repeat(rng.pick([1000, 8000, 16_383, 16_385, 70_000, 200_000]))}`,
    () => "x".repeat(rng.pick([513, 1001, 16_385, 200_000])),
    ...(own.long ? [own.long] : []),
    () => rng.pick(own.nul),
    () => rng.pick(own.eightBit),
    () => rng.pick(["GET / HTTP/1.1", "QUIT QUIT", "DATA DATA", "STARTTLS now", ".", "..", "", " ", "\t"]),
  ])();
}

// ---------------------------------------------------------------------------------------------------------------
// After the run

/** Each command's reply code (0 without one); the transcript is kept for the report. */
export type Say = (line: string) => Promise<number>;

/**
 * The well-formed message a target sends after its run: greeting, `commands` (false: stop there), DATA, `message`.
 * "250" when it was accepted, else the transcript.
 */
export async function referenceMessage(
  port: number,
  implicitTls: boolean,
  commands: (say: Say, wire: SmtpWire) => Promise<boolean>,
  message: string,
): Promise<string> {
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
    if (!(await commands(say, wire))) return transcript.join("\n");
    await say("DATA");
    const code = await say(dataPayload(Buffer.from(message, "latin1")));
    return code === 250 ? "250" : transcript.join("\n");
  } finally {
    wire.close();
  }
}

/** Whether the reference message (within 20 s) got its 250; if not, `property` is a violation showing why. */
export async function referenceAccepted(
  v: Violations,
  property: string,
  input: string,
  message: Promise<string>,
): Promise<boolean> {
  const result = await withTimeout(message, 20_000);
  const ok = typeof result === "object" && result.ok && result.value === "250";
  if (!ok)
    v.add(property, -1, input, typeof result === "object" ? (result.ok ? result.value : String(result.error)) : result);
  return ok;
}
