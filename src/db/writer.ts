/**
 * Group commit. Every write that must be durable before an answer goes through `write()`: the writes queued in
 * one event-loop turn share one transaction and so one fsync (synchronous=FULL), each inside its own savepoint so
 * a failing write rolls back alone. A full disk or an I/O error rejects with `service_unavailable` (db/faults.ts).
 * Invariant: a write's promise resolves only after its COMMIT returned — a
 * caller may answer 200 then and never earlier.
 */
import type { Database } from "bun:sqlite";
import type { Db } from "./client.ts";
import { asStoreFault } from "./faults.ts";

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

  const abandon = () => {
    try {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
    } catch {
      // A failed COMMIT or ROLLBACK TO may already have ended the transaction.
    }
  };

  const commitBatch = (batch: PendingWrite[]) => {
    const rejectAll = (error: unknown) => {
      const reason = asStoreFault(error);
      for (const item of batch) item.reject(reason);
    };
    try {
      sqlite.exec("BEGIN IMMEDIATE");
    } catch (error) {
      return rejectAll(error);
    }
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    for (const item of batch) {
      sqlite.exec("SAVEPOINT write_item");
      try {
        const value = item.work(db);
        sqlite.exec("RELEASE write_item");
        outcomes.push({ ok: true, value });
      } catch (error) {
        // SQLITE_FULL and I/O errors may roll the whole transaction back on their own (sqlite.org/lang_transaction
        // "Response To Errors Within A Transaction"): then the writes before this one are gone too, and all fail.
        if (!sqlite.inTransaction) return rejectAll(error);
        try {
          sqlite.exec("ROLLBACK TO write_item");
          sqlite.exec("RELEASE write_item");
        } catch {
          abandon();
          return rejectAll(error);
        }
        outcomes.push({ ok: false, error: asStoreFault(error) });
      }
    }
    try {
      sqlite.exec("COMMIT");
    } catch (error) {
      abandon();
      return rejectAll(error);
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
