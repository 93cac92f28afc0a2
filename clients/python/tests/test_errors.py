"""Error answers of the real server as typed exceptions: 401, 403, 400 with details, 404, and 429 with
Retry-After (the rate-limited key is used here and nowhere else)."""

from __future__ import annotations

import unittest

import mailroom
from tests.support import FROM, LIMITED_KEY, SENDING_KEY, client, needs_server, recipient

UNKNOWN_ID = "6f1c1a4e-8d0b-4c57-9a5e-3b2f0d9e7c11"


@needs_server
class ErrorTest(unittest.TestCase):
    def test_bad_key_is_unauthorized(self) -> None:
        with self.assertRaises(mailroom.UnauthorizedError) as caught:
            client("mr_live_not_a_real_key").domains.list()
        error = caught.exception
        self.assertIsInstance(error, mailroom.MailroomError)
        self.assertEqual((error.name, error.status_code), ("unauthorized", 401))
        self.assertTrue(error.message)

    @unittest.skipUnless(SENDING_KEY, "MAILROOM_SENDING_KEY is not set")
    def test_sending_key_cannot_list_domains(self) -> None:
        with self.assertRaises(mailroom.InsufficientScopeError) as caught:
            client(SENDING_KEY).domains.list()
        self.assertEqual((caught.exception.name, caught.exception.status_code), ("insufficient_scope", 403))

    def test_send_without_to_is_a_validation_error_with_details(self) -> None:
        with self.assertRaises(mailroom.ValidationError) as caught:
            client().emails.send({"from": FROM, "subject": "No recipient", "html": "<p>x</p>"})  # type: ignore[typeddict-item]
        error = caught.exception
        self.assertEqual((error.name, error.status_code), ("validation_error", 400))
        self.assertIn("to", [d["path"] for d in error.details])
        self.assertIn("to", str(error))

    def test_unknown_email_is_not_found(self) -> None:
        with self.assertRaises(mailroom.NotFoundError) as caught:
            client().emails.get(UNKNOWN_ID)
        self.assertEqual((caught.exception.name, caught.exception.status_code), ("not_found", 404))

    @unittest.skipUnless(LIMITED_KEY, "MAILROOM_LIMITED_KEY is not set")
    def test_third_request_in_a_minute_is_rate_limited(self) -> None:
        limited = client(LIMITED_KEY)
        limited.emails.send({"from": FROM, "to": recipient(), "subject": "One", "html": "<p>1</p>"})
        limited.emails.list({"limit": 1})
        with self.assertRaises(mailroom.RateLimitExceededError) as caught:
            limited.emails.list({"limit": 1})
        error = caught.exception
        self.assertEqual((error.name, error.status_code), ("rate_limit_exceeded", 429))
        self.assertIsNotNone(error.retry_after)
        self.assertGreater(error.retry_after or 0, 0)


if __name__ == "__main__":
    unittest.main()
