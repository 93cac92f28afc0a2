"""Mailroom's inbound routes (``/v1/inbound/routes``, docs/inbound.md#routes): what the MX does with the mail it
receives — store, webhook, forward, reject or drop, by recipient (or ``*@domain``) and optionally a header, with a
spam threshold — tried in order, the first match deciding. ``test`` asks which route decides for an address."""

from __future__ import annotations

from typing import Optional, cast

from .._http import path_segment
from ..operation_types import (
    CreateInboundRouteOptions,
    InboundRoute,
    InboundRouteList,
    InboundRouteTest,
    TestInboundRouteOptions,
    UpdateInboundRouteParams,
)
from ..types import DeletedResponse, ListParams
from ._base import Resource, split_id


class InboundRoutes(Resource):
    def list(self, params: Optional[ListParams] = None) -> InboundRouteList:
        """In the order they are tried (``position`` 1 first), 100 to a page unless ``limit`` says otherwise."""
        return cast(InboundRouteList, self._transport.request("GET", "/v1/inbound/routes", query=params))

    def create(self, params: CreateInboundRouteOptions) -> InboundRoute:
        """Goes last unless ``position`` says where; the routes at it and after move down."""
        return cast(InboundRoute, self._transport.request("POST", "/v1/inbound/routes", body=dict(params)))

    def get(self, route_id: str) -> InboundRoute:
        return cast(InboundRoute, self._transport.request("GET", f"/v1/inbound/routes/{path_segment(route_id)}"))

    def update(self, params: UpdateInboundRouteParams) -> InboundRoute:
        """``{"id", …changes}``: changes or moves (``position``) a route; what is left out stays."""
        route_id, body = split_id(params, "id")
        return cast(InboundRoute, self._transport.request("PATCH", f"/v1/inbound/routes/{route_id}", body=body))

    def remove(self, route_id: str) -> DeletedResponse:
        path = f"/v1/inbound/routes/{path_segment(route_id)}"
        return cast(DeletedResponse, self._transport.request("DELETE", path))

    def test(self, params: TestInboundRouteOptions) -> InboundRouteTest:
        """Which route decides for ``recipient`` (and ``headers``), and what becomes of its mail; nothing is
        received."""
        if not params.get("recipient"):
            raise ValueError("recipient (an address) is required")
        return cast(InboundRouteTest, self._transport.request("POST", "/v1/inbound/routes/test", body=dict(params)))
