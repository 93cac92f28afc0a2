/**
 * What a key may reach (docs/keys-and-limits.md), through the HTTP API on a real store: a test key is a sandbox that sees test-mode
 * mail only and changes no shared live state, and a key never mints a key with more rights than its own.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";

let t: TestApp;
let domainId: string;
let liveEmail: string;
let liveScheduled: string;
let testEmail: string;
let webhookId: string;
let templateId: string;
const message = (over: Record<string, unknown> = {}) => ({
  from: "Acme <hi@example.com>",
  to: ["reader@x.org"],
  subject: "Reset your password",
  text: "token 123",
  ...over,
});

beforeAll(async () => {
  t = await createTestApp({ webhooks: { allow_private_networks: true } });
  domainId = (await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true })).id;
  liveEmail = (await t.json("POST", "/v1/emails", { body: message() })).body.id;
  liveScheduled = (
    await t.json("POST", "/v1/emails", {
      body: message({ scheduled_at: new Date(Date.now() + 3_600_000).toISOString() }),
    })
  ).body.id;
  testEmail = (await t.json("POST", "/v1/emails", { key: t.testKey, body: message({ subject: "A test" }) })).body.id;
  webhookId = (
    await t.json("POST", "/v1/webhooks", { body: { endpoint: "http://127.0.0.1:1/hook", events: ["email.sent"] } })
  ).body.id;
  templateId = (await t.json("POST", "/v1/templates", { body: { name: "welcome", html: "<p>Hi</p>" } })).body.id;
  await t.json("POST", "/v1/suppressions", { body: { email: "gone@x.org" } });
});
afterAll(() => t.close());

const refusedBySandbox = (res: { status: number; body: { name: string; message: string } }) => {
  expect(res.status).toBe(403);
  expect(res.body.name).toBe("insufficient_scope");
  expect(res.body.message).toContain("sandbox");
};

describe("finding 2: test keys are a sandbox", () => {
  test("live mail does not exist for a test key: record, raw MIME, attachments, list, cancel and reschedule", async () => {
    const as = { key: t.testKey };
    for (const path of [
      `/v1/emails/${liveEmail}`,
      `/v1/emails/${liveEmail}/raw`,
      `/v1/emails/${liveEmail}/attachments`,
      `/functions/v1/send-email/${liveEmail}`,
    ]) {
      expect((await t.json("GET", path, as)).status).toBe(404);
    }
    expect((await t.json("POST", `/v1/emails/${liveScheduled}/cancel`, as)).status).toBe(404);
    expect(
      (
        await t.json("PATCH", `/v1/emails/${liveScheduled}`, {
          ...as,
          body: { scheduled_at: new Date(Date.now() + 7_200_000).toISOString() },
        })
      ).status,
    ).toBe(404);
    expect((await t.json("GET", `/v1/emails/${liveScheduled}`)).body.status).toBe("scheduled");

    const listed = (await t.json("GET", "/v1/emails?limit=100", as)).body.data.map((e: { id: string }) => e.id);
    expect(listed).toEqual([testEmail]);
    expect(
      (await t.json("GET", "/v1/emails?limit=100&status=delivered", as)).body.data.map((e: { id: string }) => e.id),
    ).not.toContain(liveEmail);
    expect((await t.json("GET", `/v1/emails/${testEmail}`, as)).body.subject).toBe("A test");
    // A live key still sees both.
    const all = (await t.json("GET", "/v1/emails?limit=100")).body.data.map((e: { id: string }) => e.id);
    expect(all).toEqual(expect.arrayContaining([liveEmail, liveScheduled, testEmail]));
  });

  test("statistics count a test key's own mode only", async () => {
    const as = (key: string) => t.json("GET", "/v1/emails/stats", { key }).then((res) => res.body.totals);
    expect((await as(t.testKey)).accepted).toBe(1);
    expect((await as(t.liveKey)).accepted).toBe(3);
  });

  test("every change to shared live state is refused, saying why", async () => {
    const as = { key: t.testKey };
    refusedBySandbox(await t.json("POST", "/v1/domains", { ...as, body: { name: "other.example" } }));
    refusedBySandbox(await t.json("PATCH", `/v1/domains/${domainId}`, { ...as, body: { click_tracking: true } }));
    refusedBySandbox(await t.json("DELETE", `/v1/domains/${domainId}`, as));
    refusedBySandbox(await t.json("POST", "/v1/suppressions", { ...as, body: { email: "someone@x.org" } }));
    refusedBySandbox(await t.json("DELETE", "/v1/suppressions/gone@x.org", as));
    refusedBySandbox(
      await t.json("POST", "/v1/webhooks", {
        ...as,
        body: { endpoint: "http://127.0.0.1:1/other", events: ["email.sent"] },
      }),
    );
    refusedBySandbox(await t.json("DELETE", `/v1/webhooks/${webhookId}`, as));
    refusedBySandbox(await t.json("POST", "/v1/templates", { ...as, body: { name: "x", html: "<p>x</p>" } }));
    refusedBySandbox(await t.json("PATCH", `/v1/templates/${templateId}`, { ...as, body: { html: "<p>changed</p>" } }));
    refusedBySandbox(
      await t.json("DELETE", `/v1/api-keys/${(await t.json("GET", "/v1/api-keys/current")).body.id}`, as),
    );
    refusedBySandbox(
      await t.json("PATCH", `/v1/api-keys/${(await t.json("GET", "/v1/api-keys/current")).body.id}`, {
        ...as,
        body: { name: "mine now" },
      }),
    );
    // Nothing changed: the live key works, the domain is untouched, the suppression and the webhook remain.
    expect((await t.json("GET", `/v1/domains/${domainId}`)).body.click_tracking).toBe(false);
    expect((await t.json("GET", "/v1/suppressions/gone@x.org")).status).toBe(200);
    expect((await t.json("GET", `/v1/webhooks/${webhookId}`)).status).toBe(200);
    expect((await t.json("GET", "/v1/api-keys")).status).toBe(200);
  });

  test("live data is not readable; domains and templates are", async () => {
    const as = { key: t.testKey };
    refusedBySandbox(await t.json("GET", "/v1/suppressions", as));
    refusedBySandbox(await t.json("GET", "/v1/webhooks", as));
    refusedBySandbox(await t.json("GET", `/v1/webhooks/${webhookId}`, as));
    refusedBySandbox(await t.json("GET", "/v1/emails/receiving", as));
    expect((await t.json("GET", `/v1/domains/${domainId}`, as)).status).toBe(200);
    expect((await t.json("GET", `/v1/templates/${templateId}`, as)).status).toBe(200);
    const keys = (await t.json("GET", "/v1/api-keys?limit=100", as)).body.data;
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((key: { mode: string }) => key.mode === "test")).toBe(true);
    const current = (await t.json("GET", "/v1/api-keys/current", as)).body;
    expect(current.scopes).toContain("emails:send");
    expect(current.scopes).not.toContain("domains:write");
  });
});

describe("finding 3: a key never mints more than it holds", () => {
  const create = (key: string, body: Record<string, unknown>) =>
    t.json("POST", "/v1/api-keys", { key, body: { name: "minted", ...body } });
  const keyWith = async (body: Record<string, unknown>) => (await create(t.liveKey, body)).body.token as string;

  test("scopes: a key holding only api_keys:write cannot create a full_access key", async () => {
    const minter = await keyWith({ scopes: ["api_keys:write"] });
    const refused = await create(minter, {});
    expect(refused.status).toBe(403);
    expect(refused.body.name).toBe("insufficient_scope");
    expect(refused.body.message).toContain('"emails:send"');
    expect((await create(minter, { scopes: ["emails:send"] })).status).toBe(403);
    expect((await create(minter, { scopes: ["api_keys:write"] })).status).toBe(201);
  });

  test("domains: a key restricted to a domain cannot create an unrestricted key or one for another domain", async () => {
    const minter = await keyWith({ domains: ["example.com"] });
    const unrestricted = await create(minter, {});
    expect(unrestricted.status).toBe(403);
    expect(unrestricted.body.message).toContain("example.com");
    expect((await create(minter, { domains: ["other.example"] })).status).toBe(403);
    const within = await create(minter, { domain_id: domainId });
    expect(within.status).toBe(201);
    expect(within.body.domains).toEqual(["example.com"]);
  });

  test("rate limit: at most the creator's, and a creator's own limit is inherited", async () => {
    const refused = await create(t.liveKey, { rate_limit: 10_000_000 });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("10000000");
    const slow = await keyWith({ rate_limit: 50 });
    expect((await create(slow, { rate_limit: 51 })).status).toBe(403);
    const inherited = await create(slow, {});
    expect(inherited.status).toBe(201);
    expect(inherited.body.rate_limit_per_minute).toBe(50);
    // The operator at the console is not bound by a key's limit.
    expect(
      (
        await t.app.services.keys.create(t.operator, {
          name: "fast",
          scopes: ["full_access"],
          rateLimitPerMinute: 10_000_000,
        })
      ).rate_limit_per_minute,
    ).toBe(10_000_000);
  });

  test("mode: live only from live", async () => {
    const refused = await create(t.testKey, { mode: "live" });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain("test keys only");
    expect((await create(t.testKey, {})).body.token).toStartWith("mr_test_");
  });
});
