"""Suppressions against the real server: one added, found by address and id, listed by search and removed; batches
added and removed by id and by address; and a suppressed recipient refused at send."""

from __future__ import annotations

import unittest

import mailroom
from tests.support import FROM, client, needs_server, recipient


@needs_server
class SuppressionsTest(unittest.TestCase):
    def test_suppression_round_trip(self) -> None:
        suppressions = client().suppressions
        address = recipient("suppressed")
        added = suppressions.add({"email": address, "reason": "asked by phone"})
        self.assertEqual((added["object"], added["email"], added["origin"]), ("suppression", address, "manual"))
        self.assertEqual(suppressions.get(address)["id"], added["id"])
        self.assertEqual(suppressions.get(added["id"])["email"], address)

        found = suppressions.list({"search": address, "limit": 10})
        self.assertEqual(found["object"], "list")
        self.assertEqual([s["email"] for s in found["data"]], [address])

        removed = suppressions.remove(address)
        self.assertEqual((removed["id"], removed["deleted"]), (added["id"], True))
        with self.assertRaises(mailroom.NotFoundError):
            suppressions.get(address)

    def test_batch_add_and_remove(self) -> None:
        suppressions = client().suppressions
        addresses = [recipient("batch"), recipient("batch")]
        added = suppressions.batch.add({"emails": addresses, "reason": "imported"})
        self.assertEqual(sorted(s["email"] for s in added["data"]), sorted(addresses))
        by_id = suppressions.batch.remove({"ids": [added["data"][0]["id"]]})
        self.assertEqual([s["deleted"] for s in by_id["data"]], [True])
        by_email = suppressions.batch.remove({"emails": [added["data"][1]["email"]]})
        self.assertEqual([s["email"] for s in by_email["data"]], [added["data"][1]["email"]])
        for address in addresses:
            with self.assertRaises(mailroom.NotFoundError):
                suppressions.get(address)

    def test_a_suppressed_recipient_is_not_sent_to(self) -> None:
        c = client()
        address = recipient("blocked")
        c.suppressions.add({"email": address})
        try:
            with self.assertRaises(mailroom.DomainNotVerifiedError) as caught:
                c.emails.send({"from": FROM, "to": address, "subject": "x", "html": "<p>x</p>"})
            self.assertEqual(caught.exception.status_code, 422)
        finally:
            c.suppressions.remove(address)


if __name__ == "__main__":
    unittest.main()
