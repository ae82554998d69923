"""Anthropic's content blocks as content parts, both ways: ``text``, ``image`` and ``document``.

A block toolturns models becomes a part: a ``text`` block a ``TextPart``; an
``image`` with a ``base64`` or ``url`` source an ``ImagePart``; a
``document`` with a ``base64``, ``url``, ``text`` or ``file`` source a
``FilePart`` (its ``title`` is the part's ``filename``). A plain-text
document's text is held as the base64 of its UTF-8 bytes with media type
``text/plain``, and written back as a text source, the same text.

What else a block or its source carries (``cache_control``, ``citations``,
``context``) is kept in the part's ``provider_data["anthropic"]`` (``keys``,
and ``nested["source"]``) and written back on the same block. A block that is
not a part (``search_result``, an image from the Files API, a document of
content blocks) is not read here: the message keeps it whole.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

from ..._content import ContentPart, FilePart, ImagePart, TextPart
from ..._errors import InvalidMessage, at, describe
from .._native import kept, replay_of, unmodelled
from .blocks import DOCUMENT_KEYS, IMAGE_KEYS, SOURCE_KEYS, TEXT_KEYS
from .rules import PLAIN_TEXT, plain_text

__all__ = ["part_block", "read_part"]

_PROVIDER = "anthropic"
_SOURCE = "source"

# What each source type says, besides its type: the keys that make the part.
_IMAGE_SOURCES = {"base64": ("media_type", "data"), "url": ("url",)}
_DOCUMENT_SOURCES = {
    "base64": ("media_type", "data"),
    "text": ("media_type", "data"),
    "url": ("url",),
    "file": ("file_id",),
}


# -- reading ------------------------------------------------------------------------------


def read_part(block: Mapping[str, Any]) -> ContentPart | None:
    """The part a user turn's or a tool result's block is, or None for a block that is no part.

    Raises:
        InvalidMessage: a malformed block, at its own path (``source.data``).
    """
    kind = block["type"]
    if kind == "text":
        return TextPart(block.get("text"), provider_data=_kept(block, TEXT_KEYS))  # type: ignore[arg-type]
    if kind == "image":
        return _read_image(block)
    if kind == "document":
        return _read_document(block)
    return None


def _read_image(block: Mapping[str, Any]) -> ImagePart | None:
    source, fields = _source(block, _IMAGE_SOURCES)
    if fields is None:
        return None  # a file_id (the Files API) or a newer source: kept whole
    provider_data = _kept(block, IMAGE_KEYS, source)
    with at(_SOURCE):
        if "url" in fields:
            return ImagePart(url=fields["url"], provider_data=provider_data)
        return ImagePart(data=fields["data"], media_type=fields["media_type"], provider_data=provider_data)


def _read_document(block: Mapping[str, Any]) -> FilePart | None:
    source, fields = _source(block, _DOCUMENT_SOURCES)
    if fields is None:
        return None  # content blocks as a document, or a newer source: kept whole
    if source["type"] == "text":
        fields["data"] = _text_as_base64(fields["data"])
    title = block.get("title")
    if title is not None and (not isinstance(title, str) or not title):
        raise InvalidMessage("title", "must be a non-empty string or null", describe(title))
    provider_data = _kept(block, DOCUMENT_KEYS, source)
    with at(_SOURCE):
        return FilePart(**fields, filename=title, provider_data=provider_data)


def _source(
    block: Mapping[str, Any], sources: Mapping[str, tuple[str, ...]]
) -> tuple[Mapping[str, Any], dict[str, Any] | None]:
    """A block's source, and the fields of it the part holds (None: a source type toolturns keeps whole)."""
    source = block.get(_SOURCE)
    if not isinstance(source, Mapping):
        raise InvalidMessage(_SOURCE, "must be an object (the block's source)", describe(source))
    kind = source.get("type")
    if not isinstance(kind, str):
        raise InvalidMessage("source.type", "must be a string (the source type)", describe(kind))
    if kind not in sources:
        return source, None
    for key in SOURCE_KEYS.difference(sources[kind], ("type",)):
        if source.get(key) is not None:
            raise InvalidMessage(f"source.{key}", f"is not a key of a {kind} source", describe(source[key]))
    fields = {}
    for key in sources[kind]:
        if source.get(key) is None:
            raise InvalidMessage(f"source.{key}", f"is required in a {kind} source")
        fields[key] = source[key]
    return source, fields


def _text_as_base64(text: object) -> str:
    """A plain-text document's text as the base64 of its UTF-8 bytes (a copy: such documents are small)."""
    if not isinstance(text, str) or not text:
        raise InvalidMessage(
            "source.data", "must be a non-empty string (the document's text)", describe(text)
        )
    try:
        encoded = text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InvalidMessage(
            "source.data",
            "must be text UTF-8 can encode (no lone surrogate)",
            f"{describe(text)} ({error.reason})",
        ) from None
    return base64.b64encode(encoded).decode("ascii")


def _kept(
    block: Mapping[str, Any], modelled: frozenset[str], source: Mapping[str, Any] | None = None
) -> Mapping[str, Any] | None:
    """The provider_data that keeps a block's other keys, and its source's."""
    nested = None if source is None else {_SOURCE: unmodelled(source, SOURCE_KEYS, path=_SOURCE)}
    return kept(_PROVIDER, keys=unmodelled(block, modelled), nested=nested)


# -- writing ------------------------------------------------------------------------------


_NESTED = {_SOURCE: SOURCE_KEYS}


def part_block(part: ContentPart) -> dict[str, Any]:
    """The block of a part this wire carries (``rules.check_part`` refused the others first)."""
    if type(part) is TextPart:
        keys = replay_of(part.provider_data, _PROVIDER, InvalidMessage, keys=TEXT_KEYS).keys
        return {"type": "text", "text": part.text, **keys}
    if type(part) is ImagePart:
        replay = replay_of(part.provider_data, _PROVIDER, InvalidMessage, keys=IMAGE_KEYS, nested=_NESTED)
        if part.data is None:
            source: dict[str, Any] = {"type": "url", "url": part.url}
        else:
            source = {"type": "base64", "media_type": part.media_type, "data": part.data}
        block: dict[str, Any] = {"type": "image"}
    else:
        file: FilePart = part  # type: ignore[assignment]  # check_part refused audio
        replay = replay_of(file.provider_data, _PROVIDER, InvalidMessage, keys=DOCUMENT_KEYS, nested=_NESTED)
        source = _file_source(file)
        block = {"type": "document"}
        if file.filename is not None:
            block["title"] = file.filename
    block[_SOURCE] = {**source, **replay.nested_keys(_SOURCE)}
    block.update(replay.keys)
    return block


def _file_source(file: FilePart) -> dict[str, Any]:
    if file.data is None:
        if file.file_id is not None:
            return {"type": "file", "file_id": file.file_id}
        return {"type": "url", "url": file.url}
    if file.media_type == PLAIN_TEXT:
        return {"type": "text", "media_type": PLAIN_TEXT, "data": plain_text(file.data)}
    return {"type": "base64", "media_type": file.media_type, "data": file.data}
