/**
 * Measures a message's header block (RFC 5322 §2.1: the lines before the first empty line) as its bytes arrive in
 * chunks, so a listener can refuse a header too large to read before anything parses it. Only the header's bytes
 * are looked at; once the block ends (or is over a limit) the rest of the message costs nothing.
 * Invariant: a header block over `maxBytes` bytes or `maxLines` lines is reported over, whatever the chunking.
 */

export type HeaderVerdict = "reading" | "within" | { over: "bytes" | "lines" };

export interface HeaderMeter {
  /** Counts the next chunk of the message; answers what is known of the header block so far. */
  feed(chunk: Uint8Array): HeaderVerdict;
  /** What is known once the message has ended: a header that never ended is judged as it stands. */
  verdict(): HeaderVerdict;
}

const LF = 0x0a;
const CR = 0x0d;

export function meterHeader(maxBytes: number, maxLines: number): HeaderMeter {
  let bytes = 0;
  let lines = 0;
  /** Bytes of the current line so far, CR aside: zero at a line's start. */
  let lineLength = 0;
  let state: HeaderVerdict = "reading";

  return {
    feed(chunk) {
      if (state !== "reading") return state;
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        if (byte === LF) {
          // An empty line (CRLF, or a bare LF) ends the block; it is not part of it.
          if (lineLength === 0) return (state = "within");
          lines++;
          lineLength = 0;
          if (lines > maxLines) return (state = { over: "lines" });
        } else if (byte !== CR) {
          lineLength++;
        }
        bytes++;
        if (bytes > maxBytes) return (state = { over: "bytes" });
      }
      return state;
    },
    verdict() {
      if (state !== "reading") return state;
      // A last line without its line break still counts.
      return lines + (lineLength > 0 ? 1 : 0) > maxLines ? { over: "lines" } : "within";
    },
  };
}
