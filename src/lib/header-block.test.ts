import { describe, expect, test } from "bun:test";
import { meterHeader, type HeaderVerdict } from "./header-block.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds `message` in chunks of `size` bytes and answers the verdict once it has ended. */
function measure(message: string, size: number, maxBytes = 100, maxLines = 3): HeaderVerdict {
  const meter = meterHeader(maxBytes, maxLines);
  const all = bytes(message);
  for (let at = 0; at < all.length; at += size) {
    const verdict = meter.feed(all.subarray(at, at + size));
    if (verdict !== "reading") return verdict;
  }
  return meter.verdict();
}

describe("the header block's size, whatever the chunks it arrives in", () => {
  test.each([
    ["three lines, then the body", "A: 1\r\nB: 2\r\nC: 3\r\n\r\nbody line\r\nbody line\r\nbody\r\n", "within"],
    ["a bare LF ends lines and the block too", "A: 1\nB: 2\n\nbody\nbody\nbody\nbody\n", "within"],
    ["no header at all", "\r\nbody\r\nbody\r\nbody\r\nbody\r\n", "within"],
    ["four lines are one too many", "A: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\nbody\r\n", { over: "lines" }],
    ["a folded header counts each of its lines", "To: a,\r\n b,\r\n c,\r\n d\r\n\r\nbody\r\n", { over: "lines" }],
    ["a header that never ends is judged as it stands", "A: 1\r\nB: 2\r\nC: 3\r\nD: 4", { over: "lines" }],
    ["a header that never ends, within", "A: 1\r\nB: 2", "within"],
    ["over the bytes in one long line", `Subject: ${"x".repeat(120)}\r\n\r\nbody\r\n`, { over: "bytes" }],
    ["a long body is none of the header's", `A: 1\r\n\r\n${"x".repeat(10_000)}\r\n`, "within"],
  ] as const)("%s", (_name, message, expected) => {
    for (const size of [1, 2, 3, 7, 64, 100_000]) expect(measure(message, size)).toEqual(expected);
  });

  test("once the block has ended, later chunks are not read", () => {
    const meter = meterHeader(10, 2);
    expect(meter.feed(bytes("A: 1\r\n\r\n"))).toBe("within");
    expect(meter.feed(bytes(`${"x".repeat(100)}\r\n`.repeat(10)))).toBe("within");
  });
});
