"""OpenAI Chat Completions' content parts, both ways: the list form of a message's ``content``.

``ChatMessage.from_dict`` and ``to_wire`` (the OpenAI wire is toolturns' own)
read and write parts here, so the shapes live beside OpenAI's other rules.

An image's or a file's base64 data travels in a ``data:`` URL
(``data:image/png;base64,...``); a part holds the data alone, so a URL of
that form reads as ``data`` and ``media_type`` and is written back byte for
byte.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..._content import PART_TYPES, AudioPart, ContentPart, FilePart, ImagePart, TextPart
from ..._errors import InvalidMessage, MessageError, describe

__all__ = ["read_parts", "write_parts"]

_DATA_URL_PREFIX = "data:"
_BASE64_MARK = ";base64,"


def read_parts(content: Sequence[object]) -> tuple[ContentPart, ...]:
    """A message's ``content`` list as parts; InvalidMessage at ``content[i]...`` otherwise."""
    if not content:
        raise InvalidMessage("content", "must not be an empty array of parts (send '' for no text)", "[]")
    parts = []
    for index, item in enumerate(content):
        try:
            parts.append(_read_part(item))
        except MessageError as error:
            raise error.with_prefix(f"content[{index}]") from None
    return tuple(parts)


def _read_part(item: object) -> ContentPart:
    if isinstance(item, PART_TYPES):  # a part built already, in a dict a caller made
        return item
    if not isinstance(item, Mapping):
        raise InvalidMessage("", "must be an object (a content part)", describe(item))
    kind = item.get("type")
    if kind == "text":
        return TextPart(item.get("text"))  # type: ignore[arg-type]  # TextPart checks it
    if kind == "image_url":
        image = _member(item, "image_url")
        url = image.get("url")
        if isinstance(url, str) and url.startswith(_DATA_URL_PREFIX):
            media_type, data = _split_data_url(url, "image_url.url")
            return ImagePart(data=data, media_type=media_type, detail=image.get("detail"))
        return ImagePart(url=url, detail=image.get("detail"))
    if kind == "input_audio":
        audio = _member(item, "input_audio")
        return AudioPart(data=audio.get("data"), format=audio.get("format"))  # type: ignore[arg-type]
    if kind == "file":
        file = _member(item, "file")
        file_data = file.get("file_data")
        if isinstance(file_data, str):
            media_type, data = _split_data_url(file_data, "file.file_data")
            return FilePart(data=data, media_type=media_type, filename=file.get("filename"))
        return FilePart(file_id=file.get("file_id"), filename=file.get("filename"))
    raise InvalidMessage("type", "must be one of 'text', 'image_url', 'input_audio', 'file'", describe(kind))


def _member(item: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = item.get(key)
    if not isinstance(value, Mapping):
        raise InvalidMessage(key, "must be an object", describe(value))
    return value


def _split_data_url(url: str, path: str) -> tuple[str, str]:
    """A ``data:<media type>;base64,<data>`` URL's media type and data."""
    mark = url.find(_BASE64_MARK, 0, 200)
    if mark < 0:
        raise InvalidMessage(
            path, "must be a data URL of base64 data (data:<media type>;base64,<data>)", describe(url)
        )
    return url[len(_DATA_URL_PREFIX) : mark], url[mark + len(_BASE64_MARK) :]


def write_parts(parts: tuple[ContentPart, ...]) -> list[dict[str, Any]]:
    """Parts as a message's ``content`` list."""
    return [_write_part(part) for part in parts]


def _write_part(part: ContentPart) -> dict[str, Any]:
    if isinstance(part, TextPart):
        return {"type": "text", "text": part.text}
    if isinstance(part, ImagePart):
        url = part.url if part.data is None else f"data:{part.media_type};base64,{part.data}"
        image: dict[str, Any] = {"url": url}
        if part.detail is not None:
            image["detail"] = part.detail
        return {"type": "image_url", "image_url": image}
    if isinstance(part, AudioPart):
        return {"type": "input_audio", "input_audio": {"data": part.data, "format": part.format}}
    file: dict[str, Any] = {}
    if part.data is not None:
        file["file_data"] = f"data:{part.media_type};base64,{part.data}"
    elif part.file_id is not None:
        file["file_id"] = part.file_id
    if part.filename is not None:
        file["filename"] = part.filename
    return {"type": "file", "file": file}
