/**
 * The preview (preheader) text an inbox shows after the subject, as the subject rules read it. The html is read by
 * htmlparser2's tokenizer, as every other reader of html in Mailroom (lib/html-text.ts, tracking/html.ts): a state
 * machine, linear in its input whatever it holds. Invariant: only the first 64 KiB of a body is read, and the
 * reading stops at the first tag after enough visible text for the preview.
 */
import { Tokenizer } from "htmlparser2";
import { graphemes } from "./graphemes.ts";

export interface MessageBody {
  html?: string;
  text?: string;
}

export const PREVIEW_LENGTH = 100;
/** The preheader sits at the top of the body, so the rest of a large body never matters to the preview. */
const PREVIEW_SOURCE_LIMIT = 64 * 1024;

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  // Preheaders are commonly padded with these so the body's next text does not leak into the preview.
  zwnj: "",
  zwj: "",
  shy: "",
};
const ENTITY = /&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z][a-zA-Z0-9]{1,7});/g;
const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]|\u034F/g;

function decodeEntities(text: string): string {
  const decoded = text.replace(ENTITY, (raw, body: string) => {
    if (body[0] !== "#") return NAMED_ENTITIES[body.toLowerCase()] ?? raw;
    const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : raw;
  });
  return decoded.replace(INVISIBLE, "");
}

/** Elements whose content a mail client never shows in the body or the preview. */
const HIDDEN_ELEMENTS = new Set(["head", "title", "style", "script", "noscript", "template"]);
/** Inline elements join the text around them; every other tag separates words. */
const INLINE_ELEMENTS = new Set([
  "a",
  "abbr",
  "b",
  "bdi",
  "bdo",
  "cite",
  "code",
  "em",
  "font",
  "i",
  "kbd",
  "mark",
  "q",
  "s",
  "samp",
  "small",
  "span",
  "strong",
  "sub",
  "sup",
  "u",
  "var",
]);

/** The first visible text of an html body, reading no further than the first tag after `limit` visible characters. */
function htmlPreview(html: string, limit: number): string {
  const source = html.length > PREVIEW_SOURCE_LIMIT ? html.slice(0, PREVIEW_SOURCE_LIMIT) : html;
  let out = "";
  let visible = 0;
  /** The hidden element being skipped, until its end tag. */
  let hidden = "";
  /** The element whose start tag is being read; hidden once the tag ends unless it closes itself (`<style/>`). */
  let opening = "";
  const nameAt = (start: number, end: number) => source.slice(start, end).toLowerCase();
  const separate = (name: string) => {
    if (!INLINE_ELEMENTS.has(name)) out += " ";
  };
  const ignore = () => {};
  const tokenizer = new Tokenizer(
    { decodeEntities: false },
    {
      ontext(start, end) {
        if (hidden) return;
        if (visible >= limit) return tokenizer.pause();
        const chunk = decodeEntities(source.slice(start, end));
        out += chunk;
        visible += chunk.replace(/\s+/g, "").length;
      },
      onopentagname(start, end) {
        if (hidden) return;
        if (visible >= limit) return tokenizer.pause();
        opening = nameAt(start, end);
      },
      onopentagend() {
        if (!opening) return;
        if (HIDDEN_ELEMENTS.has(opening)) hidden = opening;
        else separate(opening);
        opening = "";
      },
      onselfclosingtag() {
        if (opening) separate(opening);
        opening = "";
      },
      onclosetag(start, end) {
        const name = nameAt(start, end);
        if (hidden) {
          if (name !== hidden) return;
          hidden = "";
          out += " ";
          return;
        }
        if (visible >= limit) return tokenizer.pause();
        separate(name);
      },
      ondeclaration() {
        if (!hidden) out += " ";
      },
      onprocessinginstruction() {
        if (!hidden) out += " ";
      },
      onattribdata: ignore,
      onattribentity: ignore,
      onattribend: ignore,
      onattribname: ignore,
      oncdata: ignore,
      oncomment: ignore,
      onend: ignore,
      ontextentity: ignore,
    },
  );
  tokenizer.write(source);
  tokenizer.end();
  return out;
}

function textPreview(text: string): string {
  const source = text.length > PREVIEW_SOURCE_LIMIT ? text.slice(0, PREVIEW_SOURCE_LIMIT) : text;
  for (const line of source.split(/\r?\n|\r/)) if (line.trim() !== "") return line;
  return "";
}

/**
 * The preview (preheader) text an inbox shows after the subject: the first visible text of the html body, else the
 * first non-empty line of the text body; undefined when the message has neither body, "" when nothing is visible.
 */
export function previewText(input: MessageBody, limit = PREVIEW_LENGTH): string | undefined {
  let raw: string;
  if (input.html !== undefined) raw = htmlPreview(input.html, limit);
  else if (input.text !== undefined) raw = textPreview(input.text);
  else return undefined;
  const collapsed = raw.replace(/\s+/g, " ").trim();
  const head = graphemes(collapsed.slice(0, limit * 8));
  return head.length > limit ? head.slice(0, limit).join("").trimEnd() : head.join("");
}
