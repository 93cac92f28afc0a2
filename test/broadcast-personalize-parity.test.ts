/**
 * The Broadcasts screen's preview fills Resend's variables in the browser (ui/personalize.ts); the server fills them
 * when it sends (src/broadcasts/personalize.ts). One table, both fillers: the preview shows what a contact receives
 * (docs/broadcasts.md#personalisation).
 */
import { expect, test } from "bun:test";
import { personalize as server } from "../src/broadcasts/personalize.ts";
import { personalize as preview } from "../ui/personalize.ts";

const ada = {
  email: "ada@x.test",
  first_name: 'Ada <b> O\'Neil "A" &',
  last_name: null,
  props: { plan: "pro", seats: 3 },
};
const bob = { email: "bob@x.test", first_name: null, last_name: "Stone", props: {} as Record<string, string | number> };
const fallbacks = new Map<string, string | number | null>([
  ["plan", "free"],
  ["seats", 1],
  ["city", null],
]);
const URL = "https://mail.example/u/token";

const sources = [
  "Hi {{{FIRST_NAME|there}}}",
  "{{{ first_name | friend }}} {{{LAST_NAME}}} <{{{EMAIL}}}>",
  "{{{contact.first_name}}} on {{{plan}}} with {{{seats}}} seats in {{{city|somewhere}}} {{{city}}}",
  '<a href="{{{RESEND_UNSUBSCRIBE_URL}}}">Leave</a> {{{unknown}}}{{{contact.plan|x}}}',
  "{{FIRST_NAME}} {{{ FIRST_NAME|a|b }}} {{{9bad}}}",
];

for (const contact of [ada, bob])
  for (const source of sources)
    for (const html of [true, false])
      test(`${contact.email}, ${html ? "html" : "text"}: ${source}`, () => {
        const expected = server(
          source,
          {
            contact: {
              email: contact.email,
              firstName: contact.first_name,
              lastName: contact.last_name,
              properties: contact.props,
            },
            unsubscribeUrl: URL,
            propertyFallbacks: fallbacks,
          },
          html,
        );
        const properties = Object.fromEntries(Object.entries(contact.props).map(([k, value]) => [k, { value }]));
        expect(preview(source, { ...contact, properties }, fallbacks, html, URL)).toBe(expected);
      });

test("a contact's name cannot add markup to the html preview", () => {
  expect(preview("<p>{{{FIRST_NAME}}}</p>", { ...ada, properties: {} }, fallbacks, true)).toContain(
    "<p>Ada &lt;b&gt; ",
  );
});
