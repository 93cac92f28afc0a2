/**
 * HTTP routes for received mail, on Resend's paths (`emails.receiving` and its attachments): list, get, the raw
 * message and attachment contents. The two download routes take an API key or a signed link (`expires`,
 * `signature`) from a get or attachment answer; the others need an API key with `inbound:read`.
 */
import { Elysia } from "elysia";
import { AppError } from "../errors.ts";
import { authenticated, type AuthDeps } from "../http/auth.ts";
import { downloadAccess, fileResponse } from "../http/downloads.ts";
import { parseCursor, parseEnum, parseLimit } from "../http/query.ts";
import { isUuid } from "../lib/ids.ts";
import type { Mailbox } from "./mailbox.ts";

const receivedId = (id: string) => {
  if (!isUuid(id)) throw new AppError("not_found", "Received email not found.");
  return id.toLowerCase();
};
const attachmentId = (id: string) => {
  if (!isUuid(id)) throw new AppError("not_found", "Attachment not found.");
  return id.toLowerCase();
};

export function inboundRoutes(deps: AuthDeps & { mailbox: Mailbox }) {
  const { mailbox } = deps;
  const tags = ["Inbound"];
  const access = (
    request: Request,
    set: { headers: Record<string, unknown> },
    query: Record<string, string | undefined>,
  ) => downloadAccess(deps, request, set, query);

  const downloads = new Elysia()
    .get(
      "/v1/emails/receiving/:id/raw",
      async ({ request, set, query, params }) => {
        const raw = await mailbox.raw(await access(request, set, query), receivedId(params.id));
        return new Response(raw, {
          headers: {
            "content-type": "message/rfc822",
            "content-disposition": `attachment; filename="${params.id}.eml"`,
          },
        });
      },
      { detail: { summary: "The received message as it arrived (API key, or the signed link from a get)", tags } },
    )
    .get(
      "/v1/emails/receiving/:id/attachments/:attachment_id/content",
      async ({ request, set, query, params }) =>
        fileResponse(
          await mailbox.attachmentContent(
            await access(request, set, query),
            receivedId(params.id),
            attachmentId(params.attachment_id),
          ),
        ),
      { detail: { summary: "An attachment's content (API key, or the signed download_url)", tags } },
    );

  const api = new Elysia()
    .use(authenticated(deps))
    .get(
      "/v1/emails/receiving",
      ({ actor, query }) =>
        mailbox.list(actor, {
          limit: parseLimit(query.limit),
          after: parseCursor("after", query.after),
          before: parseCursor("before", query.before),
        }),
      { detail: { summary: "List received emails, newest first", tags } },
    )
    .get(
      "/v1/emails/receiving/:id",
      ({ actor, params, query }) => {
        const format = parseEnum("html_format", query.html_format, ["data_uri", "cid"]) as
          | "data_uri"
          | "cid"
          | undefined;
        return mailbox.get(actor, receivedId(params.id), format ?? "data_uri");
      },
      {
        detail: {
          summary: "Get a received email with its bodies, headers, attachments and authentication results",
          tags,
        },
      },
    )
    .get(
      "/v1/emails/receiving/:id/attachments",
      ({ actor, params, query }) =>
        mailbox.attachments(actor, receivedId(params.id), {
          limit: parseLimit(query.limit),
          after: parseCursor("after", query.after),
          before: parseCursor("before", query.before),
        }),
      { detail: { summary: "List a received email's attachments with download links", tags } },
    )
    .get(
      "/v1/emails/receiving/:id/attachments/:attachment_id",
      ({ actor, params }) => mailbox.attachment(actor, receivedId(params.id), attachmentId(params.attachment_id)),
      {
        detail: { summary: "Get one attachment with its download link", tags },
      },
    );

  return new Elysia().use(downloads).use(api);
}
