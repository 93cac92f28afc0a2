/**
 * The store seam. Repositories are written once, against drizzle's query builder as `Db` and the tables
 * `tablesOf(db)` hands them, and they only ever `await` a query; everything that differs between the engines —
 * connections, the commit strategy, migrations, dialect fragments, row claims and wake-ups — lives in the two
 * adapters (db/sqlite.ts, db/postgres/adapter.ts). Invariants: `write()` resolves only after its COMMIT returned,
 * so a caller may answer 200 then and never earlier; `db` reads committed data only.
 */
import type { SQL } from "drizzle-orm";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import type * as schema from "./schema/index.ts";

/**
 * The query-builder surface repositories use. Typed as drizzle's SQLite database; on PostgreSQL the adapter's
 * drizzle database stands behind it with the same builder methods (and PostgreSQL tables, see `tablesOf`).
 * Repositories therefore use only what both share: build, then `await` (never `.get()`, `.all()` or `.run()`).
 */

/** The tables that hold message bodies, each with the column naming the row a body belongs to. */
export const CONTENT_TABLES = {
  email_contents: { owner: "email_id" },
  received_contents: { owner: "received_email_id" },
} as const;
export type ContentTable = keyof typeof CONTENT_TABLES;

/**
 * Tables whose rows may be appended off the event loop (`Writer.appendRows`), with their columns in the order a row
 * gives its values: rows nothing waits on and nothing else writes, whose loss in a power cut costs no mail.
 */
export const APPEND_TABLES = {
  request_logs: [
    "id",
    "organization_id",
    "api_key_id",
    "mode",
    "created_at",
    "endpoint",
    "method",
    "response_status",
    "user_agent",
    "request_body",
    "response_body",
  ],
} as const;
export type AppendTable = keyof typeof APPEND_TABLES;
/** One row's values in its table's `APPEND_TABLES` order; JSON columns as JSON text. */
export type AppendRow = Array<string | number | null>;

/** A body taken ahead of its record's transaction. */
export interface StagedContent {
  /** Inside the record's transaction: the body becomes its row there (or already is). */
  place(tx: Db): Promise<void>;
  /** The record's transaction failed: what was staged is removed (best effort). */
  discard(): Promise<void>;
}

export type Db = BunSQLiteDatabase<typeof schema>;

export type Tables = typeof schema;

export type Engine = "sqlite" | "postgres";

export interface Writer {
  /** Runs `work` in a transaction; resolves with its result once committed to disk. */
  write<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * Takes a large message body ahead of the transaction that records it, so that the event loop never carries it in
   * one go (db/content-writes.ts); that transaction then calls `place(tx)`, or `discard()` if it fails. Absent, the
   * body goes in the record's transaction as it is.
   */
  stageContent?(table: ContentTable, ownerId: string, raw: Buffer): Promise<StagedContent>;
  /**
   * Reads a large body without holding the event loop (SQLite: the content thread; PostgreSQL: in 1 MiB pieces, not
   * one row decoded in one go); undefined when there is none.
   */
  readContent?(table: ContentTable, ownerId: string): Promise<Buffer | undefined>;
  /**
   * Appends rows in a transaction of their own off the event loop (SQLite: the content thread, in turn with the
   * writer's batches, committed without waiting for the disk: the next durable commit takes them there). Absent
   * (PostgreSQL, whose inserts are sent, not executed, by the event loop; an in-memory SQLite), the caller writes
   * them through `write`.
   */
  appendRows?(table: AppendTable, rows: AppendRow[]): Promise<void>;
}

export interface Store extends Writer {
  readonly engine: Engine;
  /** Several instances may use this store at once (PostgreSQL): what they share must live in it, not in memory. */
  readonly shared: boolean;
  /** Reads outside a write: they see committed data only. */
  readonly db: Db;
  /** Raw SQL outside the repositories' builder (operations, tests, benchmarks); placeholders per engine. */
  query<T = Record<string, unknown>>(statement: SQL): Promise<T[]>;
  /**
   * Calls `onNotify` after a write that called `notifyAtCommit(tx, channel)` (db/dialect.ts) committed: on SQLite a
   * write of this process, on PostgreSQL one of any instance sharing the store, this one included.
   */
  listen(channel: string, onNotify: () => void): void;
  /** Commits what is queued now (shutdown). */
  flush(): Promise<void>;
  /** Gives the pages retention freed back to the file system (SQLite); PostgreSQL's autovacuum reuses them itself. */
  reclaimSpace?(): Promise<void>;
  /** A consistent copy of the whole store, for `mailroom backup` (SQLite); PostgreSQL is backed up with pg_dump. */
  backup(path: string): Promise<void>;
  close(): Promise<void>;
}

/** The tables of the engine behind `db` (a transaction's `tx` included). */
export function tablesOf(db: Db): Tables {
  return db._.fullSchema;
}

/** The first row of a query's result, or undefined. */
export async function first<T>(rows: Promise<T[]> | PromiseLike<T[]>): Promise<T | undefined> {
  return (await rows)[0];
}
