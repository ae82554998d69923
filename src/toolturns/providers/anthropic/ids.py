"""Anthropic's tool_use ids: any call id written as one Anthropic accepts, and read back exactly.

Ids from other providers often break Anthropic's id rule (Kimi's
``functions.get_weather:0``); they travel escaped, and reading undoes it.
"""

from __future__ import annotations

import re

from ..._errors import MessageError, describe
from .rules import CALL_ID

__all__ = ["read_id", "wire_id"]

# Ids toolturns had to encode start with this marker. A valid id that starts
# with it is encoded too, so that decoding never mistakes one for the other.
_ID_MARKER = "tt-"
# What follows the marker: letters and digits as themselves, every other
# character as "-" + lowercase hex of its code point + "_".
_ENCODED = re.compile(r"(?:[A-Za-z0-9]|-[0-9a-f]{1,6}_)+")
_TOKEN = re.compile(r"([A-Za-z0-9])|-([0-9a-f]{1,6})_")
_ID_RULE = "must be an id as to_request encodes it ('tt-', then letters, digits and '-<hex>_' escapes)"


def wire_id(call_id: str) -> str:
    """The tool_use id Anthropic accepts for ``call_id``: itself, or its escaped form.

    A bijection: distinct ids never collide, and ``read_id`` undoes it.
    """
    if CALL_ID.fullmatch(call_id) and not call_id.startswith(_ID_MARKER):
        return call_id
    return _ID_MARKER + "".join(
        char if char.isascii() and char.isalnum() else f"-{ord(char):x}_" for char in call_id
    )


def read_id(value: object, key: str, error: type[MessageError]) -> str:
    """A native call id, decoded if toolturns encoded it."""
    if not isinstance(value, str) or not value:
        raise error(key, "must be a non-empty string", describe(value))
    if not value.startswith(_ID_MARKER):
        return value
    decoded = _unescaped(value[len(_ID_MARKER) :])
    # Only the one form wire_id writes is read, so that reading and writing
    # stay inverse: no "-02e_", no "-61_" for "a", no id that needed no escaping.
    if decoded is None or wire_id(decoded) != value:
        raise error(key, _ID_RULE, describe(value))
    return decoded


def _unescaped(text: str) -> str | None:
    """Undo wire_id's escapes; None if ``text`` is not made of letters, digits and escapes."""
    if not _ENCODED.fullmatch(text):
        return None
    chars = []
    for literal, code in _TOKEN.findall(text):
        point = int(code, 16) if code else 0
        if point > 0x10FFFF:  # past Unicode's last code point: not a character
            return None
        chars.append(literal or chr(point))
    return "".join(chars)
