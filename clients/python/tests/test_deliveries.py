"""The delivery queue against the real server, on a message scheduled an hour ahead: its recipients listed, the
summary, a retry refused, one canceled by id and the rest in bulk, a bulk action without a filter, a sending key
refused, and an unknown delivery not found."""

from __future__ import annotations

import unittest
from datetime import datetime, timedelta, timezone

import mailroom
from tests.support import FROM, SENDING_KEY, client, needs_server, recipient, unique


@needs_server
class DeliveriesTest(unittest.TestCase):
    def test_queue_list_summary_and_actions(self) -> None:
        c = client()
        # Scheduled an hour ahead, its two recipients wait as queued and nothing attempts them meanwhile.
        in_an_hour = (datetime.now(timezone.utc) + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
        addresses = [recipient("queued"), recipient("queued")]
        sent = c.emails.send(
            {"from": FROM, "to": addresses, "subject": unique("Queued"), "html": "<p>x</p>", "scheduled_at": in_an_hour}
        )
        email_id = sent["id"]

        page = c.deliveries.list({"email_id": email_id, "limit": 10})
        self.assertEqual(page["object"], "list")
        self.assertFalse(page["has_more"])
        self.assertEqual(sorted(d["recipient"] for d in page["data"]), sorted(addresses))
        for delivery in page["data"]:
            self.assertEqual((delivery["object"], delivery["email_id"]), ("delivery", email_id))
            self.assertEqual((delivery["status"], delivery["attempts"]), ("queued", 0))
        first, second = page["data"]

        summary = c.deliveries.summary()
        self.assertEqual(summary["object"], "queue_summary")
        self.assertGreaterEqual(summary["by_status"]["queued"], 2)
        self.assertGreaterEqual(next(d for d in summary["by_domain"] if d["domain"] == "example.org")["queued"], 2)
        self.assertTrue(summary["oldest_waiting_at"])

        with self.assertRaises(mailroom.ConflictError) as caught:
            c.deliveries.retry(first["id"])  # only a deferred delivery can be retried
        self.assertEqual(caught.exception.status_code, 409)

        canceled = c.deliveries.cancel(first["id"])
        self.assertEqual((canceled["id"], canceled["status"]), (first["id"], "canceled"))
        self.assertEqual([d["id"] for d in c.deliveries.list({"email_id": email_id})["data"]], [second["id"]])

        bulk = c.deliveries.bulk.cancel({"email_id": email_id})
        self.assertEqual(bulk, {"object": "bulk", "matched": 1, "changed": 1})
        self.assertEqual(c.deliveries.list({"email_id": email_id})["data"], [])

        with self.assertRaises(mailroom.ValidationError) as invalid:
            c.deliveries.bulk.cancel({})
        self.assertEqual(invalid.exception.status_code, 400)

        with self.assertRaises(mailroom.InsufficientScopeError) as refused:
            client(SENDING_KEY).deliveries.list()
        self.assertEqual(refused.exception.status_code, 403)

    def test_an_unknown_delivery_is_not_found(self) -> None:
        with self.assertRaises(mailroom.NotFoundError):
            client().deliveries.release("00000000-0000-4000-8000-000000000000")


if __name__ == "__main__":
    unittest.main()
