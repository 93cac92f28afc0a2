"""Webhooks against the real server: a real email.sent delivery to a local receiver verified with the library's
verifier (and a tampered body refused), the delivery log (events, attempts, replay), secret rotation, and the
endpoint's create/get/list/update/test/remove round trip."""

from __future__ import annotations

import json
import unittest
from typing import Callable

import mailroom
from mailroom.types import WebhookAttemptList
from tests.support import FROM, LocalServer, Recorded, client, needs_server, poll, recipient, unique


def about_email(email_id: str) -> Callable[[Recorded], bool]:
    """Matches the email.sent delivery about one email (the endpoint also gets the other suites' events)."""

    def match(request: Recorded) -> bool:
        try:
            payload = json.loads(request.body)
        except ValueError:
            return False
        return payload.get("type") == "email.sent" and payload.get("data", {}).get("email_id") == email_id

    return match


@needs_server
class WebhookDeliveryTest(unittest.TestCase):
    def setUp(self) -> None:
        self.client = client()
        self.receiver = LocalServer([(200, {}, {"ok": True})]).__enter__()
        self.addCleanup(self.receiver.__exit__)

    def test_a_real_delivery_verifies_and_a_tampered_one_does_not(self) -> None:
        hook = self.client.webhooks.create({"endpoint": f"{self.receiver.url}/hooks", "events": ["email.sent"]})
        self.addCleanup(self.client.webhooks.remove, hook["id"])
        self.assertEqual(hook["object"], "webhook")
        self.assertTrue(hook["signing_secret"].startswith("whsec_"))

        sent = self.client.emails.send({"from": FROM, "to": recipient(), "subject": unique("Hooked"), "html": "<p>x</p>"})
        delivery = self.receiver.wait_for(about_email(sent["id"]), timeout=15)

        payload = mailroom.Webhook(hook["signing_secret"]).verify(delivery.body, delivery.headers)
        self.assertEqual(payload["type"], "email.sent")
        self.assertEqual(payload["data"]["email_id"], sent["id"])
        self.assertEqual(self.client.webhooks.verify(delivery.body, delivery.headers, hook["signing_secret"]), payload)

        tampered = delivery.body.replace(sent["id"].encode(), b"00000000-0000-0000-0000-000000000000")
        with self.assertRaises(mailroom.WebhookVerificationError):
            mailroom.Webhook(hook["signing_secret"]).verify(tampered, delivery.headers)

        # The delivery log shows the event (its id is the webhook-id header), its successful attempt, and can send
        # it again. The attempt is recorded once the receiver's answer is read, so it may trail the request a little.
        event_id = delivery.headers.get("webhook-id")
        events = self.client.webhooks.events.list(hook["id"], {"limit": 100})
        self.assertEqual(events["object"], "list")
        self.assertIn(event_id, [e["id"] for e in events["data"]])
        detail = self.client.webhooks.events.get(hook["id"], event_id)
        self.assertEqual((detail["id"], detail["type"]), (event_id, "email.sent"))
        self.assertEqual(detail["payload"], payload)
        attempts: WebhookAttemptList = poll(
            lambda: self.client.webhooks.events.attempts(hook["id"], event_id),
            lambda page: any(a.get("http_status_code") == 200 for a in page["data"]),
            what="a recorded 200 attempt",
        )
        self.assertEqual(attempts["object"], "list")
        self.assertEqual(self.client.webhooks.events.get(hook["id"], event_id)["status"], "success")

        # After a rotation both secrets sign for a while: a replay verifies with the new one and the old one.
        rotated = self.client.webhooks.rotate_signing_secret(hook["id"])
        self.assertTrue(rotated["signing_secret"].startswith("whsec_"))
        self.assertNotEqual(rotated["signing_secret"], hook["signing_secret"])
        already = len(self.receiver.requests)
        self.client.webhooks.events.replay(hook["id"], event_id)
        replayed = self.receiver.wait_for(
            lambda r: self.receiver.requests.index(r) >= already and about_email(sent["id"])(r), timeout=15
        )
        self.assertEqual(replayed.headers.get("webhook-id"), delivery.headers.get("webhook-id"))
        for secret in (rotated["signing_secret"], hook["signing_secret"]):
            self.assertEqual(mailroom.verify_webhook(replayed.body, replayed.headers, secret)["data"]["email_id"], sent["id"])

    def test_endpoint_round_trip(self) -> None:
        description = unique("hook")
        created = self.client.webhooks.create(
            {"endpoint": f"{self.receiver.url}/round-trip", "events": ["email.delivered"], "description": description}
        )
        hook_id = created["id"]
        try:
            got = self.client.webhooks.get(hook_id)
            self.assertEqual((got["id"], got["endpoint"], got["events"]), (hook_id, created["endpoint"], ["email.delivered"]))
            self.assertFalse(any(str(v).startswith("whsec_") for v in got.values()), "the secret is shown at creation only")

            listed = self.client.webhooks.list({"limit": 100})
            self.assertEqual(listed["object"], "list")
            self.assertIn("has_more", listed)
            self.assertIn(hook_id, [w["id"] for w in listed["data"]])

            updated = self.client.webhooks.update(
                {"webhook_id": hook_id, "events": ["email.sent", "email.bounced"], "status": "disabled"}
            )
            self.assertEqual(sorted(updated["events"]), ["email.bounced", "email.sent"])
            self.assertEqual(self.client.webhooks.get(hook_id)["status"], "disabled")
            self.client.webhooks.update({"webhook_id": hook_id, "status": "enabled"})

            self.client.webhooks.test(hook_id, "email.sent")
            sample = self.receiver.wait_for(lambda r: r.path == "/round-trip", timeout=15)
            self.assertEqual(mailroom.Webhook(created["signing_secret"]).verify(sample.body, sample.headers)["type"], "email.sent")
            events = self.client.webhooks.events.list(hook_id, {"limit": 10})
            self.assertGreaterEqual(len(events["data"]), 1)
        finally:
            removed = self.client.webhooks.remove(hook_id)
        self.assertEqual((removed["object"], removed["id"], removed["deleted"]), ("webhook", hook_id, True))
        with self.assertRaises(mailroom.NotFoundError):
            self.client.webhooks.get(hook_id)


if __name__ == "__main__":
    unittest.main()
