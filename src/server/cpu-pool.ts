/**
 * The CPU pool as the services call it: one typed call per task of the threads' task table (cpu-thread.ts) — DKIM
 * signatures (RSA-2048, about a millisecond), MIME composition (nodemailer and html-to-text, about a quarter of a
 * millisecond, with the tracking rewrite of the html), templates (Handlebars and MJML over what a client sends, as
 * long as that takes), and reading and authenticating received mail (mailparser and mailauth, about a second each
 * for a 25 MiB message) — over the generic engine (threads/thread-pool.ts). This file and cpu-thread.ts name the
 * areas' work, so they are the composition's, not the engine's, and live beside the root. Each area states the
 * calls it makes as a port of its own. Invariant: every call settles — with its result, or with an error.
 */
import type { SentAttachmentContents } from "../emails/attachments.ts";
import type { ComposedMessage, ComposeRequest } from "../emails/compose.ts";
import type { RawMessageView } from "../emails/raw-message.ts";
import type { ReceivedAuthentication } from "../inbound/model.ts";
import type { DmarcMessage } from "../deliverability/dmarc-report.ts";
import type { ReadMessage, ReceivedPart, SessionFacts } from "../inbound/received.ts";
import type { DkimOptions, DkimSigner } from "../domains/signing.ts";
import type { ReceivedPartReader } from "../inbound/mailbox.ts";
import type { ReceivedReader } from "../inbound/service.ts";
import type { TemplatedBodyReader } from "../smtp/relay.ts";
import type { TemplateRenderer } from "../templates/service.ts";
import { bufferOf, inSharedMemory } from "../lib/bytes.ts";
import type { TemplateJob, TemplateOutcome } from "../templates/render.ts";
import { answerLookups } from "../threads/dns-port.ts";
import {
  CpuTaskOverrun,
  createThreadPool,
  defaultPoolThreads,
  handedOver,
  OVERRUN,
  settled,
} from "../threads/thread-pool.ts";

export { CpuTaskOverrun };

/**
 * A DMARC report's reading (expansion capped by DMARC_LIMITS, XML in linear time) may take this long: a day's
 * report from the largest receivers reads in well under a second; anyone may mail an `rua` address.
 */
const DMARC_READ_BUDGET_MS = 10_000;

/** The tasks of the threads' table (cpu-thread.ts). */
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

/** Every area's port of the pool (each declares the calls it makes), plus the calls the composition wires itself. */
export interface CpuPool extends DkimSigner, TemplateRenderer, ReceivedReader, ReceivedPartReader, TemplatedBodyReader {
  /** Rejects when composition fails (the caller answers as it would for a composition error on the event loop). */
  compose(request: ComposeRequest): Promise<ComposedMessage>;
  /** A submitted message as the record and the sending policy read it; throws the `AppError` a bad message earns. */
  readSubmitted(raw: Buffer): Promise<RawMessageView>;
  /** A sent message's attachments, described, with the bytes of the one whose id is `contentOf`; `raw` is handed over. */
  readSentAttachments(raw: Buffer, emailId: string, contentOf?: string): Promise<SentAttachmentContents>;
  /** The DMARC reports a message to an `rua` address carries; a hostile one is cut off at DMARC_READ_BUDGET_MS. */
  readDmarc(raw: Buffer): Promise<DmarcMessage>;
  close(): void;
}

/** `workerUrl` locates cpu-thread.ts: `CPU_THREAD` (thread-entries.ts) resolves from source and executable alike. */
export function createCpuPool(workerUrl: URL, threadCount = defaultPoolThreads()): CpuPool {
  const threads = createThreadPool(workerUrl, threadCount);
  const run = (task: CpuTask, options?: Parameters<typeof threads.run>[1]) => threads.run(task, options);
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
    async readDmarc(raw) {
      const answer = await run({ kind: "read_dmarc", raw: inSharedMemory(raw) }, { budgetMs: DMARC_READ_BUDGET_MS });
      if (answer.error === OVERRUN)
        return { reports: [], refused: [`reading it took longer than ${DMARC_READ_BUDGET_MS / 1000} s`] };
      return settled(answer, "reading the DMARC report") as DmarcMessage;
    },
    close: threads.close,
  };
}
