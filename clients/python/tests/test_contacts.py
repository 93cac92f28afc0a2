"""Contacts and what hangs off them against the real server: contact properties, segments (and ``audiences``, the
same resource), topics, contacts by id and by address with their segments and topic choices, Resend's older audience
forms, and a CSV import followed to its end."""

from __future__ import annotations

import io
import unittest

import mailroom
from mailroom.contact_types import ContactTopicList
from tests.support import FROM, client, needs_server, poll, recipient, unique


def property_key() -> str:
    # Letters, digits and underscores, starting with a letter.
    return unique("p").replace("-", "_")


@needs_server
class ContactResourcesTest(unittest.TestCase):
    def test_contact_properties(self) -> None:
        properties = client().contact_properties
        key = property_key()
        created = properties.create({"key": key, "type": "string", "fallback_value": "friend"})
        self.assertEqual((created["object"], created["key"], created["fallback_value"]), ("contact_property", key, "friend"))
        self.assertEqual(properties.get(created["id"])["key"], key)
        self.assertIn(created["id"], [p["id"] for p in properties.list({"limit": 100})["data"]])
        self.assertEqual(properties.update({"id": created["id"], "fallback_value": "reader"})["fallback_value"], "reader")
        removed = properties.remove(created["id"])
        self.assertEqual((removed["object"], removed["id"], removed["deleted"]), ("contact_property", created["id"], True))
        with self.assertRaises(mailroom.NotFoundError):
            properties.get(created["id"])

    def test_segments_and_audiences_are_one_resource(self) -> None:
        c = client()
        self.assertIs(c.audiences, c.segments)
        name = unique("segment")
        created = c.segments.create({"name": name})
        self.assertEqual((created["object"], created["name"]), ("segment", name))
        self.assertEqual(c.audiences.get(created["id"])["name"], name)
        self.assertIn(created["id"], [s["id"] for s in c.segments.list({"limit": 100})["data"]])
        self.assertEqual(c.segments.update(created["id"], {"name": name + "-renamed"})["name"], name + "-renamed")
        self.assertTrue(c.audiences.remove(created["id"])["deleted"])
        with self.assertRaises(mailroom.NotFoundError):
            c.segments.get(created["id"])

    def test_topics(self) -> None:
        topics = client().topics
        name = unique("topic")
        created = topics.create(
            {"name": name, "description": "Product news", "default_subscription": "opt_in", "visibility": "private"}
        )
        self.assertEqual(
            (created["object"], created["default_subscription"], created["visibility"]), ("topic", "opt_in", "private")
        )
        self.assertEqual(topics.get(created["id"])["name"], name)
        self.assertIn(created["id"], [t["id"] for t in topics.list({"limit": 100})["data"]])
        updated = topics.update({"id": created["id"], "visibility": "public"})
        self.assertEqual((updated["visibility"], updated["name"]), ("public", name))
        self.assertTrue(topics.remove(created["id"])["deleted"])
        with self.assertRaises(mailroom.NotFoundError):
            topics.get(created["id"])


@needs_server
class ContactsTest(unittest.TestCase):
    def test_contacts_by_id_and_address(self) -> None:
        c = client()
        key = property_key()
        c.contact_properties.create({"key": key, "type": "number", "fallback_value": 0})
        segment = c.segments.create({"name": unique("members")})
        other = c.segments.create({"name": unique("others")})
        topic = c.topics.create({"name": unique("news"), "default_subscription": "opt_in"})
        email = recipient("a+contact")

        created = c.contacts.create(
            {
                "email": email,
                "first_name": "Ada",
                "properties": {key: 3},
                "segments": [{"id": segment["id"]}],
                "topics": [{"id": topic["id"], "subscription": "opt_out"}],
            }
        )
        self.assertEqual((created["object"], created["email"], created["last_name"]), ("contact", email, None))
        self.assertEqual(c.contacts.get(created["id"])["properties"][key], {"type": "number", "value": 3})
        self.assertEqual(c.contacts.get(email)["id"], created["id"])
        self.assertEqual(c.contacts.get(email=email)["id"], created["id"])
        self.assertEqual([m["id"] for m in c.contacts.list({"segment_id": segment["id"]})["data"]], [created["id"]])
        self.assertEqual([m["id"] for m in c.segments.contacts(segment["id"])["data"]], [created["id"]])

        updated = c.contacts.update({"email": email, "last_name": "Lovelace", "properties": {key: None}})
        self.assertEqual((updated["id"], updated["first_name"], updated["last_name"]), (created["id"], "Ada", "Lovelace"))
        self.assertEqual(c.contacts.get(id=created["id"])["properties"][key], {"type": "number", "value": 0})

        # Its segments, by id and by address.
        self.assertEqual([s["id"] for s in c.contacts.segments.list({"contact_id": created["id"]})["data"]], [segment["id"]])
        added = c.contacts.segments.add({"email": email, "segment_id": other["id"]})
        self.assertEqual(added, {"id": other["id"], "contact_id": created["id"]})
        self.assertIn(other["id"], [s["id"] for s in c.contacts.segments.list({"email": email})["data"]])
        removed = c.contacts.segments.remove({"contact_id": created["id"], "segment_id": other["id"]})
        self.assertEqual(removed, {"id": other["id"], "contact_id": created["id"], "deleted": True})

        # Its topic choices.
        def choice(page: ContactTopicList) -> str:
            return next(t["subscription"] for t in page["data"] if t["id"] == topic["id"])

        self.assertEqual(choice(c.contacts.topics.list({"id": created["id"], "limit": 100})), "opt_out")
        changed = c.contacts.topics.update({"email": email, "topics": [{"id": topic["id"], "subscription": "opt_in"}]})
        self.assertEqual(changed, {"id": created["id"]})
        self.assertEqual(choice(c.contacts.topics.list({"email": email, "limit": 100})), "opt_in")

        # Resend's older audience forms act within that segment.
        self.assertEqual(c.contacts.get(email=email, audience_id=segment["id"])["id"], created["id"])
        with self.assertRaises(mailroom.NotFoundError):
            c.contacts.get(email=email, audience_id=other["id"])
        joined = c.contacts.create({"email": recipient("legacy"), "audience_id": segment["id"]})
        self.assertIn(joined["id"], [m["id"] for m in c.contacts.list({"audience_id": segment["id"]})["data"]])

        gone = c.contacts.remove(email=email)
        self.assertEqual(gone, {"object": "contact", "id": created["id"], "contact": created["id"], "deleted": True})
        with self.assertRaises(mailroom.NotFoundError):
            c.contacts.get(created["id"])
        self.assertTrue(c.contacts.remove(joined["id"])["deleted"])

    def test_a_contact_who_left_a_topic_is_suppressed_for_it_only(self) -> None:
        c = client()
        topic = c.topics.create({"name": unique("digest"), "default_subscription": "opt_in"})
        email = recipient("left")
        c.contacts.create({"email": email, "topics": [{"id": topic["id"], "subscription": "opt_out"}]})
        with_topic = c.emails.send({"from": FROM, "to": email, "subject": "Digest", "html": "<p>d</p>", "topic_id": topic["id"]})
        without = c.emails.send({"from": FROM, "to": email, "subject": "Reset", "html": "<p>r</p>"})
        sent = c.emails.get(with_topic["id"])
        self.assertEqual((sent["topic_id"], [r["status"] for r in sent["recipients"]]), (topic["id"], ["suppressed"]))
        other = poll(
            lambda: c.emails.get(without["id"]),
            lambda e: [r["status"] for r in e["recipients"]] == ["sent"],
            what="the mail without a topic to reach the smarthost",
        )
        self.assertIsNone(other["topic_id"])

    def test_a_call_without_the_contact_fails_before_any_request(self) -> None:
        c = mailroom.Mailroom("mr_live_unused", base_url="http://127.0.0.1:9")
        with self.assertRaises(ValueError):
            c.contacts.get()
        with self.assertRaises(ValueError):
            c.contacts.update({"first_name": "x"})
        with self.assertRaises(ValueError):
            c.contacts.segments.add({"email": "a@example.org", "segment_id": ""})
        with self.assertRaises(ValueError):
            c.contacts.topics.list({"limit": 10})

    def test_import_a_csv(self) -> None:
        c = client()
        segment = c.segments.create({"name": unique("imported")})
        first, second = recipient("import"), recipient("import")
        csv = f"Email,Given\n{first},Grace\nnot-an-address,Nobody\n{second},Alan\n"
        created = c.contacts.imports.create(
            {
                "file": io.BytesIO(csv.encode()),
                "filename": 'list "one".csv',
                "column_map": {"email": "Email", "first_name": "Given"},
                "segments": [{"id": segment["id"]}],
            }
        )
        self.assertEqual(created["object"], "contact_import")
        done = poll(
            lambda: c.contacts.imports.get(created["id"]),
            lambda state: state["status"] in ("completed", "failed"),
            what="the import to finish",
        )
        self.assertEqual(done["status"], "completed", done)
        self.assertEqual((done["counts"]["total"], done["counts"]["created"], done["counts"]["failed"]), (3, 2, 1))
        self.assertEqual([e["line"] for e in done["errors"]], [3])
        self.assertEqual(c.contacts.get(first)["first_name"], "Grace")
        members = sorted(m["email"] for m in c.contacts.list({"segment_id": segment["id"]})["data"])
        self.assertEqual(members, sorted([first, second]))
        self.assertIn(created["id"], [i["id"] for i in c.contacts.imports.list({"limit": 100})["data"]])

        # The text itself works too, and skip leaves existing contacts as they are.
        again = c.contacts.imports.create({"file": f"email,first_name\n{first},Changed\n", "on_conflict": "skip"})
        skipped = poll(
            lambda: c.contacts.imports.get(again["id"]),
            lambda state: state["status"] in ("completed", "failed"),
            what="the second import to finish",
        )
        self.assertEqual((skipped["counts"]["skipped"], c.contacts.get(first)["first_name"]), (1, "Grace"))


if __name__ == "__main__":
    unittest.main()
