/**
 * The CPU pool as the services call it: one typed call per task of the threads' task table (cpu/thread.ts) — DKIM
 * signatures (RSA-2048, about a millisecond), MIME composition (nodemailer and html-to-text, about a quarter of a
 * millisecond, with the tracking rewrite of the html), templates (Handlebars and MJML over what a client sends, as
 * long as that takes), and reading and authenticating received mail (mailparser and mailauth, about a second each
 * for a 25 MiB message) — over the generic engine (threads/thread-pool.ts). This file and cpu/thread.ts name the
 * areas' work, so they are the composition's, not the engine's, and live beside the root. Each area states the
 * calls it makes as a port of its own, saying whose work each call is (its tenant).
 *
 * Two lanes, each with threads of its own (TASKS below says which task goes where):
 * - `send`: the work a send waits for — signing, composition, reading a relayed message, a send's template render.
 * - `other`: everything else — received mail and DMARC reports (anyone on the internet may send them), template
 *   checks and previews, reading stored messages again. A task here may run to its budget (seconds); a send never
 *   queues behind one. A priority within one lane could not give that: a thread cannot be taken from the task it
 *   holds, and one thread is all a two-core machine has to spare.
 * Within a lane tenants take turns (the engine's round-robin), so one organisation or one MX client cannot make
 * another's work wait for all of its own.
 *
 * Invariant: every call settles — with its result, or with an error — within its task's budget (TASKS): a task past
 * it is stopped, and each call says what then becomes of the work (below, per call).
 */
import type { SentAttachmentContents } from "../emails/attachments.ts";
import type { ComposedMessage, ComposeRequest } from "../emails/compose.ts";
import type { RawMessageView } from "../emails/raw-message.ts";
import type { DmarcMessage } from "../reputation/dmarc-report.ts";
import {
  type ReadMessage,
  type ReceivedPart,
  type SealedAuthentication,
  type SessionFacts,
  unreadMessage,
} from "../inbound/received.ts";
import type { DkimOptions, DkimSigner } from "../domains/signing.ts";
import type { ReceivedPartReader } from "../inbound/mailbox.ts";
import type { ReceivedReader } from "../inbound/authentication.ts";
import type { TemplatedBodyReader } from "../smtp/relay.ts";
import type { TemplateRenderer } from "../templates/service.ts";
import { AppError, validationError } from "../errors.ts";
import { bufferOf, inSharedMemory } from "../lib/bytes.ts";
import type { TemplateJob, TemplateOutcome } from "../templates/render.ts";
import { answerLookups } from "../threads/dns-port.ts";
import {
  type Answer,
  CpuTaskOverrun,
  createThreadPool,
  defaultPoolThreads,
  type Handed,
  handedOver,
  OVERRUN,
  settled,
} from "../threads/thread-pool.ts";

export { CpuTaskOverrun };

/** The tasks of the threads' table (cpu/thread.ts). */
export type CpuTask =
  | { kind: "sign"; raw: Uint8Array; options: DkimOptions }
  | { kind: "compose"; request: ComposeRequest }
  | { kind: "template"; job: TemplateJob }
  | { kind: "read_received"; raw: Uint8Array }
  | { kind: "authenticate_received"; raw: Uint8Array; facts: SessionFacts; dns: MessagePort }
  | { kind: "read_received_part"; raw: Uint8Array; part: ReceivedPart }
  | { kind: "read_submitted"; raw: Uint8Array }
  | { kind: "templated_send_body"; raw: Uint8Array; envelopeTo: string[] }
  | { kind: "read_sent_attachments"; raw: Uint8Array; emailId: string; contentOf?: string }
  | { kind: "read_dmarc"; raw: Uint8Array };

export type Lane = "send" | "other";

const MIB = 1024 * 1024;

/**
 * Each task's lane and time budget: `baseMs`, plus `perMiBMs` for each MiB of its input where the work grows with it.
 * Budgets are ten times and more what the largest input takes on a busy two-core machine (25 MiB: reading or
 * authenticating about 0.4 s, signing 0.4 s; 5.8 MB of tracked html composes in 4 s), so only work gone wrong meets
 * them. Templates' and authentication's budgets are configured (`[limits] template_render_timeout`, `[inbound]
 * auth_timeout`) and given with each call.
 */
const TASKS: Record<Exclude<CpuTask["kind"], "template">, { lane: Lane; baseMs: number; perMiBMs: number }> = {
  sign: { lane: "send", baseMs: 5_000, perMiBMs: 200 },
  // Per MiB of html and text, which html-to-text and the tracking rewrite read; attachments add a tenth of that.
  compose: { lane: "send", baseMs: 10_000, perMiBMs: 2_000 },
  read_submitted: { lane: "send", baseMs: 5_000, perMiBMs: 300 },
  templated_send_body: { lane: "send", baseMs: 5_000, perMiBMs: 300 },
  read_received: { lane: "other", baseMs: 5_000, perMiBMs: 300 },
  authenticate_received: { lane: "other", baseMs: 15_000, perMiBMs: 300 },
  read_received_part: { lane: "other", baseMs: 5_000, perMiBMs: 300 },
  read_sent_attachments: { lane: "other", baseMs: 5_000, perMiBMs: 300 },
  // A DMARC report's reading (expansion capped by DMARC_LIMITS, XML in linear time): a day's report from the
  // largest receivers reads in well under a second; anyone may mail an `rua` address.
  read_dmarc: { lane: "other", baseMs: 10_000, perMiBMs: 0 },
};

const budgetOf = (kind: keyof typeof TASKS, bytes: number) =>
  Math.round(TASKS[kind].baseMs + (TASKS[kind].perMiBMs * bytes) / MIB);

/** Every area's port of the pool (each declares the calls it makes), plus the calls the composition wires itself. */
export interface CpuPool extends DkimSigner, TemplateRenderer, ReceivedReader, ReceivedPartReader, TemplatedBodyReader {
  /** Rejects when composition fails (the caller answers as it would for a composition error on the event loop). */
  compose(request: ComposeRequest, tenant: string): Promise<ComposedMessage>;
  /** A submitted message as the record and the sending policy read it; throws the `AppError` a bad message earns. */
  readSubmitted(raw: Buffer, tenant: string): Promise<RawMessageView>;
  /** A sent message's attachments, described, with the bytes of the one whose id is `contentOf`; `raw` is handed over. */
  readSentAttachments(
    raw: Buffer,
    emailId: string,
    tenant: string,
    contentOf?: string,
  ): Promise<SentAttachmentContents>;
  /** The DMARC reports a message to an `rua` address carries; one past its budget is refused as unreadable. */
  readDmarc(raw: Buffer, tenant: string): Promise<DmarcMessage>;
  /** Tasks waiting for a thread, per lane (a gauge). */
  waiting(): Record<Lane, number>;
  close(): void;
}

/**
 * `workerUrl` locates cpu/thread.ts: `CPU_THREAD` (thread-entries.ts) resolves from source and executable alike.
 * `threadCount` threads serve each lane.
 */
export function createCpuPool(workerUrl: URL, threadCount = defaultPoolThreads()): CpuPool {
  const lanes = { send: createThreadPool(workerUrl, threadCount), other: createThreadPool(workerUrl, threadCount) };
  const run = (task: CpuTask, lane: Lane, tenant: string, budgetMs: number, transfer?: Handed[]) =>
    lanes[lane].run(task, { tenant, budgetMs, transfer });
  /** A task with its lane and budget from TASKS. */
  const runTask = (task: Exclude<CpuTask, { kind: "template" }>, bytes: number, tenant: string, transfer?: Handed[]) =>
    run(task, TASKS[task.kind].lane, tenant, budgetOf(task.kind, bytes), transfer);
  const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
  /** The answer's value; past its budget, the refusal `refused(budget)` gives (the input is what took so long). */
  const within = (answer: Answer, what: string, refused: () => AppError) => {
    if (answer.error === OVERRUN) throw refused();
    return settled(answer, what);
  };

  return {
    async sign(raw, options, tenant) {
      const answer = await runTask({ kind: "sign", raw, options }, raw.length, tenant);
      // Past its budget as for any failure: the signer sends the message unsigned and logs why.
      return answer.error === null
        ? { signatures: answer.value as string, errors: [] }
        : { signatures: "", errors: [new Error(answer.error)] };
    },
    async compose(request, tenant) {
      const { html, text, attachments } = request.fields;
      const bytes =
        (html?.length ?? 0) + (text?.length ?? 0) + attachments.reduce((sum, a) => sum + a.content.length, 0) / 10;
      const budgetMs = budgetOf("compose", bytes);
      const answer = await runTask({ kind: "compose", request }, bytes, tenant);
      // The message's own content took that long (html of megabytes): a 400, as for any content refused.
      if (answer.error === OVERRUN)
        throw validationError([{ path: "html", message: `composing the message took over ${seconds(budgetMs)}` }]);
      if (answer.error !== null) throw new Error(`MIME composition failed: ${answer.error}`);
      const composed = answer.value as ComposedMessage & { raw: Uint8Array };
      return { ...composed, raw: bufferOf(composed.raw) };
    },
    async template(job, budgetMs, work) {
      const answer = await run({ kind: "template", job }, work.forSend ? "send" : "other", work.tenant, budgetMs);
      if (answer.error === OVERRUN) throw new CpuTaskOverrun(`the template's work ran past its ${budgetMs} ms`);
      if (answer.error !== null) throw new Error(`template rendering failed: ${answer.error}`);
      return answer.value as TemplateOutcome;
    },
    async readReceived(raw, tenant) {
      const budgetMs = budgetOf("read_received", raw.length);
      const answer = await runTask({ kind: "read_received", raw: inSharedMemory(raw) }, raw.length, tenant);
      // As a message beyond the parser's limits: kept whole, read as nothing (received.ts).
      if (answer.error === OVERRUN) return unreadMessage(`reading it took over ${seconds(budgetMs)}`);
      return settled(answer, "reading the received message") as ReadMessage;
    },
    async authenticateReceived(raw, facts, resolve, work) {
      const channel = new MessageChannel();
      answerLookups(channel.port1, resolve);
      try {
        const task = { kind: "authenticate_received", raw: inSharedMemory(raw), facts, dns: channel.port2 } as const;
        const answer = await run(task, "other", work.tenant, work.budgetMs, [channel.port2]);
        if (answer.error === OVERRUN) throw new CpuTaskOverrun(`authentication ran past its ${work.budgetMs} ms`);
        return settled(answer, "authenticating the received message") as SealedAuthentication;
      } finally {
        channel.port1.close();
      }
    },
    async readReceivedPart(raw, part, tenant) {
      const answer = await runTask({ kind: "read_received_part", raw, part }, raw.length, tenant, handedOver(raw));
      // As for a message that no longer parses: the part is not there to give (the raw message still is).
      if (answer.error === OVERRUN) return null;
      const value = settled(answer, "reading the received message") as string | Uint8Array | null;
      return value instanceof Uint8Array ? bufferOf(value) : value;
    },
    async readSubmitted(raw, tenant) {
      const budgetMs = budgetOf("read_submitted", raw.length);
      const answer = await runTask({ kind: "read_submitted", raw: inSharedMemory(raw) }, raw.length, tenant);
      return within(answer, "reading the submitted message", () =>
        validationError([], `The message could not be read within ${seconds(budgetMs)}.`),
      ) as RawMessageView;
    },
    async templatedSendBody(raw, envelopeTo, tenant) {
      const budgetMs = budgetOf("templated_send_body", raw.length);
      const task = { kind: "templated_send_body", raw: inSharedMemory(raw), envelopeTo } as const;
      return within(await runTask(task, raw.length, tenant), "reading the templated message", () =>
        validationError([], `The message could not be read within ${seconds(budgetMs)}.`),
      ) as Record<string, unknown>;
    },
    async readSentAttachments(raw, emailId, tenant, contentOf) {
      const budgetMs = budgetOf("read_sent_attachments", raw.length);
      const task = { kind: "read_sent_attachments", raw, emailId, contentOf } as const;
      const read = within(
        await runTask(task, raw.length, tenant, handedOver(raw)),
        "reading the sent message",
        () =>
          new AppError(
            "payload_too_large",
            `The message's attachments could not be read within ${seconds(budgetMs)}; its raw form has them all.`,
          ),
      ) as SentAttachmentContents;
      const { content } = read;
      return content ? { ...read, content: bufferOf(content) } : read;
    },
    async readDmarc(raw, tenant) {
      const answer = await runTask({ kind: "read_dmarc", raw: inSharedMemory(raw) }, raw.length, tenant);
      if (answer.error === OVERRUN)
        return { reports: [], refused: [`reading it took longer than ${seconds(TASKS.read_dmarc.baseMs)}`] };
      return settled(answer, "reading the DMARC report") as DmarcMessage;
    },
    waiting: () => ({ send: lanes.send.waiting(), other: lanes.other.waiting() }),
    close() {
      lanes.send.close();
      lanes.other.close();
    },
  };
}
