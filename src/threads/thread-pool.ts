/**
 * The CPU pool's engine: one lane of worker threads for the work heavy enough to hold up the event loop, so it runs
 * on the machine's other cores while the event loop serves requests and the queue. It knows tasks only as `{kind, …}`
 * posted to a thread (thread-loop.ts answers them); which work a thread does is its entry's task table, which the
 * composition names (cpu/pool.ts and cpu/thread.ts), and so are the lanes it builds of this engine.
 *
 * - A thread holds one task at a time; the others wait here, so the task past its budget is the one holding the
 *   thread, and terminating the thread (nothing else can stop a thread in a loop) stops that task alone.
 * - Every task has a time budget, counted from when the thread begins the task's own work (a thread loading its
 *   modules first is allowed LOAD_BUDGET_MS for that); past it the task is answered `OVERRUN` and its thread is
 *   terminated and replaced by the next task.
 * - Waiting tasks are served in rounds of one task per tenant (an organisation, an MX client's network): one
 *   tenant's hundred tasks never all run before another tenant's one, which waits for at most one task of each
 *   tenant ahead of it (`createTurns`).
 *
 * Invariant: every task settles — with its result, or with an error — and a thread dies or is stopped only with the
 * one task it held.
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

export interface RunOptions {
  /** Whose work it is: tenants' waiting tasks take turns. */
  tenant: string;
  /** How long the task's own work may take; past it the task is answered `OVERRUN` and its thread terminated. */
  budgetMs: number;
  /** Handed to the thread with the task (not copied). */
  transfer?: Handed[];
}

export interface ThreadPool {
  /** Settles with the thread's answer; a task past its budget is answered with `OVERRUN`. */
  run(task: Task, options: RunOptions): Promise<Answer>;
  /** Tasks waiting for a thread (a gauge). */
  waiting(): number;
  close(): void;
}

interface Pending extends RunOptions {
  id: number;
  task: Task;
  settle: (answer: Answer) => void;
  /** The budget running out: the loading allowance once posted, the task's own budget once begun. */
  deadline?: ReturnType<typeof setTimeout>;
}

interface Thread {
  worker: Worker;
  /** The one task the thread holds, if any. */
  holding: Pending | null;
}

/** The error of an answer whose task ran past its time budget. */
export const OVERRUN = "the task ran past its time budget";

/**
 * How long a thread may take between receiving a task and beginning its own work: loading the modules the task needs
 * on a thread's first use (MJML, mailparser, mailauth: about a second on a busy machine, never near this).
 */
export const LOAD_BUDGET_MS = 30_000;

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

/**
 * Waiting tasks, taken in rounds: each of a tenant's tasks is given the round after its previous one's, and never one
 * earlier than the round being served, so a tenant arriving now waits behind this round alone — at most one task of
 * each other tenant — however many tasks another tenant queued before it. Within a round, first come first served.
 */
function createTurns() {
  const waiting: Array<{ pending: Pending; round: number }> = [];
  /** The round of each tenant's latest task, while it may be ahead of the round being served. */
  const latest = new Map<string, number>();
  let serving = 0;
  return {
    add(pending: Pending) {
      const round = Math.max(serving, (latest.get(pending.tenant) ?? serving - 1) + 1);
      latest.set(pending.tenant, round);
      let at = waiting.length;
      while (at > 0 && waiting[at - 1]!.round > round) at--;
      waiting.splice(at, 0, { pending, round });
    },
    next(): Pending | undefined {
      const first = waiting.shift();
      if (!first) return undefined;
      serving = first.round;
      // A tenant whose latest round is past would be given the round being served anyway: forgotten, memory kept small.
      if (latest.size > 256) for (const [tenant, round] of latest) if (round < serving) latest.delete(tenant);
      return first.pending;
    },
    size: () => waiting.length,
  };
}

/** `workerUrl` locates the threads' entry: the module that serves the task table (thread-loop.ts). */
export function createThreadPool(workerUrl: URL, threadCount = defaultPoolThreads()): ThreadPool {
  const threads: Array<Thread | undefined> = new Array(threadCount);
  const turns = createTurns();
  let sequence = 0;

  const arm = (slot: number, thread: Thread, pending: Pending, ms: number) => {
    clearTimeout(pending.deadline);
    pending.deadline = setTimeout(() => overrun(slot, thread), ms);
  };

  /** The thread's task is past its budget: the thread is terminated with it, and its slot takes the next task. */
  const overrun = (slot: number, thread: Thread) => {
    const pending = thread.holding;
    retire(slot, thread);
    pending?.settle({ id: pending.id, value: null, error: OVERRUN });
    dispatch();
  };

  const retire = (slot: number, thread: Thread) => {
    clearTimeout(thread.holding?.deadline);
    thread.holding = null;
    thread.worker.terminate();
    if (threads[slot] === thread) threads[slot] = undefined;
  };

  const spawn = (slot: number): Thread => {
    const worker = new Worker(workerUrl.href);
    const thread: Thread = { worker, holding: null };
    worker.unref();
    worker.onmessage = (event: MessageEvent<ThreadMessage>) => {
      const message = event.data;
      const pending = thread.holding;
      if (!pending || pending.id !== message.id) return;
      if ("started" in message) return arm(slot, thread, pending, pending.budgetMs);
      clearTimeout(pending.deadline);
      thread.holding = null;
      pending.settle(message);
      dispatch();
    };
    worker.onerror = (event) => {
      const pending = thread.holding;
      retire(slot, thread);
      pending?.settle({ id: pending.id, value: null, error: `worker thread failed: ${event.message}` });
      dispatch();
    };
    threads[slot] = thread;
    return thread;
  };

  /** Gives each free thread the next task in turn. */
  const dispatch = () => {
    for (let slot = 0; slot < threadCount && turns.size(); slot++) {
      if (threads[slot]?.holding) continue;
      const pending = turns.next()!;
      const thread = threads[slot] ?? spawn(slot);
      thread.holding = pending;
      arm(slot, thread, pending, LOAD_BUDGET_MS);
      thread.worker.postMessage({ id: pending.id, task: pending.task }, pending.transfer ?? []);
    }
  };

  const stopped = (pending: Pending) => pending.settle({ id: pending.id, value: null, error: "the CPU pool stopped" });

  return {
    run(task, options) {
      return new Promise<Answer>((resolve) => {
        turns.add({ ...options, id: ++sequence, task, settle: resolve });
        dispatch();
      });
    },
    waiting: () => turns.size(),
    /** Settles every task with an error and stops the threads; a task run later starts new ones. */
    close() {
      for (let pending = turns.next(); pending; pending = turns.next()) stopped(pending);
      for (const [slot, thread] of threads.entries()) {
        if (!thread) continue;
        const pending = thread.holding;
        retire(slot, thread);
        if (pending) stopped(pending);
      }
    },
  };
}
