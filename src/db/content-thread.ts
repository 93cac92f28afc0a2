/**
 * The SQLite store's content thread: writes and reads one large message body (a row of `email_contents` or
 * `received_contents`) on a connection of its own, so that the commit — SQLite writes about 8 ms of pages per MiB,
 * synchronously — or the read (about 1.5 ms per MiB) holds this thread instead of the event loop. The writer
 * (db/writer.ts) runs each write alone, between its batches, so the two connections never wait on each other's lock.
 * It also appends rows nothing waits on (the request log's, `Writer.appendRows`), so their inserts cost the event
 * loop only their posting; and it checkpoints the WAL into the database file (PASSIVE: beside the writer, never
 * waiting for its lock), which the writing connection then never does itself (db/sqlite.ts).
 * Invariant: every request is answered, `{ok: true}` (with the body, for a read) or `{ok: false, error}`.
 */
import { Database } from "bun:sqlite";
import type { ContentRequest } from "./content-writes.ts";
import { APPEND_TABLES, type AppendRow, type AppendTable, CONTENT_TABLES, type ContentTable } from "./store.ts";

declare const self: Worker;

let connection: Database | undefined;

const STATEMENTS = Object.fromEntries(
  Object.entries(CONTENT_TABLES).map(([table, { owner }]) => [
    table,
    {
      insert: `INSERT INTO ${table} (${owner}, raw) VALUES (?, ?)`,
      select: `SELECT raw FROM ${table} WHERE ${owner} = ?`,
    },
  ]),
) as Record<ContentTable, { insert: string; select: string }>;

const APPENDS = Object.fromEntries(
  Object.entries(APPEND_TABLES).map(([table, columns]) => [
    table,
    `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  ]),
) as Record<AppendTable, string>;

/**
 * Appended rows wait for no answer and hold no mail: their transaction commits without its own fsync
 * (synchronous=NORMAL), and the next durable commit of either connection syncs the WAL they are in.
 */
function append(db: Database, table: AppendTable, rows: AppendRow[]): void {
  const insert = db.query(APPENDS[table]);
  db.exec("PRAGMA synchronous = NORMAL");
  try {
    db.transaction(() => {
      for (const row of rows) insert.run(...row);
    })();
  } finally {
    db.exec("PRAGMA synchronous = FULL");
  }
}

self.onmessage = (event: MessageEvent<ContentRequest>) => {
  const request = event.data;
  const { id, path } = request;
  try {
    if (!connection) {
      connection = new Database(path, { strict: true });
      connection.exec("PRAGMA synchronous = FULL");
      connection.exec("PRAGMA busy_timeout = 5000");
    }
    if (request.kind === "append") {
      append(connection, request.table, request.rows);
      return postMessage({ id, ok: true });
    }
    if (request.kind === "checkpoint") {
      connection.exec("PRAGMA wal_checkpoint(PASSIVE)");
      return postMessage({ id, ok: true });
    }
    const { table, ownerId, raw } = request;
    if (raw === undefined) {
      const row = connection.query<{ raw: Uint8Array }, [string]>(STATEMENTS[table].select).get(ownerId);
      // The body's own buffer moves to the event loop's thread: no copy of megabytes on either side.
      return postMessage({ id, ok: true, raw: row?.raw ?? null }, row ? [row.raw.buffer as ArrayBuffer] : []);
    }
    // The owner's row follows in the writer's next transaction: foreign keys stay off on this connection (SQLite's
    // default), as a row of contents arrives a moment before the row it belongs to.
    connection.query(STATEMENTS[table].insert).run(ownerId, raw);
    postMessage({ id, ok: true });
  } catch (error) {
    postMessage({
      id,
      ok: false,
      error: String((error as Error)?.message ?? error),
      code: (error as { code?: string })?.code,
    });
  }
};
