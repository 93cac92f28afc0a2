"""Broadcasts against the real server: a draft created, read, listed, changed, duplicated and removed; sent to a
segment of two contacts, one of them out of the broadcast's topic, until every contact is reached; its recipients and
clicked links; a scheduled one cancelled back to draft; what a sent broadcast refuses."""

from __future__ import annotations

import unittest
from datetime import datetime, timedelta, timezone

import mailroom
from tests.support import FROM, client, needs_server, poll, recipient, unique


@needs_server
class BroadcastsTest(unittest.TestCase):
    def test_a_draft(self) -> None:
        c = client()
        segment = c.segments.create({"name": unique("readers")})
        name = unique("june")
        created = c.broadcasts.create(
            {"name": name, "segment_id": segment["id"], "from": FROM, "subject": "June", "html": "<p>Hi</p>"}
        )
        draft = c.broadcasts.get(created["id"])
        self.assertEqual((draft["object"], draft["name"], draft["status"]), ("broadcast", name, "draft"))
        self.assertEqual((draft["counts"]["contacts_reached"], draft["counts"]["messages"]), (0, 0))
        listed = {b["id"]: b["status"] for b in c.broadcasts.list({"limit": 100})["data"]}
        self.assertEqual(listed.get(created["id"]), "draft")

        self.assertEqual(c.broadcasts.update(created["id"], {"subject": "June news"}), {"id": created["id"]})
        self.assertEqual(c.broadcasts.get(created["id"])["subject"], "June news")
        copy = c.broadcasts.duplicate(created["id"])
        self.assertNotEqual(copy["id"], created["id"])
        self.assertEqual(c.broadcasts.get(copy["id"])["status"], "draft")
        for broadcast_id in (copy["id"], created["id"]):
            self.assertEqual(
                c.broadcasts.remove(broadcast_id), {"object": "broadcast", "id": broadcast_id, "deleted": True}
            )
        with self.assertRaises(mailroom.NotFoundError):
            c.broadcasts.get(created["id"])

    def test_sent_to_a_segment(self) -> None:
        c = client()
        segment = c.segments.create({"name": unique("audience")})
        topic = c.topics.create({"name": unique("monthly"), "default_subscription": "opt_in"})
        ada, alan = recipient("ada"), recipient("alan")
        c.contacts.create({"email": ada, "first_name": "Ada", "segments": [{"id": segment["id"]}]})
        c.contacts.create(
            {
                "email": alan,
                "segments": [{"id": segment["id"]}],
                "topics": [{"id": topic["id"], "subscription": "opt_out"}],
            }
        )
        broadcast_id = c.broadcasts.create(
            {
                "segment_id": segment["id"],
                "topic_id": topic["id"],
                "from": FROM,
                "subject": "Monthly",
                "html": "<p>Hi {{{FIRST_NAME|there}}}</p>",
                "send": True,
            }
        )["id"]
        sent = poll(
            lambda: c.broadcasts.get(broadcast_id), lambda b: b["status"] == "sent", what="every contact reached"
        )
        counts = sent["counts"]
        self.assertEqual((counts["contacts_reached"], counts["messages"], counts["skipped"]), (2, 1, 1))
        page = poll(
            lambda: c.broadcasts.recipients(broadcast_id, {"type": "sent"}),
            lambda p: len(p["data"]) > 0,
            what="the message to be sent",
        )
        self.assertEqual([r["email"] for r in page["data"]], [ada])
        self.assertEqual(c.emails.get(page["data"][0]["id"])["topic_id"], topic["id"])
        self.assertEqual(c.broadcasts.recipients(broadcast_id, {"type": "sent", "email": alan})["data"], [])
        self.assertEqual(c.broadcasts.clicked_links(broadcast_id), {"object": "list", "has_more": False, "data": []})

        with self.assertRaises(mailroom.ConflictError):
            c.broadcasts.update(broadcast_id, {"name": "x"})
        with self.assertRaises(mailroom.ConflictError):
            c.broadcasts.remove(broadcast_id)
        with self.assertRaises(ValueError):
            c.broadcasts.recipients(broadcast_id, {"limit": 10})

    def test_scheduled_then_cancelled(self) -> None:
        c = client()
        segment = c.segments.create({"name": unique("later")})
        broadcast_id = c.broadcasts.create(
            {
                "segment_id": segment["id"],
                "from": FROM,
                "subject": "Later",
                "text": "Hi {{{EMAIL}}}",
                "send": True,
                "scheduled_at": "in 2 hours",
            }
        )["id"]
        self.assertEqual(c.broadcasts.get(broadcast_id)["status"], "queued")
        self.assertEqual(c.broadcasts.cancel(broadcast_id), {"object": "broadcast", "id": broadcast_id})
        back = c.broadcasts.get(broadcast_id)
        self.assertEqual((back["status"], back["scheduled_at"]), ("draft", None))

        at = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(days=1)
        self.assertEqual(c.broadcasts.send(broadcast_id, at), {"id": broadcast_id})
        again = c.broadcasts.get(broadcast_id)
        self.assertEqual(again["status"], "queued")
        scheduled = datetime.fromisoformat((again["scheduled_at"] or "").replace("Z", "+00:00"))
        self.assertEqual(scheduled, at)
        c.broadcasts.cancel(broadcast_id)
        c.broadcasts.remove(broadcast_id)


if __name__ == "__main__":
    unittest.main()
