"""Batch sending: up to 100 emails in one call, all or nothing (strict) or the valid ones (permissive)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, cast

from ..types import BatchSendOptions, BatchSendResponse, SendParams
from ._base import Resource

_MODES = ("strict", "permissive")


class Batch(Resource):
    def send(
        self,
        params: Sequence[SendParams],
        options: Optional[BatchSendOptions] = None,
        *,
        validation: Optional[str] = None,
        idempotency_key: Optional[str] = None,
    ) -> BatchSendResponse:
        """Send ``params`` (a list of send bodies): ``{"data": [{"id"}…]}``.

        ``validation="permissive"`` (or Resend's ``options={"batch_validation": …}``) sends the valid items and
        answers ``errors: [{index, message}]`` for the others; ``"strict"`` (the server's default) refuses the whole
        batch with a ValidationError if one item is invalid."""
        options = options or {}
        mode = validation or options.get("batch_validation")
        if mode is not None and mode not in _MODES:
            raise ValueError(f"validation must be one of {', '.join(_MODES)}")
        headers: Dict[str, str] = {"x-batch-validation": mode} if mode else {}
        body: List[Dict[str, Any]] = [dict(item) for item in params]
        key = idempotency_key or options.get("idempotency_key")
        return cast(
            BatchSendResponse,
            self._transport.request(
                "POST", "/v1/emails/batch", body=body, headers=headers, idempotency_key=key, idempotent_send=True
            ),
        )
