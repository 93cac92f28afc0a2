/**
 * `mailroom.emails.receiving.routes`: what Mailroom's MX does with the mail it receives, route by route — store,
 * webhook, forward, reject or drop, by recipient (or wildcard) and optionally a header, with a spam threshold — tried
 * in order, the first match deciding (docs/inbound.md#routes); `test` asks which route decides for an address.
 */
import { segment, type Transport } from "./http.js";
import type {
  CreateInboundRouteOptions,
  InboundRoute,
  InboundRouteTest,
  TestInboundRouteOptions,
  UpdateInboundRouteOptions,
} from "./operations-types.js";
import { missing } from "./results.js";
import type { Deleted, List, MailroomResponse, PaginationOptions, RequestOptions } from "./types.js";

export class InboundRoutes {
  constructor(private readonly transport: Transport) {}

  /** In the order they are tried (`position` 1 first), 100 to a page unless `limit` says otherwise. */
  async list(
    options: PaginationOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<InboundRoute>>> {
    const { limit, after, before } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: "/inbound/routes",
      query: { limit, after, before },
    });
  }

  /** Goes last unless `position` says where; the routes at it and after move down. */
  async create(
    payload: CreateInboundRouteOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<InboundRoute>> {
    return this.transport.request({ ...options, method: "POST", path: "/inbound/routes", body: payload });
  }

  async get(id: string, options: RequestOptions = {}): Promise<MailroomResponse<InboundRoute>> {
    return (
      missing(id, "id") ?? this.transport.request({ ...options, method: "GET", path: `/inbound/routes/${segment(id)}` })
    );
  }

  /** Changes or moves a route (`position`); what is left out stays. */
  async update(
    payload: UpdateInboundRouteOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<InboundRoute>> {
    const { id, ...changes } = payload;
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "PATCH", path: `/inbound/routes/${segment(id)}`, body: changes })
    );
  }

  async remove(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Deleted<"inbound_route">>> {
    return (
      missing(id, "id") ??
      this.transport.request({ ...options, method: "DELETE", path: `/inbound/routes/${segment(id)}` })
    );
  }

  /** Which route decides for `recipient` (and `headers`), and what becomes of its mail; nothing is received. */
  async test(
    payload: TestInboundRouteOptions,
    options: RequestOptions = {},
  ): Promise<MailroomResponse<InboundRouteTest>> {
    return (
      missing(payload.recipient, "recipient") ??
      this.transport.request({ ...options, method: "POST", path: "/inbound/routes/test", body: payload })
    );
  }
}
