/**
 * The transport against small HTTP servers of the test's own, whose answers it scripts: opt-in retries (429 after
 * Retry-After, 5xx with backoff, never another 4xx), the idempotency key a retried send keeps, timeouts, network
 * failures, aborts, errors decoded (a body not Mailroom's, a used-up daily quota, 410 gone), a missing id, and what
 * goes on the wire (auth, User-Agent, paths, query, snake_case bodies). Each area's own paths and bodies are in the
 * *-wire.test.ts files.
 */
import { afterEach, beforeAll, expect, test } from "bun:test";
import { json, scripted, servers, stopServers } from "./scripted.ts";
import { loadLibrary, type Library } from "./support.ts";

let lib: Library;
beforeAll(async () => {
  lib = await loadLibrary();
}, 120_000);
afterEach(stopServers);

const sent = json(200, { id: "4ef9a417-02e9-4d39-ad75-9611e0fcc33c", message: "Email sent." });
const rateLimited = json(
  429,
  { error: "Too Many Requests", name: "rate_limit_exceeded", message: "Rate limit exceeded.", statusCode: 429 },
  { "retry-after": "1" },
);
const unavailable = json(503, {
  error: "Service Unavailable",
  name: "service_unavailable",
  message: "Shutting down.",
  statusCode: 503,
});
const invalid = json(400, {
  error: "Bad Request",
  name: "validation_error",
  message: "to: is required",
  statusCode: 400,
  details: [{ path: "to", message: "is required" }],
});

const message = { from: "Acme <hello@example.com>", to: "reader@example.org", subject: "Hi", html: "<p>Hi</p>" };

test("429 with Retry-After: 1 then 200 — retries on: succeeds after waiting about a second", async () => {
  const { seen, baseUrl } = scripted(rateLimited, sent);
  const client = new lib.Mailroom("mr_test_key", { baseUrl, maxRetries: 2 });
  const started = performance.now();
  const { data, error } = await client.emails.send(message);
  const elapsed = performance.now() - started;
  expect(error).toBeNull();
  expect(data?.id).toBe("4ef9a417-02e9-4d39-ad75-9611e0fcc33c");
  expect(seen.length).toBe(2);
  expect(elapsed).toBeGreaterThanOrEqual(950);
  // One key for both attempts, made by the client: the retry cannot send a second message.
  const keys = seen.map((request) => request.headers["idempotency-key"]);
  expect(keys[0]).toBeString();
  expect(keys[0]!.length).toBeGreaterThan(0);
  expect(keys[1]).toBe(keys[0]!);
});

test("429 then 200 — retries off (the default): the rate_limit_exceeded error with retryAfter", async () => {
  const { seen, baseUrl } = scripted(rateLimited, sent);
  const client = new lib.Mailroom("mr_test_key", { baseUrl });
  const { data, error, headers } = await client.emails.send(message);
  expect(data).toBeNull();
  expect(error).toBeInstanceOf(lib.MailroomError);
  expect(error?.name).toBe("rate_limit_exceeded");
  expect(error?.statusCode).toBe(429);
  expect(error?.retryAfter).toBe(1);
  expect(headers?.["retry-after"]).toBe("1");
  expect(seen.length).toBe(1);
  // Without retries no key is invented: the caller's request goes out as written.
  expect(seen[0]!.headers["idempotency-key"]).toBeUndefined();
});

test("503 then 200 — retries on: succeeds after one retry with backoff; the caller's idempotency key is kept", async () => {
  const { seen, baseUrl } = scripted(unavailable, sent);
  const client = new lib.Mailroom("mr_test_key", { baseUrl, maxRetries: 3 });
  const { data, error } = await client.emails.send(message, { idempotencyKey: "order-1001/receipt" });
  expect(error).toBeNull();
  expect(data?.id).toBe("4ef9a417-02e9-4d39-ad75-9611e0fcc33c");
  expect(seen.length).toBe(2);
  expect(seen.map((request) => request.headers["idempotency-key"])).toEqual([
    "order-1001/receipt",
    "order-1001/receipt",
  ]);
});

test("503 then 200 — retries off: the service_unavailable error", async () => {
  const { seen, baseUrl } = scripted(unavailable, sent);
  const { data, error } = await new lib.Mailroom("mr_test_key", { baseUrl }).emails.send(message);
  expect(data).toBeNull();
  expect(error?.name).toBe("service_unavailable");
  expect(error?.statusCode).toBe(503);
  expect(seen.length).toBe(1);
});

test("a 4xx other than 429 is never retried", async () => {
  const { seen, baseUrl } = scripted(invalid, sent);
  const { error } = await new lib.Mailroom("mr_test_key", { baseUrl, maxRetries: 3 }).emails.send(message);
  expect(error?.name).toBe("validation_error");
  expect(error?.details).toEqual([{ path: "to", message: "is required" }]);
  expect(seen.length).toBe(1);
});

test("retries stop after maxRetries and answer the last error", async () => {
  const { seen, baseUrl } = scripted(unavailable);
  const { error } = await new lib.Mailroom("mr_test_key", { baseUrl, maxRetries: 1 }).domains.list();
  expect(error?.name).toBe("service_unavailable");
  expect(seen.length).toBe(2);
});

test("a Retry-After longer than maxRetryDelay is handed back instead of waited for", async () => {
  const { seen, baseUrl } = scripted(
    json(
      429,
      { error: "Too Many Requests", name: "rate_limit_exceeded", message: "Slow down.", statusCode: 429 },
      { "retry-after": "120" },
    ),
    sent,
  );
  const started = performance.now();
  const { error } = await new lib.Mailroom("mr_test_key", { baseUrl, maxRetries: 2, maxRetryDelay: 5_000 }).emails.send(
    message,
  );
  expect(error?.retryAfter).toBe(120);
  expect(seen.length).toBe(1);
  expect(performance.now() - started).toBeLessThan(1_000);
});

test("no answer within the timeout is a timeout error; retried when retries are on", async () => {
  // The timeout leaves a loaded machine room to deliver each request to the server before it runs out.
  const { seen, baseUrl } = scripted(
    () => new Promise<Response>((resolve) => setTimeout(() => resolve(sent()), 4_000)),
  );
  const { data, error } = await new lib.Mailroom("mr_test_key", { baseUrl, timeout: 500 }).emails.get(
    "4ef9a417-02e9-4d39-ad75-9611e0fcc33c",
  );
  expect(data).toBeNull();
  expect(error?.name).toBe("timeout");
  expect(error?.statusCode).toBeNull();
  expect(seen.length).toBe(1);
  const retried = await new lib.Mailroom("mr_test_key", { baseUrl, timeout: 500, maxRetries: 1 }).emails.get(
    "4ef9a417-02e9-4d39-ad75-9611e0fcc33c",
  );
  expect(retried.error?.name).toBe("timeout");
  expect(seen.length).toBe(3);
});

test("a refused connection is a network_error with no status", async () => {
  const { baseUrl } = scripted(sent);
  servers.pop()!.stop(true);
  const { data, error } = await new lib.Mailroom("mr_test_key", { baseUrl }).emails.list();
  expect(data).toBeNull();
  expect(error?.name).toBe("network_error");
  expect(error?.statusCode).toBeNull();
});

test("the caller's AbortSignal ends the call as aborted, also during a retry wait", async () => {
  const { baseUrl } = scripted(
    json(
      429,
      { error: "Too Many Requests", name: "rate_limit_exceeded", message: "Slow down.", statusCode: 429 },
      { "retry-after": "30" },
    ),
  );
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 200);
  const started = performance.now();
  const { error } = await new lib.Mailroom("mr_test_key", { baseUrl, maxRetries: 2 }).emails.send(message, {
    signal: controller.signal,
  });
  expect(error?.name).toBe("aborted");
  expect(performance.now() - started).toBeLessThan(5_000);
});

test("an answer that is not Mailroom's error body still becomes a typed error", async () => {
  const { baseUrl } = scripted(
    () =>
      new Response("<html>Bad gateway</html>", {
        status: 502,
        statusText: "Bad Gateway",
        headers: { "content-type": "text/html" },
      }),
  );
  const { error } = await new lib.Mailroom("mr_test_key", { baseUrl }).emails.list();
  expect(error?.name).toBe("service_unavailable");
  expect(error?.statusCode).toBe(502);
});

test("the wire: bearer key, User-Agent, /v1 paths, query parameters, snake_case bodies, batch mode header", async () => {
  const { seen, baseUrl } = scripted(json(200, { data: [{ id: "a" }], errors: [] }));
  // A base URL with /v1 (as Resend's SDK takes it) is not doubled.
  const client = new lib.Mailroom("mr_live_secret", { baseUrl: `${baseUrl}/v1/` });
  await client.emails.list({ limit: 5, after: "x", status: "sent", tag: "kind:receipt" });
  await client.emails.update({
    id: "4ef9a417-02e9-4d39-ad75-9611e0fcc33c",
    scheduled_at: new Date("2030-01-02T03:04:05.000Z"),
  });
  await client.batch.send(
    [
      {
        ...message,
        reply_to: "help@example.com",
        attachments: [{ filename: "a.txt", content: new TextEncoder().encode("hello") }],
      },
    ],
    {
      batchValidation: "permissive",
      idempotencyKey: "batch-1",
    },
  );
  await client.suppressions.get("a+b@example.org");
  await client.webhooks.events.attempts.list({ webhookId: "w", eventId: "e", limit: 2 });

  expect(seen[0]!.headers.authorization).toBe("Bearer mr_live_secret");
  expect(seen[0]!.headers["user-agent"]).toBe(`mailroom-node/${lib.VERSION}`);
  expect(seen[0]!.path).toBe("/v1/emails?limit=5&after=x&status=sent&tag=kind%3Areceipt");
  expect(seen[1]!.method).toBe("PATCH");
  expect(JSON.parse(seen[1]!.body)).toEqual({ scheduled_at: "2030-01-02T03:04:05.000Z" });
  expect(seen[2]!.path).toBe("/v1/emails/batch");
  expect(seen[2]!.headers["x-batch-validation"]).toBe("permissive");
  expect(seen[2]!.headers["idempotency-key"]).toBe("batch-1");
  expect(JSON.parse(seen[2]!.body)).toEqual([
    {
      ...message,
      reply_to: "help@example.com",
      attachments: [{ filename: "a.txt", content: Buffer.from("hello").toString("base64") }],
    },
  ]);
  expect(seen[3]!.path).toBe("/v1/suppressions/a%2Bb%40example.org");
  expect(seen[4]!.path).toBe("/v1/webhooks/w/events/e/attempts?limit=2");
});

test("daily_quota_exceeded keeps its name and Retry-After; a wait to the next UTC day is handed back, not made", async () => {
  const { seen, baseUrl } = scripted(
    json(
      429,
      {
        error: "Too Many Requests",
        name: "daily_quota_exceeded",
        message: "The organisation's daily quota of 100 messages is used up.",
        statusCode: 429,
      },
      { "retry-after": "3600" },
    ),
    sent,
  );
  const started = performance.now();
  const { data, error } = await new lib.Mailroom("mr_test_key", { baseUrl, maxRetries: 2 }).emails.send(message);
  expect(data).toBeNull();
  expect(error?.name).toBe("daily_quota_exceeded");
  expect(error?.statusCode).toBe(429);
  expect(error?.retryAfter).toBe(3600);
  expect(seen.length).toBe(1);
  expect(performance.now() - started).toBeLessThan(1_000);
});

test("410 gone: content removed by retention, with Mailroom's body or without", async () => {
  const { baseUrl } = scripted(
    json(410, {
      error: "Gone",
      name: "gone",
      message: "Retention removed this email's content on 2026-01-01T00:00:00.000Z.",
      statusCode: 410,
    }),
    () => new Response("", { status: 410, statusText: "Gone" }),
  );
  const client = new lib.Mailroom("mr_test_key", { baseUrl, maxRetries: 2 });
  const raw = await client.emails.raw("4ef9a417-02e9-4d39-ad75-9611e0fcc33c");
  expect(raw.data).toBeNull();
  expect(raw.error?.name).toBe("gone");
  expect(raw.error?.statusCode).toBe(410);
  expect(raw.error?.message).toContain("Retention removed");
  // A proxy's bare 410 still reads as gone, and like any 4xx but 429 it is not retried.
  const bare = await client.emails.attachments.list({ emailId: "4ef9a417-02e9-4d39-ad75-9611e0fcc33c" });
  expect(bare.error?.name).toBe("gone");
  expect(bare.error?.statusCode).toBe(410);
});

test("a missing id fails before any request", async () => {
  const { seen, baseUrl } = scripted(sent);
  const { error } = await new lib.Mailroom("mr_test_key", { baseUrl }).emails.get("");
  expect(error?.name).toBe("missing_required_field");
  expect(seen.length).toBe(0);
});
