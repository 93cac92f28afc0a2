"""The AI helpers: whether a model is configured, subject scoring (offline rules, model suggestions when one is
configured) and the writer."""

from __future__ import annotations

from typing import cast

from ..types import AiStatus, SubjectParams, SubjectScore, WriteParams, WriteResponse
from ._base import Resource


class Ai(Resource):
    def status(self) -> AiStatus:
        """``{model_configured, model, message}``: the configured model's name, or (``model`` None) in ``message``
        what to configure, the words of the writer's ServiceUnavailableError. Ask before submitting a brief."""
        return cast(AiStatus, self._transport.request("GET", "/v1/ai"))

    def subject(self, params: SubjectParams) -> SubjectScore:
        """``{score 0–100, findings, suggestions}`` for a subject line (``html``/``text`` add context)."""
        return cast(SubjectScore, self._transport.request("POST", "/v1/ai/subject", body=dict(params)))

    def write(self, params: WriteParams) -> WriteResponse:
        """Draft ``{subject, html, text}`` from a ``brief``; ServiceUnavailableError when no model is configured.
        Nothing is sent; ``save_as_template`` keeps the draft as a template."""
        return cast(WriteResponse, self._transport.request("POST", "/v1/ai/write", body=dict(params)))
