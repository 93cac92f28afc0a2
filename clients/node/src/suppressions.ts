/**
 * `mailroom.suppressions`: the organisation's do-not-send list (docs/delivery.md#suppressions), by id or address, one at a time or in
 * batches. Addresses in paths are encoded, so `a+b@example.com` reaches the server intact.
 */
import { segment, type Transport } from "./http.js";
import { missing } from "./results.js";
import type {
  AddSuppressionOptions,
  BatchAddSuppressionsOptions,
  BatchRemoveSuppressionsOptions,
  BatchRemoveSuppressionsResponse,
  List,
  ListSuppressionsOptions,
  MailroomResponse,
  RequestOptions,
  Suppression,
  SuppressionDeleted,
} from "./types.js";

export class SuppressionsBatch {
  constructor(private readonly transport: Transport) {}

  /** Suppresses several addresses; those already suppressed keep their entry. */
  async add(
    payload: BatchAddSuppressionsOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<{ data: Suppression[] }>> {
    return this.transport.request({ ...options, method: "POST", path: "/suppressions/batch/add", body: payload });
  }

  /** Removes several entries, given by address or by id; each answer says whether it was suppressed. */
  async remove(
    payload: BatchRemoveSuppressionsOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<BatchRemoveSuppressionsResponse>> {
    return this.transport.request({ ...options, method: "POST", path: "/suppressions/batch/remove", body: payload });
  }
}

export class Suppressions {
  readonly batch: SuppressionsBatch;

  constructor(private readonly transport: Transport) {
    this.batch = new SuppressionsBatch(transport);
  }

  /** Suppresses an address by hand (origin `manual`). */
  async add(payload: AddSuppressionOptions, options: RequestOptions = {}): Promise<MailroomResponse<Suppression>> {
    return this.transport.request({ ...options, method: "POST", path: "/suppressions", body: payload });
  }

  /** The same as `add`. */
  create(payload: AddSuppressionOptions, options: RequestOptions = {}): Promise<MailroomResponse<Suppression>> {
    return this.add(payload, options);
  }

  /** By id or by address. */
  async get(idOrEmail: string, options: RequestOptions = {}): Promise<MailroomResponse<Suppression>> {
    return (
      missing(idOrEmail, "id") ??
      this.transport.request({ ...options, method: "GET", path: `/suppressions/${segment(idOrEmail)}` })
    );
  }

  /** Newest first; filter by `origin` or a part of the address (`search`). */
  async list(
    options: ListSuppressionsOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<Suppression>>> {
    const { limit, after, before, origin, search } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: "/suppressions",
      query: { limit, after, before, origin, search },
    });
  }

  /** By id or by address. */
  async remove(idOrEmail: string, options: RequestOptions = {}): Promise<MailroomResponse<SuppressionDeleted>> {
    return (
      missing(idOrEmail, "id") ??
      this.transport.request({ ...options, method: "DELETE", path: `/suppressions/${segment(idOrEmail)}` })
    );
  }
}
