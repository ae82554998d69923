"""Unit tests for toolturns._json: strict encoding, decoding, value keys and kind names."""

from __future__ import annotations

import datetime
import decimal
import enum
import json
import sys
from collections import OrderedDict
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings

from tests.conftest import Frozen
from tests.property import strategies as s
from toolturns import InvalidArguments, InvalidMessage, InvalidToolCall, MessageError, ToolCall, _json
from toolturns._json import (
    JSON,
    MAX_DEPTH,
    NOT_PLAIN,
    copied,
    decode,
    encode,
    encoded_plain,
    json_kind,
    owned,
    plain_copy,
    value_key,
)

NOT_JSON = "must be JSON (a str-keyed mapping, list, tuple, str, int, finite float, bool or None)"
TOO_DEEP = f"must nest at most {MAX_DEPTH} levels deep (a circular structure never ends)"


def nested_dicts(depth: int) -> dict[str, Any]:
    """A chain of dicts whose innermost {} sits ``depth`` levels below the top."""
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def nested_lists(depth: int) -> list[Any]:
    """A chain of lists whose innermost [] sits ``depth`` levels below the top."""
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def nested_tuples(depth: int) -> tuple[Any, ...]:
    """A chain of tuples whose innermost () sits ``depth`` levels below the top."""
    value: tuple[Any, ...] = ()
    for _ in range(depth):
        value = (value,)
    return value


def reject(value: object, path: str = "arguments") -> MessageError:
    """Encode ``value`` with InvalidToolCall errors and return the error raised."""
    with pytest.raises(MessageError) as info:
        encode(value, path, InvalidToolCall)
    assert type(info.value) is InvalidToolCall
    return info.value


# -- encode: what is accepted -------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ({"a": 1, "b": [1, 2]}, '{"a":1,"b":[1,2]}'),
        ({"b": 1, "a": 2}, '{"b":1,"a":2}'),
        ({"city": "Zürich", "emoji": "🌍"}, '{"city":"Zürich","emoji":"🌍"}'),
        ({"x": (1, (2, 3))}, '{"x":[1,[2,3]]}'),
        ({"t": True, "f": False, "n": None}, '{"t":true,"f":false,"n":null}'),
        ({"f": 1.5, "z": -0.0, "i": -7}, '{"f":1.5,"z":-0.0,"i":-7}'),
        ({"big": 10**100}, '{"big":' + str(10**100) + "}"),
        ({"s": 'a"b\\c\n'}, '{"s":"a\\"b\\\\c\\n"}'),
        ({}, "{}"),
        ([], "[]"),
        ((), "[]"),
        ([1, "a", None], '[1,"a",null]'),
        ("text", '"text"'),
        (5, "5"),
        (2.5, "2.5"),
        (True, "true"),
        (None, "null"),
    ],
)
def test_encode_writes_compact_json(value: object, text: str) -> None:
    """encode writes compact JSON, keeps key order and non-ASCII text, and writes tuples as arrays."""
    assert encode(value, "arguments", InvalidToolCall) == text


@pytest.mark.parametrize(
    "value",
    [
        MappingProxyType({"a": 1, "b": MappingProxyType({"c": [1]})}),
        Frozen(a=1, b=Frozen(c=(1,))),
        OrderedDict([("a", 1), ("b", {"c": [1]})]),
    ],
)
def test_encode_accepts_mappings_that_are_not_dicts(value: Mapping[str, Any]) -> None:
    """Any Mapping with str keys encodes as an object, nested ones included."""
    assert encode(value, "arguments", InvalidToolCall) == '{"a":1,"b":{"c":[1]}}'


def test_encode_accepts_subclasses_of_the_scalar_types() -> None:
    """Subclasses of str, int and float (an IntEnum, say) encode as their value."""

    class Text(str):
        pass

    class Number(float):
        pass

    class Level(enum.IntEnum):
        HIGH = 3

    value = {"s": Text("x"), "f": Number(1.5), "i": Level.HIGH}
    assert encode(value, "p", InvalidToolCall) == '{"s":"x","f":1.5,"i":3}'
    assert encode([Text("x")], "p", InvalidToolCall) == '["x"]'


def test_encode_accepts_shared_references() -> None:
    """The same list reached twice is not mistaken for a circular structure."""
    shared = [1, 2]
    assert encode({"a": shared, "b": shared}, "p", InvalidToolCall) == '{"a":[1,2],"b":[1,2]}'


def test_encode_uses_the_error_factory_it_is_given() -> None:
    """The error raised is the one the factory builds, so each caller chooses its error type."""
    with pytest.raises(InvalidMessage) as info:
        encode({1: 2}, "extra.meta", InvalidMessage)
    assert str(info.value) == "extra.meta: keys must be strings, got 1"

    def factory(path: str, rule: str, got: str | None) -> MessageError:
        return InvalidArguments(path, rule, got, call_id="c1", name="f")

    with pytest.raises(InvalidArguments) as args_info:
        encode({"x": {1, 2}}, "arguments", factory)
    assert (args_info.value.call_id, args_info.value.name) == ("c1", "f")
    assert args_info.value.path == "arguments.x"


# -- encode: what is rejected -------------------------------------------------


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({1: 2}, "arguments: keys must be strings, got 1"),
        ({True: 2}, "arguments: keys must be strings, got True"),
        ({None: 2}, "arguments: keys must be strings, got None"),
        ({("a",): 2}, "arguments: keys must be strings, got tuple"),
        ({"x": {1: 2}}, "arguments.x: keys must be strings, got 1"),
        ({"x": float("nan")}, "arguments.x: must be a finite number, got nan"),
        ({"x": float("inf")}, "arguments.x: must be a finite number, got inf"),
        ({"x": [1, float("-inf")]}, "arguments.x[1]: must be a finite number, got -inf"),
        ({"x": {1, 2}}, f"arguments.x: {NOT_JSON}, got set"),
        ({"x": frozenset()}, f"arguments.x: {NOT_JSON}, got frozenset"),
        ({"x": b"a"}, f"arguments.x: {NOT_JSON}, got bytes"),
        ({"x": bytearray(b"a")}, f"arguments.x: {NOT_JSON}, got bytearray"),
        ({"x": datetime.datetime(2024, 1, 1)}, f"arguments.x: {NOT_JSON}, got datetime"),
        ({"x": datetime.date(2024, 1, 1)}, f"arguments.x: {NOT_JSON}, got date"),
        ({"x": decimal.Decimal("1.5")}, f"arguments.x: {NOT_JSON}, got Decimal"),
        ({"x": 1j}, f"arguments.x: {NOT_JSON}, got complex"),
        ({"x": range(3)}, f"arguments.x: {NOT_JSON}, got range"),
        ({"x": object()}, f"arguments.x: {NOT_JSON}, got object"),
        ({"x": iter([1])}, f"arguments.x: {NOT_JSON}, got list_iterator"),
        ({"my key": {1}}, f'arguments["my key"]: {NOT_JSON}, got set'),
        ({"a": {"b": [0, {"c": {1}}]}}, f"arguments.a.b[1].c: {NOT_JSON}, got set"),
        ({'a"b': {1}}, f'arguments["a\\"b"]: {NOT_JSON}, got set'),
        ({"é": {1}}, f"arguments.é: {NOT_JSON}, got set"),
        ({"1": {1}}, f'arguments["1"]: {NOT_JSON}, got set'),
        ((1, {2}), f"arguments[1]: {NOT_JSON}, got set"),
        (float("nan"), "arguments: must be a finite number, got nan"),
        ({1, 2}, f"arguments: {NOT_JSON}, got set"),
        (b"{}", f"arguments: {NOT_JSON}, got bytes"),
    ],
)
def test_encode_rejects_what_is_not_json(value: object, message: str) -> None:
    """Non-str keys, NaN and infinities, sets, bytes, dates and objects are rejected with their path."""
    error = reject(value)
    assert str(error) == message


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"x": {1}}, f"x: {NOT_JSON}, got set"),
        ({"my key": {1}}, f'["my key"]: {NOT_JSON}, got set'),
        ([{1}], f"[0]: {NOT_JSON}, got set"),
        ({1: 1}, "keys must be strings, got 1"),
    ],
)
def test_encode_paths_start_cleanly_from_an_empty_path(value: object, message: str) -> None:
    """With an empty base path, the path is a bare name or a bare index."""
    with pytest.raises(InvalidToolCall) as info:
        encode(value, "", InvalidToolCall)
    assert str(info.value) == message


def test_encode_rejects_an_integer_too_long_to_write() -> None:
    """An int past the interpreter's digit limit is a clear error, not a bare ValueError."""
    error = reject({"x": 10**5000})
    assert error.path == "arguments"
    assert error.rule == "must be encodable as JSON"
    assert error.got is not None
    assert "4300" in error.got


# -- encode: depth and circular structures -----------------------------------


def test_max_depth_is_500() -> None:
    """The depth limit is 500 levels."""
    assert MAX_DEPTH == 500


@pytest.mark.parametrize("build", [nested_dicts, nested_lists, nested_tuples])
def test_encode_accepts_nesting_up_to_the_limit(build: Any) -> None:
    """A value whose deepest container is MAX_DEPTH levels down encodes, and decodes back."""
    value = build(MAX_DEPTH)
    text = encode(value, "arguments", InvalidToolCall)
    back = decode(text)
    assert json.dumps(back) == json.dumps(value)


@pytest.mark.parametrize(
    ("build", "kind"), [(nested_dicts, "dict"), (nested_lists, "list"), (nested_tuples, "tuple")]
)
def test_encode_rejects_nesting_past_the_limit(build: Any, kind: str) -> None:
    """One level past MAX_DEPTH is rejected, reported at the top with the value's type."""
    error = reject(build(MAX_DEPTH + 1))
    assert str(error) == f"arguments: {TOO_DEEP}, got {kind}"


def test_encode_does_not_count_scalar_leaves_as_levels() -> None:
    """A scalar inside the deepest allowed container is accepted: only containers count."""
    value: Any = 1
    for _ in range(MAX_DEPTH + 1):
        value = {"a": value}
    assert encode(value, "p", InvalidToolCall).endswith("1" + "}" * (MAX_DEPTH + 1))


def test_encode_rejects_nesting_100000_deep_without_recursion_error() -> None:
    """A dict nested 100,000 levels deep (built iteratively) is a clean error, not a RecursionError."""
    error = reject(nested_dicts(100_000))
    assert str(error) == f"arguments: {TOO_DEEP}, got dict"
    error = reject({"x": nested_lists(100_000)})
    assert str(error) == f"arguments: {TOO_DEEP}, got dict"


def test_encode_rejects_a_dict_containing_itself() -> None:
    """A circular dict is rejected by the depth limit instead of looping forever."""
    value: dict[str, Any] = {}
    value["self"] = value
    assert str(reject(value)) == f"arguments: {TOO_DEEP}, got dict"


def test_encode_rejects_a_list_containing_itself() -> None:
    """A circular list is rejected by the depth limit."""
    value: list[Any] = [1]
    value.append(value)
    assert str(reject(value)) == f"arguments: {TOO_DEEP}, got list"


def test_encode_rejects_mutually_circular_structures() -> None:
    """Two containers referring to each other are rejected."""
    a: dict[str, Any] = {}
    b: list[Any] = [a]
    a["b"] = b
    assert str(reject({"start": a})) == f"arguments: {TOO_DEEP}, got dict"


# -- decode -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"a": [1, 2.5, true, null, "x"]}', {"a": [1, 2.5, True, None, "x"]}),
        ("  [ ]  ", []),
        ('"\\u00e9\\ud83c\\udf0d"', "é🌍"),
        ("-0", 0),
        ("1e2", 100.0),
        (str(10**100), 10**100),
        ('{"a":1,"a":2}', {"a": 2}),
    ],
)
def test_decode_reads_json(text: str, value: JSON) -> None:
    """decode reads any JSON text into Python values."""
    assert decode(text) == value


def test_decode_keeps_int_and_float_apart() -> None:
    """1 decodes to an int and 1.0 to a float."""
    assert type(decode("1")) is int
    assert type(decode("1.0")) is float
    assert decode("true") is True


def test_decode_returns_fresh_objects() -> None:
    """Each decode builds new containers."""
    text = '{"a": [1]}'
    first = decode(text)
    second = decode(text)
    assert first == second
    assert first is not second


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("NaN", "NaN is not JSON"),
        ("[1, NaN]", "NaN is not JSON"),
        ('{"x": Infinity}', "Infinity is not JSON"),
        ("-Infinity", "-Infinity is not JSON"),
    ],
)
def test_decode_rejects_nan_and_infinity(text: str, message: str) -> None:
    """NaN, Infinity and -Infinity, which json.loads accepts, are not JSON."""
    with pytest.raises(ValueError, match=f"^{message}$"):
        decode(text)


@pytest.mark.parametrize("text", ["", " ", "{", '{"a": 1', "[1,]", "{'a': 1}", "{} x", "\u00a0{}", "nul"])
def test_decode_rejects_malformed_text_with_value_error(text: str) -> None:
    """Text that is not JSON raises ValueError."""
    with pytest.raises(ValueError):  # noqa: PT011 -- the message is json's own
        decode(text)


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000])
def test_decode_turns_recursion_error_into_value_error(text: str) -> None:
    """Text nested 100,000 levels deep raises ValueError, never RecursionError."""
    with pytest.raises(ValueError, match=r"^nested too deeply to decode$") as info:
        decode(text)
    assert not isinstance(info.value, RecursionError)
    assert info.value.__suppress_context__


# -- value_key ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ('{"a":1,"b":2}', '{"b": 2, "a": 1}'),
        ('{"a":[1,{"y":1,"x":2}]}', ' { "a" : [ 1 , { "x" : 2 , "y" : 1 } ] } '),
        ('{"city":"é"}', '{"city":"\\u00e9"}'),
        ("100.0", "1e2"),
        ("{}", " {\n} "),
    ],
)
def test_value_key_ignores_layout(one: str, other: str) -> None:
    """Texts with the same JSON value have the same key, whatever their key order or white space."""
    assert value_key(one) == value_key(other)
    assert value_key(one)[0] is True


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("true", "1"),
        ("false", "0"),
        ("1", "1.0"),
        ('{"x":true}', '{"x":1}'),
        ('{"x":1}', '{"x":1.0}'),
        ("null", '"null"'),
        ("[1,2]", "[2,1]"),
        ('{"a":1}', '{"a":1,"b":null}'),
    ],
)
def test_value_key_separates_different_values(one: str, other: str) -> None:
    """true and 1, 1 and 1.0, and other distinct values have distinct keys."""
    assert value_key(one) != value_key(other)


@pytest.mark.parametrize("text", ['{"city": "Par', "[1,]", "NaN", '{"x": Infinity}', "[" * 100_000, ""])
def test_value_key_of_text_that_is_not_json_is_the_text(text: str) -> None:
    """Text that is not JSON (also too deep to decode) is its own key, flagged as not JSON."""
    assert value_key(text) == (False, text)


def test_value_key_of_invalid_texts_depends_on_every_character() -> None:
    """Two invalid texts differing only in white space have different keys."""
    assert value_key('{"a": ') != value_key('{"a":')


# -- json_kind ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ({}, "object"),
        ({"a": 1}, "object"),
        ([], "array"),
        ("", "string"),
        (True, "boolean"),
        (False, "boolean"),
        (None, "null"),
        (0, "number"),
        (1.5, "number"),
    ],
)
def test_json_kind_names_json_types(value: JSON, kind: str) -> None:
    """json_kind gives the JSON name of a decoded value's type; bool is boolean, not number."""
    assert json_kind(value) == kind


def _nested_dict(depth: int) -> dict[str, Any]:
    """A dict nested ``depth`` levels below the top."""
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def _call_at_stack_depth(depth: int, function: Any) -> Any:
    """Call ``function`` with ``depth`` more Python frames on the stack."""
    if depth == 0:
        return function()
    return _call_at_stack_depth(depth - 1, function)


def test_encode_falls_back_to_the_iterative_check_on_a_deep_call_stack() -> None:
    """A value the fast recursive check cannot walk from a deep stack is still judged, by the walk."""
    error = InvalidArguments
    value = {"k": [_nested_dict(300)], "bad": {1: 2}}
    with pytest.raises(InvalidArguments) as caught:
        _call_at_stack_depth(800, lambda: encode(value, "arguments", error))
    assert str(caught.value) == "arguments.bad: keys must be strings, got 1"


def test_encode_from_a_deep_call_stack_raises_only_message_error() -> None:
    """Valid JSON that the C encoder cannot reach from a deep stack gives a MessageError, not RecursionError."""
    value = _nested_dict(400)
    with pytest.raises(InvalidArguments) as caught:
        _call_at_stack_depth(800, lambda: encode(value, "arguments", InvalidArguments))
    assert caught.value.rule == "is nested too deeply to encode from this deep a call stack"
    assert encode(value, "arguments", InvalidArguments).startswith('{"a":{"a":')


@pytest.mark.parametrize("text", ['{"a":1e400}', "[-2e999]", "1.5e309"])
def test_numbers_that_overflow_a_float_are_not_json(text: str) -> None:
    """Text whose number reads as infinity is refused: it could never be encoded back as JSON."""
    with pytest.raises(ValueError, match="out of range"):
        decode(text)
    assert value_key(text) == (False, text)


def test_large_finite_floats_still_decode() -> None:
    """1e308 fits a float and decodes."""
    assert decode("[1e308, -2.5e-300]") == [1e308, -2.5e-300]


# -- owned copies -------------------------------------------------------------


def _by_text(value: object) -> Any:
    """What ``owned`` must give: the value through its JSON text."""
    return decode(encode(value, "v", InvalidMessage))


def _same_json(a: object, b: object) -> bool:
    """Equal as JSON values and in Python types all the way down (True is not 1, 1 is not 1.0)."""
    return json.dumps(a) == json.dumps(b) and _types(a) == _types(b)


def _types(value: object) -> Any:
    if isinstance(value, dict):
        return {key: _types(child) for key, child in value.items()}
    if isinstance(value, list):
        return [_types(child) for child in value]
    return type(value).__name__


@settings(max_examples=300)
@given(s.arbitrary_json())
def test_owned_gives_what_the_json_text_gives(value: Any) -> None:
    """The plain one-pass copy equals the value read back from its JSON text, shares no container
    with the caller's value, and copied() gives an equal copy that shares none with it either."""
    copy = owned(value, "v", InvalidMessage)
    assert _same_json(copy, _by_text(value))
    assert not _shares_a_container(copy, value)
    again = copied(copy)
    assert _same_json(again, copy)
    assert not _shares_a_container(again, copy)


def _shares_a_container(a: object, b: object) -> bool:
    def containers(value: object) -> list[int]:
        found: list[int] = []
        pending = [value]
        while pending:
            node = pending.pop()
            if isinstance(node, (dict, list, tuple)):
                found.append(id(node))
                pending.extend(node.values() if isinstance(node, dict) else node)
        return found

    return bool(set(containers(a)) & set(containers(b)))


class _Weight(enum.IntEnum):
    HEAVY = 2


@pytest.mark.parametrize(
    "value",
    [
        (1, [2, (3,)]),
        OrderedDict(a=1),
        {"m": MappingProxyType({"b": [1.5]})},
        [_Weight.HEAVY, True, None, -0.0],
        {"big": 10**700},
        [[[[]]]],
        "text",
        7,
        2.5,
    ],
    ids=["tuples", "ordered", "proxy", "int-enum", "big-int", "nested", "str", "int", "float"],
)
def test_owned_normalises_what_is_not_plain_as_the_text_does(value: object) -> None:
    """Tuples, other mappings, int subclasses and very large ints go the text way: the same result."""
    assert _same_json(owned(value, "v", InvalidMessage), _by_text(value))


@pytest.mark.parametrize(
    ("value", "error"),
    [
        ({"a": [1, float("nan")]}, "v.a[1]: must be a finite number, got nan"),
        ({1: "x"}, "v: keys must be strings, got 1"),
        ([{"s": {1, 2}}], "v[0].s: must be JSON"),
        (float("inf"), "v: must be a finite number, got inf"),
    ],
)
def test_owned_refuses_what_encode_refuses(value: object, error: str) -> None:
    """A value that is not JSON raises the caller's error at its path, as encode says."""
    with pytest.raises(InvalidMessage) as raised:
        owned(value, "v", InvalidMessage)
    assert str(raised.value).startswith(error)
    assert plain_copy(value) is NOT_PLAIN


def test_owned_refuses_an_int_too_long_to_write() -> None:
    """An int longer than the interpreter's digit limit is refused, not kept (it could not be sent)."""
    with pytest.raises(InvalidMessage, match=r"^v: must be encodable as JSON"):
        owned({"n": 10 ** (sys.get_int_max_str_digits() + 1)}, "v", InvalidMessage)


def test_owned_copies_values_nested_to_the_limit_and_refuses_deeper() -> None:
    """MAX_DEPTH levels are copied; one more is refused with encode's words."""
    deep: Any = []
    for _ in range(MAX_DEPTH - 1):
        deep = [deep]
    copy = owned(deep, "v", InvalidMessage)
    assert copy == deep
    assert copy is not deep
    with pytest.raises(InvalidMessage, match=r"^v: must nest at most"):
        owned([deep, [[deep]]], "v", InvalidMessage)


def test_owned_says_so_when_the_text_cannot_be_read_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where decoding the text fails (nested too deeply for the caller's call stack), owned
    raises the caller's error at the path, not the decoder's ValueError."""
    import toolturns._json as module

    def too_deep(text: str) -> Any:
        raise ValueError("nested too deeply to decode")

    monkeypatch.setattr(module, "decode", too_deep)
    with pytest.raises(InvalidMessage, match=r"^v: nested too deeply to decode, got "):
        owned(OrderedDict(a=[1]), "v", InvalidMessage)


# -- a caller's arguments, encoded in one step -----------------------------------


def test_a_call_from_a_deep_call_stack_is_refused_as_encode_refuses() -> None:
    """ToolCall's one-step encoding leaves a deep stack's RecursionError to encode, which says so."""
    value = _nested_dict(400)
    assert encoded_plain(value) == encode(value, "arguments", InvalidArguments)
    with pytest.raises(InvalidArguments) as caught:
        _call_at_stack_depth(800, lambda: ToolCall("call_1", "f", value))
    assert (caught.value.path, caught.value.rule) == (
        "arguments",
        "is nested too deeply to encode from this deep a call stack",
    )


def test_a_call_with_an_int_too_long_to_write_is_refused_as_encode_refuses() -> None:
    """The one-step encoding leaves an int past the digit limit to encode, which names the rule."""
    value = {"n": 10 ** (sys.get_int_max_str_digits() + 1)}
    assert encoded_plain(value) is None
    with pytest.raises(InvalidArguments, match=r"^arguments: must be encodable as JSON") as caught:
        ToolCall("call_1", "f", value)
    assert (caught.value.call_id, caught.value.name) == ("call_1", "f")


def test_without_the_c_encoder_a_call_is_encoded_the_general_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where json has no C encoder, encoded_plain declines and encode's own encoder writes the same text."""
    arguments = {"city": "Kraków", "days": [1, 2.5, None, True], "nested": {"a": {}}}
    fast = ToolCall("call_1", "f", arguments).arguments_json
    monkeypatch.setattr(_json, "_C_ENCODER", None)
    assert encoded_plain(arguments) is None
    assert (
        ToolCall("call_1", "f", arguments).arguments_json
        == fast
        == '{"city":"Kraków","days":[1,2.5,null,true],"nested":{"a":{}}}'
    )


# -- SameJSON: the same JSON, where Python's == cannot tell ------------------------------------


@pytest.mark.parametrize(
    ("kept", "given", "same"),
    [
        ({"minimum": 1}, {"minimum": 1}, True),
        ({"minimum": 1}, {"minimum": True}, False),
        ({"minimum": True}, {"minimum": 1}, False),
        ({"a": [0, {"b": False}]}, {"a": [0, {"b": 0}]}, False),
        ({"a": [0, {"b": False}]}, {"a": [False, {"b": False}]}, False),
        ({"a": [0.0]}, {"a": [0]}, False),
        ({"a": (1,)}, {"a": (True,)}, False),
        ({"n": 2}, {"n": 2.0}, True),  # no rule tells these apart: one spelling may be shown for the other
        ({"a": [1, 2]}, {"a": [1, 3]}, False),
        ([{"strict": True, "x": "1"}], [{"strict": True, "x": "1"}], True),
    ],
)
def test_same_json_tells_booleans_from_0_and_1(kept: object, given: object, same: bool) -> None:
    """Equal by Python's == and, where the kept value holds a boolean, a 0 or a 1, of the same type there."""
    twin = _json.SameJSON(kept)
    assert twin.matches(given) is same
    assert twin.matches(given) is same  # the places found once, then reused


class _Raising(dict[str, object]):
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparing")

    __hash__ = None


class _Unindexable(dict[str, object]):
    def __getitem__(self, key: str) -> object:
        raise RuntimeError("no lookups")


def test_same_json_takes_a_failing_value_as_another() -> None:
    """A caller's value whose comparison or lookup raises is simply not the same JSON."""
    assert not _json.SameJSON({"a": 1}).matches(_Raising(a=1))
    assert not _json.SameJSON({"a": 1}).matches(_Unindexable(a=1))
    assert _json.SameJSON({"a": "x"}).matches(_Unindexable(a="x"))  # no place to look up
