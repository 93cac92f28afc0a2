/**
 * The CPU pool's engine: worker threads for the work heavy enough to hold up the event loop, so it runs on the
 * machine's other cores while the event loop serves requests and the queue. It knows tasks only as `{kind, …}`
 * posted to a thread (thread-loop.ts answers them); which work a thread does is its entry's task table, which the
 * composition names (server/cpu-pool.ts and server/cpu-thread.ts). Threads start on first use and take tasks in turn; a thread that dies
 * fails only the tasks it held and is replaced on the next task. A task given a time budget that it overruns is
 * failed with `CpuTaskOverrun`: its thread is terminated (nothing else can stop a thread in a loop) and replaced,
 * and the tasks queued behind it are handed to the replacement. Invariant: every task settles — with its result,
 * or with an error.
 */
import { availableParallelism } from "node:os";
import { AppError, type ErrorDetail, type ErrorName } from "../errors.ts";

/** A task as posted to a thread: its kind names the entry of the thread's task table. */
export interface Task {
  kind: string;
}
/** A thread's answer; `error` is the failure's message (errors do not cross threads intact). */
export type Answer =
  | { id: number; value: unknown; error: null }
  | { id: number; value: null; error: string; refusal?: Refusal };
/** An `AppError` thrown in a thread (the input's fault, e.g. a message beyond what is parsed), to be thrown again here. */
export interface Refusal {
  name: ErrorName;
  message: string;
  details?: ErrorDetail[];
}
/** What a thread posts: an answer, or word that it has begun a task's own work (its budget counts from then). */
export type ThreadMessage = Answer | { id: number; started: true };

/** What goes to a thread with a task rather than being copied: a port, or a buffer the caller is done with. */
export type Handed = MessagePort | ArrayBuffer;

/** A task stopped for running past its time budget. */
export class CpuTaskOverrun extends Error {}

export interface ThreadPool {
  /** Settles with the thread's answer; a task past its `budgetMs` is answered with `OVERRUN`. */
  run(task: Task, options?: { budgetMs?: number; transfer?: Handed[] }): Promise<Answer>;
  close(): void;
}

interface Pending {
  task: Task;
  settle: (answer: Answer) => void;
  budgetMs?: number;
  /** Set once the thread has begun the task: the task's time budget running out. */
  deadline?: ReturnType<typeof setTimeout>;
  /** Ports and buffers handed to the thread with the task: they go with it, so it cannot be posted to another thread. */
  transfer?: Handed[];
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

/** The error of an answer whose task ran past its time budget. */
export const OVERRUN = "the task ran past its time budget";

/** A task's value; its refusal thrown again as the `AppError` it was, any other failure as an Error naming `what`. */
export function settled(answer: Answer, what: string): unknown {
  if (answer.error === null) return answer.value;
  if (answer.refusal)
    throw new AppError(answer.refusal.name, answer.refusal.message, { details: answer.refusal.details });
  throw new Error(`${what} failed: ${answer.error}`);
}

/**
 * What to transfer to post bytes the caller is done with: their own whole buffer moves to the thread without a copy
 * (a stored message as the store returns it); shared or partial bytes are posted as they are (shared: no copy).
 */
export function handedOver(raw: Uint8Array): Handed[] {
  const { buffer } = raw;
  return buffer instanceof ArrayBuffer &&
    raw.byteOffset === 0 &&
    raw.byteLength === buffer.byteLength &&
    raw.byteLength > 64 * 1024
    ? [buffer]
    : [];
}

/** One thread per core beyond the event loop's, at least one, at most four. */
export function defaultPoolThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/** `workerUrl` locates the threads' entry: the module that serves the task table (thread-loop.ts). */
export function createThreadPool(workerUrl: URL, threadCount = defaultPoolThreads()): ThreadPool {
  const threads: Array<Thread | undefined> = new Array(threadCount);
  let next = 0;
  let sequence = 0;

  const post = (thread: Thread, id: number, pending: Pending) => {
    thread.pending.set(id, pending);
    thread.worker.postMessage({ id, task: pending.task }, pending.transfer ?? []);
  };

  /**
   * A task past its budget: its thread is terminated and the task failed (a thread begins one budgeted task at a
   * time). The thread's other tasks go to a new thread in its slot: those begun without a budget are pure work,
   * safe to do again — but for one that handed the dead thread a port, which cannot be handed again: it fails.
   */
  const overrun = (slot: number, thread: Thread) => {
    thread.worker.terminate();
    const waiting = [...thread.pending].filter(([id, pending]) => {
      clearTimeout(pending.deadline);
      if (pending.deadline === undefined && !pending.transfer?.length) return true;
      pending.settle({
        id,
        value: null,
        error: pending.deadline === undefined ? "the thread holding the task was stopped" : OVERRUN,
      });
      return false;
    });
    thread.pending.clear();
    if (threads[slot] === thread) threads[slot] = undefined;
    for (const [id, pending] of waiting) post(threads[slot] ?? spawn(slot), id, pending);
  };

  const spawn = (slot: number): Thread => {
    const worker = new Worker(workerUrl.href);
    const thread: Thread = { worker, pending: new Map() };
    worker.unref();
    worker.onmessage = (event: MessageEvent<ThreadMessage>) => {
      const message = event.data;
      const pending = thread.pending.get(message.id);
      if (!pending) return;
      if ("started" in message) {
        if (pending.budgetMs !== undefined)
          pending.deadline = setTimeout(() => overrun(slot, thread), pending.budgetMs);
        return;
      }
      clearTimeout(pending.deadline);
      thread.pending.delete(message.id);
      pending.settle(message);
    };
    worker.onerror = (event) => {
      const error = `worker thread failed: ${event.message}`;
      for (const [id, pending] of thread.pending) {
        clearTimeout(pending.deadline);
        pending.settle({ id, value: null, error });
      }
      thread.pending.clear();
      if (threads[slot] === thread) threads[slot] = undefined;
      worker.terminate();
    };
    threads[slot] = thread;
    return thread;
  };

  const run = (task: Task, options: { budgetMs?: number; transfer?: Handed[] } = {}): Promise<Answer> => {
    const slot = next;
    next = (next + 1) % threadCount;
    const thread = threads[slot] ?? spawn(slot);
    const id = ++sequence;
    return new Promise<Answer>((resolve) => post(thread, id, { task, settle: resolve, ...options }));
  };

  return {
    run,
    close() {
      for (const [slot, thread] of threads.entries()) {
        if (!thread) continue;
        for (const [id, pending] of thread.pending) {
          clearTimeout(pending.deadline);
          pending.settle({ id, value: null, error: "the CPU pool stopped" });
        }
        thread.worker.terminate();
        threads[slot] = undefined;
      }
    },
  };
}
