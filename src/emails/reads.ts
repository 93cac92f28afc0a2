/**
 * Sent mail as the API reads it: one message with its recipients and history, pages of the list, the raw MIME.
 * Invariants: a message of another organisation, or live mail asked for by a test key (docs/keys-and-limits.md), is `not_found`;
 * content that retention removed is `gone`; a viewer reads the record without its content (docs/teams.md); system mail
 * is listed to no one and found by instance admins and the operator alone (docs/teams.md#system-mail).
 */
import type { Actor } from "../access.ts";
import { mayReadContent, requireContentAccess, requireScope } from "../access.ts";
import { ASIDE_CONTENT_BYTES } from "../db/content-writes.ts";
import type { Db, Writer } from "../db/store.ts";
import { AppError } from "../errors.ts";
import type { RecipientStatus } from "../deliveries/model.ts";
import { withoutContent } from "../events/model.ts";
import type { EmailRecord, EmailStatus, EmailSummary, ListOptions } from "./model.ts";
import { createEmailQueries, type EmailSummaryRow } from "./repo.ts";

export interface EmailReads {
  get(actor: Actor, id: string): Promise<EmailRecord>;
  list(actor: Actor, options: ListOptions): Promise<{ object: "list"; data: EmailSummary[]; has_more: boolean }>;
  raw(actor: Actor, id: string): Promise<{ raw: Buffer; messageId: string }>;
  /** The caller's message `id` (any scope; the caller checks it), or `not_found`. */
  ownEmail(actor: Actor, id: string): Promise<EmailSummaryRow & { html: string | null; text: string | null }>;
}

/** 410 for a message whose content retention removed (docs/operations.md): the record is still there. */
export const contentGone = (removedAt: string) =>
  new AppError(
    "gone",
    `Retention removed this email's content on ${removedAt}; its record, recipients and events remain (GET /v1/emails/:id).`,
  );

/** An instance admin signed in, or the operator at the console (CLI): who may look system mail up. */
const runsTheServer = (actor: Actor) =>
  actor.user ? actor.user.instanceAdmin : actor.keyId === null && actor.mode === "live";

export function createEmailReads(deps: { db: Db; writer: Writer }): EmailReads {
  const { writer } = deps;
  const queries = createEmailQueries(deps.db);

  const ownEmail = async (actor: Actor, id: string) => {
    const row = await queries.email(actor.organizationId, id);
    // A test key's sandbox (docs/keys-and-limits.md): live mail does not exist for it.
    if (!row || (actor.mode === "test" && row.mode !== "test")) throw new AppError("not_found", "Email not found.");
    // System mail is not the organisation's (docs/teams.md#system-mail): only those who run the server look it up.
    if (row.systemMail && !runsTheServer(actor))
      throw new AppError(
        "not_found",
        "Email not found among the organisation's: it is mail Mailroom sent about a person's account, which only instance admins look up.",
      );
    return row;
  };

  const summary = (row: EmailSummaryRow): EmailSummary => ({
    object: "email",
    id: row.id,
    message_id: row.messageId,
    source: row.source,
    from: row.fromHeader,
    to: row.to,
    cc: row.cc,
    bcc: row.bcc,
    reply_to: row.replyTo,
    subject: row.subject,
    tags: row.tags,
    status: row.status as EmailStatus,
    last_event: row.status as EmailStatus,
    created_at: row.createdAt,
    scheduled_at: row.scheduledAt ?? null,
    template_id: row.templateId ?? null,
    topic_id: row.topicId ?? null,
    broadcast_id: row.broadcastId ?? null,
    mode: row.mode === "test" ? "test" : "live",
  });

  return {
    ownEmail,

    async get(actor, id) {
      requireScope(actor, "emails:read");
      const row = await ownEmail(actor, id);
      const recipients = await queries.recipientsOf(id);
      const history = await queries.eventsOf(id);
      // A viewer reads the record without its content (docs/teams.md): Resend's fields stay, null.
      const content = mayReadContent(actor);
      return {
        ...summary(row),
        html: content ? (row.html ?? null) : null,
        text: content ? (row.text ?? null) : null,
        content_removed_at: row.contentRemovedAt ?? null,
        recipients: recipients.map((d) => ({
          email: d.recipient,
          status: d.status as RecipientStatus,
          attempts: d.attempts,
          last_response: d.lastResponse ?? null,
          provider: d.provider ?? null,
          provider_message_id: d.providerMessageId ?? null,
          updated_at: d.updatedAt,
        })),
        events: history.map((e) => ({
          type: e.type,
          created_at: e.createdAt,
          recipient: e.recipient ?? null,
          data: content ? e.data : withoutContent(e.data),
        })),
      };
    },

    async list(actor, options) {
      requireScope(actor, "emails:read");
      const rows = await queries.listPage(actor, options);
      const page = rows.slice(0, options.limit);
      if (options.before && !options.after) page.reverse();
      return { object: "list", data: page.map(summary), has_more: rows.length > options.limit };
    },

    async raw(actor, id) {
      requireScope(actor, "emails:read");
      requireContentAccess(actor);
      const row = await ownEmail(actor, id);
      if (row.contentRemovedAt) throw contentGone(row.contentRemovedAt);
      if (row.systemMail)
        throw new AppError(
          "gone",
          "Mailroom sent this message about a person's account and it may carry a link: no one reads its content.",
        );
      // A large body is read off the event loop where the store can (db/content-writes.ts).
      const raw =
        row.size >= ASIDE_CONTENT_BYTES && writer.readContent
          ? await writer.readContent("email_contents", id)
          : await queries.rawContent(id);
      return { raw: raw!, messageId: row.messageId };
    },
  };
}
