/**
 * The request log's writer (docs/logs-and-mcp.md#the-request-log): the HTTP root hands it each finished API request
 * made with a key; it keeps the row in memory — bodies already redacted and bounded (redact.ts) — and writes what
 * gathered in one insert per `FLUSH_MS` or per `MAX_BATCH` rows, through the store's writer like any other write.
 *
 * Invariants: never a write per request, and never one inside a request's transaction — a request's answer never
 * waits on its log row; at most `MAX_PENDING` rows wait in memory (beyond that a row is dropped and counted, so a
 * store that stalls cannot grow the heap); `stop()` writes what is pending before the store closes. A row that
 * could not be written is dropped with a warning: the log is a debugging aid, never a reason to fail or retry mail.
 */
import type { KeyMode } from "../access.ts";
import { forRows, perConnection, placeholders, prepareAs } from "../db/prepared.ts";
import { tablesOf, type Db, type Writer } from "../db/store.ts";
import { isoTime, type Clock } from "../lib/clock.ts";
import { newId } from "../lib/ids.ts";
import type { Logger } from "../lib/logger.ts";
import type { Metrics } from "../lib/metrics.ts";
import { storedBody } from "./redact.ts";

/** How long a row may wait before its batch is written. */
const FLUSH_MS = 250;
/** Rows per insert: a batch this big is written at once. */
const MAX_BATCH = 500;
/** Rows held at most while the store is slow; beyond, new rows are dropped (and counted). */
const MAX_PENDING = 20_000;
/** Longest user agent kept. */
const MAX_USER_AGENT = 500;

export interface FinishedRequest {
  organizationId: string;
  apiKeyId: string;
  mode: KeyMode;
  /** The path without `/v1` (Resend's `/emails/<id>`); other paths as they are. */
  endpoint: string;
  method: string;
  status: number;
  userAgent: string | null;
  requestBody: unknown;
  responseBody: unknown;
}

export interface RequestRecorder {
  /** Takes a finished request; returns at once. */
  record(request: FinishedRequest): void;
  /** Writes what is pending now (tests, shutdown). */
  flush(): Promise<void>;
  /** Writes what is pending and takes no more. */
  stop(): Promise<void>;
}

type Row = typeof import("../db/schema/logs.ts").requestLogs.$inferInsert;

/**
 * SQLite's insert of one row, prepared once per connection: a batch runs it per row inside its transaction, which
 * costs a fraction of building one 500-row insert with the builder (db/prepared.ts); PostgreSQL takes multi-row ones.
 */
const insertRow = perConnection((tx: Db) =>
  prepareAs(
    "request_log_insert",
    tx
      .insert(tablesOf(tx).requestLogs)
      .values(
        placeholders([
          "id",
          "organizationId",
          "apiKeyId",
          "mode",
          "createdAt",
          "endpoint",
          "method",
          "responseStatus",
          "userAgent",
          "requestBody",
          "responseBody",
        ]),
      ),
  ),
);

export function createRequestRecorder(deps: {
  writer: Writer;
  clock: Clock;
  logger: Logger;
  metrics: Metrics;
  enabled: boolean;
}): RequestRecorder {
  const { writer, clock, logger, metrics } = deps;
  metrics.counter("mailroom_request_log_dropped_total", "Request log rows dropped (store too slow, or failing)");
  let pending: Row[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  let stopped = !deps.enabled;

  const writeBatch = async (rows: Row[]) => {
    try {
      await writer.write(async (tx) => {
        const { requestLogs } = tablesOf(tx);
        await forRows(tx, rows, {
          each: (row) => insertRow(tx).execute(row),
          many: (slice) => tx.insert(requestLogs).values(slice),
        });
      });
    } catch (error) {
      metrics.inc("mailroom_request_log_dropped_total", {}, rows.length);
      logger.warn("request log: rows not written", { rows: rows.length, error: (error as Error).message });
    }
  };

  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    while (pending.length) {
      const rows = pending.splice(0, MAX_BATCH);
      // One batch after another: rows go in in the order they came.
      writing = writing.then(() => writeBatch(rows));
    }
    pending = [];
    return writing;
  };

  return {
    record(request) {
      if (stopped) return;
      if (pending.length >= MAX_PENDING) {
        metrics.inc("mailroom_request_log_dropped_total");
        return;
      }
      const now = clock.now();
      pending.push({
        id: newId(),
        organizationId: request.organizationId,
        apiKeyId: request.apiKeyId,
        mode: request.mode,
        createdAt: isoTime(now),
        endpoint: request.endpoint.slice(0, 2_000),
        method: request.method,
        responseStatus: request.status,
        userAgent: request.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
        requestBody: storedBody(request.requestBody),
        responseBody: storedBody(request.responseBody),
      });
      if (pending.length >= MAX_BATCH) void flush();
      else timer ??= setTimeout(() => void flush(), FLUSH_MS);
    },
    flush,
    async stop() {
      stopped = true;
      await flush();
    },
  };
}
