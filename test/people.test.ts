/**
 * People (issue 29, docs/teams.md) on the suite's engine, through the HTTP API with an injected clock: the first
 * start's setup link creates the owner once; sessions in an HttpOnly, SameSite=Strict cookie, refused without this
 * origin on a change, never together with a key, ended by sign-out (here or everywhere), 12 h idle or 7 days;
 * sign-in failures slowed; organisations made by an instance admin and chosen with Mailroom-Organization; roles
 * enforced by the same scope checks as keys; a person made from the CLI sets their password with a one-time link.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "../src/lib/clock.ts";
import { normalizeEmail } from "../src/people/service.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { asPerson as asPersonIn, cookieOf, ORIGIN, PASSWORD, signIn as signInTo } from "./helpers/people.ts";
import { runCli } from "./helpers/process.ts";

const clock = new ManualClock(Date.parse("2026-06-01T09:00:00.000Z"));
const HOUR = 3_600_000;
let t: TestApp;
let ownerCookie: string;
const asPerson = (method: string, path: string, cookie: string, options?: Parameters<typeof asPersonIn>[4]) =>
  asPersonIn(t, method, path, cookie, options);
const signIn = (email: string, password = PASSWORD) => signInTo(t, email, password);

beforeAll(async () => {
  t = await createTestApp({}, { clock });
});
afterAll(() => t?.close());

describe("the first start's setup link", () => {
  test("creates the first person — instance admin, owner of the first organisation — once, and signs them in", async () => {
    const token = (await t.app.services.people.setupLink())!;
    const another = (await t.app.services.people.setupLink())!;
    expect(token).not.toBe(another);
    const body = { token: "not-the-token", email: "Owner@Example.com", name: "Olivia Owner", password: PASSWORD };
    expect((await t.json("POST", "/v1/setup", { body, key: null })).status).toBe(401);
    expect(
      (await t.json("POST", "/v1/setup", { body: { ...body, token, password: "short" }, key: null })).body,
    ).toMatchObject({
      name: "validation_error",
    });

    const done = await t.json("POST", "/v1/setup", { body: { ...body, token }, key: null });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      object: "session",
      user: { email: "owner@example.com", name: "Olivia Owner", instance_admin: true },
      organizations: [{ id: t.organizationId, role: "owner" }],
    });
    const cookie = done.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^mailroom_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=604800$/);
    expect(JSON.stringify(done.body)).not.toContain("password");
    ownerCookie = cookieOf(done.headers);

    // Every link made before is spent with it; none is made any more.
    expect((await t.json("POST", "/v1/setup", { body: { ...body, token: another }, key: null })).status).toBe(401);
    expect(await t.app.services.people.setupLink()).toBeNull();
  });
});

describe("addresses", () => {
  test("a megabyte of dots for an email is refused by its length, before the pattern reads it", () => {
    expect(() => normalizeEmail(`a@${"b.".repeat(500_000)} x`)).toThrow("must be an email address");
  });
});

describe("sessions", () => {
  test("a session acts with its person's role; a change needs this origin; a key and a session together are refused", async () => {
    const current = await asPerson("GET", "/v1/api-keys/current", ownerCookie);
    expect(current.body.scopes).toContain("organization:write");
    expect((await asPerson("GET", "/v1/me", ownerCookie)).body.user.email).toBe("owner@example.com");

    const rename = { body: { name: "Acme" } };
    expect((await asPerson("PATCH", "/v1/organization", ownerCookie, { ...rename, origin: null })).status).toBe(403);
    expect(
      (await asPerson("PATCH", "/v1/organization", ownerCookie, { ...rename, origin: "https://evil.example" })).status,
    ).toBe(403);
    expect((await asPerson("PATCH", "/v1/organization", ownerCookie, rename)).body.name).toBe("Acme");

    const both = await t.app.http.handle(
      new Request(`${ORIGIN}/v1/me`, { headers: { cookie: ownerCookie, authorization: `Bearer ${t.liveKey}` } }),
    );
    expect(both.status).toBe(400);
  });

  test("a wrong password is refused, slowed, and says nothing about which part was wrong", async () => {
    const unknown = await t.json("POST", "/v1/session", {
      body: { email: "nobody@example.com", password: PASSWORD },
      key: null,
    });
    const wrong = await t.json("POST", "/v1/session", {
      body: { email: "owner@example.com", password: "wrong password!" },
      key: null,
    });
    expect([unknown.status, wrong.status]).toEqual([401, 401]);
    expect(unknown.body.message).toBe(wrong.body.message);
    const started = performance.now();
    await t.json("POST", "/v1/session", { body: { email: "owner@example.com", password: "wrong again!!" }, key: null });
    expect(performance.now() - started).toBeGreaterThanOrEqual(450);
  });

  test("ends after 12 hours idle, and after 7 days however active", async () => {
    const idle = await signIn("owner@example.com");
    clock.set(clock.now() + 11 * HOUR);
    expect((await asPerson("GET", "/v1/me", idle)).status).toBe(200);
    clock.set(clock.now() + 12 * HOUR + 60_000);
    expect((await asPerson("GET", "/v1/me", idle)).status).toBe(401);

    const busy = await signIn("owner@example.com");
    // Fifteen visits 11 hours apart: 6 days and 21 hours, never 12 hours idle.
    for (let visit = 1; visit <= 15; visit++) {
      clock.set(clock.now() + 11 * HOUR);
      expect([visit, (await asPerson("GET", "/v1/me", busy)).status]).toEqual([visit, 200]);
    }
    clock.set(clock.now() + 11 * HOUR);
    expect((await asPerson("GET", "/v1/me", busy)).status).toBe(401);
  });

  test("sign-out ends this session; everywhere, every session of the person", async () => {
    const first = await signIn("owner@example.com");
    const second = await signIn("owner@example.com");
    const out = await asPerson("DELETE", "/v1/session", first);
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    expect((await asPerson("GET", "/v1/me", first)).status).toBe(401);
    expect((await asPerson("GET", "/v1/me", second)).status).toBe(200);
    ownerCookie = await signIn("owner@example.com");
    expect((await asPerson("DELETE", "/v1/session?everywhere=true", second)).status).toBe(200);
    expect((await asPerson("GET", "/v1/me", ownerCookie)).status).toBe(401);
    ownerCookie = await signIn("owner@example.com");
  });
});

describe("organisations and roles", () => {
  let second: string;

  test("an instance admin creates an organisation, owns it, and works in it with Mailroom-Organization", async () => {
    const created = await asPerson("POST", "/v1/organizations", ownerCookie, { body: { name: "Agency client" } });
    expect(created.status).toBe(201);
    second = created.body.id;
    const listed = await asPerson("GET", "/v1/organizations", ownerCookie);
    expect(listed.body.data.map((o: { name: string; role: string }) => [o.name, o.role])).toEqual([
      ["Acme", "owner"],
      ["Agency client", "owner"],
    ]);
    const domain = await asPerson("POST", "/v1/domains", ownerCookie, {
      body: { name: "client.example" },
      organization: second,
    });
    expect(domain.status).toBe(200);
    // The first organisation's key does not see the second's domain.
    expect((await t.json("GET", "/v1/domains")).body.data.map((d: { name: string }) => d.name)).not.toContain(
      "client.example",
    );
    expect((await asPerson("GET", "/v1/domains", ownerCookie, { organization: "not-a-member-of" })).status).toBe(403);
  });

  test("a person made from the CLI sets their password by the one-time link and acts within their role", async () => {
    const env = { MAILROOM_DATA_DIR: t.dataDir, ...(t.config.store.url && { MAILROOM_STORE_URL: t.config.store.url }) };
    const printed = await runCli(
      ["users", "create", "--email", "dev@example.com", "--org", t.organizationId, "--role", "developer"],
      env,
    );
    const token = /\/password#([\w-]+)/.exec(printed)![1]!;
    expect((await t.json("POST", "/v1/password", { body: { token, password: PASSWORD }, key: null })).status).toBe(200);
    expect((await t.json("POST", "/v1/password", { body: { token, password: PASSWORD }, key: null })).status).toBe(401);
    const developer = await signIn("dev@example.com");

    expect((await asPerson("GET", "/v1/domains", developer)).status).toBe(200);
    expect((await asPerson("PATCH", "/v1/organization", developer, { body: { name: "Mine" } })).status).toBe(403);
    expect((await asPerson("POST", "/v1/organizations", developer, { body: { name: "Mine" } })).status).toBe(403);
    // Keys within the role only.
    const beyond = await asPerson("POST", "/v1/api-keys", developer, {
      body: { name: "x", scopes: ["organization:write"] },
    });
    expect(beyond.status).toBe(403);
    expect(
      (await asPerson("POST", "/v1/api-keys", developer, { body: { name: "ci", permission: "sending_access" } }))
        .status,
    ).toBe(201);

    // A reset from the CLI: the new password works, and the sessions before it end.
    const reset = await runCli(["users", "reset-password", "dev@example.com"], env);
    const resetToken = /\/password#([\w-]+)/.exec(reset)![1]!;
    await t.json("POST", "/v1/password", { body: { token: resetToken, password: `${PASSWORD} 2` }, key: null });
    expect((await asPerson("GET", "/v1/me", developer)).status).toBe(401);
    await signIn("dev@example.com", `${PASSWORD} 2`);

    const listed = JSON.parse(await runCli(["users", "list", "--json"], env));
    expect(listed.map((u: { email: string }) => u.email)).toEqual(["dev@example.com", "owner@example.com"]);
    // Three CLI processes, each starting Bun and opening the store: seconds on a busy two-core machine.
  }, 30_000);

  test("a viewer reads but changes nothing and sends nothing", async () => {
    const { token } = await t.app.services.people.createUser({
      email: "viewer@example.com",
      organizationId: t.organizationId,
      role: "viewer",
    });
    await t.app.services.people.setPassword({ token, password: PASSWORD });
    const viewer = await signIn("viewer@example.com");
    const listed = await asPerson("GET", "/v1/emails", viewer);
    expect(listed.status).toBe(200);
    const sent = await t.json("POST", "/v1/emails", {
      body: { from: "a@example.com", to: "b@dest.example", subject: "x", text: "y" },
      key: t.testKey,
    });
    expect((await asPerson("GET", `/v1/emails/${sent.body.id}`, viewer)).status).toBe(200);
    expect((await asPerson("GET", `/v1/emails/${sent.body.id}/raw`, viewer)).status).toBe(403);
    expect((await asPerson("GET", "/v1/api-keys", viewer)).status).toBe(403);
    const send = { body: { from: "a@example.com", to: "b@example.com", subject: "x", text: "y" } };
    expect((await asPerson("POST", "/v1/emails", viewer, send)).status).toBe(403);
    expect((await asPerson("POST", "/v1/domains", viewer, { body: { name: "v.example" } })).status).toBe(403);
  });
});
