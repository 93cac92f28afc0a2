/**
 * Random values for the fuzz targets: strings (alphanumeric, printable, rich in the characters parsers trip on, any
 * code unit, any code point, the interesting strings) and JSON (random values, a wrong type for a field, text with
 * the oddities JSON.stringify never writes). Each comes from the case's Rng alone (prng.ts), so a seed replays it.
 */
import type { Rng } from "./prng.ts";

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
