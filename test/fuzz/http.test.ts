/**
 * Fuzzes the HTTP API: every route the app declares (read from `app.http.routes`, so a new route is covered the
 * day it lands), with random path parameters (percent-encodings valid and malformed, unicode, very long), query
 * strings, methods, headers, Content-Types and bodies (random JSON, wrong types for every send field, deep
 * nesting, huge strings, invalid UTF-8, prototype keys), with and without an API key and an Idempotency-Key.
 * Most requests go through `app.handle`; a share goes over a real loopback socket to cover Bun's listener (URLs
 * built by fetch, which percent-encodes: the fuzzer tests Mailroom, not Bun's request-line parser).
 *
 * Properties of every response: status < 500; a failure (≥ 400) has exactly the contract's error body (DESIGN
 * §2) with `statusCode` equal to the status and the table's reason; no internals in any body (stack frames,
 * paths, SQLite, JS error names); `X-Request-Id` on every response; `Allow` on a 405. Afterwards `/healthz`
 * answers 200 `{status: "ok"}`.
 *
 * Budget: FUZZ_SECONDS (default 15). Replay: FUZZ_SEED=<seed printed at start and in the failure>; every input
 * is regenerated exactly except path parameters taken from ids that earlier answers returned (which ids exist
 * depends on what earlier cases created, and 8 cases run at a time). FUZZ_VERBOSE=1 prints statuses per route.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ERROR_NAMES, ERROR_TABLE, type ErrorName } from "../../src/errors.ts";
import { createLogger } from "../../src/lib/logger.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { startDnsServer, type DnsServer } from "../helpers/dns-server.ts";
import {
  fuzzSeed,
  fuzzTimeoutMs,
  internalsIn,
  jsonText,
  randomJson,
  randomString,
  runCases,
  Violations,
  withTimeout,
  wrongType,
  type Json,
  type Rng,
} from "./prng.ts";
import { watchEventLoop } from "./loop-watchdog.ts";

const SEED = fuzzSeed();
/** A request that has not answered in this time is a hang, reported as such. */
const REQUEST_TIMEOUT_MS = 15_000;
const MAX_BODY_BYTES = 2_000_000;
/** FUZZ_VERBOSE=1 prints statuses per route (to see what the generators reach). */
const VERBOSE = !!process.env.FUZZ_VERBOSE;

let t: TestApp;
let dns: DnsServer;
let httpPort: number;
let routes: Array<{ method: string; path: string }>;
const keys: Record<string, string> = {};
/** The app's error log: a 500's cause is found by its request id and shown with the violation. */
const errorLog: string[] = [];
/** Ids seen in successful answers (emails, domains, webhooks …), reused as path parameters. */
const knownIds: string[] = [];

beforeAll(async () => {
  // Limits high enough that the fuzzer reaches the handlers instead of 429s; small body and message limits so
  // 413 paths are reached with bodies of a few megabytes.
  // A local DNS server that knows no name: domain checks and webhook URL checks answer at once (NXDOMAIN).
  // Webhook endpoints may be private so that endpoints on 127.0.0.1:1 (refused, loopback) exist and the routes
  // that take a webhook id reach real rows.
  dns = await startDnsServer();
  t = await createTestApp(
    {
      http: { max_body_bytes: MAX_BODY_BYTES },
      limits: {
        key_requests_per_minute: 10_000_000,
        org_requests_per_minute: 10_000_000,
        max_message_bytes: 1_000_000,
      },
      dns: { servers: dns.servers },
      // A webhook request is held at most 2 s, so stopping the app (which waits for requests in flight) is quick even
      // when an endpoint the fuzzer made points at a port that never answers HTTP.
      webhooks: { allow_private_networks: true, timeout: "2s" },
    },
    { logger: createLogger("error", (line) => errorLog.push(line)) },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const listeners = await t.app.start();
  httpPort = listeners.find((l) => l.name === "http")!.port;
  routes = t.app.http.routes.map((r: { method: string; path: string }) => ({ method: r.method, path: r.path }));
  const services = t.app.services.keys;
  keys.live = t.liveKey;
  keys.test = t.testKey;
  keys.sending = (await services.create(t.operator, { name: "sending", scopes: ["sending_access"], mode: "live" })).key;
  keys.reader = (await services.create(t.operator, { name: "reader", scopes: ["emails:read"], mode: "live" })).key;
  const revoked = await services.create(t.operator, { name: "revoked", scopes: ["full_access"], mode: "live" });
  await services.revoke(t.operator, revoked.id);
  keys.revoked = revoked.key;
});

// Stopping waits for requests in flight and drains the workers (a webhook request may take its 2 s timeout); on a
// loaded CI machine that can pass the default 5 s hook budget without anything being wrong.
afterAll(async () => {
  await t?.close();
  await dns?.close();
}, 20_000);

// ---------------------------------------------------------------------------------------------------------------
// Generators

const METHODS = [
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

function paramValue(rng: Rng): string {
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

function fillPath(rng: Rng, path: string): string {
  let filled = path.replace(/:[^/]+/g, () => paramValue(rng)).replace(/\*/g, () => paramValue(rng));
  if (rng.chance(0.12)) {
    filled = rng.pick([
      () => `${filled}/`,
      () => filled.replace(/\//g, "//"),
      () => `${filled}/${paramValue(rng)}`,
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

function queryString(rng: Rng): string {
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

function validSend(rng: Rng): Record<string, Json> {
  const body: Record<string, Json> = {
    from: rng.pick(["Acme <hi@example.com>", "hi@example.com", "x@unverified.example"]),
    to: rng.chance(0.5) ? "a@dest.test" : ["a@dest.test", "b@dest.test"],
    subject: "Hello",
  };
  if (rng.chance(0.8)) body.html = "<p>Hi {{unsubscribe_url}}</p>";
  if (rng.chance(0.5)) body.text = "Hi";
  if (rng.chance(0.2)) body.cc = ["c@dest.test"];
  if (rng.chance(0.2)) body.bcc = "d@dest.test";
  if (rng.chance(0.2)) body[rng.chance(0.5) ? "reply_to" : "reply-to"] = "r@example.com";
  if (rng.chance(0.2)) body.headers = { "X-Campaign": "fuzz", "List-Id": "<l.example.com>" };
  if (rng.chance(0.2)) body.attachments = [{ filename: "a.txt", content: "aGVsbG8=", content_type: "text/plain" }];
  if (rng.chance(0.2)) body.tags = [{ name: "kind", value: "fuzz" }];
  if (rng.chance(0.1)) body.scheduled_at = new Date(Date.now() + 3_600_000).toISOString();
  if (rng.chance(0.1)) body.tracking = { opens: true, clicks: false };
  if (rng.chance(0.1)) body.unsubscribe = true;
  return body;
}

/** Every known field of the send body, with a plausible value, for wrong-type and odd-value mutations. */
const SEND_FIELDS: Record<string, Json> = {
  from: "hi@example.com",
  to: ["a@dest.test"],
  cc: "c@dest.test",
  bcc: ["d@dest.test"],
  reply_to: "r@example.com",
  "reply-to": "r@example.com",
  subject: "s",
  html: "<p>x</p>",
  text: "x",
  headers: { "X-A": "b" },
  attachments: [{ filename: "a.txt", content: "aGk=" }],
  tags: [{ name: "a", value: "b" }],
  scheduled_at: "2026-11-22T10:00:00.000Z",
  tracking: { opens: true },
  unsubscribe: true,
};

/** Nested oddities for the structured fields of the send body. */
function oddValue(rng: Rng, field: string): Json {
  switch (field) {
    case "headers":
      return rng.pick<Json>([
        { From: "x@evil.test" },
        { "Content-Type": "text/plain" },
        { "X-A": "b\r\nBcc: v@x.org" },
        { "": "x" },
        { "X A": "b" },
        { "X-A": "" },
        { "X-A": " " },
        { "X-A": "\t" },
        { "X-A": "é\u0000" },
        { "X-Long": "v".repeat(5000) },
        Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`X-${i}`, "v"])),
        JSON.parse('{"__proto__": "x", "constructor": "y"}'),
        { "X-A": 1 },
        { "X-A": ["b"] },
      ]);
    case "attachments":
      return rng.pick<Json>([
        [{ filename: "a", content: "not base64!" }],
        [{ filename: "", content: "" }],
        [{ filename: "../../etc/passwd", content: "aGk=" }],
        [{ filename: "a\r\nb", content: "aGk=", content_type: "text/plain\r\nX: y" }],
        [{ filename: "a", path: "http://127.0.0.1/x" }],
        [{ filename: "a", path: "file:///etc/passwd" }],
        [{ filename: "a", content: "aGk=", path: "https://example.com/a" }],
        [{ filename: "a", content: "aGk=", content_id: "<x y>" }],
        [{ filename: "a", content: "aGk=", content_type: "x" }],
        Array.from({ length: 101 }, () => ({ filename: "a", content: "aGk=" })),
        [null],
        [[]],
        [{}],
      ]);
    case "tags":
      return rng.pick<Json>([
        [{ name: "a b", value: "c" }],
        [{ name: "x".repeat(300), value: "v" }],
        [{ name: "a" }],
        [{}],
        Array.from({ length: 60 }, (_, i) => ({ name: `t${i}`, value: "v" })),
        [{ name: "__proto__", value: "constructor" }],
      ]);
    case "tracking":
      return rng.pick<Json>([{ opens: "yes" }, { clicks: 1 }, { other: true }, { opens: null }]);
    case "scheduled_at":
      return rng.pick([
        "2020-01-01T00:00:00Z",
        "2999-01-01T00:00:00Z",
        "tomorrow",
        "2026-02-30T00:00:00Z",
        "",
        "2026-11-22",
        "+275760-09-13T00:00:00.000Z",
        "-000001-01-01T00:00:00Z",
        "2026-11-22T10:00:00+25:00",
      ]);
    case "to":
    case "cc":
    case "bcc":
    case "reply_to":
    case "reply-to":
      return rng.pick<Json>([
        [],
        "",
        "a@b@c",
        "Name <a@dest.test",
        "a@dest.test, b@dest.test",
        "<a@dest.test>",
        Array.from({ length: 60 }, (_, i) => `r${i}@dest.test`),
        ["a@dest.test", "A@DEST.TEST"],
        "bücher@dest.test",
        "a@xn--.test",
        "a@[127.0.0.1]",
        `${"x".repeat(70)}@dest.test`,
        ["a@dest.test", 5],
      ]);
    case "from":
      return rng.pick([
        "",
        "no-at",
        "Evil <x@evil.test>, hi@example.com",
        "hi@EXAMPLE.com",
        "=?utf-8?B?QQ==?= <hi@example.com>",
        '"a"@example.com',
        "hi@example.com\r\nBcc: x@y.z",
        "hi@example.com.",
        "<hi@example.com>",
      ]);
    default:
      return rng.pick([
        "",
        " ",
        "a\r\nb",
        "\u0000",
        "x".repeat(rng.pick([999, 1000, 100_000])),
        "\ud800",
        "é".repeat(500),
      ]);
  }
}

function mutatedSend(rng: Rng): Record<string, Json> {
  const body = validSend(rng);
  for (let i = rng.range(1, 3); i > 0; i--) {
    const field = rng.pick(Object.keys(SEND_FIELDS));
    switch (rng.int(5)) {
      case 0:
        body[field] = wrongType(rng, SEND_FIELDS[field]);
        break;
      case 1:
        delete body[field];
        break;
      case 2:
        body[field] = oddValue(rng, field);
        break;
      case 3:
        // Unknown and prototype keys as own properties.
        Object.defineProperty(
          body,
          rng.pick(["__proto__", "constructor", "prototype", "colour", randomString(rng, 10)]),
          { value: randomJson(rng, 2), enumerable: true, configurable: true, writable: true },
        );
        break;
      default:
        body[field] = randomJson(rng, 3);
    }
  }
  return body;
}

/** Plausible bodies of the other routes, keyed by "METHOD path"; routes without one get random JSON. */
const ROUTE_BODIES: Record<string, (rng: Rng) => Record<string, Json>> = {
  "POST /v1/api-keys": (rng) => ({
    name: rng.pick(["k", "", "x".repeat(101), "a\nb"]),
    permission: rng.pick(["full_access", "sending_access", "admin"]),
    scopes: rng.pick<Json>([["emails:send"], [], ["nope"], "emails:send"]),
    mode: rng.pick(["live", "test", "prod"]),
    rate_limit: rng.pick<Json>([10, 0, -1, 1.5, "10"]),
    domain_id: rng.pick([rng.uuid(), "x"]),
  }),
  "POST /v1/suppressions": (rng) => ({
    email: rng.pick(["a@x.org", "bad", "", "A@X.ORG"]),
    reason: rng.pick(["r", "", "x".repeat(2000)]),
  }),
  "POST /v1/domains": (rng) => ({
    name: rng.pick([
      `fuzz-${rng.hex(6)}.example`,
      "example.com",
      "localhost",
      "例え.テスト",
      "a..b",
      "-a.com",
      `${"x".repeat(300)}.com`,
      "127.0.0.1",
    ]),
    return_path_subdomain: rng.pick(["send", "", "-x", "a.b"]),
    open_tracking: rng.pick<Json>([true, "yes"]),
    click_tracking: false,
    receiving_enabled: rng.pick<Json>([false, null]),
  }),
  "PATCH /v1/domains/:id": (rng) => ({
    return_path_subdomain: rng.pick(["bounce", "", "UPPER"]),
    open_tracking: rng.pick<Json>([true, 1]),
    click_tracking: rng.chance(0.5),
    receiving_enabled: rng.chance(0.5),
  }),
  "POST /v1/webhooks": (rng) => ({
    endpoint: rng.pick([
      "http://127.0.0.1:1/hook",
      "http://127.0.0.1:1/hook",
      "https://example.com/h",
      "http://127.0.0.1/h",
      "https://[::1]/",
      "ftp://x",
      "https://user:pw@example.com/",
      "not a url",
      "https://127.0.0.2:1/",
    ]),
    events: rng.pick<Json>([["email.sent"], [], ["*"], ["bogus"], "email.sent"]),
    description: rng.pick<Json>(["d", null, 5]),
  }),
  "PATCH /v1/webhooks/:id": (rng) => ({
    endpoint: "https://example.com/h2",
    events: ["email.delivered"],
    description: null,
    status: rng.pick(["enabled", "disabled", "bogus"]),
  }),
  "POST /v1/webhooks/:id/test": (rng) => ({ type: rng.pick(["email.sent", "bogus", ""]) }),
};

/** Bodies that stress the JSON reader itself. */
function structuralBody(rng: Rng): string | Uint8Array {
  const n = rng.pick([33, 100, 1000, 100_000]);
  switch (rng.int(10)) {
    case 0:
      return "[".repeat(n);
    case 1:
      return "[".repeat(n) + "]".repeat(n);
    case 2:
      return `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;
    case 3:
      // Deep nesting inside a field of an otherwise valid send body.
      return JSON.stringify({ ...validSend(rng), headers: null }).replace(
        '"headers":null',
        `"headers":${"[".repeat(n)}${"]".repeat(n)}`,
      );
    case 4:
      // Brackets inside strings do not nest.
      return JSON.stringify({ ...validSend(rng), text: "[".repeat(n) });
    case 5: {
      // Invalid UTF-8 inside a JSON string.
      const bad = rng.pick([
        [0xff],
        [0xc3, 0x28],
        [0xed, 0xa0, 0x80],
        [0xc0, 0xaf],
        [0xf8, 0x88, 0x80, 0x80, 0x80],
        [0xe2, 0x82],
      ]);
      const text = JSON.stringify({ ...validSend(rng), subject: "SUBJ" });
      const at = text.indexOf("SUBJ");
      return Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(bad), Buffer.from(text.slice(at + 4))]);
    }
    case 6:
      return rng.bytes(rng.length(2000));
    case 7:
      // Huge strings: around and over the body limit (and over the listener's own limit, which is a little higher).
      return JSON.stringify({
        ...validSend(rng),
        html: "x".repeat(rng.pick([900_000, 1_100_000, MAX_BODY_BYTES + 10, MAX_BODY_BYTES + 5000])),
      });
    case 8:
      return rng.pick([
        "",
        " ",
        "null",
        "0",
        '""',
        "[]",
        "{}",
        "{",
        '{"from":',
        "\ufeff{}",
        '{"a":1}garbage',
        "NaN",
        "Infinity",
        "[1,]",
        "{'a':1}",
        "\u0000",
      ]);
    default:
      return JSON.stringify(Array.from({ length: rng.pick([0, 1, 100, 101, 1000]) }, () => validSend(rng)));
  }
}

function bodyFor(rng: Rng, method: string, path: string): string | Uint8Array | undefined {
  if (method === "GET" || method === "HEAD" || method === "get") return undefined;
  const kind = rng.int(10);
  if (kind === 0) return undefined;
  if (kind <= 2) return structuralBody(rng);
  if (kind === 3) return jsonText(rng, randomJson(rng, 5));
  const route = `${method.toUpperCase()} ${path}`;
  if (/emails$|send-email$/.test(path)) return jsonText(rng, rng.chance(0.3) ? validSend(rng) : mutatedSend(rng));
  if (path.endsWith("/batch"))
    return jsonText(
      rng,
      Array.from({ length: rng.range(0, 4) }, () => (rng.chance(0.5) ? validSend(rng) : mutatedSend(rng))),
    );
  const template = ROUTE_BODIES[route];
  if (!template) return jsonText(rng, randomJson(rng, 4));
  const body = template(rng);
  if (rng.chance(0.5)) {
    const field = rng.pick(Object.keys(body));
    body[field] = rng.chance(0.5) ? wrongType(rng, body[field]) : randomJson(rng, 2);
  }
  if (rng.chance(0.2)) delete body[rng.pick(Object.keys(body))];
  return jsonText(rng, body);
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

function headersFor(rng: Rng, hasBody: boolean): Record<string, string> {
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

// ---------------------------------------------------------------------------------------------------------------
// Properties

const ERROR_KEYS = new Set(["error", "name", "message", "statusCode", "details"]);

/** The human-facing unsubscribe page (GET and POST /u/:token) answers an invalid link with an HTML 404 by design. */
const isHumanPage = (path: string, method: string, contentType: string) =>
  /^\/u\//.test(path) && (method === "GET" || method === "POST") && contentType.startsWith("text/html");
/** Methods the routes are declared with; any other must be refused (404/405) before a handler runs. */
const ROUTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** Static assets of the API docs (Swagger UI's bundle naturally contains words like "TypeError"). */
/** The code the server ships to browsers (Swagger UI's, the admin UI's bundle) names errors as code, not as leaks. */
const isDocsAsset = (path: string, status: number) => status < 400 && /^\/(docs|ui)(\/|$)/.test(path);

function errorShapeProblem(body: unknown, status: number): string | null {
  if (!body || typeof body !== "object" || Array.isArray(body)) return "the body is not a JSON object";
  const b = body as Record<string, unknown>;
  const extra = Object.keys(b).filter((k) => !ERROR_KEYS.has(k));
  if (extra.length) return `unexpected keys ${extra.join(", ")}`;
  if (typeof b.error !== "string" || typeof b.name !== "string" || typeof b.message !== "string")
    return "error, name and message must be strings";
  if (!ERROR_NAMES.includes(b.name as ErrorName)) return `name ${JSON.stringify(b.name)} is not in the closed list`;
  if (b.statusCode !== status) return `statusCode ${String(b.statusCode)} differs from the status ${status}`;
  const entry = ERROR_TABLE[b.name as ErrorName];
  if (entry.status !== status) return `name ${b.name} maps to ${entry.status}, answered ${status}`;
  if (b.error !== entry.reason)
    return `error ${JSON.stringify(b.error)} is not the reason phrase ${JSON.stringify(entry.reason)}`;
  if (b.details !== undefined) {
    if (!Array.isArray(b.details)) return "details is not an array";
    for (const d of b.details as unknown[]) {
      if (!d || typeof d !== "object" || Array.isArray(d)) return "a detail is not an object";
      const keys = Object.keys(d);
      const detail = d as Record<string, unknown>;
      if (
        keys.some((k) => k !== "path" && k !== "message") ||
        typeof detail.path !== "string" ||
        typeof detail.message !== "string"
      )
        return `detail ${JSON.stringify(d)} is not {path, message}`;
    }
  }
  return null;
}

interface FuzzRequest {
  transport: "handle" | "socket";
  /** Over the socket: the body as a stream of this many chunks (chunked transfer coding, no Content-Length). */
  chunks?: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** A request as a report shows it: long paths and bodies cut, with their full length. */
function summary(req: FuzzRequest) {
  const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);
  const body =
    req.body === undefined
      ? undefined
      : typeof req.body === "string"
        ? cut(req.body, 240)
        : `bytes(${req.body.length}) ${cut(Buffer.from(req.body.subarray(0, 240)).toString("latin1"), 240)}`;
  return {
    transport: req.transport,
    method: req.method,
    path: cut(req.path, 160),
    headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, cut(v, 80)])),
    bodyBytes:
      req.body === undefined ? 0 : typeof req.body === "string" ? Buffer.byteLength(req.body) : req.body.length,
    chunks: req.chunks,
    body,
  };
}

function checkResponse(
  v: Violations,
  index: number,
  fuzzRequest: FuzzRequest,
  res: { status: number; headers: Headers; bytes: Uint8Array; method: string },
) {
  const req = fuzzRequest;
  // What the app received: Bun's Request upper-cases the standard methods and turns a method token it does not
  // know ("FOO") into GET — before Mailroom sees it (over a socket Bun's parser drops such requests instead).
  const method = res.method;
  const input = { ...summary(fuzzRequest), ...(method !== req.method ? { receivedAs: method } : {}) };
  // As the router sees it: URL-normalised ("\\" → "/", dot segments).
  const pathname = new URL(`http://localhost${req.path}`).pathname;
  const text = new TextDecoder().decode(res.bytes);
  const contentType = res.headers.get("content-type") ?? "";
  const seen = { status: res.status, contentType, body: text.slice(0, 400) };
  if (res.status >= 500) {
    const requestId = res.headers.get("x-request-id");
    const cause = requestId ? errorLog.find((line) => line.includes(requestId))?.slice(0, 1500) : undefined;
    v.add(`status ${res.status} (>= 500)`, index, input, { ...seen, cause });
  }
  if (!res.headers.get("x-request-id")) v.add("no X-Request-Id", index, input, seen);
  if (res.status === 405 && !res.headers.get("allow")) v.add("405 without Allow", index, input, seen);
  const leak = isDocsAsset(pathname, res.status) ? null : internalsIn(text, t.dataDir);
  if (leak) v.add(`internals in the body (${leak})`, index, input, seen);
  if (!ROUTED_METHODS.has(method) && res.status !== 404 && res.status !== 405)
    v.add("a method no route declares was served by a route", index, input, seen);
  if (res.status >= 400 && method !== "HEAD" && !isHumanPage(pathname, method, contentType)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      v.add(`${res.status} body is not JSON`, index, input, seen);
      return;
    }
    const problem = errorShapeProblem(parsed, res.status);
    if (problem)
      v.add(`error shape: ${problem.replace(/\d{3}/g, "NNN").replace(/".*"/g, "…")}`, index, input, {
        ...seen,
        problem,
      });
  }
}

function harvestIds(path: string, bytes: Uint8Array) {
  if (path.startsWith("/v1/api-keys")) return; // never revoke the fixture keys
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return;
  }
  const visit = (value: unknown, depth: number) => {
    if (depth > 4 || !value || typeof value !== "object") return;
    for (const [k, v] of Object.entries(value)) {
      if (k === "id" && typeof v === "string" && knownIds.length < 300 && !knownIds.includes(v)) knownIds.push(v);
      else visit(v, depth + 1);
    }
  };
  visit(body, 0);
}

const SOCKET_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);
/** Bytes of the request head once fetch has percent-encoded the path. */
const headSize = (path: string, headers: Record<string, string>) =>
  Buffer.byteLength(encodeURI(path.replace(/[\ud800-\udfff]/g, "x")).replace(/%25/g, "%")) +
  Object.entries(headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 0);

async function send(
  req: FuzzRequest,
): Promise<{ status: number; headers: Headers; bytes: Uint8Array; method: string } | "unsendable"> {
  let request: Request;
  const base = req.transport === "socket" ? `http://127.0.0.1:${httpPort}` : "http://localhost";
  let body: RequestInit["body"] = req.body;
  if (req.chunks && req.body !== undefined) {
    const bytes = typeof req.body === "string" ? new TextEncoder().encode(req.body) : req.body;
    const size = Math.ceil(bytes.length / req.chunks) || 1;
    body = new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.subarray(i, i + size));
        controller.close();
      },
    });
  }
  try {
    request = new Request(base + req.path, {
      method: req.method,
      headers: req.headers,
      body,
      redirect: "manual",
      duplex: "half",
    } as RequestInit);
  } catch {
    return "unsendable"; // the client refuses it (forbidden method, header value, GET with a body …)
  }
  // Loopback only, whatever the generators produced.
  if (!["127.0.0.1", "localhost"].includes(new URL(request.url).hostname)) return "unsendable";
  const response =
    req.transport === "socket" ? await fetch(request, { redirect: "manual" }) : await t.app.http.handle(request);
  return {
    status: response.status,
    headers: response.headers,
    bytes: new Uint8Array(await response.arrayBuffer()),
    method: request.method,
  };
}

test(
  "every route answers random requests with a status < 500, the error shape and no internals",
  async () => {
    console.log(`fuzz http seed=${SEED}`);
    const v = new Violations("http", SEED);
    let unsendable = 0;
    let socketCases = 0;
    const statuses = new Map<number, number>();
    const perRoute = new Map<string, number>();
    const watchdog = watchEventLoop();
    const cases = await runCases("http", SEED, 8, async (rng, index) => {
      const route = rng.chance(0.9)
        ? rng.pick(routes)
        : { method: rng.pick(METHODS), path: `/${randomString(rng, 30).replace(/[?#]/g, "")}` };
      const method = rng.chance(0.8) ? route.method : rng.pick(METHODS);
      const path = fillPath(rng, route.path) + queryString(rng);
      const body = bodyFor(rng, method, route.path);
      const headers = headersFor(rng, body !== undefined);
      // The socket share sticks to what Bun's own HTTP parser takes before any application code runs: methods
      // it knows (an unknown one is dropped without an answer; fetch drops TRACE bodies) and a request head under
      // its 16 KiB limit (beyond it Bun answers an empty 431 itself). app.handle gets everything else.
      const socketable = SOCKET_METHODS.has(method) && headSize(path, headers) < 12_000;
      const transport = socketable && rng.chance(0.25) ? "socket" : "handle";
      if (transport === "handle" && rng.chance(0.03))
        headers["content-length"] = rng.pick(["-1", "abc", "99999999999", "0", "1"]);
      const req: FuzzRequest = { transport, method, path, headers, body };
      if (transport === "socket" && body !== undefined && rng.chance(0.15)) req.chunks = rng.range(1, 4);
      const outcome = await withTimeout(send(req), REQUEST_TIMEOUT_MS);
      if (outcome === "timeout") return v.add("no answer in time", index, summary(req), `${REQUEST_TIMEOUT_MS} ms`);
      if (!outcome.ok)
        return v.add(
          transport === "socket" ? "socket: the request failed" : "app.handle threw",
          index,
          summary(req),
          String(outcome.error),
        );
      if (outcome.value === "unsendable") {
        unsendable++;
        return;
      }
      if (transport === "socket") socketCases++;
      const res = outcome.value;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (VERBOSE)
        perRoute.set(
          `${route.method} ${route.path} ${res.status}`,
          (perRoute.get(`${route.method} ${route.path} ${res.status}`) ?? 0) + 1,
        );
      checkResponse(v, index, req, res);
      if (res.status < 300) harvestIds(route.path, res.bytes);
    });
    const histogram = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}:${n}`)
      .join(" ");
    if (VERBOSE)
      console.log(
        [...perRoute]
          .sort()
          .map(([k, n]) => `  ${k}: ${n}`)
          .join("\n"),
      );
    console.log(
      `fuzz http seed=${SEED}: ${cases} cases (${socketCases} over the socket, ${unsendable} refused by the client), statuses ${histogram}; longest event-loop stall ${Math.round(watchdog.stop())} ms`,
    );

    // The server is still well after the run, through both paths.
    const health = await t.json("GET", "/healthz", { key: null });
    if (health.status !== 200 || health.body?.status !== "ok")
      v.add("healthz after the run (app.handle)", -1, "GET /healthz", health);
    const overSocket = await fetch(`http://127.0.0.1:${httpPort}/healthz`);
    const socketBody = (await overSocket.json().catch(() => null)) as { status?: string } | null;
    if (overSocket.status !== 200 || socketBody?.status !== "ok")
      v.add("healthz after the run (socket)", -1, "GET /healthz", { status: overSocket.status, body: socketBody });

    expect(v.list, v.report()).toEqual([]);
  },
  fuzzTimeoutMs(),
);
