"""Ollama's content, both ways: a message's ``content`` string and ``images`` list as content parts.

An Ollama message says its images (base64 bytes, no media type) and then its
text: the server puts the images before the content (``rules.PART_ORDER``).
So a message with images reads as ``(ImagePart, ..., TextPart(content))``,
the text part left out when the content is ``""``, and that is what is
written back: parts in that order read back exactly. Text parts alone are
sent as their text, which reads back as the string.

Each image's media type is read from its own first bytes
(``rules.image_media_type``): the data itself is kept as the base64 text the
body held, never decoded whole, re-encoded or copied.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..._content import ContentPart, ImagePart, TextPart, check_base64, text_of
from ..._errors import InvalidMessage, MessageError, describe, renamed
from . import rules

__all__ = ["read_content", "read_images", "write_content"]

_UNKNOWN_IMAGE = (
    "must be a PNG, JPEG, GIF or WebP image (Ollama's images carry no media type: "
    "toolturns reads it from the image's first bytes)"
)


# -- reading ------------------------------------------------------------------------------


def read_images(value: object) -> list[ImagePart]:
    """A message's ``images`` as image parts; InvalidMessage at ``images[k]`` otherwise."""
    if not isinstance(value, (list, tuple)):
        raise InvalidMessage("images", "must be an array of base64 images", describe(value))
    return [_image(data, f"images[{position}]") for position, data in enumerate(value)]


def _image(data: object, path: str) -> ImagePart:
    if not isinstance(data, str) or (media_type := rules.image_media_type(data)) is None:
        check_base64(data, path)  # raises for what is not base64 at all
        raise InvalidMessage(path, _UNKNOWN_IMAGE, describe(data))
    try:
        return ImagePart(data=data, media_type=media_type)  # checks the rest of the text, in slices
    except MessageError as error:  # it is not base64 after the first bytes
        raise renamed(error, "data", path) from None


def read_content(text: str, images: Sequence[ImagePart]) -> str | tuple[ContentPart, ...]:
    """The content of a message with these images: the images, then the text (unless it is ``""``)."""
    if not images:
        return text
    return (*images, TextPart(text)) if text else tuple(images)


# -- writing ------------------------------------------------------------------------------


def write_content(parts: tuple[ContentPart, ...]) -> dict[str, Any]:
    """``content`` and, when there are any, ``images`` for a message's parts.

    ``rules.check_part`` has let only text and base64 images of a known
    format through (``_shared.refuse_parts``); here the images must come first.
    """
    position = rules.misplaced_image(parts)
    if position is not None:
        raise InvalidMessage(f"content[{position}]", f"{rules.MISPLACED_IMAGE} ({rules.PART_ORDER.says})")
    wire: dict[str, Any] = {"content": text_of(parts)}
    images = [part.data for part in parts if isinstance(part, ImagePart)]
    if images:
        wire["images"] = images
    return wire
