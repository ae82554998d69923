"""Content parts on the Gemini wire, both ways: ``text``, ``inlineData`` and ``fileData`` parts.

The parts of a user content, and a function response's ``parts``, read here as
``TextPart``, ``ImagePart``, ``FilePart`` and ``AudioPart``, and are written
back from them:

- ``inlineData`` (``mimeType``, ``data``) holds base64 data: ``image/*`` is an
  ImagePart, ``audio/<format>`` an AudioPart whose format is the subtype
  (``audio/wav`` is ``wav``, ``audio/mp3`` is ``mp3``: OpenAI's names of its
  two input formats are Gemini's subtypes), any other type a FilePart;
- ``fileData`` (``mimeType``, ``fileUri``) a URI: ``image/*`` is an
  ImagePart(url=...), any other type, or none, a FilePart(url=...);
- a FilePart's ``filename`` is the ``displayName`` of its data ("Used to
  provide a label or filename to distinguish blobs").

Every other key of a part (``thoughtSignature``, ``videoMetadata``,
``mediaResolution``) is kept in its ``provider_data["gemini"]["keys"]``, every
other key of its ``inlineData`` or ``fileData`` (an image's ``displayName``,
which a function response's ``{"$ref": ...}`` names) in
``["nested"]["inlineData"]`` or ``["nested"]["fileData"]``, and each is
written back where it was.

The base64 text is the wire's own string: a part holds it, and the part
written back holds the same string, never a copy.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ..._content import AudioPart, ContentPart, FilePart, ImagePart, TextPart
from ..._errors import InvalidMessage, MessageError, at, describe, renamed
from .._native import kept, replay_of, unmodelled
from .parts import keys_of

__all__ = ["FILE", "INLINE", "read_part", "system_text", "write_media", "write_text"]

_PROVIDER = "gemini"
INLINE = "inlineData"
FILE = "fileData"
_TEXT = "text"

# The keys of inlineData and fileData a part models; a FilePart models displayName too.
_BLOB = frozenset({"mimeType", "data"})
_URI = frozenset({"mimeType", "fileUri"})
_NAME = "displayName"
_NAMED_BLOB = _BLOB | {_NAME}
_NAMED_URI = _URI | {_NAME}

# What the codec writes itself, in both spellings the API reads: a kept key
# may not be one of them (it would send a second text, blob or call).
_PART_KEYS = frozenset(
    {
        "text",
        "inlineData",
        "inline_data",
        "fileData",
        "file_data",
        "functionCall",
        "function_call",
        "functionResponse",
        "function_response",
    }
)
_WRITTEN = {
    (INLINE, False): frozenset({"mimeType", "mime_type", "data"}),
    (FILE, False): frozenset({"mimeType", "mime_type", "fileUri", "file_uri"}),
}
_WRITTEN[INLINE, True] = _WRITTEN[INLINE, False] | {"displayName", "display_name"}
_WRITTEN[FILE, True] = _WRITTEN[FILE, False] | {"displayName", "display_name"}

# An AudioPart's format is its media type's subtype, exactly, so that it goes
# back as the same type.
_AUDIO_TYPE = re.compile(r"audio/([a-z0-9]+)")

# The part's argument names, as Gemini's fields name them in error paths.
_NATIVE_NAMES = {
    "data": "data",
    "media_type": "mimeType",
    "url": "fileUri",
    "filename": "displayName",
    "format": "mimeType",
}


# -- reading ------------------------------------------------------------------------------


def read_part(part: Mapping[Any, Any], *, text: bool = True) -> ContentPart:
    """One part (its fields in the REST spelling) as a content part.

    ``text=False`` for a function response's parts, which hold media only
    (its text is in ``response``). Raises InvalidMessage with the native path
    (``inlineData.mimeType``), relative to the part.
    """
    kinds = [key for key in (_TEXT, INLINE, FILE) if key in part]
    if len(kinds) != 1 or (kinds[0] == _TEXT and not text):
        held = "inlineData or fileData" if not text else "text, inlineData or fileData"
        where = "" if not text else " (or a functionResponse)"
        rule = f"must hold exactly one of {held}{where}"
        if not text and kinds == [_TEXT]:
            rule += ": a function response's text goes in its response"
        raise InvalidMessage("", rule, keys_of(part))
    kind = kinds[0]
    keys = unmodelled(part, frozenset({kind}))
    if kind == _TEXT:
        value = part[_TEXT]
        if not isinstance(value, str):
            raise InvalidMessage(_TEXT, "must be a string", describe(value))
        return TextPart(value, provider_data=kept(_PROVIDER, keys=keys))
    media = part[kind]
    if not isinstance(media, Mapping):
        raise InvalidMessage(kind, "must be an object", describe(media))
    with at(kind):
        return _inline(media, keys) if kind == INLINE else _file(media, keys)


def _inline(media: Mapping[Any, Any], keys: Mapping[str, Any]) -> ContentPart:
    mime = media.get("mimeType")
    if not isinstance(mime, str):
        rule = "is required: the IANA media type of the data" if mime is None else "must be a string"
        raise InvalidMessage("mimeType", rule, None if mime is None else describe(mime))
    data = media.get("data")
    if data is None:
        raise InvalidMessage("data", "is required: the base64 text of the bytes")
    kind = mime.partition("/")[0].lower()
    if kind == "image":
        return _built(ImagePart, data=data, media_type=mime, provider_data=_kept(keys, INLINE, media, _BLOB))
    if kind == "audio":
        audio = _AUDIO_TYPE.fullmatch(mime)
        if audio is None:
            raise InvalidMessage(
                "mimeType",
                "must be audio/<format>, the format a lowercase short name (audio/wav, audio/mp3): "
                "an AudioPart holds the format, and writes it back as audio/<format>",
                describe(mime),
            )
        return _built(AudioPart, data=data, format=audio[1], provider_data=_kept(keys, INLINE, media, _BLOB))
    data_kept = _kept(keys, INLINE, media, _NAMED_BLOB)
    return _built(FilePart, data=data, media_type=mime, filename=_filename(media), provider_data=data_kept)


def _file(media: Mapping[Any, Any], keys: Mapping[str, Any]) -> ContentPart:
    uri = media.get("fileUri")
    if uri is None:
        raise InvalidMessage("fileUri", "is required: the URI of the file")
    mime = media.get("mimeType")
    if isinstance(mime, str) and str.partition(mime, "/")[0].lower() == "image":
        return _built(ImagePart, url=uri, media_type=mime, provider_data=_kept(keys, FILE, media, _URI))
    data_kept = _kept(keys, FILE, media, _NAMED_URI)
    return _built(FilePart, url=uri, media_type=mime, filename=_filename(media), provider_data=data_kept)


def _filename(media: Mapping[Any, Any]) -> object:
    name = media.get(_NAME)
    return None if name == "" else name  # an empty name names nothing (the core's rule for empty values)


def _kept(
    keys: Mapping[str, Any], kind: str, media: Mapping[Any, Any], modelled: frozenset[str]
) -> Mapping[str, Any] | None:
    """The part's provider_data: its other keys, and those of its inlineData or fileData."""
    return kept(_PROVIDER, keys=keys, nested={kind: unmodelled(media, modelled)})


def _built(part: Callable[..., ContentPart], **values: Any) -> ContentPart:
    """The part, or its error naming the field as Gemini does (``media_type`` as ``mimeType``)."""
    try:
        return part(**values)
    except MessageError as error:
        core = error.path.partition(".")[0]
        raise renamed(error, core, _NATIVE_NAMES.get(core, core)) from None


# -- writing ------------------------------------------------------------------------------


def write_text(part: TextPart) -> dict[str, Any]:
    """A text part of a user or model content, with the keys kept from the part it was read from."""
    replay = replay_of(part.provider_data, _PROVIDER, InvalidMessage, keys=_PART_KEYS)
    return {_TEXT: part.text, **replay.keys}


def system_text(part: TextPart) -> dict[str, Any]:
    """A text part of the system instruction: reading keeps nothing of one, so nothing may be kept."""
    replay_of(part.provider_data, _PROVIDER, InvalidMessage)
    return {_TEXT: part.text}


def write_media(part: ImagePart | FilePart | AudioPart) -> dict[str, Any]:
    """An ``inlineData`` or ``fileData`` part (also the shape of a function response's parts).

    ``rules.check_part`` has refused what this wire cannot carry: a file id,
    an image URL without media type.
    """
    kind, media = _MEDIA_WRITERS[type(part)](part)
    named = type(part) is FilePart
    replay = replay_of(
        part.provider_data,
        _PROVIDER,
        InvalidMessage,
        keys=_PART_KEYS,
        nested={kind: _WRITTEN[kind, named]},
    )
    media.update(replay.nested_keys(kind))
    return {kind: media, **replay.keys}


def _image(part: Any) -> tuple[str, dict[str, Any]]:
    if part.data is not None:
        return INLINE, {"mimeType": part.media_type, "data": part.data}
    return FILE, {"mimeType": part.media_type, "fileUri": part.url}


def _audio(part: Any) -> tuple[str, dict[str, Any]]:
    return INLINE, {"mimeType": f"audio/{part.format}", "data": part.data}


def _document(part: Any) -> tuple[str, dict[str, Any]]:
    media: dict[str, Any] = {}
    if part.media_type is not None:
        media["mimeType"] = part.media_type
    if part.data is not None:
        kind = INLINE
        media["data"] = part.data
    else:
        kind = FILE
        media["fileUri"] = part.url
    if part.filename is not None:
        media[_NAME] = part.filename
    return kind, media


_MEDIA_WRITERS: Mapping[type, Callable[[Any], tuple[str, dict[str, Any]]]] = {
    ImagePart: _image,
    AudioPart: _audio,
    FilePart: _document,
}
