/**
 * The CPU pool's threads' entry and task table (cpu-pool.ts posts these tasks): which function of which area does
 * each task, served by threads/thread-loop.ts. Naming the areas' work is the composition's concern, not the
 * engine's: this file lives beside the composition root. Signing reports mailauth's first error as the task's
 * failure, and reuses the keys it parsed before (domains/parsed-keys.ts). A template task says when its engines are
 * loaded and its own work begins: its time budget counts from then.
 */
import { dkimSign } from "mailauth";
import { reuseParsedKeys } from "../domains/parsed-keys.ts";
import { readDmarcMessage } from "../deliverability/dmarc-report.ts";
import { readAttachmentContents } from "../emails/attachments.ts";
import { composeMessage } from "../emails/compose.ts";
import { readRawMessage } from "../emails/raw-message.ts";
import { templatedSendBody } from "../emails/templated-message.ts";
import { authenticateReceived, readReceivedMessage, readReceivedPart } from "../inbound/received.ts";
import { bufferOf } from "../lib/bytes.ts";
import {
  loadTemplateEngines,
  performTemplateJob,
  type TemplateJob,
  type TemplateOutcome,
} from "../templates/render.ts";
import { lookupsOver } from "../threads/dns-port.ts";
import type { CpuTask } from "./cpu-pool.ts";
import { serveTasks } from "../threads/thread-loop.ts";

reuseParsedKeys();

/**
 * Budgeted tasks (templates, DMARC reports) take turns (their awaits would otherwise let the next one begin too),
 * so the task whose budget runs out is the one holding the thread, and the pool fails only that one.
 */
let budgetedTurn: Promise<unknown> = Promise.resolve();

function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const turn = budgetedTurn.then(work);
  budgetedTurn = turn.catch(() => undefined);
  return turn;
}

const performTemplate = (job: TemplateJob, started: () => void): Promise<TemplateOutcome> =>
  inTurn(async () => {
    await loadTemplateEngines(job);
    started();
    return performTemplateJob(job);
  });

serveTasks(async (task: CpuTask, started) => {
  if (task.kind === "template") return performTemplate(task.job, started);
  if (task.kind === "compose") {
    // Buffers arrive as plain Uint8Arrays; nodemailer takes attachment content as a Buffer.
    const { fields } = task.request;
    const attachments = fields.attachments.map((a) => ({ ...a, content: bufferOf(a.content) }));
    return composeMessage({ ...task.request, fields: { ...fields, attachments } });
  }
  if (task.kind === "read_submitted") return readRawMessage(bufferOf(task.raw));
  if (task.kind === "templated_send_body") return templatedSendBody(bufferOf(task.raw), task.envelopeTo);
  if (task.kind === "read_sent_attachments")
    return readAttachmentContents(bufferOf(task.raw), task.emailId, task.contentOf);
  if (task.kind === "read_received") return readReceivedMessage(bufferOf(task.raw));
  if (task.kind === "read_dmarc")
    return inTurn(() => {
      started();
      return readDmarcMessage(task.raw);
    });
  if (task.kind === "read_received_part") return readReceivedPart(bufferOf(task.raw), task.part);
  if (task.kind === "authenticate_received") {
    try {
      return await authenticateReceived(bufferOf(task.raw), task.facts, lookupsOver(task.dns));
    } finally {
      task.dns.close();
    }
  }
  const result = await dkimSign(Buffer.from(task.raw), task.options);
  if (result.errors[0]) throw result.errors[0];
  return result.signatures;
});
