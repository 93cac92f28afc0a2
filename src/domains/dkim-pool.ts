/**
 * DKIM signing on worker threads (dkim-worker.ts), so signing runs beside the event loop instead of on it.
 * Threads start on the first signature and are spread round-robin; a thread that dies fails only the signatures
 * it held and is replaced on the next request. Invariant: every `sign` settles — with the signature header, or
 * with the errors that the caller turns into "send unsigned".
 */
import { availableParallelism } from "node:os";
import type { dkimSign } from "mailauth";

export type DkimOptions = Parameters<typeof dkimSign>[1];
export interface DkimResult {
  signatures: string;
  errors: unknown[];
}

export interface DkimPool {
  sign(raw: Buffer, options: DkimOptions): Promise<DkimResult>;
  close(): void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, (result: DkimResult) => void>;
}

/** One thread per core beyond the event loop's, at least one, at most four. */
export function defaultDkimThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/**
 * `workerUrl` locates dkim-worker.ts. The composition root builds it relative to itself: from the sources that is
 * src/, and inside the executable every module's URL is the bundle root, where the build put the worker under the
 * same relative path (domains/dkim-worker.ts).
 */
export function createDkimPool(workerUrl: URL, threadCount = defaultDkimThreads()): DkimPool {
  const threads: Array<Thread | undefined> = new Array(threadCount);
  let next = 0;
  let sequence = 0;

  const spawn = (slot: number): Thread => {
    const worker = new Worker(workerUrl.href);
    const thread: Thread = { worker, pending: new Map() };
    worker.unref();
    worker.onmessage = (event: MessageEvent<{ id: number; signatures: string; error: string | null }>) => {
      const { id, signatures, error } = event.data;
      const settle = thread.pending.get(id);
      thread.pending.delete(id);
      settle?.({ signatures, errors: error ? [new Error(error)] : [] });
    };
    worker.onerror = (event) => {
      const error = new Error(`DKIM signing thread failed: ${event.message}`);
      for (const settle of thread.pending.values()) settle({ signatures: "", errors: [error] });
      thread.pending.clear();
      if (threads[slot] === thread) threads[slot] = undefined;
      worker.terminate();
    };
    threads[slot] = thread;
    return thread;
  };

  return {
    sign(raw, options) {
      const slot = next;
      next = (next + 1) % threadCount;
      const thread = threads[slot] ?? spawn(slot);
      const id = ++sequence;
      return new Promise<DkimResult>((resolve) => {
        thread.pending.set(id, resolve);
        thread.worker.postMessage({ id, raw, options });
      });
    },
    close() {
      for (const [slot, thread] of threads.entries()) {
        if (!thread) continue;
        for (const settle of thread.pending.values()) settle({ signatures: "", errors: [new Error("DKIM signing stopped")] });
        thread.worker.terminate();
        threads[slot] = undefined;
      }
    },
  };
}
