/**
 * Rewrites a message's html for tracking: `href`s of `<a>` tags that are http(s) links go through the click
 * redirect, and a 1×1 pixel is added for opens. Only the attribute values change; the rest of the html is kept
 * byte for byte (a parse and re-serialise could upset the conditional comments and quirks that mail html relies
 * on). Invariant: a link is rewritten only if it is an absolute http(s) URL and not excluded (the unsubscribe
 * link); mailto:, tel:, anchors, cid: and template placeholders stay as they are.
 */
import { decodeHTMLAttribute, escapeAttribute } from "entities";

/** `<a … href=value`: the value double-quoted, single-quoted or bare (HTML §13.1.2.3). */
const ANCHOR_HREF = /(<a\b[^>]*?\shref\s*=\s*)(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/gi;
const BODY_END = /<\/body\s*>/i;

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

export function rewriteHtml(html: string, options: HtmlTracking): string {
  let out = html;
  const { trackLink, keepPrefix, pixelUrl } = options;
  if (trackLink) {
    out = out.replace(ANCHOR_HREF, (whole, prefix: string, double?: string, single?: string, bare?: string) => {
      const link = decodeHTMLAttribute(double ?? single ?? bare ?? "").trim();
      if (!isTrackableLink(link) || (keepPrefix && link.startsWith(keepPrefix))) return whole;
      return `${prefix}"${escapeAttribute(trackLink(link))}"`;
    });
  }
  if (pixelUrl) {
    const pixel = `<img src="${escapeAttribute(pixelUrl)}" width="1" height="1" alt="" style="display:block;width:1px;height:1px;border:0;margin:0;padding:0">`;
    const end = out.search(BODY_END);
    out = end >= 0 ? `${out.slice(0, end)}${pixel}${out.slice(end)}` : `${out}${pixel}`;
  }
  return out;
}
