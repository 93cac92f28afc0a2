"""The audit log: who changed what in the organisation — keys, domains, templates, webhooks, suppressions, members,
invitations, settings, pauses, queue actions — and every sign-in, failed sign-in and sign-out, newest first.
Append-only; it never holds a secret, a token or a password. Needs the ``audit:read`` scope (part of
``full_access``)."""

from __future__ import annotations

from typing import Any, Dict, Optional, cast

from ..types import AuditEventList, AuditLogListParams
from ._base import Resource


class AuditLog(Resource):
    def list(self, params: Optional[AuditLogListParams] = None, /, **filters: Any) -> AuditEventList:
        """The organisation's events, newest first: ``limit``, ``after``, ``before``, and the filters ``action``
        (``"member.invited"``) and ``actor_id`` (an event's ``actor["id"]``), given as a dict, as keyword
        arguments, or both."""
        query: Dict[str, Any] = {**(params or {}), **filters}
        return cast(AuditEventList, self._transport.request("GET", "/v1/audit-log", query=query))
