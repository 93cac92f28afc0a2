/**
 * The HTTP fuzz target's requests, bar their bodies (http-bodies.ts): methods (standard, lower-case, unknown),
 * path parameters (ids earlier answers returned, uuids, percent-encodings valid and malformed, unicode, very long),
 * odd path shapes, query strings, and headers (API keys valid, revoked, of other scopes and mangled; Content-Types;
 * Idempotency-Keys; a few others with random values). Ids and keys are the run's, passed in by http.test.ts.
 */
import { randomString, type Rng } from "./prng.ts";

export const METHODS = [
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "HEAD",
  "OPTIONS",
  "TRACE",
  "CONNECT",
  "PROPFIND",
  "get",
  "post",
  "FOO",
  "M-SEARCH",
  "QUERY",
];
const MALFORMED_ESCAPES = [
  "%",
  "%zz",
  "%E0%A4%A",
  "%25",
  "%00",
  "%2F",
  "%2e%2e",
  "%C0%AF",
  "%ED%A0%80",
  "%FF",
  "%u0041",
  "%%",
  "%2",
  "%0D%0A",
  "%F0%9F%93",
  "%c3%28",
];

/** A path parameter: `knownIds` are ids that earlier answers returned. */
function paramValue(rng: Rng, knownIds: readonly string[]): string {
  if (knownIds.length && rng.chance(0.15)) return rng.pick(knownIds);
  switch (rng.int(9)) {
    case 0:
      return rng.uuid();
    case 1:
      return knownIds.length ? rng.pick(knownIds) : rng.uuid();
    case 2:
      return encodeURIComponent(randomString(rng, 40).replace(/[\ud800-\udfff]/g, "x"));
    case 3:
      // Unencoded: fetch and URL encode what they must; "/", "?" and "#" change the request's shape.
      return randomString(rng, 40);
    case 4: {
      const parts: string[] = [];
      for (let i = rng.range(1, 4); i > 0; i--)
        parts.push(rng.chance(0.6) ? rng.pick(MALFORMED_ESCAPES) : randomString(rng, 6).replace(/[^\w]/g, ""));
      return parts.join("");
    }
    case 5:
      return rng.pick([
        "é",
        "%C3%A9",
        "例え",
        "\u{1f4e7}",
        "%F0%9F%93%A7",
        "a@example.com",
        "A%40Example.COM",
        "%20",
        "+",
        ".",
        "..",
        "~",
        "null",
        "0",
      ]);
    case 6:
      return rng.pick(["a", "%41", "é", "-"]).repeat(rng.pick([300, 2000, 8000, 30_000]));
    case 7:
      return rng.uuid().toUpperCase();
    default:
      return rng.uuid().slice(0, rng.int(36)) + randomString(rng, 4).replace(/[^\w]/g, "");
  }
}

/** A route's path with its parameters filled, sometimes reshaped (slashes, dot segments, case, a prefix). */
export function fillPath(rng: Rng, path: string, knownIds: readonly string[]): string {
  let filled = path.replace(/:[^/]+/g, () => paramValue(rng, knownIds)).replace(/\*/g, () => paramValue(rng, knownIds));
  if (rng.chance(0.12)) {
    filled = rng.pick([
      () => `${filled}/`,
      () => filled.replace(/\//g, "//"),
      () => `${filled}/${paramValue(rng, knownIds)}`,
      () => filled.toUpperCase(),
      () => filled.replace("/v1/", "/v1/./"),
      () => filled.replace("/v1/", "/v2/../v1/"),
      () => `${filled};jsessionid=1`,
      () => filled.replace(/\/([^/]*)$/, "%2F$1"),
      () => `/v1${filled}`,
    ])();
  }
  // Always a path: without the leading slash the text would become part of the authority (a host to resolve).
  return filled.startsWith("/") ? filled : `/${filled}`;
}

const QUERY_KEYS = [
  "limit",
  "after",
  "before",
  "status",
  "to",
  "from",
  "tag",
  "include_revoked",
  "type",
  "email",
  "cursor",
];

/** A query string: none, a malformed one, or pairs of known and random keys and values. */
export function queryString(rng: Rng, knownIds: readonly string[]): string {
  if (rng.chance(0.55)) return "";
  if (rng.chance(0.1))
    return rng.pick([
      "?",
      "?&&&",
      "?=",
      "?%zz=%",
      "?limit",
      "?limit=&limit=",
      "?a[b]=1&a[__proto__]=2",
      "?__proto__[x]=1",
      "?constructor=1",
    ]);
  const pairs: string[] = [];
  for (let i = rng.range(1, 4); i > 0; i--) {
    const key = rng.chance(0.8)
      ? rng.pick(QUERY_KEYS)
      : encodeURIComponent(randomString(rng, 8).replace(/[\ud800-\udfff]/g, ""));
    const value = rng.pick([
      () => String(rng.pick([0, 1, 50, 100, 101, -1, 1e21, 1.5, NaN])),
      () => rng.uuid(),
      () => (knownIds.length ? rng.pick(knownIds) : "x"),
      () => rng.pick(["queued", "delivered", "bogus", "true", "false", "", "a@example.com", "A%40x.org"]),
      () => encodeURIComponent(randomString(rng, 30).replace(/[\ud800-\udfff]/g, "")),
      () => rng.pick(MALFORMED_ESCAPES),
      () => "x".repeat(rng.pick([1000, 10_000])),
    ])();
    pairs.push(`${key}=${value}`);
  }
  return `?${pairs.join("&")}`;
}

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json;charset=latin1",
  "APPLICATION/JSON",
  "application/vnd.api+json",
  "application/jsonx",
  "text/plain",
  "text/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "multipart/form-data",
  "application/octet-stream",
  "application/xml",
  "application/json; boundary=--",
  "*/*",
  ";",
  "",
];

/** Headers for a request: `keys` are the run's API keys by role (live, test, sending, reader, revoked). */
export function headersFor(rng: Rng, hasBody: boolean, keys: Readonly<Record<string, string>>): Record<string, string> {
  const headers: Record<string, string> = {};
  const auth = rng.weighted<string | null>([
    [40, `Bearer ${keys.live}`],
    [15, `Bearer ${keys.test}`],
    [5, `Bearer ${keys.sending}`],
    [5, `Bearer ${keys.reader}`],
    [4, `Bearer ${keys.revoked}`],
    [8, null],
    [3, `bearer   ${keys.live}  `],
    [3, `Basic ${Buffer.from(`apikey:${keys.live}`).toString("base64")}`],
    [3, `Bearer ${keys.live}x`],
    [3, `Bearer ${keys.live!.slice(0, 20)}`],
    [3, `Bearer ${keys.live} ${keys.test}`],
    [3, "Bearer"],
    [3, `Bearer ${randomString(rng, 60).replace(/[^\x21-\x7e]/g, "")}`],
    [1, `Bearer ${keys.live}\xe9`],
    [1, `Bearer mr_live_\xe9\xe9\xe9`],
  ]);
  if (auth !== null) headers.authorization = auth;
  if (hasBody ? rng.chance(0.85) : rng.chance(0.15))
    headers["content-type"] = rng.chance(0.7) ? "application/json" : rng.pick(CONTENT_TYPES);
  if (rng.chance(0.3)) {
    headers["idempotency-key"] = rng.weighted([
      [6, `fuzz-${rng.int(6)}`],
      [2, rng.uuid()],
      [1, "x".repeat(rng.pick([256, 257, 5000]))],
      [1, ""],
      [1, " "],
      [1, randomString(rng, 40).replace(/[^\x20-\x7e]/g, "")],
      [1, rng.pick(["cl\xe9", "\xff\xfe", "k\x80", "fuzz-0\t"])],
    ]);
  }
  if (rng.chance(0.1)) headers["x-batch-validation"] = rng.pick(["strict", "permissive", "bogus", ""]);
  if (rng.chance(0.15)) {
    for (let i = rng.range(1, 4); i > 0; i--) {
      const name = rng.pick([
        "accept",
        "accept-encoding",
        "x-forwarded-for",
        "origin",
        "cookie",
        "user-agent",
        "expect",
        "x-request-id",
        "range",
        "if-none-match",
        `x-${rng.hex(4)}`,
      ]);
      headers[name] = rng.chance(0.5)
        ? randomString(rng, 100).replace(/[^\x20-\xff]/g, "")
        : rng.pick(["*/*", "gzip, br", "100-continue", "bytes=0-1", "127.0.0.1, ::1", "x".repeat(8000), "\xe9t\xe9"]);
    }
  }
  return headers;
}
