/**
 * `mailroom.broadcasts`: mail to a segment's contacts (docs/broadcasts.md#operations), with Resend's method names — create (a
 * draft, or sent at once with `send: true`), send (now or at `scheduled_at`), get, list, update and remove of drafts,
 * cancel, duplicate, recipients by event type, clicked links. `react` is rendered to `html` here, as for emails.
 */
import type {
  Broadcast,
  BroadcastClickedLink,
  BroadcastDeleted,
  BroadcastId,
  BroadcastRecipient,
  BroadcastRef,
  BroadcastSummary,
  CreateBroadcastOptions,
  ListBroadcastRecipientsOptions,
  SendBroadcastOptions,
  UpdateBroadcastOptions,
} from "./broadcast-types.js";
import { MailroomError } from "./errors.js";
import { segment, type Transport } from "./http.js";
import { withRenderedReact } from "./react.js";
import { failure, isoTime, missing } from "./results.js";
import type { List, MailroomResponse, PaginationOptions, RequestOptions } from "./types.js";

const path = (id: string, tail = ""): string => `/broadcasts/${segment(id)}${tail}`;

export class Broadcasts {
  constructor(private readonly transport: Transport) {}

  /** A draft to `segment_id`; `send: true` sends it at once (or at `scheduled_at`). */
  async create(payload: CreateBroadcastOptions, options: RequestOptions = {}): Promise<MailroomResponse<BroadcastRef>> {
    const rendered = await withRenderedReact(payload);
    if (rendered instanceof MailroomError) return failure(rendered);
    const { scheduled_at, ...body } = rendered;
    return this.transport.request({
      ...options,
      method: "POST",
      path: "/broadcasts",
      body: scheduled_at === undefined ? body : { ...body, scheduled_at: isoTime(scheduled_at) },
    });
  }

  /** Sends a draft now, or at `scheduled_at` (ISO 8601, a relative time as Resend takes it, or a Date). */
  async send(
    id: string,
    payload: SendBroadcastOptions = {},
    options: RequestOptions = {},
  ): Promise<MailroomResponse<BroadcastId>> {
    const { scheduled_at } = payload;
    return (
      missing(id, "id") ??
      this.transport.request({
        ...options,
        method: "POST",
        path: path(id, "/send"),
        body: scheduled_at === undefined ? {} : { scheduled_at: isoTime(scheduled_at) },
      })
    );
  }

  /** Newest first. */
  async list(
    options: PaginationOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<BroadcastSummary>>> {
    const { limit, after, before } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: "/broadcasts",
      query: { limit, after, before },
    });
  }

  /** With its `counts`: contacts reached, messages made, skipped, and recipients per status. */
  async get(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Broadcast>> {
    return missing(id, "id") ?? this.transport.request({ ...options, method: "GET", path: path(id) });
  }

  /** A draft's content, segment or topic (Resend's signature: the id, then the changes); `conflict` once queued. */
  async update(
    id: string,
    payload: UpdateBroadcastOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<BroadcastId>> {
    const absent = missing<BroadcastId>(id, "id");
    if (absent) return absent;
    const body = await withRenderedReact(payload);
    if (body instanceof MailroomError) return failure(body);
    return this.transport.request({ ...options, method: "PATCH", path: path(id), body });
  }

  /** A draft only (`conflict` otherwise). */
  async remove(id: string, options: RequestOptions = {}): Promise<MailroomResponse<BroadcastDeleted>> {
    return missing(id, "id") ?? this.transport.request({ ...options, method: "DELETE", path: path(id) });
  }

  /** A scheduled broadcast goes back to draft; one being sent stops, its recipients still waiting canceled. */
  async cancel(id: string, options: RequestOptions = {}): Promise<MailroomResponse<BroadcastRef>> {
    return missing(id, "id") ?? this.transport.request({ ...options, method: "POST", path: path(id, "/cancel") });
  }

  /** A new draft with the same content and segment. */
  async duplicate(id: string, options: RequestOptions = {}): Promise<MailroomResponse<BroadcastRef>> {
    return missing(id, "id") ?? this.transport.request({ ...options, method: "POST", path: path(id, "/duplicate") });
  }

  /** The recipients with one event `type` (`sent`, `delivered`, `opened`, `clicked`, `bounced`, …). */
  async recipients(
    id: string,
    options: ListBroadcastRecipientsOptions,
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<BroadcastRecipient>>> {
    const { limit, after, before, type, email, bounce_type } = options;
    return (
      missing(id, "id") ??
      missing(type, "type") ??
      this.transport.request({
        ...requestOptions,
        method: "GET",
        path: path(id, "/recipients"),
        query: { limit, after, before, type, email, bounce_type },
      })
    );
  }

  /** Each link clicked, most clicked first, with its clicks and unique clicks. */
  async clickedLinks(
    id: string,
    options: PaginationOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<BroadcastClickedLink>>> {
    const { limit, after, before } = options;
    return (
      missing(id, "id") ??
      this.transport.request({
        ...requestOptions,
        method: "GET",
        path: path(id, "/clicked-links"),
        query: { limit, after, before },
      })
    );
  }
}
