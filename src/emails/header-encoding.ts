/**
 * The one header encoder of composed messages: Subject, custom headers, and the address headers (From, Sender, To,
 * Cc, Reply-To). Invariant: every line it writes is at most 78 characters where the value allows, at most 998
 * always, and never made of whitespace alone (RFC 5322 §2.2.3 and §3.2.2: a fold is CRLF before whitespace, and a
 * folded line must hold more than whitespace); unfolding the output gives back the value, exactly, or as RFC 2047
 * encoded-words that decode to it — for a display name, with its runs of white space read as one space, as RFC
 * 5322 §3.2.2 reads the white space between the words of a phrase.
 */
import { encodeWord } from "nodemailer/lib/mime-funcs";
import type { Mailbox } from "../lib/addresses.ts";

/** RFC 5322 §2.1.1: lines SHOULD be at most 78 characters; we fold at 76 like nodemailer. */
const LINE = 76;
/** A word longer than this cannot be folded within the 998-character hard limit once a header name precedes it. */
const MAX_WORD = 900;

/** Printable ASCII words separated by single spaces: written as is, folded between words. */
const PLAIN = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

/**
 * Whether a value can be written without encoded-words. Anything else — non-ASCII, control characters, tabs,
 * runs of spaces, leading or trailing spaces, a word too long to fold — is written as encoded-words, which keep
 * every character and give the folder a break point at least every 75 characters.
 */
function isPlain(value: string): boolean {
  return PLAIN.test(value) && value.split(" ").every((word) => word.length <= MAX_WORD);
}

/** Q for mostly-ASCII text (stays readable), B otherwise (shorter), as nodemailer chooses. */
function wordEncoding(value: string): "Q" | "B" {
  const nonAscii = value.replace(/[\x20-\x7e]/g, "").length;
  return nonAscii < value.length / 2 ? "Q" : "B";
}

/** `Name: value` as header lines joined by CRLF (no trailing CRLF). */
function encodeHeader(name: string, value: string): string {
  const text = value.length === 0 || isPlain(value) ? value : encodeWord(value, wordEncoding(value), 52);
  return foldWords(
    name,
    text.split(" ").filter((word) => word.length > 0),
  );
}

/** Packs words greedily; a continuation line is one space then a word, so it is never whitespace only. */
function foldWords(name: string, words: string[]): string {
  const lines: string[] = [];
  let line = `${name}:`;
  for (const word of words) {
    if (line.length + 1 + word.length > LINE && line.length > name.length + 1) {
      lines.push(line);
      line = "";
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines.join("\r\n");
}

/** The value part of `encodeHeader` (what nodemailer takes as a prepared header value). */
export function encodeHeaderValue(name: string, value: string): string {
  return encodeHeader(name, value).slice(name.length + 2);
}

/** A display name of letters, digits, underscores and single spaces needs no quoting (nodemailer's rule). */
const BARE_NAME = /^\w+(?: \w+)*$/;
/** An address that reads unambiguously without angle brackets: a dot-atom local part, nothing to quote. */
const BARE_ADDRESS = /^[^\s"(),:;<>@[\\\]]+@[^\s"(),:;<>@[\\\]]+$/;

/**
 * A display name as phrase words (RFC 5322 §3.2.5): runs of white space become one space, then the name is written
 * bare, as a quoted-string (printable ASCII with specials), or as encoded-words (anything else, RFC 2047 §5(3)).
 * A quoted-string may be folded at its spaces: unfolding gives the same string back.
 */
function displayNameWords(name: string): string[] {
  const collapsed = name.replace(/\s+/gu, " ").trim();
  if (collapsed === "") return [];
  if (isPlain(collapsed)) {
    const written = BARE_NAME.test(collapsed) ? collapsed : `"${collapsed.replace(/["\\]/g, "\\$&")}"`;
    return written.split(" ");
  }
  return encodeWord(collapsed, wordEncoding(collapsed), 52).split(" ");
}

/**
 * `Name: mailbox, mailbox` as header lines joined by CRLF (no trailing CRLF), folded between words like Subject.
 * An address is one word, never folded inside, so a quoted local part keeps its spaces.
 */
export function encodeAddressHeader(name: string, mailboxes: readonly Mailbox[]): string {
  const words = mailboxes.flatMap((mailbox, i) => {
    const phrase = displayNameWords(mailbox.name);
    const address =
      phrase.length === 0 && BARE_ADDRESS.test(mailbox.address) ? mailbox.address : `<${mailbox.address}>`;
    return [...phrase, i < mailboxes.length - 1 ? `${address},` : address];
  });
  return foldWords(name, words);
}
