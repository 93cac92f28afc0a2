/**
 * Resend's personalisation for broadcasts (docs/broadcasts.md#personalisation), pure: `{{{FIRST_NAME|fallback}}}`,
 * `{{{LAST_NAME}}}`, `{{{EMAIL}}}`, `{{{<property key>|fallback}}}` and `{{{RESEND_UNSUBSCRIBE_URL}}}`, filled per
 * contact. Invariant: linear in the source's length (one pass of one regular expression with no backtracking over
 * nested groups), and a contact's values are HTML-escaped in html, so a name cannot add markup.
 */
import { escapeHTML } from "bun";

/** `{{{ KEY }}}` or `{{{ KEY | fallback }}}`; the fallback runs to the closing braces. */
const VARIABLE = /\{\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*(?:\|([^{}]*))?\}\}\}/g;

export interface ContactValues {
  email: string;
  firstName: string | null;
  lastName: string | null;
  properties: Record<string, string | number>;
}

export interface Personalisation {
  contact: ContactValues;
  /** The contact's preference page (`{{{RESEND_UNSUBSCRIBE_URL}}}`). */
  unsubscribeUrl: string;
  /** Each property's fallback value, by key (used when the contact has none and the variable gives none). */
  propertyFallbacks: ReadonlyMap<string, string | number | null>;
}

/** The contact's own value of one variable, or undefined when it has none. */
function ownValue(key: string, p: Personalisation): string | undefined {
  const upper = key.toUpperCase();
  if (upper === "FIRST_NAME" || upper === "CONTACT.FIRST_NAME") return p.contact.firstName || undefined;
  if (upper === "LAST_NAME" || upper === "CONTACT.LAST_NAME") return p.contact.lastName || undefined;
  if (upper === "EMAIL" || upper === "CONTACT.EMAIL") return p.contact.email;
  if (upper === "RESEND_UNSUBSCRIBE_URL") return p.unsubscribeUrl;
  const property = key.startsWith("contact.") ? key.slice("contact.".length) : key;
  const own = p.contact.properties[property];
  return own !== undefined && own !== "" ? String(own) : undefined;
}

/** A property's own fallback value, the last resort after the variable's. */
function propertyFallback(key: string, p: Personalisation): string {
  const fallback = p.propertyFallbacks.get(key.startsWith("contact.") ? key.slice("contact.".length) : key);
  return fallback === undefined || fallback === null ? "" : String(fallback);
}

/**
 * `source` with every variable filled for the contact — its value, else the variable's fallback, else the property's —
 * and in `html` the contact's values escaped (fallbacks are the author's own markup).
 */
export function personalize(source: string, p: Personalisation, html: boolean): string {
  return source.replace(VARIABLE, (_, key: string, fallback: string | undefined) => {
    const value = ownValue(key, p);
    if (value !== undefined) return html && key.toUpperCase() !== "RESEND_UNSUBSCRIBE_URL" ? escapeHTML(value) : value;
    return fallback !== undefined ? fallback.trim() : propertyFallback(key, p);
  });
}

/** Whether `source` names any variable (a broadcast without any is composed the same for every contact). */
export const hasVariables = (source: string | null | undefined): boolean =>
  !!source && new RegExp(VARIABLE.source).test(source);

/** Resend's preview text: the first thing in the body, hidden, so inboxes show it beside the subject. */
export function withPreviewText(html: string, previewText: string | null): string {
  if (!previewText) return html;
  const hidden = `<div style="display:none;max-height:0;overflow:hidden;opacity:0">${escapeHTML(previewText)}</div>`;
  const body = /<body[^>]*>/i.exec(html);
  return body
    ? html.slice(0, body.index + body[0].length) + hidden + html.slice(body.index + body[0].length)
    : hidden + html;
}

const UNITS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 };

/**
 * Resend's `scheduled_at`: an ISO 8601 date-time, or a relative time such as `in 2 hours` / `in 1 day`; answers
 * epoch ms, or undefined when it is neither.
 */
export function parseWhen(value: string, now: number): number | undefined {
  const relative = /^\s*in\s+(\d{1,4})\s+(minute|hour|day|week)s?\s*$/i.exec(value);
  if (relative) return now + Number(relative[1]) * UNITS[relative[2]!.toLowerCase()]!;
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value)) return undefined;
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? undefined : parsed;
}
