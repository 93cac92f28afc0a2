/**
 * Large message bodies written and read off the event loop (SQLite only). `writeContent` hands the row to the
 * content thread (content-thread.ts) through the writer's `alone`, so no batch holds the write lock meanwhile, and
 * resolves once it is committed; `readContent` asks the thread for a body (a WAL reader never waits on the writer). The caller then commits the row it belongs to; should that fail, the caller deletes the body again.
 * A crash between the two leaves a body without its record: space, never a message half accepted (the client had
 * no answer, and the record is what the queue and the API read).
 */
import type { GroupCommitWriter } from "./writer.ts";

export type ContentTable = "email_contents" | "received_contents";

export interface ContentRequest {
  id: number;
  path: string;
  table: ContentTable;
  ownerId: string;
  /** The body to write; absent, the body is read. */
  raw?: Uint8Array;
}

type ContentAnswer = { id: number; ok: true; raw?: Uint8Array | null } | { id: number; ok: false; error: string; code?: string };

export interface ContentWrites {
  /** Commits the body as its own row, before the row it belongs to; rejects as a write of the store would. */
  writeContent(table: ContentTable, ownerId: string, raw: Buffer): Promise<void>;
  /** The body, or undefined when there is none. */
  readContent(table: ContentTable, ownerId: string): Promise<Buffer | undefined>;
  close(): void;
}

/** Bodies from this size up are written by the content thread; smaller ones are cheaper in the group commit. */
export const ASIDE_CONTENT_BYTES = 1024 * 1024;

export function createContentWrites(path: string, threadUrl: URL, writer: GroupCommitWriter): ContentWrites {
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

  const ask = async (request: Omit<ContentRequest, "id" | "path">) => {
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
    writeContent(table, ownerId, raw) {
      return writer.alone(async () => {
        // Shared memory: the thread reads the bytes where they are, and posting them costs no copy of megabytes.
        let shared: Uint8Array = raw;
        if (!(raw.buffer instanceof SharedArrayBuffer)) {
          shared = new Uint8Array(new SharedArrayBuffer(raw.length));
          shared.set(raw);
        }
        await ask({ table, ownerId, raw: shared });
      });
    },
    async readContent(table, ownerId) {
      const raw = await ask({ table, ownerId });
      return raw ? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength) : undefined;
    },
    close() {
      thread?.terminate();
      thread = undefined;
    },
  };
}
