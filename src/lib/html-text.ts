/**
 * The text part generated from a message's html. html-to-text gives the readable text (links in brackets, tables
 * laid out, wrapped at 78 columns), but it reads the html with htmlparser2's Parser, which shifts its stack of open
 * elements at every start tag and searches it at every end tag, so its time grows with the html's size times its
 * nesting depth: 1 MB of `<b><i>` closed by `</div>` held a CPU-pool thread for more than 30 s (and all
 * composition and signing queued behind it), 40 MB would for hours. Its walk also recurses once per level: 8 000
 * levels overflowed the thread's stack.
 *
 * Invariant: the work is linear in the html times MAX_DEPTH. Html nesting deeper than MAX_DEPTH, which no real
 * mail does, gets a plain text part instead: its text in order, lines broken at block elements, read by the
 * tokenizer alone.
 */
import { Parser, Tokenizer } from "htmlparser2";

/**
 * Real mail nests layout tables a few dozen elements deep; the Parser's cost per tag is at most this (40 MB of
 * end tags that match nothing, under 128 open elements: about 12 s of a pool thread, as composing 40 MB takes).
 */
const MAX_DEPTH = 128;

// Compiled once: html-to-text otherwise re-parses its selector options on every call, which dominated send CPU.
// Loaded on first use: loading and compiling it took about 15 ms of every cold start.
let convertHtml: Promise<(html: string) => string> | undefined;

export async function htmlToText(html: string): Promise<string> {
  if (nestsDeeperThan(html, MAX_DEPTH)) return plainText(html);
  convertHtml ??= import("html-to-text").then(({ compile }) =>
    compile({ wordwrap: 78, selectors: [{ selector: "img", format: "skip" }], limits: { maxDepth: MAX_DEPTH } }),
  );
  return (await convertHtml)(html);
}

/**
 * Whether the Parser's stack of open elements would grow past `limit`, as html-to-text's own reading would: it
 * reports a start for every element it pushes and an end for every element it pops, implied ones included. The
 * reading stops there, so its stack, and the cost of each tag, stays within `limit`.
 */
function nestsDeeperThan(html: string, limit: number): boolean {
  let depth = 0;
  let deeper = false;
  const parser = new Parser(
    {
      onopentagname() {
        if (++depth <= limit) return;
        deeper = true;
        parser.pause();
      },
      onclosetag() {
        depth--;
      },
    },
    { decodeEntities: false },
  );
  parser.write(html);
  if (!deeper) parser.end();
  return deeper;
}

const BLOCKS = new Set([
  "address",
  "article",
  "blockquote",
  "br",
  "dd",
  "div",
  "dl",
  "dt",
  "footer",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "td",
  "th",
  "tr",
  "ul",
]);
/** Elements whose content is no text to read (the tokenizer hands their content over as one piece). */
const HIDDEN = new Set(["script", "style", "title", "textarea", "xmp"]);
const LONGEST_NAME = 10;

function plainText(html: string): string {
  const parts: string[] = [];
  let hidden = false;
  const nameAt = (start: number, end: number) =>
    end - start > LONGEST_NAME ? "" : html.slice(start, end).toLowerCase();
  const ignore = () => {};
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname(start, end) {
        const name = nameAt(start, end);
        hidden = HIDDEN.has(name);
        if (BLOCKS.has(name)) parts.push("\n");
      },
      onclosetag(start, end) {
        const name = nameAt(start, end);
        if (HIDDEN.has(name)) hidden = false;
        if (BLOCKS.has(name)) parts.push("\n");
      },
      ontext(start, end) {
        if (!hidden) parts.push(html.slice(start, end));
      },
      ontextentity(codepoint) {
        if (!hidden) parts.push(String.fromCodePoint(codepoint));
      },
      onattribdata: ignore,
      onattribentity: ignore,
      onattribend: ignore,
      onattribname: ignore,
      oncdata: ignore,
      oncomment: ignore,
      ondeclaration: ignore,
      onend: ignore,
      onopentagend: ignore,
      onprocessinginstruction: ignore,
      onselfclosingtag: ignore,
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  // Runs of spaces become one, then the spaces around line breaks go and blank lines collapse: each pattern is a
  // single class or a fixed character, matched in linear time.
  return parts
    .join("")
    .replace(/[^\S\n]+/g, " ")
    .replace(/ ?\n[\s]*/g, "\n")
    .trim();
}
