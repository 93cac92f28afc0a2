"""The organisation's suppression list: add, get and remove by id or address, list, and batch add/remove."""

from __future__ import annotations

from typing import Any, Dict, Optional, cast

from .._http import Transport, path_segment
from ..types import (
    AddSuppressionParams,
    BatchAddSuppressionsParams,
    BatchAddSuppressionsResponse,
    BatchRemoveSuppressionsParams,
    BatchRemoveSuppressionsResponse,
    DeletedResponse,
    Suppression,
    SuppressionList,
    SuppressionListParams,
)
from ._base import Resource


class SuppressionsBatch(Resource):
    def add(self, params: BatchAddSuppressionsParams) -> BatchAddSuppressionsResponse:
        """Suppress several addresses; those already suppressed keep their entry."""
        return cast(
            BatchAddSuppressionsResponse,
            self._transport.request("POST", "/v1/suppressions/batch/add", body=dict(params)),
        )

    def remove(self, params: BatchRemoveSuppressionsParams) -> BatchRemoveSuppressionsResponse:
        """Remove several suppressions by ``emails`` or by ``ids`` (one of the two)."""
        if bool(params.get("emails")) == bool(params.get("ids")):
            raise ValueError("give either emails or ids")
        return cast(
            BatchRemoveSuppressionsResponse,
            self._transport.request("POST", "/v1/suppressions/batch/remove", body=dict(params)),
        )


class Suppressions(Resource):
    def __init__(self, transport: Transport) -> None:
        super().__init__(transport)
        self.batch = SuppressionsBatch(transport)

    def add(self, params: AddSuppressionParams) -> Suppression:
        """Suppress an address (``{"email", "reason"?}``): no further mail is delivered to it."""
        return cast(Suppression, self._transport.request("POST", "/v1/suppressions", body=dict(params)))

    create = add

    def get(self, id_or_email: str) -> Suppression:
        return cast(Suppression, self._transport.request("GET", f"/v1/suppressions/{path_segment(id_or_email)}"))

    def list(self, params: Optional[SuppressionListParams] = None) -> SuppressionList:
        """Newest first; ``origin`` (bounce, complaint, unsubscribe, manual) and ``search`` filter."""
        query = cast(Optional[Dict[str, Any]], params)
        return cast(SuppressionList, self._transport.request("GET", "/v1/suppressions", query=query))

    def remove(self, id_or_email: str) -> DeletedResponse:
        path = f"/v1/suppressions/{path_segment(id_or_email)}"
        return cast(DeletedResponse, self._transport.request("DELETE", path))
