"""What the suites share: the server's environment (see test/clients.test.ts), unique names, polling, and small
standard-library HTTP servers standing in for a misbehaving API or receiving webhooks."""

from __future__ import annotations

import json
import os
import threading
import time
import unittest
import uuid
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, Tuple, TypeVar

import mailroom

BASE_URL = os.environ.get("MAILROOM_BASE_URL", "")
API_KEY = os.environ.get("MAILROOM_API_KEY", "")
SENDING_KEY = os.environ.get("MAILROOM_SENDING_KEY", "")
LIMITED_KEY = os.environ.get("MAILROOM_LIMITED_KEY", "")
FROM = os.environ.get("MAILROOM_FROM", "Acme <hello@example.com>")
INBOUND_SUBJECT = os.environ.get("MAILROOM_INBOUND_SUBJECT", "")
# The server's configured address, which the links it hands out start with.
PUBLIC_URL = os.environ.get("MAILROOM_PUBLIC_URL", "")

# Without a server the suites that need one are skipped; the retry and verifier suites still run.
needs_server = unittest.skipUnless(BASE_URL and API_KEY, "MAILROOM_BASE_URL and MAILROOM_API_KEY are not set")

T = TypeVar("T")


def client(api_key: Optional[str] = None, **options: Any) -> mailroom.Mailroom:
    return mailroom.Mailroom(api_key or API_KEY, base_url=BASE_URL, **options)


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def recipient(prefix: str = "rcpt") -> str:
    return f"{unique(prefix)}@example.org"


def poll(fetch: Callable[[], T], done: Callable[[T], bool], *, timeout: float = 15.0, what: str = "condition") -> T:
    """``fetch()`` until ``done`` holds for its result; fails the test after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = fetch()
        if done(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not reached within {timeout} s; last value: {value!r}")
        time.sleep(0.2)


class Recorded:
    """One request a local server received."""

    def __init__(self, method: str, path: str, headers: Message, body: bytes) -> None:
        self.method = method
        self.path = path
        # The parsed header block: case-insensitive get, and items() for the verifier.
        self.headers = headers
        self.body = body


Reply = Tuple[int, Dict[str, str], Any]


class LocalServer:
    """An HTTP server on 127.0.0.1:0 that records every request and answers from a script of replies (the last
    one repeats), optionally after a delay. Use as a context manager."""

    def __init__(self, replies: Optional[List[Reply]] = None, *, delay: float = 0.0) -> None:
        self.replies: List[Reply] = list(replies or [(200, {}, {})])
        self.delay = delay
        self.requests: List[Recorded] = []
        self._lock = threading.Lock()
        self._received = threading.Condition(self._lock)
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                with owner._received:
                    owner.requests.append(Recorded(self.command, self.path, self.headers, body))
                    index = min(len(owner.requests), len(owner.replies)) - 1
                    status, headers, payload = owner.replies[index]
                    owner._received.notify_all()
                if owner.delay:
                    time.sleep(owner.delay)
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode("utf-8")
                try:
                    self.send_response(status)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    if "Content-Type" not in headers:
                        self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up first (the timeout test)

            do_GET = do_POST = do_PATCH = do_DELETE = _handle

            def log_message(self, format: str, *args: Any) -> None:
                pass  # keep the test output to the runner's

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> "LocalServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()

    def wait_for(self, match: Callable[[Recorded], bool], *, timeout: float = 15.0) -> Recorded:
        """The first recorded request for which ``match`` holds, waiting up to ``timeout`` seconds for it."""
        deadline = time.monotonic() + timeout
        with self._received:
            while True:
                for request in self.requests:
                    if match(request):
                        return request
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"no matching request within {timeout} s; got {len(self.requests)} others")
                self._received.wait(remaining)
