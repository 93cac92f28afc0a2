/**
 * Group commit, SQLite's commit strategy. Every write that must be durable before an answer goes through
 * `write()`: the writes queued in one event-loop turn share one transaction and so one fsync, each inside its own
 * savepoint so a failing write rolls back alone; the fsync runs off the event loop (`durable`), while the next
 * batch forms and commits. A full disk or an I/O error rejects with `service_unavailable` (db/faults.ts).
 * Invariants: a write's promise resolves only once its COMMIT is on disk — a caller may answer 200 then and never
 * earlier; one batch at a time holds the connection.
 */
import type { Database } from "bun:sqlite";
import { collectNotifications } from "./dialect.ts";
import { asStoreFault } from "./faults.ts";
import type { Db } from "./store.ts";

interface PendingWrite {
  work: (tx: Db) => Promise<unknown>;
  /** Work done alone, between batches, with no transaction open on this connection (see `alone`). */
  alone?: true;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export interface GroupCommitWriter {
  write<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in its turn among the writes, while no batch holds this connection's write lock and none begins:
   * for a write that another connection makes (the content thread, db/content-writes.ts), which would otherwise
   * wait on this one's lock — or make this one wait, on the event loop.
   */
  alone<T>(work: () => Promise<T>): Promise<T>;
  /** Commits what is queued now and waits for it (shutdown). */
  flush(): Promise<void>;
}

/** Upper bound on writes per transaction, so one commit never holds the write lock for long. */
const MAX_BATCH = 1024;

export interface WriterOptions {
  /**
   * Resolves once everything committed before the call is on disk (the WAL's fsync, on a thread of the runtime's):
   * the connection then commits without waiting for the disk (synchronous=NORMAL), the event loop goes on with the
   * next batch meanwhile, and a batch's writes resolve only after it. Absent, COMMIT itself is durable.
   */
  durable?: () => Promise<void>;
  /**
   * Hears the channels a batch's writes notified (db/dialect.ts `notifyAtCommit`) after its COMMIT; a write rolled
   * back to its savepoint may still have named one, which costs a listener a spurious call, never a missed one.
   */
  committed?: (channels: Set<string>) => void;
}

export function createWriter(sqlite: Database, db: Db, options: WriterOptions = {}): GroupCommitWriter {
  const { durable, committed } = options;
  let lastDurable: Promise<unknown> = Promise.resolve();
  const pending: PendingWrite[] = [];
  let draining: Promise<void> | undefined;
  let notified = new Set<string>();
  collectNotifications(db, (channel) => void notified.add(channel));

  const drain = async () => {
    while (pending.length > 0) {
      const next = pending[0]!;
      if (next.alone) {
        pending.shift();
        await (next.work(db) as Promise<unknown>).then(next.resolve, (error) => next.reject(asStoreFault(error)));
        continue;
      }
      const until = pending.findIndex((item) => item.alone);
      await commitBatch(pending.splice(0, Math.min(MAX_BATCH, until < 0 ? pending.length : until)));
    }
  };

  // One drain at a time: the next turn's writes wait for the batch on the connection, then form the next one.
  const schedule = () => {
    draining ??= new Promise<void>((resolve) => setImmediate(resolve)).then(drain).finally(() => {
      draining = undefined;
      if (pending.length > 0) schedule();
    });
  };

  const abandon = () => {
    try {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
    } catch {
      // A failed COMMIT or ROLLBACK TO may already have ended the transaction.
    }
  };

  const commitBatch = async (batch: PendingWrite[]) => {
    const rejectAll = (error: unknown) => {
      const reason = asStoreFault(error);
      for (const item of batch) item.reject(reason);
    };
    try {
      sqlite.exec("BEGIN IMMEDIATE");
    } catch (error) {
      return rejectAll(error);
    }
    notified = new Set();
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    for (const item of batch) {
      sqlite.exec("SAVEPOINT write_item");
      try {
        const value = await item.work(db);
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
    if (notified.size > 0) committed?.(notified);
    const settle = () =>
      batch.forEach((item, i) => {
        const outcome = outcomes[i]!;
        if (outcome.ok) item.resolve(outcome.value);
        else item.reject(outcome.error);
      });
    if (!durable) return settle();
    // Committed, not yet on disk: the next batch may begin; these answer once the WAL is synced.
    lastDurable = durable().then(settle, rejectAll);
  };

  return {
    write<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
        schedule();
      });
    },
    alone<T>(work: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        pending.push({ work, alone: true, resolve: resolve as (value: unknown) => void, reject });
        schedule();
      });
    },
    async flush() {
      while (draining) await draining;
      await lastDurable;
    },
  };
}
