"""JSON values: strict encoding of caller data, decoding, and value keys.

Every JSON text toolturns stores passes through here, so the rules "no NaN, no
non-string keys, no sets or dates, no silent coercion" live in one place.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

from ._errors import MessageError, cut, describe

__all__ = [
    "JSON",
    "MAX_DEPTH",
    "NOT_PLAIN",
    "ErrorFactory",
    "JSONInput",
    "SameJSON",
    "canonical",
    "copied",
    "decode",
    "encode",
    "encoded_plain",
    "exact_object",
    "join_key",
    "json_kind",
    "owned",
    "plain_copy",
    "value_key",
]

#: A decoded JSON value, as ``json.loads`` returns it.
JSON: TypeAlias = bool | int | float | str | list["JSON"] | dict[str, "JSON"] | None

#: What a caller may hand in where a JSON value is expected. Checked at run
#: time, not statically: a precise recursive type would refuse ordinary
#: literals such as ``SCHEMA = {"type": "object", "required": ["city"]}``,
#: which mypy infers as ``dict[str, object]``.
JSONInput: TypeAlias = Any

#: Builds the error to raise from (path, rule, got).
ErrorFactory: TypeAlias = Callable[[str, str, "str | None"], MessageError]

#: Deepest nesting accepted from a caller. Far beyond any real tool argument,
#: well within what ``json`` can encode and decode without a RecursionError,
#: and what stops a circular structure from being walked forever.
MAX_DEPTH = 500

_NOT_JSON = "must be JSON (a str-keyed mapping, list, tuple, str, int, finite float, bool or None)"

# Built once: json.dumps/json.loads with options build a new coder per call.
# check_circular is off because _check already bounds the depth.
_ENCODER = json.JSONEncoder(
    ensure_ascii=False,
    separators=(",", ":"),
    allow_nan=False,
    check_circular=False,
    default=lambda value: dict(value),  # only reached for non-dict mappings
)
_CANONICAL = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True, check_circular=False)

# JSONEncoder.encode builds a new C encoder (and a closure) on every call; the
# same C encoder built once saves about 2 µs per call on W1's arguments. Where
# the C module is missing, the encoder object does the same work.
_C_ENCODER = (
    json.encoder.c_make_encoder(  # type: ignore[attr-defined]
        None,  # no circular check, as _ENCODER: _check bounds the depth
        _ENCODER.default,
        json.encoder.encode_basestring,  # non-ASCII kept, as ensure_ascii=False
        None,
        _ENCODER.key_separator,
        _ENCODER.item_separator,
        False,  # sort_keys
        False,  # skipkeys
        False,  # allow_nan
    )
    if json.encoder.c_make_encoder is not None  # type: ignore[attr-defined]
    else None
)


def _reject_constant(name: str) -> Any:
    # json.loads accepts NaN and Infinity, which are not JSON.
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    # 1e400 is valid JSON syntax, but Python reads it as inf, which no JSON
    # encoder may emit: text whose numbers do not fit a float is not JSON here.
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"the number {text[:40]} is out of range")
    return value


_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)
# The decoder's scanner (the C one where it exists), with the same hooks.
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]


def encode(value: object, path: str, error: ErrorFactory) -> str:
    """Encode a caller's value as compact JSON text, or raise ``error``.

    Rejects rather than coerces: ``json.dumps`` would turn the key ``1`` into
    ``"1"`` and ``NaN`` into a token no parser accepts.
    """
    kind = type(value)
    try:
        plain = (kind is dict or kind is list or kind is tuple) and _is_plain(value)
    except RecursionError:  # the caller's stack is deep already; _check needs none
        plain = False
    if not plain:
        _check(value, path, error)  # says what is wrong, or accepts what _is_plain does not know
    try:
        if _C_ENCODER is not None and kind is not str:
            return "".join(_C_ENCODER(value, 0))
        return _ENCODER.encode(value)
    except ValueError as exc:  # an int longer than sys.get_int_max_str_digits()
        raise error(path, "must be encodable as JSON", str(exc)) from None
    except RecursionError:  # within MAX_DEPTH, but the caller's stack is deep already
        raise error(
            path, "is nested too deeply to encode from this deep a call stack", describe(value)
        ) from None


def encoded_plain(value: dict[Any, Any]) -> str | None:
    """What ``encode`` gives for a dict of plain values (see ``_is_plain``), else None: the
    fast first try, which makes no error factory; None says only to call ``encode``."""
    if _C_ENCODER is None:
        return None
    try:
        return "".join(_C_ENCODER(value, 0)) if _is_plain(value) else None
    except (ValueError, RecursionError):  # an int too long to write; the caller's stack deep
        return None  # encode says which


def owned(value: object, path: str, error: ErrorFactory) -> JSON:
    """A copy of a caller's JSON value that no one else holds: what ``decode(encode(value))`` gives.

    Raises ``error`` as ``encode`` does. Plain values (the exact built-in
    types, as ``_is_plain`` knows them) are copied in one pass with no JSON
    text made; everything else goes through the text, which normalises it
    (a tuple becomes a list, a mapping a dict, an ``int`` subclass an int).
    """
    copy = plain_copy(value)
    if copy is not NOT_PLAIN:
        return copy  # type: ignore[no-any-return]
    text = encode(value, path, error)
    try:
        return decode(text)
    except ValueError as exc:  # nested too deeply to decode from this deep a call stack
        raise error(path, str(exc), describe(value)) from None


#: No plain value: what plain_copy answers for a value it leaves to ``owned``'s text way.
NOT_PLAIN: Any = object()
# Integers whose text no limit refuses (sys.set_int_max_str_digits can be lowered to 640
# digits): larger ones are left to encode, which says when one cannot be written.
_SAFE_INT = 10**600


def plain_copy(value: object) -> Any:
    """What ``owned`` gives for a plain value (see ``_is_plain``), else ``NOT_PLAIN``: the fast
    first try, which makes no path for an error."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return value
    if kind is dict or kind is list or kind is tuple:
        try:
            return _plain_copy(value, 0)
        except RecursionError:  # the caller's stack is deep already: owned's text way needs none
            return NOT_PLAIN
    return _plain_child(value, kind, 0)


def _plain_copy(node: Any, depth: int) -> Any:
    """A copy of a dict, list or tuple built only of plain values (see ``_is_plain``), else NOT_PLAIN."""
    if depth >= MAX_DEPTH:
        return NOT_PLAIN
    copy: Any
    if type(node) is dict:
        copy = {}
        for key, child in node.items():
            if type(key) is not str:
                return NOT_PLAIN
            kind = type(child)
            if not (kind is str or kind is bool or child is None):
                child = _plain_child(child, kind, depth)
                if child is NOT_PLAIN:
                    return NOT_PLAIN
            copy[key] = child
        return copy
    copy = []
    for child in node:
        kind = type(child)
        if not (kind is str or kind is bool or child is None):
            child = _plain_child(child, kind, depth)
            if child is NOT_PLAIN:
                return NOT_PLAIN
        copy.append(child)
    return copy


def _plain_child(child: Any, kind: type, depth: int) -> Any:
    if kind is int:
        return child if -_SAFE_INT < child < _SAFE_INT else NOT_PLAIN
    if kind is float:
        return child if child - child == 0.0 else NOT_PLAIN  # inf - inf and nan - nan are nan
    if kind is dict or kind is list or kind is tuple:
        return _plain_copy(child, depth + 1)
    return NOT_PLAIN


def unpadded(value: Any) -> Any:
    """``value`` without the null members Arrow pads its structs with: every object's members
    whose value is null are left out, at any depth (the items of an array stay, nulls too).

    A struct column gives every row every field any row has, ``None`` where a row has none;
    Arrow cannot say "absent", so a null member is read as one. (JSON text says what it
    means: its nulls are not passed here.) Used by the command line's Parquet reader and by
    ``toolturns.datasets``.
    """
    if isinstance(value, dict):
        return {key: unpadded(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [unpadded(item) for item in value]
    return value


def copied(value: JSON) -> JSON:
    """A fresh copy of a value ``owned`` made (only dicts, lists and immutable leaves in it).

    Iterative: a value may nest ``MAX_DEPTH`` levels, which a recursive copy
    would pay for in Python frames the caller may not have left.
    """
    if type(value) is dict:
        copy: Any = {}
    elif type(value) is list:
        copy = []
    else:
        return value
    pending: list[tuple[Any, Any]] = [(value, copy)]
    while pending:
        source, target = pending.pop()
        if type(source) is dict:
            for key, child in source.items():
                if type(child) is dict or type(child) is list:
                    target[key] = nested = type(child)()
                    pending.append((child, nested))
                else:
                    target[key] = child
        else:
            for child in source:
                if type(child) is dict or type(child) is list:
                    nested = type(child)()
                    target.append(nested)
                    pending.append((child, nested))
                else:
                    target.append(child)
    return copy  # type: ignore[no-any-return]


def canonical(value: JSON) -> str:
    """The text of an owned value that is equal for equal JSON values: keys sorted, compact.

    ``true`` and ``1`` differ, and so do ``1`` and ``1.0``, as in ``value_key``.
    """
    return _CANONICAL.encode(value)


def _is_plain(node: Any, depth: int = 0) -> bool:
    """True when ``node`` is JSON built only of the exact built-in types.

    The fast path of ``encode``: it accepts a subset of what ``_check`` accepts
    (exact ``dict`` with exact ``str`` keys, ``list``, ``tuple``, ``str``, ``int``,
    ``bool``, ``None``, finite ``float``, no deeper than ``MAX_DEPTH``) and
    answers False for everything else, which ``_check`` then judges and reports
    with its path. No path is built here, which is what makes it fast.
    """
    if depth >= MAX_DEPTH:
        return False
    if type(node) is dict:
        for key in node:
            if type(key) is not str:
                return False
        children: Any = node.values()
    else:
        children = node
    for child in children:
        kind = type(child)
        if kind is str or kind is int or kind is bool or child is None:
            continue
        if kind is float:
            if child - child != 0.0:  # inf - inf and nan - nan are nan
                return False
        elif kind is dict or kind is list or kind is tuple:
            if not _is_plain(child, depth + 1):
                return False
        else:
            return False
    return True


def _check(value: object, path: str, error: ErrorFactory) -> None:
    # Iterative, so that depth costs no Python stack; paths are built only for
    # containers and joined only when something is wrong.
    pending: list[tuple[object, tuple[str | int, ...]]] = [(value, ())]
    while pending:
        node, where = pending.pop()
        if len(where) > MAX_DEPTH:
            # Reported at the top: a path 500 levels long helps nobody.
            raise error(
                path,
                f"must nest at most {MAX_DEPTH} levels deep (a circular structure never ends)",
                describe(value),
            )
        children: Any
        if type(node) is dict or isinstance(node, Mapping):
            children = node.items()
            for key in node:
                if not isinstance(key, str):
                    raise error(_join(path, where), "keys must be strings", describe(key))
        elif type(node) is list or isinstance(node, tuple):
            children = enumerate(node)
        elif isinstance(node, float):
            if not math.isfinite(node):
                raise error(_join(path, where), "must be a finite number", describe(node))
            continue
        elif node is None or isinstance(node, (str, int)):
            continue
        else:
            raise error(_join(path, where), _NOT_JSON, describe(node))
        for key, child in children:
            kind = type(child)
            if kind is str or kind is int or kind is bool or child is None:
                continue  # the common leaves, checked without a trip round the loop
            pending.append((child, (*where, key)))


def _join(path: str, where: tuple[str | int, ...]) -> str:
    for key in where:
        path = join_key(path, key)
    return path


def join_key(path: str, key: object) -> str:
    """Extend a path by a key or index: ``a.b``, ``a[0]``, ``a["b c"]``.

    Any key of a caller's dict gives a path, and only a short ``str``: text
    by its characters (a subclass's own methods are not called), an int by
    its digits, anything else (``b"k"``, ``(1, 2)``, ``None``: JSON has no
    text for some) by its ``repr``; a key longer than ``_MAX_KEY`` is cut as
    ``describe`` cuts a value, and one whose text cannot be made at all (an
    int past the digit limit, a ``__repr__`` that raises) is said by
    ``describe`` or its type's name.
    """
    if isinstance(key, str):
        text = str.__str__(key)
        if len(text) > _MAX_KEY:  # a 1 MB key must not flood a log, as a value must not
            return f"{path}[{json.dumps(text[:_MAX_KEY], ensure_ascii=False)}... ({len(text)} characters)]"
        if text.isidentifier():
            return f"{path}.{text}" if path else text
        return f"{path}[{json.dumps(text, ensure_ascii=False)}]"
    return f"{path}[{_key_text(key)}]"


#: The longest key a path shows whole; a longer one is cut, as ``describe`` cuts a value.
_MAX_KEY = 60


def _key_text(key: object) -> str:
    """A key that is not text: an int by its digits, anything else by its repr (cut); where
    even that fails (an int past the digit limit, a ``__repr__`` that raises), as
    ``describe`` says it or by its type's name."""
    try:
        shown = int.__repr__(key) if type(key) is int else repr(key)
    except Exception:
        return describe(key) if type(key) is int else type(key).__name__
    return cut(shown, _MAX_KEY)


def decode_object(text: str) -> dict[str, Any] | None:
    """``text`` decoded, when it is exactly one JSON object and nothing else; else None.

    The common case of argument text, read by the decoder's C scanner without
    the layers of ``json.JSONDecoder.decode`` around it (about 1 µs per call).
    None says nothing about why: ``decode`` then reads the text (white space
    around the object is fine) or says what is wrong with it.
    """
    if not text.startswith("{"):
        return None
    try:
        value, end = _SCAN(text, 0)
    except (StopIteration, ValueError, RecursionError):
        return None
    return value if end == len(text) and type(value) is dict else None


class RepeatedKey(ValueError):
    """An object of a JSON text repeats a key (what ``_EXACT`` refuses beyond ``_DECODER``)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):  # the object would not say what the text says
        raise RepeatedKey("duplicate key")
    return value


_EXACT = json.JSONDecoder(
    parse_constant=_reject_constant, parse_float=_finite_float, object_pairs_hook=_unique_keys
)


def exact_object(text: str) -> dict[str, Any] | None:
    """The object ``text`` spells, when it is one and encoding it says the same again; else None.

    Stricter than ``decode``: an object with a repeated key (which decoding
    would keep one value of) is not one. For a wire that carries text as an
    object when it is one (Gemini's ``functionResponse.response``), so that the
    text reads back unchanged in meaning.
    """
    if not text.lstrip(" \t\n\r").startswith("{"):
        return None  # the common case: plain text, not worth a parse
    try:
        value = _EXACT.decode(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def decode(text: str, *, exact: bool = False) -> JSON:
    """Decode JSON text; raise ``ValueError`` saying why it is not JSON. ``exact`` refuses a
    key repeated in an object too (``RepeatedKey``), which decoding would keep one value of."""
    try:
        result: JSON = (_EXACT if exact else _DECODER).decode(text)
    except RecursionError:
        raise ValueError("nested too deeply to decode") from None
    return result


def value_key(text: str) -> tuple[bool, str]:
    """A key equal for JSON texts with the same value, whatever their layout.

    Object key order and white space do not matter; ``true`` and ``1`` differ,
    and so do ``1`` and ``1.0`` (they decode to different Python types). Text
    that is not JSON is its own key.
    """
    try:
        return True, _CANONICAL.encode(decode(text))
    except (ValueError, RecursionError):
        return False, text


def json_kind(value: JSON) -> str:
    """The JSON name of a decoded value's type: object, array, string, ..."""
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if value is None:
        return "null"
    return "number"


def kind_of(value: object) -> str:
    """What a value is, in JSON's words (``array``) when it is JSON, as ``describe`` says it
    when a Python caller passed something else: for the readers of decoded lines and cells."""
    if value is None or isinstance(value, (dict, list, str, int, float)):
        return json_kind(value)
    return describe(value)


class SameJSON:
    """A decoded JSON value kept to be compared with others: ``matches(given)`` says whether
    ``given`` is the same JSON, spelled alike where Python's ``==`` cannot tell.

    ``True == 1`` and ``False == 0.0`` in Python, and a schema may be refused for
    ``"minimum": true`` where ``1`` is taken: so beside ``==`` (in C), each place of
    the kept value holding a boolean, a 0 or a 1 (found once, on the first
    comparison) must hold one of the same type in ``given``. Other numbers may
    differ in spelling only (``2`` and ``2.0``), which no rule tells apart.
    """

    __slots__ = ("_spots", "value")

    def __init__(self, value: object) -> None:
        self.value = value
        self._spots: list[tuple[tuple[Any, ...], type]] | None = None

    def matches(self, given: object) -> bool:
        try:
            if not bool(self.value == given):
                return False
            spots = self._spots
            if spots is None:
                self._spots = spots = _ambiguous(self.value)
            for path, kind in spots:
                node: Any = given
                for key in path:
                    node = node[key]
                if type(node) is not kind:
                    return False
        except Exception:  # a caller's value whose comparison or lookup fails: not the same
            return False
        return True


def _ambiguous(value: object) -> list[tuple[tuple[Any, ...], type]]:
    """Where ``value`` holds a boolean, a 0 or a 1 (its dicts' and lists' items), with its type."""
    found: list[tuple[tuple[Any, ...], type]] = []
    pending: list[tuple[object, tuple[Any, ...]]] = [(value, ())]
    while pending:
        node, path = pending.pop()
        items: Any = (
            node.items()
            if isinstance(node, Mapping)
            else enumerate(node)
            if isinstance(node, (list, tuple))
            else ()
        )
        for key, child in items:
            kind = type(child)
            if kind is bool or ((kind is int or kind is float) and child in (0, 1)):
                found.append(((*path, key), kind))
            elif isinstance(child, (Mapping, list, tuple)):
                pending.append((child, (*path, key)))
    return found
