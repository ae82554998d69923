"""Tool-call arguments as wire text: encode, normalise empties, decode.

The OpenAI wire carries arguments as JSON *text*. This module is the one place
that decides what text a call stores and how that text is read back, also as
the object a wire that carries arguments as one sends (``decode_arguments_exactly``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from typing import Any

from ._checks import exact_str, lazy_pattern
from ._errors import InvalidArguments, describe
from ._frozen import value_class
from ._json import decode, decode_object, encode, encoded_plain, join_key, json_kind

__all__ = [
    "EMPTY_ARGUMENTS",
    "Inexact",
    "decode_arguments",
    "decode_arguments_exactly",
    "encode_arguments",
    "text_arguments",
]

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
    if type(value) is dict and value:  # a caller's arguments: encoded without an error made
        text = encoded_plain(value)
        if text is not None:
            return text
    if value is None:
        return EMPTY_ARGUMENTS
    if isinstance(value, str):
        return text_arguments(exact_str(value))  # a subclass's own methods are never called
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


def text_arguments(value: str) -> str:
    """The wire text for argument text: ``value``, or ``{}`` for the empties (``""``, white
    space, ``null``). What ``encode_arguments`` does with a str, for a reader that already
    knows it has one (a positional call, without the checks for the other kinds)."""
    if value[:1] == "{":  # most text, an object: none of the empties, kept without a strip
        return value
    stripped = value.strip(_JSON_WHITESPACE)
    return EMPTY_ARGUMENTS if not stripped or stripped == "null" else value


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


@value_class(frozen=True, slots=True)
class Inexact:
    """Why the object decoded from argument text would not say what the text says.

    Attributes:
        path: Where inside the arguments: ``arguments``, ``arguments.where.lat``.
        rule: What would change: ``repeated key 'a'``, ``the number 1e-400 would be sent as 0.0``.
    """

    path: str
    rule: str

    def __init__(self, path: str, rule: str) -> None:
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "rule", rule)


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

    Why the count never misses a repeat: a repeated key leaves fewer keys in
    the decoded objects (D) than the text has (K). Every colon of the text
    outside a string follows a key, and every colon of a decoded string value
    was a colon of the text or a ``\\u003a`` escape (counted with them, as E):
    so colons + E >= K + colons of the decoded string values (S). When
    D + S == colons + E, then D >= K: no key was lost. A flat object without
    a colon in a string (D == colons) needs no walk at all.
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
    """The keys of every object in ``value``, and the colons in every string value.

    A key's own colons are not counted: a key with a colon (rare) leaves the
    count short, and the text goes to the full check, which is still correct.
    """
    keys = colons = 0
    pending: list[Any] = [value]
    while pending:  # iterative: deep values cost no stack
        node = pending.pop()
        if type(node) is dict:
            keys += len(node)
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
    # A float token of at most 16 characters has at most 15 digits, and a
    # double keeps every decimal of 15 significant digits in its normal range
    # (DBL_DIG): its repr is then the same number (10.50 as 10.5, 2.0e5 as
    # 200000.0). That covers nearly every float a model writes, without repr.
    if len(token) <= 16 and _SMALLEST_NORMAL <= abs(value) <= _LARGEST:
        return value
    if repr(value) != token and _sent_as(token, value) is not None:
        raise ValueError("not exact")
    return value


_SMALLEST_NORMAL = sys.float_info.min
_LARGEST = sys.float_info.max


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder(
    parse_float=_float_as_written, parse_constant=_not_json
).scan_once  # type: ignore[attr-defined]
# Reads one string token (at its opening quote), escapes and all.
_SCAN_STRING: Callable[[str, int], tuple[str, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _sent_as(token: str, value: float) -> str | None:
    """What the float ``value`` read from ``token`` is written back as, when that is another number; else None."""
    sent = repr(value)
    return None if _decimal(token) == _decimal(sent) else sent


def _decimal(number: str) -> tuple[str, str, int]:
    """A JSON number as (sign, significant digits, exponent of the last one): equal for equal numbers.

    ``"-1.50e3"`` is ``("-", "15", 2)``; every zero is ``("", "", 0)`` (``-0.0`` is
    the number 0). Plain string work: Decimal costs a microsecond more per number.
    """
    mantissa, _, exponent = number.replace("E", "e").partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole.lstrip("-") + fraction).lstrip("0")
    significant = digits.rstrip("0")
    if not significant:
        return "", "", 0
    # An exponent of 19 digits or more is beyond any double (and int() refuses
    # one over 4300 digits): clamped, it still differs from any repr's.
    scale = int(exponent or 0) if len(exponent) < 19 else (-1 if exponent.startswith("-") else 1) * 10**18
    sign = "-" if whole.startswith("-") else ""
    return sign, significant, scale - len(fraction) + len(digits) - len(significant)


_NUMBER = lazy_pattern(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_LITERAL_LENGTHS = {"t": 4, "f": 5, "n": 4}  # true, false, null


class _Open:
    """A container the reading is inside, and where in it the reading is."""

    __slots__ = ("index", "key", "keys", "path")

    def __init__(self, path: str, keys: set[str] | None) -> None:
        self.path = path
        self.keys = keys  # an object's keys met so far; None for an array
        self.key: str | None = None  # the key whose value comes next; None until an object's next key
        self.index = 0  # an array's position

    def child(self) -> str:
        """The path of the value being read."""
        if self.keys is None:
            return join_key(self.path, self.index)
        assert self.key is not None  # a value in an object comes after its key
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
        while text[at] in _JSON_WHITESPACE:
            at += 1
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
            if top.keys is None:
                top.index += 1
            else:
                top.key = None
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
