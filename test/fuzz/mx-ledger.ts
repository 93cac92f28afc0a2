/**
 * What the MX fuzz target's sessions check and record as they go (mx.test.ts): the checks of every reply (the
 * RFC 5321 form and no "reference" at all: smtp-session.ts) and of every command (AUTH never accepted, never an
 * open relay), the counts of the summary, the slowest replies after DATA, the event-loop stalls with the messages in
 * hand when they happened, and what the 250s after DATA account for — the received_emails rows they may explain and
 * the ordinary messages that must be stored — which the test checks after the run.
 */
import { domainOf, mustRefuse, stripRoute } from "./mx-addresses.ts";
import type { MxWorld } from "./mx-world.ts";
import type { Violations } from "./prng.ts";
import { checkReplyText, type createCauseLog, type Exchange, type SmtpTarget } from "./smtp-session.ts";
import { shortLine, type WireReply } from "./smtp-wire.ts";

/**
 * An event-loop stall this long is a hang in the making: the MX runs in this process, and every session and the
 * HTTP API wait for it. Far above the loop's usual worst lag under this load (a few hundred ms).
 */
const STALL_MS = 2_000;

/** What a session knows of its mail transaction: the RCPT addresses answered 250 since the last end of data. */
export interface Transaction {
  accepted: Set<string>;
}

/** A message being handled: its case and size. */
type InHand = { index: number; bytes: number };

/** The run's records: counts, replies after DATA, stalls, and what the accepted messages account for. */
export function createLedger() {
  return {
    stats: {
      sessions: 0,
      commands: 0,
      mustRefuse: 0,
      accepted: 0,
      silentCloses: 0,
      unanswered: 0,
      mustStore: 0,
      rcptAccepted: 0,
      rcptRefused: 0,
    },
    /** Replies after DATA by code: how many, and one example. */
    afterData: new Map<string, { count: number; example: string }>(),
    silentExamples: [] as string[],
    /** The slowest replies after DATA (for the summary: the cases to replay alone when something was slow). */
    slowest: [] as Array<{ ms: number } & InHand>,
    handling: new Set<InHand>(),
    stalls: [] as Array<{ ms: number; suspects: InHand[] }>,
    worstLag: 0,
    /** The most received_emails rows the 250s after DATA can account for: one per organisation and return path reached. */
    rowBound: 0,
    /** Ordinary messages to receiving addresses only, answered 250: each must be stored (`orgs` rows, by envelope sender). */
    mustBeStored: [] as Array<{ envelopeFrom: string; orgs: number; index: number; commands: string[] }>,
    /** The case that sent each report burst's message, by email id (to name the case of a delivery changed twice). */
    burstCase: new Map<string, number>(),
  };
}

export type MxLedger = ReturnType<typeof createLedger>;

/** One fuzz run of the MX: its world, its records, the target that checks replies, and the violations. */
export interface MxRun {
  world: MxWorld;
  ledger: MxLedger;
  target: SmtpTarget;
  v: Violations;
}

export function createMxRun(world: MxWorld, causes: ReturnType<typeof createCauseLog>, v: Violations): MxRun {
  const ledger = createLedger();
  const target: SmtpTarget = {
    stats: ledger.stats,
    silentExamples: ledger.silentExamples,
    checkReply(v, index, ex, reply) {
      const input = { commands: ex.sent.slice(-6).map(shortLine) };
      checkReplyText(v, index, input, reply, world.t.dataDir, (reference, text, code) => {
        const cause = causes.get(reference);
        const because = cause ? ` — ${cause.summary}` : "";
        return [
          code >= 500
            ? `5xx reply for an internal error${because}`
            : `internal error (reply with a reference)${because}`,
          { reply: text, loggedCause: cause?.logged },
        ];
      });
    },
    handling(index, bytes) {
      const started = Date.now();
      const inHand = { index, bytes };
      ledger.handling.add(inHand);
      return () => {
        ledger.handling.delete(inHand);
        noteSlow(ledger, Date.now() - started, index, bytes);
      };
    },
  };
  return { world, ledger, target, v };
}

function noteSlow(ledger: MxLedger, ms: number, index: number, bytes: number) {
  const { slowest } = ledger;
  slowest.push({ ms, index, bytes });
  slowest.sort((a, b) => b.ms - a.ms);
  slowest.length = Math.min(slowest.length, 3);
}

/** Per-command properties: AUTH never accepted, never an open relay; accepted recipients join the transaction. */
export function checkCommand(
  { v, ledger, world }: MxRun,
  index: number,
  ex: Exchange,
  tx: Transaction,
  command: string,
  reply: WireReply,
) {
  const input = { commands: ex.sent.slice(-6).map(shortLine) };
  if (/^AUTH\b/i.test(command) && reply.code < 400)
    v.add("AUTH accepted on the MX", index, input, reply.lines.join("\n"));
  const rcpt = /^RCPT TO:\s*<([^<>]*)>/i.exec(command);
  if (rcpt && mustRefuse(rcpt[1]!, world)) ledger.stats.mustRefuse++;
  if (rcpt && reply.code === 250) {
    if (mustRefuse(rcpt[1]!, world))
      v.add("open relay: RCPT accepted for an address the MX must refuse", index, input, reply.lines.join("\n"));
    tx.accepted.add(rcpt[1]!);
  }
}

/**
 * One process runs the MX and this client: a message whose handling blocks the event loop stalls every session
 * (and the HTTP API) without any reply timing out, since the timers wait too. So the loop's lag is watched; a stall
 * of STALL_MS or more is recorded, blamed on the messages being handled at the time (replay each alone: its own
 * reply time is in the summary). Returns the function that stops watching.
 */
export function watchStalls(ledger: MxLedger): () => void {
  const tick = 100;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const lag = now - last - tick;
    last = now;
    ledger.worstLag = Math.max(ledger.worstLag, lag);
    if (lag >= STALL_MS) ledger.stalls.push({ ms: Math.round(lag), suspects: [...ledger.handling] });
  }, tick);
  return () => clearInterval(timer);
}

/** Rows a message accepted for these recipients may become: one per organisation, one per return-path delivery. */
export function rowsFor({ codec, receivingOrg }: MxWorld, accepted: Set<string>): { bound: number; orgs: Set<string> } {
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
