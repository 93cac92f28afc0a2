/**
 * A broadcast's preview as one contact would receive it, filled in the browser (docs/broadcasts.md#in-the-admin-ui):
 * Resend's `{{{FIRST_NAME|fallback}}}`, `{{{LAST_NAME}}}`, `{{{EMAIL}}}`, `{{{<property key>|fallback}}}` and
 * `{{{RESEND_UNSUBSCRIBE_URL}}}`, by the rules of docs/broadcasts.md#personalisation. Invariant: the same answer as the
 * server's filling for every input (test/broadcast-personalize-parity.test.ts runs both on one table), and a
 * contact's values are HTML-escaped in html, so a name cannot add markup to the preview either.
 */

/** `{{{ KEY }}}` or `{{{ KEY | fallback }}}`; the fallback runs to the closing braces (the server's expression). */
const VARIABLE = /\{\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*(?:\|([^{}]*))?\}\}\}/g;

/** A contact as `GET /v1/contacts/:id` answers it (the parts the variables read). */
export interface PreviewContact {
  email: string;
  first_name: string | null;
  last_name: string | null;
  properties?: Record<string, { value: string | number | null } | undefined>;
}

/** What stands for the contact's own preference page in a preview (each real copy gets its own link). */
export const PREVIEW_UNSUBSCRIBE_URL = "about:blank#unsubscribe-link";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
const escapeHTML = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const stripContact = (key: string) => (key.startsWith("contact.") ? key.slice("contact.".length) : key);

function ownValue(key: string, contact: PreviewContact, unsubscribeUrl: string): string | undefined {
  const upper = key.toUpperCase();
  if (upper === "FIRST_NAME" || upper === "CONTACT.FIRST_NAME") return contact.first_name || undefined;
  if (upper === "LAST_NAME" || upper === "CONTACT.LAST_NAME") return contact.last_name || undefined;
  if (upper === "EMAIL" || upper === "CONTACT.EMAIL") return contact.email;
  if (upper === "RESEND_UNSUBSCRIBE_URL") return unsubscribeUrl;
  const own = contact.properties?.[stripContact(key)]?.value;
  return own !== undefined && own !== null && own !== "" ? String(own) : undefined;
}

/**
 * `source` with every variable filled for `contact`: its value, else the variable's fallback, else the property's
 * fallback value (`fallbacks`, by key), else empty.
 */
export function personalize(
  source: string,
  contact: PreviewContact,
  fallbacks: ReadonlyMap<string, string | number | null>,
  html: boolean,
  unsubscribeUrl = PREVIEW_UNSUBSCRIBE_URL,
): string {
  return source.replace(VARIABLE, (_, key: string, fallback: string | undefined) => {
    const value = ownValue(key, contact, unsubscribeUrl);
    if (value !== undefined) return html && key.toUpperCase() !== "RESEND_UNSUBSCRIBE_URL" ? escapeHTML(value) : value;
    if (fallback !== undefined) return fallback.trim();
    const property = fallbacks.get(stripContact(key));
    return property === undefined || property === null ? "" : String(property);
  });
}
