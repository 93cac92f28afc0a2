/**
 * The fuzz suite's seeds and case loop: a seedable PRNG (mulberry32), one seed per case, the time budget, and the
 * loop that runs a target's cases. Invariant: case `i` of a target is generated from `caseSeed(seed, target, i)`
 * alone, so a run is replayed exactly with `FUZZ_SEED=<seed>` (and one case alone with `FUZZ_CASE=<i>`), however
 * many cases the time budget let the first run reach.
 *
 * A target imports its whole kit from here: the value generators (value-gen.ts) and the violation log
 * (violations.ts) are re-exported below.
 */

export { INTERESTING_STRINGS, type Json, jsonText, randomJson, randomString, wrongType } from "./value-gen.ts";
export { describe, internalsIn, type Violation, Violations } from "./violations.ts";

/** mulberry32: 32-bit state, full period, good enough for test-input generation (not for anything secret). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the parts, then a murmur finaliser: one 32-bit seed per (run seed, target, case). */
export function caseSeed(seed: number, target: string, index: number): number {
  let h = 0x811c9dc5;
  for (const ch of `${seed >>> 0}:${target}:${index}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** Integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  /** Picks by weight: `[[weight, value], …]`. */
  weighted<T>(entries: ReadonlyArray<readonly [number, T]>): T {
    const total = entries.reduce((sum, [w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [w, value] of entries) if ((r -= w) < 0) return value;
    return entries.at(-1)![1];
  }
  /** Lengths skewed towards small, with an occasional large one. */
  length(max: number): number {
    const r = this.next();
    if (r < 0.6) return this.int(Math.min(max, 8) + 1);
    if (r < 0.9) return this.int(Math.min(max, 64) + 1);
    return this.int(max + 1);
  }
  hex(n: number): string {
    let s = "";
    for (let i = 0; i < n; i++) s += "0123456789abcdef"[this.int(16)];
    return s;
  }
  uuid(): string {
    return `${this.hex(8)}-${this.hex(4)}-7${this.hex(3)}-${this.pick(["8", "9", "a", "b"])}${this.hex(3)}-${this.hex(12)}`;
  }
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Budget, seed, replay

/** FUZZ_SECONDS, else the target's own default (15 s unless it asks for less, to keep `npm test` fast). */
export function fuzzSeconds(fallback = 15): number {
  const value = Number(process.env.FUZZ_SECONDS ?? fallback);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Per-test timeout: the budget plus room for setup, the after-run checks and teardown. */
export function fuzzTimeoutMs(fallback = 15): number {
  return fuzzSeconds(fallback) * 1000 + 30_000;
}

export function fuzzSeed(): number {
  const given = process.env.FUZZ_SEED;
  if (given !== undefined && given !== "") {
    const n = Number(given);
    if (!Number.isInteger(n)) throw new Error(`FUZZ_SEED must be an integer, got ${JSON.stringify(given)}`);
    return n >>> 0;
  }
  return Math.floor(Math.random() * 2 ** 32) >>> 0;
}

/** `FUZZ_CASE=<i>` replays one case of each target instead of running for the budget. */
export function onlyCase(): number | undefined {
  const given = process.env.FUZZ_CASE;
  return given === undefined || given === "" ? undefined : Number(given);
}

/**
 * Runs `body` for case 0, 1, 2, … until the budget is spent (or only `FUZZ_CASE`), `concurrency` cases at a
 * time; each case gets its own Rng. Returns the number of cases run.
 */
export async function runCases(
  target: string,
  seed: number,
  concurrency: number,
  body: (rng: Rng, index: number) => Promise<void>,
  seconds = fuzzSeconds(),
): Promise<number> {
  const single = onlyCase();
  if (single !== undefined) {
    await body(new Rng(caseSeed(seed, target, single)), single);
    return 1;
  }
  const deadline = Date.now() + seconds * 1000;
  let next = 0;
  const lane = async () => {
    while (Date.now() < deadline) {
      const index = next++;
      await body(new Rng(caseSeed(seed, target, index)), index);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return next;
}

/** Resolves with the promise's outcome, or `"timeout"` after `ms`. */
export async function withTimeout<T>(
  promise: Promise<T>,
  ms: number,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown } | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(resolve, ms, "timeout")));
  try {
    return await Promise.race([
      promise.then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
