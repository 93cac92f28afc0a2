/**
 * What the request log keeps of a body (docs/logs-and-mcp.md#what-is-redacted): the JSON with every secret replaced by
 * `"[redacted]"` and its size bounded. Secrets are found by the field's name on every route — keys and tokens,
 * passwords, signing and TOTP secrets, one-time codes, attachment content, signed download links — and by their look
 * wherever they stand (a Mailroom key or a webhook signing secret pasted into a subject). Then long strings are cut
 * and a body still over `MAX_STORED_BYTES` is stored as a note of its size.
 *
 * Invariants: pure (no I/O); what comes out never holds a value that stood under a secret field's name; the walk
 * visits each node once, and its depth is bounded by the body reader's (http/body.ts MAX_JSON_DEPTH), so it never
 * recurses past the stack.
 */

export const REDACTED = "[redacted]";
/** Stored bodies at most this many bytes of JSON each: a log row stays small whatever was sent. */
export const MAX_STORED_BYTES = 32 * 1024;
/** A string longer than this is cut (html and text bodies): the log shows what was sent, not all of it. */
const MAX_STRING = 2_000;

/**
 * Field names whose values are secrets, compared lower-cased without `_` and `-`: `api_key`, `apiKey` and `api-key`
 * are one name. `content` is an attachment's (base64) body; `code` a TOTP or recovery code. Not `key`: a template
 * variable's name is its `key`, and a Mailroom key is caught by its look wherever it stands.
 */
const SECRET_NAMES = new Set(
  [
    "token",
    "api_key",
    "access_token",
    "refresh_token",
    "id_token",
    "client_secret",
    "secret",
    "signing_secret",
    "password",
    "current_password",
    "new_password",
    "old_password",
    "authorization",
    "private_key",
    "code",
    "totp",
    "totp_code",
    "otp",
    "recovery_code",
    "recovery_codes",
    "otpauth_url",
    "content",
    "download_url",
    "session",
  ].map((name) => name.replace(/[_-]/g, "")),
);

/** Names that hold a secret whatever else they say: `smtp_password`, `webhook_secret`, `x_api_token`. */
const SECRET_PART = /password|secret|token|apikey|privatekey/;

/** Credentials recognised by their look wherever they appear: Mailroom API keys and webhook signing secrets. */
const SECRET_VALUE = /\bmr_(?:live|test)_[A-Za-z0-9_-]+|\bwhsec_[A-Za-z0-9+/=_-]+/g;

export function isSecretName(name: string): boolean {
  const bare = name.toLowerCase().replace(/[_-]/g, "");
  return SECRET_NAMES.has(bare) || SECRET_PART.test(bare);
}

function redactString(value: string): string {
  const plain = value.replace(SECRET_VALUE, REDACTED);
  return plain.length > MAX_STRING
    ? `${plain.slice(0, MAX_STRING)}… [${plain.length - MAX_STRING} more characters]`
    : plain;
}

/** `value` with every secret replaced and every long string cut. */
export function redact(value: unknown): unknown {
  if (typeof value === "string") return redactString(value);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => redact(item));
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    // null and false say there is none; anything else under a secret's name goes.
    out[name] = isSecretName(name) && item !== null && item !== false ? REDACTED : redact(item);
  }
  return out;
}

/**
 * What the log stores of a body, as JSON text: redacted, and over MAX_STORED_BYTES only its size. Undefined (no
 * body) is null. Text, because measuring the size already wrote it: the row's insert takes it as it is.
 */
export function storedBody(value: unknown): string | null {
  if (value === undefined) return null;
  const json = JSON.stringify(redact(value)) ?? "null";
  const bytes = Buffer.byteLength(json);
  if (bytes <= MAX_STORED_BYTES) return json;
  return JSON.stringify({
    truncated: true,
    bytes,
    message: `The body was ${bytes} bytes of JSON; the log keeps up to ${MAX_STORED_BYTES}.`,
  });
}
