"""The ``Mailroom`` client: configuration (key, base URL, timeout, retries) and the resources as attributes."""

from __future__ import annotations

import os
from typing import Optional

from ._http import USER_AGENT, Transport
from .resources.ai import Ai
from .resources.api_keys import ApiKeys
from .resources.audiences import ContactProperties, Segments, Topics
from .resources.audit_log import AuditLog
from .resources.batch import Batch
from .resources.broadcasts import Broadcasts
from .resources.contacts import Contacts
from .resources.deliveries import Deliveries
from .resources.domains import Domains
from .resources.emails import Emails
from .resources.ip_pools import IpPools
from .resources.logs import Logs, Usage
from .resources.members import Members
from .resources.organization import Organization
from .resources.organizations import Organizations
from .resources.sending import Sending
from .resources.suppressions import Suppressions
from .resources.templates import Templates
from .resources.webhooks import Webhooks

DEFAULT_BASE_URL = "http://127.0.0.1:3000"
DEFAULT_TIMEOUT_SECONDS = 30.0


def _normalise_base_url(base_url: str) -> str:
    base = base_url.strip().rstrip("/")
    # A Resend user points SDKs at "https://<mailroom>/v1"; the paths here already start with /v1.
    if base.endswith("/v1"):
        base = base[: -len("/v1")]
    if not base.startswith(("http://", "https://")):
        raise ValueError(f"base_url must be an http:// or https:// URL, got {base_url!r}")
    return base


class Mailroom:
    """A client for one Mailroom server and API key.

    >>> client = Mailroom("mr_live_…", base_url="https://mail.example.com")
    >>> client.emails.send(
    ...     {"from": "Acme <hi@example.com>", "to": "a@example.org", "subject": "Hi", "html": "<p>Hi</p>"}
    ... )

    ``api_key`` and ``base_url`` default to the MAILROOM_API_KEY and MAILROOM_BASE_URL environment variables.
    ``max_retries`` (0, off, by default) retries 429 after its Retry-After (not a used-up daily quota), and 5xx and
    network failures after an exponential backoff with jitter; sends then always carry an idempotency key so a
    retry cannot send twice.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        *,
        base_url: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        max_retries: int = 0,
        retry_base_delay: float = 0.5,
        retry_max_delay: float = 8.0,
        user_agent: Optional[str] = None,
    ) -> None:
        key = api_key or os.environ.get("MAILROOM_API_KEY")
        if not key:
            raise ValueError("an API key is required: pass api_key or set MAILROOM_API_KEY")
        self.base_url = _normalise_base_url(base_url or os.environ.get("MAILROOM_BASE_URL") or DEFAULT_BASE_URL)
        self._transport = Transport(
            api_key=key,
            base_url=self.base_url,
            timeout=timeout,
            max_retries=max_retries,
            retry_base_delay=retry_base_delay,
            retry_max_delay=retry_max_delay,
            user_agent=f"{user_agent} {USER_AGENT}" if user_agent else USER_AGENT,
        )
        self.emails = Emails(self._transport)
        self.batch = Batch(self._transport)
        self.domains = Domains(self._transport)
        self.api_keys = ApiKeys(self._transport)
        self.webhooks = Webhooks(self._transport)
        self.suppressions = Suppressions(self._transport)
        self.deliveries = Deliveries(self._transport)
        self.sending = Sending(self._transport)
        self.ip_pools = IpPools(self._transport)
        self.organization = Organization(self._transport)
        self.organizations = Organizations(self._transport)
        self.members = Members(self._transport)
        self.audit_log = AuditLog(self._transport)
        self.templates = Templates(self._transport)
        self.ai = Ai(self._transport)
        self.contacts = Contacts(self._transport)
        self.contact_properties = ContactProperties(self._transport)
        self.segments = Segments(self._transport)
        # Resend's older name of segments: the same resource.
        self.audiences = self.segments
        self.topics = Topics(self._transport)
        self.broadcasts = Broadcasts(self._transport)
        self.logs = Logs(self._transport)
        self.usage = Usage(self._transport)
        # Resend nests received mail under emails; Mailroom's own name for it is kept as a shortcut.
        self.receiving = self.emails.receiving

    def __repr__(self) -> str:
        return f"Mailroom(base_url={self.base_url!r})"
