/**
 * The transport: one place that turns a call into HTTP requests against `<baseUrl>/v1/…` and the answer into
 * `{data, error, headers}`. It owns authentication, the User-Agent, timeouts, the opt-in retries (429 after
 * `Retry-After`, 5xx and network failures with exponential backoff and jitter; never another 4xx) and the rule
 * that a retried send reuses one idempotency key, so a retry can never send a message twice.
 */
import { randomUUID } from "node:crypto";
import { errorFromAnswer, MailroomError } from "./errors.js";
import type { MailroomResponse, RequestOptions } from "./types.js";
import { VERSION } from "./version.js";

export const DEFAULT_BASE_URL = "http://127.0.0.1:3000";
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_USER_AGENT = `mailroom-node/${VERSION}`;

/** The part of `fetch` the client uses: any implementation with this signature can stand in for the global one. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface ClientOptions {
  /** Where Mailroom listens, without `/v1` (a trailing `/v1` is tolerated). Default `MAILROOM_BASE_URL` or http://127.0.0.1:3000. */
  baseUrl?: string;
  /** Milliseconds one attempt may take, answer included (default 30 000). */
  timeout?: number;
  /** Retries after a 429, a 5xx, a network failure or a timeout (default 0: off). */
  maxRetries?: number;
  /** Longest single wait between attempts, in milliseconds (default 60 000); a longer `Retry-After` is not waited for. */
  maxRetryDelay?: number;
  /** Replaces `mailroom-node/<version>`. */
  userAgent?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** A fetch implementation to use instead of the global one. */
  fetch?: FetchLike;
}

type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestSpec extends RequestOptions {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** The path under `/v1`, its parameters already encoded. */
  path: string;
  query?: Query;
  body?: unknown;
  /** A multipart body instead of JSON (the contact import's upload); fetch writes its content type. */
  form?: FormData;
  idempotencyKey?: string;
  /** The request creates mail: with retries on, it gets an idempotency key when the caller gave none. */
  idempotent?: boolean;
  /** `text` for the raw-message endpoints (message/rfc822). */
  responseType?: "json" | "text";
}

/** First backoff step and its cap; each retry doubles the step, then jitter spreads clients apart. */
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;

/** Reasons for aborting an attempt, told apart by identity. */
const TIMED_OUT = Symbol("timeout");
const CALLER_ABORTED = Symbol("aborted");

/** Encodes one path segment (an id, an alias, an address). */
export const segment = (value: string): string => encodeURIComponent(value);

/** Seconds from a `Retry-After` header: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

export function backoffDelay(retry: number): number {
  const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** retry);
  // Half fixed, half random: never a zero wait, and clients that failed together do not retry together.
  return step / 2 + Math.random() * (step / 2);
}

const isRetryable = (error: MailroomError): boolean =>
  error.name === "network_error" ||
  error.name === "timeout" ||
  (error.statusCode !== null && (error.statusCode === 429 || error.statusCode >= 500));

function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const abortedError = () => new MailroomError({ name: "aborted", message: "The request was aborted by the caller." });

export class Transport {
  private readonly baseUrl: string;
  private readonly timeout: number;
  private readonly maxRetries: number;
  private readonly maxRetryDelay: number;
  private readonly headers: Record<string, string>;
  private readonly fetchImpl: FetchLike;

  constructor(apiKey: string, options: ClientOptions = {}) {
    const base = options.baseUrl ?? envOf("MAILROOM_BASE_URL") ?? DEFAULT_BASE_URL;
    // Resend users pass `…/v1`; the paths below add it, so one given here would be doubled.
    this.baseUrl = base.replace(/\/+$/, "").replace(/\/v1$/, "");
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = Math.max(0, Math.floor(options.maxRetries ?? 0));
    this.maxRetryDelay = options.maxRetryDelay ?? 60_000;
    this.fetchImpl = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.headers = {
      accept: "application/json",
      "user-agent": options.userAgent ?? DEFAULT_USER_AGENT,
      ...lowerCased(options.headers ?? {}),
      authorization: `Bearer ${apiKey}`,
    };
  }

  async request<T>(spec: RequestSpec): Promise<MailroomResponse<T>> {
    const idempotencyKey = spec.idempotencyKey ?? (spec.idempotent && this.maxRetries > 0 ? randomUUID() : undefined);
    const url = this.url(spec.path, spec.query);
    const headers: Record<string, string> = { ...this.headers, ...lowerCased(spec.headers ?? {}) };
    if (spec.body !== undefined && !spec.form) headers["content-type"] = "application/json";
    if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey;
    const body = spec.form ?? (spec.body === undefined ? undefined : JSON.stringify(spec.body));

    for (let retry = 0; ; retry++) {
      const result = await this.attempt<T>(spec, url, headers, body);
      if (!result.error || retry >= this.maxRetries || !isRetryable(result.error)) return result;
      const wait =
        result.error.statusCode === 429 && result.error.retryAfter !== null
          ? result.error.retryAfter * 1000
          : backoffDelay(retry);
      // A wait longer than the caller allows is the caller's decision to make: hand the error back now.
      if (wait > this.maxRetryDelay) return result;
      if (!(await sleep(wait, spec.signal))) return { data: null, error: abortedError(), headers: null };
    }
  }

  private url(path: string, query: Query | undefined): string {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {}))
      if (value !== undefined && value !== null) search.set(key, String(value));
    const qs = search.toString();
    return `${this.baseUrl}/v1${path}${qs ? `?${qs}` : ""}`;
  }

  private async attempt<T>(
    spec: RequestSpec,
    url: string,
    headers: Record<string, string>,
    body: string | FormData | undefined,
  ): Promise<MailroomResponse<T>> {
    if (spec.signal?.aborted) return { data: null, error: abortedError(), headers: null };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(TIMED_OUT), this.timeout);
    const onCallerAbort = () => controller.abort(CALLER_ABORTED);
    spec.signal?.addEventListener("abort", onCallerAbort, { once: true });
    try {
      // Mailroom's API never redirects: following a redirect would hand the API key to wherever it points.
      const response = await this.fetchImpl(url, {
        method: spec.method,
        headers,
        body,
        signal: controller.signal,
        redirect: "manual",
      });
      // The body is read under the same timeout: a server that sends headers and then stalls is a timeout too.
      const text = await response.text();
      const answerHeaders = headersOf(response.headers);
      if (response.status < 200 || response.status >= 300) {
        return {
          data: null,
          error: errorFromAnswer(
            response.status,
            response.statusText,
            text,
            parseRetryAfter(response.headers.get("retry-after")),
          ),
          headers: answerHeaders,
        };
      }
      if (spec.responseType === "text") return { data: text as T, error: null, headers: answerHeaders };
      if (text === "") return { data: null as T, error: null, headers: answerHeaders };
      try {
        return { data: JSON.parse(text) as T, error: null, headers: answerHeaders };
      } catch (cause) {
        const error = new MailroomError({
          name: "application_error",
          message: `The server answered ${response.status} with a body that is not JSON.`,
          statusCode: response.status,
          cause,
        });
        return { data: null, error, headers: answerHeaders };
      }
    } catch (cause) {
      if (controller.signal.reason === TIMED_OUT) {
        return {
          data: null,
          error: new MailroomError({ name: "timeout", message: `No answer within ${this.timeout} ms.`, cause }),
          headers: null,
        };
      }
      if (controller.signal.reason === CALLER_ABORTED) return { data: null, error: abortedError(), headers: null };
      const reason = cause instanceof Error ? cause.message : String(cause);
      return {
        data: null,
        error: new MailroomError({
          name: "network_error",
          message: `Could not reach ${this.baseUrl}: ${reason}`,
          cause,
        }),
        headers: null,
      };
    } finally {
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onCallerAbort);
    }
  }
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
}

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/** An environment variable where there is an environment (not in a browser or a worker). */
export function envOf(name: string): string | undefined {
  const value = typeof process === "undefined" ? undefined : process.env?.[name];
  return value === "" ? undefined : value;
}
