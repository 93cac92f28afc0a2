"""Domains against the real server: the round trip (made, found by id and name, listed, tracking changed, verified,
removed), and deliverability on a domain of the test's own: the tracking host, the TLS policy, an Ed25519 key and the
IP pool, the sending health, the DMARC reports and summary of the verified sending domain, and the IP pools."""

from __future__ import annotations

import unittest

import mailroom
from tests.sending_domain import PAUSED_DOMAIN
from tests.support import SENDING_KEY, client, needs_server, unique


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


if __name__ == "__main__":
    unittest.main()
