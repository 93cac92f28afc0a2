"""The request log, usage, email metrics and the inbound routes against the real server: a request found in the log
with its bodies and no key in them, the organisation's usage, metrics as totals and by period, and routes created,
ordered, tested against an address, changed and removed."""

from __future__ import annotations

import unittest
from datetime import datetime, timedelta, timezone
from typing import Optional

import mailroom
from mailroom.operation_types import Log
from tests.support import API_KEY, client, needs_server, poll, unique


@needs_server
class LogsUsageMetricsTest(unittest.TestCase):
    def test_a_request_is_in_the_log_with_its_bodies(self) -> None:
        c = client()
        name = unique("logged")
        created = c.segments.create({"name": name})

        def entry() -> Optional[Log]:
            # Written off the request path in batches; newest first, so this request is among the first POSTs.
            page = c.logs.list({"method": "POST", "limit": 100}, status=200)
            for item in page["data"]:
                if item["endpoint"] == "/segments":
                    log = c.logs.get(item["id"])
                    if (log["request_body"] or {}).get("name") == name:
                        return log
            return None

        found = poll(entry, lambda log: log is not None, what="this request in the log")
        assert found is not None
        self.assertEqual((found["object"], found["method"], found["response_status"]), ("log", "POST", 200))
        self.assertEqual(found["response_body"]["id"], created["id"])
        self.assertTrue((found["user_agent"] or "").startswith("mailroom-python/"))
        self.assertNotIn(API_KEY, repr(found))
        with self.assertRaises(mailroom.NotFoundError):
            c.logs.get("00000000-0000-4000-8000-000000000000")

    def test_usage(self) -> None:
        usage = client().usage.get()
        self.assertEqual(usage["object"], "usage")
        self.assertIsInstance(usage["emails"]["daily"]["sent"], int)
        self.assertGreaterEqual(usage["domains"]["used"], 1)
        self.assertIsInstance(usage["rate_limit"]["limit"], int)

    def test_email_metrics(self) -> None:
        emails = client().emails
        totals = emails.metrics({"metrics": ["sent", "delivered", "delivery_rate"]})
        self.assertEqual((totals["object"], totals["granularity"], totals["dimensions"]), ("metrics", "daily", []))
        self.assertEqual(totals["metrics"], ["sent", "delivered", "delivery_rate"])
        self.assertIsInstance(totals["totals"]["sent"], int)
        self.assertNotIn("data", totals)

        end = datetime.now(timezone.utc)
        daily = emails.metrics(start_date=end - timedelta(days=2), end_date=end, dimensions=["period"], metrics=["sent"])
        self.assertEqual(daily["dimensions"], ["period"])
        self.assertGreaterEqual(len(daily["data"]), 2)
        self.assertIsInstance(daily["data"][0]["period"], str)
        with self.assertRaises(mailroom.ValidationError):
            emails.metrics(timezone="Europe/Paris")


@needs_server
class InboundRoutesTest(unittest.TestCase):
    def test_routes_round_trip(self) -> None:
        c = client()
        routes = c.receiving.routes
        self.assertIs(routes, c.emails.receiving.routes)
        label = unique("r")
        first = routes.create({"match": {"recipient": f"{label}-noreply@example.com"}, "action": "drop"})
        self.assertEqual((first["object"], first["action"], first["forward_to"]), ("inbound_route", "drop", []))
        self.assertEqual(first["match"], {"recipient": f"{label}-noreply@example.com", "header": None})
        second = routes.create(
            {
                "match": {"recipient": f"{label}-support@example.com", "header": {"name": "X-Priority", "contains": "1"}},
                "action": "forward",
                "forward_to": ["helpdesk@elsewhere.test"],
                "spam_threshold": 8,
            }
        )
        try:
            self.assertEqual(second["position"], first["position"] + 1)
            self.assertEqual(routes.get(second["id"])["forward_to"], ["helpdesk@elsewhere.test"])
            listed = [r["id"] for r in routes.list()["data"]]
            self.assertLess(listed.index(first["id"]), listed.index(second["id"]))

            moved = routes.update({"id": second["id"], "position": first["position"]})
            self.assertEqual(moved["position"], first["position"])
            self.assertEqual(routes.get(first["id"])["position"], first["position"] + 1)

            dropped = routes.test({"recipient": f"{label}-noreply@example.com"})
            self.assertEqual((dropped["object"], dropped["receiving"], dropped["action"]), ("inbound_route_test", True, "drop"))
            self.assertEqual((dropped["route"] or {}).get("id"), first["id"])
            forwarded = routes.test({"recipient": f"{label}-support@example.com", "headers": {"X-Priority": "1 (Highest)"}})
            self.assertEqual(((forwarded["route"] or {}).get("id"), forwarded["action"]), (second["id"], "forward"))
            self.assertEqual(routes.test({"recipient": f"{label}-other@example.com"})["action"], "store")

            with self.assertRaises(mailroom.ValidationError):
                routes.create({"action": "forward"})
            with self.assertRaises(ValueError):
                routes.test({"recipient": ""})
        finally:
            for route in (first, second):
                removed = routes.remove(route["id"])
                self.assertEqual((removed["object"], removed["id"], removed["deleted"]), ("inbound_route", route["id"], True))
        with self.assertRaises(mailroom.NotFoundError):
            routes.get(first["id"])


if __name__ == "__main__":
    unittest.main()
