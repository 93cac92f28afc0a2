"""The server's IP pools for direct delivery (``GET /v1/ip-pools``, scope ``domains:read``): each
``[ip_pools.<name>]``, which a domain names with ``domains.update({"id": …, "ip_pool": name})``, with its addresses'
warm-up and today's traffic."""

from __future__ import annotations

from typing import cast

from ..types import IpPoolList
from ._base import Resource


class IpPools(Resource):
    def list(self) -> IpPoolList:
        """``{"object": "list", "data": [{"name", "warmup", "addresses": [{"address", "ehlo_name", "warmup_day",
        "daily_cap", "today": {<provider>: messages}, "backed_off": [{"provider", "messages_per_minute",
        "until"}]}]}]}``: every configured pool, each address's warm-up day and today's cap (None: uncapped), today's
        messages per destination provider, and the providers whose rate is halved after throttling. Empty when the
        server configures none."""
        return cast(IpPoolList, self._transport.request("GET", "/v1/ip-pools"))
