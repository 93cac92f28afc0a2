"""What every resource shares: the transport, and taking the id out of Resend-style ``update`` parameters."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Tuple

from .._http import Transport, path_segment


class Resource:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport


def split_id(params: Mapping[str, Any], *keys: str) -> Tuple[str, Dict[str, Any]]:
    """The path id found under the first of ``keys`` present, and the rest of ``params`` (the body).

    Resend's SDKs put the id of an ``update`` inside its parameters (``id``, or ``webhook_id`` for webhooks)."""
    for key in keys:
        if params.get(key):
            body = {k: v for k, v in params.items() if k not in keys}
            return path_segment(params[key]), body
    raise ValueError(f"update needs the object's {' or '.join(repr(k) for k in keys)} in its parameters")
