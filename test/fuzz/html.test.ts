/**
 * Fuzzes what reads a client's html: the click-tracking rewrite (src/tracking/html.ts), composition on the CPU
 * pool as emails.submit runs it (src/workers, src/emails/compose.ts, tracking included), and the offline AI
 * subject scorer (src/ai/subject-score.ts). The html is generated: up to 1 MiB, deeply nested, unterminated tags,
 * runs of `<a` without `>`, attributes quoted, single-quoted and bare, comments, Outlook conditional comments,
 * CDATA, script and style, entities.
 *
 * Properties: no target throws. The rewrite changes the html only where an `<a>`'s href value was (each replaced
 * value decodes to the link trackLink was given), adds one pixel before `</body>` or at the end, and rewrites every
 * trackable href of an `<a>` found by a second reading of the tokens (each tag's attributes collected, the first of
 * a name kept). Composition settles within COMPOSE_TIMEOUT_MS. The score is an integer in 0..100. (htmlparser2's
 * Parser is no oracle here: an end tag scans its stack of open elements, quadratic on deep nesting.)
 *
 * The event loop's longest stall while each target runs is measured with test/fuzz/loop-watchdog.ts, printed,
 * and must stay under the target's bound (REWRITE_STALL_BOUND_MS, POOL_STALL_BOUND_MS, SCORER_STALL_BOUND_MS).
 *
 * Budget: FUZZ_SECONDS per target (default 2, so `npm test` stays fast). Replay: FUZZ_SEED=<seed printed at the
 * start and in a failure>, one case: FUZZ_CASE=<i>.
 */
import { afterAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { decodeHTMLAttribute } from "entities";
import { Tokenizer } from "htmlparser2";
import { scoreSubject } from "../../src/ai/subject-score.ts";
import { composeRequest } from "../../src/emails/compose.ts";
import { isTrackableLink, rewriteHtml } from "../../src/tracking/html.ts";
import { createCpuPool } from "../../src/server/cpu-pool.ts";
import { watchEventLoop } from "./loop-watchdog.ts";
import {
  fuzzSeconds,
  fuzzSeed,
  fuzzTimeoutMs,
  randomString,
  runCases,
  Violations,
  withTimeout,
  type Rng,
} from "./prng.ts";

const SEED = fuzzSeed();
const DEFAULT_SECONDS = 2;
const SECONDS = fuzzSeconds(DEFAULT_SECONDS);
const TIMEOUT_MS = fuzzTimeoutMs(DEFAULT_SECONDS);
/** Inputs stay under this: large enough for superlinear work to show as seconds, small for a budget of seconds. */
const MAX_HTML = 1 << 20;
/**
 * The rewrite runs synchronously on this test's loop (in the product, on a pool thread), so a stall is one call:
 * 100–300 ms for 1 MiB on a 2-core machine running other tests (linear; up to 700 ms seen at a load of 6). 2 s
 * leaves room for a loaded CI machine, while a superlinear path on such input costs far more (the regex this
 * rewrite replaced: 77 s for 360 KB, so hours for 1 MiB).
 */
const REWRITE_STALL_BOUND_MS = 2_000;
/** The scorer runs on the event loop in the product too (POST /ai/subject) and reads 64 KiB of html at most: ~15 ms. */
const SCORER_STALL_BOUND_MS = 250;
/** Composition runs on a pool thread: the loop only copies the request and the answer (a few ms per MiB). */
const POOL_STALL_BOUND_MS = 250;
/** A message the pool has not composed in this time is a hang (generated inputs compose in under a second). */
const COMPOSE_TIMEOUT_MS = 30_000;

const BASE = "https://t.example";
const KEEP_PREFIX = `${BASE}/u/`;
const PIXEL_URL = `${BASE}/o/pixel`;
const TRACKED = /"https:\/\/t\.example\/c\/(\d+)"/g;

console.log(`fuzz html seed=${SEED} (replay: FUZZ_SEED=${SEED}), ${SECONDS} s per target`);

// ---------------------------------------------------------------------------------------------------------------
// Generation

const LINKS = [
  "https://example.org/a?x=1&amp;y=2",
  "http://example.org/",
  "HTTPS://EXAMPLE.ORG/UPPER",
  "  https://example.org/spaced  ",
  "https://example.org/{{id}}",
  "https://example.org/é?q=&lt;b&gt;",
  "&#104;ttps://example.org/entity",
  "https://example.org/&quot;quoted&quot;",
  "https://exa mple.org/space",
  `${KEEP_PREFIX}token`,
  "mailto:a@example.org",
  "tel:+123",
  "#top",
  "/relative",
  "cid:logo@acme",
  "javascript:alert(1)",
  "",
];
const ATTRIBUTE_NAMES = ["href", "href", "HREF", "Href", "data-href", "class", "title", "target", "x"];
const SEPARATORS = [" ", " ", "\n", "\t", "/", "", "  "];
const TAGS = [
  "<p>",
  "</p>",
  "<div>",
  "</div>",
  "<table><tr><td>",
  "</td></tr></table>",
  "<br/>",
  "</a>",
  "<img src=x>",
  `<link href="https://example.org/s.css">`,
  `<area href="https://example.org/area">`,
  "<body>",
  "</body>",
  "</BODY >",
  "</ body>",
  "<html>",
  "<!doctype html>",
  `<?xml version="1.0"?>`,
  "<svg><a href='https://example.org/svg'>s</a></svg>",
];
/** Units whose long runs once made, or could make, a reader superlinear. */
const RUNS = [
  "<a",
  "<a href=",
  '<a href="',
  "<a href='https://example.org/' ",
  '<a href="https://example.org/x">x</a>',
  "<a href=https://example.org/>",
  "<!--[if mso]>",
  "<!--",
  "<div>",
  "<table><tr><td>",
  "</",
  "<![CDATA[",
  "&#",
  "<a\n",
  "=",
  '"',
  "<!--[if mso]><a href=https://example.org/><![endif]-->",
];

function attributeValue(rng: Rng): string {
  const value = rng.chance(0.8) ? rng.pick(LINKS) : randomString(rng, 40);
  return rng.weighted([
    [4, `"${value.replace(/"/g, "&quot;")}"`],
    [2, `'${value.replace(/'/g, "&#39;")}'`],
    [2, value.replace(/[\s"'>]/g, "") || "x"],
    [1, `"${value}`], // unterminated
    [1, ""], // no value at all
  ]);
}

function anchor(rng: Rng): string {
  let tag = `<${rng.pick(["a", "a", "A"])}`;
  for (let i = rng.int(5); i > 0; i--) {
    const name = rng.pick(ATTRIBUTE_NAMES);
    const value = attributeValue(rng);
    tag += `${rng.pick(SEPARATORS)}${name}${value ? `${rng.pick(["=", "=", " = ", "=\n"])}${value}` : ""}`;
  }
  return (
    tag +
    rng.weighted([
      [8, ">"],
      [1, "/>"],
      [1, " >"],
      [1, ""],
    ]) +
    (rng.chance(0.5) ? `${randomString(rng, 12)}</a>` : "")
  );
}

function piece(rng: Rng, depth: number): string {
  const inner = () => (depth > 0 ? pieces(rng, depth - 1, 6) : randomString(rng, 16));
  switch (
    rng.weighted<number>([
      [6, 0],
      [3, 1],
      [3, 2],
      [1, 3],
      [1, 4],
      [1, 5],
      [1, 6],
      [1, 7],
    ])
  ) {
    case 0:
      return anchor(rng);
    case 1:
      return rng.pick(TAGS);
    case 2:
      return rng.chance(0.7)
        ? randomString(rng, 24)
        : rng.pick(["&amp;", "&lt;a href=x&gt;", "&#x3c;a", "&", "<", ">", "<3", "a < b > c"]);
    case 3:
      return rng.weighted([
        [3, `<!-- ${inner()} -->`],
        [1, `<!--${inner()}`],
        [1, "<!---->"],
        [1, "<!-->"],
      ]);
    case 4:
      return rng.weighted([
        [3, `<!--[if ${rng.pick(["mso", "gte mso 9", "!mso", "IE"])}]>${inner()}<![endif]-->`],
        [2, `<!--[if !mso]><!-->${inner()}<!--<![endif]-->`],
        [1, `<!--[if mso]>${inner()}`],
      ]);
    case 5:
      return rng.chance(0.8) ? `<![CDATA[${inner()}]]>` : `<![CDATA[${inner()}`;
    case 6: {
      const name = rng.pick(["script", "style", "title", "textarea", "xmp"]);
      return rng.chance(0.8) ? `<${name}>${inner()}</${name}>` : `<${name}>${inner()}`;
    }
    default:
      return `<div>${inner()}</div>`;
  }
}

function pieces(rng: Rng, depth: number, max: number): string {
  let out = "";
  for (let i = rng.length(max); i > 0; i--) out += piece(rng, depth);
  return out;
}

/** A size skewed towards small, up to MAX_HTML. */
function size(rng: Rng): number {
  return (
    rng.weighted([
      [4, 1_000],
      [3, 20_000],
      [2, 200_000],
      [1, MAX_HTML],
    ]) >> rng.int(4)
  );
}

function randomHtml(rng: Rng): string {
  let html: string;
  switch (
    rng.weighted<number>([
      [6, 0],
      [2, 1],
      [2, 2],
    ])
  ) {
    case 0:
      html = pieces(rng, 2, 200);
      break;
    case 1: {
      // A long run of one unit, maybe among ordinary pieces.
      const unit = rng.pick(RUNS);
      html = pieces(rng, 1, 8) + unit.repeat(Math.ceil(size(rng) / unit.length)) + pieces(rng, 1, 8);
      break;
    }
    default: {
      const depth = Math.ceil(size(rng) / 8);
      const open = rng.pick(["<div>", "<table><tr><td>", "<a href=https://example.org/n>", "<span>", "<b><i>"]);
      html = open.repeat(depth) + pieces(rng, 1, 16) + (rng.chance(0.5) ? "</div>".repeat(depth) : "");
    }
  }
  if (rng.chance(0.3)) html = `<!doctype html><html><body>${html}</body></html>`;
  return html.length > MAX_HTML ? html.slice(0, MAX_HTML) : html;
}

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

// ---------------------------------------------------------------------------------------------------------------
// Targets

interface Stalls {
  longest: number;
  caseIndex: number;
  bytes: number;
}

function noteStall(stalls: Stalls, ms: number, caseIndex: number, bytes: number): void {
  if (ms > stalls.longest) Object.assign(stalls, { longest: ms, caseIndex, bytes });
}

function report(target: string, cases: number, stalls: Stalls, bound: number): string {
  return `fuzz html ${target} seed=${SEED}: ${cases} cases; longest event-loop stall ${Math.round(stalls.longest)} ms (case ${stalls.caseIndex}, ${stalls.bytes} bytes; bound ${bound} ms)`;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

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

const pool = createCpuPool(new URL("../../src/server/cpu-thread.ts", import.meta.url), 1);
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
