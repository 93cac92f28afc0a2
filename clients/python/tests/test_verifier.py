"""The Standard Webhooks verifier on its own: signatures made here with a known secret, the svix-* header names,
several signatures after a rotation, tampering, stale timestamps and malformed input."""

from __future__ import annotations

import base64
import json
import time
import unittest

import mailroom

SECRET = "whsec_" + base64.b64encode(b"0123456789abcdef0123456789abcdef").decode()
OTHER_SECRET = "whsec_" + base64.b64encode(b"another key, not the endpoint's!").decode()
BODY = json.dumps({"type": "email.sent", "created_at": "2026-11-22T10:00:00.000Z", "data": {"email_id": "e1"}})


def signed_headers(body: str = BODY, *, secret: str = SECRET, timestamp: int = 0, prefix: str = "webhook") -> dict:
    when = timestamp or int(time.time())
    signature = mailroom.Webhook(secret).sign("msg_1", when, body)
    return {f"{prefix}-id": "msg_1", f"{prefix}-timestamp": str(when), f"{prefix}-signature": signature}


class VerifierTest(unittest.TestCase):
    def test_a_valid_request_returns_the_payload(self) -> None:
        payload = mailroom.Webhook(SECRET).verify(BODY, signed_headers())
        self.assertEqual(payload["data"]["email_id"], "e1")

    def test_bytes_body_and_header_case_do_not_matter(self) -> None:
        headers = {k.upper(): v for k, v in signed_headers().items()}
        self.assertEqual(mailroom.verify_webhook(BODY.encode(), headers, SECRET)["type"], "email.sent")

    def test_svix_headers_are_accepted(self) -> None:
        self.assertEqual(mailroom.verify_webhook(BODY, signed_headers(prefix="svix"), SECRET)["type"], "email.sent")

    def test_any_of_several_signatures_passes(self) -> None:
        headers = signed_headers()
        stale = signed_headers(secret=OTHER_SECRET)["webhook-signature"]
        headers["webhook-signature"] = f"v1,bm90IGEgc2lnbmF0dXJl {stale} {headers['webhook-signature']}"
        self.assertEqual(mailroom.Webhook(SECRET).verify(BODY, headers)["type"], "email.sent")

    def test_a_secret_without_prefix_works(self) -> None:
        bare = SECRET[len("whsec_"):]
        self.assertEqual(mailroom.Webhook(bare).verify(BODY, signed_headers())["type"], "email.sent")

    def test_tampered_body_fails(self) -> None:
        with self.assertRaises(mailroom.WebhookVerificationError):
            mailroom.Webhook(SECRET).verify(BODY.replace("e1", "e2"), signed_headers())

    def test_wrong_secret_fails(self) -> None:
        with self.assertRaises(mailroom.WebhookVerificationError):
            mailroom.Webhook(OTHER_SECRET).verify(BODY, signed_headers())

    def test_stale_and_future_timestamps_fail(self) -> None:
        now = int(time.time())
        for when in (now - 301, now + 301):
            with self.subTest(when=when), self.assertRaises(mailroom.WebhookVerificationError):
                mailroom.Webhook(SECRET).verify(BODY, signed_headers(timestamp=when))

    def test_tolerance_is_configurable(self) -> None:
        old = int(time.time()) - 600
        self.assertEqual(mailroom.Webhook(SECRET, tolerance=900).verify(BODY, signed_headers(timestamp=old))["type"], "email.sent")

    def test_missing_headers_fail(self) -> None:
        for missing in ("webhook-id", "webhook-timestamp", "webhook-signature"):
            headers = signed_headers()
            del headers[missing]
            with self.subTest(missing=missing), self.assertRaises(mailroom.WebhookVerificationError):
                mailroom.Webhook(SECRET).verify(BODY, headers)

    def test_unknown_signature_versions_are_ignored(self) -> None:
        headers = signed_headers()
        headers["webhook-signature"] = headers["webhook-signature"].replace("v1,", "v2,")
        with self.assertRaises(mailroom.WebhookVerificationError):
            mailroom.Webhook(SECRET).verify(BODY, headers)

    def test_a_malformed_secret_is_refused_up_front(self) -> None:
        with self.assertRaises(ValueError):
            mailroom.Webhook("whsec_not base64!")

    def test_known_vector(self) -> None:
        # The Standard Webhooks specification's example: this secret, id, timestamp and body give this signature.
        secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
        body = '{"test": 2432232314}'
        expected = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        self.assertEqual(mailroom.Webhook(secret).sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body), expected)


if __name__ == "__main__":
    unittest.main()
