/**
 * Group commit. Every write that must be durable before an answer goes through `write()`: the writes queued in
 * one event-loop turn share one transaction and so one fsync (synchronous=FULL), each inside its own savepoint so
 * a failing write rolls back alone. Invariant: a write's promise resolves only after its COMMIT returned — a
 * caller may answer 200 then and never earlier.
 */
import type { Database } from "bun:sqlite";
import type { Db } from "./client.ts";

interface PendingWrite {
  work: (db: Db) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export interface Writer {
  /** Runs `work` in a shared transaction; resolves with its result once committed to disk. */
  write<T>(work: (db: Db) => T): Promise<T>;
  /** Commits what is queued now (shutdown). */
  flush(): void;
}

/** Upper bound on writes per transaction, so one commit never holds the write lock for long. */
const MAX_BATCH = 1024;

export function createWriter(sqlite: Database, db: Db): Writer {
  const pending: PendingWrite[] = [];
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    while (pending.length > 0) {
      const batch = pending.length > MAX_BATCH ? pending.splice(0, MAX_BATCH) : pending.splice(0);
      commitBatch(batch);
    }
  };

  const commitBatch = (batch: PendingWrite[]) => {
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      sqlite.exec("BEGIN IMMEDIATE");
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    for (const item of batch) {
      sqlite.exec("SAVEPOINT write_item");
      try {
        const value = item.work(db);
        sqlite.exec("RELEASE write_item");
        outcomes.push({ ok: true, value });
      } catch (error) {
        sqlite.exec("ROLLBACK TO write_item");
        sqlite.exec("RELEASE write_item");
        outcomes.push({ ok: false, error });
      }
    }
    try {
      sqlite.exec("COMMIT");
    } catch (error) {
      try {
        sqlite.exec("ROLLBACK");
      } catch {
        // The failed COMMIT may already have ended the transaction.
      }
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  };

  return {
    write<T>(work: (db: Db) => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    flush,
  };
}
