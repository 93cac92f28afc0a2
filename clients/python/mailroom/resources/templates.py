"""Saved templates (Resend's shape): create, get by id or alias, list, update, remove, publish, duplicate, and
Mailroom's render preview and source validation."""

from __future__ import annotations

from typing import Any, Mapping, Optional, cast

from .._http import path_segment
from ..types import (
    CreateTemplateParams,
    DeletedResponse,
    ListParams,
    ObjectRef,
    RenderedTemplate,
    Template,
    TemplateList,
    UpdateTemplateParams,
    ValidateTemplateParams,
    ValidateTemplateResponse,
)
from ._base import Resource, split_id


def _template_path(template_id: str) -> str:
    return f"/v1/templates/{path_segment(template_id)}"


class Templates(Resource):
    def create(self, params: CreateTemplateParams) -> Template:
        """A draft: publish it before sending with it."""
        return cast(Template, self._transport.request("POST", "/v1/templates", body=dict(params)))

    def get(self, template_id: str) -> Template:
        """By id or alias: its current version."""
        return cast(Template, self._transport.request("GET", _template_path(template_id)))

    def list(self, params: Optional[ListParams] = None) -> TemplateList:
        return cast(TemplateList, self._transport.request("GET", "/v1/templates", query=params))

    def update(self, params: UpdateTemplateParams) -> Template:
        """``{"id": <id or alias>, …changes}``: edits the draft; sends keep the published version until publish."""
        template_id, body = split_id(params, "id")
        return cast(Template, self._transport.request("PATCH", f"/v1/templates/{template_id}", body=body))

    def remove(self, template_id: str) -> DeletedResponse:
        return cast(DeletedResponse, self._transport.request("DELETE", _template_path(template_id)))

    def publish(self, template_id: str) -> ObjectRef:
        """Sends use the current version from now on."""
        return cast(ObjectRef, self._transport.request("POST", f"{_template_path(template_id)}/publish"))

    def duplicate(self, template_id: str) -> ObjectRef:
        """A copy as a new draft."""
        return cast(ObjectRef, self._transport.request("POST", f"{_template_path(template_id)}/duplicate"))

    def render(self, template_id: str, variables: Optional[Mapping[str, Any]] = None) -> RenderedTemplate:
        """``{subject, html, text}`` of the current version with ``variables``; nothing is sent."""
        body = {"variables": dict(variables or {})}
        path = f"{_template_path(template_id)}/render"
        return cast(RenderedTemplate, self._transport.request("POST", path, body=body))

    def validate(self, params: ValidateTemplateParams) -> ValidateTemplateResponse:
        """``{valid, errors: [{field, line, column, message}]}`` for a template source, without saving it."""
        answer = self._transport.request("POST", "/v1/templates/validate", body=dict(params))
        return cast(ValidateTemplateResponse, answer)
