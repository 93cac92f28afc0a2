/**
 * The fuzz suite's shared machinery: a seedable PRNG (mulberry32), value generators, the time budget and the
 * violation log. Invariant: case `i` of a target is generated from `caseSeed(seed, target, i)` alone, so a run is
 * replayed exactly with `FUZZ_SEED=<seed>` (and one case alone with `FUZZ_CASE=<i>`), however many cases the
 * time budget let the first run reach.
 */

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
// Strings

const ASCII_PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");
const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/** Characters that tend to matter to parsers of addresses, headers, paths and JSON. */
const SPECIALS = [
  "\0",
  "\r",
  "\n",
  "\r\n",
  "\t",
  " ",
  '"',
  "'",
  "\\",
  "<",
  ">",
  "@",
  ",",
  ";",
  ":",
  "%",
  "/",
  ".",
  "..",
  "=",
  "?",
  "&",
  "#",
  "{",
  "}",
  "[",
  "]",
  "\u0085",
  "\u2028",
  "\u00a0",
  "\ufeff",
  "\ud800",
  "\udfff",
  "\u{1f4e7}",
  "é",
  "ß",
  "\u0301",
  "\x7f",
  "\x1b",
];
/**
 * Strings worth trying anywhere. None contains what the "no internals" check looks for (stack frames, paths,
 * error class names): services echo inputs in validation messages, and the check must only catch leaks.
 */
export const INTERESTING_STRINGS = [
  "",
  " ",
  "0",
  "-1",
  "null",
  "true",
  "undefined",
  "NaN",
  "[object Object]",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "a@example.com",
  "Acme <hi@example.com>",
  "hi@example.com",
  '"quoted local"@example.com',
  "a@[127.0.0.1]",
  "a@localhost",
  "x@xn--nxasmq6b.com",
  "bücher@例え.テスト",
  "a@b@c",
  "<>",
  "=?utf-8?B?SGk=?=",
  "=?utf-8?Q?=E2=82=AC?=",
  "2026-11-22T10:00:00.000Z",
  "2999-01-01T00:00:00Z",
  "1970-01-01T00:00:00Z",
  "not a date",
  "https://example.com/hook",
  "http://127.0.0.1/",
  "https://[::1]/",
  "mr_live_00000000000000000000000000000000",
  "mr_test_",
  "Subject: injected",
  "a\r\nBcc: victim@example.org",
  "%s%s%s%n",
  "${7*7}",
  "{{unsubscribe_url}}",
  "' OR 1=1 --",
  "'; DROP TABLE emails; --",
  "\u202e",
  "\ud83d",
  "A".repeat(999),
];

export function randomString(rng: Rng, max = 64): string {
  const kind = rng.int(7);
  const n = rng.length(max);
  let s = "";
  switch (kind) {
    case 0:
      for (let i = 0; i < n; i++) s += ALNUM[rng.int(ALNUM.length)];
      return s;
    case 1:
      for (let i = 0; i < n; i++) s += ASCII_PRINTABLE[rng.int(ASCII_PRINTABLE.length)];
      return s;
    case 2:
      for (let i = 0; i < n; i++) s += rng.chance(0.3) ? rng.pick(SPECIALS) : ALNUM[rng.int(ALNUM.length)];
      return s;
    case 3:
      // Any code unit, lone surrogates included.
      for (let i = 0; i < n; i++) s += String.fromCharCode(rng.int(0x10000));
      return s;
    case 4:
      for (let i = 0; i < n; i++)
        s += String.fromCodePoint(
          rng.pick([rng.int(0x80), 0x80 + rng.int(0x780), 0x800 + rng.int(0xd000), 0x10000 + rng.int(0xfffff)]),
        );
      return s;
    case 5:
      return rng.pick(INTERESTING_STRINGS);
    default: {
      // An interesting string with a special character spliced in.
      const base = rng.pick(INTERESTING_STRINGS);
      const at = rng.int(base.length + 1);
      return base.slice(0, at) + rng.pick(SPECIALS) + base.slice(at);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// JSON values

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  1e21,
  -1e21,
  2 ** 53 + 1,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_VALUE,
  1e308,
  255,
  256,
  65536,
  100,
  101,
  50,
  51,
];

/** A random JSON value with a bounded depth. */
export function randomJson(rng: Rng, depth = 4): Json {
  const kinds = depth <= 0 ? 4 : 6;
  switch (rng.int(kinds)) {
    case 0:
      return rng.pick([null, true, false]);
    case 1:
      return rng.chance(0.5) ? rng.pick(NUMBERS) : (rng.float() - 0.5) * 10 ** rng.int(20);
    case 2:
    case 3:
      return randomString(rng);
    case 4: {
      const n = rng.length(12);
      return Array.from({ length: n }, () => randomJson(rng, depth - 1));
    }
    default: {
      const n = rng.length(12);
      const obj: Record<string, Json> = {};
      for (let i = 0; i < n; i++)
        obj[
          rng.chance(0.2)
            ? rng.pick(["__proto__", "constructor", "prototype", "toString", "valueOf"])
            : randomString(rng, 16)
        ] = randomJson(rng, depth - 1);
      return obj;
    }
  }
}

/**
 * A value of a JSON type other than `like`'s (a wrong type for a field): string → number/array/object/…,
 * array → string/object, …
 */
export function wrongType(rng: Rng, like: unknown): Json {
  const type = like === null ? "null" : Array.isArray(like) ? "array" : typeof like;
  const options: Array<() => Json> = [];
  if (type !== "string") options.push(() => randomString(rng));
  if (type !== "number") options.push(() => rng.pick(NUMBERS));
  if (type !== "boolean") options.push(() => rng.chance(0.5));
  if (type !== "null") options.push(() => null);
  if (type !== "array")
    options.push(
      () => [randomJson(rng, 1)],
      () => [],
      () => [[]],
    );
  if (type !== "object")
    options.push(
      () => ({}),
      () => ({ [randomString(rng, 8)]: randomJson(rng, 1) }),
    );
  return rng.pick(options)();
}

/**
 * Serialises a value, with a chance of JSON-level oddities that `JSON.stringify` never produces: duplicate keys,
 * prototype keys as own properties, whitespace, escaped lone surrogates, numbers out of range.
 */
export function jsonText(rng: Rng, value: Json): string {
  let text = JSON.stringify(value);
  if (rng.chance(0.1) && text.startsWith("{") && text.length > 2) {
    const extra = rng.pick([
      `"__proto__":{"admin":true}`,
      `"constructor":{"prototype":{"x":1}}`,
      `"__proto__":null`,
      `"from":1`,
      `"to":[]`,
    ]);
    text = rng.chance(0.5) ? `{${extra},${text.slice(1)}` : `${text.slice(0, -1)},${extra}}`;
  }
  if (rng.chance(0.05)) text = text.replace(/"([^"\\]{1,8})"/, rng.pick([`"$1\\ud800"`, `"$1\\u0000"`, `"\\udfff$1"`]));
  if (rng.chance(0.05))
    text = text.replace(/\b\d+\b/, rng.pick(["1e400", "-1e400", "1e-400", "123456789012345678901234567890"]));
  if (rng.chance(0.05)) text = ` \n\t${text}\r\n `;
  return text;
}

// ---------------------------------------------------------------------------------------------------------------
// Budget, seed, violations

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

export interface Violation {
  property: string;
  caseIndex: number;
  input: string;
  observed: string;
}

/** Collects property violations (the first few per property), so one run reports every kind it found. */
export class Violations {
  readonly list: Violation[] = [];
  private readonly perProperty = new Map<string, number>();
  constructor(
    readonly target: string,
    readonly seed: number,
    private readonly keepPerProperty = 3,
  ) {}

  add(property: string, caseIndex: number, input: unknown, observed: unknown): void {
    const seen = this.perProperty.get(property) ?? 0;
    this.perProperty.set(property, seen + 1);
    if (seen >= this.keepPerProperty) return;
    this.list.push({ property, caseIndex, input: describe(input), observed: describe(observed) });
    console.error(
      `fuzz ${this.target} seed=${this.seed} case=${caseIndex} VIOLATION ${property}\n  input: ${describe(input)}\n  observed: ${describe(observed)}`,
    );
  }

  get count(): number {
    return [...this.perProperty.values()].reduce((a, b) => a + b, 0);
  }

  /** The assertion message: seed, how to replay, and each recorded violation. */
  report(): string {
    if (!this.list.length) return `fuzz ${this.target} seed=${this.seed}: no violations`;
    const counts = [...this.perProperty].map(([p, n]) => `${p}×${n}`).join(", ");
    const lines = this.list.map(
      (v) => `- [${v.property}] case=${v.caseIndex}\n    input: ${v.input}\n    observed: ${v.observed}`,
    );
    return `fuzz ${this.target} seed=${this.seed}: ${this.count} violation(s) (${counts}). Replay: FUZZ_SEED=${this.seed} (one case: FUZZ_CASE=<case>)\n${lines.join("\n")}`;
  }
}

/** JSON-ish description of an input or observation, cut so a report stays readable. */
export function describe(value: unknown, max = 1200): string {
  let text: string;
  if (typeof value === "string") text = JSON.stringify(value);
  else if (value instanceof Uint8Array)
    text = `bytes(${value.length}) ${JSON.stringify(Buffer.from(value.subarray(0, 300)).toString("latin1"))}`;
  else {
    try {
      text = JSON.stringify(value, (_k, v) =>
        v instanceof Uint8Array
          ? `bytes(${v.length}) ${Buffer.from(v.subarray(0, 200)).toString("latin1")}`
          : typeof v === "string" && v.length > 300
            ? `${v.slice(0, 300)}…(${v.length} chars)`
            : v,
      );
    } catch {
      text = String(value);
    }
  }
  return text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
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

// ---------------------------------------------------------------------------------------------------------------
// Leaks

/** What must never appear in a response body or reply text: stack frames, paths, SQL engine and JS error names. */
export function internalsIn(text: string, dataDir: string): string | null {
  const needles = [
    "    at ",
    "/work/",
    "node_modules",
    ".ts:",
    "SQLITE",
    "TypeError",
    "RangeError",
    "URIError",
    "SyntaxError",
    "ReferenceError",
  ];
  if (dataDir && text.includes(dataDir)) return dataDir;
  for (const needle of needles) if (text.includes(needle)) return needle;
  if (/\bsqlite\b/i.test(text)) return "sqlite";
  return null;
}
