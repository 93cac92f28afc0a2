/**
 * The audit log (issue 29, docs/teams.md) on the suite's engine: a scripted session — a person signing in (once
 * wrongly), changing keys, domains, suppressions, templates, webhooks, pauses and the organisation's settings, an
 * API key and the operator at the CLI changing things too, then signing out — reads back from GET /v1/audit-log as
 * who did what, in order, with nothing secret in it; the filters; who may read it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { asPerson, PASSWORD } from "./helpers/people.ts";
import { runCli } from "./helpers/process.ts";

let t: TestApp;
let cookie: string;
const secrets: string[] = [PASSWORD];

const asOwner = (method: string, path: string, body?: unknown) =>
  asPerson(t, method, path, cookie, { body, userAgent: "audit-test/1.0" });

beforeAll(async () => {
  t = await createTestApp({ webhooks: { allow_private_networks: true } });
  secrets.push(t.liveKey, t.testKey);
});
afterAll(() => t?.close());

describe("the audit log of a scripted session", () => {
  test("records who did what, in order, and nothing secret", async () => {
    const token = (await t.app.services.people.setupLink())!;
    secrets.push(token);
    await t.json("POST", "/v1/setup", {
      body: { token, email: "owner@example.com", name: "Olivia", password: PASSWORD },
      key: null,
    });
    await t.json("POST", "/v1/session", { body: { email: "owner@example.com", password: "wrong guess!!" }, key: null });
    const signedIn = await t.json("POST", "/v1/session", {
      body: { email: "owner@example.com", password: PASSWORD },
      key: null,
    });
    cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    secrets.push(cookie.split("=")[1]!);

    const key = await asOwner("POST", "/v1/api-keys", { name: "deploy", permission: "sending_access" });
    secrets.push(key.body.token);
    await asOwner("PATCH", `/v1/api-keys/${key.body.id}`, { name: "deploy bot" });
    await asOwner("POST", "/v1/domains", { name: "audit.example" });
    await asOwner("PATCH", "/v1/domains/audit.example", { open_tracking: true });
    await asOwner("POST", "/v1/suppressions", { email: "gone@dest.example" });
    await asOwner("DELETE", "/v1/suppressions/gone@dest.example");
    const template = await asOwner("POST", "/v1/templates", { name: "Welcome", html: "<p>Hi {{name}}</p>" });
    await asOwner("POST", `/v1/templates/${template.body.id}/publish`);
    // Some receivers put a token of their own in the URL's query: the log shows the URL without it.
    secrets.push("receivers-own-token");
    const webhook = await asOwner("POST", "/v1/webhooks", {
      endpoint: "http://127.0.0.1:9/hooks?token=receivers-own-token",
      events: ["email.delivered"],
    });
    secrets.push(webhook.body.signing_secret);
    const rotated = await asOwner("POST", `/v1/webhooks/${webhook.body.id}/signing-secret/rotate`);
    secrets.push(rotated.body.signing_secret);
    await asOwner("POST", "/v1/sending/pause", { scope: "domain", name: "audit.example", reason: "warming up" });
    await asOwner("POST", "/v1/sending/resume", { scope: "domain", name: "audit.example" });
    await asOwner("PATCH", "/v1/organization", { daily_quota: 5000 });
    // An API key changes something, and so does the operator at the CLI.
    await t.json("POST", "/v1/suppressions", { body: { email: "by-key@dest.example" } });
    const env = { MAILROOM_DATA_DIR: t.dataDir, ...(t.config.store.url && { MAILROOM_STORE_URL: t.config.store.url }) };
    await runCli(["org", "set", "--name", "Acme"], env);
    await asOwner("DELETE", `/v1/api-keys/${key.body.id}`);
    await asOwner("DELETE", "/v1/session");

    // Read as the live key (full_access holds audit:read), oldest first.
    const log = (await t.json("GET", "/v1/audit-log?limit=100")).body.data.reverse();
    expect(log.map((e: { action: string }) => e.action)).toEqual([
      // The test app's live and test keys, made by the operator before the session starts.
      "api_key.created",
      "api_key.created",
      "user.set_up",
      "sign_in.failed",
      "sign_in.succeeded",
      "api_key.created",
      "api_key.renamed",
      "domain.created",
      "domain.updated",
      "suppression.added",
      "suppression.removed",
      "template.created",
      "template.published",
      "webhook.created",
      "webhook.secret_rotated",
      "sending.paused",
      "sending.resumed",
      "organization.updated",
      "suppression.added",
      "organization.updated",
      "api_key.revoked",
      "sign_out",
    ]);
    const byAction = (action: string) => log.filter((e: { action: string }) => e.action === action);
    const owner = { type: "user", id: expect.any(String), name: "owner@example.com" };
    expect(byAction("api_key.created")[0].actor).toEqual({ type: "cli", id: null, name: "operator" });
    expect(byAction("api_key.created")[2]).toMatchObject({
      object: "audit_event",
      organization_id: t.organizationId,
      actor: owner,
      target: { type: "api_key", id: key.body.id, name: "deploy" },
      user_agent: "audit-test/1.0",
      changes: { scopes: ["emails:send"], mode: "live" },
    });
    expect(byAction("api_key.renamed")[0].changes).toEqual({ name: { from: "deploy", to: "deploy bot" } });
    expect(byAction("domain.updated")[0].changes).toEqual({ openTracking: { from: false, to: true } });
    expect(byAction("organization.updated").map((e: { actor: unknown }) => e.actor)).toEqual([
      owner,
      { type: "cli", id: null, name: "operator" },
    ]);
    expect(byAction("suppression.added")[1].actor).toEqual({ type: "api_key", id: expect.any(String), name: "live" });
    expect(byAction("sign_in.failed")[0]).toMatchObject({ actor: owner, target: { name: "owner@example.com" } });

    const everything = JSON.stringify(log);
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });

  test("filters by action and by who acted; owners and admins read it, developers and sending keys do not", async () => {
    const keys = (await t.json("GET", "/v1/audit-log?action=api_key.created")).body.data;
    expect(keys.map((e: { action: string }) => e.action)).toEqual([
      "api_key.created",
      "api_key.created",
      "api_key.created",
    ]);
    const ownerId = keys[0].actor.id;
    expect(keys[0].actor.name).toBe("owner@example.com");
    const mine = (await t.json("GET", `/v1/audit-log?actor_id=${ownerId}&limit=100`)).body.data;
    expect(mine.every((e: { actor: { id: string } }) => e.actor.id === ownerId)).toBe(true);
    expect(mine.length).toBeGreaterThan(10);
    const page = await t.json("GET", "/v1/audit-log?limit=2");
    expect(page.body).toMatchObject({ object: "list", has_more: true });

    const sender = await t.app.services.keys.create(t.operator, { name: "sender", scopes: ["sending_access"] });
    expect((await t.json("GET", "/v1/audit-log", { key: sender.key })).status).toBe(403);
    const { token } = await t.app.services.people.createUser({
      email: "dev@example.com",
      organizationId: t.organizationId,
      role: "developer",
    });
    await t.app.services.people.setPassword({ token, password: PASSWORD });
    const signedIn = await t.json("POST", "/v1/session", {
      body: { email: "dev@example.com", password: PASSWORD },
      key: null,
    });
    cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    expect((await asOwner("GET", "/v1/audit-log")).status).toBe(403);
  });
});
