/**
 * `mailroom.webhooks`: endpoints (create answers the signing secret), rotation, test events, the events sent to an
 * endpoint with their attempts and replays, on Resend's paths (docs/events-and-webhooks.md); and `verify`, the Standard Webhooks check
 * of a received request.
 */
import { segment, type Transport } from "./http.js";
import { missing } from "./results.js";
import type {
  CreateWebhookOptions,
  Deleted,
  List,
  ListWebhookAttemptsOptions,
  ListWebhookEventsOptions,
  MailroomResponse,
  PaginationOptions,
  ReplayFailedResponse,
  RequestOptions,
  TestWebhookOptions,
  UpdateWebhookOptions,
  WebhookAttempt,
  WebhookDeliveryEvent,
  WebhookDeliveryEventDetail,
  WebhookEndpoint,
  WebhookEventOptions,
  WebhookPayload,
  WebhookWithSecret,
} from "./types.js";
import { Webhook, type WebhookHeaders } from "./webhook.js";

export interface VerifyWebhookOptions {
  /** The raw request body, exactly as received. */
  payload: string | Uint8Array;
  /**
   * The request's headers (`webhook-*` or `svix-*`), or Resend's `{id, timestamp, signature}` with their values.
   */
  headers: WebhookHeaders | { id: string; timestamp: string; signature: string };
  /** The endpoint's `whsec_…` signing secret. */
  secret?: string;
  /** Resend's name for `secret`. */
  webhookSecret?: string;
  /** Seconds the timestamp may differ from now (default 300). */
  tolerance?: number;
}

export class WebhookAttempts {
  constructor(private readonly transport: Transport) {}

  /** The attempts of one event, newest first: status code, first 1 KB of the answer, duration. */
  async list(
    options: ListWebhookAttemptsOptions,
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<WebhookAttempt>>> {
    const { webhookId, eventId, limit, after, before } = options;
    return (
      missing(webhookId, "webhookId") ??
      missing(eventId, "eventId") ??
      this.transport.request({
        ...requestOptions,
        method: "GET",
        path: `/webhooks/${segment(webhookId)}/events/${segment(eventId)}/attempts`,
        query: { limit, after, before },
      })
    );
  }
}

export class WebhookEvents {
  readonly attempts: WebhookAttempts;

  constructor(private readonly transport: Transport) {
    this.attempts = new WebhookAttempts(transport);
  }

  /** The events sent (or to be sent) to an endpoint, newest first; filter by delivery `status`. */
  async list(
    options: ListWebhookEventsOptions,
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<WebhookDeliveryEvent>>> {
    const { webhookId, status, limit, after, before } = options;
    return (
      missing(webhookId, "webhookId") ??
      this.transport.request({
        ...requestOptions,
        method: "GET",
        path: `/webhooks/${segment(webhookId)}/events`,
        query: { limit, after, before, status },
      })
    );
  }

  /** One event with its payload and every attempt. */
  async get(
    options: WebhookEventOptions,
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<WebhookDeliveryEventDetail>> {
    return (
      missing(options.webhookId, "webhookId") ??
      missing(options.eventId, "eventId") ??
      this.transport.request({
        ...requestOptions,
        method: "GET",
        path: `/webhooks/${segment(options.webhookId)}/events/${segment(options.eventId)}`,
      })
    );
  }

  /** Sends the event again (same `webhook-id`, so receivers can still recognise it). */
  async replay(
    options: WebhookEventOptions,
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<WebhookDeliveryEvent>> {
    return (
      missing(options.webhookId, "webhookId") ??
      missing(options.eventId, "eventId") ??
      this.transport.request({
        ...requestOptions,
        method: "POST",
        path: `/webhooks/${segment(options.webhookId)}/events/${segment(options.eventId)}/replay`,
      })
    );
  }
}

const isResendHeaders = (
  headers: VerifyWebhookOptions["headers"],
): headers is { id: string; timestamp: string; signature: string } =>
  !(typeof (headers as Headers).get === "function") &&
  "signature" in headers &&
  "timestamp" in headers &&
  "id" in headers;

export class Webhooks {
  readonly events: WebhookEvents;

  constructor(private readonly transport: Transport) {
    this.events = new WebhookEvents(transport);
  }

  /** Registers an endpoint; the answer's `signing_secret` is shown here (and on rotation) only. */
  async create(
    payload: CreateWebhookOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<WebhookWithSecret>> {
    return this.transport.request({ ...options, method: "POST", path: "/webhooks", body: payload });
  }

  async get(id: string, options: RequestOptions = {}): Promise<MailroomResponse<WebhookEndpoint>> {
    return missing(id, "id") ?? this.transport.request({ ...options, method: "GET", path: `/webhooks/${segment(id)}` });
  }

  async list(
    options: PaginationOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<WebhookEndpoint>>> {
    const { limit, after, before } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: "/webhooks",
      query: { limit, after, before },
    });
  }

  /** Changes the URL, events or description; enables or disables the endpoint. */
  async update(
    id: string,
    payload: UpdateWebhookOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<WebhookEndpoint>> {
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "PATCH", path: `/webhooks/${segment(id)}`, body: payload })
    );
  }

  async remove(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Deleted<"webhook">>> {
    return (
      missing(id, "id") ?? this.transport.request({ ...options, method: "DELETE", path: `/webhooks/${segment(id)}` })
    );
  }

  /** A new signing secret; the old one keeps signing alongside it for 24 h. */
  async rotateSigningSecret(id: string, options: RequestOptions = {}): Promise<MailroomResponse<WebhookWithSecret>> {
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "POST", path: `/webhooks/${segment(id)}/signing-secret/rotate` })
    );
  }

  /** Sends a sample event (default `email.sent`), signed and retried like any other. */
  async test(
    id: string,
    payload: TestWebhookOptions = {},
    options: RequestOptions = {},
  ): Promise<MailroomResponse<WebhookDeliveryEvent>> {
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "POST", path: `/webhooks/${segment(id)}/test`, body: payload })
    );
  }

  /** Sends every failed event of the endpoint again. */
  async replayFailed(id: string, options: RequestOptions = {}): Promise<MailroomResponse<ReplayFailedResponse>> {
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "POST", path: `/webhooks/${segment(id)}/replay` })
    );
  }

  /**
   * Checks a received webhook request and answers its parsed payload; throws `WebhookVerificationError` when the
   * signature, its timestamp or the headers are not right.
   */
  verify<D = Record<string, unknown>>(options: VerifyWebhookOptions): WebhookPayload<D> {
    const secret = options.secret ?? options.webhookSecret;
    if (!secret) throw new TypeError("webhooks.verify needs the endpoint's signing secret (`secret`).");
    const headers = isResendHeaders(options.headers)
      ? {
          "webhook-id": options.headers.id,
          "webhook-timestamp": options.headers.timestamp,
          "webhook-signature": options.headers.signature,
        }
      : options.headers;
    return new Webhook(secret, { tolerance: options.tolerance }).verify<D>(options.payload, headers);
  }
}
