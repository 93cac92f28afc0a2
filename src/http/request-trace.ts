/**
 * What one request did, as the request log records it (docs/logs-and-mcp.md#the-request-log): who made it (set once
 * authenticated, before its rate check, so a 429 is recorded too), the JSON body the one body reader parsed, and the
 * answer its route or the error mapping gave. Kept beside the request itself and gone with it; nothing here is
 * written anywhere — the HTTP root hands a finished trace to the request log.
 */
import type { Actor } from "../access.ts";

export interface RequestTrace {
  actor?: Actor;
  /** The parsed JSON body; undefined when the request had none, or one that was not JSON. */
  body?: unknown;
  /** The JSON answer; undefined for a body that is not JSON (a raw message, a file). */
  answer?: unknown;
}

const traces = new WeakMap<Request, RequestTrace>();

/** The trace of `request`, begun on first use. */
export function traceOf(request: Request): RequestTrace {
  let trace = traces.get(request);
  if (!trace) {
    trace = {};
    traces.set(request, trace);
  }
  return trace;
}

/** The trace of `request` if anything was traced. */
export const tracedOf = (request: Request): RequestTrace | undefined => traces.get(request);
