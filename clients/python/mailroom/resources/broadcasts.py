"""Broadcasts: mail to a segment's contacts (docs/broadcasts.md#operations), with Resend's names — create (a draft, or sent at
once with ``send: True``), send (now or at ``scheduled_at``), get, list, update and remove of drafts, cancel,
duplicate, recipients by event type, clicked links."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Dict, Mapping, Optional, Union, cast

from .._http import path_segment
from ..broadcast_types import (
    Broadcast,
    BroadcastClickedLinkList,
    BroadcastDeleted,
    BroadcastId,
    BroadcastList,
    BroadcastRecipientList,
    BroadcastRecipientListParams,
    BroadcastRef,
    CreateBroadcastParams,
    UpdateBroadcastParams,
)
from ..types import ListParams
from ._base import Resource


def _path(broadcast_id: str, tail: str = "") -> str:
    return f"/v1/broadcasts/{path_segment(broadcast_id)}{tail}"


def _when(value: Union[str, datetime]) -> str:
    return value.isoformat() if isinstance(value, datetime) else value


def _with_when(params: Mapping[str, Any]) -> Dict[str, Any]:
    body = dict(params)
    if body.get("scheduled_at") is not None:
        body["scheduled_at"] = _when(body["scheduled_at"])
    return body


class Broadcasts(Resource):
    def create(self, params: CreateBroadcastParams) -> BroadcastId:
        """A draft to ``segment_id``; ``send: True`` sends it at once (or at ``scheduled_at``: ISO 8601, a relative
        time as Resend takes it, ``"in 2 hours"``, or a ``datetime``)."""
        return cast(BroadcastId, self._transport.request("POST", "/v1/broadcasts", body=_with_when(params)))

    def send(self, broadcast_id: str, scheduled_at: Optional[Union[str, datetime]] = None) -> BroadcastId:
        """Send a draft now, or at ``scheduled_at`` (ISO 8601, ``"in 2 hours"`` or a ``datetime``)."""
        body = {} if scheduled_at is None else {"scheduled_at": _when(scheduled_at)}
        return cast(BroadcastId, self._transport.request("POST", _path(broadcast_id, "/send"), body=body))

    def list(self, params: Optional[ListParams] = None) -> BroadcastList:
        """Newest first."""
        return cast(BroadcastList, self._transport.request("GET", "/v1/broadcasts", query=params))

    def get(self, broadcast_id: str) -> Broadcast:
        """With its ``counts``: contacts reached, messages made, skipped, and recipients per status."""
        return cast(Broadcast, self._transport.request("GET", _path(broadcast_id)))

    def update(self, broadcast_id: str, params: UpdateBroadcastParams) -> BroadcastId:
        """A draft's content, segment or topic: ``update(id, {…changes})`` (Resend's Node signature);
        ``ConflictError`` once it is queued or sent."""
        return cast(BroadcastId, self._transport.request("PATCH", _path(broadcast_id), body=dict(params)))

    def remove(self, broadcast_id: str) -> BroadcastDeleted:
        """A draft only (``ConflictError`` otherwise)."""
        return cast(BroadcastDeleted, self._transport.request("DELETE", _path(broadcast_id)))

    def cancel(self, broadcast_id: str) -> BroadcastRef:
        """A scheduled broadcast goes back to draft; one being sent stops, its recipients still waiting canceled."""
        return cast(BroadcastRef, self._transport.request("POST", _path(broadcast_id, "/cancel")))

    def duplicate(self, broadcast_id: str) -> BroadcastRef:
        """A new draft with the same content and segment."""
        return cast(BroadcastRef, self._transport.request("POST", _path(broadcast_id, "/duplicate")))

    def recipients(self, broadcast_id: str, params: BroadcastRecipientListParams) -> BroadcastRecipientList:
        """The recipients with one event ``type`` (``sent``, ``delivered``, ``opened``, ``clicked``, ``bounced``, …),
        optionally one ``email`` or ``bounce_type``."""
        if not params.get("type"):
            raise ValueError("type (the event type) is required")
        query = cast(Dict[str, Any], params)
        path = _path(broadcast_id, "/recipients")
        return cast(BroadcastRecipientList, self._transport.request("GET", path, query=query))

    def clicked_links(self, broadcast_id: str, params: Optional[ListParams] = None) -> BroadcastClickedLinkList:
        """Each link clicked, with its clicks and unique clicks."""
        path = _path(broadcast_id, "/clicked-links")
        return cast(BroadcastClickedLinkList, self._transport.request("GET", path, query=params))
