/**
 * Large message bodies kept off the event loop's back: a body of tens of megabytes written or read in one go
 * holds the loop for a tenth of a second or more (SQLite commits about 8 ms of pages per MiB, synchronously;
 * node-postgres copies a bytea parameter into its protocol buffer in one go, about 7 ms per MiB here). So a body is
 * staged before the transaction that records it and placed inside it:
 * - SQLite: the content thread (content-thread.ts) commits it as its own row on a connection of its own, through
 *   the writer's `alone`, so no batch holds the write lock meanwhile; placing it is nothing more.
 * - PostgreSQL (postgres/adapter.ts): it is uploaded in 1 MiB pieces to `content_parts`, and placing it joins them
 *   into its row within the record's transaction.
 * Should the record's transaction fail, the caller discards what was staged. A crash in between leaves a body
 * without a record (space, never a message half accepted: the client had no answer, and the queue and the API read
 * the record). Bodies are read back the same way round: by the content thread, or from PostgreSQL in pieces.
 */
import { sql } from "drizzle-orm";
import { bufferOf, inSharedMemory } from "../lib/bytes.ts";
import { type AppendRow, type AppendTable, CONTENT_TABLES, type ContentTable, type StagedContent } from "./store.ts";
import type { GroupCommitWriter } from "./writer.ts";

/** Bodies from this size up are staged; smaller ones are cheaper in the record's own transaction. */
export const ASIDE_CONTENT_BYTES = 1024 * 1024;

export type ContentRequest =
  | {
      kind: "content";
      id: number;
      path: string;
      table: ContentTable;
      ownerId: string;
      /** The body to write; absent, the body is read. */
      raw?: Uint8Array;
    }
  /** Rows appended in one transaction of the thread's own (`Writer.appendRows`). */
  | { kind: "append"; id: number; path: string; table: AppendTable; rows: AppendRow[] }
  /** The WAL copied into the database file as far as readers allow (db/sqlite.ts). */
  | { kind: "checkpoint"; id: number; path: string };

/** A request as posted, less what the thread's client adds (its id and the database's path). */
type ContentAsk =
  | { kind: "content"; table: ContentTable; ownerId: string; raw?: Uint8Array }
  | { kind: "append"; table: AppendTable; rows: AppendRow[] }
  | { kind: "checkpoint" };

type ContentAnswer =
  | { id: number; ok: true; raw?: Uint8Array | null }
  | { id: number; ok: false; error: string; code?: string };

export interface ContentThread {
  stageContent(table: ContentTable, ownerId: string, raw: Buffer): Promise<StagedContent>;
  /** The body, or undefined when there is none. */
  readContent(table: ContentTable, ownerId: string): Promise<Buffer | undefined>;
  /** Appends rows on the thread's connection, in turn with the writer's batches (`Writer.appendRows`). */
  appendRows(table: AppendTable, rows: AppendRow[]): Promise<void>;
  /** Checkpoints the WAL on the thread's connection, beside the writer's batches (PASSIVE). */
  checkpoint(): Promise<void>;
  close(): void;
}

/** SQLite's side: the content thread at `threadUrl`, on the database at `path`, in turn with `writer`'s batches. */
export function createContentThread(path: string, threadUrl: URL, writer: GroupCommitWriter): ContentThread {
  let thread: Worker | undefined;
  let sequence = 0;
  const waiting = new Map<number, (answer: ContentAnswer) => void>();

  const start = () => {
    const worker = new Worker(threadUrl.href);
    worker.unref();
    worker.onmessage = (event: MessageEvent<ContentAnswer>) => {
      waiting.get(event.data.id)?.(event.data);
      waiting.delete(event.data.id);
    };
    worker.onerror = (event) => {
      for (const [id, settle] of waiting) settle({ id, ok: false, error: `content thread failed: ${event.message}` });
      waiting.clear();
      worker.terminate();
      if (thread === worker) thread = undefined;
    };
    return worker;
  };

  const ask = async (request: ContentAsk) => {
    thread ??= start();
    const id = ++sequence;
    const answer = await new Promise<ContentAnswer>((resolve) => {
      waiting.set(id, resolve);
      thread!.postMessage({ id, path, ...request } satisfies ContentRequest);
    });
    if (!answer.ok) throw Object.assign(new Error(answer.error), { code: answer.code });
    return answer.raw;
  };

  return {
    async stageContent(table, ownerId, raw) {
      await writer.alone(async () => {
        // Shared memory: the thread reads the bytes where they are, and posting them costs no copy of megabytes.
        await ask({ kind: "content", table, ownerId, raw: inSharedMemory(raw) });
      });
      return {
        async place() {},
        discard: () =>
          writer
            .write(async (tx) =>
              tx.run(
                sql`DELETE FROM ${sql.identifier(table)} WHERE ${sql.identifier(CONTENT_TABLES[table].owner)} = ${ownerId}`,
              ),
            )
            .then(
              () => undefined,
              () => undefined,
            ),
      };
    },
    async readContent(table, ownerId) {
      const raw = await ask({ kind: "content", table, ownerId });
      return raw ? bufferOf(raw) : undefined;
    },
    async appendRows(table, rows) {
      await writer.alone(async () => {
        await ask({ kind: "append", table, rows });
      });
    },
    async checkpoint() {
      await ask({ kind: "checkpoint" });
    },
    close() {
      thread?.terminate();
      thread = undefined;
    },
  };
}
