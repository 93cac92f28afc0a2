"""Sending domains: create (answers the DNS records to publish), get, list, update, verify, remove, DKIM rotation,
and the DMARC aggregate reports receivers sent about each (a list, and a summary per source address)."""

from __future__ import annotations

from typing import Any, Dict, Optional, cast

from .._http import path_segment
from ..types import (
    CreateDomainParams,
    DeletedResponse,
    DmarcReportList,
    DmarcReportListParams,
    DmarcReportRowList,
    DmarcSummary,
    Domain,
    DomainList,
    ListParams,
    UpdateDomainParams,
)
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
        """``{"id": <id or name>, …changes}``: tracking defaults, return-path subdomain, receiving, providers, the
        tracking host (``"tracking_subdomain": "links"``; ``None`` removes it), the TLS policy (``"tls": "enforced"``),
        an Ed25519 DKIM key beside the RSA one (``"dkim": {"ed25519": True}``; ``False`` retires it) and the IP pool
        direct delivery sends from (``"ip_pool": "main"``, a configured one, else ``ValidationError``; ``None`` for
        none). What is left out stays."""
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

    def dmarc_reports(
        self, domain_id: str, params: Optional[DmarcReportListParams] = None, /, **options: Any
    ) -> DmarcReportList:
        """The DMARC aggregate reports receivers sent about the domain, newest first: ``limit``, ``after`` (a report's
        id: the reports older than it) and ``before`` (the reports newer than it), given as a dict, as keyword
        arguments, or both. Each is ``{"object": "dmarc_report", "id", "reporter", "report_id", "begin", "end",
        "rows": [{"source_ip", "count", "disposition", "dkim", "spf", "header_from"}], "row_count"}``: its first 20
        rows, heaviest source first (the rest through ``dmarc_report_rows``). Empty until the domain is verified."""
        query: Dict[str, Any] = {**(params or {}), **options}
        path = f"/v1/domains/{path_segment(domain_id)}/dmarc"
        return cast(DmarcReportList, self._transport.request("GET", path, query=query))

    def dmarc_report_rows(
        self, domain_id: str, report_id: str, params: Optional[ListParams] = None, /, **options: Any
    ) -> DmarcReportRowList:
        """The rows of one DMARC report, page by page: ``limit``, ``after`` or ``before`` a row's ``id``."""
        query: Dict[str, Any] = {**(params or {}), **options}
        path = f"/v1/domains/{path_segment(domain_id)}/dmarc/{path_segment(report_id)}/rows"
        return cast(DmarcReportRowList, self._transport.request("GET", path, query=query))

    def dmarc_summary(self, domain_id: str, *, days: Optional[int] = None) -> DmarcSummary:
        """Who sends as the domain: the reports of the last ``days`` (1–90, the server's default 7) summed per source
        address, ``{"object": "dmarc_summary", "domain", "days", "reports", "data": [{"source_ip", "messages",
        "aligned_pass_rate", "own"}]}``; ``own`` tells the addresses that are Mailroom's."""
        path = f"/v1/domains/{path_segment(domain_id)}/dmarc/summary"
        return cast(DmarcSummary, self._transport.request("GET", path, query={"days": days}))
