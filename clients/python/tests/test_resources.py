"""Round trips of the other resources against the real server: domains (with the tracking host, the TLS policy, an
Ed25519 key and the IP pool, the sending health, the DMARC reports and summary, and the IP pools), API keys (with a
key's own daily quota), suppressions (with batch), the delivery queue (list, summary, actions one at a time and in
bulk), sending pauses (a domain's mail held until it is resumed), the organisation's settings (its daily quota
reached and restored), templates (with a templated send), received email, and the AI status and subject scoring."""

from __future__ import annotations

import time
import unittest
from datetime import datetime, timedelta, timezone
from typing import List

import mailroom
from mailroom.types import ReceivedEmailList, ResumeSendingParams, SendingPause, SendingState
from tests.support import FROM, INBOUND_SUBJECT, SENDING_KEY, client, needs_server, poll, recipient, unique


@needs_server
class DomainsTest(unittest.TestCase):
    def test_domain_round_trip(self) -> None:
        domains = client().domains
        name = f"{unique('py')}.example.net"
        created = domains.create({"name": name})
        domain_id = created["id"]
        try:
            self.assertEqual((created["object"], created["name"]), ("domain", name))
            self.assertIn("DKIM", [r["record"] for r in created["records"]])

            self.assertEqual(domains.get(domain_id)["name"], name)
            self.assertEqual(domains.get(name)["id"], domain_id, "a domain is found by its name too")

            page = domains.list({"limit": 100})
            self.assertEqual(page["object"], "list")
            self.assertIn("has_more", page)
            self.assertIn(domain_id, [d["id"] for d in page["data"]])

            updated = domains.update({"id": domain_id, "open_tracking": True, "click_tracking": True})
            self.assertTrue(updated["open_tracking"])
            self.assertTrue(domains.get(domain_id)["click_tracking"])

            checked = domains.verify(domain_id)
            self.assertEqual(checked["id"], domain_id)
            self.assertNotEqual(checked["status"], "verified", "nothing is published for this name")
        finally:
            removed = domains.remove(domain_id)
        self.assertEqual((removed["object"], removed["id"], removed["deleted"]), ("domain", domain_id, True))
        with self.assertRaises(mailroom.NotFoundError):
            domains.get(domain_id)


    def test_tracking_host_tls_policy_ed25519_ip_pool_sending_health_and_dmarc(self) -> None:
        c = client()
        # A domain of this test's own: example.com, which every suite sends from, keeps its settings.
        name = f"{unique('py-dlv')}.example.net"
        created = c.domains.create({"name": name})
        domain_id = created["id"]
        try:
            defaults = (None, "opportunistic", {"ed25519": False})
            self.assertEqual((created["tracking_subdomain"], created["tls"], created["dkim"]), defaults)
            self.assertIsNone(created["ip_pool"])
            self.assertEqual((created["health"]["status"], created["health"]["reason"]), ("ok", None))
            self.assertNotIn("Tracking", [r["record"] for r in created["records"]])
            rsa_keys = len([r for r in created["records"] if r["record"] == "DKIM"])

            updated = c.domains.update({"id": domain_id, "tracking_subdomain": "links", "tls": "enforced"})
            self.assertEqual((updated["tracking_subdomain"], updated["tls"]), ("links", "enforced"))
            (tracking,) = [r for r in updated["records"] if r["record"] == "Tracking"]
            self.assertEqual((tracking["type"], tracking["name"]), ("CNAME", f"links.{name}"))
            self.assertTrue(tracking["value"])

            # What a call leaves out stays: the tracking host and the TLS policy survive the key's change.
            signed = c.domains.update({"id": domain_id, "dkim": {"ed25519": True}})
            self.assertTrue(signed["dkim"]["ed25519"])
            self.assertEqual((signed["tracking_subdomain"], signed["tls"]), ("links", "enforced"))
            self.assertEqual(len([r for r in signed["records"] if r["record"] == "DKIM"]), rsa_keys + 1)
            self.assertTrue(c.domains.get(name)["dkim"]["ed25519"])

            overview = c.sending.health()
            self.assertEqual(overview["object"], "sending_health")
            self.assertIn(overview["health"]["status"], ("ok", "warning", "paused"))
            by_name = {d["name"]: d for d in overview["domains"]}
            self.assertEqual((by_name[name]["id"], by_name[name]["health"]["status"]), (domain_id, "ok"))
            self.assertEqual(by_name[PAUSED_DOMAIN]["health"]["status"], "ok")

            # The verified sending domain: no report has arrived, so none is listed and the summary is empty.
            summary = c.domains.dmarc_summary(PAUSED_DOMAIN, days=7)
            self.assertEqual(
                summary, {"object": "dmarc_summary", "domain": PAUSED_DOMAIN, "days": 7, "reports": 0, "data": []}
            )
            self.assertEqual(
                c.domains.dmarc_reports(PAUSED_DOMAIN, limit=10), {"object": "list", "has_more": False, "data": []}
            )
            self.assertEqual(c.domains.dmarc_summary(domain_id)["days"], 7, "seven days unless asked")
            with self.assertRaises(mailroom.ValidationError) as too_long:
                c.domains.dmarc_summary(domain_id, days=91)
            self.assertEqual([d["path"] for d in too_long.exception.details], ["days"])
            with self.assertRaises(mailroom.NotFoundError):
                c.domains.dmarc_reports(f"{unique('py')}.example.net")
            # The server configures no [ip_pools.<name>]: the list is empty, and a domain can name none of them.
            self.assertEqual(c.ip_pools.list(), {"object": "list", "has_more": False, "data": []})
            with self.assertRaises(mailroom.ValidationError) as unknown_pool:
                c.domains.update({"id": domain_id, "ip_pool": "nowhere"})
            self.assertEqual([d["path"] for d in unknown_pool.exception.details], ["ip_pool"])
            cleared = c.domains.update({"id": domain_id, "ip_pool": None})
            self.assertEqual((cleared["ip_pool"], cleared["tracking_subdomain"]), (None, "links"))

            with self.assertRaises(mailroom.InsufficientScopeError):
                client(SENDING_KEY).sending.health()
            with self.assertRaises(mailroom.InsufficientScopeError):
                client(SENDING_KEY).ip_pools.list()

            undone = c.domains.update(
                {"id": domain_id, "tracking_subdomain": None, "tls": "opportunistic", "dkim": {"ed25519": False}}
            )
            self.assertEqual((undone["tracking_subdomain"], undone["tls"], undone["dkim"]), defaults)
            self.assertNotIn("Tracking", [r["record"] for r in undone["records"]])
        finally:
            c.domains.remove(domain_id, force=True)


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


# MAILROOM_FROM's domain, verified. The other languages' suites may pause and resume it too while this one runs: a
# pause of it is looked for by scope and name, counts of released recipients include theirs, and it is always resumed.
PAUSED_DOMAIN = "example.com"


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


@needs_server
class TemplatesTest(unittest.TestCase):
    def test_template_round_trip_and_templated_send(self) -> None:
        c = client()
        alias = unique("py-template")
        created = c.templates.create(
            {
                "name": "Order shipped (Python suite)",
                "alias": alias,
                "from": FROM,
                "subject": "Order {{order}} shipped",
                "html": "<p>Hi {{name}}, order {{order}} is on its way.</p>",
                "variables": [
                    {"key": "order", "type": "string"},
                    {"key": "name", "type": "string", "fallback_value": "there"},
                ],
            }
        )
        template_id = created["id"]
        try:
            self.assertEqual(c.templates.get(alias)["id"], template_id)
            self.assertIn(template_id, [t["id"] for t in c.templates.list({"limit": 100})["data"]])

            preview = c.templates.render(template_id, {"order": "A-1"})
            self.assertEqual(preview["subject"], "Order A-1 shipped")
            self.assertIn("Hi there, order A-1", preview["html"])
            with self.assertRaises(mailroom.ValidationError):
                c.templates.render(template_id, {})

            c.templates.update({"id": template_id, "name": "Order shipped, renamed"})
            self.assertEqual(c.templates.get(template_id)["name"], "Order shipped, renamed")

            published = c.templates.publish(alias)
            self.assertEqual(published["id"], template_id)

            order = unique("order")
            sent = c.emails.send({"to": recipient(), "template": {"id": alias, "variables": {"order": order}}})  # type: ignore[typeddict-item]
            email = c.emails.get(sent["id"])
            self.assertIn(order, email["html"] or "")
            self.assertEqual(email["subject"], f"Order {order} shipped")
            self.assertEqual(email["template_id"], template_id)

            copy = c.templates.duplicate(template_id)
            self.assertNotEqual(copy["id"], template_id)
            self.assertEqual(c.templates.remove(copy["id"])["deleted"], True)

            checked = c.templates.validate({"html": "<p>{{#if open}}unclosed</p>"})
            self.assertFalse(checked["valid"])
            self.assertGreaterEqual(checked["errors"][0]["line"], 1)
            self.assertTrue(c.templates.validate({"html": "<p>{{name}}</p>"})["valid"])
        finally:
            removed = c.templates.remove(template_id)
        self.assertEqual((removed["id"], removed["deleted"]), (template_id, True))


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


@needs_server
class AiTest(unittest.TestCase):
    def test_subject_scoring_works_offline(self) -> None:
        ai = client().ai
        shouty = ai.subject({"subject": "FREE!!! OPEN NOW"})
        calm = ai.subject({"subject": "Your March invoice is ready", "html": "<p>Invoice attached.</p>"})
        self.assertTrue(0 <= shouty["score"] <= 100)
        self.assertLess(shouty["score"], calm["score"])
        self.assertTrue(all({"rule", "severity", "message"} <= set(f) for f in shouty["findings"]))

    def test_status_says_whether_a_model_is_configured(self) -> None:
        status = client().ai.status()
        self.assertEqual(status["object"], "ai")
        if status["model_configured"]:
            self.assertTrue(status["model"])
            self.assertIsNone(status["message"])
        else:
            self.assertIsNone(status["model"])
            self.assertIn("[ai] base_url", status["message"] or "")

    def test_writer_needs_a_model(self) -> None:
        try:
            draft = client().ai.write({"brief": "Tell {{first_name}} their trial ends in 3 days"})
        except mailroom.ServiceUnavailableError as error:
            self.assertEqual(error.status_code, 503)
            self.assertIn("model", error.message.lower())
        else:
            self.assertTrue(draft["subject"])


if __name__ == "__main__":
    unittest.main()
