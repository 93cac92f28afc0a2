/**
 * SQLite writes carried out by the write thread (db/write-thread.ts) instead of the event loop: a write that only
 * changes rows — reading nothing but committed data — is run once against a recording database, which keeps each
 * statement's SQL and parameters instead of executing it; the writer (db/writer.ts) posts the recorded statements of
 * consecutive such writes to the thread as one batch, and the thread executes, commits and syncs them. On the
 * acceptance path this moves SQLite's own work (about a quarter of the event loop's) onto the other core.
 * Invariants: a read made while recording answers from the reading connection — committed data, never the recorded
 * write's own statements, which have not run; a recorded statement's result is not known while recording (a
 * write that needs one, RETURNING or a count of changed rows, goes through `write`).
 */
import type { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import * as schema from "./schema/index.ts";
import type { Db } from "./store.ts";

/** One statement as recorded: its SQL and its positional parameters. */
export type RecordedStatement = [sql: string, params: unknown[]];

export type WriteThreadRequest =
  | {
      kind: "batch";
      id: number;
      path: string;
      drills: string[];
      writes: RecordedStatement[][];
    }
  /** A PRAGMA the fault drills set on every writing connection (tests). */
  | { kind: "drill"; id: number; pragma: string };

/** A write's outcome in its batch: null when it was carried out, else why it rolled back to its savepoint. */
export type WriteOutcome = null | { error: string; code?: string };

export type WriteThreadAnswer =
  | { id: number; phase: "committed"; outcomes: WriteOutcome[] }
  | { id: number; phase: "failed"; error: string; code?: string };

export interface Recording {
  /** A database whose writes are recorded and whose reads answer from committed data. */
  db: Db;
  /** The statements recorded since the last call, which then starts a new recording. */
  take(): RecordedStatement[];
}

/** A recording database over `reader`, the connection that answers its reads. */
export function createRecording(reader: Database): Recording {
  let recorded: RecordedStatement[] = [];
  const client = {
    prepare(text: string) {
      return {
        run(...params: unknown[]) {
          recorded.push([text, params]);
          return { changes: 0, lastInsertRowid: 0 };
        },
        all: (...params: unknown[]) => reader.query(text).all(...(params as never[])),
        get: (...params: unknown[]) => reader.query(text).get(...(params as never[])),
        values: (...params: unknown[]) => reader.query(text).values(...(params as never[])),
      };
    },
    exec(text: string) {
      throw new Error(`a recorded write cannot run "${text}" itself`);
    },
  };
  return {
    db: drizzle(client as unknown as Database, { schema }),
    take() {
      const taken = recorded;
      recorded = [];
      return taken;
    },
  };
}

export interface WriteThread {
  /** Runs one batch in one transaction: each write's outcome once the COMMIT returned (the WAL not yet synced). */
  run(writes: RecordedStatement[][]): Promise<WriteOutcome[]>;
  /** Runs `pragma` on the thread's connection now and on any it opens later (fault drills). */
  drill(pragma: string): Promise<void>;
  close(): void;
}

/** An error of the thread's, with the engine's code kept so the store's faults read it (db/faults.ts). */
const threadError = (answer: { error: string; code?: string }) =>
  Object.assign(new Error(answer.error), { code: answer.code });

/** The write thread at `threadUrl` on the database at `path`, started on first use. */
export function createWriteThread(path: string, threadUrl: URL): WriteThread {
  let thread: Worker | undefined;
  let sequence = 0;
  const drills: string[] = [];
  const waiting = new Map<number, (answer: WriteThreadAnswer) => void>();

  const start = () => {
    const worker = new Worker(threadUrl.href);
    worker.unref();
    worker.onmessage = (event: MessageEvent<WriteThreadAnswer>) => {
      waiting.get(event.data.id)?.(event.data);
      waiting.delete(event.data.id);
      if (waiting.size === 0) worker.unref();
    };
    worker.onerror = (event) => {
      for (const [id, settle] of waiting)
        settle({
          id,
          phase: "failed",
          error: `write thread failed: ${event.message}`,
        });
      waiting.clear();
      worker.terminate();
      if (thread === worker) thread = undefined;
    };
    return worker;
  };

  /** Posts `request` and answers the thread's answer; the thread keeps the process alive meanwhile. */
  const ask = (request: WriteThreadRequest) =>
    new Promise<WriteOutcome[]>((resolve, reject) => {
      thread ??= start();
      if (waiting.size === 0) thread.ref();
      waiting.set(request.id, (answer) =>
        answer.phase === "committed" ? resolve(answer.outcomes) : reject(threadError(answer)),
      );
      thread.postMessage(request);
    });

  return {
    run: (writes) => ask({ kind: "batch", id: ++sequence, path, drills, writes }),
    async drill(pragma) {
      drills.push(pragma);
      if (thread) await ask({ kind: "drill", id: ++sequence, pragma });
    },
    close() {
      thread?.terminate();
      thread = undefined;
    },
  };
}
