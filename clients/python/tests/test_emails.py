"""Sending against the real server: a send with attachments and tags followed to "sent", its raw MIME and
attachments, list filters, batch (strict and permissive), idempotency keys, reschedule and cancel (a conflict once no
recipient waits)."""

from __future__ import annotations

import base64
import unittest
from datetime import datetime, timedelta, timezone
from typing import Any, Dict, cast

import mailroom
from mailroom.types import Email, SendParams
from tests.support import FROM, client, needs_server, poll, recipient, unique


def iso_in(days: int) -> str:
    when = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(days=days)
    return when.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def message(**overrides: Any) -> SendParams:
    body: Dict[str, Any] = {"from": FROM, "to": recipient(), "subject": unique("Subject"), "html": "<p>Hello from Python</p>"}
    body.update(overrides)
    return cast(SendParams, body)


@needs_server
class SendTest(unittest.TestCase):
    def setUp(self) -> None:
        self.client = client()

    def test_send_with_attachments_and_tags_is_delivered_to_the_smarthost(self) -> None:
        tag_value = unique("t")
        sent = self.client.emails.send(
            message(
                text="Hello from Python",
                reply_to="replies@example.com",
                tags=[{"name": "suite", "value": tag_value}],
                attachments=[mailroom.attachment("notes.txt", b"attached bytes", content_type="text/plain")],
            )
        )
        self.assertEqual(sent.get("message"), "Email sent.")
        email_id = sent["id"]

        email: Email = poll(
            lambda: self.client.emails.get(email_id),
            lambda e: e["status"] == "sent",
            what="status sent (accepted by the loopback smarthost)",
        )
        self.assertEqual(email["object"], "email")
        self.assertEqual(email["tags"], [{"name": "suite", "value": tag_value}])
        self.assertEqual(email["reply_to"], ["replies@example.com"])
        self.assertTrue(any(e["type"] == "email.sent" for e in email["events"]))
        self.assertEqual(email["recipients"][0]["attempts"], 1)
        self.assertIsNone(email["content_removed_at"], "retention has not removed a message sent just now")

        attachments = self.client.emails.attachments.list(email_id)
        self.assertEqual(attachments["object"], "list")
        self.assertEqual([a["filename"] for a in attachments["data"]], ["notes.txt"])
        one = self.client.emails.attachments.get(email_id, attachments["data"][0]["id"])
        self.assertEqual(one["filename"], "notes.txt")
        self.assertEqual(self.client.emails.attachments.content(email_id, one["id"]), b"attached bytes")

        raw = self.client.emails.raw(email_id)
        self.assertIn(email["subject"].encode(), raw)
        self.assertIn(base64.b64encode(b"attached bytes"), raw)

        listed = self.client.emails.list({"tag": f"suite:{tag_value}", "limit": 10})
        self.assertEqual(listed["object"], "list")
        self.assertFalse(listed["has_more"])
        self.assertEqual([e["id"] for e in listed["data"]], [email_id])

    def test_list_pages_with_limit_and_after(self) -> None:
        tag_value = unique("page")
        ids = [self.client.emails.send(message(tags=[{"name": "page", "value": tag_value}]))["id"] for _ in range(3)]
        first = self.client.emails.list({"tag": f"page:{tag_value}", "limit": 2})
        self.assertTrue(first["has_more"])
        second = self.client.emails.list({"tag": f"page:{tag_value}", "limit": 2, "after": first["data"][-1]["id"]})
        self.assertFalse(second["has_more"])
        self.assertEqual(sorted(e["id"] for e in first["data"] + second["data"]), sorted(ids))

    def test_batch_strict_sends_all(self) -> None:
        answer = self.client.batch.send([message(), message()])
        self.assertEqual(len(answer["data"]), 2)
        for item in answer["data"]:
            self.assertEqual(self.client.emails.get(item["id"])["id"], item["id"])

    def test_batch_strict_refuses_everything_for_one_invalid_item(self) -> None:
        invalid = message()
        del invalid["to"]
        with self.assertRaises(mailroom.ValidationError) as caught:
            self.client.batch.send([message(), invalid], validation="strict")
        self.assertTrue(caught.exception.details)

    def test_batch_permissive_sends_the_valid_items(self) -> None:
        invalid = message()
        del invalid["to"]
        answer = self.client.batch.send([message(), invalid], validation="permissive")
        self.assertEqual(len(answer["data"]), 1)
        self.assertEqual([e["index"] for e in answer["errors"]], [1])
        self.assertIn("to", answer["errors"][0]["message"])

    def test_batch_permissive_through_resend_options(self) -> None:
        invalid = message()
        del invalid["to"]
        answer = self.client.batch.send([invalid, message()], {"batch_validation": "permissive"})
        self.assertEqual([e["index"] for e in answer["errors"]], [0])

    def test_same_idempotency_key_answers_the_same_id(self) -> None:
        key = unique("idem")
        body = message()
        first = self.client.emails.send(body, idempotency_key=key)
        again = self.client.emails.send(body, {"idempotency_key": key})
        self.assertEqual(first["id"], again["id"])
        with self.assertRaises(mailroom.InvalidIdempotentRequestError) as caught:
            self.client.emails.send(message(), idempotency_key=key)
        self.assertEqual(caught.exception.status_code, 409)

    def test_batch_idempotency(self) -> None:
        key = unique("idem-batch")
        items = [message(), message()]
        first = self.client.batch.send(items, idempotency_key=key)
        again = self.client.batch.send(items, idempotency_key=key)
        self.assertEqual(first["data"], again["data"])

    def test_reschedule_then_cancel(self) -> None:
        sent = self.client.emails.send(message(scheduled_at=iso_in(1)))
        email_id = sent["id"]
        self.assertEqual(self.client.emails.get(email_id)["status"], "scheduled")

        later = iso_in(2)
        updated = self.client.emails.update({"id": email_id, "scheduled_at": later})
        self.assertEqual(updated["id"], email_id)
        self.assertEqual(self.client.emails.get(email_id)["scheduled_at"], later)

        canceled = self.client.emails.cancel(email_id)
        self.assertEqual(canceled["id"], email_id)
        self.assertEqual(self.client.emails.get(email_id)["status"], "canceled")

    def test_cancel_once_nothing_waits_is_a_conflict(self) -> None:
        email_id = self.client.emails.send(message())["id"]
        poll(lambda: self.client.emails.get(email_id), lambda e: e["status"] == "sent", what="status sent")
        with self.assertRaises(mailroom.ConflictError) as caught:
            self.client.emails.cancel(email_id)
        self.assertEqual(caught.exception.status_code, 409)


if __name__ == "__main__":
    unittest.main()
