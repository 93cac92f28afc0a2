"""Teams against the real server: the organisation a key acts in, an invitation made, listed and revoked, one accepted
by the person it names (their side, over plain HTTP, not the client's), their role changed and their membership
removed, what a key may not do (make an owner) or see (a sending key), and each change found in the audit log by its
action and by who acted, page by page.

The other languages' suites run against the same server and invite too: every look is for the ids made here, and
what a test makes it undoes whatever happens."""

from __future__ import annotations

import json
import unittest
import urllib.parse
import urllib.request
from datetime import datetime, timedelta
from typing import List, Optional

import mailroom
from mailroom.types import AuditEvent
from tests.support import BASE_URL, PUBLIC_URL, SENDING_KEY, client, needs_server, unique

ROLES = ("owner", "admin", "developer", "viewer")
NOBODY = "00000000-0000-4000-8000-000000000000"


def parse_time(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def audit_of(c: mailroom.Mailroom, action: str, target_id: str) -> List[AuditEvent]:
    """The events of ``action`` whose target is ``target_id``, as the filtered audit log lists them."""
    events = c.audit_log.list(action=action, limit=100)["data"]
    assert all(event["action"] == action for event in events), events
    return [event for event in events if (event["target"] or {}).get("id") == target_id]


def revoke_if_pending(c: mailroom.Mailroom, invitation_id: Optional[str]) -> None:
    """Revokes an invitation a test may have left pending; gone already once revoked or accepted."""
    if invitation_id:
        try:
            c.members.revoke_invitation(invitation_id)
        except mailroom.NotFoundError:
            pass


def accept(url: str, name: str, password: str) -> int:
    """The invited person opens the link and sets a password: the admin UI's call, made here over plain HTTP."""
    token = urllib.parse.urlsplit(url).fragment
    body = json.dumps({"token": token, "name": name, "password": password}).encode("utf-8")
    request = urllib.request.Request(
        f"{BASE_URL}/v1/invitations/accept", data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return int(response.status)


@needs_server
class TeamsTest(unittest.TestCase):
    def test_the_key_acts_in_one_organisation_its_own(self) -> None:
        c = client()
        listed = c.organizations.list()
        own = c.organization.get()
        self.assertEqual((listed["object"], listed["has_more"], len(listed["data"])), ("list", False, 1))
        organization = listed["data"][0]
        self.assertEqual(
            (organization["object"], organization["id"], organization["name"]), ("organization", own["id"], own["name"])
        )
        self.assertIn(organization["role"], ROLES)

    def test_an_invitation_is_made_listed_revoked_and_audited(self) -> None:
        c = client()
        email = f"{unique('Invitee')}@Example.org"
        invitation_id: Optional[str] = None
        try:
            before = c.members.list()
            self.assertEqual((before["object"], before["has_more"]), ("list", False))
            self.assertIsInstance(before["data"], list)
            self.assertIsInstance(before["invitations"], list)

            invitation = c.members.invite({"email": email, "role": "developer"})
            invitation_id = invitation["id"]
            self.assertEqual(
                (invitation["object"], invitation["email"], invitation["role"]),
                ("invitation", email.lower(), "developer"),
            )
            # The link: the server's configured address, the invitation screen, the token after #.
            self.assertTrue(invitation["url"].startswith(f"{PUBLIC_URL}/invite#"), invitation["url"])
            token = urllib.parse.urlsplit(invitation["url"]).fragment
            self.assertGreater(len(token), 20)
            self.assertEqual(
                parse_time(invitation["expires_at"]) - parse_time(invitation["created_at"]), timedelta(days=7)
            )

            pending = [i for i in c.members.list()["invitations"] if i["id"] == invitation_id]
            # Listed as made, without what only its creation answers: the link and whether it was mailed.
            shown = {k: v for k, v in invitation.items() if k not in ("url", "emailed", "note")}
            self.assertEqual(pending, [shown], "listed, without its link")

            revoked = c.members.revoke_invitation(invitation_id)
            self.assertEqual(revoked, {"object": "invitation", "id": invitation_id, "deleted": True})
            self.assertNotIn(invitation_id, [i["id"] for i in c.members.list()["invitations"]])
            with self.assertRaises(mailroom.NotFoundError) as again:
                c.members.revoke_invitation(invitation_id)
            self.assertEqual(again.exception.status_code, 404)

            invited = audit_of(c, "member.invited", invitation_id)
            self.assertEqual(len(invited), 1, invited)
            event = invited[0]
            self.assertEqual(event["object"], "audit_event")
            self.assertEqual(event["organization_id"], c.organization.get()["id"])
            self.assertEqual(event["actor"]["type"], "api_key")
            self.assertEqual(event["target"], {"type": "invitation", "id": invitation_id, "name": email.lower()})
            self.assertEqual(event["changes"], {"role": "developer"})
            self.assertNotIn(token, json.dumps(event), "the audit log never holds the link's token")
            revoked_events = audit_of(c, "invitation.revoked", invitation_id)
            self.assertEqual([e["actor"] for e in revoked_events], [event["actor"]])
            # Newest first, by time-ordered ids.
            self.assertGreater(revoked_events[0]["id"], event["id"])

            # By who acted: this key's events only, ours among them; then the cursors, over events older than ours
            # (which nothing written later can come between).
            key_id = event["actor"]["id"]
            assert key_id is not None
            by_key = c.audit_log.list({"actor_id": key_id, "limit": 100})["data"]
            self.assertEqual({e["actor"]["id"] for e in by_key}, {key_id})
            self.assertIn(event["id"], [e["id"] for e in by_key])
            older = c.audit_log.list(actor_id=key_id, limit=2, after=event["id"])["data"]
            self.assertEqual(len(older), 2)
            self.assertTrue(all(e["id"] < event["id"] and e["actor"]["id"] == key_id for e in older), older)
            self.assertGreater(older[0]["id"], older[1]["id"])
            back = c.audit_log.list({"actor_id": key_id, "limit": 1}, before=older[1]["id"])
            self.assertEqual(([e["id"] for e in back["data"]], back["has_more"]), ([older[0]["id"]], True))
        finally:
            revoke_if_pending(c, invitation_id)

    def test_a_member_who_joined_changes_role_and_is_removed(self) -> None:
        c = client()
        email = f"{unique('member')}@example.org"
        invitation_id: Optional[str] = None
        member_id: Optional[str] = None
        try:
            invitation = c.members.invite({"email": email, "role": "developer"})
            invitation_id = invitation["id"]
            self.assertEqual(accept(invitation["url"], "Python Member", unique("a long password")), 200)

            members = c.members.list()
            found = [m for m in members["data"] if m["email"] == email]
            self.assertEqual(len(found), 1, members)
            member = found[0]
            member_id = member["id"]
            self.assertEqual(
                (member["object"], member["name"], member["role"]), ("member", "Python Member", "developer")
            )
            parse_time(member["created_at"])
            # Accepted, the invitation is no longer pending, nor revocable; the address cannot be invited again.
            self.assertNotIn(invitation_id, [i["id"] for i in members["invitations"]])
            with self.assertRaises(mailroom.NotFoundError):
                c.members.revoke_invitation(invitation_id)
            with self.assertRaises(mailroom.ConflictError) as conflict:
                c.members.invite({"email": email, "role": "viewer"})
            self.assertEqual(conflict.exception.status_code, 409)

            changed = c.members.update_role({"id": member_id, "role": "viewer"})
            self.assertEqual(changed, {**member, "role": "viewer"})
            # Only owners make owners: a key may not, and the member keeps their role.
            with self.assertRaises(mailroom.InsufficientScopeError) as refused:
                c.members.update_role({"id": member_id, "role": "owner"})
            self.assertEqual((refused.exception.name, refused.exception.status_code), ("insufficient_scope", 403))
            with self.assertRaises(mailroom.ValidationError):
                c.members.update_role({"id": member_id, "role": "boss"})  # type: ignore[typeddict-item]
            self.assertEqual([m["role"] for m in c.members.list()["data"] if m["id"] == member_id], ["viewer"])

            removed = c.members.remove(member_id)
            self.assertEqual(removed, {"object": "member", "id": member_id, "deleted": True})
            self.assertNotIn(member_id, [m["id"] for m in c.members.list()["data"]])
            removed_id, member_id = member_id, None
            with self.assertRaises(mailroom.NotFoundError):
                c.members.remove(removed_id)
            with self.assertRaises(mailroom.NotFoundError):
                c.members.update_role({"id": removed_id, "role": "admin"})

            role_changed = audit_of(c, "member.role_changed", removed_id)
            self.assertEqual(len(role_changed), 1, role_changed)
            self.assertEqual(role_changed[0]["actor"]["type"], "api_key")
            self.assertEqual(role_changed[0]["target"], {"type": "user", "id": removed_id, "name": email})
            self.assertEqual(role_changed[0]["changes"], {"role": {"from": "developer", "to": "viewer"}})
            self.assertEqual(len(audit_of(c, "member.removed", removed_id)), 1)
            self.assertEqual(len(audit_of(c, "invitation.accepted", removed_id)), 1)
        finally:
            if member_id:
                c.members.remove(member_id)
            revoke_if_pending(c, invitation_id)

    def test_what_a_key_may_not_do(self) -> None:
        c = client()
        for role, error in [("owner", mailroom.InsufficientScopeError), ("boss", mailroom.ValidationError)]:
            with self.subTest(role=role), self.assertRaises(error) as caught:
                made = c.members.invite({"email": f"{unique(role)}@example.org", "role": role})  # type: ignore
                # Had the server taken it, the invitation must not outlive the test.
                revoke_if_pending(c, made["id"])
        self.assertEqual([detail["path"] for detail in caught.exception.details], ["role"])
        with self.assertRaises(mailroom.ValidationError):
            c.members.invite({"email": "not an address", "role": "viewer"})
        with self.assertRaises(mailroom.NotFoundError):
            c.members.remove(NOBODY)
        with self.assertRaises(mailroom.NotFoundError):
            c.members.update_role({"id": NOBODY, "role": "viewer"})
        with self.assertRaises(mailroom.NotFoundError):
            c.members.revoke_invitation(NOBODY)

    def test_a_sending_key_is_refused(self) -> None:
        sending = client(SENDING_KEY)
        for call in (sending.organizations.list, sending.members.list, sending.audit_log.list):
            with self.subTest(call=call.__qualname__), self.assertRaises(mailroom.InsufficientScopeError) as refused:
                call()
            self.assertEqual(refused.exception.status_code, 403)
        with self.assertRaises(mailroom.InsufficientScopeError):
            sending.members.invite({"email": f"{unique('nobody')}@example.org", "role": "viewer"})


if __name__ == "__main__":
    unittest.main()
