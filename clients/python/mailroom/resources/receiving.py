"""Received (inbound) email on Resend's paths: list, get, attachments, and Mailroom's raw message; ``routes``, the
inbound routes that decide what becomes of it."""

from __future__ import annotations

from typing import Optional, cast

from .._http import Transport, path_segment
from ..types import (
    EmailAttachment,
    EmailAttachmentList,
    ListParams,
    ReceivedEmail,
    ReceivedEmailGetParams,
    ReceivedEmailList,
)
from ._base import Resource
from .inbound_routes import InboundRoutes


class ReceivedAttachments(Resource):
    def list(self, email_id: str, params: Optional[ListParams] = None) -> EmailAttachmentList:
        path = f"/v1/emails/receiving/{path_segment(email_id)}/attachments"
        return cast(EmailAttachmentList, self._transport.request("GET", path, query=params))

    def get(self, email_id: str, attachment_id: str) -> EmailAttachment:
        path = f"/v1/emails/receiving/{path_segment(email_id)}/attachments/{path_segment(attachment_id)}"
        return cast(EmailAttachment, self._transport.request("GET", path))

    def content(self, email_id: str, attachment_id: str) -> bytes:
        """The attachment's bytes."""
        path = f"/v1/emails/receiving/{path_segment(email_id)}/attachments/{path_segment(attachment_id)}/content"
        return cast(bytes, self._transport.request("GET", path, raw=True))


class Receiving(Resource):
    def __init__(self, transport: Transport) -> None:
        super().__init__(transport)
        self.attachments = ReceivedAttachments(transport)
        self.routes = InboundRoutes(transport)

    def list(self, params: Optional[ListParams] = None) -> ReceivedEmailList:
        """Received emails, newest first."""
        return cast(ReceivedEmailList, self._transport.request("GET", "/v1/emails/receiving", query=params))

    def get(self, email_id: str, params: Optional[ReceivedEmailGetParams] = None) -> ReceivedEmail:
        """One received email with its bodies, headers, attachments and authentication results."""
        path = f"/v1/emails/receiving/{path_segment(email_id)}"
        return cast(ReceivedEmail, self._transport.request("GET", path, query=params))

    def raw(self, email_id: str) -> bytes:
        """The message as it arrived."""
        path = f"/v1/emails/receiving/{path_segment(email_id)}/raw"
        return cast(bytes, self._transport.request("GET", path, raw=True))
