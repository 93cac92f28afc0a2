/**
 * The one way Mailroom reads the body of a response it fetched from elsewhere (MTA-STS policies, SNS certificates,
 * the AI endpoint, SES's answers, webhook receivers' answers): bytes are counted as they arrive and the stream is
 * cancelled at the cap, so a server that sends without end costs at most the cap in memory, never its whole body.
 * Invariant: no function here holds more than `limit` bytes of a body, whatever the server declares or sends.
 * Time limits are the caller's: the `signal` given to `fetch` aborts a body read that stalls, as it aborts the
 * request.
 */

/** A body that went past its cap; nothing beyond the cap was read. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the body is larger than ${limit} bytes`);
    this.name = "BodyTooLarge";
  }
}

/** The whole body, as long as it is at most `limit` bytes; throws BodyTooLarge (the stream cancelled) past it. */
export async function readCappedBody(response: Response, limit: number): Promise<Buffer> {
  // A declared length over the cap is refused before a byte is read.
  if (Number(response.headers.get("content-length") ?? 0) > limit) {
    await response.body?.cancel().catch(() => {});
    throw new BodyTooLarge(limit);
  }
  const chunks = await readChunks(response, limit, "refuse");
  return Buffer.concat(chunks);
}

/** The body as UTF-8 text, under the same cap (invalid sequences become U+FFFD, as `Response.text()` does). */
export async function readCappedText(response: Response, limit: number): Promise<string> {
  return (await readCappedBody(response, limit)).toString("utf8");
}

/** At most the first `limit` bytes of the body, cut on a character boundary; the rest is never read. */
export async function readBodyPrefix(response: Response, limit: number): Promise<string> {
  const bytes = Buffer.concat(await readChunks(response, limit, "truncate"));
  let end = Math.min(bytes.length, limit);
  // Back off over UTF-8 continuation bytes (10xxxxxx) so the cut does not split a character.
  if (end < bytes.length) while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}

/**
 * Chunks up to `limit` bytes. Past it, `refuse` throws BodyTooLarge and `truncate` stops with what it has (at most
 * one chunk beyond the limit, which the caller cuts); either way the stream is cancelled, so the connection's
 * remaining bytes are not read.
 */
async function readChunks(response: Response, limit: number, past: "refuse" | "truncate"): Promise<Uint8Array[]> {
  if (!response.body) return [];
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return chunks;
      }
      size += value.byteLength;
      if (size > limit && past === "refuse") throw new BodyTooLarge(limit);
      chunks.push(value);
      if (size >= limit && past === "truncate") return chunks;
    }
  } finally {
    if (!finished) reader.cancel().catch(() => {});
  }
}
