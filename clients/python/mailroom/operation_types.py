"""Typed shapes of the request log, usage and email metrics (docs/logs-and-mcp.md) and of the inbound routes
(docs/inbound.md#routes). The answers and bodies come from ``generated.py`` (``npm run generate``); what is written here is
the client's side: the list filters and the metrics parameters, whose lists the client joins with commas as the wire
takes them."""

from __future__ import annotations

from datetime import date, datetime
from typing import List, Literal, TypedDict, Union

from .generated import (
    CreateInboundRouteOptions as CreateInboundRouteOptions,
    EmailMetrics as EmailMetrics,
    EmailMetricsRow as EmailMetricsRow,
    EmailMetricsTotals as EmailMetricsTotals,
    InboundRoute as InboundRoute,
    InboundRouteHeaderMatch as InboundRouteHeaderMatch,
    InboundRouteMatch as InboundRouteMatch,
    InboundRouteTest as InboundRouteTest,
    Log as Log,
    LogListItem as LogListItem,
    TestInboundRouteOptions as TestInboundRouteOptions,
    UpdateInboundRouteOptions as UpdateInboundRouteOptions,
    Usage as Usage,
)
from .types import ListParams


class LogListParams(ListParams, total=False):
    status: int
    method: str
    api_key_id: str
    endpoint: str


class LogList(TypedDict):
    object: str
    has_more: bool
    data: List[LogListItem]


class EmailMetricsParams(TypedDict, total=False):
    """``start_date``/``end_date``: ISO 8601 text, a ``date`` (the whole day) or a ``datetime``; lists are joined."""

    start_date: Union[str, date, datetime]
    end_date: Union[str, date, datetime]
    timezone: str
    granularity: Literal["hourly", "daily", "weekly", "monthly"]
    metrics: List[str]
    dimensions: List[Literal["period", "domain", "email", "broadcast"]]
    domain_id: List[str]
    email_id: List[str]
    broadcast_id: List[str]


class UpdateInboundRouteParams(UpdateInboundRouteOptions, total=False):
    id: str


class InboundRouteList(TypedDict):
    object: str
    has_more: bool
    data: List[InboundRoute]
