/**
 * The small pages a recipient sees: the unsubscribe confirmation (GET, changes nothing), the result (POST), the
 * page for a link that is not valid and the page for an expired tracked link. Static html, everything interpolated is escaped, no script, no
 * external resource.
 */
import { escapeText } from "entities";

export const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};

/** `j***@example.org`: enough for the reader to recognise the address, not enough to harvest it from a forwarded link. */
export function maskAddress(address: string): string {
  const at = address.lastIndexOf("@");
  return `${address.slice(0, Math.min(1, at))}***${address.slice(at)}`;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeText(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}button{font:inherit;padding:.5rem 1.25rem;cursor:pointer}</style>
</head>
<body>
<h1>${escapeText(title)}</h1>
${body}
</body>
</html>`;
}

export function confirmPage(address: string, from: string, unsubscribed: boolean): string {
  if (unsubscribed) return donePage(address, from);
  return page(
    "Unsubscribe",
    `<p>Stop mail from <strong>${escapeText(from)}</strong> to <strong>${escapeText(maskAddress(address))}</strong>?</p>
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
  );
}

export function donePage(address: string, from: string): string {
  return page(
    "You are unsubscribed",
    `<p><strong>${escapeText(maskAddress(address))}</strong> will no longer receive mail from <strong>${escapeText(from)}</strong>.</p>`,
  );
}

/**
 * An expired click link: the destination is named as text to copy, not as a link, so the page never takes
 * anyone anywhere (a tracked link is the sender's to vouch for only while it lives).
 */
export function expiredLinkPage(link: string): string {
  return page(
    "This link has expired",
    `<p>This tracked link no longer redirects. It led to:</p>
<p><code style="word-break:break-all">${escapeText(link)}</code></p>
<p>If you trust the message it came from, copy the address into your browser.</p>`,
  );
}

export function invalidLinkPage(): string {
  return page("Link not valid", "<p>This unsubscribe link is not valid. It may have been copied incompletely.</p>");
}
