/**
 * What the subject rules (subject-rules.ts) read a subject with: the thresholds, the spam phrases and acronyms, and
 * the small text helpers — placeholder stripping, words, letter runs, case, emoji. Each runs in linear time in its
 * input: no regular expression here has nested quantifiers.
 */
import { graphemes } from "./graphemes.ts";

export const MAX_LENGTH = 60;
export const MIN_LENGTH = 10;
export const MAX_WORDS = 10;
export const MAX_EMOJI = 2;
export const MAX_AVERAGE_WORD_LETTERS = 8;
export const MAX_WORD_LENGTH = 20;

const SPAM_PHRASES = [
  "free",
  "100% free",
  "act now",
  "100%",
  "guarantee",
  "guaranteed",
  "winner",
  "you're a winner",
  "winning",
  "prize",
  "cash",
  "cash bonus",
  "extra cash",
  "urgent",
  "click here",
  "click below",
  "risk-free",
  "risk free",
  "no cost",
  "limited time",
  "limited time offer",
  "buy now",
  "order now",
  "apply now",
  "call now",
  "cheap",
  "lowest price",
  "congratulations",
  "earn money",
  "make money",
  "get paid",
  "double your",
  "miracle",
  "no obligation",
  "no credit check",
  "pre-approved",
  "once in a lifetime",
  "special promotion",
  "while supplies last",
  "what are you waiting for",
  "this isn't spam",
  "this is not spam",
  "not spam",
  "dear friend",
  "work from home",
  "be your own boss",
  "million dollars",
  "viagra",
  "weight loss",
  "lose weight",
  "$$$",
];
/** Longest first, so "risk-free" claims its span before "free" is looked for. */
const SPAM_BY_LENGTH = [...SPAM_PHRASES].sort((a, b) => b.length - a.length);

const ACRONYMS = new Set([
  "USA",
  "EU",
  "UK",
  "API",
  "PDF",
  "FAQ",
  "CEO",
  "VIP",
  "SMS",
  "URL",
  "ID",
  "OK",
  "AM",
  "PM",
  "HTML",
  "CSS",
  "DNS",
  "SSL",
  "TLS",
  "USD",
  "EUR",
  "GBP",
]);

/** Quotes text for a message, cut short so a pathological subject cannot produce a pathological message. */
export function quote(text: string, max = 40): string {
  const head = Array.from(text.slice(0, max * 2));
  return head.length > max || text.length > max * 2 ? `“${head.slice(0, max).join("")}…”` : `“${text}”`;
}

export function quoteAll(items: string[], max = 6): string {
  const shown = items.slice(0, max).map((item) => quote(item));
  return items.length > max ? `${shown.join(", ")} and ${items.length - max} more` : shown.join(", ");
}

export function isBlank(text: string): boolean {
  return text.trim() === "";
}

export const PLACEHOLDER = /\{\{\{?[^{}]*\}?\}\}/g;

export function hasPlaceholder(text: string): boolean {
  // search() ignores the global flag's lastIndex, which test() would carry over between calls.
  return text.search(PLACEHOLDER) !== -1;
}

/** The subject without Handlebars placeholders: their rendered value is unknown, so they must not trip word rules. */
export function withoutPlaceholders(text: string): string {
  return text.replace(PLACEHOLDER, " ");
}

export function words(text: string): string[] {
  return text.split(/\s+/).filter((token) => /[\p{L}\p{N}]/u.test(token) || hasPlaceholder(token));
}

/** Strips leading and trailing punctuation by hand: a regex anchored at the end would backtrack quadratically. */
export function trimPunctuation(token: string): string {
  let start = 0;
  let end = token.length;
  while (start < end && !isWordChar(token[start])) start++;
  while (end > start && !isWordChar(token[end - 1])) end--;
  return token.slice(start, end);
}

export function letterRuns(text: string): string[] {
  return withoutPlaceholders(text).match(/\p{L}+/gu) ?? [];
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}]/u.test(char);
}

/** The spam phrases found in the subject, in order of first appearance, ignoring ones only inside a longer match. */
export function spamPhrases(subject: string): string[] {
  const normalized = withoutPlaceholders(subject).toLowerCase().replace(/[‘’]/g, "'").replace(/\s+/g, " ");
  const covered = new Uint8Array(normalized.length);
  const found: { phrase: string; at: number }[] = [];
  for (const phrase of SPAM_BY_LENGTH) {
    // Only a phrase that starts or ends with a letter or digit needs a word boundary there: "$$$" and "100%" do not.
    const needsStart = isWordChar(phrase[0]);
    const needsEnd = isWordChar(phrase[phrase.length - 1]);
    let first = -1;
    for (let at = normalized.indexOf(phrase); at !== -1; at = normalized.indexOf(phrase, at + 1)) {
      const end = at + phrase.length;
      if (needsStart && isWordChar(normalized[at - 1])) continue;
      if (needsEnd && isWordChar(normalized[end])) continue;
      let inside = true;
      for (let i = at; i < end && inside; i++) inside = covered[i] === 1;
      if (inside) continue;
      if (first === -1) first = at;
      covered.fill(1, at, end);
    }
    if (first !== -1) found.push({ phrase, at: first });
  }
  return found.sort((a, b) => a.at - b.at).map((match) => match.phrase);
}

function cased(text: string): { upper: number; lower: number } {
  return {
    upper: (text.match(/\p{Lu}/gu) ?? []).length,
    lower: (text.match(/\p{Ll}/gu) ?? []).length,
  };
}

export function isAllCaps(subject: string): boolean {
  const { upper, lower } = cased(withoutPlaceholders(subject));
  return upper >= 4 && lower === 0;
}

export function shoutingWords(subject: string): string[] {
  return letterRuns(subject).filter((word) => {
    if (Array.from(word).length < 3 || ACRONYMS.has(word)) return false;
    return word === word.toUpperCase() && word !== word.toLowerCase();
  });
}

// ©, ® and ™ are Extended_Pictographic but are ordinary typography in a subject unless drawn as emoji.
const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;
const TEXT_SYMBOLS = new Set(["©", "®", "™"]);

export function emoji(subject: string): string[] {
  return graphemes(subject).filter((grapheme) => EMOJI.test(grapheme) && !TEXT_SYMBOLS.has(grapheme));
}

/** Longest value a placeholder is assumed to render to when matching a subject against rendered text. */
export const MAX_PLACEHOLDER_VALUE = 40;

/**
 * Whether the preview begins with the subject, case-insensitively, each placeholder standing for up to
 * MAX_PLACEHOLDER_VALUE characters of anything: the body may be rendered ("Ann") or still a template ("{{name}}").
 */
export function startsWithSubject(preview: string, subject: string): boolean {
  const haystack = preview.toLowerCase();
  const [first = "", ...rest] = subject.toLowerCase().split(PLACEHOLDER);
  if (!haystack.startsWith(first)) return false;
  let at = first.length;
  for (const piece of rest) {
    // The leftmost occurrence is always the best choice: it leaves the most room for the pieces after it.
    const found = haystack.indexOf(piece, at);
    if (found === -1 || found - at > MAX_PLACEHOLDER_VALUE) return false;
    at = found + piece.length;
  }
  return true;
}

export function normalizedSubject(subject: string): string {
  return subject.replace(/\s+/g, " ").trim();
}
