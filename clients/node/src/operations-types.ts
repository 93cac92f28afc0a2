/**
 * The request and response shapes of the request log, usage and email metrics (docs/logs-and-mcp.md) and of the
 * inbound routes (docs/inbound.md#routes). The answers and bodies come from generated.ts (`npm run generate`); what is
 * written here is the client's side: the list filters and the metrics options, whose lists the client joins with
 * commas as the wire takes them.
 */
import type { EmailMetrics, UpdateInboundRouteOptions as UpdateInboundRouteBody } from "./generated.js";
import type { PaginationOptions } from "./types.js";

export type {
  CreateInboundRouteOptions,
  EmailMetrics,
  EmailMetricsRow,
  EmailMetricsTotals,
  InboundRoute,
  InboundRouteHeaderMatch,
  InboundRouteMatch,
  InboundRouteTest,
  Log,
  LogListItem,
  TestInboundRouteOptions,
  Usage,
} from "./generated.js";

// ---------------------------------------------------------------------------------------------------------------
// The request log

export interface ListLogsOptions extends PaginationOptions {
  /** Only the requests answered with this HTTP status. */
  status?: number;
  /** GET, POST, PATCH, PUT or DELETE. */
  method?: string;
  /** Only the requests made with this key. */
  api_key_id?: string;
  /** A path as entries name it (no /v1), or its start at a "/": "/emails" is /emails and every /emails/<id>. */
  endpoint?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Email metrics

export type EmailMetric = EmailMetrics["metrics"][number];
export type EmailMetricsDimension = EmailMetrics["dimensions"][number];

export interface GetEmailMetricsOptions {
  /** ISO 8601 date or date-time, or a Date (default: 6 days before `end_date`). */
  start_date?: string | Date;
  /** ISO 8601 date (the whole day) or date-time, or a Date (default: now). */
  end_date?: string | Date;
  /** `UTC` only. */
  timezone?: string;
  /** The period size with the `period` dimension (default `daily`). */
  granularity?: EmailMetrics["granularity"];
  /** The metrics to answer (default: all). */
  metrics?: EmailMetric[];
  /** `["period"]` answers one row per period besides the totals. */
  dimensions?: EmailMetricsDimension[];
  domain_id?: string[];
  email_id?: string[];
  broadcast_id?: string[];
}

// ---------------------------------------------------------------------------------------------------------------
// Inbound routes

export interface UpdateInboundRouteOptions extends UpdateInboundRouteBody {
  id: string;
}
