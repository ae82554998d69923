"""Tool-call arguments as wire text: encode, normalise empties, decode.

The OpenAI wire carries arguments as JSON *text*. This module is the one place
that decides what text a call stores and how that text is read back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._errors import InvalidArguments, describe
from ._json import decode, decode_object, encode, json_kind

__all__ = ["EMPTY_ARGUMENTS", "decode_arguments", "encode_arguments"]

#: What "no arguments" is sent as: an empty object, never ``[]`` or ``""``
#: (providers reject both, and a model that sent ``""`` meant ``{}``).
EMPTY_ARGUMENTS = "{}"

# JSON's own white space (RFC 8259, section 2); str.strip() would also strip
# characters such as U+00A0 that make the text invalid JSON.
_JSON_WHITESPACE = " \t\n\r"


def encode_arguments(value: object, *, call_id: str | None, name: str) -> str:
    """The wire text for ``value``: a mapping, raw text, or ``None``.

    ``None``, ``{}``, ``""``, white space and ``null`` all mean "no arguments"
    and become ``{}``. Other text is kept byte-for-byte, even when it is not
    JSON: replaying history must send what the model sent.
    """
    if value is None:
        return EMPTY_ARGUMENTS
    if isinstance(value, str):
        stripped = value.strip(_JSON_WHITESPACE)
        return EMPTY_ARGUMENTS if not stripped or stripped == "null" else value
    if isinstance(value, Mapping):
        if not value:
            return EMPTY_ARGUMENTS

        def error(path: str, rule: str, got: str | None) -> InvalidArguments:
            return InvalidArguments(path, rule, got, call_id=call_id, name=name)

        return encode(value, "arguments", error)
    raise InvalidArguments(
        "arguments",
        "must be a mapping, JSON text (str) or None",
        describe(value),
        call_id=call_id,
        name=name,
    )


def decode_arguments(text: str, *, call_id: str, name: str) -> dict[str, Any]:
    """Decode stored argument text into a fresh dict.

    Raises:
        InvalidArguments: the text is not JSON, or is JSON but not an object.
    """
    if text == EMPTY_ARGUMENTS:
        return {}
    fast = decode_object(text)  # the common case, fast
    if fast is not None:
        return fast
    try:
        value = decode(text)
    except ValueError as exc:
        raise InvalidArguments(
            "arguments",
            f"must be valid JSON ({exc})",
            describe(text),
            call_id=call_id,
            name=name,
            raw=text,
        ) from None
    if not isinstance(value, dict):
        raise InvalidArguments(
            "arguments",
            "must be a JSON object",
            json_kind(value),
            call_id=call_id,
            name=name,
            raw=text,
        )
    return value
