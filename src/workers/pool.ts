/**
 * The CPU pool: worker threads (thread.ts) for the work heavy enough to hold up the event loop — DKIM signatures
 * (RSA-2048, about a millisecond), MIME composition (nodemailer and html-to-text, about a quarter of a
 * millisecond, with the tracking rewrite of the html), templates (Handlebars and MJML over what a client sends, as
 * long as that takes), and reading and authenticating received mail (mailparser and mailauth, about a second each
 * for a 25 MiB message) — so it runs on the machine's other cores while the event loop serves requests and the
 * queue. Threads start on first use and take tasks in turn; a thread that dies fails only the tasks it held and is
 * replaced on the next task. A task given a time budget that it overruns is failed with `CpuTaskOverrun`: its
 * thread is terminated (nothing else can stop a thread in a loop) and replaced, and the tasks queued behind it are
 * handed to the replacement. Invariant: every task settles — with its result, or with an error.
 */
import { availableParallelism } from "node:os";
import type { dkimSign } from "mailauth";
import type { ComposedMessage, ComposeRequest } from "../emails/compose.ts";
import type { ReceivedAuthentication } from "../inbound/model.ts";
import type { ReadMessage, ReceivedPart, SessionFacts } from "../inbound/received.ts";
import type { TemplateJob, TemplateOutcome } from "../templates/render.ts";
import { answerLookups } from "./dns-port.ts";

export type DkimOptions = Parameters<typeof dkimSign>[1];
export interface DkimResult {
  signatures: string;
  errors: unknown[];
}

export type Task =
  | { kind: "sign"; raw: Uint8Array; options: DkimOptions }
  | { kind: "compose"; request: ComposeRequest }
  | { kind: "template"; job: TemplateJob }
  | { kind: "read_received"; raw: Uint8Array }
  | { kind: "authenticate_received"; raw: Uint8Array; facts: SessionFacts; dns: MessagePort }
  | { kind: "read_received_part"; raw: Uint8Array; part: ReceivedPart };
/** A thread's answer; `error` is the failure's message (errors do not cross threads intact). */
export type Answer = { id: number; value: unknown; error: null } | { id: number; value: null; error: string };
/** What a thread posts: an answer, or word that it has begun a task's own work (its budget counts from then). */
export type ThreadMessage = Answer | { id: number; started: true };

/** A task stopped for running past its time budget. */
export class CpuTaskOverrun extends Error {}

export interface CpuPool {
  /** Settles with the signature header, or with the errors that the caller turns into "send unsigned". */
  sign(raw: Buffer, options: DkimOptions): Promise<DkimResult>;
  /** Rejects when composition fails (the caller answers as it would for a composition error on the event loop). */
  compose(request: ComposeRequest): Promise<ComposedMessage>;
  /** Rejects with `CpuTaskOverrun` when the work takes longer than `budgetMs` (loading the engines not counted). */
  template(job: TemplateJob, budgetMs: number): Promise<TemplateOutcome>;
  /** Parses a received message and reads what it reports and its stored record; rejects only if the thread fails. */
  readReceived(raw: Buffer): Promise<ReadMessage>;
  /** SPF, DKIM, DMARC and ARC of a received message; DNS questions are answered here by `resolve`. */
  authenticateReceived(raw: Buffer, facts: SessionFacts, resolve: (name: string, rrtype: string) => Promise<unknown>): Promise<ReceivedAuthentication>;
  /** A stored message's html with inline images, or an attachment's bytes; null when it has none. */
  readReceivedPart(raw: Buffer, part: ReceivedPart): Promise<string | Buffer | null>;
  close(): void;
}

interface Pending {
  task: Task;
  settle: (answer: Answer) => void;
  budgetMs?: number;
  /** Set once the thread has begun the task: the task's time budget running out. */
  deadline?: ReturnType<typeof setTimeout>;
  /** Ports handed to the thread with the task: they go with it, so the task cannot be posted to another thread. */
  transfer?: MessagePort[];
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
}

const OVERRUN = "the task ran past its time budget";

/**
 * The bytes as a thread can read them without a copy being posted: a view of shared memory. Bytes that are not
 * shared yet (a caller other than the MX) are copied into shared memory once here.
 */
function shared(raw: Buffer): Uint8Array {
  if (raw.buffer instanceof SharedArrayBuffer) return raw;
  const copy = new Uint8Array(new SharedArrayBuffer(raw.length));
  copy.set(raw);
  return copy;
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
      pending.settle({ id, value: null, error: pending.deadline === undefined ? "the thread holding the task was stopped" : OVERRUN });
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
        if (pending.budgetMs !== undefined) pending.deadline = setTimeout(() => overrun(slot, thread), pending.budgetMs);
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

  const run = (task: Task, options: { budgetMs?: number; transfer?: MessagePort[] } = {}): Promise<Answer> => {
    const slot = next;
    next = (next + 1) % threadCount;
    const thread = threads[slot] ?? spawn(slot);
    const id = ++sequence;
    return new Promise<Answer>((resolve) => post(thread, id, { task, settle: resolve, ...options }));
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
    async template(job, budgetMs) {
      const answer = await run({ kind: "template", job }, { budgetMs });
      if (answer.error === OVERRUN) throw new CpuTaskOverrun(`the template's work ran past its ${budgetMs} ms`);
      if (answer.error !== null) throw new Error(`template rendering failed: ${answer.error}`);
      return answer.value as TemplateOutcome;
    },
    async readReceived(raw) {
      const answer = await run({ kind: "read_received", raw: shared(raw) });
      if (answer.error !== null) throw new Error(`reading the received message failed: ${answer.error}`);
      return answer.value as ReadMessage;
    },
    async authenticateReceived(raw, facts, resolve) {
      const channel = new MessageChannel();
      answerLookups(channel.port1, resolve);
      try {
        const answer = await run({ kind: "authenticate_received", raw: shared(raw), facts, dns: channel.port2 }, { transfer: [channel.port2] });
        if (answer.error !== null) throw new Error(`authenticating the received message failed: ${answer.error}`);
        return answer.value as ReceivedAuthentication;
      } finally {
        channel.port1.close();
      }
    },
    async readReceivedPart(raw, part) {
      const answer = await run({ kind: "read_received_part", raw: shared(raw), part });
      if (answer.error !== null) throw new Error(`reading the received message failed: ${answer.error}`);
      const value = answer.value as string | Uint8Array | null;
      return value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value;
    },
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
