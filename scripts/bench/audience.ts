/**
 * A large audience written straight into the store, for the broadcast bench (scripts/bench-broadcasts.ts) and the
 * crash drill (test/broadcast-crash.test.ts): a segment of `count` contacts, 2,000 a transaction in multi-row inserts
 * of 500, each
 * `unsubscribedEvery`-th contact unsubscribed and each `suppressedEvery`-th on the suppression list. Answers the
 * segment's id and how many contacts are eligible for a broadcast without a topic.
 */
import { chunks } from "../../src/db/prepared.ts";
import { tablesOf, type Db, type Writer } from "../../src/db/store.ts";
import { newId } from "../../src/lib/ids.ts";

export const readerAddress = (i: number) => `reader${i}@d${i % 50}.bench.test`;

export async function seedAudience(
  writer: Writer,
  organizationId: string,
  count: number,
  options: { unsubscribedEvery?: number; suppressedEvery?: number } = {},
): Promise<{ segmentId: string; eligible: number }> {
  const at = new Date().toISOString();
  const segmentId = newId();
  await writer.write((tx) =>
    tx
      .insert(tablesOf(tx).segments)
      .values({ id: segmentId, organizationId, name: "Readers", createdAt: at, updatedAt: at }),
  );
  const every = (n: number | undefined, i: number) => n !== undefined && i % n === n - 1;
  let eligible = 0;
  /** Inserts contacts `part` in the segment; answers how many of them are not eligible. */
  const insertPart = async (tx: Db, part: number[]) => {
    const { contacts, contactSegments, suppressions } = tablesOf(tx);
    const rows = part.map((i) => ({
      id: newId(),
      organizationId,
      email: readerAddress(i),
      firstName: `Reader ${i}`,
      lastName: null,
      unsubscribed: every(options.unsubscribedEvery, i),
      properties: {},
      createdAt: at,
      updatedAt: at,
    }));
    await tx.insert(contacts).values(rows);
    await tx.insert(contactSegments).values(rows.map((row) => ({ segmentId, contactId: row.id, createdAt: at })));
    const unsubscribed = part.filter((i) => every(options.unsubscribedEvery, i));
    const suppressed = part.filter((i) => every(options.suppressedEvery, i) && !every(options.unsubscribedEvery, i));
    if (suppressed.length)
      await tx.insert(suppressions).values(
        suppressed.map((i) => ({
          id: newId(),
          organizationId,
          email: readerAddress(i),
          origin: "manual" as const,
          reason: "bench",
          createdAt: at,
        })),
      );
    return unsubscribed.length + suppressed.length;
  };
  for (const group of chunks(
    Array.from({ length: count }, (_, i) => i),
    2_000,
  )) {
    await writer.write(async (tx) => {
      for (const part of chunks(group, 500)) eligible -= await insertPart(tx, part);
    });
    eligible += group.length;
  }
  return { segmentId, eligible };
}
