/**
 * HTTP routes for received mail, on Resend's paths (`emails.receiving` and its attachments;
 * docs/inbound.md#reading-received-mail): list, get, the raw message and attachment contents — each route one
 * contract (http/contract.ts). The two download routes take an API key or a signed link (`expires`, `signature`)
 * from a get or attachment answer; the others need an API key with `inbound:read`.
 */
import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { EmailAttachmentSchema } from "../emails/model.ts";
import { AppError } from "../errors.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { bodyLimits } from "../http/body.ts";
import { mount, route } from "../http/contract.ts";
import { downloadAccess, fileResponse } from "../http/downloads.ts";
import { isUuid } from "../lib/ids.ts";
import { ListOf, OneOf, PageQuery } from "../lib/wire.ts";
import type { Mailbox } from "./mailbox.ts";
import { ReceivedEmailSchema, ReceivedEmailSummarySchema } from "./model.ts";

const tags = ["Inbound"];

/** Ids are UUIDs: anything else names no message (404, not a 400). */
const receivedId = (id: string) => {
  if (!isUuid(id)) throw new AppError("not_found", "Received email not found.");
  return id.toLowerCase();
};
const attachmentId = (id: string) => {
  if (!isUuid(id)) throw new AppError("not_found", "Attachment not found.");
  return id.toLowerCase();
};

const ReceivedId = t.Object({ id: t.String({ description: "The received email's id" }) });
const AttachmentIds = t.Object({
  id: t.String({ description: "The received email's id" }),
  attachment_id: t.String({ description: "The attachment's id" }),
});
const SignedLinkQuery = t.Object({
  expires: t.Optional(t.String({ description: "From a signed link: its expiry" })),
  signature: t.Optional(t.String({ description: "From a signed link: its signature (no API key needed then)" })),
});
/** Whoever holds neither a key nor a valid link is refused; a key needs `inbound:read`. */
const DOWNLOAD_ERRORS = ["unauthorized", "insufficient_scope", "rate_limit_exceeded"] as const;

/** A page as the mailbox reads it: cursors lower-cased (ids are stored so; a client may upper-case a UUID). */
const pageOf = (query: { limit?: number; after?: string; before?: string }) => ({
  limit: query.limit ?? 20,
  after: query.after?.toLowerCase(),
  before: query.before?.toLowerCase(),
});

export function inboundRoutes(deps: AuthDeps & { mailbox: Mailbox }) {
  const { mailbox } = deps;
  const limits = bodyLimits(deps.config);

  // Before the key check: a signed link is its own authority.
  const downloads = mount(new Elysia(), limits, [
    route(
      {
        method: "GET",
        path: "/v1/emails/receiving/:id/raw",
        summary: "The received message as it arrived (API key, or the signed link from a get)",
        tags,
        open: true,
        params: ReceivedId,
        query: SignedLinkQuery,
        responses: { 200: { contentType: "message/rfc822", description: "The message, byte for byte" } },
        errors: [...DOWNLOAD_ERRORS],
      },
      async ({ request, set, query, params }) => {
        const raw = await mailbox.raw(await downloadAccess(deps, request, set, query), receivedId(params.id));
        return new Response(raw, {
          headers: {
            "content-type": "message/rfc822",
            "content-disposition": `attachment; filename="${params.id}.eml"`,
          },
        });
      },
    ),
    route(
      {
        method: "GET",
        path: "/v1/emails/receiving/:id/attachments/:attachment_id/content",
        summary: "An attachment's content (API key, or the signed download_url)",
        tags,
        open: true,
        params: AttachmentIds,
        query: SignedLinkQuery,
        responses: {
          200: { contentType: "application/octet-stream", description: "The attachment's bytes, under its own type" },
        },
        errors: [...DOWNLOAD_ERRORS],
      },
      async ({ request, set, query, params }) =>
        fileResponse(
          await mailbox.attachmentContent(
            await downloadAccess(deps, request, set, query),
            receivedId(params.id),
            attachmentId(params.attachment_id),
          ),
        ),
    ),
  ]);

  const api = mount(new Elysia().use(authenticated(deps)), limits, [
    route(
      {
        method: "GET",
        path: "/v1/emails/receiving",
        summary: "List received emails, newest first",
        tags,
        query: t.Object(PageQuery),
        responses: { 200: ListOf(ReceivedEmailSummarySchema) },
      },
      ({ actor, query }) => mailbox.list(actor, pageOf(query)),
    ),
    route(
      {
        method: "GET",
        path: "/v1/emails/receiving/:id",
        summary: "Get a received email with its bodies, headers, attachments and authentication results",
        tags,
        params: ReceivedId,
        query: t.Object({
          html_format: t.Optional(
            OneOf(["data_uri", "cid"], {
              description: "Inline images in html as data: URIs (the default) or left as cid: references",
            }),
          ),
        }),
        responses: { 200: ReceivedEmailSchema },
      },
      ({ actor, params, query }) => mailbox.get(actor, receivedId(params.id), query.html_format ?? "data_uri"),
    ),
    route(
      {
        method: "GET",
        path: "/v1/emails/receiving/:id/attachments",
        summary: "List a received email's attachments with download links",
        tags,
        params: ReceivedId,
        query: t.Object(PageQuery),
        responses: { 200: ListOf(EmailAttachmentSchema) },
      },
      ({ actor, params, query }) => mailbox.attachments(actor, receivedId(params.id), pageOf(query)),
    ),
    route(
      {
        method: "GET",
        path: "/v1/emails/receiving/:id/attachments/:attachment_id",
        summary: "Get one attachment with its download link",
        tags,
        params: AttachmentIds,
        responses: { 200: EmailAttachmentSchema },
      },
      ({ actor, params }) => mailbox.attachment(actor, receivedId(params.id), attachmentId(params.attachment_id)),
    ),
  ]);

  return new Elysia().use(downloads).use(api);
}
