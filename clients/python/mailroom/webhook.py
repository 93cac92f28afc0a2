"""Standard Webhooks verification of the requests Mailroom's webhooks send (and signing, for tests).

A request carries ``webhook-id``, ``webhook-timestamp`` and ``webhook-signature`` (or the same as ``svix-*``); the
signature header lists ``v1,<base64 HMAC-SHA256>`` entries separated by spaces, more than one while a rotated
secret and its successor both sign. The signed content is ``{id}.{timestamp}.{raw body}``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Dict, Iterable, Optional, Protocol, Tuple, Union

from .errors import WebhookVerificationError

DEFAULT_TOLERANCE_SECONDS = 300
_SECRET_PREFIX = "whsec_"

class _HeaderBlock(Protocol):
    """A dict, or the header objects of http.server, email and most web frameworks: anything with ``items()``."""

    def items(self) -> Iterable[Tuple[str, Any]]: ...


Headers = Union[_HeaderBlock, Iterable[Tuple[str, str]]]


def _secret_key(secret: str) -> bytes:
    if not isinstance(secret, str) or not secret:
        raise ValueError("a webhook signing secret (whsec_…) is required")
    encoded = secret[len(_SECRET_PREFIX):] if secret.startswith(_SECRET_PREFIX) else secret
    try:
        return base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError) as failure:
        raise ValueError("the webhook signing secret is not whsec_ followed by base64") from failure


def _lowercase_headers(headers: Headers) -> Dict[str, str]:
    items = headers.items() if hasattr(headers, "items") else headers
    return {str(name).lower(): str(value) for name, value in items}


class Webhook:
    """A verifier for one endpoint's signing secret (``whsec_…``, as created or rotated).

    >>> payload = Webhook(secret).verify(raw_body, request_headers)
    """

    def __init__(self, secret: str, *, tolerance: int = DEFAULT_TOLERANCE_SECONDS) -> None:
        self._key = _secret_key(secret)
        self.tolerance = tolerance

    def sign(self, msg_id: str, timestamp: int, payload: Union[bytes, str]) -> str:
        """The ``v1,<base64>`` signature of a message, as Mailroom computes it."""
        body = payload.encode("utf-8") if isinstance(payload, str) else payload
        content = f"{msg_id}.{timestamp}.".encode("utf-8") + body
        digest = hmac.new(self._key, content, hashlib.sha256).digest()
        return "v1," + base64.b64encode(digest).decode("ascii")

    def verify(self, payload: Union[bytes, str], headers: Headers, *, now: Optional[float] = None) -> Any:
        """The parsed JSON payload when a signature matches and the timestamp is fresh, else
        WebhookVerificationError. Pass the body exactly as received: re-serialised JSON no longer matches."""
        found = _lowercase_headers(headers)
        msg_id = found.get("webhook-id") or found.get("svix-id")
        timestamp_text = found.get("webhook-timestamp") or found.get("svix-timestamp")
        signatures = found.get("webhook-signature") or found.get("svix-signature")
        if not msg_id or not timestamp_text or not signatures:
            raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header")
        try:
            timestamp = int(timestamp_text)
        except ValueError:
            raise WebhookVerificationError("webhook-timestamp is not a number of seconds") from None
        current = time.time() if now is None else now
        if timestamp < current - self.tolerance:
            raise WebhookVerificationError("webhook-timestamp is too old")
        if timestamp > current + self.tolerance:
            raise WebhookVerificationError("webhook-timestamp is too far in the future")

        expected = self.sign(msg_id, timestamp, payload).split(",", 1)[1].encode("ascii")
        matched = False
        for entry in signatures.split():
            version, _, signature = entry.partition(",")
            # Every entry is compared, a match does not stop the loop: the time taken says nothing about which.
            if version == "v1" and hmac.compare_digest(signature.encode("ascii", "replace"), expected):
                matched = True
        if not matched:
            raise WebhookVerificationError("no signature matches the signing secret")

        body = payload.decode("utf-8") if isinstance(payload, (bytes, bytearray)) else payload
        try:
            return json.loads(body)
        except ValueError:
            raise WebhookVerificationError("the signed payload is not JSON") from None


def verify_webhook(
    payload: Union[bytes, str],
    headers: Headers,
    secret: str,
    *,
    tolerance: int = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> Any:
    """One-shot form of ``Webhook(secret, tolerance=…).verify(payload, headers)``."""
    return Webhook(secret, tolerance=tolerance).verify(payload, headers, now=now)
