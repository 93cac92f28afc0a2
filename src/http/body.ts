/**
 * Reads JSON request bodies: the one body parser of the API. Invariants: a body over the size limit is refused
 * (413) before it is buffered whole; a body that arrives slower than the minimum rate is cut off, so a trickling
 * client cannot hold a request open for minutes; JSON nested deeper than `MAX_JSON_DEPTH` is refused before it is
 * parsed, so no later walk over it (idempotency hashing, validation) can exhaust the stack; anything that is not
 * JSON is a 400 `validation_error`, never a 500; a body that does not fit its route's documented schema is one too.
 */
import type { Config } from "../config/options.ts";
import type { Static, TSchema } from "@sinclair/typebox";
import { AppError, validationError } from "../errors.ts";
import { checkBody } from "../shape-check.ts";
import { traceOf } from "./request-trace.ts";

/** Deep enough for every request shape of the API (a send body nests four levels), far below any stack limit. */
export const MAX_JSON_DEPTH = 32;

export interface BodyLimits {
  maxBytes: number;
  /** Time allowed for a body before `minBytesPerSecond` starts to count. */
  timeoutMs: number;
  /** Each byte received extends the deadline by 1/minBytesPerSecond seconds. */
  minBytesPerSecond: number;
}

export function bodyLimits(config: Config): BodyLimits {
  return {
    maxBytes: config.http.max_body_bytes,
    timeoutMs: config.http.body_timeout,
    minBytesPerSecond: config.http.body_min_rate,
  };
}

/** `anyContentType`: for senders that post JSON under another type (Amazon SNS says text/plain). */
export async function readJsonBody(
  request: Request,
  limits: BodyLimits,
  options: { anyContentType?: boolean } = {},
): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (declared > limits.maxBytes) throw tooLarge(limits.maxBytes);
  const type = request.headers.get("content-type") ?? "";
  if (!options.anyContentType && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw new AppError("validation_error", "Send the body as JSON with Content-Type: application/json.", {
      details: [{ path: "", message: "Content-Type must be application/json" }],
    });
  }
  const bytes = await readLimited(request, limits);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw validationError(
      [{ path: "", message: "the body is not valid UTF-8" }],
      "The request body is not valid UTF-8.",
    );
  }
  if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
    throw validationError(
      [{ path: "", message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` }],
      `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw validationError([{ path: "", message: "invalid JSON" }], "The request body is not valid JSON.");
  }
  // For the request log, even when the route then refuses it (http/request-trace.ts).
  traceOf(request).body = parsed;
  return parsed;
}

/** Failures that leave the rest of a body unread: the connection must close after the answer, or the server would
 * go on waiting for bytes nobody reads. */
const abandoned = new WeakSet<AppError>();
const abandon = (error: AppError) => (abandoned.add(error), error);
export const leftBodyUnread = (error: unknown): boolean => error instanceof AppError && abandoned.has(error);

const tooLarge = (maxBytes: number) =>
  new AppError("payload_too_large", `The request body is larger than ${maxBytes} bytes.`);

/** True when brackets outside strings nest deeper than `max`; one pass, no recursion. */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

async function readLimited(request: Request, limits: BodyLimits): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  const started = Date.now();
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    for (;;) {
      const deadline = started + limits.timeoutMs + (size / limits.minBytesPerSecond) * 1000;
      const timedOut = new Promise<"timeout">(
        (resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()), "timeout")),
      );
      const next = await Promise.race([reader.read(), timedOut]);
      clearTimeout(timer);
      if (next === "timeout") {
        reader.cancel().catch(() => {});
        throw abandon(
          validationError(
            [{ path: "", message: "the body arrived too slowly" }],
            `The request body did not arrive in time (allowed: ${limits.timeoutMs / 1000} s plus 1 s per ${limits.minBytesPerSecond} bytes).`,
          ),
        );
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > limits.maxBytes) {
        reader.cancel().catch(() => {});
        throw abandon(tooLarge(limits.maxBytes));
      }
      chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads a body and checks it against `schema`, the one its route documents (shape-check.ts), so the handler
 * gets the schema's type. `rules`, the area's semantic checks over the typed value, report with unknown fields in
 * one answer; with `optional`, a request without a body reads as `{}`.
 */
export async function readBody<S extends TSchema, R = Static<S>>(
  request: Request,
  limits: BodyLimits,
  schema: S,
  options: { optional?: boolean; rules?: (value: Static<S>) => R | Promise<R> } = {},
): Promise<R> {
  const body =
    options.optional && !request.headers.get("content-type") && (request.headers.get("content-length") ?? "0") === "0"
      ? {}
      : await readJsonBody(request, limits);
  return checkBody(schema, body, options.rules ?? ((value) => value as R));
}
