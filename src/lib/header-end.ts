/**
 * Where a message's header ends, the one rule for every reader of stored mail (the finalizer, the signer and the
 * router). Invariant: line ends may be mixed — `…\n\r\n` ends the header as surely as `…\r\n\r\n`, as mail parsers
 * read it — so no reader takes body lines for header fields.
 */

/** Where the first empty line starts: after the first LF that an LF or a CRLF follows at once. -1: none. */
export function blankLineAfter(raw: Buffer): number {
  for (let lf = raw.indexOf(0x0a); lf >= 0; lf = raw.indexOf(0x0a, lf + 1)) {
    if (raw[lf + 1] === 0x0a || (raw[lf + 1] === 0x0d && raw[lf + 2] === 0x0a)) return lf + 1;
  }
  return -1;
}
