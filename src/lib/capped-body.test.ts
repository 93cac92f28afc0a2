import { describe, expect, test } from "bun:test";
import { BodyTooLarge, readBodyPrefix, readCappedBody, readCappedText } from "./capped-body.ts";

/** A response whose body is `chunks`, recording how many were pulled and whether the reader cancelled. */
function streamed(chunks: Uint8Array[], headers: Record<string, string> = {}) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled === chunks.length) return controller.close();
      controller.enqueue(chunks[seen.pulled++]!);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { response: new Response(body, { headers }), seen };
}

const bytes = (size: number) => new Uint8Array(size).fill(0x61);

describe("readCappedBody", () => {
  test("a body of exactly the cap is read whole", async () => {
    const { response } = streamed([bytes(6), bytes(4)]);
    expect((await readCappedBody(response, 10)).length).toBe(10);
  });

  test("one byte past the cap is refused, and the stream is cancelled there rather than read on", async () => {
    const { response, seen } = streamed([bytes(6), bytes(5), bytes(100), bytes(100)]);
    await expect(readCappedBody(response, 10)).rejects.toBeInstanceOf(BodyTooLarge);
    expect(seen.pulled).toBeLessThanOrEqual(3);
    expect(seen.cancelled).toBe(true);
  });

  test("a declared Content-Length over the cap is refused before a byte is read", async () => {
    const { response, seen } = streamed([bytes(1)], { "content-length": "11" });
    await expect(readCappedBody(response, 10)).rejects.toThrow("larger than 10 bytes");
    expect(seen.pulled).toBe(0);
  });

  test("no body reads as empty", async () => {
    expect((await readCappedBody(new Response(null), 10)).length).toBe(0);
  });
});

describe("readCappedText and readBodyPrefix", () => {
  test("text is UTF-8", async () => {
    expect(await readCappedText(new Response("héllo"), 10)).toBe("héllo");
  });

  test("a prefix stops reading at the limit and cuts before a character, not through it", async () => {
    const { response, seen } = streamed([new TextEncoder().encode("abé"), bytes(1000), bytes(1000)]);
    // "ab" + the first byte of "é" fit in 3 bytes: the half character is dropped.
    expect(await readBodyPrefix(response, 3)).toBe("ab");
    expect(seen.pulled).toBe(1);
    expect(seen.cancelled).toBe(true);
  });

  test("a short body is the whole prefix", async () => {
    expect(await readBodyPrefix(new Response("ok"), 1024)).toBe("ok");
  });
});
