import { describe, expect, test } from "bun:test";
import { mxMatches, parsePolicy } from "./mta-sts.ts";

describe("parsePolicy (RFC 8461 §3.2)", () => {
  test("a policy with CRLF or LF lines, several mx patterns, unknown keys ignored", () => {
    expect(
      parsePolicy(
        "version: STSv1\r\nmode: enforce\r\nmx: mail.example.com\r\nmx: *.example.net\r\nmax_age: 604800\r\nextension: x\r\n",
      ),
    ).toEqual({
      mode: "enforce",
      mx: ["mail.example.com", "*.example.net"],
      maxAgeSeconds: 604_800,
    });
    expect(parsePolicy("version: STSv1\nmode: none\nmax_age: 86400\n")).toEqual({
      mode: "none",
      mx: [],
      maxAgeSeconds: 86_400,
    });
  });

  test.each([
    ["another version", "version: STSv2\nmode: enforce\nmx: a.example\nmax_age: 1", "version"],
    ["an unknown mode", "version: STSv1\nmode: strict\nmx: a.example\nmax_age: 1", "mode"],
    ["max_age beyond a year", "version: STSv1\nmode: enforce\nmx: a.example\nmax_age: 31557601", "max_age"],
    ["max_age not a number", "version: STSv1\nmode: enforce\nmx: a.example\nmax_age: soon", "max_age"],
    ["enforce without mx", "version: STSv1\nmode: enforce\nmax_age: 86400", "mx"],
    ["an HTML page", "<html><body>Not found</body></html>", "version"],
  ])("%s is not a policy", (_name, text, field) => {
    const parsed = parsePolicy(text);
    expect("error" in parsed && parsed.error).toContain(field);
  });
});

test.each([
  ["mail.example.com", "mail.example.com", true],
  ["mail.example.com", "MAIL.example.com.", true],
  ["mail.example.com", "mail2.example.com", false],
  ["*.example.net", "mx1.example.net", true],
  ["*.example.net", "a.b.example.net", false],
  ["*.example.net", "example.net", false],
  ["*.example.net", "mx1.badexample.net", false],
])("mxMatches(%s, %s) is %s", (pattern, host, expected) => {
  expect(mxMatches(pattern, host)).toBe(expected);
});
