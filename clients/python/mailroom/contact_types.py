"""Typed shapes of contacts, contact properties, segments (Resend's older name: audiences), topics and CSV imports.

The answers and bodies come from ``generated.py`` (``npm run generate``); what is written here is the client's side:
which contact a call names (``id`` or ``email``, as Resend's SDKs take it), the list parameters, and the shapes the
server's document leaves unnamed (the import form, the membership answers), each checked by tests/test_contacts.py
against the server.
"""

from __future__ import annotations

from typing import IO, List, Literal, Mapping, TypedDict, Union

from .generated import (
    Contact as Contact,
    ContactImport as ContactImport,
    ContactImportCounts as ContactImportCounts,
    ContactImportError as ContactImportError,
    ContactProperty as ContactProperty,
    ContactPropertyValue as ContactPropertyValue,
    ContactTopic as ContactTopic,
    CreateContactOptions as CreateContactOptions,
    CreateContactPropertyOptions as CreateContactPropertyOptions,
    CreateSegmentOptions as CreateSegmentOptions,
    CreateTopicOptions as CreateTopicOptions,
    Segment as Segment,
    Topic as Topic,
    UpdateContactOptions as UpdateContactOptions,
    UpdateContactPropertyOptions as UpdateContactPropertyOptions,
    UpdateTopicOptions as UpdateTopicOptions,
)
from .types import ListParams

Subscription = Literal["opt_in", "opt_out"]


class TopicChoice(TypedDict):
    id: str
    subscription: Subscription


class IdRef(TypedDict):
    id: str


# ----------------------------------------------------------------------------------------------------------------
# Contacts


class CreateContactParams(CreateContactOptions, total=False):
    # Resend's older form: the contact joins that audience (segment).
    audience_id: str


class UpdateContactParams(UpdateContactOptions, total=False):
    """The contact by ``id`` or ``email`` (one of the two), then the changes; ``audience_id``: Resend's older form."""

    id: str
    email: str
    audience_id: str


class ContactListParams(ListParams, total=False):
    segment_id: str
    audience_id: str  # Resend's older name of segment_id


class ContactList(TypedDict):
    object: str
    has_more: bool
    data: List[Contact]


class ContactDeleted(TypedDict):
    object: str
    id: str
    contact: str  # the id again (Resend's field)
    deleted: bool


# ----------------------------------------------------------------------------------------------------------------
# A contact's segments and topics


class ContactSegmentsListParams(ListParams, total=False):
    """The contact by ``contact_id`` or ``email``, as Resend's ``Contacts.Segments`` takes it."""

    contact_id: str
    email: str


class ContactSegmentParams(TypedDict, total=False):
    segment_id: str
    contact_id: str
    email: str


class ContactSegmentAdded(TypedDict):
    id: str  # the segment
    contact_id: str


class ContactSegmentRemoved(ContactSegmentAdded):
    deleted: bool


class ContactTopicsListParams(ListParams, total=False):
    """The contact by ``id`` or ``email``."""

    id: str
    email: str


class UpdateContactTopicsParams(TypedDict, total=False):
    id: str
    email: str
    topics: List[TopicChoice]


class ContactTopicsUpdated(TypedDict):
    id: str  # the contact


class SegmentList(TypedDict):
    object: str
    has_more: bool
    data: List[Segment]


class ContactTopicList(TypedDict):
    object: str
    has_more: bool
    data: List[ContactTopic]


# ----------------------------------------------------------------------------------------------------------------
# CSV imports


class ImportPropertyColumn(TypedDict, total=False):
    column: str
    type: Literal["string", "number", "boolean"]


class ImportColumnMap(TypedDict, total=False):
    """Which CSV column holds each field; without one the header names ``email``, ``first_name``… are looked for."""

    email: str
    first_name: str
    last_name: str
    unsubscribed: str
    properties: Mapping[str, ImportPropertyColumn]


class CreateContactImportParams(TypedDict, total=False):
    """``file``: the CSV as bytes, as text, or an open binary file; ``filename`` names it (default contacts.csv)."""

    file: Union[bytes, str, IO[bytes]]
    filename: str
    column_map: ImportColumnMap
    on_conflict: Literal["upsert", "skip"]
    segments: List[IdRef]
    topics: List[TopicChoice]


class ContactImportCreated(TypedDict):
    object: str
    id: str


class ContactImportListParams(ListParams, total=False):
    status: Literal["queued", "in_progress", "completed", "failed"]


class ContactImportList(TypedDict):
    object: str
    has_more: bool
    data: List[ContactImport]


# ----------------------------------------------------------------------------------------------------------------
# Segments, topics, contact properties


UpdateTopicParams = UpdateTopicOptions  # its ``id`` names the topic


class UpdateContactPropertyParams(UpdateContactPropertyOptions, total=False):
    id: str


class TopicList(TypedDict):
    object: str
    has_more: bool
    data: List[Topic]


class ContactPropertyList(TypedDict):
    object: str
    has_more: bool
    data: List[ContactProperty]
