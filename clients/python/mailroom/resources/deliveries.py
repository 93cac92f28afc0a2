"""The delivery queue: the recipients waiting (queued, deferred, held, sending) with their attempts, next attempt
and last reply, a summary by status, domain and provider, and the operator's actions — retry now, cancel, release —
on one delivery or, in ``bulk``, on every delivery of a filter."""

from __future__ import annotations

from typing import Any, Dict, Optional, cast

from .._http import Transport, path_segment
from ..types import (
    BulkDeliveriesParams,
    BulkDeliveriesResponse,
    Delivery,
    DeliveryList,
    DeliveryListParams,
    QueueSummary,
)
from ._base import Resource


class DeliveriesBulk(Resource):
    """Each action on every delivery of a filter: at least one of ``status``, ``domain``, ``provider``,
    ``email_id`` (none is a ``ValidationError``). Answers ``{"object": "bulk", "matched", "changed"}``: those
    being attempted right now are matched but left to their attempt."""

    def _act(self, action: str, params: BulkDeliveriesParams) -> BulkDeliveriesResponse:
        path = f"/v1/deliveries/{action}"
        return cast(BulkDeliveriesResponse, self._transport.request("POST", path, body=dict(params)))

    def retry(self, params: BulkDeliveriesParams) -> BulkDeliveriesResponse:
        """Make every deferred delivery of the filter due at once."""
        return self._act("retry", params)

    def cancel(self, params: BulkDeliveriesParams) -> BulkDeliveriesResponse:
        """Stop every queued, deferred or held delivery of the filter."""
        return self._act("cancel", params)

    def release(self, params: BulkDeliveriesParams) -> BulkDeliveriesResponse:
        """Send every held delivery of the filter now, whatever pause held it."""
        return self._act("release", params)


class Deliveries(Resource):
    def __init__(self, transport: Transport) -> None:
        super().__init__(transport)
        self.bulk = DeliveriesBulk(transport)

    def list(self, params: Optional[DeliveryListParams] = None) -> DeliveryList:
        """The recipients waiting, oldest first; filters ``status`` (queued, deferred, held, sending), ``domain``
        (the recipient's), ``provider`` (of the last attempt) and ``email_id``."""
        query = cast(Optional[Dict[str, Any]], params)
        return cast(DeliveryList, self._transport.request("GET", "/v1/deliveries", query=query))

    def summary(self) -> QueueSummary:
        """What waits: counts by status, by destination domain (the top 20), by provider, and the oldest."""
        return cast(QueueSummary, self._transport.request("GET", "/v1/deliveries/summary"))

    def _act(self, action: str, delivery_id: str) -> Delivery:
        path = f"/v1/deliveries/{path_segment(delivery_id)}/{action}"
        return cast(Delivery, self._transport.request("POST", path))

    def retry(self, delivery_id: str) -> Delivery:
        """Make a deferred delivery due at once (its attempts so far still count). ``ConflictError`` when it is
        not deferred or is being attempted right now."""
        return self._act("retry", delivery_id)

    def cancel(self, delivery_id: str) -> Delivery:
        """Stop a queued, deferred or held delivery. ``ConflictError`` for any other status or while it is being
        attempted."""
        return self._act("cancel", delivery_id)

    def release(self, delivery_id: str) -> Delivery:
        """Send a held delivery now, whatever pause held it. ``ConflictError`` when it is not held."""
        return self._act("release", delivery_id)
