"""API keys: create (the token is shown once), list, rename, remove (revoke)."""

from __future__ import annotations

from typing import Any, Dict, Optional, cast

from .._http import path_segment
from ..types import (
    ApiKeyList,
    ApiKeyListParams,
    CreateApiKeyParams,
    CreateApiKeyResponse,
    DeletedResponse,
    ObjectRef,
    UpdateApiKeyParams,
)
from ._base import Resource, split_id


class ApiKeys(Resource):
    def create(self, params: CreateApiKeyParams) -> CreateApiKeyResponse:
        """``{"id", "token", …}``: keep ``token``, it cannot be read again."""
        return cast(CreateApiKeyResponse, self._transport.request("POST", "/v1/api-keys", body=dict(params)))

    def list(self, params: Optional[ApiKeyListParams] = None) -> ApiKeyList:
        """Active keys; ``include_revoked=True`` adds revoked ones."""
        query = cast(Optional[Dict[str, Any]], params)
        return cast(ApiKeyList, self._transport.request("GET", "/v1/api-keys", query=query))

    def update(self, params: UpdateApiKeyParams) -> ObjectRef:
        """Rename a key: ``{"id": …, "name": …}``."""
        key_id, body = split_id(params, "id")
        return cast(ObjectRef, self._transport.request("PATCH", f"/v1/api-keys/{key_id}", body=body))

    def remove(self, api_key_id: str) -> DeletedResponse:
        """Revoke a key: requests with it are refused from now on."""
        return cast(DeletedResponse, self._transport.request("DELETE", f"/v1/api-keys/{path_segment(api_key_id)}"))
