/**
 * The request log (docs/logs-and-mcp.md#the-request-log) through the HTTP API on a real store: every request made
 * with a key is recorded with its bodies, secrets replaced on every route (API keys minted, a password, a webhook
 * signing secret, a TOTP code, attachment content — each searched for in every entry); the filters and paging; who
 * may read it (a test key only test keys' requests; a sending key nothing); retention; and a body too large to keep.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";

const clock = new ManualClock(Date.now());
let t: TestApp;
const ATTACHMENT = "the attachment's secret content 7f3a";
const PASSWORD = "correct horse battery staple 42";
const TOTP_CODE = "493817";
let mintedToken: string;
let signingSecret: string;
let sendingKey: string;

/** Everything recorded so far, every entry read whole (list, then each by id). */
async function allEntries(key = t.liveKey) {
  await settle();
  const entries: any[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await t.json("GET", `/v1/logs?limit=100${after ? `&after=${after}` : ""}`, { key });
    expect(page.status).toBe(200);
    for (const item of page.body.data) entries.push((await t.json("GET", `/v1/logs/${item.id}`, { key })).body);
    if (!page.body.has_more) return entries;
    after = page.body.data.at(-1).id;
  }
}

/** The root records a request after its answer is sent; then the recorder writes what it holds. */
async function settle() {
  await Bun.sleep(20);
  await t.app.services.requestLog.flush();
}

beforeAll(async () => {
  t = await createTestApp(
    {
      webhooks: { allow_private_networks: true },
      limits: { key_requests_per_minute: 100_000, org_requests_per_minute: 100_000 },
    },
    { clock },
  );
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  const attachment = Buffer.from(ATTACHMENT).toString("base64");
  const sent = await t.json("POST", "/v1/emails", {
    body: {
      from: "Acme <hi@example.com>",
      to: "reader@x.org",
      subject: "Receipt",
      text: "Thanks",
      attachments: [{ filename: "receipt.txt", content: attachment }],
    },
    headers: { "user-agent": "request-log-test/1" },
  });
  expect(sent.status).toBe(200);
  const minted = await t.json("POST", "/v1/api-keys", { body: { name: "minted", permission: "sending_access" } });
  expect(minted.status).toBe(201);
  mintedToken = minted.body.token;
  sendingKey = mintedToken;
  const hook = await t.json("POST", "/v1/webhooks", {
    body: { endpoint: "http://127.0.0.1:1/hook", events: ["email.sent"] },
  });
  signingSecret = hook.body.signing_secret;
  expect(signingSecret).toStartWith("whsec_");
  // A key cannot use a person's routes, but what it sent is recorded — without the password or the code.
  expect(
    (await t.json("POST", "/v1/me/password", { body: { current_password: PASSWORD, password: PASSWORD } })).status,
  ).toBe(403);
  expect((await t.json("POST", "/v1/me/totp/confirm", { body: { code: TOTP_CODE } })).status).toBe(403);
  // A key pasted where no field name gives it away.
  await t.json("POST", "/v1/emails", {
    body: { from: "hi@example.com", to: "x@x.org", subject: `key ${t.liveKey}`, text: `secret ${signingSecret}` },
  });
  await t.json("GET", "/v1/emails/01a24f3a-0000-7000-8000-000000000000");
  await t.json("POST", "/v1/emails", {
    key: t.testKey,
    body: { from: "hi@example.com", to: "x@x.org", subject: "t", text: "t" },
  });
});
afterAll(() => t.close());

describe("recording", () => {
  test("each request made with a key is an entry: endpoint without /v1, method, status, user agent, key, bodies", async () => {
    const entries = await allEntries();
    const send = entries.find((e) => e.endpoint === "/emails" && e.user_agent === "request-log-test/1");
    expect(send).toMatchObject({
      object: "log",
      method: "POST",
      response_status: 200,
      request_body: {
        from: "Acme <hi@example.com>",
        subject: "Receipt",
        attachments: [{ filename: "receipt.txt", content: "[redacted]" }],
      },
      response_body: { message: "Email sent." },
    });
    expect(send.api_key_id).toBeString();
    const missing = entries.find((e) => e.method === "GET" && e.endpoint.startsWith("/emails/01a24f3a"));
    expect(missing).toMatchObject({ response_status: 404, request_body: null, response_body: { name: "not_found" } });
  });

  test("no entry holds a secret the requests carried: keys, password, signing secret, TOTP code, attachment", async () => {
    const secrets = [
      t.liveKey,
      t.testKey,
      mintedToken,
      PASSWORD,
      signingSecret,
      TOTP_CODE,
      ATTACHMENT,
      Buffer.from(ATTACHMENT).toString("base64"),
    ];
    const entries = [...(await allEntries()), ...(await allEntries(t.testKey))];
    expect(entries.length).toBeGreaterThan(8);
    const text = JSON.stringify(entries);
    for (const secret of secrets) expect(text).not.toContain(secret);
    const password = entries.find((e) => e.endpoint === "/me/password");
    expect(password.request_body).toEqual({ current_password: "[redacted]", password: "[redacted]" });
    expect(entries.find((e) => e.endpoint === "/me/totp/confirm").request_body).toEqual({ code: "[redacted]" });
    expect(entries.find((e) => e.endpoint === "/api-keys" && e.method === "POST").response_body.token).toBe(
      "[redacted]",
    );
    expect(entries.find((e) => e.endpoint === "/webhooks").response_body.signing_secret).toBe("[redacted]");
  });

  test("filters: status, method, api_key_id and endpoint; paging by cursors", async () => {
    await settle();
    const notFound = await t.json("GET", "/v1/logs?status=404");
    expect(notFound.body.data.length).toBeGreaterThan(0);
    expect(notFound.body.data.every((e: any) => e.response_status === 404)).toBe(true);
    const posts = await t.json("GET", "/v1/logs?method=post");
    expect(posts.body.data.every((e: any) => e.method === "POST")).toBe(true);
    const first = await t.json("GET", "/v1/logs?limit=1");
    expect(first.body.has_more).toBe(true);
    // What the admin UI says of the log: kept [retention] logs (30 days by default), recording on.
    expect(first.body).toMatchObject({ retention_days: 30, recording: true });
    const second = await t.json("GET", `/v1/logs?limit=1&after=${first.body.data[0].id}`);
    expect(second.body.data[0].id < first.body.data[0].id).toBe(true);
    const byKey = await t.json("GET", `/v1/logs?api_key_id=${first.body.data[0].api_key_id}`);
    expect(byKey.body.data.every((e: any) => e.api_key_id === first.body.data[0].api_key_id)).toBe(true);
    expect((await t.json("GET", "/v1/logs?status=abc")).status).toBe(400);
    // An endpoint is the path or its start at a "/": /emails is the sends and the look-ups, not /emails-x.
    const emails = (await t.json("GET", "/v1/logs?endpoint=/emails&limit=100")).body.data;
    expect(emails.some((e: any) => e.endpoint === "/emails")).toBe(true);
    expect(emails.some((e: any) => e.endpoint.startsWith("/emails/01a24f3a"))).toBe(true);
    expect(emails.every((e: any) => e.endpoint === "/emails" || e.endpoint.startsWith("/emails/"))).toBe(true);
    const one = (await t.json("GET", "/v1/logs?endpoint=/emails/01a24f3a-0000-7000-8000-000000000000")).body.data;
    expect(one.map((e: any) => e.response_status)).toEqual([404]);
    // LIKE's wildcards are taken literally: "/_mails" matches nothing.
    expect((await t.json("GET", "/v1/logs?endpoint=/_mails")).body.data).toEqual([]);
    expect((await t.json("GET", "/v1/logs?endpoint=emails")).status).toBe(400);
  });

  test("a body over the stored size is kept as its size; long strings are cut", async () => {
    const html = `<p>${"x".repeat(5_000)}</p>`;
    const many = Array.from({ length: 40 }, (_, i) => ({
      filename: `f${i}.txt`,
      content_type: "text/plain",
      content: "eA==",
      content_id: "y".repeat(1_500),
    }));
    await t.json("POST", "/v1/emails", {
      body: { from: "hi@example.com", to: "x@x.org", subject: "big", html, attachments: many },
    });
    await t.json("POST", "/v1/emails", { body: { from: "hi@example.com", to: "x@x.org", subject: "long", html } });
    const entries = await allEntries();
    const big = entries.find((e) => e.request_body?.truncated);
    expect(big.request_body.bytes).toBeGreaterThan(32 * 1024);
    const long = entries.find((e) => e.request_body?.subject === "long");
    expect(long.request_body.html.length).toBeLessThan(2_100);
    expect(long.request_body.html).toContain("more characters]");
  });
});

describe("who reads it", () => {
  test("a test key reads test keys' requests only; a live entry is not found to it", async () => {
    const live = await allEntries();
    const test = await allEntries(t.testKey);
    expect(test.length).toBeGreaterThan(0);
    const liveIds = new Set(live.map((e) => e.id));
    const testKeyId = test[0].api_key_id;
    expect(test.every((e) => e.api_key_id === testKeyId)).toBe(true);
    const liveOnly = live.find((e) => e.api_key_id !== testKeyId)!;
    expect((await t.json("GET", `/v1/logs/${liveOnly.id}`, { key: t.testKey })).status).toBe(404);
    expect(test.some((e) => liveIds.has(e.id) && e.api_key_id !== testKeyId)).toBe(false);
  });

  test("a sending-only key may not read it (403 insufficient_scope naming logs:read)", async () => {
    const refused = await t.json("GET", "/v1/logs", { key: sendingKey });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ name: "insufficient_scope" });
    expect(refused.body.message).toContain("logs:read");
  });

  test("an unknown key is not recorded: it belongs to no organisation", async () => {
    await settle();
    const before = (await t.json("GET", "/v1/logs?status=401")).body.data.length;
    expect((await t.json("GET", "/v1/emails", { key: "mr_live_nonsense" })).status).toBe(401);
    await settle();
    expect((await t.json("GET", "/v1/logs?status=401")).body.data.length).toBe(before);
  });
});

test("retention removes entries older than [retention] logs (30 days), and keeps younger ones", async () => {
  await settle();
  const before = (await t.json("GET", "/v1/logs?limit=100")).body.data.length;
  expect(before).toBeGreaterThan(0);
  clock.advance(29 * 86_400_000);
  expect((await t.app.services.retention.runOnce()).requestLogsRemoved).toBe(0);
  clock.advance(2 * 86_400_000);
  const run = await t.app.services.retention.runOnce();
  expect(run.requestLogsRemoved).toBeGreaterThanOrEqual(before);
  await settle();
  const after = (await t.json("GET", "/v1/logs?limit=100")).body.data;
  // What remains is younger than 30 days: the reads this test made as the clock moved.
  expect(after.length).toBeLessThan(before);
  expect(after.every((e: any) => Date.parse(e.created_at) > clock.now() - 30 * 86_400_000)).toBe(true);
});
