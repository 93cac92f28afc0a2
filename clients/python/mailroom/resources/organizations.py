"""The organisations the caller acts in (``GET /v1/organizations``): for an API key, its own, with the
``organization:read`` scope (part of ``full_access``). Creating an organisation is for instance admins signed in to
the admin UI (or ``mailroom org create`` at the command line), not for API keys, so there is no ``create`` here."""

from __future__ import annotations

from typing import cast

from ..types import OrganizationMembershipList
from ._base import Resource


class Organizations(Resource):
    def list(self) -> OrganizationMembershipList:
        """``{"object": "list", "has_more": False, "data": [{"object": "organization", "id", "name", "role"}]}``:
        each organisation the caller acts in, with the caller's role there."""
        return cast(OrganizationMembershipList, self._transport.request("GET", "/v1/organizations"))
