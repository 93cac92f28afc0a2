"""The organisation's settings: its name, request limit, daily quota of live messages and retention, read with
today's usage, what it stores and whether its sending is paused. Reading needs the ``organization:read`` scope,
changing ``organization:write`` (both part of ``full_access``; a test key or a ``sending_access`` key has neither)."""

from __future__ import annotations

from typing import Any, Dict, Optional, cast

from .. import types
from ._base import Resource


class Organization(Resource):
    def get(self) -> types.Organization:
        """``{"object": "organization", "id", "name", "rate_limit", "daily_quota", "usage_today", "retention",
        "paused", "storage", "created_at"}``: the settings in force (a default shows as its value)."""
        return cast(types.Organization, self._transport.request("GET", "/v1/organization"))

    def update(
        self, params: Optional[types.UpdateOrganizationParams] = None, /, **changes: Any
    ) -> types.Organization:
        """Change ``name``, ``rate_limit``, ``daily_quota`` or ``retention`` (``{"content_days", "metadata_days"}``),
        given as a dict, as keyword arguments, or both. ``None`` returns a setting to its default (for
        ``daily_quota``: no quota); what is left out stays. A bad value or an unknown field raises
        ``ValidationError``. Answers the organisation after the change."""
        body: Dict[str, Any] = {**(params or {}), **changes}
        return cast(types.Organization, self._transport.request("PATCH", "/v1/organization", body=body))
