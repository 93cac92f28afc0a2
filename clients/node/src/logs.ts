/**
 * `mailroom.logs` (every API request made with a key, with its bodies, secrets replaced by "[redacted]":
 * docs/logs-and-mcp.md#the-request-log) and `mailroom.usage` (the organisation's figures in Resend's shape:
 * docs/logs-and-mcp.md#usage-and-metrics), with Resend's method names.
 */
import { segment, type Transport } from "./http.js";
import type { ListLogsOptions, Log, LogListItem, Usage as UsageFigures } from "./operations-types.js";
import { missing } from "./results.js";
import type { List, MailroomResponse, RequestOptions } from "./types.js";

export class Logs {
  constructor(private readonly transport: Transport) {}

  /** Newest first, without the bodies; filter by `status`, `method`, `api_key_id` or `endpoint`. Needs `logs:read`. */
  async list(
    options: ListLogsOptions = {},
    requestOptions: RequestOptions = {},
  ): Promise<MailroomResponse<List<LogListItem>>> {
    const { limit, after, before, status, method, api_key_id, endpoint } = options;
    return this.transport.request({
      ...requestOptions,
      method: "GET",
      path: "/logs",
      query: { limit, after, before, status, method, api_key_id, endpoint },
    });
  }

  /** One request with `request_body` and `response_body`. */
  async get(id: string, options: RequestOptions = {}): Promise<MailroomResponse<Log>> {
    return missing(id, "id") ?? this.transport.request({ ...options, method: "GET", path: `/logs/${segment(id)}` });
  }
}

export class Usage {
  constructor(private readonly transport: Transport) {}

  /** Emails today and this month, received mail, domains, contacts, the request limit. Needs `organization:read`. */
  async get(options: RequestOptions = {}): Promise<MailroomResponse<UsageFigures>> {
    return this.transport.request({ ...options, method: "GET", path: "/usage" });
  }
}
