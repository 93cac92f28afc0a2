/**
 * A thread of the CPU pool (pool.ts): answers each `{id, task}` with `{id, value, error}`. Signing reports
 * mailauth's first error as the answer's error; composition and received mail, the exception's message. A
 * template task says when its engines are loaded and its own work begins (`{id, started}`): its time budget counts
 * from then. Invariant: every task is answered (unless the pool terminates the thread).
 */
import { dkimSign } from "mailauth";
import { readAttachmentContents } from "../emails/attachments.ts";
import { composeMessage } from "../emails/compose.ts";
import { readRawMessage } from "../emails/raw-message.ts";
import { templatedSendBody } from "../emails/templated-message.ts";
import { AppError } from "../errors.ts";
import { authenticateReceived, readReceivedMessage, readReceivedPart } from "../inbound/received.ts";
import { bufferOf } from "../lib/bytes.ts";
import {
  loadTemplateEngines,
  performTemplateJob,
  type TemplateJob,
  type TemplateOutcome,
} from "../templates/render.ts";
import { lookupsOver } from "./dns-port.ts";
import type { Answer, Task, ThreadMessage } from "./pool.ts";

declare const self: Worker;

const messageOf = (error: unknown) => String((error as { message?: string })?.message ?? error);

/**
 * Template jobs take turns (their awaits would otherwise let the next one begin too), so the job whose budget runs
 * out is the one holding the thread, and the pool fails only that one.
 */
let templateTurn: Promise<unknown> = Promise.resolve();

function performTemplate(id: number, job: TemplateJob): Promise<TemplateOutcome> {
  const turn = templateTurn.then(async () => {
    await loadTemplateEngines(job);
    postMessage({ id, started: true } satisfies ThreadMessage);
    return performTemplateJob(job);
  });
  templateTurn = turn.catch(() => undefined);
  return turn;
}

async function perform(id: number, task: Task): Promise<unknown> {
  if (task.kind === "template") return performTemplate(id, task.job);
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
}

self.onmessage = async (event: MessageEvent<{ id: number; task: Task }>) => {
  const { id, task } = event.data;
  let answer: Answer;
  try {
    answer = { id, value: await perform(id, task), error: null };
  } catch (error) {
    const refusal =
      error instanceof AppError ? { name: error.name, message: error.message, details: error.details } : undefined;
    answer = { id, value: null, error: messageOf(error), ...(refusal && { refusal }) };
  }
  postMessage(answer);
};
