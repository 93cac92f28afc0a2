"""Typed shapes of broadcasts (docs/broadcasts.md#operations). The answers and bodies come from ``generated.py``
(``npm run generate``); what is written here is the client's side: the recipients' filters and the short answers the
server's document leaves unnamed."""

from __future__ import annotations

from typing import List, Literal, TypedDict

from .generated import (
    Broadcast as Broadcast,
    BroadcastClickedLink as BroadcastClickedLink,
    BroadcastCounts as BroadcastCounts,
    BroadcastCountsByStatus as BroadcastCountsByStatus,
    BroadcastRecipient as BroadcastRecipient,
    BroadcastSummary as BroadcastSummary,
    BroadcastTemplate as BroadcastTemplate,
    CreateBroadcastOptions as CreateBroadcastOptions,
    UpdateBroadcastOptions as UpdateBroadcastOptions,
)
from .types import ListParams

# ``scheduled_at`` may also be a ``datetime``: the client writes it as ISO 8601.
CreateBroadcastParams = CreateBroadcastOptions
UpdateBroadcastParams = UpdateBroadcastOptions

RecipientEventType = Literal[
    "sent", "delivered", "opened", "clicked", "bounced", "complained", "unsubscribed", "suppressed"
]


class BroadcastRecipientListParams(ListParams, total=False):
    type: RecipientEventType
    email: str
    bounce_type: Literal["permanent", "transient", "undetermined"]


class BroadcastId(TypedDict):
    """The answer of create, update and send."""

    id: str


class BroadcastRef(TypedDict):
    """The answer of cancel and duplicate (duplicate: the new draft's id)."""

    object: str
    id: str


class BroadcastDeleted(BroadcastRef):
    deleted: bool


class BroadcastList(TypedDict):
    object: str
    has_more: bool
    data: List[BroadcastSummary]


class BroadcastRecipientList(TypedDict):
    object: str
    has_more: bool
    data: List[BroadcastRecipient]


class BroadcastClickedLinkList(TypedDict):
    object: str
    has_more: bool
    data: List[BroadcastClickedLink]
