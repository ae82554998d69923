"""Tool-call arguments as wire text: encode, normalise empties, decode.

The OpenAI wire carries arguments as JSON *text*. This module is the one place
that decides what text a call stores and how that text is read back, also as
the object a wire that carries arguments as one sends (``decode_arguments_exactly``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ._errors import InvalidArguments, describe
from ._json import decode, decode_object, encode, join_key, json_kind

__all__ = ["EMPTY_ARGUMENTS", "Inexact", "decode_arguments", "decode_arguments_exactly", "encode_arguments"]

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


# -- the object a wire that carries arguments as one sends ---------------------------


@dataclass(frozen=True, slots=True)
class Inexact:
    """Why the object decoded from argument text would not say what the text says.

    Attributes:
        path: Where inside the arguments: ``arguments``, ``arguments.where.lat``.
        rule: What would change: ``repeated key 'a'``, ``the number 1e-400 would be sent as 0.0``.
    """

    path: str
    rule: str


def decode_arguments_exactly(text: str, *, call_id: str, name: str) -> dict[str, Any] | Inexact:
    """``decode_arguments(text)``, when the object says exactly what the text says; else where it would not.

    An object keeps one value per key, and a float holds a number as the
    nearest double: a repeated key (``{"a": 1, "a": 2}`` decodes to
    ``{"a": 2}``) and a number the encoder would write back as another
    (``1e-400`` as ``0.0``) are what the text says and the object does not.
    A number is compared with the one re-encoding writes, as decimals:
    ``1.50``, ``1E2`` and ``-0.0`` are exact. Integers always are: Python's
    are exact at any size, and every JSON encoder writes them digit for digit.

    Raises:
        InvalidArguments: what ``decode_arguments`` raises (the text is not a JSON object).
    """
    if text == EMPTY_ARGUMENTS:
        return {}
    value = _proven_exact(text.strip(_JSON_WHITESPACE))  # the common case, about as fast as decoding
    if value is not None:
        return value
    value = decode_arguments(text, call_id=call_id, name=name)  # raises when the text is not an object
    inexact = _first_loss(text)
    return value if inexact is None else inexact


def _proven_exact(text: str) -> dict[str, Any] | None:
    """The object ``text`` spells, when a quick count proves it has no repeated key and its
    floats are written as they read; else None (which says nothing: ``_first_loss`` then looks).

    A repeated key leaves fewer keys in the decoded objects than the text has.
    Each key of the text is followed by a colon; every other colon is inside
    a string. So colons in the text = keys in the text + colons inside its
    strings, and each string that is decoded keeps its colons (an escaped
    ``\\u003a`` is counted as one). When the decoded keys and their strings'
    colons account for every colon, no key was lost: this never misses a
    repeat. A flat object without a colon in a string needs no walk at all.
    """
    if not text.startswith("{"):
        return None
    try:
        value, end = _SCAN(text, 0)
    except (StopIteration, ValueError, RecursionError):  # not JSON, a float not as written, too deep
        return None
    if end != len(text) or type(value) is not dict:
        return None
    colons = text.count(":")
    if len(value) == colons:
        return value
    if "\\u003" in text:
        colons += text.count("\\u003a") + text.count("\\u003A")
    keys, inside = _count_keys_and_colons(value)
    return value if keys + inside == colons else None


def _count_keys_and_colons(value: dict[str, Any]) -> tuple[int, int]:
    """The keys of every object in ``value``, and the colons in every string (keys included)."""
    keys = colons = 0
    pending: list[Any] = [value]
    while pending:  # iterative: deep values cost no stack
        node = pending.pop()
        if type(node) is dict:
            keys += len(node)
            for key in node:
                if ":" in key:
                    colons += key.count(":")
            node = node.values()
        for child in node:
            kind = type(child)
            if kind is str:
                if ":" in child:
                    colons += child.count(":")
            elif kind is dict or kind is list:
                pending.append(child)
    return keys, colons


def _float_as_written(token: str) -> float:
    # The decoder's parse_float in the quick check: a float token that would
    # not be written back as the same number stops it (ValueError).
    value = float(token)
    if repr(value) != token and _sent_as(token, value) is not None:
        raise ValueError("not exact")
    return value


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder(
    parse_float=_float_as_written, parse_constant=_not_json
).scan_once  # type: ignore[attr-defined]
# Reads one string token (at its opening quote), escapes and all.
_SCAN_STRING: Callable[[str, int], tuple[str, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _sent_as(token: str, value: float) -> str | None:
    """What the float ``value`` read from ``token`` is written back as, when that is another number; else None."""
    from decimal import Decimal, InvalidOperation  # here: most texts never need it

    sent = repr(value)
    try:
        same = Decimal(token) == Decimal(sent)
    except InvalidOperation:  # an exponent beyond Decimal's range: only a zero is sent as it is
        same = not token.lower().partition("e")[0].strip("-0.")
    return None if same else sent


_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_LITERAL_LENGTHS = {"t": 4, "f": 5, "n": 4}  # true, false, null


class _Open:
    """A container the reading is inside: its path, and the keys met so far (None for an array)."""

    __slots__ = ("key", "keys", "path")

    def __init__(self, path: str, keys: set[str] | None) -> None:
        self.path = path
        self.keys = keys
        self.key: str | int | None = None if keys is not None else 0  # where the next value goes

    def child(self) -> str:
        assert self.key is not None
        return join_key(self.path, self.key)


def _first_loss(text: str) -> Inexact | None:
    """The first repeated key or changed number of ``text``, a JSON object, and where it is; None when there is none.

    Reads the text once, in order, one token at a time, keeping a stack of the
    containers it is inside: no recursion, so any depth ``decode`` reads is read
    here too.
    """
    stack: list[_Open] = []
    at = 0
    while True:
        at = _WHITESPACE.match(text, at).end()  # type: ignore[union-attr]  # matches everywhere
        char = text[at]
        top = stack[-1] if stack else None
        if char == '"':
            string, at = _SCAN_STRING(text, at)
            if top is not None and top.keys is not None and top.key is None:  # a key
                if string in top.keys:
                    return Inexact(top.path, f"repeated key {describe(string)}")
                top.keys.add(string)
                top.key = string
        elif char in "{[":
            path = "arguments" if top is None else top.child()
            stack.append(_Open(path, set() if char == "{" else None))
            at += 1
        elif char in "}]":
            stack.pop()
            if not stack:
                return None
            at += 1
        elif char == ",":
            assert top is not None
            top.key = None if top.keys is not None else top.key + 1  # type: ignore[operator]
            at += 1
        elif char == ":":
            at += 1
        elif char in _LITERAL_LENGTHS:
            at += _LITERAL_LENGTHS[char]
        else:
            number = _NUMBER.match(text, at)
            assert number is not None
            assert top is not None
            at = number.end()
            token = number.group()
            if number.group(1) or number.group(2):  # a float; integers are exact
                sent = _sent_as(token, float(token))
                if sent is not None:
                    shown = token if len(token) <= 40 else f"{token[:40]}..."
                    return Inexact(top.child(), f"the number {shown} would be sent as {sent}")
