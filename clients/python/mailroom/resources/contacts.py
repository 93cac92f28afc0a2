"""Contacts by id or address (docs/contacts.md#addresses), with Resend's names: create, get, list, update, remove,
and nested ``imports`` (CSV uploads, docs/contacts.md#imports), ``segments`` (membership) and ``topics`` (the
contact's choices). ``audience_id`` uses Resend's older ``/audiences/{id}/contacts`` paths, which act within that
segment only. Every contact named in a path is encoded, so ``a+b@example.com`` reaches the server intact."""

from __future__ import annotations

import json
import os
import uuid
from typing import Any, Dict, List, Mapping, Optional, Tuple, cast

from .._http import Transport, path_segment
from ..contact_types import (
    Contact,
    ContactDeleted,
    ContactImport,
    ContactImportCreated,
    ContactImportList,
    ContactImportListParams,
    ContactList,
    ContactListParams,
    ContactSegmentAdded,
    ContactSegmentParams,
    ContactSegmentRemoved,
    ContactSegmentsListParams,
    ContactTopicList,
    ContactTopicsListParams,
    ContactTopicsUpdated,
    CreateContactImportParams,
    CreateContactParams,
    SegmentList,
    UpdateContactParams,
    UpdateContactTopicsParams,
)
from ._base import Resource


def _one_of(params: Mapping[str, Any], *keys: str) -> str:
    """The path segment of the contact: the first of ``keys`` present (an id or an address)."""
    for key in keys:
        if params.get(key):
            return path_segment(params[key])
    raise ValueError(f"name the contact by {' or '.join(repr(k) for k in keys)}")


def _contact_path(contact: str, audience_id: Optional[str]) -> str:
    if audience_id:
        return f"/v1/audiences/{path_segment(audience_id)}/contacts/{contact}"
    return f"/v1/contacts/{contact}"


def _page(params: Optional[Mapping[str, Any]], *drop: str) -> Dict[str, Any]:
    return {k: v for k, v in (params or {}).items() if k not in drop}


def _multipart(fields: List[Tuple[str, str]], filename: str, content: bytes) -> Tuple[bytes, str]:
    """A multipart/form-data body (RFC 7578) with the text ``fields`` and the CSV as ``file``."""
    boundary = f"mailroom-{uuid.uuid4().hex}"
    parts: List[bytes] = []
    for name, value in fields:
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode() + value.encode())
    # A quote or line break in a file name would end its header: they are replaced, never sent.
    safe = "".join("_" if c in '"\r\n\\' else c for c in filename)
    head = f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{safe}"\r\n'
    parts.append((head + "Content-Type: text/csv\r\n\r\n").encode() + content)
    body = b"\r\n".join(parts) + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


class ContactImports(Resource):
    def create(self, params: CreateContactImportParams) -> ContactImportCreated:
        """Upload a CSV (``file``: bytes, text or an open binary file); it is imported in the background, so follow
        ``get(id)``, whose counts move after every batch of lines."""
        file = params.get("file")
        if file is None:
            raise ValueError("file (the CSV) is required")
        if isinstance(file, str):
            content = file.encode("utf-8")
        elif isinstance(file, (bytes, bytearray)):
            content = bytes(file)
        else:
            content = file.read()
        default_name = os.path.basename(getattr(file, "name", "") or "") or "contacts.csv"
        fields: List[Tuple[str, str]] = []
        for key in ("column_map", "segments", "topics"):
            if params.get(key) is not None:
                fields.append((key, json.dumps(params[key])))  # type: ignore[literal-required]
        if params.get("on_conflict"):
            fields.append(("on_conflict", str(params["on_conflict"])))
        body, content_type = _multipart(fields, params.get("filename") or default_name, content)
        answer = self._transport.request("POST", "/v1/contacts/imports", body=body, content_type=content_type)
        return cast(ContactImportCreated, answer)

    def list(self, params: Optional[ContactImportListParams] = None) -> ContactImportList:
        """Newest first; ``status`` filters."""
        return cast(ContactImportList, self._transport.request("GET", "/v1/contacts/imports", query=params))

    def get(self, import_id: str) -> ContactImport:
        """Its status, counts and the first lines that failed (``errors``, each with its ``line``)."""
        path = f"/v1/contacts/imports/{path_segment(import_id)}"
        return cast(ContactImport, self._transport.request("GET", path))


class ContactSegments(Resource):
    """The contact by ``contact_id`` or ``email``, as Resend's ``Contacts.Segments`` names it."""

    def list(self, params: ContactSegmentsListParams) -> SegmentList:
        contact = _one_of(params, "contact_id", "email")
        query = _page(params, "contact_id", "email")
        return cast(SegmentList, self._transport.request("GET", f"/v1/contacts/{contact}/segments", query=query))

    def add(self, params: ContactSegmentParams) -> ContactSegmentAdded:
        path = self._path(params)
        return cast(ContactSegmentAdded, self._transport.request("POST", path))

    def remove(self, params: ContactSegmentParams) -> ContactSegmentRemoved:
        path = self._path(params)
        return cast(ContactSegmentRemoved, self._transport.request("DELETE", path))

    @staticmethod
    def _path(params: ContactSegmentParams) -> str:
        contact = _one_of(params, "contact_id", "email")
        return f"/v1/contacts/{contact}/segments/{path_segment(params.get('segment_id', ''))}"


class ContactTopics(Resource):
    """The contact by ``id`` or ``email``."""

    def list(self, params: ContactTopicsListParams) -> ContactTopicList:
        """Every topic with the contact's effective ``subscription`` (its own choice, else the topic's default)."""
        contact = _one_of(params, "id", "email")
        query = _page(params, "id", "email")
        return cast(ContactTopicList, self._transport.request("GET", f"/v1/contacts/{contact}/topics", query=query))

    def update(self, params: UpdateContactTopicsParams) -> ContactTopicsUpdated:
        """Set the contact's choice for each topic given (``topics: [{"id", "subscription"}]``); the rest stay."""
        contact = _one_of(params, "id", "email")
        body = {"topics": params.get("topics", [])}
        answer = self._transport.request("PATCH", f"/v1/contacts/{contact}/topics", body=body)
        return cast(ContactTopicsUpdated, answer)


class Contacts(Resource):
    def __init__(self, transport: Transport) -> None:
        super().__init__(transport)
        self.imports = ContactImports(transport)
        self.segments = ContactSegments(transport)
        self.topics = ContactTopics(transport)

    def create(self, params: CreateContactParams) -> Contact:
        """A contact with its properties, ``segments`` and topic choices; ``audience_id`` adds it to that segment."""
        body = dict(params)
        audience_id = body.pop("audience_id", None)
        path = f"/v1/audiences/{path_segment(audience_id)}/contacts" if audience_id else "/v1/contacts"
        return cast(Contact, self._transport.request("POST", path, body=body))

    def get(
        self, id: Optional[str] = None, *, email: Optional[str] = None, audience_id: Optional[str] = None
    ) -> Contact:
        """By id or address (``get("a@example.org")`` works too), with ``properties``: each value, or its fallback."""
        contact = _one_of({"id": id, "email": email}, "id", "email")
        return cast(Contact, self._transport.request("GET", _contact_path(contact, audience_id)))

    def list(self, params: Optional[ContactListParams] = None) -> ContactList:
        """Newest first; ``segment_id`` lists one segment's members."""
        query = _page(params, "segment_id", "audience_id")
        segment_id = (params or {}).get("segment_id") or (params or {}).get("audience_id")
        if segment_id:
            query["segment_id"] = segment_id
        return cast(ContactList, self._transport.request("GET", "/v1/contacts", query=query))

    def update(self, params: UpdateContactParams) -> Contact:
        """``{"id" or "email", …changes}``: what is left out stays; ``None`` clears a name or removes a property."""
        contact = _one_of(params, "id", "email")
        body = {k: v for k, v in params.items() if k not in ("id", "email", "audience_id")}
        path = _contact_path(contact, params.get("audience_id"))
        return cast(Contact, self._transport.request("PATCH", path, body=body))

    def remove(
        self, id: Optional[str] = None, *, email: Optional[str] = None, audience_id: Optional[str] = None
    ) -> ContactDeleted:
        """By id or address; with ``audience_id``, the contact leaves that segment only."""
        contact = _one_of({"id": id, "email": email}, "id", "email")
        return cast(ContactDeleted, self._transport.request("DELETE", _contact_path(contact, audience_id)))
