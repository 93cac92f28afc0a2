/**
 * Members and invitations (issue 29, docs/teams.md) on the suite's engine: an invitation's one-time link lets a new
 * person join with the role it names (once, for 7 days); someone with an account joins with their password; roles
 * change and people leave, but only owners touch owners and the last owner stays; every change is in the audit log.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "../src/lib/clock.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { asPerson, cookieOf, PASSWORD, setUpOwner, signIn } from "./helpers/people.ts";

const clock = new ManualClock(Date.parse("2026-07-01T08:00:00.000Z"));
let t: TestApp;
let owner: string;

const tokenOf = (url: string) => new URL(url).hash.slice(1);
const invite = async (cookie: string, email: string, role: string) =>
  asPerson(t, "POST", "/v1/members/invitations", cookie, { body: { email, role } });
const accept = (token: string, body: Record<string, unknown>) =>
  t.json("POST", "/v1/invitations/accept", { body: { token, ...body }, key: null });
const members = async () =>
  (await asPerson(t, "GET", "/v1/members", owner)).body as {
    data: Array<{ id: string; email: string; role: string }>;
    invitations: Array<{ id: string; email: string }>;
  };
const idOf = async (email: string) => (await members()).data.find((m) => m.email === email)!.id;

beforeAll(async () => {
  t = await createTestApp({}, { clock });
  owner = await setUpOwner(t);
});
afterAll(() => t?.close());

describe("invitations", () => {
  test("a new person joins by the link with the role it names, once", async () => {
    const made = await invite(owner, "Dev@Example.com", "developer");
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ object: "invitation", email: "dev@example.com", role: "developer" });
    expect(made.body.url).toStartWith("http://localhost/invite#");
    expect(Date.parse(made.body.expires_at) - clock.now()).toBe(7 * 86_400_000);
    expect((await members()).invitations.map((i) => i.email)).toEqual(["dev@example.com"]);

    const joined = await accept(tokenOf(made.body.url), { name: "Dana Dev", password: PASSWORD });
    expect(joined.status).toBe(200);
    expect(joined.body.organizations).toEqual([expect.objectContaining({ id: t.organizationId, role: "developer" })]);
    const developer = cookieOf(joined.headers);
    expect((await asPerson(t, "GET", "/v1/domains", developer)).status).toBe(200);
    expect((await asPerson(t, "GET", "/v1/members", developer)).status).toBe(403);
    expect((await members()).invitations).toEqual([]);
    expect((await accept(tokenOf(made.body.url), { name: "Again", password: PASSWORD })).status).toBe(401);
  });

  test("someone with an account joins another organisation while signed in as it, never by a password", async () => {
    const other = await asPerson(t, "POST", "/v1/organizations", owner, { body: { name: "Second" } });
    const made = await asPerson(t, "POST", "/v1/members/invitations", owner, {
      body: { email: "dev@example.com", role: "viewer" },
      organization: other.body.id,
    });
    // The invitation neither tests nor sets the account's password: whoever has the link is told to sign in.
    for (const password of ["not their password", PASSWORD]) {
      const refused = await accept(tokenOf(made.body.url), { password });
      expect([refused.status, refused.body.name]).toEqual([409, "conflict"]);
      expect(refused.body.message).toContain("sign in as it");
    }
    const dev = await signIn(t, "dev@example.com");
    const joined = await asPerson(t, "POST", "/v1/invitations/accept", dev, {
      body: { token: tokenOf(made.body.url) },
    });
    expect(joined.status).toBe(200);
    expect(joined.headers.get("set-cookie")).toBeNull();
    expect(joined.body.organizations.map((o: { role: string }) => o.role)).toEqual(["developer", "viewer"]);
  });

  test("an invitation revoked, or 7 days old, no longer works; a member is not invited twice", async () => {
    const revoked = await invite(owner, "late@example.com", "viewer");
    expect((await asPerson(t, "DELETE", `/v1/members/invitations/${revoked.body.id}`, owner)).status).toBe(200);
    expect((await accept(tokenOf(revoked.body.url), { name: "Late", password: PASSWORD })).status).toBe(401);

    const expiring = await invite(owner, "slow@example.com", "viewer");
    clock.set(clock.now() + 7 * 86_400_000 + 1000);
    expect((await accept(tokenOf(expiring.body.url), { name: "Slow", password: PASSWORD })).status).toBe(401);
    owner = await signIn(t, "owner@example.com");
    expect((await invite(owner, "dev@example.com", "admin")).status).toBe(409);
  });
});

describe("roles", () => {
  test("only owners make or touch owners; the last owner stays; a removed member loses the organisation", async () => {
    const made = await invite(owner, "admin@example.com", "admin");
    const admin = cookieOf((await accept(tokenOf(made.body.url), { name: "Ada Admin", password: PASSWORD })).headers);
    const ownerId = await idOf("owner@example.com");
    const devId = await idOf("dev@example.com");

    expect((await invite(admin, "boss@example.com", "owner")).status).toBe(403);
    expect((await asPerson(t, "PATCH", `/v1/members/${ownerId}`, admin, { body: { role: "viewer" } })).status).toBe(
      403,
    );
    expect((await asPerson(t, "DELETE", `/v1/members/${ownerId}`, admin)).status).toBe(403);
    expect(
      (await asPerson(t, "PATCH", `/v1/members/${devId}`, admin, { body: { role: "viewer" } })).body,
    ).toMatchObject({
      role: "viewer",
    });

    const last = await asPerson(t, "PATCH", `/v1/members/${ownerId}`, owner, { body: { role: "admin" } });
    expect(last.status).toBe(409);
    expect((await asPerson(t, "DELETE", `/v1/members/${ownerId}`, owner)).status).toBe(409);
    const adminId = await idOf("admin@example.com");
    expect((await asPerson(t, "PATCH", `/v1/members/${adminId}`, owner, { body: { role: "owner" } })).status).toBe(200);
    // Two owners now: the first may step down.
    expect((await asPerson(t, "PATCH", `/v1/members/${ownerId}`, admin, { body: { role: "admin" } })).status).toBe(200);

    const developer = await signIn(t, "dev@example.com");
    expect((await asPerson(t, "DELETE", `/v1/members/${devId}`, admin)).status).toBe(200);
    expect((await asPerson(t, "GET", "/v1/domains", developer, { organization: t.organizationId })).status).toBe(403);
  });

  test("every change to members is in the audit log", async () => {
    const log = (await t.json("GET", "/v1/audit-log?limit=100")).body.data.map((e: { action: string }) => e.action);
    for (const action of [
      "member.invited",
      "invitation.accepted",
      "invitation.revoked",
      "member.role_changed",
      "member.removed",
    ])
      expect(log).toContain(action);
  });
});
