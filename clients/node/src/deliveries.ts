/**
 * `mailroom.deliveries`: the delivery queue as an operator sees and steers it (docs/operations.md) — each recipient still
 * waiting with its attempts, next attempt and last reply; counts by status, domain and provider; and retry now,
 * cancel and release, one delivery at a time or in bulk (`deliveries.bulk`) by filter. Reading needs the
 * `deliveries:read` scope, the actions `deliveries:write` (`full_access` has both).
 */
import { segment, type Transport } from "./http.js";
import { missing } from "./results.js";
import type {
  BulkDeliveriesOptions,
  BulkDeliveriesResponse,
  Delivery,
  List,
  ListDeliveriesOptions,
  MailroomResponse,
  QueueSummary,
  RequestOptions,
} from "./types.js";

type Action = "retry" | "cancel" | "release";

export class DeliveriesBulk {
  constructor(private readonly transport: Transport) {}

  /** Retries now every deferred delivery of the filter; those being attempted now are left to their attempt. */
  async retry(
    payload: BulkDeliveriesOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<BulkDeliveriesResponse>> {
    return this.act("retry", payload, options);
  }

  /** Cancels every queued, deferred or held delivery of the filter. */
  async cancel(
    payload: BulkDeliveriesOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<BulkDeliveriesResponse>> {
    return this.act("cancel", payload, options);
  }

  /** Releases every held delivery of the filter: each goes now, whatever pause held it. */
  async release(
    payload: BulkDeliveriesOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<BulkDeliveriesResponse>> {
    return this.act("release", payload, options);
  }

  private act(
    action: Action,
    payload: BulkDeliveriesOptions,
    options: RequestOptions,
  ): Promise<MailroomResponse<BulkDeliveriesResponse>> {
    return this.transport.request({ ...options, method: "POST", path: `/deliveries/${action}`, body: payload });
  }
}

export class Deliveries {
  readonly bulk: DeliveriesBulk;

  constructor(private readonly transport: Transport) {
    this.bulk = new DeliveriesBulk(transport);
  }

  /**
   * The recipients waiting (queued, deferred, held, sending), oldest first (`after` continues towards newer ones);
   * filter by `status`, `domain`, `provider` or `email_id`.
   */
  async list(
    options: ListDeliveriesOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<Delivery>>> {
    const { limit, after, before, status, domain, provider, email_id } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: "/deliveries",
      query: { limit, after, before, status, domain, provider, email_id },
    });
  }

  /** What waits: counts by status, by destination domain (top 20) and by provider, and the oldest. */
  async summary(options: RequestOptions = {}): Promise<MailroomResponse<QueueSummary>> {
    return this.transport.request({ ...options, method: "GET", path: "/deliveries/summary" });
  }

  /** Retries a deferred delivery now (its attempts so far still count); `conflict` for any other status. */
  async retry(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Delivery>> {
    return this.act("retry", id, options);
  }

  /** Cancels a queued, deferred or held delivery; `conflict` for any other status. */
  async cancel(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Delivery>> {
    return this.act("cancel", id, options);
  }

  /** Releases a held delivery: it goes now, whatever pause held it; `conflict` for any other status. */
  async release(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Delivery>> {
    return this.act("release", id, options);
  }

  /** The delivery after the change; `conflict` too while it is being attempted (its result is recorded then). */
  private async act(action: Action, id: string, options: RequestOptions): Promise<MailroomResponse<Delivery>> {
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "POST", path: `/deliveries/${segment(id)}/${action}` })
    );
  }
}
