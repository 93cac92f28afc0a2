"""The AI helpers: subject scoring (offline rules, model suggestions when one is configured) and the writer."""

from __future__ import annotations

from typing import cast

from ..types import SubjectParams, SubjectScore, WriteParams, WriteResponse
from ._base import Resource


class Ai(Resource):
    def subject(self, params: SubjectParams) -> SubjectScore:
        """``{score 0–100, findings, suggestions}`` for a subject line (``html``/``text`` add context)."""
        return cast(SubjectScore, self._transport.request("POST", "/v1/ai/subject", body=dict(params)))

    def write(self, params: WriteParams) -> WriteResponse:
        """Draft ``{subject, html, text}`` from a ``brief``; ServiceUnavailableError when no model is configured.
        Nothing is sent; ``save_as_template`` keeps the draft as a template."""
        return cast(WriteResponse, self._transport.request("POST", "/v1/ai/write", body=dict(params)))
