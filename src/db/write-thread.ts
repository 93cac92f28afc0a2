/**
 * SQLite's write thread: runs batches of recorded writes (db/recorded-writes.ts) on a write connection of its own,
 * so that executing their statements and committing hold this thread instead of the event loop. A batch is one
 * transaction; each write in it runs inside its own savepoint and rolls back alone, as in the group-commit writer
 * (db/writer.ts), whose queue hands this thread one batch at a time — so the two connections never wait on each
 * other's lock — and which syncs the WAL after the COMMIT, as it does its own.
 * Invariant: every request is answered once: `committed` with each write's outcome, or `failed` with nothing
 * committed.
 */
import { Database, type Statement } from "bun:sqlite";
import type { RecordedStatement, WriteThreadAnswer, WriteThreadRequest } from "./recorded-writes.ts";

declare const self: Worker;

let connection: Database | undefined;
/** Prepared once per SQL text: the hot path's writes are a handful of statements repeated. */
const statements = new Map<string, Statement>();
const MAX_STATEMENTS = 256;

const failure = (id: number, error: unknown): WriteThreadAnswer => ({
  id,
  phase: "failed",
  error: String((error as Error)?.message ?? error),
  code: (error as { code?: string })?.code,
});

function open(path: string, drills: readonly string[]): Database {
  const opened = new Database(path, { strict: true });
  // The COMMIT does not wait for the disk: the writer syncs the WAL before any write of the batch is answered.
  opened.exec("PRAGMA synchronous = NORMAL");
  opened.exec("PRAGMA foreign_keys = ON");
  opened.exec("PRAGMA busy_timeout = 5000");
  for (const pragma of drills) opened.exec(pragma);
  return opened;
}

function run(db: Database, [text, params]: RecordedStatement): void {
  let statement = statements.get(text);
  if (!statement) {
    if (statements.size >= MAX_STATEMENTS) {
      for (const old of statements.values()) old.finalize();
      statements.clear();
    }
    statement = db.prepare(text);
    statements.set(text, statement);
  }
  statement.run(...(params as never[]));
}

self.onmessage = (event: MessageEvent<WriteThreadRequest>) => {
  const request = event.data;
  const { id } = request;
  if (request.kind === "drill") {
    try {
      connection?.exec(request.pragma);
      postMessage({
        id,
        phase: "committed",
        outcomes: [],
      } satisfies WriteThreadAnswer);
    } catch (error) {
      postMessage(failure(id, error));
    }
    return;
  }
  let db: Database;
  try {
    db = connection ??= open(request.path, request.drills);
    db.exec("BEGIN IMMEDIATE");
  } catch (error) {
    return postMessage(failure(id, error));
  }
  const outcomes: WriteThreadAnswer & { phase: "committed" } = {
    id,
    phase: "committed",
    outcomes: [],
  };
  for (const write of request.writes) {
    db.exec("SAVEPOINT write_item");
    try {
      for (const statement of write) run(db, statement);
      db.exec("RELEASE write_item");
      outcomes.outcomes.push(null);
    } catch (error) {
      // SQLITE_FULL and I/O errors may roll the whole transaction back on their own: every write of it is gone.
      if (!db.inTransaction) return postMessage(failure(id, error));
      try {
        db.exec("ROLLBACK TO write_item");
        db.exec("RELEASE write_item");
      } catch {
        abandon(db);
        return postMessage(failure(id, error));
      }
      outcomes.outcomes.push({
        error: String((error as Error)?.message ?? error),
        code: (error as { code?: string })?.code,
      });
    }
  }
  try {
    db.exec("COMMIT");
  } catch (error) {
    abandon(db);
    return postMessage(failure(id, error));
  }
  postMessage(outcomes);
};

function abandon(db: Database): void {
  try {
    if (db.inTransaction) db.exec("ROLLBACK");
  } catch {
    // A failed COMMIT or ROLLBACK TO may already have ended the transaction.
  }
}
