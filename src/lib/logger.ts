/**
 * Structured JSON logs, one object per line on stderr. Invariant: secrets are never passed as fields; callers log
 * ids (email_id, key_id, request_id), never key material or message bodies.
 */

export type LogLevel = "debug" | "info" | "warn" | "error";
const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line (request id, email id). */
  child(fields: LogFields): Logger;
}

export type LogSink = (line: string) => void;

const stderrSink: LogSink = (line) => process.stderr.write(`${line}\n`);

function describeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  return {
    name: error.name,
    message: error.message,
    stack: error.stack,
    cause: error.cause ? describeError(error.cause) : undefined,
  };
}

export function createLogger(level: LogLevel = "info", sink: LogSink = stderrSink, base: LogFields = {}): Logger {
  const threshold = LEVEL_RANK[level];
  const write = (lvl: LogLevel, msg: string, fields?: LogFields) => {
    if (LEVEL_RANK[lvl] < threshold) return;
    const record: LogFields = { time: new Date().toISOString(), level: lvl, msg, ...base };
    if (fields)
      for (const [key, value] of Object.entries(fields)) record[key] = key === "err" ? describeError(value) : value;
    sink(JSON.stringify(record));
  };
  return {
    debug: (msg, fields) => write("debug", msg, fields),
    info: (msg, fields) => write("info", msg, fields),
    warn: (msg, fields) => write("warn", msg, fields),
    error: (msg, fields) => write("error", msg, fields),
    child: (fields) => createLogger(level, sink, { ...base, ...fields }),
  };
}

export const silentLogger: Logger = createLogger("error", () => {});
