/**
 * The request log's writer (docs/logs-and-mcp.md#the-request-log): the HTTP root hands it each finished API request
 * made with a key; it keeps the row in memory — bodies already redacted and bounded (redact.ts) — and writes what
 * gathered in one batch per `FLUSH_MS` or per `MAX_BATCH` rows: on SQLite appended by the content thread (the store's
 * `appendRows`), so the inserts never run on the event loop; elsewhere through the store's writer.
 *
 * Invariants: never a write per request, and never one inside a request's transaction — a request's answer never
 * waits on its log row; at most `MAX_PENDING` rows wait in memory (beyond that a row is dropped and counted, so a
 * store that stalls cannot grow the heap); `stop()` writes what is pending before the store closes. A row that
 * could not be written is dropped with a warning: the log is a debugging aid, never a reason to fail or retry mail.
 */
import type { KeyMode } from "../access.ts";
import { sql } from "drizzle-orm";
import { rawRows } from "../db/dialect.ts";
import { chunks, ROWS_PER_INSERT } from "../db/prepared.ts";
import { APPEND_TABLES, type AppendRow, type Db, type Writer } from "../db/store.ts";
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

/** A row's values in `APPEND_TABLES.request_logs` order (db/store.ts); the bodies as JSON text. */
type Row = AppendRow;

/**
 * Without the store's `appendRows` (PostgreSQL, an in-memory SQLite): the rows in multi-row inserts through the
 * writer. Plain parameters, not the schema's JSON columns, since the bodies are JSON text already: PostgreSQL reads
 * a text parameter into its JSONB column, SQLite keeps it as it is.
 */
async function insertThroughWriter(tx: Db, rows: Row[]): Promise<void> {
  const columns = sql.raw(APPEND_TABLES.request_logs.join(", "));
  for (const slice of chunks(rows, ROWS_PER_INSERT)) {
    const values = sql.join(
      slice.map(
        (row) =>
          sql`(${sql.join(
            row.map((value) => sql`${value}`),
            sql`, `,
          )})`,
      ),
      sql`, `,
    );
    await rawRows(tx, sql`INSERT INTO request_logs (${columns}) VALUES ${values}`);
  }
}

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
      if (writer.appendRows) await writer.appendRows("request_logs", rows);
      else await writer.write((tx) => insertThroughWriter(tx, rows));
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
      pending.push([
        newId(),
        request.organizationId,
        request.apiKeyId,
        request.mode,
        isoTime(clock.now()),
        request.endpoint.slice(0, 2_000),
        request.method,
        request.status,
        request.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
        storedBody(request.requestBody),
        storedBody(request.responseBody),
      ]);
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
