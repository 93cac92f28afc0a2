/**
 * Random html for the html fuzz targets (html-rewrite.test.ts, html.test.ts): up to MAX_HTML (1 MiB), deeply
 * nested, unterminated tags, long runs of `<a` without `>` and of other units that once made, or could make, a
 * reader superlinear, attributes quoted, single-quoted and bare, comments, Outlook conditional comments, CDATA,
 * script and style, entities. Links point at example.org, at the tracking base's kept prefix (KEEP_PREFIX: never
 * tracked) and at schemes that are never tracked.
 */
import { randomString, type Rng } from "./prng.ts";

/** Inputs stay under this: large enough for superlinear work to show as seconds, small for a budget of seconds. */
export const MAX_HTML = 1 << 20;
/** The tracking base the targets rewrite to, and the prefix of links it keeps as they are. */
export const BASE = "https://t.example";
export const KEEP_PREFIX = `${BASE}/u/`;

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

export function randomHtml(rng: Rng): string {
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
