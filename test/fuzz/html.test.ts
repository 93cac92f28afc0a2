/**
 * Fuzzes what reads a client's html besides the click-tracking rewrite (html-rewrite.test.ts): composition on the
 * CPU pool as emails.submit runs it (src/workers, src/emails/compose.ts, tracking included), and the offline AI
 * subject scorer (src/ai/subject-score.ts), with generated html (html-gen.ts).
 *
 * Properties: composition settles within COMPOSE_TIMEOUT_MS and answers a message; the scorer does not throw and
 * its score is an integer in 0..100. The event loop's longest stall while each target runs is measured with
 * test/fuzz/loop-watchdog.ts, printed, and must stay under the target's bound (POOL_STALL_BOUND_MS,
 * SCORER_STALL_BOUND_MS): the pool's thread does the work, and the scorer reads a bounded share of the html.
 *
 * Budget: FUZZ_SECONDS per target (default 2, so `npm test` stays fast). Replay: FUZZ_SEED=<seed printed at the
 * start and in a failure>, one case: FUZZ_CASE=<i>.
 */
import { afterAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { scoreSubject } from "../../src/ai/subject-score.ts";
import { composeRequest } from "../../src/emails/compose.ts";
import { createCpuPool } from "../../src/cpu/pool.ts";
import { BASE, randomHtml } from "./html-gen.ts";
import { noteStall, report, SECONDS, SEED, type Stalls, TIMEOUT_MS, yieldToLoop } from "./html-targets.ts";
import { watchEventLoop } from "./loop-watchdog.ts";
import { randomString, runCases, Violations, withTimeout } from "./prng.ts";

/** The scorer runs on the event loop in the product too (POST /ai/subject) and reads 64 KiB of html at most: ~15 ms. */
const SCORER_STALL_BOUND_MS = 250;
/** Composition runs on a pool thread: the loop only copies the request and the answer (a few ms per MiB). */
const POOL_STALL_BOUND_MS = 250;
/** A message the pool has not composed in this time is a hang (generated inputs compose in under a second). */
const COMPOSE_TIMEOUT_MS = 30_000;

const pool = createCpuPool(new URL("../../src/cpu/thread.ts", import.meta.url), 1);
afterAll(() => pool.close());

test(
  "fuzz html: composition with tracking on the CPU pool settles, and the event loop only waits for it",
  async () => {
    const v = new Violations("html-compose", SEED);
    const stalls: Stalls = { longest: 0, caseIndex: -1, bytes: 0 };
    const tokenKey = randomBytes(32);
    const cases = await runCases(
      "html-compose",
      SEED,
      1,
      async (rng, index) => {
        const html = randomHtml(rng);
        const fields = {
          from: { name: "Acme", address: "hi@example.com" },
          to: [{ name: "", address: "reader@dest.test" }],
          cc: [],
          bcc: [],
          replyTo: [],
          subject: randomString(rng, 40),
          html,
          text: rng.chance(0.2) ? randomString(rng, 200) : undefined,
          headers: [],
          attachments: [],
          tags: [],
        };
        const tracking = {
          tokenKey,
          baseUrl: BASE,
          opens: rng.chance(0.5),
          ...(rng.chance(0.8) && { clicksExpireAt: Date.now() + 86_400_000 }),
        };
        const request = composeRequest(rng.uuid(), fields, Date.now(), {
          tracking,
          unsubscribeUrl: rng.chance(0.3) ? `${BASE}/u/token` : undefined,
        });
        const watchdog = watchEventLoop();
        const outcome = await withTimeout(pool.compose(request, "fuzz"), COMPOSE_TIMEOUT_MS);
        noteStall(stalls, watchdog.stop(), index, html.length);
        if (outcome === "timeout") v.add("composition settles", index, html, `no answer in ${COMPOSE_TIMEOUT_MS} ms`);
        else if (!outcome.ok) v.add("composition of any html succeeds", index, html, String(outcome.error));
        else if (!outcome.value.raw.length || typeof outcome.value.text !== "string")
          v.add("composition answers a message", index, html, outcome.value);
        if (stalls.caseIndex === index && stalls.longest >= POOL_STALL_BOUND_MS)
          v.add("composition holds the event loop", index, html, `${Math.round(stalls.longest)} ms`);
      },
      SECONDS,
    );
    console.log(report("compose", cases, stalls, POOL_STALL_BOUND_MS));
    expect(v.count, v.report()).toBe(0);
  },
  TIMEOUT_MS + COMPOSE_TIMEOUT_MS,
);

test(
  "fuzz html: the AI subject scorer reads any html and scores 0..100",
  async () => {
    const v = new Violations("html-subject-score", SEED);
    const stalls: Stalls = { longest: 0, caseIndex: -1, bytes: 0 };
    const cases = await runCases(
      "html-subject-score",
      SEED,
      1,
      async (rng, index) => {
        const html = randomHtml(rng);
        const subject = randomString(rng, 120);
        await yieldToLoop();
        const watchdog = watchEventLoop();
        let scored: ReturnType<typeof scoreSubject> | undefined;
        try {
          scored = scoreSubject({ subject, html });
        } catch (error) {
          v.add("the scorer throws", index, { subject, html }, String(error));
        } finally {
          noteStall(stalls, watchdog.stop(), index, html.length);
        }
        if (scored && !(Number.isInteger(scored.score) && scored.score >= 0 && scored.score <= 100))
          v.add("the score is an integer in 0..100", index, { subject, html }, scored);
        if (stalls.caseIndex === index && stalls.longest >= SCORER_STALL_BOUND_MS)
          v.add("the scorer holds the event loop", index, { subject, html }, `${Math.round(stalls.longest)} ms`);
      },
      SECONDS,
    );
    console.log(report("subject score", cases, stalls, SCORER_STALL_BOUND_MS));
    expect(v.count, v.report()).toBe(0);
  },
  TIMEOUT_MS,
);
