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
 * The setup is mx-world.ts; the inputs come from mx-addresses.ts, mx-commands.ts and mx-reports.ts; the sessions
 * (mx-sessions.ts, on the machinery shared with the relay's target, smtp-session.ts) record what they prove in the
 * run's ledger (mx-ledger.ts). This file owns the run and the checks after it.
 *
 * Budget: FUZZ_SECONDS (default 15). Replay: FUZZ_SEED=<seed printed at start and in the failure>; with
 * FUZZ_CASE=<case> too, one case alone, its transcript printed.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createLogger } from "../../src/lib/logger.ts";
import { createMxRun, watchStalls } from "./mx-ledger.ts";
import { burstSession, mailSession, mxReference, randomSession } from "./mx-sessions.ts";
import { type MxWorld, startMxWorld } from "./mx-world.ts";
import { fuzzSeed, fuzzTimeoutMs, runCases, Violations } from "./prng.ts";
import { createCauseLog, type Exchange, referenceAccepted, settle } from "./smtp-session.ts";

const SEED = fuzzSeed();

let world: MxWorld;
/**
 * Causes of internal errors as the MX logged them, by the reference its reply carried (for the report): the
 * error's name and message (which also names the violation, so each distinct cause gets its own examples) and
 * the start of the logged error.
 */
const causes = createCauseLog();

beforeAll(async () => {
  world = await startMxWorld(createLogger("error", causes.remember));
});

afterAll(() => world?.t.close());

const parseJson = (value: unknown) =>
  typeof value === "string" ? (JSON.parse(value) as Record<string, any>) : (value as Record<string, any>);

test(
  "the MX answers random sessions with well-formed replies, is never an open relay, stores what it accepts, and keeps working",
  async () => {
    console.log(`fuzz mx seed=${SEED}`);
    const v = new Violations("mx", SEED);
    const run = createMxRun(world, causes, v);
    const { ledger } = run;
    const { stats } = ledger;
    const stopWatching = watchStalls(ledger);
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
          ? mailSession(run, index, rng, ex)
          : kind === "random"
            ? randomSession(run, index, rng, ex)
            : burstSession(run, index, rng, ex);
      await settle(v, index, ex, session);
    });
    stopWatching();
    for (const stall of ledger.stalls) {
      v.add(
        "event loop blocked (every session and the API stall)",
        stall.suspects[0]?.index ?? -1,
        { messagesBeingHandled: stall.suspects.map((s) => `case ${s.index} (${s.bytes} bytes)`) },
        `${stall.ms} ms`,
      );
    }

    // What the 250s after DATA account for: never more rows than they can explain, every ordinary message stored.
    const rows = await world.t.app.services.store.query<{ envelope_from: string }>(
      sql`SELECT envelope_from FROM received_emails`,
    );
    if (rows.length > ledger.rowBound)
      v.add(
        "more received_emails rows than the 250s after DATA account for",
        -1,
        { accepted: stats.accepted, unanswered: stats.unanswered, rowBound: ledger.rowBound },
        { rows: rows.length },
      );
    const byEnvelope = new Map<string, number>();
    for (const row of rows) byEnvelope.set(row.envelope_from, (byEnvelope.get(row.envelope_from) ?? 0) + 1);
    for (const message of ledger.mustBeStored) {
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
    const events = await world.t.app.services.store.query<{
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
          ledger.burstCase.get(emailId) ?? -1,
          { email: emailId, recipient, burst: ledger.burstCase.has(emailId) },
          `${count} ${type} events`,
        );
    }
    const codes = [...ledger.afterData]
      .map(([code, { count, example }]) => `${code}×${count} (e.g. ${JSON.stringify(example)})`)
      .join(", ");
    console.log(
      `fuzz mx seed=${SEED}: ${cases} sessions, ${stats.commands} commands, RCPT in well-behaved sessions ${stats.rcptAccepted} accepted / ${stats.rcptRefused} refused, ${stats.mustRefuse} answered to addresses that must be refused; after DATA: ${codes || "none"}; ${stats.unanswered} unanswered; ${rows.length} rows stored (at most ${ledger.rowBound} accounted for), ${stats.mustStore} ordinary messages checked stored; ${events.length} report events; ${stats.silentCloses} closes without a reply${ledger.silentExamples.length ? ` (e.g. ${ledger.silentExamples.join("; ")})` : ""}; worst event-loop lag ${Math.round(ledger.worstLag)} ms; slowest replies after DATA: ${ledger.slowest.map((s) => `${s.ms} ms (case ${s.index}, ${s.bytes} bytes)`).join(", ")}`,
    );

    // The MX still takes a well-formed message, which the receiving API lists; the HTTP side is alive.
    const accepted = await referenceAccepted(
      v,
      "a well-formed message after the run is refused",
      "EHLO, MAIL, RCPT hello@example.com, DATA",
      mxReference(run),
    );
    if (accepted) {
      const listed = await world.t.json("GET", "/v1/emails/receiving?limit=100");
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
    const health = await world.t.app.http.handle(new Request("http://localhost/healthz"));
    if (health.status !== 200)
      v.add("healthz after the run", -1, "GET /healthz", { status: health.status, body: await health.text() });

    expect(v.list, v.report()).toEqual([]);
  },
  fuzzTimeoutMs(),
);
