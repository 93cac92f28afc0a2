"""Sending and looking up email: send, get, list, update (reschedule), cancel, raw MIME, sent attachments, metrics,
and ``receiving`` (received mail, as Resend's SDK nests it under emails); batch sending is in batch.py."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Dict, Optional, cast

from .._http import Transport, path_segment
from ..operation_types import EmailMetrics, EmailMetricsParams
from ..types import (
    CancelEmailResponse,
    Email,
    EmailAttachment,
    EmailAttachmentList,
    EmailList,
    EmailListParams,
    ListParams,
    SendEmailResponse,
    SendOptions,
    SendParams,
    UpdateEmailParams,
    UpdateEmailResponse,
)
from ._base import Resource, split_id
from .receiving import Receiving


class EmailAttachments(Resource):
    """Attachments of a sent email, each with a signed ``download_url``; ``GoneError`` once retention removed the
    email's content."""

    def list(self, email_id: str, params: Optional[ListParams] = None) -> EmailAttachmentList:
        path = f"/v1/emails/{path_segment(email_id)}/attachments"
        return cast(EmailAttachmentList, self._transport.request("GET", path, query=params))

    def get(self, email_id: str, attachment_id: str) -> EmailAttachment:
        path = f"/v1/emails/{path_segment(email_id)}/attachments/{path_segment(attachment_id)}"
        return cast(EmailAttachment, self._transport.request("GET", path))

    def content(self, email_id: str, attachment_id: str) -> bytes:
        """The attachment's bytes."""
        path = f"/v1/emails/{path_segment(email_id)}/attachments/{path_segment(attachment_id)}/content"
        return cast(bytes, self._transport.request("GET", path, raw=True))


class Emails(Resource):
    def __init__(self, transport: Transport) -> None:
        super().__init__(transport)
        self.attachments = EmailAttachments(transport)
        self.receiving = Receiving(transport)

    def send(
        self,
        params: SendParams,
        options: Optional[SendOptions] = None,
        *,
        idempotency_key: Optional[str] = None,
    ) -> SendEmailResponse:
        """Send one email: ``{"id", "message"}`` once it is durably stored.

        ``idempotency_key`` (or Resend's ``options={"idempotency_key": …}``): the same key and body within 24 h
        answer the first result again instead of sending twice."""
        key = idempotency_key or (options or {}).get("idempotency_key")
        return cast(
            SendEmailResponse,
            self._transport.request("POST", "/v1/emails", body=dict(params), idempotency_key=key, idempotent_send=True),
        )

    def get(self, email_id: str) -> Email:
        """The email with its per-recipient state and its event history."""
        return cast(Email, self._transport.request("GET", f"/v1/emails/{path_segment(email_id)}"))

    def list(self, params: Optional[EmailListParams] = None) -> EmailList:
        """Newest first; filters ``status``, ``to``, ``from``, ``tag`` (``name`` or ``name:value``)."""
        query = cast(Optional[Dict[str, Any]], params)
        return cast(EmailList, self._transport.request("GET", "/v1/emails", query=query))

    def update(self, params: UpdateEmailParams) -> UpdateEmailResponse:
        """Reschedule a scheduled email: ``{"id": …, "scheduled_at": "<ISO 8601>"}``."""
        email_id, body = split_id(params, "id")
        return cast(UpdateEmailResponse, self._transport.request("PATCH", f"/v1/emails/{email_id}", body=body))

    def cancel(self, email_id: str) -> CancelEmailResponse:
        """Cancel an email: a scheduled one entirely, and one on its way for every recipient still waiting (queued,
        deferred, held). ``ConflictError`` when no recipient waits any more (or the scheduled email is being sent)."""
        path = f"/v1/emails/{path_segment(email_id)}/cancel"
        return cast(CancelEmailResponse, self._transport.request("POST", path))

    def metrics(self, params: Optional[EmailMetricsParams] = None, /, **options: Any) -> EmailMetrics:
        """Resend's metrics: totals over ``start_date``..``end_date`` and, with ``dimensions=["period"]``, one row per
        ``granularity`` period; rates are fractions 0..1 (docs/logs-and-mcp.md#usage-and-metrics). Given as a dict,
        as keyword arguments, or both."""
        query: Dict[str, Any] = {}
        for key, value in {**(params or {}), **options}.items():
            if isinstance(value, (list, tuple)):
                value = ",".join(str(item) for item in value) or None
            elif isinstance(value, (date, datetime)):
                value = value.isoformat()
            query[key] = value
        return cast(EmailMetrics, self._transport.request("GET", "/v1/emails/metrics", query=query))

    def raw(self, email_id: str) -> bytes:
        """The stored MIME message (``message/rfc822``) as bytes; ``GoneError`` once retention removed it (the
        email's ``content_removed_at`` says when)."""
        return cast(bytes, self._transport.request("GET", f"/v1/emails/{path_segment(email_id)}/raw", raw=True))
