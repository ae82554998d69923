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

import binascii
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

from ._checks import exact_str, lazy_pattern
from ._errors import InvalidMessage, describe
from ._extra import EMPTY, Extra
from ._frozen import field, pickled_fields, refuse_rebuild, slot_names, value_class
from ._json import JSONInput

if TYPE_CHECKING:
    from dataclasses import InitVar

__all__ = ["PART_TYPES", "AudioPart", "ContentPart", "FilePart", "ImagePart", "TextPart", "check_base64"]


# -- the checks ---------------------------------------------------------------------------

# RFC 6838's restricted names, case-insensitive: "image/png", "application/vnd.ms-excel".
_MEDIA_TYPE = lazy_pattern(r"[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}")
# An audio format is a short name, not a media type: "wav", "mp3", "pcm16".
_AUDIO_FORMAT = lazy_pattern(r"[a-z0-9]+")

# The standard base64 alphabet (RFC 4648, section 4): translate() deletes
# these, so a slice of base64 leaves nothing behind.
_ALPHABET = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
# Characters per slice: a multiple of 4, small enough that the bytes made of
# one slice cost nothing to allocate, large enough that the loop is short.
_SLICE = 1 << 16
_BASE64_RULE = "must be base64 text (the standard alphabet A-Z a-z 0-9 + /, padded with =, no whitespace)"


def check_base64(value: object, path: str, start: int = 0) -> str:
    """``value`` if it is non-empty standard base64 text from ``start`` on, else InvalidMessage at ``path``.

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
    if isinstance(value, str):
        value = exact_str(value)  # first: a subclass's own methods are never called
    if not isinstance(value, str) or len(value) <= start:
        raise InvalidMessage(path, "must be non-empty base64 text", describe(value))
    size = len(value) - start
    if size % 4:
        raise InvalidMessage(
            path, _BASE64_RULE, f"{describe(value)} ({size} characters, not a multiple of 4)"
        )
    if not value.isascii():
        raise InvalidMessage(path, _BASE64_RULE, f"{describe(value)} (not ASCII)")
    end = len(value) - (value[-1] == "=") - (value[-2] == "=")
    for first in range(start, end, _SLICE):
        left = value[first : min(first + _SLICE, end)].encode("ascii").translate(None, _ALPHABET)
        if left:
            at = value.index(chr(left[0]), first)
            raise InvalidMessage(path, _BASE64_RULE, f"{describe(value)} ({left[:1].decode()!r} at {at})")
    return value


# The image formats whose first bytes toolturns knows: what every wire's images take.
_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)
# WebP is a RIFF file: "RIFF", the size (4 bytes), then "WEBP".
_RIFF, _WEBP = b"RIFF", b"WEBP"
# Base64 characters decoded to find the format: 12 bytes, enough for WebP's signature.
_PREFIX = 16


def image_media_type(data: str) -> str | None:
    """The media type the first bytes of base64 ``data`` say (PNG, JPEG, GIF, WebP), or None.

    Only the first 16 characters are decoded, however large the image is.

    >>> image_media_type("iVBORw0KGgoAAAANSUhEUg==")
    'image/png'
    >>> image_media_type("Qk0+AAAA") is None
    True
    """
    try:
        head = binascii.a2b_base64(data[:_PREFIX], strict_mode=True)
    except ValueError:  # binascii.Error, or text that is not ASCII
        return None
    for signature, media_type in _SIGNATURES:
        if head.startswith(signature):
            return media_type
    if head[:4] == _RIFF and head[8:12] == _WEBP:
        return "image/webp"
    return None


def _media_type(
    value: object, path: str, *, kind: str | None = None, not_kinds: Mapping[str, str] | None = None
) -> str:
    if not isinstance(value, str) or not _MEDIA_TYPE.fullmatch(value):
        raise InvalidMessage(
            path, "must be a media type (type/subtype, such as 'image/png')", describe(value)
        )
    value = exact_str(value)
    top = value.partition("/")[0].lower()
    if kind is not None and top != kind:
        raise InvalidMessage(path, f"must be an {kind}/* media type for this part", describe(value))
    if not_kinds and top in not_kinds:
        raise InvalidMessage(path, not_kinds[top], describe(value))
    return value


def _optional_str(value: object, path: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        text = exact_str(value)
        if text:
            return text
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
    return tuple(getattr(cls, name).__set__ for name in slot_names(cls))


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


@value_class(frozen=True, slots=True, init=False, repr=False)
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
    _SET_TEXT(self, exact_str(text))
    _SET_TEXT_DATA(self, _provider_data(provider_data))


# -- base64 data, given alone or in a data: URL -------------------------------------------
#
# A part with data keeps the text it was given: the base64 itself, or a
# ``data:<media type>;base64,<data>`` URL (OpenAI's wire) with where the data
# starts in it. Python strings cannot share memory, so slicing the data out of
# a 1 MB URL would copy it; kept whole, the URL is written back to OpenAI as
# it came, and ``data`` is cut from it only when another wire asks.

_DATA_URL = "data:"
_BASE64_MARK = ";base64,"
_DATA_URL_RULE = "must be a data URL of base64 data (data:<media type>;base64,<data>)"


def _data_source(
    url: object, data: object, media_type: object, *, kind: str | None, not_kinds: Mapping[str, str]
) -> tuple[str | None, str | None, int, str | None]:
    """(url, the text holding the data, where the data starts in it, media type) of a part's sources.

    ``url`` and ``data`` have been checked to be one source. A ``data:`` URL is the data it holds.
    """
    if url is not None:
        checked_url = _optional_str(url, "url")
        if checked_url is None or not checked_url.startswith(_DATA_URL):
            return checked_url, None, 0, _checked_media_type(media_type, kind, not_kinds)
        # The mark comes after a media type of at most 255 characters (RFC 6838): looking
        # no further, a long URL without one costs nothing to refuse.
        mark = checked_url.find(_BASE64_MARK, len(_DATA_URL), len(_DATA_URL) + 255 + len(_BASE64_MARK))
        if mark < 0:
            raise InvalidMessage("url", _DATA_URL_RULE, describe(checked_url))
        declared = _media_type(checked_url[len(_DATA_URL) : mark], "url", kind=kind, not_kinds=not_kinds)
        if media_type is not None and media_type != declared:
            raise InvalidMessage(
                "media_type", f"must be None or the data URL's own ({declared!r})", describe(media_type)
            )
        start = mark + len(_BASE64_MARK)
        check_base64(checked_url, "url", start)
        return None, checked_url, start, declared
    if media_type is None:
        raise InvalidMessage("media_type", _NEEDS_MEDIA_TYPE)
    return None, check_base64(data, "data"), 0, _checked_media_type(media_type, kind, not_kinds)


def _checked_media_type(value: object, kind: str | None, not_kinds: Mapping[str, str]) -> str | None:
    return None if value is None else _media_type(value, "media_type", kind=kind, not_kinds=not_kinds)


class _WithData:
    """What ImagePart and FilePart share: their data, given alone or in a data: URL."""

    __slots__ = ()
    media_type: str | None
    _text: str | None
    _start: int

    @property
    def data(self) -> str | None:
        """The base64 text of the data (None without data)."""
        text = self._text
        return text[self._start :] if self._start and text is not None else text

    @property
    def data_url(self) -> str | None:
        """The data as a ``data:<media type>;base64,<data>`` URL (None without data): the URL it
        was read from, unchanged, or one made of ``media_type`` and ``data``.

        >>> ImagePart(data="iVBORw0KGgo=", media_type="image/png").data_url
        'data:image/png;base64,iVBORw0KGgo='
        """
        text = self._text
        if text is None or self._start:
            return text
        return f"{_DATA_URL}{self.media_type}{_BASE64_MARK}{text}"


_NEEDS_MEDIA_TYPE = "is required with data (the wire must say what the bytes are)"


@value_class(frozen=True, slots=True, init=False, repr=False, eq=False)
class ImagePart(_WithData):
    """An image: a URL, or base64 data with its media type.

    Args:
        url: Where the image is (``https://...``, ``gs://...``). A ``data:``
            URL of base64 data is the data itself: the part holds it as
            ``data`` and ``media_type`` (and ``data_url`` gives it back unchanged).
        data: The image's bytes as base64 text, kept as given.
        media_type: ``image/png``, ``image/jpeg``, ...: required with ``data``.
        detail: OpenAI's ``detail`` (``"low"``, ``"high"``, ``"auto"``).
        provider_data: What one provider's block carried beyond the image.

    Raises:
        InvalidMessage: not exactly one of ``url`` and ``data``, data that is
            not base64, a media type that is not an image's.

    >>> ImagePart(data="iVBORw0KGgo=", media_type="image/png")
    ImagePart(data='iVBORw0KGgo=', media_type='image/png')
    >>> ImagePart(url="data:image/png;base64,iVBORw0KGgo=") == _
    True
    >>> ImagePart(data="iVBORw0KGgo=")
    Traceback (most recent call last):
    ...
    toolturns.InvalidMessage: media_type: is required with data (the wire must say what the bytes are)
    """

    url: str | None
    if TYPE_CHECKING:
        pass  # type checkers see the data property only
    else:
        # Not a field: the constructor's argument, which dataclasses.replace
        # reads from the property, so that replace builds through __init__.
        data: InitVar[str | None]
    media_type: str | None
    detail: str | None
    provider_data: Mapping[str, Any]
    _text: str | None = field(init=False)
    _start: int = field(init=False)

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

    def __getstate__(self) -> list[Any]:
        return [getattr(self, name) for name in _IMAGE_FIELDS]

    def __setstate__(self, state: object) -> None:
        refuse_rebuild(self, "url")
        _fill_image(self, *pickled_fields(state, _IMAGE_FIELDS, InvalidMessage))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ImagePart):
            return NotImplemented
        return self.__getstate__() == other.__getstate__()

    def __hash__(self) -> int:
        return hash(tuple(self.__getstate__()))

    def __repr__(self) -> str:
        return _shown(self, _IMAGE_FIELDS)


_IMAGE_FIELDS = ("url", "data", "media_type", "detail", "provider_data")
_SET_IMAGE = {
    name: getattr(ImagePart, name).__set__
    for name in (*_IMAGE_FIELDS[:1], *_IMAGE_FIELDS[2:], "_text", "_start")
}


def _fill_image(
    self: ImagePart, url: object, data: object, media_type: object, detail: object, provider_data: object
) -> None:
    _one_source({"url": url, "data": data})
    url, text, start, media_type = _data_source(url, data, media_type, kind="image", not_kinds=_NO_KINDS)
    set_ = _SET_IMAGE
    set_["url"](self, url)
    set_["_text"](self, text)
    set_["_start"](self, start)
    set_["media_type"](self, media_type)
    set_["detail"](self, _optional_str(detail, "detail"))
    set_["provider_data"](self, _provider_data(provider_data))


_NO_KINDS: Mapping[str, str] = {}


@value_class(frozen=True, slots=True, init=False, repr=False, eq=False)
class FilePart(_WithData):
    """A document (a PDF, a text file, ...): base64 data, a URL, or a provider's file id.

    Args:
        data: The file's bytes as base64 text, kept as given.
        url: Where the file is. A ``data:`` URL of base64 data is the data
            itself, as for ``ImagePart``.
        file_id: A file the provider stores (OpenAI's ``file-...``).
        media_type: ``application/pdf``, ``text/plain``, ...: required with
            ``data``. An image is an ``ImagePart`` and base64 audio an ``AudioPart``.
        filename: The file's name, where the wire carries one.
        provider_data: What one provider's block carried beyond the file
            (Anthropic's ``title``, ``citations``).

    >>> FilePart(file_id="file-abc123", filename="report.pdf")
    FilePart(file_id='file-abc123', filename='report.pdf')
    """

    if TYPE_CHECKING:
        pass  # type checkers see the data property only
    else:
        data: InitVar[str | None]  # not a field: see ImagePart
    url: str | None
    file_id: str | None
    media_type: str | None
    filename: str | None
    provider_data: Mapping[str, Any]
    _text: str | None = field(init=False)
    _start: int = field(init=False)

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

    def __getstate__(self) -> list[Any]:
        return [getattr(self, name) for name in _FILE_FIELDS]

    def __setstate__(self, state: object) -> None:
        refuse_rebuild(self, "url")
        _fill_file(self, *pickled_fields(state, _FILE_FIELDS, InvalidMessage))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FilePart):
            return NotImplemented
        return self.__getstate__() == other.__getstate__()

    def __hash__(self) -> int:
        return hash(tuple(self.__getstate__()))

    def __repr__(self) -> str:
        return _shown(self, _FILE_FIELDS)


_FILE_FIELDS = ("data", "url", "file_id", "media_type", "filename", "provider_data")
_SET_FILE = {name: getattr(FilePart, name).__set__ for name in (*_FILE_FIELDS[1:], "_text", "_start")}
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
    set_ = _SET_FILE
    if source == "file_id":
        set_["file_id"](self, _optional_str(file_id, "file_id"))
        url, text, start = None, None, 0
        media_type = _checked_media_type(media_type, None, _FILE_NOT)
    else:
        set_["file_id"](self, None)
        data_url = source == "url" and isinstance(url, str) and str.startswith(url, _DATA_URL)
        not_kinds = _FILE_DATA_NOT if source == "data" or data_url else _FILE_NOT
        url, text, start, media_type = _data_source(url, data, media_type, kind=None, not_kinds=not_kinds)
    set_["url"](self, url)
    set_["_text"](self, text)
    set_["_start"](self, start)
    set_["media_type"](self, media_type)
    set_["filename"](self, _optional_str(filename, "filename"))
    set_["provider_data"](self, _provider_data(provider_data))


@value_class(frozen=True, slots=True, init=False, repr=False)
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
    _SET_FORMAT(self, exact_str(format))
    _SET_AUDIO_PROVIDER_DATA(self, _provider_data(provider_data))


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
