"""OpenAI Chat Completions' content parts, both ways: the list form of a message's ``content``.

``ChatMessage.from_dict`` and ``to_wire`` (the OpenAI wire is toolturns' own)
read and write parts here, so the shapes live beside OpenAI's other rules.

- ``text``, ``image_url`` (``url``, ``detail``), ``input_audio`` (``data``,
  ``format``) and ``file`` (``file_data``, ``file_id``, ``filename``) are the
  four parts. An image's or a file's base64 data travels in a ``data:`` URL
  (``data:image/png;base64,...``); a part holds the data alone, so a URL of
  that form reads as ``data`` and ``media_type`` and is written back byte for
  byte.
- A part's keys toolturns does not model (OpenAI's ``prompt_cache_breakpoint``,
  OpenRouter's ``cache_control``), and those of its nested object, are kept in
  the part's ``provider_data["openai"]`` and written back: nothing a part
  carries vanishes. Null and empty values carry nothing and are not kept, as
  for a message's unknown keys.
- An assistant's ``refusal`` parts are not content parts of the model: they
  are kept, where they stood, in the message's ``provider_data["openai"]``
  items and written back by this wire only.

Errors name the wire's own path (``content[1].image_url.url``), never the
part's field (``data``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..._content import PART_TYPES, AudioPart, ContentPart, FilePart, ImagePart, TextPart
from ..._errors import InvalidMessage, MessageError, describe, renamed
from ..._extra import EMPTY
from .._native import kept, placed, replay_of, unmodelled
from . import rules

if TYPE_CHECKING:
    from ..._message import ChatMessage

__all__ = ["read_parts", "replayed_content", "write_parts"]

_PROVIDER = "openai"
_DATA_URL = "data:"

# The keys each part's object and its nested object carry, by the part's type.
_TEXT_KEYS = frozenset({"type", "text"})
_IMAGE_KEYS = frozenset({"type", "image_url"})
_IMAGE_URL_KEYS = frozenset({"url", "detail"})
_AUDIO_KEYS = frozenset({"type", "input_audio"})
_INPUT_AUDIO_KEYS = frozenset({"data", "format"})
_FILE_KEYS = frozenset({"type", "file"})
_FILE_FILE_KEYS = frozenset({"file_data", "file_id", "filename"})
_REFUSAL_KEYS = frozenset({"type", "refusal"})

# Where a part's field stands on the wire, for the errors a part raises.
_IMAGE_PATHS = {"url": "image_url.url", "media_type": "image_url.url", "detail": "image_url.detail"}
_AUDIO_PATHS = {"data": "input_audio.data", "format": "input_audio.format"}
_FILE_PATHS = {
    "url": "file.file_data",
    "media_type": "file.file_data",
    "file_id": "file.file_id",
    "filename": "file.filename",
}

_TYPES = "must be one of 'text', 'image_url', 'input_audio', 'file' (and 'refusal' in an assistant turn)"
# OpenAI Responses API parts, which a Chat Completions message does not take.
_RESPONSES_PARTS = frozenset({"input_text", "input_image", "input_file", "input_audio_url", "output_text"})
_DATA_URL_RULE = "must be a data URL of base64 data (data:<media type>;base64,<data>)"


# -- reading ------------------------------------------------------------------------------


def read_parts(
    content: Sequence[object], role: object
) -> tuple[tuple[ContentPart, ...] | str, Mapping[str, Any] | None]:
    """A message's ``content`` list: its parts, and the message's provider_data (or None).

    The provider_data keeps an assistant's refusal parts, where they stood; a
    turn of refusals only has no other content (``""``). ``role`` is the
    message's, as given: refusal parts belong to assistant turns only.
    """
    if not content:
        raise InvalidMessage("content", "must not be an empty array of parts (send '' for no text)", "[]")
    parts: list[ContentPart] = []
    refusals: list[tuple[int, dict[str, Any]]] = []
    for index, item in enumerate(content):
        try:
            if isinstance(item, Mapping) and item.get("type") == "refusal":
                refusals.append((index, _read_refusal(item, role)))
            else:
                parts.append(_read_part(item))
        except MessageError as error:
            raise error.with_prefix(f"content[{index}]") from None
    if not refusals:
        return tuple(parts), None
    return tuple(parts) or "", kept(_PROVIDER, items=refusals)


def _read_part(item: object) -> ContentPart:
    if isinstance(item, PART_TYPES):  # a part built already, in a dict a caller made
        return item
    if not isinstance(item, Mapping):
        raise InvalidMessage("", "must be an object (a content part)", describe(item))
    kind = item.get("type")
    if kind == "text":
        return _read_text(item)
    if kind == "image_url":
        return _read_image(item)
    if kind == "input_audio":
        return _read_audio(item)
    if kind == "file":
        return _read_file(item)
    if isinstance(kind, str) and kind in _RESPONSES_PARTS:
        rule = f"{_TYPES}: {kind!r} is a part of OpenAI's Responses API, not of a Chat Completions message"
        raise InvalidMessage("type", rule, describe(kind))
    raise InvalidMessage("type", _TYPES, describe(kind))


def _read_text(item: Mapping[str, Any]) -> TextPart:
    text: Any = item.get("text")  # TextPart checks it
    if item.keys() <= _TEXT_KEYS:  # the common case, tested in C
        return TextPart(text)
    return TextPart(text, provider_data=kept(_PROVIDER, keys=unmodelled(item, _TEXT_KEYS)))


def _read_image(item: Mapping[str, Any]) -> ImagePart:
    image = _member(item, "image_url")
    url = image.get("url")
    if not isinstance(url, str) or not url:
        raise InvalidMessage(
            "image_url.url", "must be a non-empty string (a URL, or a data URL of the image)", describe(url)
        )
    provider_data = _kept(item, _IMAGE_KEYS, "image_url", image, _IMAGE_URL_KEYS)
    detail = image.get("detail")
    try:
        # A data: URL is the image's data: the part keeps the URL whole, to write it back uncopied.
        return ImagePart(url=url, detail=detail, provider_data=provider_data)
    except MessageError as error:
        raise _on_the_wire(error, _IMAGE_PATHS) from None


def _read_audio(item: Mapping[str, Any]) -> AudioPart:
    audio = _member(item, "input_audio")
    provider_data = _kept(item, _AUDIO_KEYS, "input_audio", audio, _INPUT_AUDIO_KEYS)
    try:
        return AudioPart(data=audio.get("data"), format=audio.get("format"), provider_data=provider_data)  # type: ignore[arg-type]  # AudioPart checks them
    except MessageError as error:
        raise _on_the_wire(error, _AUDIO_PATHS) from None


def _read_file(item: Mapping[str, Any]) -> FilePart:
    file = _member(item, "file")
    file_data, file_id = file.get("file_data"), file.get("file_id")
    if (file_data is None) == (file_id is None):
        got = "neither" if file_data is None else "both"
        raise InvalidMessage("file", "must have one of file_data (a data URL of the file) and file_id", got)
    provider_data = _kept(item, _FILE_KEYS, "file", file, _FILE_FILE_KEYS)
    filename = file.get("filename")
    try:
        if file_data is None:
            return FilePart(file_id=file_id, filename=filename, provider_data=provider_data)
        if not isinstance(file_data, str) or not str.startswith(file_data, _DATA_URL):
            raise InvalidMessage("file.file_data", _DATA_URL_RULE, describe(file_data))
        return FilePart(url=file_data, filename=filename, provider_data=provider_data)
    except MessageError as error:
        raise _on_the_wire(error, _FILE_PATHS) from None


def _read_refusal(item: Mapping[str, Any], role: object) -> dict[str, Any]:
    if role != "assistant":
        raise InvalidMessage(
            "type",
            f"must not be 'refusal' in a message of role {describe(role)}: only an assistant turn carries one",
            "'refusal'",
        )
    refusal = item.get("refusal")
    if not isinstance(refusal, str):
        raise InvalidMessage("refusal", "must be a string (the model's refusal)", describe(refusal))
    # The whole part, its other keys checked as JSON; the refusal even when it is "".
    return {"type": "refusal", "refusal": refusal, **unmodelled(item, _REFUSAL_KEYS)}


def _member(item: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = item.get(key)
    if not isinstance(value, Mapping):
        raise InvalidMessage(key, "must be an object", describe(value))
    return value


def _kept(
    item: Mapping[str, Any],
    modelled: frozenset[str],
    member: str,
    native: Mapping[str, Any],
    member_modelled: frozenset[str],
) -> Mapping[str, Any] | None:
    """The provider_data keeping the keys of a part and of its nested object that no field models."""
    if item.keys() <= modelled and native.keys() <= member_modelled:  # the common case
        return None
    return kept(
        _PROVIDER,
        keys=unmodelled(item, modelled),
        nested={member: unmodelled(native, member_modelled, path=member)},
    )


def _on_the_wire(error: MessageError, paths: Mapping[str, str]) -> MessageError:
    """``error``, a part's, at the wire's path of the field it names."""
    for core, native in paths.items():
        moved = renamed(error, core, native)
        if moved is not error:
            return moved
    return error


# -- writing ------------------------------------------------------------------------------


def write_parts(parts: tuple[ContentPart, ...]) -> list[dict[str, Any]]:
    """Parts as a message's ``content`` list; InvalidMessage at ``content[i]`` for a part this
    wire cannot express (``rules.not_carried``) or whose kept data is malformed."""
    written = []
    for position, part in enumerate(parts):
        if type(part) is TextPart and part.provider_data is EMPTY:  # the common case
            written.append({"type": "text", "text": part.text})
            continue
        try:
            written.append(_write_part(part))
        except MessageError as error:
            raise error.with_prefix(f"content[{position}]") from None
    return written


def _write_part(part: ContentPart) -> dict[str, Any]:
    missing = rules.not_carried(part)
    if missing is not None:
        field, what = missing
        raise InvalidMessage(field, f"cannot be sent: {what}")
    if isinstance(part, TextPart):
        return _with_kept({"type": "text", "text": part.text}, part, _TEXT_KEYS)
    if isinstance(part, ImagePart):
        image: dict[str, Any] = {"url": part.url if part.url is not None else part.data_url}
        if part.detail is not None:
            image["detail"] = part.detail
        return _with_kept(
            {"type": "image_url", "image_url": image}, part, _IMAGE_KEYS, "image_url", _IMAGE_URL_KEYS
        )
    if isinstance(part, AudioPart):
        audio = {"data": part.data, "format": part.format}
        return _with_kept(
            {"type": "input_audio", "input_audio": audio}, part, _AUDIO_KEYS, "input_audio", _INPUT_AUDIO_KEYS
        )
    # The fourth part, a file: ChatMessage holds parts only.
    file: dict[str, Any] = {}
    if part.data is not None:
        file["file_data"] = part.data_url
    else:  # not_carried refused a URL: the source is a file id
        file["file_id"] = part.file_id
    if part.filename is not None:
        file["filename"] = part.filename
    return _with_kept({"type": "file", "file": file}, part, _FILE_KEYS, "file", _FILE_FILE_KEYS)


def _with_kept(
    wire: dict[str, Any],
    part: ContentPart,
    modelled: frozenset[str],
    member: str | None = None,
    member_modelled: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """``wire`` with the keys the part was read with beyond its fields, back where they were:
    on the part's object, and on its nested object ``member`` (``image_url``)."""
    replay = replay_of(
        part.provider_data,
        _PROVIDER,
        InvalidMessage,
        keys=modelled,
        nested=None if member is None else {member: member_modelled},
    )
    wire.update(replay.keys)
    if member is not None:
        wire[member].update(replay.nested_keys(member))
    return wire


def replayed_content(message: ChatMessage) -> list[dict[str, Any]] | None:
    """A message's ``content`` with the refusal parts it was read with back in place; None when it kept none.

    For a message with provider_data (most have none, and are not asked).
    """
    replay = replay_of(message.provider_data, _PROVIDER, InvalidMessage, items=True)
    if not replay.items:
        return None
    content = message.content
    if type(content) is tuple:
        modelled = write_parts(content)
    else:  # refusals alone, or refusals beside the text of a message built with them
        modelled = [{"type": "text", "text": content}] if content else []
    return placed(replay, modelled)
