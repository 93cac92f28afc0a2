/**
 * Sending through the HTTP API (`app.handle` on a real temporary store): both path forms answer and fail alike, the
 * message is committed before the answer, bodies of text alone or deeply nested html, the sending policy (test keys,
 * every problem with its path, suppressed recipients, scopes and domain-restricted keys), batches that are stored
 * whole or not at all, and the raw MIME that was stored. Idempotency and rate limits, listing and scheduling, keys
 * and suppressions, and the routes common to every area have files of their own (http-api-*.test.ts).
 */
import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { openStore } from "../src/db/open.ts";
import { silentLogger } from "../src/lib/logger.ts";
import type { TestApp } from "./helpers/app.ts";
import { message, setUpApiTestApp } from "./helpers/http-api.ts";

let t: TestApp;

setUpApiTestApp((app) => (t = app));

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
