/**
 * Large message bodies are staged off the event loop (db/content-writes.ts: SQLite's content thread, PostgreSQL's
 * pieces) and read back the same way: what is stored and read must be the message byte for byte, 8bit bytes
 * included, on either engine.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { ASIDE_CONTENT_BYTES } from "../src/db/content-writes.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ limits: { max_message_bytes: 10_000_000 } });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
});
afterAll(() => t.close());

/** A message of about `bytes` whose body is every byte value but NUL, CR and LF, in lines of 900. */
function eightBitMessage(bytes: number): Buffer {
  const body = Buffer.from(randomBytes(bytes).map((b) => (b === 0 || b === 10 || b === 13 ? 0x41 : b)));
  const lines: Buffer[] = [];
  for (let at = 0; at < body.length; at += 900) lines.push(body.subarray(at, at + 900), Buffer.from("\r\n"));
  return Buffer.concat([
    Buffer.from("From: hi@example.com\r\nTo: a@dest.test\r\nSubject: Bytes\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"),
    ...lines,
  ]);
}

test("a body past the staging size is stored and read back byte for byte, and no staged piece is left", async () => {
  const raw = eightBitMessage(3 * ASIDE_CONTENT_BYTES);
  const actor = await t.app.services.keys.authenticate(t.liveKey);
  const { id } = await t.app.services.emails.submit(
    { kind: "raw", source: "smtp", raw, envelope: { from: "hi@example.com", to: ["a@dest.test"] } },
    actor,
  );
  const stored = Buffer.from(await (await t.request("GET", `/v1/emails/${id}/raw`)).arrayBuffer());
  const body = (message: Buffer) => message.subarray(message.indexOf("\r\n\r\n") + 4);
  expect(body(stored).equals(body(raw))).toBe(true);
  if (t.app.services.store.engine === "postgres")
    expect(await t.app.services.store.query(sql`SELECT count(*)::int AS n FROM content_parts`)).toEqual([{ n: 0 }]);
});
