import { describe, expect, test } from "bun:test";
import { decodeXtext } from "./xtext.ts";

describe("xtext (RFC 3461 §4)", () => {
  const cases: Array<[string, string, string | null]> = [
    ["plain text decodes to itself", "QQ314159", "QQ314159"],
    ["+HH decodes to its byte", "a+2Bb+3Dc", "a+b=c"],
    ["a lower-case escape is not xtext", "a+2b", null],
    ["a dangling + is not xtext", "abc+2", null],
    ["a bare = is not xtext", "a=b", null],
    ["a space is not xtext", "a b", null],
    ["an escaped CR or LF is refused, so no header can be injected", "x+0D+0ABcc:+20evil", null],
    ["a value longer than the cap is refused", "x".repeat(101), null],
  ];
  for (const [name, given, expected] of cases) test(name, () => expect(decodeXtext(given, 100)).toBe(expected));
});
