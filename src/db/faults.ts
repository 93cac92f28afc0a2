/**
 * Store faults the caller can do nothing about but wait: the disk is full, or the store cannot be read or
 * written. Invariant: they reach clients as `service_unavailable` (HTTP 503 / SMTP 4xx, never a bounce), with
 * nothing internal in the message; the engine's error stays the cause, for the log.
 */
import { AppError } from "../errors.ts";

/** Seconds a client is asked to wait before trying again after a store fault. */
const RETRY_AFTER_SECONDS = 30;

/**
 * The engine's error code, looking through drizzle's wrapper ("Failed query: …", the driver's error as cause);
 * `connection` for the driver's own connection failures, which carry no code.
 */
export function engineCode(error: unknown): string | undefined {
  for (
    let current = error, depth = 0;
    current && depth < 4;
    current = (current as { cause?: unknown }).cause, depth++
  ) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    if (
      current instanceof Error &&
      /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
        current.message,
      )
    )
      return "connection";
  }
  return undefined;
}

/**
 * The disk is full: SQLite's SQLITE_FULL, PostgreSQL's disk_full (53100).
 * Unavailable: SQLite's IOERR_*, CANTOPEN and READONLY_* (the file, or a file system remounted read-only after
 * errors, https://sqlite.org/rescode.html); for PostgreSQL the connection failed or was cut (class 08, the server
 * shutting down 57P0x, too many connections 53300, out of memory 53200, and the socket's own errors) or the
 * server is a read-only standby (25006, during a failover).
 */
const isFull = (code: string) => code === "SQLITE_FULL" || code === "53100";
const isUnavailable = (code: string) =>
  code.startsWith("SQLITE_IOERR") ||
  code === "SQLITE_CANTOPEN" ||
  code.startsWith("SQLITE_READONLY") ||
  code === "25006" ||
  code.startsWith("08") ||
  code.startsWith("57P0") ||
  code === "53300" ||
  code === "53200" ||
  ["connection", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND"].includes(code);

/**
 * A unique key taken by a write that committed first: PostgreSQL's unique_violation (23505), SQLite's UNIQUE and
 * PRIMARY KEY constraints. A check-then-insert inside one transaction meets it when another instance's (or
 * connection's) transaction did the same at the same moment — SQLite's single writer never lets that happen,
 * PostgreSQL's concurrent transactions do.
 */
const isTaken = (code: string) =>
  code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";

/** PostgreSQL text cannot hold NUL (22021), nor bytes invalid in UTF-8 (22P05); SQLite stores both. */
const isUnstorableText = (code: string) => code === "22021" || code === "22P05";

/** The fault as an AppError, or undefined when `error` is not a store fault. */
function storeFault(error: unknown): AppError | undefined {
  if (error instanceof AppError) return undefined;
  const code = engineCode(error);
  if (code === undefined) return undefined;
  if (isTaken(code))
    return new AppError(
      "conflict",
      "This conflicts with a change made at the same moment; read the current state and try again.",
      { cause: error },
    );
  if (isUnstorableText(code))
    return new AppError("validation_error", "The request holds a NUL or otherwise invalid character.", {
      cause: error,
    });
  if (isFull(code)) {
    return new AppError("service_unavailable", "The server's storage is full; nothing was stored. Try again later.", {
      condition: "storage_full",
      retryAfter: RETRY_AFTER_SECONDS,
      cause: error,
    });
  }
  if (isUnavailable(code)) {
    return new AppError(
      "service_unavailable",
      "The server's storage is unavailable; nothing was stored. Try again later.",
      { retryAfter: RETRY_AFTER_SECONDS, cause: error },
    );
  }
  return undefined;
}

/** `error` itself, or its store fault. */
export function asStoreFault(error: unknown): unknown {
  return storeFault(error) ?? error;
}

/** The store cannot take writes now (full, unreachable, read-only) but may soon; any other error would recur. */
export function isStoreUnavailable(error: unknown): boolean {
  const fault = asStoreFault(error);
  return fault instanceof AppError && fault.name === "service_unavailable";
}
