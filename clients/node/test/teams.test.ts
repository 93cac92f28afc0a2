/**
 * Teams against the server (docs/teams.md): the organisation a key acts in, an invitation made, listed and revoked, one
 * accepted by the person it names (the joining is theirs, over plain HTTP, not the client's), their role changed and
 * their membership removed, what a key may not do (make an owner) or see (a sending key), and each change found in
 * the audit log by its action and by who acted, page by page. The other libraries' suites run against the same server and invite
 * too: every look is for the ids this test made, and what it makes it undoes whatever happens.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import type { AuditEvent, Mailroom, Role } from "@mailroom/node";
import { env, live, loadLibrary, ok, unique, type Library } from "./support.ts";

let lib: Library;
let baseUrl: string;
let mailroom: Mailroom;

beforeAll(async () => {
  lib = await loadLibrary();
  if (!live) return;
  baseUrl = env("MAILROOM_BASE_URL");
  mailroom = new lib.Mailroom(env("MAILROOM_API_KEY"), { baseUrl });
}, 120_000);

const ROLES: Role[] = ["owner", "admin", "developer", "viewer"];
const DAY_MS = 86_400_000;

/** The events of `action` whose target is `targetId`, as the filtered audit log lists them. */
async function auditOf(action: string, targetId: string): Promise<AuditEvent[]> {
  const { data } = ok(await mailroom.auditLog.list({ action, limit: 100 }));
  expect(data.every((event) => event.action === action)).toBe(true);
  return data.filter((event) => event.target?.id === targetId);
}

/** Revokes an invitation this test may have left pending; not_found once it was revoked or accepted. */
async function revokeIfPending(id: string | undefined) {
  if (!id) return;
  const { error } = await mailroom.members.revokeInvitation(id);
  if (error && error.name !== "not_found") throw error;
}

describe.skipIf(!live)("teams", () => {
  test("organizations.list() holds one organisation, the key's own, with a role", async () => {
    const list = ok(await mailroom.organizations.list());
    const own = ok(await mailroom.organization.get());
    expect(list.object).toBe("list");
    expect(list.has_more).toBe(false);
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ object: "organization", id: own.id, name: own.name });
    expect(ROLES).toContain(list.data[0]!.role);
  });

  test("an invitation: made with its one-time link, listed without it, revoked, and both in the audit log", async () => {
    const email = `${unique("Invitee")}@Example.org`;
    let invitationId: string | undefined;
    try {
      const before = ok(await mailroom.members.list());
      expect(before.object).toBe("list");
      expect(before.has_more).toBe(false);
      expect(Array.isArray(before.data)).toBe(true);
      expect(Array.isArray(before.invitations)).toBe(true);

      const { data: invitation, error, headers } = await mailroom.members.invite({ email, role: "developer" });
      expect(error).toBeNull();
      invitationId = invitation!.id;
      expect(invitation).toMatchObject({ object: "invitation", email: email.toLowerCase(), role: "developer" });
      expect(headers?.["content-type"]).toContain("application/json");
      // The link: the server's configured address, the invitation screen, the token after # (never sent to a server
      // in a URL).
      const publicUrl = env("MAILROOM_PUBLIC_URL");
      expect(invitation!.url.startsWith(`${publicUrl}/invite#`)).toBe(true);
      expect(invitation!.url.length).toBeGreaterThan(`${publicUrl}/invite#`.length + 20);
      expect(Date.parse(invitation!.expires_at) - Date.parse(invitation!.created_at)).toBe(7 * DAY_MS);

      const listed = ok(await mailroom.members.list()).invitations.find((pending) => pending.id === invitationId);
      // Listed as made, without what only its creation answers: the link and whether it was mailed.
      const { url: _url, emailed: _emailed, note: _note, ...shown } = invitation!;
      expect(listed).toEqual(shown);

      const revoked = ok(await mailroom.members.revokeInvitation(invitationId));
      expect(revoked).toEqual({ object: "invitation", id: invitationId, deleted: true });
      expect(ok(await mailroom.members.list()).invitations.some((pending) => pending.id === invitationId)).toBe(false);
      const again = await mailroom.members.revokeInvitation(invitationId);
      expect(again.error?.name).toBe("not_found");
      expect(again.error?.statusCode).toBe(404);

      const [invited, ...moreInvited] = await auditOf("member.invited", invitationId);
      expect(moreInvited).toEqual([]);
      expect(invited).toMatchObject({
        object: "audit_event",
        organization_id: ok(await mailroom.organization.get()).id,
        actor: { type: "api_key" },
        target: { type: "invitation", id: invitationId, name: email.toLowerCase() },
        changes: { role: "developer" },
      });
      // The audit log never holds the link's token.
      expect(JSON.stringify(invited)).not.toContain(invitation!.url.split("#")[1]!);
      const [revokedEvent] = await auditOf("invitation.revoked", invitationId);
      expect(revokedEvent).toMatchObject({ actor: invited!.actor, target: { type: "invitation", id: invitationId } });
      // Newest first, by time-ordered ids.
      expect(revokedEvent!.id > invited!.id).toBe(true);

      // By who acted: this key's events only, ours among them; then the cursors, over events older than ours (which
      // nothing written later can come between).
      const keyId = invited!.actor.id!;
      const byKey = ok(await mailroom.auditLog.list({ actor_id: keyId, limit: 100 })).data;
      expect(byKey.every((event) => event.actor.id === keyId)).toBe(true);
      expect(byKey.map((event) => event.id)).toContain(invited!.id);
      const older = ok(await mailroom.auditLog.list({ actor_id: keyId, limit: 2, after: invited!.id }));
      expect(older.data).toHaveLength(2);
      expect(older.data.every((event) => event.id < invited!.id && event.actor.id === keyId)).toBe(true);
      expect(older.data[0]!.id > older.data[1]!.id).toBe(true);
      const back = ok(await mailroom.auditLog.list({ actor_id: keyId, limit: 1, before: older.data[1]!.id }));
      expect(back.data.map((event) => event.id)).toEqual([older.data[0]!.id]);
      expect(back.has_more).toBe(true);
    } finally {
      await revokeIfPending(invitationId);
    }
  });

  test("a member who joined: role changed, removed, and both in the audit log", async () => {
    const email = `${unique("member")}@example.org`;
    let invitationId: string | undefined;
    let memberId: string | undefined;
    try {
      const invitation = ok(await mailroom.members.invite({ email, role: "developer" }));
      invitationId = invitation.id;
      // The person opens the link and sets a password: the admin UI's call, made here over plain HTTP.
      const joined = await fetch(`${baseUrl}/v1/invitations/accept`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          token: new URL(invitation.url).hash.slice(1),
          name: "Node Member",
          password: unique("a long password"),
        }),
      });
      expect(joined.status).toBe(200);

      const members = ok(await mailroom.members.list());
      const member = members.data.find((m) => m.email === email);
      expect(member).toMatchObject({ object: "member", email, name: "Node Member", role: "developer" });
      memberId = member!.id;
      expect(Number.isNaN(Date.parse(member!.created_at))).toBe(false);
      // Accepted, the invitation is no longer pending, and no longer revocable.
      expect(members.invitations.some((pending) => pending.id === invitationId)).toBe(false);
      expect((await mailroom.members.revokeInvitation(invitationId)).error?.name).toBe("not_found");
      // A member's address cannot be invited again.
      const twice = await mailroom.members.invite({ email, role: "viewer" });
      if (twice.data) await revokeIfPending(twice.data.id);
      expect(twice.error?.name).toBe("conflict");
      expect(twice.error?.statusCode).toBe(409);

      const changed = ok(await mailroom.members.updateRole(memberId, { role: "viewer" }));
      expect(changed).toEqual({ ...member!, role: "viewer" });
      // Only owners make owners: a key may not, and the member keeps their role.
      const promoted = await mailroom.members.updateRole(memberId, { role: "owner" });
      expect(promoted.error?.name).toBe("insufficient_scope");
      expect(promoted.error?.statusCode).toBe(403);
      const unknownRole = await mailroom.members.updateRole(memberId, { role: "boss" as Role });
      expect(unknownRole.error?.name).toBe("validation_error");
      expect(ok(await mailroom.members.list()).data.find((m) => m.id === memberId)?.role).toBe("viewer");

      const removed = ok(await mailroom.members.remove(memberId));
      expect(removed).toEqual({ object: "member", id: memberId, deleted: true });
      expect(ok(await mailroom.members.list()).data.some((m) => m.id === memberId)).toBe(false);
      const again = await mailroom.members.remove(memberId);
      expect(again.error?.name).toBe("not_found");
      expect((await mailroom.members.updateRole(memberId, { role: "admin" })).error?.name).toBe("not_found");
      memberId = undefined;

      const [roleChanged, ...moreChanges] = await auditOf("member.role_changed", member!.id);
      expect(moreChanges).toEqual([]);
      expect(roleChanged).toMatchObject({
        actor: { type: "api_key" },
        target: { type: "user", id: member!.id, name: email },
        changes: { role: { from: "developer", to: "viewer" } },
      });
      expect(await auditOf("member.removed", member!.id)).toHaveLength(1);
      expect(await auditOf("invitation.accepted", member!.id)).toHaveLength(1);
    } finally {
      if (memberId) ok(await mailroom.members.remove(memberId));
      await revokeIfPending(invitationId);
    }
  });

  test("a key may not invite an owner; an unknown role or address is a validation error, an unknown member not found", async () => {
    const owner = await mailroom.members.invite({ email: `${unique("owner")}@example.org`, role: "owner" });
    // Had the server taken it, the pending owner invitation must not outlive the test.
    if (owner.data) await revokeIfPending(owner.data.id);
    expect(owner.error?.name).toBe("insufficient_scope");
    expect(owner.error?.statusCode).toBe(403);

    const unknown = await mailroom.members.invite({ email: `${unique("boss")}@example.org`, role: "boss" as Role });
    if (unknown.data) await revokeIfPending(unknown.data.id);
    expect(unknown.error?.name).toBe("validation_error");
    expect(unknown.error?.details.map((detail) => detail.path)).toEqual(["role"]);

    const invalid = await mailroom.members.invite({ email: "not an address", role: "viewer" });
    if (invalid.data) await revokeIfPending(invalid.data.id);
    expect(invalid.error?.name).toBe("validation_error");

    const nobody = "00000000-0000-4000-8000-000000000000";
    expect((await mailroom.members.remove(nobody)).error?.name).toBe("not_found");
    expect((await mailroom.members.updateRole(nobody, { role: "viewer" })).error?.name).toBe("not_found");
    expect((await mailroom.members.revokeInvitation(nobody)).error?.name).toBe("not_found");
  });

  test("a sending key may not see the organisations, the members or the audit log: insufficient_scope", async () => {
    const sending = new lib.Mailroom(env("MAILROOM_SENDING_KEY"), { baseUrl });
    for (const { error } of [
      await sending.organizations.list(),
      await sending.members.list(),
      await sending.auditLog.list(),
    ]) {
      expect(error?.name).toBe("insufficient_scope");
      expect(error?.statusCode).toBe(403);
    }
    const invite = await sending.members.invite({ email: `${unique("nobody")}@example.org`, role: "viewer" });
    if (invite.data) await revokeIfPending(invite.data.id);
    expect(invite.error?.name).toBe("insufficient_scope");
  });
});
