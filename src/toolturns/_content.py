"""Content parts: the text, images, files and audio a turn carries beside (or instead of) plain text.

A message's ``content`` is a ``str`` (the simple case) or a tuple of parts.
Each part is a frozen value, validated when it is built: what it holds is
what every wire reads and writes, and which parts a role may carry on a wire
is that wire's rule (``rules.check_part``), never the model's.

Binary data is base64 text, kept exactly as it was given: a part never
decodes, re-encodes or copies it (a 1 MB screenshot stays one string, shared
by the wire dict it came from and the one it goes to). It is checked to be
base64 in fixed-size slices, so the check allocates a few kilobytes however
large the data is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeAlias

from ._errors import InvalidMessage, describe
from ._extra import EMPTY, Extra
from ._frozen import pickled_fields, refuse_changes, refuse_rebuild
from ._json import JSONInput

__all__ = ["PART_TYPES", "AudioPart", "ContentPart", "FilePart", "ImagePart", "TextPart", "check_base64"]


# -- the checks ---------------------------------------------------------------------------

# RFC 6838's restricted names, case-insensitive: "image/png", "application/vnd.ms-excel".
_MEDIA_TYPE = re.compile(r"[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}")
# An audio format is a short name, not a media type: "wav", "mp3", "pcm16".
_AUDIO_FORMAT = re.compile(r"[a-z0-9]+")

# The standard base64 alphabet (RFC 4648, section 4): translate() deletes
# these, so a slice of base64 leaves nothing behind.
_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
# Characters per slice: a multiple of 4, small enough that the bytes made of
# one slice cost nothing to allocate, large enough that the loop is short.
_SLICE = 1 << 16
_BASE64_RULE = "must be base64 text (the standard alphabet A-Z a-z 0-9 + /, padded with =, no whitespace)"


def check_base64(value: object, path: str) -> str:
    """``value`` if it is non-empty standard base64 text, else InvalidMessage at ``path``.

    Each slice is checked by deleting the alphabet from it (``bytes.translate``,
    one C loop): what is left is not base64. Only the slices are copied, never
    the whole text, and nothing is decoded.

    >>> check_base64("aGk=", "data")
    'aGk='
    >>> check_base64("aGk", "data")
    Traceback (most recent call last):
    ...
    toolturns.InvalidMessage: data: must be base64 text (the standard alphabet A-Z a-z 0-9 + /, padded with =, no whitespace), got 'aGk' (3 characters, not a multiple of 4)
    """
    if not isinstance(value, str) or not value:
        raise InvalidMessage(path, "must be non-empty base64 text", describe(value))
    size = len(value)
    if size % 4:
        raise InvalidMessage(
            path, _BASE64_RULE, f"{describe(value)} ({size} characters, not a multiple of 4)"
        )
    if not value.isascii():
        raise InvalidMessage(path, _BASE64_RULE, f"{describe(value)} (not ASCII)")
    body = size - (value[-1] == "=") - (value[-2] == "=")
    for start in range(0, body, _SLICE):
        left = value[start : min(start + _SLICE, body)].encode("ascii").translate(None, _ALPHABET)
        if left:
            at = value.index(chr(left[0]), start)
            raise InvalidMessage(path, _BASE64_RULE, f"{describe(value)} ({left[:1].decode()!r} at {at})")
    return value


def _media_type(
    value: object, path: str, *, kind: str | None = None, not_kinds: Mapping[str, str] | None = None
) -> str:
    if not isinstance(value, str) or not _MEDIA_TYPE.fullmatch(value):
        raise InvalidMessage(
            path, "must be a media type (type/subtype, such as 'image/png')", describe(value)
        )
    top = value.partition("/")[0].lower()
    if kind is not None and top != kind:
        raise InvalidMessage(path, f"must be an {kind}/* media type for this part", describe(value))
    if not_kinds and top in not_kinds:
        raise InvalidMessage(path, not_kinds[top], describe(value))
    return value


def _optional_str(value: object, path: str) -> str | None:
    if value is None or (isinstance(value, str) and value):
        return value
    raise InvalidMessage(path, "must be a non-empty string or None", describe(value))


def _one_source(sources: Mapping[str, object]) -> str:
    """The name of the one source given; InvalidMessage when none or several are."""
    given = [name for name, value in sources.items() if value is not None]
    if len(given) != 1:
        names = ", ".join(sources)
        got = "none" if not given else " and ".join(given)
        raise InvalidMessage("", f"must have exactly one source ({names})", got)
    return given[0]


def _provider_data(value: object) -> Mapping[str, Any]:
    if value is None or value is EMPTY:
        return EMPTY
    return Extra.build(value, path="provider_data", reserved=frozenset(), error=InvalidMessage)


def _setters(cls: type) -> tuple[Any, ...]:
    # The slots' own setters: the frozen class refuses setattr.
    return tuple(cls.__dict__[field.name].__set__ for field in fields(cls))


def _shown(self: object, names: tuple[str, ...]) -> str:
    # Long data is shown by its size: a repr must not print a megabyte.
    shown = []
    for name in names:
        value = getattr(self, name)
        if value is None or (name == "provider_data" and not value):
            continue
        if name == "provider_data":
            value = dict(value)
        text = repr(value)
        if isinstance(value, str) and len(value) > 80:
            text = f"{value[:40]!r}... ({len(value)} characters)"
        shown.append(f"{name}={text}")
    return f"{type(self).__name__}({', '.join(shown)})"


# -- the parts ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, init=False, repr=False)
class TextPart:
    """Text, as one part among others.

    Args:
        text: The text (may be empty).
        provider_data: What one provider's block carried beyond the text
            (Anthropic's ``cache_control``), kept for that provider's codec.

    >>> TextPart("What is in this image?")
    TextPart(text='What is in this image?')
    """

    text: str
    provider_data: Mapping[str, Any]

    def __init__(self, text: str, *, provider_data: Mapping[str, JSONInput] | None = None) -> None:
        _fill_text(self, text, provider_data)

    def __setstate__(self, state: object) -> None:
        refuse_rebuild(self, "text")
        _fill_text(self, *pickled_fields(state, _TEXT_FIELDS, InvalidMessage))

    def __repr__(self) -> str:
        return _shown(self, _TEXT_FIELDS)


_TEXT_FIELDS = ("text", "provider_data")
_SET_TEXT, _SET_TEXT_DATA = _setters(TextPart)


def _fill_text(self: TextPart, text: object, provider_data: object) -> None:
    if not isinstance(text, str):
        raise InvalidMessage("text", "must be a string", describe(text))
    _SET_TEXT(self, text)
    _SET_TEXT_DATA(self, _provider_data(provider_data))


@dataclass(frozen=True, slots=True, init=False, repr=False)
class ImagePart:
    """An image: a URL, or base64 data with its media type.

    Args:
        url: Where the image is (``https://...``, ``gs://...``). A ``data:``
            URL is read by the codecs as ``data`` and ``media_type``.
        data: The image's bytes as base64 text, kept as given.
        media_type: ``image/png``, ``image/jpeg``, ...: required with ``data``.
        detail: OpenAI's ``detail`` (``"low"``, ``"high"``, ``"auto"``).
        provider_data: What one provider's block carried beyond the image.

    Raises:
        InvalidMessage: not exactly one of ``url`` and ``data``, data that is
            not base64, a media type that is not an image's.

    >>> ImagePart(data="iVBORw0KGgo=", media_type="image/png")
    ImagePart(data='iVBORw0KGgo=', media_type='image/png')
    >>> ImagePart(data="iVBORw0KGgo=")
    Traceback (most recent call last):
    ...
    toolturns.InvalidMessage: media_type: is required with data (the wire must say what the bytes are)
    """

    url: str | None
    data: str | None
    media_type: str | None
    detail: str | None
    provider_data: Mapping[str, Any]

    def __init__(
        self,
        *,
        url: str | None = None,
        data: str | None = None,
        media_type: str | None = None,
        detail: str | None = None,
        provider_data: Mapping[str, JSONInput] | None = None,
    ) -> None:
        _fill_image(self, url, data, media_type, detail, provider_data)

    def __setstate__(self, state: object) -> None:
        refuse_rebuild(self, "url")
        _fill_image(self, *pickled_fields(state, _IMAGE_FIELDS, InvalidMessage))

    def __repr__(self) -> str:
        return _shown(self, _IMAGE_FIELDS)


_IMAGE_FIELDS = ("url", "data", "media_type", "detail", "provider_data")
_SET_IMAGE = _setters(ImagePart)
_NEEDS_MEDIA_TYPE = "is required with data (the wire must say what the bytes are)"


def _fill_image(
    self: ImagePart, url: object, data: object, media_type: object, detail: object, provider_data: object
) -> None:
    source = _one_source({"url": url, "data": data})
    if source == "url":
        values: list[object] = [_optional_str(url, "url"), None]
    else:
        values = [None, check_base64(data, "data")]
        if media_type is None:
            raise InvalidMessage("media_type", _NEEDS_MEDIA_TYPE)
    values.append(None if media_type is None else _media_type(media_type, "media_type", kind="image"))
    values.append(_optional_str(detail, "detail"))
    values.append(_provider_data(provider_data))
    for setter, value in zip(_SET_IMAGE, values, strict=True):
        setter(self, value)


@dataclass(frozen=True, slots=True, init=False, repr=False)
class FilePart:
    """A document (a PDF, a text file, ...): base64 data, a URL, or a provider's file id.

    Args:
        data: The file's bytes as base64 text, kept as given.
        url: Where the file is.
        file_id: A file the provider stores (OpenAI's ``file-...``).
        media_type: ``application/pdf``, ``text/plain``, ...: required with
            ``data``. An image is an ``ImagePart`` and base64 audio an ``AudioPart``.
        filename: The file's name, where the wire carries one.
        provider_data: What one provider's block carried beyond the file
            (Anthropic's ``title``, ``citations``).

    >>> FilePart(file_id="file-abc123", filename="report.pdf")
    FilePart(file_id='file-abc123', filename='report.pdf')
    """

    data: str | None
    url: str | None
    file_id: str | None
    media_type: str | None
    filename: str | None
    provider_data: Mapping[str, Any]

    def __init__(
        self,
        *,
        data: str | None = None,
        url: str | None = None,
        file_id: str | None = None,
        media_type: str | None = None,
        filename: str | None = None,
        provider_data: Mapping[str, JSONInput] | None = None,
    ) -> None:
        _fill_file(self, data, url, file_id, media_type, filename, provider_data)

    def __setstate__(self, state: object) -> None:
        refuse_rebuild(self, "data")
        _fill_file(self, *pickled_fields(state, _FILE_FIELDS, InvalidMessage))

    def __repr__(self) -> str:
        return _shown(self, _FILE_FIELDS)


_FILE_FIELDS = ("data", "url", "file_id", "media_type", "filename", "provider_data")
_SET_FILE = _setters(FilePart)
_FILE_NOT = {"image": "must not be an image's: an image is an ImagePart"}
_FILE_DATA_NOT = {**_FILE_NOT, "audio": "must not be audio's with data: base64 audio is an AudioPart"}


def _fill_file(
    self: FilePart,
    data: object,
    url: object,
    file_id: object,
    media_type: object,
    filename: object,
    provider_data: object,
) -> None:
    source = _one_source({"data": data, "url": url, "file_id": file_id})
    if source == "data":
        values: list[object] = [check_base64(data, "data"), None, None]
        if media_type is None:
            raise InvalidMessage("media_type", _NEEDS_MEDIA_TYPE)
    else:
        values = [None, _optional_str(url, "url"), _optional_str(file_id, "file_id")]
    not_kinds = _FILE_DATA_NOT if source == "data" else _FILE_NOT
    values.append(None if media_type is None else _media_type(media_type, "media_type", not_kinds=not_kinds))
    values.append(_optional_str(filename, "filename"))
    values.append(_provider_data(provider_data))
    for setter, value in zip(_SET_FILE, values, strict=True):
        setter(self, value)


@dataclass(frozen=True, slots=True, init=False, repr=False)
class AudioPart:
    """Base64 audio and its format.

    Args:
        data: The audio's bytes as base64 text, kept as given.
        format: Its format, as OpenAI's ``input_audio`` names it (``"wav"``, ``"mp3"``).
        provider_data: What one provider's block carried beyond the audio.

    >>> AudioPart(data="UklGRg==", format="wav").format
    'wav'
    """

    data: str
    format: str
    provider_data: Mapping[str, Any]

    def __init__(
        self, *, data: str, format: str, provider_data: Mapping[str, JSONInput] | None = None
    ) -> None:
        _fill_audio(self, data, format, provider_data)

    def __setstate__(self, state: object) -> None:
        refuse_rebuild(self, "data")
        _fill_audio(self, *pickled_fields(state, _AUDIO_FIELDS, InvalidMessage))

    def __repr__(self) -> str:
        return _shown(self, _AUDIO_FIELDS)


_AUDIO_FIELDS = ("data", "format", "provider_data")
_SET_AUDIO_DATA, _SET_FORMAT, _SET_AUDIO_PROVIDER_DATA = _setters(AudioPart)


def _fill_audio(self: AudioPart, data: object, format: object, provider_data: object) -> None:
    _SET_AUDIO_DATA(self, check_base64(data, "data"))
    if not isinstance(format, str) or not _AUDIO_FORMAT.fullmatch(format):
        raise InvalidMessage(
            "format",
            "must be an audio format's short name, lowercase (such as 'wav' or 'mp3')",
            describe(format),
        )
    _SET_FORMAT(self, format)
    _SET_AUDIO_PROVIDER_DATA(self, _provider_data(provider_data))


for _part in (TextPart, ImagePart, FilePart, AudioPart):
    refuse_changes(_part)

#: A content part: one of the four.
ContentPart: TypeAlias = TextPart | ImagePart | FilePart | AudioPart

#: The part classes, for isinstance tests.
PART_TYPES = (TextPart, ImagePart, FilePart, AudioPart)


def check_content_parts(value: list[Any] | tuple[Any, ...]) -> tuple[ContentPart, ...]:
    """A message's list or tuple of parts as a tuple; InvalidMessage at ``content[i]`` otherwise."""
    if not value:
        raise InvalidMessage(
            "content", "must not be an empty list of parts (use '' for a turn without text)", "[]"
        )
    for index, part in enumerate(value):
        if not isinstance(part, PART_TYPES):
            raise InvalidMessage(
                f"content[{index}]",
                "must be a content part (TextPart, ImagePart, FilePart or AudioPart; "
                "read wire dicts with ChatMessage.from_dict)",
                describe(part),
            )
    return tuple(value)


def text_of(content: str | tuple[ContentPart, ...]) -> str:
    """The text of a message's content: the string, or its text parts joined."""
    if not isinstance(content, tuple):
        return content  # a str, or a str subclass
    return "".join(part.text for part in content if type(part) is TextPart)
