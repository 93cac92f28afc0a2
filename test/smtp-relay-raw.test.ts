/**
 * The header changes the relay's raw-MIME input gets before it is stored (src/emails/raw-message.ts): Bcc and
 * Idempotency-Key removed with their folded lines, Message-ID and Date added only when missing, every other byte
 * kept — CRLF or bare LF, 8-bit header text, a message without a body.
 */
import { describe, expect, test } from "bun:test";
import { AppError } from "../src/errors.ts";
import {
  assertUnambiguousHeader,
  finalizeRawMessage,
  formatRfc5322Date,
  readHeader,
  readRawMessage,
  singleFrom,
} from "../src/emails/raw-message.ts";

const DATE = new Date("2026-11-22T10:00:00.000Z");
const ADDED = { messageId: "<new@example.com>", date: DATE };
const finalize = (raw: string) => finalizeRawMessage(Buffer.from(raw, "latin1"), ADDED);

describe("finalizing a submitted message", () => {
  test.each([
    [
      "a folded Bcc goes with its continuation lines",
      "From: a@example.com\r\nBcc: x@dest.test,\r\n  y@dest.test,\r\n\tz@dest.test\r\nMessage-ID: <m@c>\r\nDate: Sun, 22 Nov 2026 09:00:00 +0000\r\nSubject: Hi\r\n\r\nBody\r\n",
      "From: a@example.com\r\nMessage-ID: <m@c>\r\nDate: Sun, 22 Nov 2026 09:00:00 +0000\r\nSubject: Hi\r\n\r\nBody\r\n",
    ],
    [
      "a header ended by a bare LF and then a CRLF ends there: what follows is body, kept as it is (found by the MIME fuzzer)",
      "From: a@example.com\r\nBcc: x@dest.test\n\r\nSubject: in the body\r\n\r\nBody\r\n",
      "From: a@example.com\r\nMessage-ID: <new@example.com>\r\nDate: Sun, 22 Nov 2026 10:00:00 +0000\r\n\r\nSubject: in the body\r\n\r\nBody\r\n",
    ],
    [
      "every Bcc and Idempotency-Key field goes, whatever its case",
      "BCC: x@dest.test\r\nFrom: a@example.com\r\nidempotency-key: k1\r\nbcc:y@dest.test\r\nMessage-ID: <m@c>\r\nDate: d\r\n\r\nBody",
      "From: a@example.com\r\nMessage-ID: <m@c>\r\nDate: d\r\n\r\nBody",
    ],
    [
      "a missing Message-ID and Date are added at the end of the header",
      "From: a@example.com\r\nSubject: Hi\r\n\r\nBody\r\n",
      "From: a@example.com\r\nSubject: Hi\r\nMessage-ID: <new@example.com>\r\nDate: Sun, 22 Nov 2026 10:00:00 +0000\r\n\r\nBody\r\n",
    ],
    [
      "a bare-LF message gets bare-LF header lines",
      "From: a@example.com\nSubject: Hi\n\nBody\n",
      "From: a@example.com\nSubject: Hi\nMessage-ID: <new@example.com>\nDate: Sun, 22 Nov 2026 10:00:00 +0000\n\nBody\n",
    ],
    [
      "a message of headers only keeps its shape",
      "From: a@example.com\r\nSubject: Hi",
      "From: a@example.com\r\nSubject: Hi\r\nMessage-ID: <new@example.com>\r\nDate: Sun, 22 Nov 2026 10:00:00 +0000\r\n",
    ],
    [
      "8-bit header text and a body that looks like headers are kept byte for byte",
      "From: Jos\xe9 <a@example.com>\r\nMessage-ID: <m@c>\r\nDate: d\r\n\r\nBcc: not a header\r\n\r\nmore\r\n",
      "From: Jos\xe9 <a@example.com>\r\nMessage-ID: <m@c>\r\nDate: d\r\n\r\nBcc: not a header\r\n\r\nmore\r\n",
    ],
  ])("%s", (_name, input, expected) => {
    expect(finalize(input).raw.toString("latin1")).toBe(expected);
  });

  test("the Message-ID already in the message is the one recorded", () => {
    expect(finalize("Message-ID:\r\n <kept@client.test>\r\nDate: d\r\n\r\nx").messageId).toBe("<kept@client.test>");
    expect(finalize("From: a@example.com\r\n\r\nx").messageId).toBe("<new@example.com>");
  });

  test("a header value is read unfolded", () => {
    expect(
      readHeader(Buffer.from("Subject: x\r\nIdempotency-Key: order\r\n  -77\r\n\r\nbody"), "idempotency-key"),
    ).toBe("order  -77");
    expect(
      readHeader(Buffer.from("Subject: x\r\n\r\nIdempotency-Key: in the body"), "Idempotency-Key"),
    ).toBeUndefined();
  });

  test("dates are RFC 5322 with a numeric zone", () => {
    expect(formatRfc5322Date(new Date("2026-01-05T03:04:05Z"))).toBe("Mon, 05 Jan 2026 03:04:05 +0000");
  });
});

describe("found by the fuzz suite", () => {
  test.each([
    ["a lone CR", "\r"],
    ["a message that starts with a blank line", "\r\n\t\r\n\r\nbody"],
    ["a header ended by a lone CR", "From: a@example.com\r\nX: 1\r\n\r"],
  ])("%s: the body is kept and finalizing twice changes nothing", (_, text) => {
    const raw = Buffer.from(text, "latin1");
    const once = finalizeRawMessage(raw, ADDED);
    const twice = finalizeRawMessage(once.raw, ADDED);
    expect(twice.raw.toString("latin1")).toBe(once.raw.toString("latin1"));
    expect(readHeader(once.raw, "Message-ID")).toBe("<new@example.com>");
  });

  test.each([
    ["two From fields", "From: spoof@evil.test\r\nFrom: hi@example.com\r\nTo: a@dest.test\r\n\r\nHi\r\n", "from"],
    [
      "two Sender fields",
      "From: hi@example.com\r\nSender: a@example.com\r\nSender: b@evil.test\r\nTo: a@dest.test\r\n\r\nHi\r\n",
      "sender",
    ],
  ])("%s are refused: a reader could show an author the domain check never saw", async (_, text, path) => {
    const view = await readRawMessage(Buffer.from(text));
    let thrown: unknown;
    try {
      singleFrom(view);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).details?.[0]?.path).toBe(path);
  });
});

describe("header lines every reader splits alike (finding 9)", () => {
  const refusal = (text: string) => {
    try {
      assertUnambiguousHeader(Buffer.from(text, "latin1"));
      return "accepted";
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).name).toBe("validation_error");
      return (error as AppError).details![0]!.message;
    }
  };

  test.each([
    ["a CRLF header", "From: a@example.com\r\nSubject: Hi\r\n\r\nBody\r\n", "accepted"],
    ["a header whose every line ends in a bare LF", "From: a@example.com\nSubject: Hi\n\nBody\n", "accepted"],
    ["bare CR and LF in the body", "From: a@example.com\r\n\r\nBo\rdy\nmore\r\n", "accepted"],
    ["a folded field", "From: a@example.com\r\nSubject: a\r\n b\r\n\r\n", "accepted"],
    [
      "a bare CR before a second From",
      "From: Boss <ceo@bank.test>\rFrom: a@example.com\r\n\r\n",
      "line 1 (the From field) holds a bare CR",
    ],
    [
      "a bare CR in a continuation line",
      "To: x@dest.test\r\nSubject: a\r\n b\rFrom: c@bank.test\r\n\r\n",
      "line 3 (the Subject field) holds a bare CR",
    ],
    [
      "a bare CR in an LF-only header",
      "From: a@example.com\nSubject: a\rFrom: c@bank.test\n\n",
      "line 2 (the Subject field) holds a bare CR",
    ],
    ["a bare CR that ends the data", "From: a@example.com\r\n\r", "line 2 (not a header field) holds a bare CR"],
    [
      "a bare LF among CRLF lines",
      "From: a@example.com\r\nSubject: Hi\nFrom: c@bank.test\r\n\r\n",
      "line 2 (the Subject field) ends in a bare LF",
    ],
    [
      "a CRLF among bare-LF lines",
      "Subject: Hi\nFrom: c@bank.test\r\nFrom: a@example.com\n\n",
      "line 1 (the Subject field) ends in a bare LF",
    ],
    [
      "a blank line of a bare LF after CRLF lines",
      "From: a@example.com\r\n\nFrom: c@bank.test\r\n\r\n",
      "line 2 (the blank line that ends the header) ends in a bare LF",
    ],
    [
      "a field name that is not printable is not quoted",
      "X-\xff\x1b[2J: y\rFrom: c@bank.test\r\n\r\n",
      "line 1 (not a header field) holds a bare CR",
    ],
  ])("%s", (_, text, expected) => {
    expect(refusal(text)).toBe(expected);
  });

  test("a long header of bare-LF lines is read in linear time", () => {
    const header = Buffer.from(`${"X-Filler: y\n".repeat(200_000)}\n`, "latin1");
    const started = performance.now();
    assertUnambiguousHeader(header);
    // Quadratic scanning would take minutes here; linear takes milliseconds, with room for a loaded machine.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
