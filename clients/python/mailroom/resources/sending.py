"""Sending pauses: the organisation's sending, one of its sending domains or one provider paused by an operator.
While a pause applies mail is still accepted and its recipients wait as ``held`` (``deliveries.list({"status":
"held"})``), never attempted; on resume they go out, oldest first. And the guardrails' sending health: bounce and
complaint rates per domain and for the organisation (``health()``, scope ``domains:read``)."""

from __future__ import annotations

from typing import cast

from ..types import PauseSendingParams, ResumeSendingParams, SendingHealthOverview, SendingResumed, SendingState
from ._base import Resource


class Sending(Resource):
    def get(self) -> SendingState:
        """``{"object": "sending", "pauses": [...]}``: the pauses that apply now, each with its ``scope``, ``name``
        (None for the organisation), ``reason``, ``paused_at`` and ``paused_by``."""
        return cast(SendingState, self._transport.request("GET", "/v1/sending"))

    def health(self) -> SendingHealthOverview:
        """``{"object": "sending_health", "health": {...}, "domains": [{"id", "name", "health"}]}``: bounce and
        complaint rates over the guardrails' window for the organisation and each sending domain, each health
        ``{"bounce_rate", "complaint_rate", "window", "recipients", "status", "reason", "evaluated_at"}`` with
        ``status`` ``ok``, ``warning`` or ``paused`` (a guardrail pause, listed by ``get()``, that a person
        resumes)."""
        return cast(SendingHealthOverview, self._transport.request("GET", "/v1/sending/health"))

    def pause(self, params: PauseSendingParams) -> SendingState:
        """Pause ``{scope: "organization"}``, ``{scope: "domain", name}`` (one of the organisation's sending domains,
        else ``NotFoundError``) or ``{scope: "provider", name}`` (a configured provider, else ``ValidationError``),
        with an optional ``reason``. Pausing what is paused already keeps the first pause. Answers the state."""
        return cast(SendingState, self._transport.request("POST", "/v1/sending/pause", body=dict(params)))

    def resume(self, params: ResumeSendingParams) -> SendingResumed:
        """Lift a pause: what it held (and no other pause holds) goes back to the queue. Answers the state with
        ``released``, how many held recipients went; ``NotFoundError`` when that is not paused."""
        return cast(SendingResumed, self._transport.request("POST", "/v1/sending/resume", body=dict(params)))
