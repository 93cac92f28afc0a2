/**
 * Reading received mail (docs/inbound.md, Resend's `emails.receiving`): list, get, the raw message and attachments,
 * and the retention that deletes old messages. Attachment contents are not stored twice: they are read again from
 * the raw message when asked for. Download links are Mailroom URLs signed with a key derived from the master key
 * and valid for an hour, so they work without an API key (as Resend's do) and cannot be forged or extended.
 * Invariants: an API caller sees only its own organisation's mail and needs `inbound:read`; a signed link grants
 * exactly the one path it was made for, until it expires; retention takes what it deletes off the organisation's
 * stored-bytes total (inbound_usage) in the same write.
 */
import { pageOfList, type PageOptions } from "../db/pages.ts";
import { ASIDE_CONTENT_BYTES } from "../db/content-writes.ts";
import type { Db, Writer } from "../db/store.ts";
import { AppError } from "../errors.ts";
import type { Actor } from "../access.ts";
import { requireScope } from "../access.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import type { SignedLinks } from "../lib/signed-links.ts";
import type { DownloadAccess } from "../access.ts";
import type { AttachmentView, ReceivedAttachment, ReceivedEmailSummary, ReceivedEmailView } from "./model.ts";
import type { ReceivedPart } from "./received.ts";
import {
  deleteReceived,
  findReceived,
  pageOfReceived,
  receivedBefore,
  receivedBody,
  type ReceivedRow,
} from "./repo.ts";

const PRUNE_BATCH = 500;

/** Reading a stored message again off the event loop (the CPU pool): the call the mailbox makes of it. */
export interface ReceivedPartReader {
  /**
   * A stored message's html with inline images, or an attachment's bytes; null when it has none (or it cannot be read
   * within its time budget). `raw` is handed over; `tenant` is the organisation whose message it is.
   */
  readReceivedPart(raw: Buffer, part: ReceivedPart, tenant: string): Promise<string | Buffer | null>;
}

export interface AttachmentContent {
  content: Buffer;
  contentType: string;
  filename: string | null;
  disposition: "inline" | "attachment";
}

export interface Mailbox {
  list(
    actor: Actor,
    options: PageOptions,
  ): Promise<{ object: "list"; has_more: boolean; data: ReceivedEmailSummary[] }>;
  /** `htmlFormat` `data_uri` (Resend's default) turns `cid:` references into inline data; `cid` keeps them. */
  get(actor: Actor, id: string, htmlFormat: "data_uri" | "cid"): Promise<ReceivedEmailView>;
  raw(access: Access, id: string): Promise<Buffer>;
  /** In the message's order; `after` and `before` are attachment ids of a previous page. */
  attachments(
    actor: Actor,
    id: string,
    options: PageOptions,
  ): Promise<{ object: "list"; has_more: boolean; data: AttachmentView[] }>;
  attachment(actor: Actor, id: string, attachmentId: string): Promise<AttachmentView & { object: "attachment" }>;
  attachmentContent(access: Access, id: string, attachmentId: string): Promise<AttachmentContent>;
  /** Deletes messages older than the retention period; the number deleted. */
  prune(): Promise<number>;
}

export type Access = DownloadAccess;

export function createMailbox(deps: {
  db: Db;
  writer: Writer;
  clock: Clock;
  links: SignedLinks;
  retentionMs: number;
  /** Where a stored message is parsed again (inline images, attachments): megabytes of it would hold the event loop. */
  cpu: ReceivedPartReader;
}): Mailbox {
  const { db, writer, clock, links } = deps;
  const signedLink = links.link;
  const linkValid = links.valid;

  const rawPath = (id: string) => `/v1/emails/receiving/${id}/raw`;
  const contentPath = (id: string, attachmentId: string) =>
    `/v1/emails/receiving/${id}/attachments/${attachmentId}/content`;

  const notFound = () => new AppError("not_found", "Received email not found.");
  const own = async (actor: Actor, id: string) => {
    requireScope(actor, "inbound:read");
    const row = await findReceived(db, id, actor.organizationId);
    if (!row) throw notFound();
    return row;
  };
  /** The row an access may read: an API caller's own, or the one a valid link was made for. */
  const permitted = async (access: Access, id: string, path: string) => {
    if ("actor" in access) return own(access.actor, id);
    if (access.link.path !== path || !linkValid(access.link))
      throw new AppError("unauthorized", "This download link is invalid or has expired; ask the API for a new one.");
    const row = await findReceived(db, id, null);
    if (!row) throw notFound();
    return row;
  };
  /** The message as received; a large one read off the event loop where the store can (db/content-writes.ts). */
  const rawOf = async ({ id, size }: Pick<ReceivedRow, "id" | "size">) => {
    const raw =
      size >= ASIDE_CONTENT_BYTES && writer.readContent
        ? await writer.readContent("received_contents", id)
        : await receivedBody(db, id);
    if (!raw) throw notFound();
    return raw;
  };

  const publicAttachment = ({ index: _index, ...attachment }: ReceivedAttachment) => attachment;
  const summary = (row: ReceivedRow): ReceivedEmailSummary => ({
    id: row.id,
    to: row.to,
    from: row.fromHeader,
    created_at: row.createdAt,
    subject: row.subject,
    bcc: row.bcc,
    cc: row.cc,
    reply_to: row.replyTo,
    received_for: row.receivedFor,
    message_id: row.messageId,
    attachments: row.attachments.map(publicAttachment),
    in_reply_to_email_id: row.inReplyToEmailId,
    auto_reply: row.autoReply as ReceivedEmailSummary["auto_reply"],
    authentication: row.authentication,
    spam: row.spam ?? null,
    route_id: row.routeId ?? null,
  });
  const attachmentView = (id: string, attachment: ReceivedAttachment): AttachmentView => ({
    ...publicAttachment(attachment),
    ...signedLink(contentPath(id, attachment.id)),
  });
  const findAttachment = (row: ReceivedRow, attachmentId: string) => {
    const attachment = row.attachments.find((candidate) => candidate.id === attachmentId);
    if (!attachment) throw new AppError("not_found", "Attachment not found.");
    return attachment;
  };

  return {
    async list(actor, options) {
      requireScope(actor, "inbound:read");
      const { page, hasMore } = await pageOfReceived(db, actor.organizationId, options);
      return { object: "list", has_more: hasMore, data: page.map(summary) };
    },

    async get(actor, id, htmlFormat) {
      const row = await own(actor, id);
      let html = row.html;
      // Inline images stay `cid:` references in the store; Resend's default answer carries them as data URIs.
      if (html?.includes("cid:") && htmlFormat === "data_uri") {
        const withImages = await deps.cpu.readReceivedPart(
          await rawOf(row),
          { kind: "html_with_images" },
          row.organizationId,
        );
        if (typeof withImages === "string") html = withImages;
      }
      return {
        object: "email",
        ...summary(row),
        html,
        text: row.text,
        headers: row.headers,
        raw: signedLink(rawPath(id)),
      };
    },

    async raw(access, id) {
      return rawOf(await permitted(access, id, rawPath(id)));
    },

    async attachments(actor, id, options) {
      const row = await own(actor, id);
      const { page, hasMore } = pageOfList(row.attachments, options);
      return { object: "list", has_more: hasMore, data: page.map((attachment) => attachmentView(id, attachment)) };
    },

    async attachment(actor, id, attachmentId) {
      const row = await own(actor, id);
      return { object: "attachment", ...attachmentView(id, findAttachment(row, attachmentId)) };
    },

    async attachmentContent(access, id, attachmentId) {
      const row = await permitted(access, id, contentPath(id, attachmentId));
      const attachment = findAttachment(row, attachmentId);
      const content = await deps.cpu.readReceivedPart(
        await rawOf(row),
        { kind: "attachment", index: attachment.index },
        row.organizationId,
      );
      if (!(content instanceof Buffer)) throw new AppError("not_found", "Attachment not found.");
      return {
        content,
        contentType: attachment.content_type,
        filename: attachment.filename,
        disposition: attachment.content_disposition,
      };
    },

    async prune() {
      const cutoff = isoTime(clock.now() - deps.retentionMs);
      let deleted = 0;
      for (;;) {
        const batch = await receivedBefore(db, cutoff, PRUNE_BATCH);
        if (!batch.length) return deleted;
        // The rows this write deletes and their bytes off each organisation's total, in one write (repo.ts).
        await writer.write((tx) =>
          deleteReceived(
            tx,
            batch.map(({ id }) => id),
          ),
        );
        deleted += batch.length;
      }
    },
  };
}
