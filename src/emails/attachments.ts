/**
 * The attachments of sent email (docs/sending.md, Resend's `emails.attachments`): listed and fetched from the stored MIME
 * message, each with a download link that works without an API key for an hour. Nothing is stored twice: the
 * message is parsed again when asked. An attachment's id is derived from the email id and its position, so it is
 * stable without a table. Invariants: an API caller sees only its organisation's email and needs `emails:read`; a
 * signed link grants exactly the one content path it was made for.
 */
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { pageOfList, type PageOptions } from "../db/pages.ts";
import { first, tablesOf, type Db } from "../db/store.ts";
import { AppError } from "../errors.ts";
import type { Actor } from "../access.ts";
import { describeAttachment, type AttachmentDescription } from "../lib/attachment-parts.ts";
import type { SignedLinks } from "../lib/signed-links.ts";
import type { DownloadAccess } from "../access.ts";
import { contentGone } from "./reads.ts";
import type { EmailService } from "./service.ts";

export interface SentAttachmentView extends AttachmentDescription {
  id: string;
  download_url: string;
  expires_at: string;
}

export interface AttachmentFile {
  content: Buffer;
  contentType: string;
  filename: string | null;
  disposition: "inline" | "attachment";
}

export interface SentAttachments {
  /** In the message's order; `after` and `before` are attachment ids of a previous page. */
  list(
    actor: Actor,
    emailId: string,
    options: PageOptions,
  ): Promise<{ object: "list"; has_more: boolean; data: SentAttachmentView[] }>;
  get(actor: Actor, emailId: string, attachmentId: string): Promise<SentAttachmentView & { object: "attachment" }>;
  content(access: DownloadAccess, emailId: string, attachmentId: string): Promise<AttachmentFile>;
}

/** A UUID-shaped id (version 8, RFC 9562's custom version) from the email id and the attachment's position. */
function attachmentId(emailId: string, index: number): string {
  const hex = createHash("sha256").update(`${emailId}/${index}`).digest("hex");
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A sent message's attachments as its parse gives them: what the API shows of each, and the bytes of one asked for. */
export interface SentAttachmentContents {
  /** In the message's order, each with its id. */
  attachments: Array<AttachmentDescription & { id: string }>;
  /** The bytes of the attachment asked for, when it is there. */
  content?: Buffer;
}

/**
 * Parses a sent message for its attachments; runs in the CPU pool (src/cpu/pool.ts), off the event loop. Only the bytes
 * of the one attachment asked for come back: a list needs none, and a message may carry tens of megabytes.
 */
export async function readAttachmentContents(
  raw: Buffer,
  emailId: string,
  contentOf?: string,
): Promise<SentAttachmentContents> {
  const { simpleParser } = await import("mailparser");
  const parsed = (await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true })).attachments ?? [];
  const attachments = parsed.map((attachment, index) => ({
    id: attachmentId(emailId, index),
    ...describeAttachment(attachment),
  }));
  const wanted = contentOf === undefined ? -1 : attachments.findIndex((attachment) => attachment.id === contentOf);
  return { attachments, ...(wanted >= 0 && { content: parsed[wanted]!.content }) };
}

export function createSentAttachments(deps: {
  db: Db;
  emails: Pick<EmailService, "raw">;
  links: SignedLinks;
  /** `readAttachmentContents` on the CPU pool: a message may be tens of megabytes; `tenant`: whose message it is. */
  read: (raw: Buffer, emailId: string, tenant: string, contentOf?: string) => Promise<SentAttachmentContents>;
}): SentAttachments {
  const { db, emails, links } = deps;
  const { emailContents, emails: emailsTable } = tablesOf(db);
  const contentPath = (emailId: string, id: string) => `/v1/emails/${emailId}/attachments/${id}/content`;
  const notFound = () => new AppError("not_found", "Attachment not found.");

  const views = async (actor: Actor, emailId: string, raw: Buffer) =>
    (await deps.read(raw, emailId, actor.organizationId)).attachments.map((attachment) => ({
      ...attachment,
      ...links.link(contentPath(emailId, attachment.id)),
    }));
  const find = async (actor: Actor, emailId: string, raw: Buffer, id: string) => {
    const found = (await views(actor, emailId, raw)).find((candidate) => candidate.id === id);
    if (!found) throw notFound();
    return found;
  };
  /**
   * The stored message an access may read — an API caller's own, or the one a valid link was made for — and whose
   * it is.
   */
  const rawFor = async (access: DownloadAccess, emailId: string, id: string) => {
    if ("actor" in access)
      return { raw: (await emails.raw(access.actor, emailId)).raw, tenant: access.actor.organizationId };
    if (access.link.path !== contentPath(emailId, id) || !links.valid(access.link))
      throw new AppError("unauthorized", "This download link is invalid or has expired; ask the API for a new one.");
    const row = await first(
      db
        .select({ raw: emailContents.raw, tenant: emailsTable.organizationId })
        .from(emailContents)
        .innerJoin(emailsTable, eq(emailsTable.id, emailContents.emailId))
        .where(eq(emailContents.emailId, emailId)),
    );
    if (row) return row;
    const record = await first(
      db.select({ removedAt: emailsTable.contentRemovedAt }).from(emailsTable).where(eq(emailsTable.id, emailId)),
    );
    throw record?.removedAt ? contentGone(record.removedAt) : notFound();
  };

  return {
    async list(actor, emailId, options) {
      const { raw } = await emails.raw(actor, emailId);
      const { page, hasMore } = pageOfList(await views(actor, emailId, raw), options);
      return { object: "list", has_more: hasMore, data: page };
    },

    async get(actor, emailId, id) {
      const { raw } = await emails.raw(actor, emailId);
      return { object: "attachment", ...(await find(actor, emailId, raw, id)) };
    },

    async content(access, emailId, id) {
      const { raw, tenant } = await rawFor(access, emailId, id);
      const { attachments, content } = await deps.read(raw, emailId, tenant, id);
      const view = attachments.find((attachment) => attachment.id === id);
      if (!view || !content) throw notFound();
      return {
        content,
        contentType: view.content_type,
        filename: view.filename,
        disposition: view.content_disposition,
      };
    },
  };
}
