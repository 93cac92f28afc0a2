/**
 * The two lists a sender keeps beside its mail, through the HTTP API: API keys (shown once, listed without their
 * secret, revoked, asked what they may do, never minted above the asking key's mode) and suppressions (added in any
 * case, read, searched, removed).
 */
import { describe, expect, test } from "bun:test";
import type { TestApp } from "./helpers/app.ts";
import { message, setUpApiTestApp } from "./helpers/http-api.ts";

let t: TestApp;

setUpApiTestApp((app) => (t = app));

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
