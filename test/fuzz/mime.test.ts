/**
 * Fuzzes MIME parsing: random and mutated messages (mime-gen.ts: realistic seeds, then byte, line, header,
 * boundary, encoding and nesting mutations) fed to the raw-message path (`readRawMessage`, `singleFrom`,
 * `finalizeRawMessage`) and through the email service's raw submit, the funnel the SMTP relay's DATA uses.
 *
 * Properties: each step either succeeds or throws an `AppError` that is not `internal_error` (an unknown error
 * is a 451 over SMTP: the client would retry a message that can never pass); nothing hangs (each call capped);
 * `finalizeRawMessage` never throws, keeps the body byte for byte, leaves no Bcc or Idempotency-Key field, and
 * is idempotent; a stored message reads back as what finalize made of it and has exactly one From field and at most one Sender (RFC 5322 §3.6).
 *
 * Budget: FUZZ_SECONDS (default 15). Replay: FUZZ_SEED=<seed printed at start and in the failure>.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import {
  finalizeRawMessage,
  readHeader,
  readRawMessage,
  singleFrom,
  type RawMessageView,
} from "../../src/emails/raw-message.ts";
import { AppError } from "../../src/errors.ts";
import type { Actor } from "../../src/access.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { randomMessage } from "./mime-gen.ts";
import { fuzzSeed, fuzzTimeoutMs, runCases, Violations, withTimeout } from "./prng.ts";
import { watchEventLoop } from "./loop-watchdog.ts";

const SEED = fuzzSeed();
/** One parse or submit taking longer than this is a hang. */
const CALL_TIMEOUT_MS = 10_000;
const ADDED = { messageId: "<fuzz@example.com>", date: new Date("2026-11-22T10:00:00.000Z") };

let t: TestApp;
let actors: { live: Actor; test: Actor };

beforeAll(async () => {
  t = await createTestApp();
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  actors = {
    live: await t.app.services.keys.authenticate(t.liveKey),
    test: await t.app.services.keys.authenticate(t.testKey),
  };
});

afterAll(() => t?.close());

/** "ok", or why the outcome breaks the property. */
function judge(outcome: Awaited<ReturnType<typeof withTimeout>>): "ok" | string {
  if (outcome === "timeout") return `no answer in ${CALL_TIMEOUT_MS} ms`;
  if (outcome.ok) return "ok";
  const error = outcome.error;
  if (!(error instanceof AppError))
    return `threw a non-AppError: ${error instanceof Error ? `${error.name}: ${error.message}${"code" in error ? ` (code ${String(error.code)})` : ""}` : String(error)}`;
  if (error.name === "internal_error") return `internal_error: ${String(error.cause)}`;
  return "ok";
}

/** The body: everything from the blank line that ends the header (as finalize sees it). */
function bodyOf(raw: Buffer): Buffer {
  if (raw[0] === 0x0a || (raw[0] === 0x0d && raw[1] === 0x0a)) return raw;
  // The first empty line, whatever the line ends around it (LF or CRLF, mixed): `…\n\r\n` ends the header too.
  const blank = /\n(?=\r?\n)/.exec(raw.toString("latin1"));
  return blank ? raw.subarray(blank.index + 1) : Buffer.alloc(0);
}

/**
 * Names of the header fields (lower case), in order; a line starting with WSP continues the field above. Lines end
 * at CRLF, LF or a lone CR: the From rule must hold for the reader that breaks lines most eagerly too.
 */
function fieldNames(raw: Buffer): string[] {
  const text = raw.toString("latin1");
  const end = text.search(/\r?\n\r?\n/);
  const header = end < 0 ? text : text.slice(0, end);
  return header
    .split(/\r\n|\r|\n/)
    .filter((line) => line && line[0] !== " " && line[0] !== "\t" && line.includes(":"))
    .map((line) => line.slice(0, line.indexOf(":")).trim().toLowerCase());
}

test(
  "random MIME either parses and submits or fails with a public AppError, never internal, never hanging",
  async () => {
    console.log(`fuzz mime seed=${SEED}`);
    const v = new Violations("mime", SEED);
    const counts = { parsed: 0, submitted: 0, refused: new Map<string, number>() };
    const watchdog = watchEventLoop();
    const cases = await runCases("mime", SEED, 2, async (rng, index) => {
      const raw = randomMessage(rng);
      const input =
        raw.length > 2000 ? Buffer.concat([raw.subarray(0, 1500), Buffer.from(`…(${raw.length} bytes)`)]) : raw;

      // finalizeRawMessage: total, body kept, removed fields gone, idempotent.
      try {
        const once = finalizeRawMessage(raw, ADDED);
        if (!bodyOf(once.raw).equals(bodyOf(raw)))
          v.add("finalize changed the body", index, input, once.raw.subarray(0, 600).toString("latin1"));
        for (const name of ["bcc", "idempotency-key"])
          if (readHeader(once.raw, name) !== undefined)
            v.add(`finalize left a ${name} field`, index, input, once.raw.subarray(0, 600).toString("latin1"));
        const twice = finalizeRawMessage(once.raw, ADDED);
        if (!twice.raw.equals(once.raw) || twice.messageId !== once.messageId)
          v.add("finalize is not idempotent", index, input, {
            once: once.raw.subarray(0, 400).toString("latin1"),
            twice: twice.raw.subarray(0, 400).toString("latin1"),
          });
      } catch (error) {
        v.add("finalize threw", index, input, String(error));
      }

      // readRawMessage and singleFrom.
      const parsed = await withTimeout(readRawMessage(raw), CALL_TIMEOUT_MS);
      const parseVerdict = judge(parsed);
      if (parseVerdict !== "ok")
        v.add(`readRawMessage: ${parseVerdict.replace(/\d+/g, "N").slice(0, 120)}`, index, input, parseVerdict);
      if (parsed !== "timeout" && parsed.ok) {
        counts.parsed++;
        try {
          singleFrom(parsed.value as RawMessageView);
        } catch (error) {
          const verdict = judge({ ok: false, error });
          if (verdict !== "ok") v.add("singleFrom threw other than a validation error", index, input, verdict);
        }
      }

      // The funnel: raw submit as the relay makes it.
      const actor = rng.chance(0.7) ? actors.test : actors.live;
      const to = rng.weighted([
        [8, ["a@dest.test"]],
        [2, ["a@dest.test", "b@dest.test", "A@DEST.TEST"]],
        [1, []],
        [1, ["not an address"]],
      ]);
      const submitted = await withTimeout(
        t.app.services.emails.submit(
          { kind: "raw", source: "smtp", raw, envelope: { from: "hi@example.com", to } },
          actor,
        ),
        CALL_TIMEOUT_MS,
      );
      const submitVerdict = judge(submitted);
      if (submitVerdict !== "ok")
        v.add(`submit: ${submitVerdict.replace(/\d+/g, "N").slice(0, 120)}`, index, input, submitVerdict);
      if (submitted !== "timeout" && submitted.ok) {
        counts.submitted++;
        const { id } = submitted.value as { id: string };
        const stored = (await t.app.services.emails.raw(actor, id)).raw;
        const expected = finalizeRawMessage(raw, { messageId: "<x@x>", date: ADDED.date });
        if (!bodyOf(stored).equals(bodyOf(expected.raw)))
          v.add(
            "the stored message's body differs from what was submitted",
            index,
            input,
            stored.subarray(0, 400).toString("latin1"),
          );
        // RFC 5322 §3.6: exactly one From field. With two, the sending policy checked one (mailparser keeps the
        // last) while mail clients show another (most show the first): a way around the verified-domain rule.
        const froms = fieldNames(stored).filter((name) => name === "from").length;
        if (froms !== 1)
          v.add("an accepted message does not have exactly one From field", index, input, {
            fromFields: froms,
            recordedFrom: (await t.app.services.emails.get(actor, id)).from,
            header: stored.subarray(0, 300).toString("latin1"),
          });
        // The same for Sender (at most one), which the policy also reads.
        const senders = fieldNames(stored).filter((name) => name === "sender").length;
        if (senders > 1)
          v.add("an accepted message has more than one Sender field", index, input, {
            senderFields: senders,
            header: stored.subarray(0, 300).toString("latin1"),
          });
      } else if (submitted !== "timeout" && submitted.error instanceof AppError) {
        counts.refused.set(submitted.error.name, (counts.refused.get(submitted.error.name) ?? 0) + 1);
      }
    });
    const refused = [...counts.refused].map(([name, n]) => `${name}:${n}`).join(" ");
    console.log(
      `fuzz mime seed=${SEED}: ${cases} messages, ${counts.parsed} parsed, ${counts.submitted} submitted, refused ${refused}; longest event-loop stall ${Math.round(watchdog.stop())} ms`,
    );
    expect(v.list, v.report()).toEqual([]);
  },
  fuzzTimeoutMs(),
);
