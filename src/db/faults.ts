/**
 * Store faults the caller can do nothing about but wait: the disk is full, or the store cannot be read or
 * written. Invariant: they reach clients as `service_unavailable` (HTTP 503 / SMTP 4xx, never a bounce), with
 * nothing internal in the message; the engine's error stays the cause, for the log.
 */
import { AppError } from "../errors.ts";

/** Seconds a client is asked to wait before trying again after a store fault. */
const RETRY_AFTER_SECONDS = 30;

/** SQLite's result codes (https://sqlite.org/rescode.html): FULL is the disk, IOERR_* and CANTOPEN the file. */
function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}

/** The fault as an AppError, or undefined when `error` is not a store fault. */
function storeFault(error: unknown): AppError | undefined {
  if (error instanceof AppError) return undefined;
  const code = sqliteCode(error);
  if (code === "SQLITE_FULL") {
    return new AppError("service_unavailable", "The server's storage is full; nothing was stored. Try again later.", {
      condition: "storage_full",
      retryAfter: RETRY_AFTER_SECONDS,
      cause: error,
    });
  }
  if (code?.startsWith("SQLITE_IOERR") || code === "SQLITE_CANTOPEN") {
    return new AppError("service_unavailable", "The server's storage is unavailable; nothing was stored. Try again later.", { retryAfter: RETRY_AFTER_SECONDS, cause: error });
  }
  return undefined;
}

/** `error` itself, or its store fault. */
export function asStoreFault(error: unknown): unknown {
  return storeFault(error) ?? error;
}
