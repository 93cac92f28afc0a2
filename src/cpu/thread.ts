/**
 * The CPU pool's threads' entry and task table (cpu/pool.ts posts these tasks): which function of which area does
 * each task, served by threads/thread-loop.ts. Naming the areas' work is the composition's concern, not the
 * engine's: this file lives beside the composition root. Signing reports mailauth's first error as the task's
 * failure, and reuses the keys it parsed before (domains/parsed-keys.ts). A template task loads its engines first
 * (`prepare`): its time budget counts from when its own work begins. A thread holds one task at a time
 * (thread-pool.ts), so no task here waits for another.
 */
import { dkimSign } from "mailauth";
import { reuseParsedKeys } from "../domains/parsed-keys.ts";
import { readDmarcMessage } from "../reputation/dmarc-report.ts";
import { readAttachmentContents } from "../emails/attachments.ts";
import { composeMessage } from "../emails/compose.ts";
import { readRawMessage } from "../emails/raw-message.ts";
import { templatedSendBody } from "../emails/templated-message.ts";
import { authenticateReceived, readReceivedMessage, readReceivedPart } from "../inbound/received.ts";
import { bufferOf } from "../lib/bytes.ts";
import { loadTemplateEngines, performTemplateJob } from "../templates/render.ts";
import { lookupsOver } from "../threads/dns-port.ts";
import type { CpuTask } from "./pool.ts";
import { serveTasks } from "../threads/thread-loop.ts";

reuseParsedKeys();

serveTasks<CpuTask>({
  // The engines are loaded once per thread; a template's budget is for its own work.
  prepare: async (task) => {
    if (task.kind === "template") await loadTemplateEngines(task.job);
  },
  perform: async (task) => {
    if (task.kind === "template") return performTemplateJob(task.job);
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
    if (task.kind === "read_dmarc") return readDmarcMessage(task.raw);
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
  },
});
