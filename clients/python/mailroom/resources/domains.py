"""Sending domains: create (answers the DNS records to publish), get, list, update, verify, remove, DKIM rotation."""

from __future__ import annotations

from typing import Any, Dict, Optional, cast

from .._http import path_segment
from ..types import CreateDomainParams, DeletedResponse, Domain, DomainList, ListParams, UpdateDomainParams
from ._base import Resource, split_id


class Domains(Resource):
    def create(self, params: CreateDomainParams) -> Domain:
        return cast(Domain, self._transport.request("POST", "/v1/domains", body=dict(params)))

    def get(self, domain_id: str) -> Domain:
        """By id or by name, with each record's expected and found values."""
        return cast(Domain, self._transport.request("GET", f"/v1/domains/{path_segment(domain_id)}"))

    def list(self, params: Optional[ListParams] = None) -> DomainList:
        return cast(DomainList, self._transport.request("GET", "/v1/domains", query=params))

    def update(self, params: UpdateDomainParams) -> Domain:
        """``{"id": <id or name>, …changes}``: tracking defaults, return-path subdomain, receiving, providers."""
        domain_id, body = split_id(params, "id")
        return cast(Domain, self._transport.request("PATCH", f"/v1/domains/{domain_id}", body=body))

    def verify(self, domain_id: str) -> Domain:
        """Check the domain's DNS records now."""
        return cast(Domain, self._transport.request("POST", f"/v1/domains/{path_segment(domain_id)}/verify"))

    def remove(self, domain_id: str, *, force: bool = False) -> DeletedResponse:
        """Delete a domain. Refused (409) while mail from it is queued, unless ``force`` (that mail then fails)."""
        query: Dict[str, Any] = {"force": True} if force else {}
        path = f"/v1/domains/{path_segment(domain_id)}"
        return cast(DeletedResponse, self._transport.request("DELETE", path, query=query))

    def rotate_dkim(self, domain_id: str) -> Domain:
        """Start a DKIM key rotation: the answer shows the new selector's record, which signs once found in DNS."""
        path = f"/v1/domains/{path_segment(domain_id)}/dkim/rotate"
        return cast(Domain, self._transport.request("POST", path))
