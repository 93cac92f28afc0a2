"""The organisation against the real server: the settings in force and today's usage, the daily quota refusing the
message past it until reset, retention changed and returned to its default, bad values refused, a sending key
refused. Each language's suite changes the same organisation: every change is undone whatever happens."""

from __future__ import annotations

import time
import unittest

import mailroom
from tests.support import FROM, SENDING_KEY, client, needs_server, recipient, unique


def send_one(c: mailroom.Mailroom) -> str:
    return c.emails.send({"from": FROM, "to": recipient("quota"), "subject": unique("Quota"), "html": "<p>x</p>"})["id"]


@needs_server
class OrganizationTest(unittest.TestCase):
    def test_the_settings_in_force_and_today_s_usage(self) -> None:
        org = client().organization.get()
        self.assertEqual(org["object"], "organization")
        self.assertTrue(org["id"] and org["name"] and org["created_at"])
        self.assertGreaterEqual(org["rate_limit"], 1)
        self.assertTrue(org["daily_quota"] is None or org["daily_quota"] >= 1)
        self.assertIsInstance(org["usage_today"], int)
        self.assertEqual(sorted(org["retention"]), ["content_days", "metadata_days"])
        self.assertGreaterEqual(org["retention"]["content_days"], 1)
        self.assertIsInstance(org["paused"], bool)
        # None until the retention job first counts; then its three fields.
        if org["storage"] is not None:
            self.assertEqual(sorted(org["storage"]), ["content_bytes", "measured_at", "messages"])

    def test_the_daily_quota_refuses_the_message_past_it_until_reset(self) -> None:
        c = client()
        # Each language's suite runs this against the same organisation: whatever happens, no quota is left behind.
        try:
            # The server reserves a second's expected sends ahead and gives back what it did not use when the
            # second ends: past that, usage_today is exact.
            time.sleep(1.1)
            used = c.organization.get()["usage_today"]
            limited = c.organization.update(daily_quota=used + 1)
            self.assertEqual((limited["object"], limited["daily_quota"]), ("organization", used + 1))

            send_one(c)
            with self.assertRaises(mailroom.DailyQuotaExceededError) as caught:
                send_one(c)
            error = caught.exception
            self.assertEqual((error.name, error.status_code), ("daily_quota_exceeded", 429))
            # Seconds to 00:00 UTC, when the count starts again.
            self.assertTrue(0 < (error.retry_after or 0) <= 86400, error.retry_after)
            self.assertEqual(c.organization.get()["usage_today"], used + 1, "the refused message is not counted")
        finally:
            restored = c.organization.update({"daily_quota": None})
        self.assertIsNone(restored["daily_quota"])
        send_one(c)

    def test_retention_changes_and_returns_to_its_default(self) -> None:
        organization = client().organization
        default = organization.get()["retention"]
        try:
            changed = organization.update({"retention": {"content_days": 90}})
            self.assertEqual(changed["retention"], {"content_days": 90, "metadata_days": default["metadata_days"]})
        finally:
            restored = organization.update(retention={"content_days": None})
        self.assertEqual(restored["retention"], default)

    def test_bad_values_are_refused(self) -> None:
        organization = client().organization
        try:
            for changes, path in [
                ({"daily_quota": 0}, "daily_quota"),
                ({"rate_limit": "many"}, "rate_limit"),
                ({"retention": {"content_days": 0}}, "retention.content_days"),
                ({"paused": True}, "paused"),
            ]:
                with self.subTest(changes=changes), self.assertRaises(mailroom.ValidationError) as caught:
                    organization.update(**changes)
                self.assertEqual((caught.exception.name, caught.exception.status_code), ("validation_error", 400))
                self.assertIn(path, str(caught.exception))
        finally:
            # A refused change changes nothing; should one be taken, it must not outlive this test.
            organization.update(daily_quota=None, rate_limit=None, retention={"content_days": None})

    def test_a_sending_key_is_refused(self) -> None:
        organization = client(SENDING_KEY).organization
        with self.assertRaises(mailroom.InsufficientScopeError) as refused:
            organization.get()
        self.assertEqual((refused.exception.name, refused.exception.status_code), ("insufficient_scope", 403))
        with self.assertRaises(mailroom.InsufficientScopeError):
            organization.update(daily_quota=1)


if __name__ == "__main__":
    unittest.main()
