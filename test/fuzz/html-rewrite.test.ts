/**
 * Fuzzes the click-tracking rewrite (src/tracking/html.ts) with generated html (html-gen.ts): it reads a client's
 * html on a pool thread before every tracked send, so a wrong splice corrupts mail and a superlinear path holds a
 * thread (or, as it once did, the event loop) for minutes.
 *
 * Properties: the rewrite does not throw; it changes the html only where an `<a>`'s href value was (each replaced
 * value decodes to the link trackLink was given), adds one pixel before `</body>` or at the end, and rewrites every
 * trackable href of an `<a>` found by a second reading of the tokens (each tag's attributes collected, the first of
 * a name kept). (htmlparser2's Parser is no oracle here: an end tag scans its stack of open elements, quadratic on
 * deep nesting.) The event loop's longest stall during a call is measured with test/fuzz/loop-watchdog.ts, printed,
 * and must stay under REWRITE_STALL_BOUND_MS.
 *
 * Composition and the subject scorer, which read the same html, are fuzzed in html.test.ts. Budget: FUZZ_SECONDS
 * (default 2, so `npm test` stays fast). Replay: FUZZ_SEED=<seed printed at the start and in a failure>, one case:
 * FUZZ_CASE=<i>.
 */
import { expect, test } from "bun:test";
import { decodeHTMLAttribute } from "entities";
import { Tokenizer } from "htmlparser2";
import { isTrackableLink, rewriteHtml } from "../../src/tracking/html.ts";
import { BASE, KEEP_PREFIX, randomHtml } from "./html-gen.ts";
import { noteStall, report, SECONDS, SEED, type Stalls, TIMEOUT_MS, yieldToLoop } from "./html-targets.ts";
import { watchEventLoop } from "./loop-watchdog.ts";
import { runCases, Violations } from "./prng.ts";

/**
 * The rewrite runs synchronously on this test's loop (in the product, on a pool thread), so a stall is one call:
 * 100–300 ms for 1 MiB on a 2-core machine running other tests (linear; up to 700 ms seen at a load of 6). 2 s
 * leaves room for a loaded CI machine, while a superlinear path on such input costs far more (the regex this
 * rewrite replaced: 77 s for 360 KB, so hours for 1 MiB).
 */
const REWRITE_STALL_BOUND_MS = 2_000;

const PIXEL_URL = `${BASE}/o/pixel`;
const TRACKED = /"https:\/\/t\.example\/c\/(\d+)"/g;

// ---------------------------------------------------------------------------------------------------------------
// Properties of the rewrite

const CONDITIONAL_OPEN = /^\[if\s[^\]]*\]>/i;
const CONDITIONAL_CLOSE = "<![endif]";

/**
 * The links of `<a>` tags that must be tracked: each complete start tag's attributes collected by name (lower-cased,
 * the first of a name kept, as browsers do), then its href decoded. Outlook's conditional comments are read for
 * their content, one level deep, their condition within its first 64 characters: the rule the rewrite documents.
 */
function trackableLinks(html: string, nested = false): { links: string[]; bodyEnd: number } {
  const links: string[] = [];
  let bodyEnd = -1;
  let tag = "";
  let attributes = new Map<string, string>();
  let name = "";
  let value = "";
  const endTag = () => {
    const href = tag === "a" ? attributes.get("href") : undefined;
    const link = href === undefined ? "" : decodeHTMLAttribute(href).trim();
    if (isTrackableLink(link) && !link.startsWith(KEEP_PREFIX)) links.push(link);
    tag = "";
  };
  const ignore = () => {};
  const tokenizer = new Tokenizer(
    { decodeEntities: false },
    {
      onopentagname(start, end) {
        tag = html.slice(start, end).toLowerCase();
        attributes = new Map();
      },
      onattribname(start, end) {
        name = html.slice(start, end).toLowerCase();
        value = "";
      },
      onattribdata(start, end) {
        value += html.slice(start, end);
      },
      onattribend() {
        if (!attributes.has(name)) attributes.set(name, value);
      },
      onopentagend: endTag,
      onselfclosingtag: endTag,
      oncomment(start, endIndex, endOffset) {
        const data = html.slice(start, endIndex - endOffset);
        const opened = nested ? null : CONDITIONAL_OPEN.exec(data.slice(0, 64));
        if (opened && data.endsWith(CONDITIONAL_CLOSE))
          links.push(...trackableLinks(data.slice(opened[0].length, -CONDITIONAL_CLOSE.length), true).links);
      },
      onattribentity: ignore,
      oncdata: ignore,
      onclosetag(start, end) {
        if (bodyEnd < 0 && html.slice(start, end).toLowerCase() === "body") bodyEnd = html.lastIndexOf("</", start);
      },
      ondeclaration: ignore,
      onend: ignore,
      onprocessinginstruction: ignore,
      ontext: ignore,
      ontextentity: ignore,
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  return { links, bodyEnd: nested || bodyEnd < 0 ? html.length : bodyEnd };
}

/** Where an attribute value that starts at `at` ends (HTML §13.2.5.36–38), and its text without quotes. */
function attributeValueAt(html: string, at: number): { end: number; text: string } | null {
  const quote = html[at];
  if (quote === '"' || quote === "'") {
    const close = html.indexOf(quote, at + 1);
    return close < 0 ? null : { end: close + 1, text: html.slice(at + 1, close) };
  }
  let end = at;
  while (end < html.length && !" \t\n\f\r>".includes(html[end]!)) end++;
  return { end, text: html.slice(at, end) };
}

/**
 * Checks that `output` is `input` with href values replaced by `"https://t.example/c/<n>"` (n counting trackLink's
 * calls, value n decoding to links[n]) and the pixel added once, at input offset `pixelAt`. Returns what breaks
 * this, or null.
 */
function unspliced(
  input: string,
  output: string,
  links: string[],
  pixel: string,
  expectedPixelAt: number,
): string | null {
  const pixelAt = output.indexOf(pixel);
  if (pixelAt < 0) return "no pixel";
  if (output.includes(pixel, pixelAt + 1)) return "two pixels";
  const out = output.slice(0, pixelAt) + output.slice(pixelAt + pixel.length);
  let pixelInInput = pixelAt;
  let from = 0; // in out
  let at = 0; // in input
  let expected = 0;
  for (const match of out.matchAll(TRACKED)) {
    const kept = out.slice(from, match.index);
    if (!input.startsWith(kept, at)) return `bytes before tracked link ${expected} differ (input offset ${at})`;
    at += kept.length;
    if (Number(match[1]) !== expected) return `tracked link ${match[1]} where ${expected} was expected`;
    const value = attributeValueAt(input, at);
    if (!value) return `no attribute value at input offset ${at}`;
    if (decodeHTMLAttribute(value.text).trim() !== links[expected])
      return `link ${expected} replaced ${JSON.stringify(value.text.slice(0, 80))}, not ${JSON.stringify(links[expected]?.slice(0, 80))}`;
    if (match.index < pixelAt) pixelInInput += value.end - at - match[0].length;
    at = value.end;
    from = match.index + match[0].length;
    expected++;
  }
  if (expected !== links.length) return `${links.length} links tracked, ${expected} written`;
  if (input.slice(at) !== out.slice(from)) return `bytes after the last tracked link differ (input offset ${at})`;
  if (pixelInInput !== expectedPixelAt)
    return `the pixel is at input offset ${pixelInInput}, not before the first </body> (${expectedPixelAt})`;
  return null;
}

test(
  "fuzz html: the click-tracking rewrite changes only href values, tracks every link, and stays linear",
  async () => {
    const v = new Violations("html-rewrite", SEED);
    const stalls: Stalls = { longest: 0, caseIndex: -1, bytes: 0 };
    const pixelTag = rewriteHtml("", { pixelUrl: PIXEL_URL });
    const cases = await runCases(
      "html-rewrite",
      SEED,
      1,
      async (rng, index) => {
        const html = randomHtml(rng);
        const links: string[] = [];
        const trackLink = (link: string) => `${BASE}/c/${links.push(link) - 1}`;
        await yieldToLoop();
        const watchdog = watchEventLoop();
        let output: string;
        try {
          output = rewriteHtml(html, { trackLink, keepPrefix: KEEP_PREFIX, pixelUrl: PIXEL_URL });
        } catch (error) {
          v.add("the rewrite throws", index, html, String(error));
          return;
        } finally {
          noteStall(stalls, watchdog.stop(), index, html.length);
        }
        await yieldToLoop();
        const expected = trackableLinks(html);
        const broken = unspliced(html, output, links, pixelTag, expected.bodyEnd);
        if (broken)
          v.add(
            "only href values of <a> change, and the pixel is added once, before the first </body>",
            index,
            html,
            broken,
          );
        if (expected.links.length !== links.length || expected.links.some((link, i) => link !== links[i])) {
          v.add("every trackable href of an <a> is tracked", index, html, {
            expected: expected.links.slice(0, 20),
            tracked: links.slice(0, 20),
          });
        }
        if (stalls.caseIndex === index && stalls.longest >= REWRITE_STALL_BOUND_MS)
          v.add("the rewrite holds the event loop", index, html, `${Math.round(stalls.longest)} ms`);
      },
      SECONDS,
    );
    console.log(report("rewrite", cases, stalls, REWRITE_STALL_BOUND_MS));
    expect(v.count, v.report()).toBe(0);
  },
  TIMEOUT_MS,
);
