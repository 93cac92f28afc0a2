/**
 * The HTTP fuzz target's request bodies: valid send bodies and mutations of them (wrong types for every field,
 * fields dropped, nested oddities, prototype and unknown keys), plausible bodies of the other routes mutated the
 * same way, random JSON, and bodies that stress the JSON reader itself (deep nesting, invalid UTF-8, huge strings
 * around the body limit, truncated and non-JSON text). Every body comes from the case's Rng alone.
 */
import { jsonText, type Json, randomJson, randomString, type Rng, wrongType } from "./prng.ts";

/** The app's body limit (http.max_body_bytes in http.test.ts): huge strings are generated around it. */
export const MAX_BODY_BYTES = 2_000_000;

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

/** A body for a request to `path` (undefined: none), of the kinds above, by route. */
export function bodyFor(rng: Rng, method: string, path: string): string | Uint8Array | undefined {
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
