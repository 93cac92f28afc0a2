/**
 * The links topic mail and broadcasts carry (docs/contacts-preferences.md#unsubscribing): the preference page
 * `<base>/u/TOKEN`, its mailto twin `unsubscribe+TOKEN@<return-path domain>`, and the two header fields of RFC 8058
 * that name them. Pure text: the service chooses the base (a domain's tracking host, else the public URL) and mints
 * the token. Invariant: what is written holds no CR or LF of its own — the token is base32 and the base and domain
 * come from configuration and verified domain names — so no header can be injected through them.
 */

export const MAILTO_LOCAL_PREFIX = "unsubscribe+";
/** `unsubscribe+<47 base32 characters>@…`: a delivery token (tokens.ts), compared in lower case. */
const MAILTO = /^unsubscribe\+([a-z2-7]{47})@[^@]+$/;

export const pageUrl = (base: string, token: string) => `${base}/u/${token}`;

export const unsubscribeMailbox = (token: string, returnPathDomain: string) =>
  `${MAILTO_LOCAL_PREFIX}${token}@${returnPathDomain}`;

/** The token of an `unsubscribe+TOKEN@…` address (not yet verified), or null when the address is not of that form. */
export function mailboxToken(address: string): string | null {
  return MAILTO.exec(address.trim().toLowerCase())?.[1] ?? null;
}

/**
 * The header lines (CRLF-ended) of RFC 8058 §3.1: the https URI first (one-click POSTs go there), then the mailto
 * (RFC 2369) for clients that only mail, and List-Unsubscribe-Post with its one permitted value.
 */
export function listUnsubscribeLines(url: string, mailbox: string | null): string {
  const mailto = mailbox ? `,\r\n <mailto:${mailbox}>` : "";
  return `List-Unsubscribe: <${url}>${mailto}\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n`;
}
