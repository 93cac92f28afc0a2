/**
 * The attachments of sent email (DESIGN §1, Resend's `emails.attachments`): listed and fetched from the stored MIME
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
import type { Actor } from "../keys/model.ts";
import { describeAttachment, type AttachmentDescription } from "../lib/attachment-parts.ts";
import type { DownloadAccess, SignedLinks } from "../lib/signed-links.ts";
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
  list(actor: Actor, emailId: string, options: PageOptions): Promise<{ object: "list"; has_more: boolean; data: SentAttachmentView[] }>;
  get(actor: Actor, emailId: string, attachmentId: string): Promise<SentAttachmentView & { object: "attachment" }>;
  content(access: DownloadAccess, emailId: string, attachmentId: string): Promise<AttachmentFile>;
}

/** A UUID-shaped id (version 8, RFC 9562's custom version) from the email id and the attachment's position. */
function attachmentId(emailId: string, index: number): string {
  const hex = createHash("sha256").update(`${emailId}/${index}`).digest("hex");
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function createSentAttachments(deps: { db: Db; emails: Pick<EmailService, "raw">; links: SignedLinks }): SentAttachments {
  const { db, emails, links } = deps;
  const { emailContents } = tablesOf(db);
  const contentPath = (emailId: string, id: string) => `/v1/emails/${emailId}/attachments/${id}/content`;
  const notFound = () => new AppError("not_found", "Attachment not found.");

  const parsed = async (raw: Buffer) => {
    const { simpleParser } = await import("mailparser");
    return (await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true })).attachments ?? [];
  };
  const views = async (emailId: string, raw: Buffer) =>
    (await parsed(raw)).map((attachment, index) => {
      const id = attachmentId(emailId, index);
      return {
        view: { id, ...describeAttachment(attachment), ...links.link(contentPath(emailId, id)) },
        content: attachment.content,
      };
    });
  const find = async (emailId: string, raw: Buffer, id: string) => {
    const found = (await views(emailId, raw)).find((candidate) => candidate.view.id === id);
    if (!found) throw notFound();
    return found;
  };
  /** The stored message an access may read: an API caller's own, or the one a valid link was made for. */
  const rawFor = async (access: DownloadAccess, emailId: string, id: string) => {
    if ("actor" in access) return (await emails.raw(access.actor, emailId)).raw;
    if (access.link.path !== contentPath(emailId, id) || !links.valid(access.link)) throw new AppError("unauthorized", "This download link is invalid or has expired; ask the API for a new one.");
    const row = await first(db.select({ raw: emailContents.raw }).from(emailContents).where(eq(emailContents.emailId, emailId)));
    if (!row) throw notFound();
    return row.raw;
  };

  return {
    async list(actor, emailId, options) {
      const { raw } = await emails.raw(actor, emailId);
      const { page, hasMore } = pageOfList((await views(emailId, raw)).map((entry) => entry.view), options);
      return { object: "list", has_more: hasMore, data: page };
    },

    async get(actor, emailId, id) {
      const { raw } = await emails.raw(actor, emailId);
      return { object: "attachment", ...(await find(emailId, raw, id)).view };
    },

    async content(access, emailId, id) {
      const { view, content } = await find(emailId, await rawFor(access, emailId, id), id);
      return { content, contentType: view.content_type, filename: view.filename, disposition: view.content_disposition };
    },
  };
}
