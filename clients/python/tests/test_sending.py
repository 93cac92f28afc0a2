"""Sending pauses against the real server: the verified sending domain paused, its mail held until it is resumed and
then sent; what a pause names is checked; a sending key is refused."""

from __future__ import annotations

import unittest
from typing import List

import mailroom
from mailroom.types import ResumeSendingParams, SendingPause, SendingState
from tests.sending_domain import PAUSED_DOMAIN
from tests.support import FROM, SENDING_KEY, client, needs_server, poll, recipient, unique


def domain_pauses(state: SendingState) -> List[SendingPause]:
    return [p for p in state["pauses"] if p["scope"] == "domain" and p["name"] == PAUSED_DOMAIN]


@needs_server
class SendingTest(unittest.TestCase):
    def test_a_paused_domain_holds_its_mail_until_resumed(self) -> None:
        c = client()
        target: ResumeSendingParams = {"scope": "domain", "name": PAUSED_DOMAIN}
        try:
            paused = c.sending.pause({"scope": "domain", "name": PAUSED_DOMAIN, "reason": unique("py-maintenance")})
            self.assertEqual(paused["object"], "sending")
            (pause,) = domain_pauses(paused)
            self.assertTrue(pause["reason"] and pause["paused_at"] and pause["paused_by"])
            self.assertEqual(domain_pauses(c.sending.get()), [pause])
            # Pausing it again keeps the first pause, its reason and time.
            again = c.sending.pause({"scope": "domain", "name": PAUSED_DOMAIN, "reason": "again"})
            self.assertEqual(domain_pauses(again), [pause])

            # Accepted, and held at its attempt (the worker polls every 200 ms), never attempted.
            address = recipient("held")
            email_id = c.emails.send({"from": FROM, "to": address, "subject": unique("Held"), "html": "<p>x</p>"})["id"]
            held = poll(
                lambda: c.deliveries.list({"email_id": email_id, "status": "held"}),
                lambda page: len(page["data"]) == 1,
                timeout=5.0,
                what="the recipient held",
            )
            delivery = held["data"][0]
            self.assertEqual((delivery["recipient"], delivery["status"], delivery["attempts"]), (address, "held", 0))
            self.assertIn(PAUSED_DOMAIN, delivery["last_response"] or "")

            resumed = c.sending.resume(target)
            self.assertEqual(resumed["object"], "sending")
            self.assertGreaterEqual(resumed["released"], 1)
            self.assertEqual(domain_pauses(resumed), [])
            with self.assertRaises(mailroom.NotFoundError) as caught:
                c.sending.resume(target)
            self.assertEqual(caught.exception.status_code, 404)

            poll(lambda: c.emails.get(email_id), lambda e: e["status"] == "sent", what="the held message sent")
        finally:
            try:
                c.sending.resume(target)
            except mailroom.NotFoundError:
                pass  # resumed above (or by another suite)

    def test_what_a_pause_names_is_checked(self) -> None:
        sending = client().sending
        with self.assertRaises(mailroom.ValidationError) as unknown_provider:
            sending.pause({"scope": "provider", "name": unique("no-such-provider")})
        self.assertEqual(unknown_provider.exception.status_code, 400)
        self.assertEqual([d["path"] for d in unknown_provider.exception.details], ["name"])

        with self.assertRaises(mailroom.ValidationError) as named_organization:
            sending.pause({"scope": "organization", "name": PAUSED_DOMAIN})
        self.assertEqual([d["path"] for d in named_organization.exception.details], ["name"])

        with self.assertRaises(mailroom.NotFoundError):
            sending.pause({"scope": "domain", "name": f"{unique('py')}.example.net"})

    def test_a_sending_key_is_refused(self) -> None:
        sending = client(SENDING_KEY).sending
        with self.assertRaises(mailroom.InsufficientScopeError) as refused:
            sending.get()
        self.assertEqual(refused.exception.status_code, 403)
        with self.assertRaises(mailroom.InsufficientScopeError):
            sending.pause({"scope": "provider", "name": unique("no-such-provider")})


if __name__ == "__main__":
    unittest.main()
