/**
 * Rewrites a message's html for tracking: `href`s of `<a>` tags that are http(s) links go through the click
 * redirect, and a 1×1 pixel is added for opens. Only the attribute values change; the rest of the html is kept
 * byte for byte (a parse and re-serialise could upset the conditional comments and quirks that mail html relies
 * on). Invariant: a link is rewritten only if it is an absolute http(s) URL and not excluded (the unsubscribe
 * link); mailto:, tel:, anchors, cid: and template placeholders stay as they are.
 *
 * The html is read once by htmlparser2's tokenizer, a state machine that reports where each tag, attribute and
 * comment starts and ends, so the work is linear in the html whatever it holds (a regular expression that looked
 * for `<a … href=` took minutes on a few hundred KB of `<a` without `>`). Positions come from the tokenizer; the
 * output is the input spliced at those positions.
 */
import { decodeHTMLAttribute, escapeAttribute } from "entities";
import { QuoteType, Tokenizer } from "htmlparser2";

export interface HtmlTracking {
  /** Maps an original link to its tracked URL; absent when clicks are not tracked. */
  trackLink?: (link: string) => string;
  /** Links starting with this prefix are never rewritten (Mailroom's own unsubscribe link). */
  keepPrefix?: string;
  /** The open pixel's URL; absent when opens are not tracked. */
  pixelUrl?: string;
}

/** Links worth tracking: absolute http(s) URLs without leftover template syntax. */
export function isTrackableLink(link: string): boolean {
  return /^https?:\/\/[^\s]+$/i.test(link) && !link.includes("{{");
}

/** A span of the input to replace: `[start, end)` becomes `text`. */
interface Splice {
  start: number;
  end: number;
  text: string;
}

/** `<!--[if mso]> … <![endif]-->`: Outlook renders what is inside, so links there are links too. */
const CONDITIONAL_OPEN = /^\[if\s[^\]]*\]>/i;
const CONDITIONAL_CLOSE = "<![endif]";

/**
 * Where the html's `href` values of `<a>` start and end, and where its first `</body>` starts. Conditional
 * comments are read once more for their content (one level only: each character is read at most twice).
 */
function scan(
  html: string,
  from: number,
  to: number,
  nested: boolean,
  found: { links: Splice[]; bodyEnd: number },
  trackLink: HtmlTracking["trackLink"],
  keepPrefix: string | undefined,
): void {
  let inAnchor = false;
  let hrefSeen = false;
  let inHref = false;
  let valueStart = -1;
  // An href is kept until its tag ends: a tag cut off by the end of the html is no tag (HTML §13.2.5.8).
  let pending: { start: number; end: number; link: string } | null = null;
  const commit = () => {
    if (pending && trackLink)
      found.links.push({
        start: pending.start,
        end: pending.end,
        text: `"${escapeAttribute(trackLink(pending.link))}"`,
      });
    pending = null;
    inAnchor = false;
  };
  // The tokenizer indexes into the text it is given; a conditional comment's content is given alone.
  const text = from === 0 && to === html.length ? html : html.slice(from, to);
  const tokenizer = new Tokenizer(
    { decodeEntities: false },
    {
      onopentagname(start, end) {
        inAnchor = end - start === 1 && (text.charCodeAt(start) | 0x20) === 0x61;
        hrefSeen = false;
        pending = null;
      },
      onattribname(start, end) {
        // Browsers use an attribute's first occurrence (HTML §13.2.5.33), so a second href is left alone.
        inHref = inAnchor && !hrefSeen && end - start === 4 && text.slice(start, end).toLowerCase() === "href";
        if (inHref) hrefSeen = true;
        valueStart = -1;
      },
      onattribdata(start) {
        if (valueStart < 0) valueStart = start;
      },
      onattribend(quote, end) {
        if (!inHref || !trackLink || quote === QuoteType.NoValue) return;
        inHref = false;
        // A quoted value is replaced with its quotes; an empty quoted value reports no data, and tracks nothing.
        if (valueStart < 0) return;
        const quoted = quote === QuoteType.Double || quote === QuoteType.Single;
        const valueEnd = quoted ? end - 1 : end;
        const link = decodeHTMLAttribute(text.slice(valueStart, valueEnd)).trim();
        if (!isTrackableLink(link) || (keepPrefix && link.startsWith(keepPrefix))) return;
        pending = { start: from + (quoted ? valueStart - 1 : valueStart), end: from + end, link };
      },
      onopentagend: commit,
      onselfclosingtag: commit,
      onclosetag(start, end) {
        if (found.bodyEnd < 0 && !nested && end - start === 4 && text.slice(start, end).toLowerCase() === "body") {
          found.bodyEnd = from + text.lastIndexOf("</", start);
        }
      },
      oncomment(start, endIndex, endOffset) {
        if (nested || !trackLink) return;
        const end = endIndex - endOffset;
        const opened = CONDITIONAL_OPEN.exec(text.slice(start, Math.min(end, start + 64)));
        if (opened && text.startsWith(CONDITIONAL_CLOSE, end - CONDITIONAL_CLOSE.length)) {
          scan(
            html,
            from + start + opened[0].length,
            from + end - CONDITIONAL_CLOSE.length,
            true,
            found,
            trackLink,
            keepPrefix,
          );
        }
      },
      onattribentity() {},
      oncdata() {},
      ondeclaration() {},
      onend() {},
      onprocessinginstruction() {},
      ontext() {},
      ontextentity() {},
    },
  );
  tokenizer.write(text);
  tokenizer.end();
}

export function rewriteHtml(html: string, options: HtmlTracking): string {
  const { trackLink, keepPrefix, pixelUrl } = options;
  if (!trackLink && !pixelUrl) return html;
  const found = { links: [] as Splice[], bodyEnd: -1 };
  scan(html, 0, html.length, false, found, trackLink, keepPrefix);
  const splices = found.links;
  if (pixelUrl) {
    const pixel = `<img src="${escapeAttribute(pixelUrl)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0">`;
    const at = found.bodyEnd >= 0 ? found.bodyEnd : html.length;
    splices.push({ start: at, end: at, text: pixel });
  }
  // The links come in the order of the html; the pixel takes its place among them.
  splices.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let at = 0;
  for (const splice of splices) {
    parts.push(html.slice(at, splice.start), splice.text);
    at = splice.end;
  }
  parts.push(html.slice(at));
  return parts.join("");
}
