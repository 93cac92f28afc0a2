"""Contacts, the request log, the metrics and broadcasts on the wire, against a local server of the test's own: addresses encoded
in paths, Resend's older audience paths, the import's multipart form (read back with the standard library's MIME
parser), the metrics' lists joined with commas and dates as ISO text, a broadcast's schedule and recipients'
filters."""

from __future__ import annotations

import json
import unittest
import urllib.parse
from datetime import datetime, timezone
from email import policy
from email.parser import BytesParser

import mailroom
from tests.support import LocalServer


class ContactsWireTest(unittest.TestCase):
    def test_paths_and_bodies(self) -> None:
        with LocalServer([(200, {}, {"object": "contact", "id": "c1"})]) as server:
            c = mailroom.Mailroom("mr_test_key", base_url=server.url)
            c.contacts.get("a+b@example.org")
            c.contacts.get(email="a/b@example.org", audience_id="s 1")
            c.contacts.update({"email": "a+b@example.org", "first_name": None})
            c.contacts.create({"email": "x@example.org", "audience_id": "s1"})
            c.contacts.remove("c1", audience_id="s1")
            c.contacts.list({"audience_id": "s1", "limit": 5})
            c.contacts.segments.add({"email": "a+b@example.org", "segment_id": "s/2"})
            c.contacts.topics.update({"id": "c1", "topics": [{"id": "t1", "subscription": "opt_out"}]})
        self.assertEqual(
            [f"{r.method} {r.path}" for r in server.requests],
            [
                "GET /v1/contacts/a%2Bb@example.org",
                "GET /v1/audiences/s%201/contacts/a%2Fb@example.org",
                "PATCH /v1/contacts/a%2Bb@example.org",
                "POST /v1/audiences/s1/contacts",
                "DELETE /v1/audiences/s1/contacts/c1",
                "GET /v1/contacts?limit=5&segment_id=s1",
                "POST /v1/contacts/a%2Bb@example.org/segments/s%2F2",
                "PATCH /v1/contacts/c1/topics",
            ],
        )
        bodies = [json.loads(r.body) if r.body else None for r in server.requests]
        self.assertEqual(bodies[2], {"first_name": None})
        self.assertEqual(bodies[3], {"email": "x@example.org"})
        self.assertEqual(bodies[7], {"topics": [{"id": "t1", "subscription": "opt_out"}]})

    def test_import_is_multipart(self) -> None:
        with LocalServer([(200, {}, {"object": "contact_import", "id": "i1"})]) as server:
            c = mailroom.Mailroom("mr_test_key", base_url=server.url)
            c.contacts.imports.create(
                {
                    "file": "email\na@example.org\n",
                    "filename": 'evil"\r\nX-Injected: 1.csv',
                    "column_map": {"email": "email"},
                    "on_conflict": "skip",
                    "segments": [{"id": "s1"}],
                }
            )
        request = server.requests[0]
        content_type = request.headers.get("Content-Type") or ""
        self.assertTrue(content_type.startswith("multipart/form-data; boundary="))
        message = BytesParser(policy=policy.HTTP).parsebytes(
            f"Content-Type: {content_type}\r\n\r\n".encode() + request.body
        )
        parts = {part.get_param("name", header="content-disposition"): part for part in message.iter_parts()}
        self.assertEqual(sorted(parts), ["column_map", "file", "on_conflict", "segments"])
        self.assertEqual(parts["file"].get_content(), "email\na@example.org\n")
        # A quote or line break in the file name never reaches the header.
        self.assertEqual(parts["file"].get_filename(), "evil___X-Injected: 1.csv")
        self.assertEqual(json.loads(parts["column_map"].get_content()), {"email": "email"})
        self.assertEqual(parts["on_conflict"].get_content(), "skip")
        self.assertEqual(json.loads(parts["segments"].get_content()), [{"id": "s1"}])

    def test_metrics_and_logs_queries(self) -> None:
        with LocalServer([(200, {}, {"object": "list", "has_more": False, "data": []})]) as server:
            c = mailroom.Mailroom("mr_test_key", base_url=server.url)
            c.emails.metrics(
                start_date=datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc),
                end_date="2026-01-09",
                metrics=["sent", "open_rate"],
                dimensions=["period"],
                granularity="weekly",
            )
            c.logs.list(status=422, method="POST", api_key_id="k1")
        self.assertEqual(
            [urllib.parse.unquote(r.path) for r in server.requests],
            [
                "/v1/emails/metrics?start_date=2026-01-02T03:04:05+00:00&end_date=2026-01-09"
                "&metrics=sent,open_rate&dimensions=period&granularity=weekly",
                "/v1/logs?status=422&method=POST&api_key_id=k1",
            ],
        )

    def test_broadcast_schedule_and_recipients(self) -> None:
        with LocalServer([(200, {}, {"id": "b1"})]) as server:
            c = mailroom.Mailroom("mr_test_key", base_url=server.url)
            at = datetime(2026, 3, 4, 5, 6, 7, tzinfo=timezone.utc)
            # A datetime where the wire takes text: the client writes it as ISO 8601.
            params = {"segment_id": "s1", "subject": "S", "send": True, "scheduled_at": at}
            c.broadcasts.create(params)  # type: ignore[arg-type]
            c.broadcasts.send("b/1", "in 2 hours")
            c.broadcasts.send("b1")
            c.broadcasts.recipients("b1", {"type": "bounced", "bounce_type": "permanent", "email": "a+b@example.org"})
        self.assertEqual(
            [f"{r.method} {urllib.parse.unquote(r.path)}" for r in server.requests],
            [
                "POST /v1/broadcasts",
                "POST /v1/broadcasts/b/1/send",
                "POST /v1/broadcasts/b1/send",
                "GET /v1/broadcasts/b1/recipients?type=bounced&bounce_type=permanent&email=a+b@example.org",
            ],
        )
        self.assertEqual(server.requests[1].path, "/v1/broadcasts/b%2F1/send")
        bodies = [json.loads(r.body) if r.body else None for r in server.requests]
        self.assertEqual(bodies[0]["scheduled_at"], "2026-03-04T05:06:07+00:00")
        self.assertEqual(bodies[1:3], [{"scheduled_at": "in 2 hours"}, {}])


if __name__ == "__main__":
    unittest.main()
