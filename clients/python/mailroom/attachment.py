"""Building the ``attachments`` entries of a send from bytes (the wire wants base64 text)."""

from __future__ import annotations

import base64
from typing import Optional, Union

from .types import Attachment


def attachment(
    filename: str,
    content: Union[bytes, str],
    *,
    content_type: Optional[str] = None,
    content_id: Optional[str] = None,
) -> Attachment:
    """An attachment of ``content`` (bytes, or text sent as UTF-8). ``content_id`` makes it inline (``cid:``)."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    entry: Attachment = {"filename": filename, "content": base64.b64encode(data).decode("ascii")}
    if content_type:
        entry["content_type"] = content_type
    if content_id:
        entry["content_id"] = content_id
    return entry
