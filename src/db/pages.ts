/**
 * Resend's cursor pages over time-ordered ids (UUIDv7): newest first; `after=<id>` continues towards older rows,
 * `before=<id>` goes back towards newer ones (read oldest first, then turned around). One rule for every list; a
 * queue reads `oldestFirst`, the same cursors the other way round (`after` towards newer rows).
 */
import { and, asc, desc, gt, lt, type AnyColumn, type SQL } from "drizzle-orm";
import type { Db, Writer } from "./store.ts";

export interface PageOptions {
  limit: number;
  after?: string;
  before?: string;
}

export async function pageById<T>(
  id: AnyColumn,
  filters: SQL[],
  options: PageOptions & { oldestFirst?: boolean },
  select: (where: SQL | undefined, order: SQL, limit: number) => Promise<T[]>,
): Promise<{ page: T[]; hasMore: boolean }> {
  const [past, beyond, forwards, backwards] = options.oldestFirst ? [gt, lt, asc, desc] : [lt, gt, desc, asc];
  const conditions = [...filters];
  // Ids are stored lower-case; a cursor may come back in capitals (a client that upper-cased a UUID).
  if (options.after) conditions.push(past(id, options.after.toLowerCase()));
  if (options.before) conditions.push(beyond(id, options.before.toLowerCase()));
  const inOrder = !(options.before && !options.after);
  const rows = await select(and(...conditions), inOrder ? forwards(id) : backwards(id), options.limit + 1);
  const page = rows.slice(0, options.limit);
  if (!inOrder) page.reverse();
  return { page, hasMore: rows.length > options.limit };
}

/**
 * The same cursors over a short list already in memory, kept in its own order (a message's attachments):
 * `after=<id>` continues past that item, `before=<id>` takes the items just before it.
 */
export function pageOfList<T extends { id: string }>(
  items: readonly T[],
  options: PageOptions,
): { page: T[]; hasMore: boolean } {
  const position = (cursor: string | undefined) => (cursor ? items.findIndex((item) => item.id === cursor) : -1);
  if (options.before) {
    const before = position(options.before);
    const end = Math.max(before, 0);
    return { page: items.slice(Math.max(0, end - options.limit), end), hasMore: end - options.limit > 0 };
  }
  const rest = items.slice(position(options.after) + 1);
  return { page: rest.slice(0, options.limit), hasMore: rest.length > options.limit };
}

/**
 * A change over many rows in keyset batches, each a write of its own, so that a bulk change never holds the store for
 * long: `batch` reads at most `size` rows with ids after `after`, in id order, acts on them in its write, and answers
 * their ids and what it counted. Answers the sum of the counts.
 */
export async function inIdBatches(
  writer: Writer,
  size: number,
  batch: (tx: Db, after: string) => Promise<{ ids: readonly string[]; counted: number }>,
): Promise<number> {
  let total = 0;
  for (let after = ""; ; ) {
    const { ids, counted } = await writer.write((tx) => batch(tx, after));
    total += counted;
    if (ids.length < size) return total;
    after = ids.at(-1)!;
  }
}
