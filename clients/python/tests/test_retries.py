"""Retries, timeouts, network failures and request headers, against local stand-in servers (no Mailroom needed):
429 with Retry-After then 200, 503 then 200, with retries on and off; a used-up daily quota never retried, 410 gone
typed; the organisation's paths and bodies, nulls included; those of organisations, members and the audit log;
those of deliverability: domain settings, sending health, DMARC reports and summary; and those of sending IPs: the
pools listed, a domain's ip_pool set and cleared."""

from __future__ import annotations

import json
import os
import socket
import time
import unittest
from typing import Any
from unittest import mock

import mailroom
from mailroom.types import SendParams
from tests.support import LocalServer, Reply

SENT: Reply = (200, {}, {"id": "0190a4d2-0000-7000-8000-000000000001", "message": "Email sent."})
RATE_LIMITED: Reply = (
    429,
    {"Retry-After": "1"},
    {"error": "Too Many Requests", "name": "rate_limit_exceeded", "message": "Slow down.", "statusCode": 429},
)
UNAVAILABLE: Reply = (
    503,
    {},
    {"error": "Service Unavailable", "name": "service_unavailable", "message": "Draining.", "statusCode": 503},
)
QUOTA_USED_UP: Reply = (
    429,
    {"Retry-After": "3600"},
    {"error": "Too Many Requests", "name": "daily_quota_exceeded", "message": "Quota used up.", "statusCode": 429},
)
MESSAGE: SendParams = {"from": "a@example.com", "to": "b@example.org", "subject": "Hi", "html": "<p>Hi</p>"}


def client_for(server: LocalServer, **options: Any) -> mailroom.Mailroom:
    return mailroom.Mailroom("mr_test_local", base_url=server.url, retry_base_delay=0.05, **options)


class RetryTest(unittest.TestCase):
    def test_429_is_retried_after_retry_after_with_the_same_idempotency_key(self) -> None:
        with LocalServer([RATE_LIMITED, SENT]) as server:
            started = time.monotonic()
            sent = client_for(server, max_retries=2).emails.send(MESSAGE)
            elapsed = time.monotonic() - started
        self.assertEqual(sent["id"], SENT[2]["id"])
        self.assertEqual(len(server.requests), 2)
        self.assertGreaterEqual(elapsed, 0.9, "the retry waited for Retry-After")
        keys = [r.headers.get("Idempotency-Key") for r in server.requests]
        self.assertTrue(keys[0], "retries on: a send gets an idempotency key even when the caller gave none")
        self.assertEqual(keys[0], keys[1], "the retry reuses the key, so it cannot send twice")

    def test_429_without_retries_raises_with_retry_after(self) -> None:
        with LocalServer([RATE_LIMITED, SENT]) as server:
            with self.assertRaises(mailroom.RateLimitExceededError) as caught:
                client_for(server).emails.send(MESSAGE)
        self.assertEqual(len(server.requests), 1)
        self.assertEqual(caught.exception.name, "rate_limit_exceeded")
        self.assertEqual(caught.exception.status_code, 429)
        self.assertEqual(caught.exception.retry_after, 1.0)
        self.assertIsNone(server.requests[0].headers.get("Idempotency-Key"), "no key is invented when retries are off")

    def test_503_is_retried_with_backoff(self) -> None:
        with LocalServer([UNAVAILABLE, SENT]) as server:
            sent = client_for(server, max_retries=1).emails.send(MESSAGE, idempotency_key="order-1")
        self.assertEqual(sent["id"], SENT[2]["id"])
        self.assertEqual([r.headers.get("Idempotency-Key") for r in server.requests], ["order-1", "order-1"])

    def test_503_without_retries_raises(self) -> None:
        with LocalServer([UNAVAILABLE, SENT]) as server:
            with self.assertRaises(mailroom.ServiceUnavailableError) as caught:
                client_for(server).domains.list()
        self.assertEqual(len(server.requests), 1)
        self.assertEqual(caught.exception.status_code, 503)

    def test_retries_stop_at_max_retries(self) -> None:
        with LocalServer([UNAVAILABLE]) as server:
            with self.assertRaises(mailroom.ServiceUnavailableError):
                client_for(server, max_retries=2).domains.list()
        self.assertEqual(len(server.requests), 3)

    def test_other_4xx_are_never_retried(self) -> None:
        invalid: Reply = (400, {}, {"error": "Bad Request", "name": "validation_error", "message": "to: is required",
                             "statusCode": 400, "details": [{"path": "to", "message": "is required"}]})
        with LocalServer([invalid, SENT]) as server:
            with self.assertRaises(mailroom.ValidationError) as caught:
                client_for(server, max_retries=3).emails.send(MESSAGE)
        self.assertEqual(len(server.requests), 1)
        self.assertEqual(caught.exception.details, [{"path": "to", "message": "is required"}])

    def test_a_used_up_daily_quota_is_never_retried(self) -> None:
        with LocalServer([QUOTA_USED_UP, SENT]) as server:
            with self.assertRaises(mailroom.DailyQuotaExceededError) as caught:
                client_for(server, max_retries=3).emails.send(MESSAGE)
        self.assertEqual(len(server.requests), 1, "waiting for the next UTC day is the caller's decision")
        self.assertEqual((caught.exception.name, caught.exception.status_code), ("daily_quota_exceeded", 429))
        self.assertEqual(caught.exception.retry_after, 3600.0)
        self.assertNotIsInstance(caught.exception, mailroom.RateLimitExceededError)

    def test_batch_retry_reuses_its_generated_key(self) -> None:
        batch_sent: Reply = (200, {}, {"data": [{"id": "x"}]})
        with LocalServer([UNAVAILABLE, batch_sent]) as server:
            client_for(server, max_retries=1).batch.send([MESSAGE], validation="permissive")
        first, second = server.requests
        self.assertTrue(first.headers.get("Idempotency-Key"))
        self.assertEqual(first.headers.get("Idempotency-Key"), second.headers.get("Idempotency-Key"))
        self.assertEqual(first.headers.get("x-batch-validation"), "permissive")


class TransportTest(unittest.TestCase):
    def test_headers_and_paths(self) -> None:
        with LocalServer([(200, {}, {"object": "list", "has_more": False, "data": []})]) as server:
            mailroom.Mailroom("mr_test_abc", base_url=server.url + "/v1/").emails.list(
                {"limit": 5, "from": "a@example.com", "tag": "kind:receipt"}
            )
        request = server.requests[0]
        self.assertEqual(request.headers.get("Authorization"), "Bearer mr_test_abc")
        self.assertEqual(request.headers.get("User-Agent"), "mailroom-python/0.1.0")
        self.assertTrue(request.path.startswith("/v1/emails?"), request.path)
        self.assertIn("limit=5", request.path)
        self.assertIn("from=a%40example.com", request.path)
        self.assertIn("tag=kind%3Areceipt", request.path)

    def test_timeout_is_a_typed_error(self) -> None:
        with LocalServer([SENT], delay=2.0) as server:
            with self.assertRaises(mailroom.RequestTimeoutError) as caught:
                client_for(server, timeout=0.3).emails.get("x")
        self.assertEqual(caught.exception.name, "timeout")
        self.assertIsNone(caught.exception.status_code)
        self.assertIsInstance(caught.exception, mailroom.NetworkError)

    def test_network_failure_is_a_typed_error_and_retried(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            closed_port = probe.getsockname()[1]
        client = mailroom.Mailroom("k", base_url=f"http://127.0.0.1:{closed_port}", max_retries=1, retry_base_delay=0.01)
        with self.assertRaises(mailroom.NetworkError) as caught:
            client.emails.get("x")
        self.assertEqual(caught.exception.name, "network_error")
        self.assertIsNone(caught.exception.status_code)

    def test_an_answer_that_is_not_mailroom_s_still_gets_its_class(self) -> None:
        with LocalServer([(502, {"Content-Type": "text/html"}, b"<h1>Bad gateway</h1>")]) as server:
            with self.assertRaises(mailroom.ServiceUnavailableError) as caught:
                client_for(server).emails.get("x")
        self.assertEqual(caught.exception.status_code, 502)

    def test_content_removed_by_retention_is_gone(self) -> None:
        gone: Reply = (410, {}, {"error": "Gone", "name": "gone", "message": "Content removed.", "statusCode": 410})
        with LocalServer([gone, (410, {"Content-Type": "text/plain"}, b"Gone")]) as server:
            with self.assertRaises(mailroom.GoneError) as caught:
                client_for(server).emails.raw("x")
            with self.assertRaises(mailroom.GoneError) as bare:
                client_for(server).emails.attachments.content("x", "y")
        self.assertEqual((caught.exception.name, caught.exception.status_code), ("gone", 410))
        self.assertEqual(bare.exception.name, "gone", "typed by its status without Mailroom's body")

    def test_organization_paths_and_bodies(self) -> None:
        organization = {"object": "organization", "id": "o-1", "name": "Acme", "daily_quota": None}
        with LocalServer([(200, {}, organization)]) as server:
            c = client_for(server)
            self.assertEqual(c.organization.get(), organization)
            c.organization.update({"daily_quota": 500, "retention": {"content_days": None}})
            c.organization.update(daily_quota=None, rate_limit=120)
            c.organization.update({"name": "Acme"}, retention={"metadata_days": 400})
            c.organization.update()
        self.assertEqual(
            [(r.method, r.path) for r in server.requests],
            [("GET", "/v1/organization")] + [("PATCH", "/v1/organization")] * 4,
        )
        self.assertEqual(
            [json.loads(r.body) if r.body else None for r in server.requests],
            [
                None,
                {"daily_quota": 500, "retention": {"content_days": None}},
                {"daily_quota": None, "rate_limit": 120},
                {"name": "Acme", "retention": {"metadata_days": 400}},
                {},
            ],
        )

    def test_teams_paths_and_bodies(self) -> None:
        with LocalServer([(200, {}, {"object": "list", "has_more": False, "data": []})]) as server:
            c = client_for(server)
            c.organizations.list()
            c.members.list()
            c.members.invite({"email": "dev@example.org", "role": "developer"})
            c.members.revoke_invitation("i/1")
            c.members.update_role({"id": "u/1", "role": "viewer"})
            c.members.remove("u2")
            c.audit_log.list()
            c.audit_log.list({"action": "member.invited", "limit": 5}, actor_id="k1", before="a0")
            # An empty id would address the collection: refused before any request.
            for refused in (
                lambda: c.members.revoke_invitation(""),
                lambda: c.members.update_role({"id": "", "role": "admin"}),
                lambda: c.members.remove(""),
            ):
                with self.assertRaises(ValueError):
                    refused()
        self.assertEqual(
            [(r.method, r.path) for r in server.requests],
            [
                ("GET", "/v1/organizations"),
                ("GET", "/v1/members"),
                ("POST", "/v1/members/invitations"),
                ("DELETE", "/v1/members/invitations/i%2F1"),
                ("PATCH", "/v1/members/u%2F1"),
                ("DELETE", "/v1/members/u2"),
                ("GET", "/v1/audit-log"),
                ("GET", "/v1/audit-log?action=member.invited&limit=5&actor_id=k1&before=a0"),
            ],
        )
        self.assertEqual(
            [json.loads(r.body) if r.body else None for r in server.requests],
            [None, None, {"email": "dev@example.org", "role": "developer"}, None, {"role": "viewer"}, None, None, None],
        )

    def test_deliverability_paths_and_bodies(self) -> None:
        with LocalServer([(200, {}, {"object": "list", "has_more": False, "data": []})]) as server:
            c = client_for(server)
            c.domains.update({"id": "example.com", "tracking_subdomain": "links", "tls": "enforced"})
            # None is a value here (the tracking host removed): it must reach the server as null.
            c.domains.update({"id": "d/1", "tracking_subdomain": None, "dkim": {"ed25519": True}})
            c.domains.create({"name": "example.org", "tls": "opportunistic", "dkim": {"ed25519": False}})
            c.sending.health()
            c.domains.dmarc_reports("example.com")
            c.domains.dmarc_reports("d/1", {"limit": 5}, before="r1")
            c.domains.dmarc_reports("d/1", after="r2")
            c.domains.dmarc_report_rows("d/1", "r/2", limit=100, after="w1")
            c.domains.dmarc_summary("example.com")
            c.domains.dmarc_summary("d/1", days=30)
            # An empty id would address another route: refused before any request.
            for refused in (
                lambda: c.domains.dmarc_reports(""),
                lambda: c.domains.dmarc_summary("", days=7),
                lambda: c.domains.dmarc_report_rows("d/1", ""),
            ):
                with self.assertRaises(ValueError):
                    refused()
        self.assertEqual(
            [(r.method, r.path) for r in server.requests],
            [
                ("PATCH", "/v1/domains/example.com"),
                ("PATCH", "/v1/domains/d%2F1"),
                ("POST", "/v1/domains"),
                ("GET", "/v1/sending/health"),
                ("GET", "/v1/domains/example.com/dmarc"),
                ("GET", "/v1/domains/d%2F1/dmarc?limit=5&before=r1"),
                ("GET", "/v1/domains/d%2F1/dmarc?after=r2"),
                ("GET", "/v1/domains/d%2F1/dmarc/r%2F2/rows?limit=100&after=w1"),
                ("GET", "/v1/domains/example.com/dmarc/summary"),
                ("GET", "/v1/domains/d%2F1/dmarc/summary?days=30"),
            ],
        )
        self.assertEqual(
            [json.loads(r.body) if r.body else None for r in server.requests],
            [
                {"tracking_subdomain": "links", "tls": "enforced"},
                {"tracking_subdomain": None, "dkim": {"ed25519": True}},
                {"name": "example.org", "tls": "opportunistic", "dkim": {"ed25519": False}},
                None,
                None,
                None,
                None,
                None,
                None,
                None,
            ],
        )

    def test_ip_pools_paths_and_bodies(self) -> None:
        pools = {
            "object": "list",
            "data": [
                {
                    "name": "main",
                    "warmup": "30d",
                    "addresses": [
                        {
                            "address": "203.0.113.5",
                            "ehlo_name": "mta1.example.com",
                            "warmup_day": 3,
                            "daily_cap": 200,
                            "today": {"gmail": 12, "other": 3},
                            "backed_off": [
                                {"provider": "gmail", "messages_per_minute": 300, "until": "2026-01-01T01:00:00.000Z"}
                            ],
                        },
                        {
                            "address": "203.0.113.6",
                            "ehlo_name": None,
                            "warmup_day": None,
                            "daily_cap": 50,
                            "today": {},
                            "backed_off": [],
                        },
                    ],
                }
            ],
        }
        with LocalServer([(200, {}, pools), (200, {}, {"object": "domain", "id": "d-1", "ip_pool": None})]) as server:
            c = client_for(server)
            listed = c.ip_pools.list()
            c.domains.update({"id": "example.com", "ip_pool": "main"})
            # None is a value here (the domain leaves its pool): it must reach the server as null.
            cleared = c.domains.update({"id": "d/1", "ip_pool": None})
            c.domains.create({"name": "example.org", "ip_pool": "main"})
        self.assertEqual(listed, pools)
        address = listed["data"][0]["addresses"][0]
        self.assertEqual((address["warmup_day"], address["daily_cap"], address["today"]["gmail"]), (3, 200, 12))
        self.assertEqual(address["backed_off"][0]["messages_per_minute"], 300)
        self.assertIsNone(listed["data"][0]["addresses"][1]["ehlo_name"])
        self.assertIsNone(cleared["ip_pool"])
        self.assertEqual(
            [(r.method, r.path) for r in server.requests],
            [
                ("GET", "/v1/ip-pools"),
                ("PATCH", "/v1/domains/example.com"),
                ("PATCH", "/v1/domains/d%2F1"),
                ("POST", "/v1/domains"),
            ],
        )
        self.assertEqual(
            [json.loads(r.body) if r.body else None for r in server.requests],
            [None, {"ip_pool": "main"}, {"ip_pool": None}, {"name": "example.org", "ip_pool": "main"}],
        )

    def test_a_key_is_required(self) -> None:
        with mock.patch.dict(os.environ, {"MAILROOM_API_KEY": ""}), self.assertRaises(ValueError):
            mailroom.Mailroom(base_url="http://127.0.0.1:1")

    def test_key_and_base_url_default_to_the_environment(self) -> None:
        with mock.patch.dict(os.environ, {"MAILROOM_API_KEY": "mr_test_env", "MAILROOM_BASE_URL": "http://mail.test/v1"}):
            self.assertEqual(mailroom.Mailroom().base_url, "http://mail.test")


if __name__ == "__main__":
    unittest.main()
