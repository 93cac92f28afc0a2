/**
 * What the html fuzz targets share: one seed and one budget for all of them (FUZZ_SEED, FUZZ_SECONDS per target,
 * default 2 so `npm test` stays fast), and the record of the longest event-loop stall a target's cases caused, which
 * each target prints and holds to its own bound.
 */
import { fuzzSeconds, fuzzSeed, fuzzTimeoutMs } from "./prng.ts";

export const SEED = fuzzSeed();
const DEFAULT_SECONDS = 2;
export const SECONDS = fuzzSeconds(DEFAULT_SECONDS);
export const TIMEOUT_MS = fuzzTimeoutMs(DEFAULT_SECONDS);

console.log(`fuzz html seed=${SEED} (replay: FUZZ_SEED=${SEED}), ${SECONDS} s per target`);

/** The longest event-loop stall of a target's cases: how long, in which case, on how many bytes of html. */
export interface Stalls {
  longest: number;
  caseIndex: number;
  bytes: number;
}

export function noteStall(stalls: Stalls, ms: number, caseIndex: number, bytes: number): void {
  if (ms > stalls.longest) Object.assign(stalls, { longest: ms, caseIndex, bytes });
}

/** The line a target prints after its run. */
export function report(target: string, cases: number, stalls: Stalls, bound: number): string {
  return `fuzz html ${target} seed=${SEED}: ${cases} cases; longest event-loop stall ${Math.round(stalls.longest)} ms (case ${stalls.caseIndex}, ${stalls.bytes} bytes; bound ${bound} ms)`;
}

/** Lets timers and I/O run before a measured call, so its stall is its own. */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
