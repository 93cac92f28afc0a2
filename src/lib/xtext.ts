/**
 * xtext (RFC 3461 §4): the encoding of the ENVID and ORCPT parameters, `+HH` for any byte outside `!`..`~` or equal
 * to `+` or `=`. Decoding is one pass over a length-capped string; a value that decodes to anything but printable
 * ASCII is refused, so a decoded value can be written into a report's header field without folding or injection.
 */

/** The printable US-ASCII a decoded value may hold (RFC 3464 §2.2.1 and §2.3.1 fields are text without CR/LF). */
const PRINTABLE = /^[\x20-\x7e]*$/;

/** The decoded value, or null when `value` is not xtext, longer than `maxLength`, or decodes to unprintable bytes. */
export function decodeXtext(value: string, maxLength: number): string | null {
  if (value.length > maxLength) return null;
  let decoded = "";
  for (let i = 0; i < value.length; i++) {
    const char = value.charCodeAt(i);
    if (char < 0x21 || char > 0x7e || char === 0x3d) return null;
    if (char !== 0x2b) {
      decoded += value[i];
      continue;
    }
    // RFC 3461 §4: "+" is followed by exactly two upper-case hexadecimal digits.
    const hex = value.slice(i + 1, i + 3);
    if (!/^[0-9A-F]{2}$/.test(hex)) return null;
    decoded += String.fromCharCode(Number.parseInt(hex, 16));
    i += 2;
  }
  return PRINTABLE.test(decoded) ? decoded : null;
}
