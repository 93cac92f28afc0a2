/**
 * Turns any failure into the contract's error body (docs/errors.md) through the one error table.
 * Invariant: the body never carries stack traces, SQL or configuration; unknown errors become
 * `internal_error` with the request id, and their cause goes to the log only.
 */
import { asStoreFault } from "../db/faults.ts";
import { type AppError, ERROR_TABLE, toAppError } from "../errors.ts";
import type { Logger } from "../lib/logger.ts";

export interface ErrorBody {
  error: string;
  name: string;
  message: string;
  statusCode: number;
  details?: Array<{ path: string; message: string }>;
  request_id?: string;
}

export function errorBody(error: AppError, requestId?: string): ErrorBody {
  const entry = ERROR_TABLE[error.name];
  const body: ErrorBody = { error: entry.reason, name: error.name, message: error.message, statusCode: entry.status };
  if (error.details?.length) body.details = error.details;
  if (requestId && error.name === "internal_error") body.request_id = requestId;
  return body;
}

/** Maps a thrown value to status, headers and body; logs unknown errors with their cause. */
export function describeFailure(
  thrown: unknown,
  requestId: string,
  logger: Logger,
): { status: number; headers: Record<string, string>; body: ErrorBody } {
  const error = toAppError(asStoreFault(thrown));
  if (error.name === "internal_error")
    logger.error("request failed", { request_id: requestId, err: error.cause ?? thrown });
  const headers: Record<string, string> = {};
  if (error.retryAfter !== undefined) headers["retry-after"] = String(error.retryAfter);
  return { status: error.status, headers, body: errorBody(error, requestId) };
}

/** A complete failure response (used where no framework context exists: the listener's own guard). */
export function failureResponse(
  thrown: unknown,
  requestId: string,
  logger: Logger,
  headers: Record<string, string> = {},
): Response {
  const failure = describeFailure(thrown, requestId, logger);
  return Response.json(failure.body, {
    status: failure.status,
    headers: { ...failure.headers, ...headers, "x-request-id": requestId },
  });
}
