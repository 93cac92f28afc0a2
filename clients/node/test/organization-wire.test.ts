/**
 * The organisation and its teams on the wire, against a scripted server of the test's own: the settings read and
 * changed in a PATCH body (null kept); organisations, members and invitations on encoded ids, the role in the body,
 * the audit log's filters in the query, and an empty id refused before any request.
 */
import { afterEach, beforeAll, expect, test } from "bun:test";
import { json, scripted, stopServers } from "./scripted.ts";
import { loadLibrary, type Library } from "./support.ts";

let lib: Library;
beforeAll(async () => {
  lib = await loadLibrary();
}, 120_000);
afterEach(stopServers);

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
