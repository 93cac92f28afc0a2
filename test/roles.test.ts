/**
 * What each role may do (issue 29, docs/teams.md), on the suite's engine: one row per operation, each a test that
 * performs it as a signed-in owner, admin, developer and viewer, and expects it done by the roles the row names and
 * refused (403 insufficient_scope) to the others. The table is written from the contract, not from access.ts:
 * owner — everything; admin — everything except owners; developer — mail, domains, templates, webhooks,
 * suppressions, keys within its role (minted, renamed, revoked), the queue, no members, no organisation settings, no
 * audit log; viewer — reads, with no raw content, no received mail, no keys, no secrets. Creating an organisation is
 * for instance admins (here, the owner).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Role } from "../src/access.ts";
import { createTestApp, type TestApp } from "./helpers/app.ts";
import { asPerson, PASSWORD, setUpOwner, signIn } from "./helpers/people.ts";

const ROLES: Role[] = ["owner", "admin", "developer", "viewer"];
const MISSING = "00000000-0000-4000-8000-000000000000";
let t: TestApp;
let emailId: string;
/** Keys of the owner: one with full access (beyond a developer's role) and one that only sends (within it). */
let fullKeyId: string;
let sendingKeyId: string;
const cookies = {} as Record<Role, string>;

interface Row {
  operation: string;
  allowed: Role[];
  method: string;
  path: string | (() => string);
  body?: (role: Role) => unknown;
  /** What the allowed get (a missing id's 404 shows the scope check let them through). */
  ok: number;
  /** Undoes what the operation did, as the operator, so that the next role starts from the same state. */
  undo?: () => Promise<unknown>;
}

const everyone = ROLES;
const makers: Role[] = ["owner", "admin", "developer"];
const managers: Role[] = ["owner", "admin"];

const TABLE: Row[] = [
  { operation: "read sent mail", allowed: everyone, method: "GET", path: "/v1/emails", ok: 200 },
  {
    operation: "send mail",
    allowed: makers,
    method: "POST",
    path: "/v1/emails",
    body: (role) => ({ from: "hi@example.com", to: `${role}@example.net`, subject: "Hi", text: "Hello" }),
    ok: 200,
  },
  {
    operation: "read a message's raw content",
    allowed: makers,
    method: "GET",
    path: () => `/v1/emails/${emailId}/raw`,
    ok: 200,
  },
  { operation: "cancel a message", allowed: makers, method: "POST", path: `/v1/emails/${MISSING}/cancel`, ok: 404 },
  { operation: "read received mail", allowed: makers, method: "GET", path: "/v1/emails/receiving", ok: 200 },
  { operation: "read domains", allowed: everyone, method: "GET", path: "/v1/domains", ok: 200 },
  {
    operation: "add a domain",
    allowed: makers,
    method: "POST",
    path: "/v1/domains",
    body: (role) => ({ name: `${role}.example.org` }),
    ok: 200,
  },
  { operation: "read templates", allowed: everyone, method: "GET", path: "/v1/templates", ok: 200 },
  { operation: "delete a template", allowed: makers, method: "DELETE", path: `/v1/templates/${MISSING}`, ok: 404 },
  { operation: "read webhooks", allowed: everyone, method: "GET", path: "/v1/webhooks", ok: 200 },
  { operation: "delete a webhook", allowed: makers, method: "DELETE", path: `/v1/webhooks/${MISSING}`, ok: 404 },
  { operation: "read suppressions", allowed: everyone, method: "GET", path: "/v1/suppressions", ok: 200 },
  {
    operation: "add a suppression",
    allowed: makers,
    method: "POST",
    path: "/v1/suppressions",
    body: (role) => ({ email: `${role}@blocked.example` }),
    ok: 200,
  },
  { operation: "read the queue", allowed: everyone, method: "GET", path: "/v1/deliveries", ok: 200 },
  {
    operation: "pause sending",
    allowed: makers,
    method: "POST",
    path: "/v1/sending/pause",
    body: () => ({ scope: "organization" }),
    ok: 200,
    undo: () => t.app.services.pauses.resume(t.operator, { scope: "organization" }),
  },
  { operation: "list API keys", allowed: makers, method: "GET", path: "/v1/api-keys", ok: 200 },
  {
    operation: "mint an API key",
    allowed: makers,
    method: "POST",
    path: "/v1/api-keys",
    body: (role) => ({ name: `${role}'s key`, permission: "sending_access" }),
    ok: 201,
  },
  {
    operation: "rename a full_access key",
    allowed: managers,
    method: "PATCH",
    path: () => `/v1/api-keys/${fullKeyId}`,
    body: (role) => ({ name: `renamed by ${role}` }),
    ok: 200,
  },
  {
    operation: "revoke a full_access key (a revoked key answers as revoked)",
    allowed: managers,
    method: "DELETE",
    path: () => `/v1/api-keys/${fullKeyId}`,
    ok: 200,
  },
  {
    operation: "revoke a sending key",
    allowed: makers,
    method: "DELETE",
    path: () => `/v1/api-keys/${sendingKeyId}`,
    ok: 200,
  },
  {
    operation: "read the organisation's settings",
    allowed: everyone,
    method: "GET",
    path: "/v1/organization",
    ok: 200,
  },
  {
    operation: "change the organisation's settings",
    allowed: managers,
    method: "PATCH",
    path: "/v1/organization",
    body: (role) => ({ name: `Renamed by ${role}` }),
    ok: 200,
  },
  { operation: "read members", allowed: managers, method: "GET", path: "/v1/members", ok: 200 },
  {
    operation: "invite a developer",
    allowed: managers,
    method: "POST",
    path: "/v1/members/invitations",
    body: (role) => ({ email: `dev-by-${role}@example.com`, role: "developer" }),
    ok: 201,
  },
  {
    operation: "invite an owner",
    allowed: ["owner"],
    method: "POST",
    path: "/v1/members/invitations",
    body: (role) => ({ email: `owner-by-${role}@example.com`, role: "owner" }),
    ok: 201,
  },
  { operation: "read the audit log", allowed: managers, method: "GET", path: "/v1/audit-log", ok: 200 },
  {
    operation: "create an organisation (instance admins)",
    allowed: ["owner"],
    method: "POST",
    path: "/v1/organizations",
    body: (role) => ({ name: `Made by ${role}` }),
    ok: 201,
  },
];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.services.domains.add(t.operator, "example.com", { verifiedOverride: true });
  cookies.owner = await setUpOwner(t);
  for (const role of ["admin", "developer", "viewer"] as const) {
    const email = `${role}@example.com`;
    const made = await t.app.services.people.createUser({ email, organizationId: t.organizationId, role });
    await t.app.services.people.setPassword({ token: made.token, password: PASSWORD });
    cookies[role] = await signIn(t, email);
  }
  const sent = await t.json("POST", "/v1/emails", {
    body: { from: "hi@example.com", to: "someone@example.net", subject: "Raw", text: "Raw content" },
  });
  emailId = sent.body.id;
  const mint = async (body: Record<string, unknown>) =>
    (await asPerson(t, "POST", "/v1/api-keys", cookies.owner, { body })).body.id as string;
  fullKeyId = await mint({ name: "owner's full access" });
  sendingKeyId = await mint({ name: "owner's sender", permission: "sending_access" });
});
afterAll(() => t?.close());

describe("each role's allowed and refused operations", () => {
  for (const row of TABLE)
    test(`${row.operation}: ${row.allowed.join(", ")}`, async () => {
      const outcomes = [];
      for (const role of ROLES) {
        const path = typeof row.path === "function" ? row.path() : row.path;
        const answer = await asPerson(t, row.method, path, cookies[role], { body: row.body?.(role) });
        outcomes.push([role, answer.status, answer.status >= 400 ? answer.body.name : null]);
        if (answer.status < 400) await row.undo?.();
      }
      expect(outcomes).toEqual(
        ROLES.map((role) =>
          row.allowed.includes(role)
            ? [role, row.ok, row.ok === 404 ? "not_found" : null]
            : [role, 403, "insufficient_scope"],
        ),
      );
    });

  test("a person mints keys within their role only", async () => {
    // Resend's default permission is full_access, which a developer does not hold.
    for (const body of [{ name: "everything" }, { name: "people", scopes: ["members:write"] }]) {
      const refused = await asPerson(t, "POST", "/v1/api-keys", cookies.developer, { body });
      expect([refused.status, refused.body.name]).toEqual([403, "insufficient_scope"]);
      expect(refused.body.message).toContain("more rights than your role's");
    }
    const within = await asPerson(t, "POST", "/v1/api-keys", cookies.developer, {
      body: { name: "within", scopes: ["emails:send", "domains:write", "api_keys:write"] },
    });
    expect(within.status).toBe(201);
  });
});
