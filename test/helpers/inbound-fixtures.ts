/**
 * The report and reply fixtures of test/fixtures/inbound, written from the RFCs and providers' formats around a
 * sample return path and Message-ID; a test that sent a real message puts that message's own in their place.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const SAMPLE_RETURN_PATH = "bounces+0190f3a2b4c57d8e9f0a1b2c3d4e5f60-abcdefghijklmnop@bounces.example.com";
export const SAMPLE_MESSAGE_ID = "<0190f3a2-b4c5-7d8e-9f0a-1b2c3d4e5f60@example.com>";

/** The fixture's text, with the sent message's return path and Message-ID where the samples stand. */
export function inboundFixture(name: string, sent: { returnPath?: string; messageId?: string } = {}): string {
  return readFileSync(join(import.meta.dir, "..", "fixtures", "inbound", `${name}.eml`), "utf8")
    .replaceAll(SAMPLE_RETURN_PATH, sent.returnPath ?? SAMPLE_RETURN_PATH)
    .replaceAll(SAMPLE_MESSAGE_ID, sent.messageId ?? SAMPLE_MESSAGE_ID);
}
