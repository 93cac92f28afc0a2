import { describe, expect, test } from "bun:test";
import { parseWhen, personalize, withPreviewText } from "./personalize.ts";

const p = {
  contact: { email: "ada@example.org", firstName: "Ada <3", lastName: null, properties: { plan: "pro", seats: 3 } },
  unsubscribeUrl: "https://mail.example.com/u/abc?x=1&y=2",
  propertyFallbacks: new Map<string, string | number | null>([
    ["company", "your company"],
    ["plan", "free"],
  ]),
};

describe("personalize", () => {
  test.each([
    ["Hi {{{FIRST_NAME|there}}}", false, "Hi Ada <3"],
    ["Hi {{{FIRST_NAME|there}}}", true, "Hi Ada &lt;3"],
    ["Hi {{{LAST_NAME|friend}}}", false, "Hi friend"],
    ["Hi {{{LAST_NAME}}}!", false, "Hi !"],
    ["{{{EMAIL}}}", false, "ada@example.org"],
    ["{{{ plan | basic }}}", false, "pro"],
    ["{{{seats}}} seats", false, "3 seats"],
    ["at {{{company}}}", false, "at your company"],
    ["at {{{company|Acme}}}", false, "at Acme"],
    ["{{{contact.first_name}}}", false, "Ada <3"],
    ['<a href="{{{RESEND_UNSUBSCRIBE_URL}}}">', true, '<a href="https://mail.example.com/u/abc?x=1&y=2">'],
    ["{{FIRST_NAME}} stays (two braces)", false, "{{FIRST_NAME}} stays (two braces)"],
  ] as const)("%p (html %p) reads %p", (source, html, expected) => {
    expect(personalize(source, p, html)).toBe(expected);
  });

  test("is linear on a hostile source", () => {
    const source = "{{{".repeat(50_000) + "|".repeat(50_000);
    const started = performance.now();
    personalize(source, p, true);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("scheduled_at", () => {
  const now = Date.parse("2026-12-01T10:00:00Z");
  test.each([
    ["2026-12-02T10:00:00Z", Date.parse("2026-12-02T10:00:00Z")],
    ["in 2 hours", now + 7_200_000],
    ["in 1 day", now + 86_400_000],
    ["tomorrow", undefined],
    ["2026-13-40T00:00:00Z", undefined],
  ] as const)("%p", (value, expected) => {
    expect(parseWhen(value, now)).toBe(expected);
  });
});

test("preview text goes first in the body, hidden", () => {
  expect(withPreviewText("<html><body><p>Hi</p></body></html>", "News & more")).toBe(
    '<html><body><div style="display:none;max-height:0;overflow:hidden;opacity:0">News &amp; more</div><p>Hi</p></body></html>',
  );
  expect(withPreviewText("<p>Hi</p>", null)).toBe("<p>Hi</p>");
});
