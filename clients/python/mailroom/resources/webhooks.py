"""Webhook endpoints: create (answers the signing secret), get, list, update, remove, signing-secret rotation, a
test event, replays, and the delivery log (``events``); ``verify`` checks a received request's signature."""

from __future__ import annotations

from typing import Any, Dict, Optional, cast

from .._http import Transport, path_segment
from ..types import (
    CreateWebhookParams,
    CreateWebhookResponse,
    DeletedResponse,
    ListParams,
    ReplayResponse,
    RotateSigningSecretResponse,
    UpdateWebhookParams,
    Webhook,
    WebhookAttemptList,
    WebhookEvent,
    WebhookEventList,
    WebhookEventListParams,
    WebhookList,
)
from ..webhook import DEFAULT_TOLERANCE_SECONDS, Headers, verify_webhook
from ._base import Resource, split_id


def _webhook_path(webhook_id: str) -> str:
    return f"/v1/webhooks/{path_segment(webhook_id)}"


class WebhookEvents(Resource):
    """The events sent to one endpoint, each with its attempts (status code, first 1 KB of the answer, duration)."""

    def list(self, webhook_id: str, params: Optional[WebhookEventListParams] = None) -> WebhookEventList:
        """Newest first; ``status`` filters on ``pending``, ``attempting``, ``success`` or ``failed``."""
        path = f"{_webhook_path(webhook_id)}/events"
        query = cast(Optional[Dict[str, Any]], params)
        return cast(WebhookEventList, self._transport.request("GET", path, query=query))

    def get(self, webhook_id: str, event_id: str) -> WebhookEvent:
        """An event with its payload and every attempt."""
        path = f"{_webhook_path(webhook_id)}/events/{path_segment(event_id)}"
        return cast(WebhookEvent, self._transport.request("GET", path))

    def attempts(self, webhook_id: str, event_id: str, params: Optional[ListParams] = None) -> WebhookAttemptList:
        path = f"{_webhook_path(webhook_id)}/events/{path_segment(event_id)}/attempts"
        return cast(WebhookAttemptList, self._transport.request("GET", path, query=params))

    def replay(self, webhook_id: str, event_id: str) -> WebhookEvent:
        """Send the event again, with the same ``webhook-id`` so receivers can de-duplicate."""
        path = f"{_webhook_path(webhook_id)}/events/{path_segment(event_id)}/replay"
        return cast(WebhookEvent, self._transport.request("POST", path))


class Webhooks(Resource):
    def __init__(self, transport: Transport) -> None:
        super().__init__(transport)
        self.events = WebhookEvents(transport)

    def create(self, params: CreateWebhookParams) -> CreateWebhookResponse:
        """``{"object", "id", "signing_secret", …}``: the secret is shown in full only here and on rotation."""
        return cast(CreateWebhookResponse, self._transport.request("POST", "/v1/webhooks", body=dict(params)))

    def get(self, webhook_id: str) -> Webhook:
        return cast(Webhook, self._transport.request("GET", _webhook_path(webhook_id)))

    def list(self, params: Optional[ListParams] = None) -> WebhookList:
        return cast(WebhookList, self._transport.request("GET", "/v1/webhooks", query=params))

    def update(self, params: UpdateWebhookParams) -> Webhook:
        """``{"webhook_id": …, …changes}``: endpoint, events, description, ``status`` enabled or disabled."""
        webhook_id, body = split_id(params, "webhook_id", "id")
        return cast(Webhook, self._transport.request("PATCH", f"/v1/webhooks/{webhook_id}", body=body))

    def remove(self, webhook_id: str) -> DeletedResponse:
        """Delete the endpoint and its delivery log."""
        return cast(DeletedResponse, self._transport.request("DELETE", _webhook_path(webhook_id)))

    def rotate_signing_secret(self, webhook_id: str) -> RotateSigningSecretResponse:
        """A new ``signing_secret``; the old one keeps signing alongside it for 24 h."""
        path = f"{_webhook_path(webhook_id)}/signing-secret/rotate"
        return cast(RotateSigningSecretResponse, self._transport.request("POST", path))

    def test(self, webhook_id: str, event_type: Optional[str] = None) -> WebhookEvent:
        """Send a sample event (``email.sent`` unless ``event_type`` names another) to the endpoint."""
        body = {"type": event_type} if event_type else {}
        return cast(WebhookEvent, self._transport.request("POST", f"{_webhook_path(webhook_id)}/test", body=body))

    def replay(self, webhook_id: str) -> ReplayResponse:
        """Send every failed event of the endpoint again."""
        return cast(ReplayResponse, self._transport.request("POST", f"{_webhook_path(webhook_id)}/replay"))

    @staticmethod
    def verify(
        payload: Any,
        headers: Headers,
        secret: str,
        *,
        tolerance: int = DEFAULT_TOLERANCE_SECONDS,
    ) -> Any:
        """Verify a received webhook request; see ``mailroom.Webhook``. Needs no API call."""
        return verify_webhook(payload, headers, secret, tolerance=tolerance)
