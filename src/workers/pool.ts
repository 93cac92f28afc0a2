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
import type { SentAttachmentContents } from "../emails/attachments.ts";
import type { RawMessageView } from "../emails/raw-message.ts";
import { AppError, type ErrorDetail, type ErrorName } from "../errors.ts";
import { bufferOf, inSharedMemory } from "../lib/bytes.ts";
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
  | { kind: "read_received_part"; raw: Uint8Array; part: ReceivedPart }
  | { kind: "read_submitted"; raw: Uint8Array }
  | { kind: "templated_send_body"; raw: Uint8Array; envelopeTo: string[] }
  | { kind: "read_sent_attachments"; raw: Uint8Array; emailId: string; contentOf?: string };
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
type Handed = MessagePort | ArrayBuffer;

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
  authenticateReceived(
    raw: Buffer,
    facts: SessionFacts,
    resolve: (name: string, rrtype: string) => Promise<unknown>,
  ): Promise<ReceivedAuthentication>;
  /** A stored message's html with inline images, or an attachment's bytes; null when it has none. `raw` is handed over. */
  readReceivedPart(raw: Buffer, part: ReceivedPart): Promise<string | Buffer | null>;
  /** A submitted message as the record and the sending policy read it; throws the `AppError` a bad message earns. */
  readSubmitted(raw: Buffer): Promise<RawMessageView>;
  /** The send body a relayed message naming a template stands for; throws the `AppError` a bad message earns. */
  templatedSendBody(raw: Buffer, envelopeTo: string[]): Promise<Record<string, unknown>>;
  /** A sent message's attachments, described, with the bytes of the one whose id is `contentOf`; `raw` is handed over. */
  readSentAttachments(raw: Buffer, emailId: string, contentOf?: string): Promise<SentAttachmentContents>;
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

const OVERRUN = "the task ran past its time budget";

/** A task's value; its refusal thrown again as the `AppError` it was, any other failure as an Error naming `what`. */
function settled(answer: Answer, what: string): unknown {
  if (answer.error === null) return answer.value;
  if (answer.refusal)
    throw new AppError(answer.refusal.name, answer.refusal.message, { details: answer.refusal.details });
  throw new Error(`${what} failed: ${answer.error}`);
}

/**
 * What to transfer to post bytes the caller is done with: their own whole buffer moves to the thread without a copy
 * (a stored message as the store returns it); shared or partial bytes are posted as they are (shared: no copy).
 */
function handedOver(raw: Uint8Array): Handed[] {
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
    async sign(raw, options) {
      const answer = await run({ kind: "sign", raw, options });
      return answer.error === null
        ? { signatures: answer.value as string, errors: [] }
        : { signatures: "", errors: [new Error(answer.error)] };
    },
    async compose(request) {
      const answer = await run({ kind: "compose", request });
      if (answer.error !== null) throw new Error(`MIME composition failed: ${answer.error}`);
      const composed = answer.value as ComposedMessage & { raw: Uint8Array };
      return { ...composed, raw: bufferOf(composed.raw) };
    },
    async template(job, budgetMs) {
      const answer = await run({ kind: "template", job }, { budgetMs });
      if (answer.error === OVERRUN) throw new CpuTaskOverrun(`the template's work ran past its ${budgetMs} ms`);
      if (answer.error !== null) throw new Error(`template rendering failed: ${answer.error}`);
      return answer.value as TemplateOutcome;
    },
    async readReceived(raw) {
      return settled(
        await run({ kind: "read_received", raw: inSharedMemory(raw) }),
        "reading the received message",
      ) as ReadMessage;
    },
    async authenticateReceived(raw, facts, resolve) {
      const channel = new MessageChannel();
      answerLookups(channel.port1, resolve);
      try {
        const answer = await run(
          { kind: "authenticate_received", raw: inSharedMemory(raw), facts, dns: channel.port2 },
          { transfer: [channel.port2] },
        );
        return settled(answer, "authenticating the received message") as ReceivedAuthentication;
      } finally {
        channel.port1.close();
      }
    },
    async readReceivedPart(raw, part) {
      const value = settled(
        await run({ kind: "read_received_part", raw, part }, { transfer: handedOver(raw) }),
        "reading the received message",
      ) as string | Uint8Array | null;
      return value instanceof Uint8Array ? bufferOf(value) : value;
    },
    async readSubmitted(raw) {
      return settled(
        await run({ kind: "read_submitted", raw: inSharedMemory(raw) }),
        "reading the submitted message",
      ) as RawMessageView;
    },
    async templatedSendBody(raw, envelopeTo) {
      return settled(
        await run({ kind: "templated_send_body", raw: inSharedMemory(raw), envelopeTo }),
        "reading the templated message",
      ) as Record<string, unknown>;
    },
    async readSentAttachments(raw, emailId, contentOf) {
      const read = settled(
        await run({ kind: "read_sent_attachments", raw, emailId, contentOf }, { transfer: handedOver(raw) }),
        "reading the sent message",
      ) as SentAttachmentContents;
      const { content } = read;
      return content ? { ...read, content: bufferOf(content) } : read;
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
