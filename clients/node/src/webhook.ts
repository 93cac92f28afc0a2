/**
 * Standard Webhooks verification (the scheme Mailroom signs with, as Resend and Svix do): the HMAC-SHA256 of
 * `${webhook-id}.${webhook-timestamp}.${raw body}` under the endpoint's secret, base64, sent as `v1,<signature>` in a
 * space-separated `webhook-signature` list (`svix-*` headers accepted too). It owns the secret's decoding, the
 * timestamp window that stops replays, and the constant-time comparison; any one valid signature passes, because
 * during a secret rotation both the old and the new secret sign.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { WebhookPayload } from "./types.js";

/** Default largest distance between the signature's timestamp and now, in seconds. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

const SECRET_PREFIX = "whsec_";

export type WebhookVerificationReason =
  | "missing_headers"
  | "invalid_timestamp"
  | "timestamp_too_old"
  | "timestamp_too_new"
  | "no_matching_signature"
  | "invalid_payload";

export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError" as const;
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * The request's headers in any of the forms servers hand them over: a fetch `Headers`, Node's `req.headers`
 * (lower-cased, values possibly arrays), or a plain object with any casing.
 */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface WebhookOptions {
  /** Seconds the timestamp may differ from now (default 300). */
  tolerance?: number;
}

/** The bytes of a `whsec_<base64>` secret (a bare base64 key, without the prefix, is accepted too). */
function secretBytes(secret: string | Uint8Array): Buffer {
  if (typeof secret !== "string") return Buffer.from(secret);
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded))
    throw new TypeError("The webhook secret must be `whsec_` followed by base64.");
  return Buffer.from(encoded, "base64");
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function" && typeof (headers as Headers).forEach === "function") {
    return (headers as Headers).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  let value = record[name];
  if (value === undefined) {
    const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
    value = key === undefined ? undefined : record[key];
  }
  return Array.isArray(value) ? value.join(" ") : value;
}

const payloadBytes = (payload: string | Uint8Array): Buffer =>
  typeof payload === "string" ? Buffer.from(payload, "utf8") : Buffer.from(payload);

export class Webhook {
  private readonly key: Buffer;
  private readonly tolerance: number;

  constructor(secret: string | Uint8Array, options: WebhookOptions = {}) {
    this.key = secretBytes(secret);
    this.tolerance = options.tolerance ?? DEFAULT_TOLERANCE_SECONDS;
  }

  /**
   * The parsed payload when one of the request's signatures is valid and recent; a `WebhookVerificationError`
   * otherwise. `payload` must be the raw body as received: re-serialised JSON no longer matches its signature.
   */
  verify<D = Record<string, unknown>>(
    payload: string | Uint8Array,
    headers: WebhookHeaders,
    now: Date = new Date(),
  ): WebhookPayload<D> {
    const id = header(headers, "webhook-id") ?? header(headers, "svix-id");
    const timestamp = header(headers, "webhook-timestamp") ?? header(headers, "svix-timestamp");
    const signatures = header(headers, "webhook-signature") ?? header(headers, "svix-signature");
    if (!id || !timestamp || !signatures) {
      throw new WebhookVerificationError(
        "missing_headers",
        "Missing webhook-id, webhook-timestamp or webhook-signature header.",
      );
    }
    if (!/^\d+$/.test(timestamp.trim()))
      throw new WebhookVerificationError(
        "invalid_timestamp",
        "The webhook-timestamp header is not a Unix time in seconds.",
      );
    const sentAt = Number(timestamp.trim());
    const nowSeconds = Math.floor(now.getTime() / 1000);
    if (sentAt < nowSeconds - this.tolerance)
      throw new WebhookVerificationError("timestamp_too_old", "The webhook timestamp is too old.");
    if (sentAt > nowSeconds + this.tolerance)
      throw new WebhookVerificationError("timestamp_too_new", "The webhook timestamp is in the future.");

    const body = payloadBytes(payload);
    const expected = this.signatureBytes(id, timestamp.trim(), body);
    const matches = signatures
      .split(" ")
      .filter((entry) => entry.startsWith("v1,"))
      .some((entry) => {
        const given = Buffer.from(entry.slice(3), "base64");
        return given.length === expected.length && timingSafeEqual(given, expected);
      });
    if (!matches)
      throw new WebhookVerificationError("no_matching_signature", "No webhook signature matches the payload.");

    try {
      return JSON.parse(body.toString("utf8")) as WebhookPayload<D>;
    } catch {
      throw new WebhookVerificationError("invalid_payload", "The webhook payload is not JSON.");
    }
  }

  /** The `webhook-signature` value for a payload (`v1,<base64>`): for testing a receiver without a server. */
  sign(id: string, timestamp: Date | number, payload: string | Uint8Array): string {
    const seconds = typeof timestamp === "number" ? Math.floor(timestamp) : Math.floor(timestamp.getTime() / 1000);
    return `v1,${this.signatureBytes(id, String(seconds), payloadBytes(payload)).toString("base64")}`;
  }

  private signatureBytes(id: string, timestamp: string, body: Buffer): Buffer {
    return createHmac("sha256", this.key).update(`${id}.${timestamp}.`).update(body).digest();
  }
}
