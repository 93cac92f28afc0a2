"""Segments (also ``audiences``, Resend's older name: the same resource), topics and contact properties, each with
create, get, list, update and remove (docs/contacts.md). Contacts join segments through ``contacts.segments`` and
choose topics through ``contacts.topics``."""

from __future__ import annotations

from typing import Any, Mapping, Optional, cast

from .._http import path_segment
from ..contact_types import (
    ContactList,
    ContactProperty,
    ContactPropertyList,
    CreateContactPropertyOptions,
    CreateSegmentOptions,
    CreateTopicOptions,
    Segment,
    SegmentList,
    Topic,
    TopicList,
    UpdateContactPropertyParams,
    UpdateTopicParams,
)
from ..types import DeletedResponse, ListParams
from ._base import Resource, split_id


class _Collection(Resource):
    """The five calls under ``/v1/<base>``."""

    base = ""

    def _create(self, params: Mapping[str, Any]) -> Any:
        return self._transport.request("POST", f"/v1/{self.base}", body=dict(params))

    def _list(self, params: Optional[ListParams]) -> Any:
        return self._transport.request("GET", f"/v1/{self.base}", query=params)

    def _get(self, item_id: str) -> Any:
        return self._transport.request("GET", f"/v1/{self.base}/{path_segment(item_id)}")

    def _update(self, item_id: str, body: Mapping[str, Any]) -> Any:
        return self._transport.request("PATCH", f"/v1/{self.base}/{item_id}", body=dict(body))

    def remove(self, item_id: str) -> DeletedResponse:
        return cast(DeletedResponse, self._transport.request("DELETE", f"/v1/{self.base}/{path_segment(item_id)}"))


class Segments(_Collection):
    base = "segments"

    def create(self, params: CreateSegmentOptions) -> Segment:
        return cast(Segment, self._create(params))

    def list(self, params: Optional[ListParams] = None) -> SegmentList:
        return cast(SegmentList, self._list(params))

    def get(self, segment_id: str) -> Segment:
        return cast(Segment, self._get(segment_id))

    def update(self, segment_id: str, params: CreateSegmentOptions) -> Segment:
        """Rename it: ``update(id, {"name": …})`` (Resend's Node signature: the id, then the changes)."""
        return cast(Segment, self._update(path_segment(segment_id), params))

    def contacts(self, segment_id: str, params: Optional[ListParams] = None) -> ContactList:
        """Its members, newest first (the same as ``contacts.list({"segment_id": …})``)."""
        path = f"/v1/segments/{path_segment(segment_id)}/contacts"
        return cast(ContactList, self._transport.request("GET", path, query=params))


class Topics(_Collection):
    base = "topics"

    def create(self, params: CreateTopicOptions) -> Topic:
        """``default_subscription`` (``opt_in`` or ``opt_out``) is what a contact who never chose receives; it is
        fixed once created. ``visibility`` ``public`` (the default) shows it on the preference page."""
        return cast(Topic, self._create(params))

    def list(self, params: Optional[ListParams] = None) -> TopicList:
        return cast(TopicList, self._list(params))

    def get(self, topic_id: str) -> Topic:
        return cast(Topic, self._get(topic_id))

    def update(self, params: UpdateTopicParams) -> Topic:
        """``{"id", …changes}``: name, description or visibility; what is left out stays."""
        topic_id, body = split_id(params, "id")
        return cast(Topic, self._update(topic_id, body))


class ContactProperties(_Collection):
    base = "contact-properties"

    def create(self, params: CreateContactPropertyOptions) -> ContactProperty:
        """A ``key`` (letters, digits, underscores), its ``type`` (``string`` or ``number``), a ``fallback_value``."""
        return cast(ContactProperty, self._create(params))

    def list(self, params: Optional[ListParams] = None) -> ContactPropertyList:
        return cast(ContactPropertyList, self._list(params))

    def get(self, property_id: str) -> ContactProperty:
        return cast(ContactProperty, self._get(property_id))

    def update(self, params: UpdateContactPropertyParams) -> ContactProperty:
        """``{"id", "fallback_value"}``: a property's key and type are fixed."""
        property_id, body = split_id(params, "id")
        return cast(ContactProperty, self._update(property_id, body))
