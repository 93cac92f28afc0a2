/**
 * `mailroom.emails.receiving`: mail received on Mailroom's MX (Resend's paths), its attachments and raw message, and
 * Mailroom's inbound routes (`routes`), which decide what becomes of it.
 */
import { segment, type Transport } from "./http.js";
import { InboundRoutes } from "./inbound-routes.js";
import { missing } from "./results.js";
import type {
  EmailAttachment,
  GetAttachmentOptions,
  GetReceivedEmailOptions,
  List,
  ListAttachmentsOptions,
  MailroomResponse,
  PaginationOptions,
  ReceivedEmail,
  ReceivedEmailSummary,
  RequestOptions,
} from "./types.js";

export class ReceivingAttachments {
  constructor(private readonly transport: Transport) {}

  async list(
    options: ListAttachmentsOptions,
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<EmailAttachment>>> {
    const { emailId, limit, after, before } = options;
    return (
      missing(emailId, "emailId") ??
      this.transport.request({
        ...requestOptions,
        method: "GET",
        path: `/emails/receiving/${segment(emailId)}/attachments`,
        query: { limit, after, before },
      })
    );
  }

  async get(
    options: GetAttachmentOptions,
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<EmailAttachment>> {
    return (
      missing(options.emailId, "emailId") ??
      missing(options.id, "id") ??
      this.transport.request({
        ...requestOptions,
        method: "GET",
        path: `/emails/receiving/${segment(options.emailId)}/attachments/${segment(options.id)}`,
      })
    );
  }
}

export class Receiving {
  readonly attachments: ReceivingAttachments;
  /** `/v1/inbound/routes`: store, webhook, forward, reject or drop, by recipient and header. */
  readonly routes: InboundRoutes;

  constructor(private readonly transport: Transport) {
    this.attachments = new ReceivingAttachments(transport);
    this.routes = new InboundRoutes(transport);
  }

  /** Received emails, newest first. */
  async list(
    options: PaginationOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<ReceivedEmailSummary>>> {
    const { limit, after, before } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: "/emails/receiving",
      query: { limit, after, before },
    });
  }

  /** One received email with its bodies, headers, attachments and authentication results. */
  async get(
    id: string,
    options: GetReceivedEmailOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<ReceivedEmail>> {
    return (
      missing(id, "id") ??
      this.transport.request({
        ...requestOptions,
        method: "GET",
        path: `/emails/receiving/${segment(id)}`,
        query: { html_format: options.html_format },
      })
    );
  }

  /** The received message as it arrived (message/rfc822) as text. */
  async raw(id: string, requestOptions: RequestOptions = {}): Promise<MailroomResponse<string>> {
    return (
      missing(id, "id") ??
      this.transport.request({
        ...requestOptions,
        method: "GET",
        path: `/emails/receiving/${segment(id)}/raw`,
        responseType: "text",
      })
    );
  }
}
