"""Received email against the real server: the message received before the suites start, listed, read, its raw MIME
and its attachments."""

from __future__ import annotations

import unittest

from mailroom.types import ReceivedEmailList
from tests.support import INBOUND_SUBJECT, client, needs_server, poll


@needs_server
class ReceivingTest(unittest.TestCase):
    @unittest.skipUnless(INBOUND_SUBJECT, "MAILROOM_INBOUND_SUBJECT is not set")
    def test_the_received_message_is_listed_and_read(self) -> None:
        c = client()
        page: ReceivedEmailList = poll(
            lambda: c.emails.receiving.list({"limit": 100}),
            lambda p: any(m.get("subject") == INBOUND_SUBJECT for m in p["data"]),
            what="the inbound message in the list",
        )
        self.assertEqual(page["object"], "list")
        listed = next(m for m in page["data"] if m["subject"] == INBOUND_SUBJECT)

        received = c.emails.receiving.get(listed["id"])
        self.assertEqual((received["id"], received["subject"]), (listed["id"], INBOUND_SUBJECT))
        self.assertIn("support@example.com", received["to"])
        self.assertIn("A reply for the libraries to find.", received.get("text") or "")

        self.assertIs(c.receiving, c.emails.receiving)
        self.assertIn(INBOUND_SUBJECT.encode(), c.receiving.raw(listed["id"]))
        attachments = c.receiving.attachments.list(listed["id"])
        self.assertEqual((attachments["object"], attachments["data"]), ("list", []))


if __name__ == "__main__":
    unittest.main()
