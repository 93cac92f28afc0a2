"""The HTTP transport every resource goes through: URL and header building, JSON in and out, timeouts, turning
error answers and network failures into typed exceptions, and the opt-in retries."""

from __future__ import annotations

import email.utils
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from datetime import datetime, timezone
from typing import Any, Callable, Dict, Mapping, Optional, Union

from ._version import __version__
from .errors import DailyQuotaExceededError, MailroomError, NetworkError, RequestTimeoutError, error_from_response

USER_AGENT = f"mailroom-python/{__version__}"

Query = Optional[Mapping[str, Any]]


def path_segment(value: str) -> str:
    """One path segment: ids are UUIDs, but aliases, domain names and addresses (``a+b@x.org``) go there too."""
    if not isinstance(value, str) or not value:
        raise ValueError("an id (a non-empty string) is required")
    return urllib.parse.quote(value, safe="@")


def new_idempotency_key() -> str:
    return f"mailroom-python-{uuid.uuid4()}"


def _query_string(query: Query) -> str:
    if not query:
        return ""
    pairs = []
    for key, value in query.items():
        if value is None:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        pairs.append((key, str(value)))
    return "?" + urllib.parse.urlencode(pairs) if pairs else ""


def _parse_retry_after(value: Optional[str]) -> Optional[float]:
    """Seconds from a Retry-After header: delay-seconds (what Mailroom sends) or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


class Transport:
    """Sends one API call, with retries when ``max_retries`` > 0.

    Retried: 429 (after ``Retry-After``), 5xx and network failures or timeouts (after an exponential backoff with
    jitter). Never retried: any other 4xx, which would fail the same way again, and a used-up daily quota.
    """

    def __init__(
        self,
        *,
        api_key: str,
        base_url: str,
        timeout: float,
        max_retries: int,
        retry_base_delay: float = 0.5,
        retry_max_delay: float = 8.0,
        user_agent: str = USER_AGENT,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        if timeout <= 0:
            raise ValueError("timeout must be a positive number of seconds")
        self.api_key = api_key
        self.base_url = base_url
        self.timeout = timeout
        self.max_retries = max_retries
        self.retry_base_delay = retry_base_delay
        self.retry_max_delay = retry_max_delay
        self.user_agent = user_agent
        self._sleep = sleep

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Query = None,
        body: Any = None,
        headers: Optional[Mapping[str, str]] = None,
        idempotency_key: Optional[str] = None,
        idempotent_send: bool = False,
        raw: bool = False,
        content_type: Optional[str] = None,
    ) -> Any:
        """The decoded JSON answer (bytes when ``raw``). ``idempotent_send`` marks a send or batch: with retries
        on and no key given, one is generated so that a retry can never send the same message twice.
        ``content_type`` sends ``body`` (bytes) as it is instead of as JSON: the contact import's multipart form."""
        all_headers: Dict[str, str] = dict(headers or {})
        if content_type is not None:
            all_headers["Content-Type"] = content_type
        if idempotent_send and idempotency_key is None and self.max_retries > 0:
            idempotency_key = new_idempotency_key()
        if idempotency_key is not None:
            all_headers["Idempotency-Key"] = idempotency_key
        attempt = 0
        while True:
            try:
                return self._send_once(method, path, query, body, all_headers, raw)
            except MailroomError as error:
                if attempt >= self.max_retries or not self._retryable(error):
                    raise
                self._sleep(self._delay(error, attempt))
                attempt += 1

    @staticmethod
    def _retryable(error: MailroomError) -> bool:
        if isinstance(error, NetworkError):
            return True
        # A daily quota frees up at 00:00 UTC: waiting out its Retry-After would hold the call for hours.
        if isinstance(error, DailyQuotaExceededError):
            return False
        status = error.status_code or 0
        return status == 429 or status >= 500

    def _delay(self, error: MailroomError, attempt: int) -> float:
        if error.retry_after is not None:
            return error.retry_after
        # Half the exponential step plus a random part of the other half: clients that failed together do not all
        # come back at the same instant, and none retries sooner than half the step.
        ceiling = min(self.retry_max_delay, self.retry_base_delay * (1 << attempt))
        return ceiling / 2 + random.uniform(0, ceiling / 2)

    def _send_once(
        self,
        method: str,
        path: str,
        query: Query,
        body: Any,
        headers: Mapping[str, str],
        raw: bool,
    ) -> Any:
        url = self.base_url + path + _query_string(query)
        data: Optional[bytes] = None
        request_headers = {
            "Authorization": f"Bearer {self.api_key}",
            "User-Agent": self.user_agent,
            "Accept": "*/*" if raw else "application/json",
        }
        if isinstance(body, bytes):
            data = body  # the caller's own encoding, its Content-Type among ``headers``
        elif body is not None:
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
            request_headers["Content-Type"] = "application/json"
        request_headers.update(headers)
        request = urllib.request.Request(url, data=data, headers=request_headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                payload = response.read()
                return payload if raw else _decode_json(payload)
        except urllib.error.HTTPError as answer:
            raise self._error_from_answer(answer) from None
        except (socket.timeout, TimeoutError) as failure:
            raise RequestTimeoutError(f"no answer from {self.base_url} within {self.timeout} s") from failure
        except urllib.error.URLError as failure:
            if isinstance(failure.reason, (socket.timeout, TimeoutError)):
                raise RequestTimeoutError(f"no answer from {self.base_url} within {self.timeout} s") from failure
            raise NetworkError(f"could not reach {self.base_url}: {failure.reason}") from failure
        except (ConnectionError, OSError) as failure:
            # A connection reset while reading the answer surfaces as a bare OSError, not a URLError.
            raise NetworkError(f"connection to {self.base_url} failed: {failure}") from failure

    @staticmethod
    def _error_from_answer(answer: urllib.error.HTTPError) -> MailroomError:
        try:
            content = answer.read()
        except (OSError, ValueError):
            content = b""
        finally:
            answer.close()
        body: Union[Any, str]
        try:
            body = json.loads(content.decode("utf-8")) if content else None
        except (UnicodeDecodeError, ValueError):
            body = content.decode("utf-8", "replace")
        headers = {k.lower(): v for k, v in answer.headers.items()} if answer.headers else {}
        return error_from_response(
            answer.code,
            body,
            retry_after=_parse_retry_after(headers.get("retry-after")),
            request_id=headers.get("x-request-id"),
            headers=headers,
        )


def _decode_json(payload: bytes) -> Any:
    if not payload:
        return None
    try:
        return json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as failure:
        raise MailroomError(f"the answer is not JSON: {payload[:200]!r}", name="unexpected_response") from failure
