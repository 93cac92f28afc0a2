"""API keys against the real server: made, listed (never with the token), renamed and revoked (the token then
unauthorized, the key listed only with include_revoked), and a key's own daily quota."""

from __future__ import annotations

import unittest

import mailroom
from tests.support import FROM, client, needs_server, recipient, unique


@needs_server
class ApiKeysTest(unittest.TestCase):
    def test_api_key_round_trip(self) -> None:
        api_keys = client().api_keys
        created = api_keys.create({"name": unique("py-key"), "permission": "sending_access"})
        self.assertTrue(created["id"])
        self.assertTrue(created["token"].startswith("mr_"))
        self.assertIsNone(created["daily_quota"], "no quota of its own unless asked for")

        listed = api_keys.list({"limit": 100})
        self.assertEqual(listed["object"], "list")
        self.assertIn("has_more", listed)
        self.assertIn(created["id"], [k["id"] for k in listed["data"]])
        self.assertNotIn("token", next(k for k in listed["data"] if k["id"] == created["id"]))

        renamed = api_keys.update({"id": created["id"], "name": "renamed by the Python suite"})
        self.assertEqual(renamed["id"], created["id"])
        after_rename = api_keys.list({"limit": 100})["data"]
        self.assertEqual(next(k for k in after_rename if k["id"] == created["id"])["name"], "renamed by the Python suite")

        # The new key works, within its scope only.
        with self.assertRaises(mailroom.InsufficientScopeError):
            client(created["token"]).domains.list()

        removed = api_keys.remove(created["id"])
        self.assertEqual((removed["object"], removed["id"], removed["deleted"]), ("api_key", created["id"], True))
        with self.assertRaises(mailroom.UnauthorizedError):
            client(created["token"]).emails.send({"from": FROM, "to": recipient(), "subject": "x", "html": "<p>x</p>"})
        self.assertNotIn(created["id"], [k["id"] for k in api_keys.list({"limit": 100})["data"]])
        revoked = api_keys.list({"limit": 100, "include_revoked": True})["data"]
        self.assertIn(created["id"], [k["id"] for k in revoked])

    def test_a_key_s_own_daily_quota(self) -> None:
        api_keys = client().api_keys
        created = api_keys.create({"name": unique("py-quota"), "permission": "sending_access", "daily_quota": 1})
        try:
            self.assertEqual(created["daily_quota"], 1)
            listed = next(k for k in api_keys.list({"limit": 100})["data"] if k["id"] == created["id"])
            self.assertEqual(listed["daily_quota"], 1)

            limited = client(created["token"])
            limited.emails.send({"from": FROM, "to": recipient(), "subject": unique("Quota"), "html": "<p>1</p>"})
            with self.assertRaises(mailroom.DailyQuotaExceededError) as caught:
                limited.emails.send({"from": FROM, "to": recipient(), "subject": unique("Quota"), "html": "<p>2</p>"})
            self.assertEqual((caught.exception.name, caught.exception.status_code), ("daily_quota_exceeded", 429))
            self.assertGreater(caught.exception.retry_after or 0, 0)
        finally:
            api_keys.remove(created["id"])

        with self.assertRaises(mailroom.ValidationError) as refused:
            api_keys.create({"name": unique("py-quota"), "daily_quota": 0})
        self.assertIn("daily_quota", [d["path"] for d in refused.exception.details])


if __name__ == "__main__":
    unittest.main()
