"""The request log (every API request made with a key, with its bodies, secrets replaced by ``"[redacted]"``:
docs/logs-and-mcp.md#the-request-log) and usage (the organisation's figures in Resend's shape:
docs/logs-and-mcp.md#usage-and-metrics), with Resend's names."""

from __future__ import annotations

from typing import Any, Dict, Optional, cast

from .._http import path_segment
from ..operation_types import Log, LogList, LogListParams, Usage as UsageFigures
from ._base import Resource


class Logs(Resource):
    def list(self, params: Optional[LogListParams] = None, /, **filters: Any) -> LogList:
        """Newest first, without the bodies: ``limit``, ``after``, ``before`` and the filters ``status``, ``method``,
        ``api_key_id`` and ``endpoint`` (a path, or its start: ``/emails``), as a dict, as keyword arguments, or
        both. Needs ``logs:read``."""
        query: Dict[str, Any] = {**(params or {}), **filters}
        return cast(LogList, self._transport.request("GET", "/v1/logs", query=query))

    def get(self, log_id: str) -> Log:
        """One request with ``request_body`` and ``response_body``."""
        return cast(Log, self._transport.request("GET", f"/v1/logs/{path_segment(log_id)}"))


class Usage(Resource):
    def get(self) -> UsageFigures:
        """Emails today and this month, received mail, domains, contacts, the request limit. Needs
        ``organization:read``."""
        return cast(UsageFigures, self._transport.request("GET", "/v1/usage"))
