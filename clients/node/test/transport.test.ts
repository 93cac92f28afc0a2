/**
 * The transport against small HTTP servers of the test's own, whose answers it scripts: opt-in retries (429 after
 * Retry-After, 5xx with backoff, never another 4xx), the idempotency key a retried send keeps, timeouts, network
 * failures, and what goes on the wire (auth, User-Agent, paths, query, snake_case bodies).
 */
import { afterEach, beforeAll, expect, test } from "bun:test";
import type { Server } from "bun";
import type { IpPoolList } from "@mailroom/node";
import { loadLibrary, type Library } from "./support.ts";

let lib: Library;
beforeAll(async () => {
  lib = await loadLibrary();
}, 120_000);

interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

const servers: Server<undefined>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.stop(true);
});

/** A server answering the scripted responses in order (the last one repeats), recording every request. */
function scripted(...answers: Array<() => Response | Promise<Response>>) {
  const seen: Seen[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      seen.push({
        method: request.method,
        path: url.pathname + url.search,
        headers: Object.fromEntries(request.headers),
        body: await request.text(),
      });
      return answers[Math.min(seen.length, answers.length) - 1]!();
    },
  });
  servers.push(server);
  return { seen, baseUrl: `http://127.0.0.1:${server.port}` };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
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

test("the queue's wire: list filters in the query, actions on encoded ids, bulk filters in the body", async () => {
  const { seen, baseUrl } = scripted(json(200, { object: "bulk", matched: 0, changed: 0 }));
  const client = new lib.Mailroom("mr_test_key", { baseUrl });
  await client.deliveries.list({ status: "deferred", domain: "example.org", email_id: "e1", limit: 10, after: "d0" });
  await client.deliveries.summary();
  await client.deliveries.retry("d/1");
  await client.deliveries.cancel("d2");
  await client.deliveries.release("d3");
  await client.deliveries.bulk.retry({ status: "deferred", domain: "example.org" });
  await client.deliveries.bulk.cancel({ email_id: "e1" });
  await client.deliveries.bulk.release({ provider: "smtp" });

  expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
    "GET /v1/deliveries?limit=10&after=d0&status=deferred&domain=example.org&email_id=e1",
    "GET /v1/deliveries/summary",
    "POST /v1/deliveries/d%2F1/retry",
    "POST /v1/deliveries/d2/cancel",
    "POST /v1/deliveries/d3/release",
    "POST /v1/deliveries/retry",
    "POST /v1/deliveries/cancel",
    "POST /v1/deliveries/release",
  ]);
  expect(seen.slice(2, 5).map((request) => request.body)).toEqual(["", "", ""]);
  expect(seen.slice(5).map((request) => JSON.parse(request.body))).toEqual([
    { status: "deferred", domain: "example.org" },
    { email_id: "e1" },
    { provider: "smtp" },
  ]);
  expect(seen[5]!.headers["content-type"]).toBe("application/json");
  expect((await client.deliveries.cancel("")).error?.name).toBe("missing_required_field");
  expect(seen.length).toBe(8);
});

test("sending pauses' wire: the state read, the target and reason in the body", async () => {
  const { seen, baseUrl } = scripted(json(200, { object: "sending", pauses: [] }));
  const client = new lib.Mailroom("mr_test_key", { baseUrl });
  await client.sending.get();
  await client.sending.pause({ scope: "domain", name: "example.com", reason: "migrating DNS" });
  await client.sending.pause({ scope: "organization" });
  await client.sending.resume({ scope: "provider", name: "smtp" });

  expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
    "GET /v1/sending",
    "POST /v1/sending/pause",
    "POST /v1/sending/pause",
    "POST /v1/sending/resume",
  ]);
  expect(seen[0]!.body).toBe("");
  expect(seen.slice(1).map((request) => JSON.parse(request.body))).toEqual([
    { scope: "domain", name: "example.com", reason: "migrating DNS" },
    { scope: "organization" },
    { scope: "provider", name: "smtp" },
  ]);
  expect(seen[1]!.headers["content-type"]).toBe("application/json");
});

test("deliverability's wire: domain settings with a null tracking host, sending health, DMARC reports and summary", async () => {
  const { seen, baseUrl } = scripted(json(200, { object: "list", has_more: false, data: [] }));
  const client = new lib.Mailroom("mr_test_key", { baseUrl });
  await client.domains.update({
    id: "example.com",
    tracking_subdomain: "links",
    tls: "enforced",
    dkim: { ed25519: true },
  });
  // null is a value here (the tracking host removed), so it must reach the server rather than be dropped.
  await client.domains.update({ id: "d/1", tracking_subdomain: null });
  await client.domains.create({ name: "example.org", tls: "opportunistic", dkim: { ed25519: false } });
  await client.sending.health();
  await client.domains.dmarcReports("example.com");
  await client.domains.dmarcReports("d/1", { limit: 5, before: "r1" });
  await client.domains.dmarcReports("d/1", { after: "r2" });
  await client.domains.dmarcReportRows("d/1", "r/2", { limit: 100, after: "w1" });
  await client.domains.dmarcSummary("example.com");
  await client.domains.dmarcSummary("d/1", { days: 30 });

  expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
    "PATCH /v1/domains/example.com",
    "PATCH /v1/domains/d%2F1",
    "POST /v1/domains",
    "GET /v1/sending/health",
    "GET /v1/domains/example.com/dmarc",
    "GET /v1/domains/d%2F1/dmarc?limit=5&before=r1",
    "GET /v1/domains/d%2F1/dmarc?after=r2",
    "GET /v1/domains/d%2F1/dmarc/r%2F2/rows?limit=100&after=w1",
    "GET /v1/domains/example.com/dmarc/summary",
    "GET /v1/domains/d%2F1/dmarc/summary?days=30",
  ]);
  expect(seen.map((request) => (request.body ? JSON.parse(request.body) : null))).toEqual([
    { tracking_subdomain: "links", tls: "enforced", dkim: { ed25519: true } },
    { tracking_subdomain: null },
    { name: "example.org", tls: "opportunistic", dkim: { ed25519: false } },
    null,
    null,
    null,
    null,
    null,
    null,
    null,
  ]);
  // An empty id would address another route: refused before any request.
  for (const refused of [
    await client.domains.dmarcReports(""),
    await client.domains.dmarcSummary("", { days: 7 }),
    await client.domains.dmarcReportRows("d/1", ""),
  ])
    expect(refused.error?.name).toBe("missing_required_field");
  expect(seen.length).toBe(10);
});

test("sending IPs' wire: the pools listed, a domain's ip_pool set and cleared with null", async () => {
  const pools: IpPoolList = {
    object: "list",
    data: [
      {
        name: "main",
        warmup: "30d",
        addresses: [
          {
            address: "203.0.113.5",
            ehlo_name: "mta1.example.com",
            warmup_day: 3,
            daily_cap: 200,
            today: { gmail: 12, other: 3 },
            backed_off: [{ provider: "gmail", messages_per_minute: 300, until: "2026-01-01T01:00:00.000Z" }],
          },
          { address: "203.0.113.6", ehlo_name: null, warmup_day: null, daily_cap: 50, today: {}, backed_off: [] },
        ],
      },
    ],
  };
  const { seen, baseUrl } = scripted(json(200, pools));
  const client = new lib.Mailroom("mr_test_key", { baseUrl });
  const listed = await client.ipPools.list();
  expect(listed.error).toBeNull();
  expect(listed.data).toEqual(pools);
  const address = listed.data!.data[0]!.addresses[0]!;
  expect([address.warmup_day, address.daily_cap, address.today.gmail]).toEqual([3, 200, 12]);
  expect(address.backed_off[0]!.messages_per_minute).toBe(300);
  await client.domains.update({ id: "example.com", ip_pool: "main" });
  // null is a value here (the domain leaves its pool), so it must reach the server rather than be dropped.
  await client.domains.update({ id: "d/1", ip_pool: null });
  await client.domains.create({ name: "example.org", ip_pool: "main" });

  expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
    "GET /v1/ip-pools",
    "PATCH /v1/domains/example.com",
    "PATCH /v1/domains/d%2F1",
    "POST /v1/domains",
  ]);
  expect(seen.map((request) => (request.body ? JSON.parse(request.body) : null))).toEqual([
    null,
    { ip_pool: "main" },
    { ip_pool: null },
    { name: "example.org", ip_pool: "main" },
  ]);
  expect(seen[0]!.headers.authorization).toBe("Bearer mr_test_key");
});

test("the organisation's wire: read, then the settings to change in a PATCH body, null kept", async () => {
  const { seen, baseUrl } = scripted(json(200, { object: "organization", id: "o1", daily_quota: null }));
  const client = new lib.Mailroom("mr_test_key", { baseUrl });
  await client.organization.get();
  await client.organization.update({ name: "Acme", daily_quota: 500, retention: { content_days: 7 } });
  // null is a value here (back to the default), so it must reach the server rather than be dropped.
  await client.organization.update({ rate_limit: null, daily_quota: null, retention: { metadata_days: null } });

  expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
    "GET /v1/organization",
    "PATCH /v1/organization",
    "PATCH /v1/organization",
  ]);
  expect(seen[0]!.body).toBe("");
  expect(seen.slice(1).map((request) => JSON.parse(request.body))).toEqual([
    { name: "Acme", daily_quota: 500, retention: { content_days: 7 } },
    { rate_limit: null, daily_quota: null, retention: { metadata_days: null } },
  ]);
  expect(seen[1]!.headers["content-type"]).toBe("application/json");
});

test("teams' wire: organisations, members and invitations on encoded ids, the role in the body, audit filters in the query", async () => {
  const { seen, baseUrl } = scripted(json(200, { object: "list", has_more: false, data: [], invitations: [] }));
  const client = new lib.Mailroom("mr_test_key", { baseUrl });
  await client.organizations.list();
  await client.members.list();
  await client.members.invite({ email: "dev@example.org", role: "developer" });
  await client.members.revokeInvitation("i/1");
  await client.members.updateRole("u/1", { role: "viewer" });
  await client.members.remove("u2");
  await client.auditLog.list();
  await client.auditLog.list({ action: "member.invited", actor_id: "k1", limit: 5, before: "a0" });

  expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([
    "GET /v1/organizations",
    "GET /v1/members",
    "POST /v1/members/invitations",
    "DELETE /v1/members/invitations/i%2F1",
    "PATCH /v1/members/u%2F1",
    "DELETE /v1/members/u2",
    "GET /v1/audit-log",
    "GET /v1/audit-log?limit=5&before=a0&action=member.invited&actor_id=k1",
  ]);
  expect(seen.map((request) => (request.body ? JSON.parse(request.body) : null))).toEqual([
    null,
    null,
    { email: "dev@example.org", role: "developer" },
    null,
    { role: "viewer" },
    null,
    null,
    null,
  ]);
  expect(seen[2]!.headers["content-type"]).toBe("application/json");
  // An empty id would address the collection: refused before any request.
  for (const refused of [
    await client.members.revokeInvitation(""),
    await client.members.updateRole("", { role: "admin" }),
    await client.members.remove(""),
  ])
    expect(refused.error?.name).toBe("missing_required_field");
  expect(seen.length).toBe(8);
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
