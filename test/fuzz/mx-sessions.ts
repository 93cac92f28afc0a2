/**
 * The MX fuzz target's sessions (mx.test.ts), each on real loopback connections: a random command sequence; a
 * well-behaved sending MTA (ordinary messages to receiving addresses, real-world reports to return paths, or a mix,
 * refused recipients in between); a burst of the same report over several connections at once; and the reference
 * message after the run. What each reply and message proves is recorded in the run's ledger (mx-ledger.ts).
 */
import { authCommand, MAIL_FROMS, MAIL_PARAMS, mxGarbage, simpleCommand } from "./mx-commands.ts";
import { checkCommand, type MxRun, rowsFor, type Transaction } from "./mx-ledger.ts";
import {
  cleanReceivingAddress,
  foreignAddress,
  forgedReturnPath,
  rcptAddress,
  shuffle,
  validReturnPath,
} from "./mx-addresses.ts";
import { DEFINITE_REPORTS, messageFor, oversizedMessage, reportMessage } from "./mx-reports.ts";
import { MAX_MESSAGE_BYTES, sendTracked } from "./mx-world.ts";
import { randomMessage, wellFormedMessage } from "./mime-gen.ts";
import type { Rng } from "./prng.ts";
import {
  b64,
  type Exchange,
  inSession,
  type ModeHooks,
  randomLine,
  REPLY_TIMEOUT_MS,
  referenceMessage,
  SmtpSession,
} from "./smtp-session.ts";
import { type ReadOutcome, shortLine, SmtpWire } from "./smtp-wire.ts";

/** A connection to the MX whose commands are checked against the session's transaction. */
const mxConnection = (run: MxRun, index: number, ex: Exchange, tx: Transaction) => ({
  port: run.world.mxPort,
  implicitTls: false,
  onCommand: (command: string, reply: Parameters<typeof checkCommand>[5]) =>
    checkCommand(run, index, ex, tx, command, reply),
});

/**
 * DATA content after a 354, then the reply. A 250 is counted with the rows it may account for; an oversized
 * message must get 552 5.3.4. The transaction ends whatever the reply.
 */
async function sendData(
  { v, ledger, world }: MxRun,
  session: SmtpSession,
  tx: Transaction,
  rng: Rng,
  message: Buffer,
  oversized: boolean,
): Promise<ReadOutcome> {
  const { index, ex } = session;
  const accepted = rowsFor(world, tx.accepted);
  tx.accepted = new Set();
  const reply = await session.send(rng, message);
  if (reply === "hung up") return "closed";
  if (typeof reply !== "object") {
    // Unknown whether it was stored: the row count may be one higher for it.
    ledger.stats.unanswered++;
    ledger.rowBound += accepted.bound;
    return reply;
  }
  const text = reply.lines.join(" | ");
  const seen = ledger.afterData.get(String(reply.code)) ?? { count: 0, example: shortLine(text) };
  seen.count++;
  ledger.afterData.set(String(reply.code), seen);
  if (oversized && !(reply.code === 552 && /\b5\.3\.4\b/.test(text)))
    v.add("oversized message not answered 552 5.3.4", index, { commands: ex.sent.slice(-6) }, text);
  if (reply.code === 250) {
    ledger.stats.accepted++;
    ledger.rowBound += accepted.bound;
    if (oversized) v.add("250 for a message over the size limit", index, { commands: ex.sent.slice(-6) }, text);
  }
  return reply;
}

/** How an MX session answers a reply that changes its mode: start over after TLS, answer a 334, send a message. */
const modeHooks = (run: MxRun, session: SmtpSession, tx: Transaction, rng: Rng): ModeHooks => ({
  async afterTls() {
    // RFC 3207 §4.2: the session starts over.
    tx.accepted = new Set();
    return !rng.chance(0.8) || typeof (await session.exchange("EHLO mx.dest.test")) === "object";
  },
  // Already a violation (no AUTH here); answer so the session goes on.
  answer: () => rng.pick(["*", b64(`\0apikey\0${run.world.t.liveKey}`), b64("apikey")]),
  data() {
    const { message, oversized } = messageFor(rng, run.world);
    return sendData(run, session, tx, rng, message, oversized);
  },
});

/** A random command sequence on one connection. */
export async function randomSession(run: MxRun, index: number, rng: Rng, ex: Exchange) {
  ex.sent.push("<mx>");
  const tx: Transaction = { accepted: new Set() };
  await inSession(run.target, run.v, index, ex, mxConnection(run, index, ex, tx), async (session) => {
    // Mostly past the greeting and into a transaction, so RCPT and DATA are judged rather than refused for order.
    const opening = [
      rng.chance(0.85) ? rng.pick(["EHLO mx.dest.test", "HELO mx.dest.test", "EHLO [127.0.0.1]"]) : "",
      rng.chance(0.7) ? `MAIL FROM:<${rng.pick(MAIL_FROMS)}>${rng.chance(0.7) ? "" : rng.pick(MAIL_PARAMS)}` : "",
    ];
    for (const line of opening.filter(Boolean)) if (typeof (await session.exchange(line)) !== "object") return;
    await session.wander(
      rng,
      rng.range(1, 30),
      () =>
        randomLine(
          rng,
          [
            [34, "simple"],
            [8, "data"],
            [5, "auth"],
            [5, "starttls"],
            [12, "garbage"],
            [8, "pipelined"],
            [2, "quit"],
          ],
          {
            simple: (rng) => simpleCommand(rng, run.world),
            auth: (rng) => authCommand(rng, run.world),
            garbage: mxGarbage,
          },
          5,
        ),
      modeHooks(run, session, tx, rng),
    );
  });
}

/**
 * A well-behaved sending MTA (EHLO, STARTTLS or not, then up to three transactions): ordinary random MIME to
 * receiving addresses only (must be stored when accepted), real-world reports to return paths and receiving
 * addresses, or a mix; refused recipients interleaved.
 */
export async function mailSession(run: MxRun, index: number, rng: Rng, ex: Exchange) {
  const { v, ledger, world } = run;
  ex.sent.push("<mx>");
  const tx: Transaction = { accepted: new Set() };
  await inSession(run.target, v, index, ex, mxConnection(run, index, ex, tx), async (session) => {
    const step = (line: string) => session.step(line);
    const hello = rng.chance(0.85) ? "EHLO mx.dest.test" : "HELO mx.dest.test";
    if ((await step(hello))?.code !== 250) return v.add("EHLO refused", index, ex.sent, ex.replies.at(-1));
    if (hello.startsWith("EHLO") && rng.chance(0.5)) {
      if ((await step("STARTTLS"))?.code !== 220) return v.add("STARTTLS refused", index, ex.sent, ex.replies.at(-1));
      if (!(await session.wire.upgrade(REPLY_TIMEOUT_MS)))
        return v.add("STARTTLS handshake failed after 220", index, ex.sent, "");
      if ((await step(hello))?.code !== 250) return;
    }
    for (let n = rng.range(1, 3); n > 0; n--) {
      const kind = rng.weighted([
        [5, "ordinary"],
        [4, "report"],
        [2, "mixed"],
      ] as const);
      const about = rng.pick(world.sent);
      const returnPath = rng.chance(0.8) ? about.returnPath : validReturnPath(rng, world);
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
              () => (rng.chance(0.5) ? forgedReturnPath(rng, world) : foreignAddress(rng)),
            );
      const recipients =
        kind === "mixed"
          ? Array.from({ length: rng.range(1, 4) }, () => rcptAddress(rng, world))
          : shuffle(rng, [...wanted, ...refused]);
      for (const address of recipients) {
        const rcpt = await step(`RCPT TO:<${address}>`);
        if (!rcpt) return;
        if (rcpt.code === 250) ledger.stats.rcptAccepted++;
        else ledger.stats.rcptRefused++;
        if (wanted.includes(address) && rcpt.code !== 250)
          v.add(
            "RCPT refused for a receiving address or a verified return path",
            index,
            ex.sent.slice(-6),
            rcpt.lines.join("\n"),
          );
      }
      const acceptedNow = new Set(tx.accepted);
      const ready = await session.startData(acceptedNow.size);
      if (ready === undefined) return;
      if (!ready) {
        tx.accepted = new Set();
        continue;
      }
      const oversized = rng.chance(0.03);
      const message = oversized
        ? oversizedMessage()
        : kind === "report" || (kind === "mixed" && rng.chance(0.5))
          ? reportMessage(rng, world, about, returnPath)
          : randomMessage(rng);
      const reply = await sendData(run, session, tx, rng, message, oversized);
      if (typeof reply !== "object") return;
      // Ordinary MIME to receiving addresses only (never a report about this organisation's mail): stored.
      if (reply.code === 250 && kind === "ordinary") {
        const { orgs, bound } = rowsFor(world, acceptedNow);
        if (bound > 0 && orgs.size === bound) {
          ledger.stats.mustStore++;
          ledger.mustBeStored.push({
            envelopeFrom: from,
            orgs: orgs.size,
            index,
            commands: ex.sent.slice(-8).map(shortLine),
          });
        }
      }
    }
    await step("QUIT");
  });
}

/**
 * The same report delivered over several connections at once (a remote MTA retrying, copies through several MX
 * hosts of ours), about a fresh delivery: the first copy may bounce it or complain, the others must change nothing.
 */
export async function burstSession(run: MxRun, index: number, rng: Rng, ex: Exchange) {
  const { v, world } = run;
  const about = await sendTracked(world.t, world.codec, `burst-${index}@dest.test`, `burst ${index}`);
  if ("refused" in about)
    return v.add("sending a message for a report burst failed", index, "POST /v1/emails", about.refused);
  run.ledger.burstCase.set(about.emailId, index);
  const message = reportMessage(rng, world, about, about.returnPath, DEFINITE_REPORTS, true);
  // A feedback loop often reports to an address of the domain rather than to the return path.
  const to = rng.chance(0.3) ? "fbl@example.com" : about.returnPath;
  const copies = rng.range(2, 4);
  ex.sent.push(`<${copies} connections at once: the same report to ${to}>`);
  const wires = await Promise.all(
    Array.from({ length: copies }, () => SmtpWire.open(world.mxPort, false, REPLY_TIMEOUT_MS)),
  );
  try {
    // Each connection up to the 354, then every copy of the message written at the same moment.
    const sessions = wires.map((wire) => {
      const tx: Transaction = { accepted: new Set() };
      const { onCommand } = mxConnection(run, index, ex, tx);
      return { tx, session: new SmtpSession(run.target, v, index, ex, wire, onCommand) };
    });
    const ready = await Promise.all(
      sessions.map(async ({ tx, session }) => {
        if (!(await session.greet())) return undefined;
        for (const line of ["EHLO mx.dest.test", "MAIL FROM:<>", `RCPT TO:<${to}>`, "DATA"]) {
          const reply = await session.exchange(line);
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
      sessions.map(({ session }, i) => (ready[i] ? sendData(run, session, ready[i], rng, message, false) : undefined)),
    );
  } finally {
    for (const wire of wires) wire.close();
  }
}

/** The reference message after the run: a plain message to a receiving address. */
export function mxReference(run: MxRun): Promise<string> {
  return referenceMessage(
    run.world.mxPort,
    false,
    async (say) => {
      await say("EHLO mx.dest.test");
      await say("MAIL FROM:<after-the-run@sender.test>");
      await say("RCPT TO:<hello@example.com>");
      return true;
    },
    wellFormedMessage("mx after the fuzzing"),
  );
}
