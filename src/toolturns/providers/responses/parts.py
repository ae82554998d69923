"""The Responses API's content parts: ``input_text``/``output_text``, ``input_image``, ``input_file``.

A part's keys the model does not hold (an ``output_text``'s ``annotations``
and ``logprobs``) are kept in the part's ``provider_data["responses"]`` and
written back to this wire only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..._content import ContentPart, FilePart, ImagePart, TextPart
from ..._errors import InvalidMessage, MessageError, describe
from ..._extra import EMPTY
from ..._sdk import dumped
from .._native import kept, replay_of, unmodelled

__all__ = ["read_part", "write_part"]

_PROVIDER = "responses"

_TEXT_KEYS = frozenset({"type", "text"})
_IMAGE_KEYS = frozenset({"type", "image_url", "detail"})
_FILE_KEYS = frozenset({"type", "file_data", "filename", "file_id", "file_url"})


def write_part(part: ContentPart, text_type: str) -> dict[str, Any]:
    """A part as the wire has it; ``text_type`` is ``input_text`` or ``output_text``.

    ``check_part`` has refused what the wire cannot carry.
    """
    if isinstance(part, TextPart):
        item: dict[str, Any] = {"type": text_type, "text": part.text}
        keys = _TEXT_KEYS
    elif isinstance(part, ImagePart):
        item = {"type": "input_image", "image_url": part.data_url if part.url is None else part.url}
        if part.detail is not None:  # the API's default is "auto"; None stays None
            item["detail"] = part.detail
        keys = _IMAGE_KEYS
    else:
        assert isinstance(part, FilePart)
        item = {"type": "input_file"}
        if part.data_url is not None:
            item["file_data"] = part.data_url
        if part.file_id is not None:
            item["file_id"] = part.file_id
        if part.url is not None:
            item["file_url"] = part.url
        if part.filename is not None:
            item["filename"] = part.filename
        keys = _FILE_KEYS
    if part.provider_data is not EMPTY:
        item.update(replay_of(part.provider_data, _PROVIDER, InvalidMessage, keys=keys).keys)
    return item


def read_part(value: object, path: str) -> ContentPart:
    """One part of a message's or a function call output's content; refuses a type it does not know."""
    value = dumped(value)
    if not isinstance(value, Mapping):
        raise InvalidMessage(path, "must be a content part object", describe(value))
    kind = value.get("type")
    if kind in ("input_text", "output_text"):
        text = value.get("text")
        if not isinstance(text, str):
            raise InvalidMessage(f"{path}.text", "must be a string", describe(text))
        return TextPart(text, provider_data=_kept(value, _TEXT_KEYS, path))
    if kind == "input_image":
        url = value.get("image_url")
        if not isinstance(url, str):
            raise InvalidMessage(
                f"{path}.image_url", "must be a string (a URL or a data: URL)", describe(url)
            )
        detail = value.get("detail")
        return _part(ImagePart, path, url=url, detail=detail, provider_data=_kept(value, _IMAGE_KEYS, path))
    if kind == "input_file":
        if "file_url" in value and "file_data" in value:
            raise InvalidMessage(path, "must have file_data or file_url, not both", describe(dict(value)))
        return _part(
            FilePart,
            path,
            url=value.get("file_url", value.get("file_data")),
            file_id=value.get("file_id"),
            filename=value.get("filename"),
            provider_data=_kept(value, _FILE_KEYS, path),
        )
    raise InvalidMessage(
        f"{path}.type", "must be 'input_text', 'output_text', 'input_image' or 'input_file'", describe(kind)
    )


def _part(cls: type[ImagePart | FilePart], path: str, **fields: Any) -> ContentPart:
    try:
        return cls(**fields)
    except MessageError as error:
        raise error.with_prefix(path) from None


def _kept(value: Mapping[str, Any], modelled: frozenset[str], path: str) -> Mapping[str, Any] | None:
    return kept(_PROVIDER, keys=unmodelled(value, modelled, path=path))
