/**
 * The CPU pool: worker threads (thread.ts) for the work heavy enough to hold up the event loop — DKIM signatures
 * (RSA-2048, about a millisecond) and MIME composition (nodemailer and html-to-text, about a quarter of a
 * millisecond, with the tracking rewrite of the html) — so it runs on the machine's other cores while the event loop serves requests and the queue.
 * Threads start on first use and take tasks in turn; a thread that dies fails only the tasks it held and is
 * replaced on the next task. Invariant: every task settles — with its result, or with an error.
 */
import { availableParallelism } from "node:os";
import type { dkimSign } from "mailauth";
import type { ComposedMessage, ComposeRequest } from "../emails/compose.ts";

export type DkimOptions = Parameters<typeof dkimSign>[1];
export interface DkimResult {
  signatures: string;
  errors: unknown[];
}

export type Task = { kind: "sign"; raw: Uint8Array; options: DkimOptions } | { kind: "compose"; request: ComposeRequest };
/** A thread's answer; `error` is the failure's message (errors do not cross threads intact). */
export type Answer = { id: number; value: unknown; error: null } | { id: number; value: null; error: string };

export interface CpuPool {
  /** Settles with the signature header, or with the errors that the caller turns into "send unsigned". */
  sign(raw: Buffer, options: DkimOptions): Promise<DkimResult>;
  /** Rejects when composition fails (the caller answers as it would for a composition error on the event loop). */
  compose(request: ComposeRequest): Promise<ComposedMessage>;
  close(): void;
}

interface Thread {
  worker: Worker;
  pending: Map<number, (answer: Answer) => void>;
}

/** One thread per core beyond the event loop's, at least one, at most four. */
export function defaultPoolThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/**
 * `workerUrl` locates thread.ts. The composition root builds it relative to itself: from the sources that is
 * src/, and inside the executable every module's URL is the bundle root, where the build put the thread under the
 * same relative path (workers/thread.ts).
 */
export function createCpuPool(workerUrl: URL, threadCount = defaultPoolThreads()): CpuPool {
  const threads: Array<Thread | undefined> = new Array(threadCount);
  let next = 0;
  let sequence = 0;

  const spawn = (slot: number): Thread => {
    const worker = new Worker(workerUrl.href);
    const thread: Thread = { worker, pending: new Map() };
    worker.unref();
    worker.onmessage = (event: MessageEvent<Answer>) => {
      const settle = thread.pending.get(event.data.id);
      thread.pending.delete(event.data.id);
      settle?.(event.data);
    };
    worker.onerror = (event) => {
      const error = `worker thread failed: ${event.message}`;
      for (const [id, settle] of thread.pending) settle({ id, value: null, error });
      thread.pending.clear();
      if (threads[slot] === thread) threads[slot] = undefined;
      worker.terminate();
    };
    threads[slot] = thread;
    return thread;
  };

  const run = (task: Task): Promise<Answer> => {
    const slot = next;
    next = (next + 1) % threadCount;
    const thread = threads[slot] ?? spawn(slot);
    const id = ++sequence;
    return new Promise<Answer>((resolve) => {
      thread.pending.set(id, resolve);
      thread.worker.postMessage({ id, task });
    });
  };

  return {
    async sign(raw, options) {
      const answer = await run({ kind: "sign", raw, options });
      return answer.error === null ? { signatures: answer.value as string, errors: [] } : { signatures: "", errors: [new Error(answer.error)] };
    },
    async compose(request) {
      const answer = await run({ kind: "compose", request });
      if (answer.error !== null) throw new Error(`MIME composition failed: ${answer.error}`);
      const composed = answer.value as ComposedMessage & { raw: Uint8Array };
      return { ...composed, raw: Buffer.from(composed.raw.buffer, composed.raw.byteOffset, composed.raw.byteLength) };
    },
    close() {
      for (const [slot, thread] of threads.entries()) {
        if (!thread) continue;
        for (const [id, settle] of thread.pending) settle({ id, value: null, error: "the CPU pool stopped" });
        thread.worker.terminate();
        threads[slot] = undefined;
      }
    },
  };
}
