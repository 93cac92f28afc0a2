/**
 * The HTTP API through `app.handle` on a real temporary SQLite store: both path forms, errors, idempotency, rate
 * limits, batch, listing, scheduling, keys and suppressions.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { openStore } from "../src/db/open.ts";
import { ManualClock } from "../src/lib/clock.ts";
import { silentLogger } from "../src/lib/logger.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";

let t: TestApp;
const message = (over: Record<string, unknown> = {}) => ({
  from: "Acme <hi@example.com>",
  to: ["a@x.org"],
  subject: "Hello",
  html: "<p>Hi</p>",
  ...over,
});

beforeAll(async () => {
  t = await createTestApp({ http: { max_body_bytes: 200_000 }, limits: { max_message_bytes: 100_000 } });
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
});
afterAll(() => t.close());

const FORMS = [
  { name: "form A", send: "/v1/emails", lookup: (id: string) => `/v1/emails/${id}` },
  { name: "form B", send: "/functions/v1/send-email", lookup: (id: string) => `/functions/v1/send-email/${id}` },
];

describe.each(FORMS)("$name", (form) => {
  test("send answers 200 {id, message} and the message is on disk before the answer", async () => {
    const res = await t.json("POST", form.send, { body: message() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), message: "Email sent." });
    // Read through a connection of its own: what it sees is committed.
    const reader = await openStore(t.config, silentLogger);
    try {
      expect(
        await reader.query(sql`SELECT CAST(count(*) AS INTEGER) AS n FROM emails WHERE id = ${res.body.id}`),
      ).toEqual([{ n: 1 }]);
      expect(
        await reader.query(sql`SELECT CAST(count(*) AS INTEGER) AS n FROM deliveries WHERE email_id = ${res.body.id}`),
      ).toEqual([{ n: 1 }]);
    } finally {
      await reader.close();
    }
  });

  test("look-up returns the record with recipients and events", async () => {
    const sent = await t.json("POST", form.send, {
      body: message({ cc: "c@x.org", tags: [{ name: "kind", value: "welcome" }] }),
    });
    const res = await t.json("GET", form.lookup(sent.body.id));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: "email",
      id: sent.body.id,
      message_id: `<${sent.body.id}@example.com>`,
      from: "Acme <hi@example.com>",
      to: ["a@x.org"],
      cc: ["c@x.org"],
      subject: "Hello",
      text: "Hi",
      tags: [{ name: "kind", value: "welcome" }],
      status: "queued",
      last_event: "queued",
      scheduled_at: null,
    });
    expect(res.body.recipients.map((r: { email: string; status: string }) => [r.email, r.status])).toEqual([
      ["a@x.org", "queued"],
      ["c@x.org", "queued"],
    ]);
    expect(res.body.events[0]).toMatchObject({ type: "email.queued" });
  });

  test.each([
    ["no key", { key: null }, 401, "unauthorized"],
    ["a malformed key", { key: "nope" }, 401, "unauthorized"],
    ["a mistyped key", { key: "mr_live_00000000000000000000000000000000" }, 401, "unauthorized"],
    ["an invalid body", { body: message({ to: "bad" }) }, 400, "validation_error"],
    ["a body that is not JSON", { body: "{not json" }, 400, "validation_error"],
    [
      "a body that is not declared JSON",
      { body: JSON.stringify(message()), headers: { "content-type": "text/plain" } },
      400,
      "validation_error",
    ],
    ["an unverified From domain", { body: message({ from: "x@unverified.example" }) }, 422, "domain_not_verified"],
    ["a body over the request limit", { body: message({ html: "x".repeat(250_000) }) }, 413, "payload_too_large"],
    [
      "a message over the message size limit",
      { body: message({ attachments: [{ filename: "big.bin", content: Buffer.alloc(90_000).toString("base64") }] }) },
      413,
      "payload_too_large",
    ],
  ] as const)("send with %s fails with the same error", async (_name, options, status, name) => {
    const res = await t.json("POST", form.send, { body: message(), ...options });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({
      name,
      statusCode: status,
      error: expect.any(String),
      message: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toMatch(/sqlite|stack|at \//i);
  });

  test("an unknown id is 404 not_found", async () => {
    const res = await t.json("GET", form.lookup("01a20000-0000-7000-8000-000000000000"));
    expect(res.status).toBe(404);
    expect(res.body.name).toBe("not_found");
    expect((await t.json("GET", form.lookup("not-a-uuid"))).status).toBe(404);
  });
});

describe("bodies", () => {
  test("text alone is a plain-text message: no html part, nothing invented; neither html nor text is a 400 naming html", async () => {
    const sent = await t.json("POST", "/v1/emails", { body: message({ html: undefined, text: "Plain words only." }) });
    expect(sent.status).toBe(200);
    const raw = await (await t.request("GET", `/v1/emails/${sent.body.id}/raw`)).text();
    expect(raw).toMatch(/^Content-Type: text\/plain/im);
    expect(raw).not.toMatch(/text\/html/i);
    expect(raw).toContain("Plain words only.");
    const record = (await t.json("GET", `/v1/emails/${sent.body.id}`)).body;
    expect(record).toMatchObject({ html: null, text: "Plain words only." });
    const neither = await t.json("POST", "/v1/emails", { body: message({ html: undefined }) });
    expect(neither.status).toBe(400);
    expect(neither.body.details).toEqual([{ path: "html", message: "html or text is required" }]);
  });

  test("html nested 10 000 elements deep is accepted, with a plain text part", async () => {
    // Found by the html fuzz target (test/fuzz/html.test.ts): the text part's generator recursed once per level.
    const html = `<p>Top</p>${"<div>".repeat(10_000)}Deep`;
    // A key of its own: this file's tests share the live key's requests per minute.
    const { key } = await t.app.services.keys.create(t.operator, {
      name: "nested",
      scopes: ["full_access"],
      mode: "live",
    });
    const sent = await t.json("POST", "/v1/emails", { key, body: message({ html }) });
    expect(sent.status).toBe(200);
    const record = (await t.json("GET", `/v1/emails/${sent.body.id}`, { key })).body;
    expect(record.text).toBe("Top\nDeep");
  });
});

describe("policy", () => {
  test("a test key may send from an unverified domain and its mail is captured", async () => {
    const res = await t.json("POST", "/v1/emails", { key: t.testKey, body: message({ from: "x@unverified.example" }) });
    expect(res.status).toBe(200);
    await t.app.services.worker.runOnce();
    const record = await t.json("GET", `/v1/emails/${res.body.id}`);
    expect(record.body.status).toBe("delivered");
    expect(record.body.recipients[0].last_response).toContain("Captured");
  });

  test("validation errors list every problem with its path", async () => {
    const res = await t.json("POST", "/v1/emails", {
      body: { from: "hi@example.com", to: ["ok@x.org", "bad"], subject: "a\nb", colour: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(["colour", "html", "subject", "to.1"]);
  });

  test("suppressed recipients are recorded, not sent; all suppressed is 422", async () => {
    await t.json("POST", "/v1/suppressions", { body: { email: "Blocked@X.org", reason: "asked us" } });
    const partial = await t.json("POST", "/v1/emails", { body: message({ to: ["blocked@x.org", "fine@x.org"] }) });
    expect(partial.status).toBe(200);
    const record = await t.json("GET", `/v1/emails/${partial.body.id}`);
    expect(record.body.recipients.find((r: { email: string }) => r.email === "blocked@x.org").status).toBe(
      "suppressed",
    );
    expect(record.body.events.map((e: { type: string }) => e.type)).toEqual(["email.suppressed", "email.queued"]);

    const all = await t.json("POST", "/v1/emails", { body: message({ to: ["blocked@x.org"] }) });
    expect(all.status).toBe(422);
    expect(all.body.name).toBe("domain_not_verified");
    expect(all.body.message).toContain("suppression list");
  });

  test("a key without emails:send gets 403 insufficient_scope", async () => {
    const created = await t.json("POST", "/v1/api-keys", { body: { name: "reader", scopes: ["emails:read"] } });
    const res = await t.json("POST", "/v1/emails", { key: created.body.token, body: message() });
    expect(res.status).toBe(403);
    expect(res.body.name).toBe("insufficient_scope");
  });

  test("a key restricted to a domain may not send from another", async () => {
    await t.app.services.domains.add(t.operator, "other.example", { verifiedOverride: true });
    const created = await t.json("POST", "/v1/api-keys", {
      body: { name: "scoped", scopes: ["sending_access"], domains: ["example.com"] },
    });
    expect((await t.json("POST", "/v1/emails", { key: created.body.token, body: message() })).status).toBe(200);
    const res = await t.json("POST", "/v1/emails", {
      key: created.body.token,
      body: message({ from: "x@other.example" }),
    });
    expect(res.status).toBe(403);
  });
});

describe("routing", () => {
  test("an unknown route is 404 not_found in the error shape", async () => {
    const res = await t.json("GET", "/v1/nothing-here");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "Not Found", name: "not_found", statusCode: 404 });
  });

  test("a known route with another method is 405 with Allow", async () => {
    const res = await t.json("PUT", "/v1/emails");
    expect(res.status).toBe(405);
    expect(res.body.name).toBe("method_not_allowed");
    expect(res.headers.get("allow")).toContain("POST");
  });

  test("every response carries a request id", async () => {
    expect((await t.request("GET", "/healthz")).headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect((await t.request("GET", "/v1/nope")).headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("the OpenAPI document describes both forms and the docs page loads only local assets", async () => {
    const spec = await t.json("GET", "/openapi.json", { key: null });
    expect(Object.keys(spec.body.paths)).toEqual(
      expect.arrayContaining([
        "/v1/emails",
        "/functions/v1/send-email",
        "/v1/emails/{id}",
        "/functions/v1/send-email/{id}",
      ]),
    );
    // The docs list the areas in the declared order, sending first; every operation is under one of them.
    const areas = (spec.body.tags as Array<{ name: string }>).map((tag) => tag.name);
    expect(areas[0]).toBe("Emails");
    expect(areas.at(-1)).toBe("Operations");
    const untagged = Object.entries(spec.body.paths as Record<string, Record<string, { tags?: string[] }>>).flatMap(
      ([path, operations]) =>
        Object.entries(operations)
          .filter(([, operation]) => !operation.tags?.length || !operation.tags.every((tag) => areas.includes(tag)))
          .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(untagged).toEqual([]);
    const page = await (await t.request("GET", "/docs", { key: null })).text();
    expect(page).not.toMatch(/https?:\/\//);
    const bundle = await t.request("GET", "/docs/assets/swagger-ui-bundle.js", { key: null });
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});

describe("idempotency", () => {
  test("the same key and body replay the original response; nothing is sent twice", async () => {
    const headers = { "idempotency-key": "order-1001" };
    const first = await t.json("POST", "/v1/emails", { body: message({ subject: "Order" }), headers });
    const second = await t.json("POST", "/functions/v1/send-email", {
      body: Object.fromEntries(Object.entries(message({ subject: "Order" })).reverse()),
      headers,
    });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const list = await t.json("GET", "/v1/emails?limit=100");
    expect(list.body.data.filter((e: { subject: string }) => e.subject === "Order")).toHaveLength(1);
  });

  test("the same key with another body is 409 invalid_idempotent_request", async () => {
    const headers = { "idempotency-key": "order-1002" };
    await t.json("POST", "/v1/emails", { body: message(), headers });
    const res = await t.json("POST", "/v1/emails", { body: message({ subject: "Changed" }), headers });
    expect(res.status).toBe(409);
    expect(res.body.name).toBe("invalid_idempotent_request");
  });

  test("the same key still in flight is 409 concurrent_idempotent_requests, and free again once that request failed", async () => {
    const headers = { "idempotency-key": "order-1003" };
    const actor = await t.app.services.keys.authenticate(t.liveKey);
    // A request holding the key (as another instance would, through the shared store).
    const held = await t.app.services.idempotency.begin(actor.keyId!, "emails.send", "order-1003", message());
    expect(held.kind).toBe("claimed");
    const busy = await t.json("POST", "/v1/emails", { body: message(), headers });
    expect([busy.status, busy.body.name]).toEqual([409, "concurrent_idempotent_requests"]);
    if (held.kind === "claimed") await held.release();
    expect((await t.json("POST", "/v1/emails", { body: message(), headers })).status).toBe(200);
  });

  test("a key held by an instance that died is taken over after two minutes", async () => {
    const clock = new ManualClock(Date.now());
    const own = await createTestApp({}, { clock });
    try {
      await own.app.services.domains.add(own.operator, "example.com", { verifiedOverride: true });
      const headers = { "idempotency-key": "order-1004" };
      const actor = await own.app.services.keys.authenticate(own.liveKey);
      expect(
        (await own.app.services.idempotency.begin(actor.keyId!, "emails.send", "order-1004", message())).kind,
      ).toBe("claimed");
      expect((await own.json("POST", "/v1/emails", { body: message(), headers })).status).toBe(409);
      clock.advance(120_001);
      expect((await own.json("POST", "/v1/emails", { body: message(), headers })).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  test("a failed request does not consume the key", async () => {
    const headers = { "idempotency-key": "order-1004" };
    expect((await t.json("POST", "/v1/emails", { body: message({ to: "bad" }), headers })).status).toBe(400);
    expect((await t.json("POST", "/v1/emails", { body: message(), headers })).status).toBe(200);
  });

  test("an overlong key is 400 invalid_idempotency_key", async () => {
    const res = await t.json("POST", "/v1/emails", {
      body: message(),
      headers: { "idempotency-key": "k".repeat(257) },
    });
    expect(res.status).toBe(400);
    expect(res.body.name).toBe("invalid_idempotency_key");
  });
});

describe("rate limits", () => {
  test("a key over its limit gets 429 with Retry-After and RateLimit headers", async () => {
    const created = await t.json("POST", "/v1/api-keys", {
      body: { name: "slow", scopes: ["full_access"], rate_limit_per_minute: 2 },
    });
    const key = created.body.token;
    const first = await t.json("GET", "/v1/emails?limit=1", { key });
    expect(first.headers.get("ratelimit-limit")).toBe("2");
    expect(first.headers.get("ratelimit-remaining")).toBe("1");
    expect(first.headers.get("ratelimit-policy")).toContain("2;w=60");
    await t.json("GET", "/v1/emails?limit=1", { key });
    const refused = await t.json("POST", "/v1/emails", { key, body: message() });
    expect(refused.status).toBe(429);
    expect(refused.body.name).toBe("rate_limit_exceeded");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
  });
});

describe("batch", () => {
  test("sends every message and answers their ids in order", async () => {
    const res = await t.json("POST", "/v1/emails/batch", {
      body: [message({ subject: "B1" }), message({ subject: "B2" })],
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    const second = await t.json("GET", `/v1/emails/${res.body.data[1].id}`);
    expect(second.body.subject).toBe("B2");
  });

  test("one invalid message rejects the whole batch, naming it", async () => {
    const before = (await t.json("GET", "/v1/emails?limit=100")).body.data.length;
    const res = await t.json("POST", "/v1/emails/batch", { body: [message(), message({ to: "bad" })] });
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe("1.to");
    expect((await t.json("GET", "/v1/emails?limit=100")).body.data.length).toBe(before);
  });

  test("more than 100 messages is a validation error, and none of them is stored", async () => {
    const before = (await t.json("GET", "/v1/emails?limit=100")).body.data.length;
    const res = await t.json("POST", "/v1/emails/batch", { body: Array.from({ length: 101 }, () => message()) });
    expect(res.status).toBe(400);
    expect((await t.json("GET", "/v1/emails?limit=100")).body.data.length).toBe(before);
  });
});

describe("listing", () => {
  test("pages with cursors, newest first, and filters by tag, recipient and status", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.json("POST", "/v1/emails", {
        body: message({ to: `list${i}@x.org`, tags: [{ name: "batch", value: i % 2 ? "odd" : "even" }] }),
      });
      ids.push(res.body.id);
    }
    const page1 = await t.json("GET", "/v1/emails?limit=2&tag=batch");
    expect(page1.body.data.map((e: { id: string }) => e.id)).toEqual([ids[4], ids[3]]);
    expect(page1.body.has_more).toBe(true);
    const page2 = await t.json("GET", `/v1/emails?limit=2&tag=batch&after=${ids[3]}`);
    expect(page2.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    const back = await t.json("GET", `/v1/emails?limit=2&tag=batch&before=${ids[2]}`);
    expect(back.body.data.map((e: { id: string }) => e.id)).toEqual([ids[4], ids[3]]);
    const odd = await t.json("GET", "/v1/emails?tag=batch:odd");
    expect(odd.body.data.map((e: { id: string }) => e.id)).toEqual([ids[3], ids[1]]);
    const to = await t.json("GET", "/v1/emails?to=LIST2@x.org");
    expect(to.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2]]);
    const queued = (await t.json("GET", "/v1/emails?status=queued&limit=100")).body.data;
    expect(queued.every((e: { status: string }) => e.status === "queued")).toBe(true);
    expect(queued.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining(ids));
    // A rare state is read through its own index on SQLite: the same answers, newest first, paged.
    const canceled: string[] = [];
    for (let i = 0; i < 2; i++) {
      const scheduled = await t.json("POST", "/v1/emails", {
        body: message({ to: `later${i}@x.org`, scheduled_at: new Date(Date.now() + 3_600_000).toISOString() }),
      });
      expect((await t.json("POST", `/v1/emails/${scheduled.body.id}/cancel`)).status).toBe(200);
      canceled.push(scheduled.body.id);
    }
    const newest = await t.json("GET", "/v1/emails?status=canceled&limit=1");
    expect(newest.body.data.map((e: { id: string; status: string }) => [e.id, e.status])).toEqual([
      [canceled[1], "canceled"],
    ]);
    expect(newest.body.has_more).toBe(true);
    const older = await t.json("GET", `/v1/emails?status=canceled&limit=1&after=${canceled[1]}`);
    expect(older.body.data.map((e: { id: string }) => e.id)).toEqual([canceled[0]]);
  });

  test.each([["limit=0"], ["limit=101"], ["after=xyz"], ["status=lost"]])("rejects %s", async (query) => {
    const res = await t.json("GET", `/v1/emails?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.name).toBe("validation_error");
  });
});

describe("scheduling", () => {
  test("a scheduled message waits, can be canceled once, and is never sent", async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const sent = await t.json("POST", "/v1/emails", { body: message({ scheduled_at: at }) });
    const record = await t.json("GET", `/v1/emails/${sent.body.id}`);
    expect(record.body).toMatchObject({ status: "scheduled", scheduled_at: at });
    await t.app.services.worker.runOnce();
    expect((await t.json("GET", `/v1/emails/${sent.body.id}`)).body.recipients[0].status).toBe("queued");
    const canceled = await t.json("POST", `/v1/emails/${sent.body.id}/cancel`);
    expect(canceled.body).toEqual({ object: "email", id: sent.body.id, status: "canceled" });
    const after = await t.json("GET", `/v1/emails/${sent.body.id}`);
    expect(after.body.status).toBe("canceled");
    expect(after.body.recipients).toEqual([
      expect.objectContaining({ status: "canceled", last_response: "canceled before sending" }),
    ]);
    expect(after.body.events.map((e: { type: string }) => e.type)).toEqual(["email.scheduled", "email.canceled"]);
    const again = await t.json("POST", `/v1/emails/${sent.body.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.name).toBe("conflict");
  });

  test("a scheduled message is not sent before its time, and is sent once the clock passes it", async () => {
    const clock = new ManualClock(Date.now());
    const own = await createTestApp({}, { clock });
    try {
      await own.app.services.domains.add(own.operator, "example.com", { verifiedOverride: true });
      const at = clock.now() + 3_600_000;
      const sent = await own.json("POST", "/v1/emails", {
        body: message({ scheduled_at: new Date(at).toISOString() }),
      });
      const status = async () => (await own.json("GET", `/v1/emails/${sent.body.id}`)).body.recipients[0].status;
      clock.set(at - 1);
      expect(await own.app.services.worker.runOnce()).toBe(0);
      expect(await status()).toBe("queued");
      clock.set(at);
      expect(await own.app.services.worker.runOnce()).toBe(1);
      expect(await status()).toBe("delivered");
    } finally {
      await own.close();
    }
  });

  test("an immediate message can be canceled while it waits, not once it was delivered (DESIGN §12)", async () => {
    // A key of its own: the file's key spends most of its 100 requests a minute in the other tests.
    const own = {
      key: (await t.app.services.keys.create(t.operator, { name: "cancel", scopes: ["full_access"] })).key,
    };
    const waiting = await t.json("POST", "/v1/emails", { body: message(), ...own });
    expect((await t.json("POST", `/v1/emails/${waiting.body.id}/cancel`, own)).status).toBe(200);
    expect((await t.json("GET", `/v1/emails/${waiting.body.id}`, own)).body.recipients[0].status).toBe("canceled");
    const delivered = await t.json("POST", "/v1/emails", { body: message(), ...own });
    await t.app.services.worker.runOnce();
    const refused = await t.json("POST", `/v1/emails/${delivered.body.id}/cancel`, own);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain("No recipient of this email is still waiting");
  });
});

describe("raw message", () => {
  test("GET /v1/emails/:id/raw returns the stored MIME as message/rfc822, without Bcc", async () => {
    const sent = await t.json("POST", "/v1/emails", {
      body: message({
        bcc: "secret@x.org",
        headers: { "X-Campaign": "fall" },
        attachments: [{ filename: "a.txt", content: Buffer.from("hello").toString("base64") }],
      }),
    });
    const res = await t.request("GET", `/v1/emails/${sent.body.id}/raw`);
    expect(res.headers.get("content-type")).toBe("message/rfc822");
    const raw = await res.text();
    expect(raw).toContain(`Message-ID: <${sent.body.id}@example.com>`);
    expect(raw).toContain("X-Campaign: fall");
    expect(raw).toContain("Content-Disposition: attachment; filename=a.txt");
    expect(raw).not.toMatch(/^bcc:/im);
    expect(raw).not.toContain("secret@x.org");
  });

  test("an attachment with a content_id is an inline part the html refers to with cid:", async () => {
    const pixel = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
    const sent = await t.json("POST", "/v1/emails", {
      body: message({
        html: '<p>Logo: <img src="cid:logo@acme"></p>',
        attachments: [
          {
            filename: "logo.gif",
            content: pixel.toString("base64"),
            content_type: "image/gif",
            content_id: "logo@acme",
          },
          { filename: "terms.txt", content: Buffer.from("terms").toString("base64") },
        ],
      }),
    });
    expect(sent.status).toBe(200);
    const parsed = await simpleParser(
      Buffer.from(await (await t.request("GET", `/v1/emails/${sent.body.id}/raw`)).arrayBuffer()),
    );
    const logo = parsed.attachments.find((a) => a.filename === "logo.gif")!;
    expect(logo).toMatchObject({
      contentDisposition: "inline",
      contentId: "<logo@acme>",
      contentType: "image/gif",
      related: true,
    });
    expect(logo.content.equals(pixel)).toBe(true);
    const terms = parsed.attachments.find((a) => a.filename === "terms.txt")!;
    expect(terms.contentDisposition).toBe("attachment");
    expect(terms.related).toBeFalsy();
    // mailparser resolves a cid: reference to the part with that Content-ID (as a data: URL): the reference holds.
    expect(parsed.html).toContain(`src="data:image/gif;base64,${pixel.toString("base64")}"`);
  });
});

describe("API keys", () => {
  test("a key is shown once, listed without its secret, and stops working when revoked", async () => {
    const created = await t.json("POST", "/v1/api-keys", { body: { name: "ci", scopes: ["sending_access"] } });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^mr_live_[0-9A-Za-z]{32}$/);
    expect(created.body).not.toHaveProperty("key");
    expect(created.body.scopes).toEqual(["emails:send"]);
    const list = await t.json("GET", "/v1/api-keys");
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
    expect(list.body.data.find((k: { id: string }) => k.id === created.body.id).token_prefix).toBe(
      created.body.token.slice(0, 12),
    );
    expect((await t.json("DELETE", `/v1/api-keys/${created.body.id}`)).body).toEqual({
      object: "api_key",
      id: created.body.id,
      deleted: true,
    });
    // Revoked keys leave the list unless asked for.
    expect((await t.json("GET", "/v1/api-keys")).body.data.some((k: { id: string }) => k.id === created.body.id)).toBe(
      false,
    );
    const all = await t.json("GET", "/v1/api-keys?include_revoked=true");
    expect(all.body.data.find((k: { id: string }) => k.id === created.body.id).revoked_at).toEqual(expect.any(String));
    const refused = await t.json("POST", "/v1/emails", { key: created.body.token, body: message() });
    expect(refused.status).toBe(401);
  });

  test("any key may ask what it itself may do, and learns nothing of other keys", async () => {
    const created = await t.json("POST", "/v1/api-keys", {
      body: { name: "sender", scopes: ["sending_access"], domains: ["example.com"] },
    });
    const current = await t.json("GET", "/v1/api-keys/current", { key: created.body.token });
    expect(current.status).toBe(200);
    expect(current.body).toEqual({
      object: "api_key",
      id: created.body.id,
      mode: "live",
      scopes: ["emails:send"],
      domains: ["example.com"],
      reads_message_content: true,
    });
    expect((await t.json("GET", "/v1/api-keys", { key: created.body.token })).status).toBe(403);
    expect((await t.json("GET", "/v1/api-keys/current", { key: t.testKey })).body.mode).toBe("test");
    expect((await t.json("GET", "/v1/api-keys/current", { key: "mr_live_nope" })).status).toBe(401);
  });

  test("unknown scopes are refused and a test key cannot mint a live key", async () => {
    expect(
      (await t.json("POST", "/v1/api-keys", { body: { name: "x", scopes: ["everything"] } })).body.details[0].path,
    ).toBe("scopes.0");
    expect(
      (
        await t.json("POST", "/v1/api-keys", {
          key: t.testKey,
          body: { name: "x", scopes: ["full_access"], mode: "live" },
        })
      ).status,
    ).toBe(403);
    const made = await t.json("POST", "/v1/api-keys", { key: t.testKey, body: { name: "x", scopes: ["full_access"] } });
    expect(made.body.token).toStartWith("mr_test_");
  });
});

describe("suppressions", () => {
  test("add, get, list, remove; a duplicate is 409", async () => {
    const added = await t.json("POST", "/v1/suppressions", { body: { email: "Someone@Example.ORG" } });
    expect(added.body).toMatchObject({ email: "someone@example.org", origin: "manual" });
    expect((await t.json("POST", "/v1/suppressions", { body: { email: "someone@example.org" } })).status).toBe(409);
    expect((await t.json("GET", "/v1/suppressions/someone@example.org")).body.email).toBe("someone@example.org");
    expect((await t.json("GET", "/v1/suppressions?search=someone")).body.data).toHaveLength(1);
    expect((await t.json("DELETE", "/v1/suppressions/someone@example.org")).status).toBe(200);
    expect((await t.json("GET", "/v1/suppressions/someone@example.org")).status).toBe(404);
    expect((await t.json("POST", "/v1/suppressions", { body: { email: "nope" } })).status).toBe(400);
  });
});

describe("operations", () => {
  test("metrics count requests, accepted emails and queue depth as they change", async () => {
    const own = await createTestApp();
    try {
      await own.app.services.domains.add(own.operator, "example.com", { verifiedOverride: true });
      const scrape = async () => {
        const text = await (await own.request("GET", "/metrics", { key: null })).text();
        const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? NaN);
        return {
          // A counter has no line before its first increment.
          accepted: value(/^mailroom_emails_accepted_total (\d+)$/m) || 0,
          due: value(/^mailroom_queue_due (\d+)$/m),
          sends: value(/^mailroom_http_requests_total\{[^}]*route="\/v1\/emails"[^}]*status="200"[^}]*\} (\d+)$/m) || 0,
        };
      };
      const before = await scrape();
      expect(before.accepted).toBe(0);
      expect(before.due).toBe(0);
      for (let i = 0; i < 2; i++) expect((await own.json("POST", "/v1/emails", { body: message() })).status).toBe(200);
      // Requests are counted once their answer has gone out, a moment after the client has it.
      let queued = await scrape();
      for (let i = 0; i < 50 && queued.sends < before.sends + 2; i++) queued = (await Bun.sleep(10), await scrape());
      expect(queued.accepted).toBe(2);
      expect(queued.due).toBe(2);
      expect(queued.sends).toBe(before.sends + 2);
      await own.app.services.worker.runOnce();
      expect((await scrape()).due).toBe(0);
    } finally {
      await own.close();
    }
  });

  test("readyz is 503 until the app is started, 200 while it runs, and 503 again once it stops", async () => {
    const own = await createTestApp();
    try {
      expect((await own.request("GET", "/readyz", { key: null })).status).toBe(503);
      expect((await own.request("GET", "/healthz", { key: null })).status).toBe(200);
      await own.app.start();
      expect((await own.request("GET", "/readyz", { key: null })).status).toBe(200);
      await own.app.stop();
      expect((await own.request("GET", "/readyz", { key: null })).status).toBe(503);
    } finally {
      await own.close();
    }
  });
});

describe("unknown errors", () => {
  test("become 500 internal_error with a request id and nothing internal", async () => {
    const broken = await createTestApp();
    await broken.app.services.store.close();
    const res = await broken.json("GET", "/v1/emails");
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ name: "internal_error", statusCode: 500, request_id: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toMatch(/database|sqlite|closed/i);
  });
});
