"""Unit tests for toolturns._arguments: the empties rule, encoding and decoding argument text."""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping
from decimal import Decimal
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import Frozen, stable_id
from toolturns import InvalidArguments, MessageError
from toolturns._arguments import (
    EMPTY_ARGUMENTS,
    Inexact,
    decode_arguments,
    decode_arguments_exactly,
    encode_arguments,
)

NOT_JSON = "must be JSON (a str-keyed mapping, list, tuple, str, int, finite float, bool or None)"
NOT_ARGUMENTS = "must be a mapping, JSON text (str) or None"


def encode(value: object) -> str:
    """encode_arguments for the call c1 of tool f."""
    return encode_arguments(value, call_id="c1", name="f")


def decode(text: str) -> dict[str, Any]:
    """decode_arguments for the call c1 of tool f."""
    return decode_arguments(text, call_id="c1", name="f")


def encode_error(value: object) -> InvalidArguments:
    """The InvalidArguments raised by encoding ``value``."""
    with pytest.raises(MessageError) as info:
        encode(value)
    assert type(info.value) is InvalidArguments
    assert isinstance(info.value, InvalidArguments)
    return info.value


def decode_error(text: str) -> InvalidArguments:
    """The InvalidArguments raised by decoding ``text``."""
    with pytest.raises(MessageError) as info:
        decode(text)
    assert type(info.value) is InvalidArguments
    assert isinstance(info.value, InvalidArguments)
    return info.value


def test_empty_arguments_is_an_empty_object() -> None:
    """No arguments are sent as the two characters {}."""
    assert EMPTY_ARGUMENTS == "{}"


# -- the empties rule ---------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        None,
        {},
        MappingProxyType({}),
        Frozen(),
        OrderedDict(),
        "",
        " ",
        " \t\n\r",
        "\r\n\r\n",
        "{}",
        "null",
        " null ",
        "\n\tnull\r\n",
    ],
    ids=stable_id,
)
def test_empties_become_an_empty_object(value: object) -> None:
    """None, empty mappings, empty or JSON-white-space text and the text null all become {}."""
    assert encode(value) == "{}"


@pytest.mark.parametrize(
    "text",
    [
        "\u00a0",  # no-break space: str.strip() removes it, JSON does not allow it
        "\u00a0null",
        "\x0b",  # vertical tab
        "\x0c",  # form feed
        "\u2028",
        "\u3000",
        "\ufeff",
        "NULL",
        "Null",
        "nul",
        "null null",
        "null,",
        '"null"',
        "[]",
        "[null]",
        " {} ",
        "{ }",
        '{"a": 1}',
        ' {"a" : 1} \n',
        '{"city": "Par',
        "[1]",
        "{'a': 1}",
        "0",
        "false",
    ],
    ids=stable_id,
)
def test_other_text_is_kept_byte_for_byte(text: str) -> None:
    """Any other text, even when not JSON, is kept exactly as given."""
    assert encode(text) == text


def test_no_break_space_is_not_white_space() -> None:
    """U+00A0 is not JSON white space: the text is kept raw, and reading it is an error."""
    text = encode("\u00a0")
    assert text == "\u00a0"
    error = decode_error(text)
    assert error.raw == "\u00a0"
    assert error.rule.startswith("must be valid JSON (")


# -- encoding mappings --------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ({"city": "Paris"}, '{"city":"Paris"}'),
        ({"b": 1, "a": [1, 2], "c": {"d": None}}, '{"b":1,"a":[1,2],"c":{"d":null}}'),
        ({"x": None}, '{"x":null}'),
        ({"x": {}}, '{"x":{}}'),
        ({"city": "Zürich", "emoji": "🌍", "cjk": "東京"}, '{"city":"Zürich","emoji":"🌍","cjk":"東京"}'),
        ({"t": (1, ("a", True))}, '{"t":[1,["a",true]]}'),
        ({"f": 0.1, "i": 10**30, "b": False}, '{"f":0.1,"i":' + str(10**30) + ',"b":false}'),
        (MappingProxyType({"a": MappingProxyType({"b": 1})}), '{"a":{"b":1}}'),
        (Frozen(a=Frozen(b=(1,))), '{"a":{"b":[1]}}'),
        (OrderedDict([("z", 1), ("a", 2)]), '{"z":1,"a":2}'),
    ],
)
def test_mappings_are_encoded_as_compact_json(value: Mapping[str, Any], text: str) -> None:
    """A mapping (dict or not) is written as compact JSON text, in its own key order, non-ASCII kept."""
    assert encode(value) == text


def test_encoding_a_mapping_copies_it() -> None:
    """Changing the mapping after encoding does not change the text."""
    value: dict[str, Any] = {"a": [1]}
    text = encode(value)
    value["a"].append(2)
    value["b"] = 3
    assert text == '{"a":[1]}'


# -- encoding rejects ---------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "got"),
    [
        ([], "list"),
        ([{"a": 1}], "list"),
        ((), "tuple"),
        (5, "5"),
        (0, "0"),
        (1.5, "1.5"),
        (float("inf"), "inf"),
        (float("nan"), "nan"),
        (True, "True"),
        (False, "False"),
        (b"{}", "bytes"),
        (bytearray(b"{}"), "bytearray"),
        ({"a"}, "set"),
        (object(), "object"),
    ],
    ids=stable_id,
)
def test_values_that_are_not_a_mapping_text_or_none_are_rejected(value: object, got: str) -> None:
    """Lists, tuples, numbers, bools, bytes, sets and objects are not arguments."""
    error = encode_error(value)
    assert str(error) == f"arguments: {NOT_ARGUMENTS}, got {got}"
    assert (error.path, error.rule, error.got) == ("arguments", NOT_ARGUMENTS, got)
    assert (error.call_id, error.name, error.raw) == ("c1", "f", None)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({1: 2}, "arguments: keys must be strings, got 1"),
        ({"x": float("nan")}, "arguments.x: must be a finite number, got nan"),
        ({"x": {1, 2}}, f"arguments.x: {NOT_JSON}, got set"),
        ({"x": b"a"}, f"arguments.x: {NOT_JSON}, got bytes"),
        (MappingProxyType({"x": [object()]}), f"arguments.x[0]: {NOT_JSON}, got object"),
    ],
)
def test_mappings_that_are_not_json_are_rejected(value: Mapping[Any, Any], message: str) -> None:
    """A mapping holding something that is not JSON raises InvalidArguments naming the call."""
    error = encode_error(value)
    assert str(error) == message
    assert (error.call_id, error.name, error.raw) == ("c1", "f", None)


# -- decoding -----------------------------------------------------------------


def test_decoding_empty_arguments_gives_a_fresh_dict() -> None:
    """{} decodes to a new empty dict on every call."""
    first = decode("{}")
    second = decode("{}")
    assert first == second == {}
    assert first is not second


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"city":"Paris"}', {"city": "Paris"}),
        (' { "a" : [1, {"b": null}] } ', {"a": [1, {"b": None}]}),
        ('{"x": true, "y": 1, "z": 1.0}', {"x": True, "y": 1, "z": 1.0}),
        ("{ }", {}),
    ],
)
def test_decoding_object_text_gives_a_dict(text: str, value: dict[str, Any]) -> None:
    """Text holding a JSON object decodes to a dict of its values."""
    assert decode(text) == value


def test_decoding_gives_fresh_containers() -> None:
    """Each decode builds new containers, so changing one result changes nothing else."""
    text = '{"a": [1]}'
    first = decode(text)
    first["a"].append(2)
    assert decode(text) == {"a": [1]}


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ('{"city": "Par', "Unterminated string starting at: line 1 column 10 (char 9)"),
        ("", "Expecting value: line 1 column 1 (char 0)"),
        ("\u00a0", "Expecting value: line 1 column 1 (char 0)"),
        ("{'a': 1}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
        ("{} x", "Extra data: line 1 column 4 (char 3)"),
        ('{"x": NaN}', "NaN is not JSON"),
        ('{"x": -Infinity}', "-Infinity is not JSON"),
    ],
    ids=stable_id,
)
def test_decoding_text_that_is_not_json_is_an_error(text: str, detail: str) -> None:
    """Malformed text raises InvalidArguments saying why, carrying call_id, name and the raw text."""
    error = decode_error(text)
    assert str(error) == f"arguments: must be valid JSON ({detail}), got {text!r}"
    assert (error.path, error.rule, error.got) == ("arguments", f"must be valid JSON ({detail})", repr(text))
    assert (error.call_id, error.name, error.raw) == ("c1", "f", text)


def test_decoding_text_nested_too_deeply_is_an_error() -> None:
    """Text nested 100,000 levels deep raises InvalidArguments, never RecursionError; got is cut short."""
    text = '{"a":' * 100_000 + "1" + "}" * 100_000
    error = decode_error(text)
    shown = repr(text)
    assert str(error) == (
        f"arguments: must be valid JSON (nested too deeply to decode), got {shown[:60]}... ({len(shown)} characters)"
    )
    assert error.raw == text


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("[1]", "array"),
        ("[]", "array"),
        ('"x"', "string"),
        ('"null"', "string"),
        ("42", "number"),
        ("1.5", "number"),
        ("true", "boolean"),
        ("null", "null"),
    ],
)
def test_decoding_json_that_is_not_an_object_is_an_error(text: str, kind: str) -> None:
    """JSON that is not an object raises InvalidArguments naming the JSON type it is."""
    error = decode_error(text)
    assert str(error) == f"arguments: must be a JSON object, got {kind}"
    assert (error.call_id, error.name, error.raw) == ("c1", "f", text)


# -- decoding exactly, for a wire that carries arguments as an object ----------------------


def exactly(text: str) -> dict[str, Any] | Inexact:
    """decode_arguments_exactly for the call c1 of tool f."""
    return decode_arguments_exactly(text, call_id="c1", name="f")


@pytest.mark.parametrize(
    "text",
    [
        '{"city":"Paris"}',
        '{"x": 0.1, "y": 1.0, "z": 1E2, "w": -0.0, "v": 1.50, "u": 10.00, "t": 2.5e-3}',
        '{"x": 5e-324, "y": 1.7976931348623157e308, "z": 1e22, "w": 0e-99999999999999999999}',
        '{"n": 123456789012345678901234567890, "m": -0}',
        '{"url": "https://example.com:443/a", "at": "12:00"}',
        '{"a": {"b": "x:y", "c": [{"d": 1}, {"d": 2}]}, "e": [[{"f": null}]]}',
        '{"a:b": 1, "a": 2}',
        '{"a:b": [true, false, null, 1.5, {"c": "d"}], "a": 2}',
        '{"a": "\\u003a", "b": "\\\\u003a", "c": 1}',
        '{"a": 1, "A": 2, "\\u00e9": 3, "é ": 4}',
        ' \n{"a" : 1 ,"b":2}\t',
        "{}",
        "{ }",
    ],
)
def test_text_an_object_carries_exactly_decodes_as_usual(text: str) -> None:
    """Without a repeated key or a number a double changes, the text decodes to what decode_arguments gives."""
    value = exactly(text)
    assert type(value) is dict
    assert value == decode(text)


def test_decoding_exactly_gives_fresh_dicts() -> None:
    """Each call gives a new dict, {} included."""
    for text in ("{}", '{"a": [1]}'):
        first = exactly(text)
        assert first is not exactly(text)


@pytest.mark.parametrize(
    ("text", "path", "rule"),
    [
        ('{"a": 1, "a": 2}', "arguments", "repeated key 'a'"),
        ('{"a": 1, "a": 1}', "arguments", "repeated key 'a'"),
        ('{"x": {"a": 1, "a": 2}}', "arguments.x", "repeated key 'a'"),
        ('{"x": [{"b": 1}, {"a": "12:00", "a": 1}]}', "arguments.x[1]", "repeated key 'a'"),
        ('{"a b": {"c": 1, "d": 2, "c": 3}}', 'arguments["a b"]', "repeated key 'c'"),
        ('{"x": [true, false, null, "t"], "y": {"n": null, "n": true}}', "arguments.y", "repeated key 'n'"),
        ('{"a": 1, "\\u0061": 2}', "arguments", "repeated key 'a'"),
        (' { "k:1" : 1 , "k:1" : 2 } ', "arguments", "repeated key 'k:1'"),
        ('{"a": "x", "b": {"u": "\\u003a"}, "a": 1}', "arguments", "repeated key 'a'"),
        ('{"x": 1e-400}', "arguments.x", "the number 1e-400 would be sent as 0.0"),
        ('{"x": -1e-400}', "arguments.x", "the number -1e-400 would be sent as -0.0"),
        (
            '{"x": 12345678901234567890.5}',
            "arguments.x",
            "the number 12345678901234567890.5 would be sent as 1.2345678901234567e+19",
        ),
        (
            '{"x": 0.10000000000000000001}',
            "arguments.x",
            "the number 0.10000000000000000001 would be sent as 0.1",
        ),
        (
            '{"x": [1, 2.5, 3e-999999999999999999999]}',
            "arguments.x[2]",
            "the number 3e-999999999999999999999 would be sent as 0.0",
        ),
        (
            '{"x": [[0.5], {"y": 2.5e-324}]}',
            "arguments.x[1].y",
            "the number 2.5e-324 would be sent as 5e-324",
        ),
        (
            '{"x": 0.1' + "0" * 50 + "1}",
            "arguments.x",
            f"the number 0.1{'0' * 37}... would be sent as 0.1",
        ),
        ('{"a": 1, "a": 1e-400}', "arguments", "repeated key 'a'"),
        ('{"a": 1e-400, "b": 1, "b": 2}', "arguments.a", "the number 1e-400 would be sent as 0.0"),
    ],
    ids=stable_id,
)
def test_a_repeated_key_or_a_changed_number_is_inexact(text: str, path: str, rule: str) -> None:
    """The first repeated key or changed number in the text is named, with where it is inside the arguments."""
    value = exactly(text)
    assert isinstance(value, Inexact)
    assert (value.path, value.rule) == (path, rule)


@pytest.mark.parametrize(
    "text",
    [
        '{"x": 1e400}',
        '{"x": -1e999999999999999999999, "x": 1}',
        '{"x": NaN}',
        '{"a": 1, "a": 2',
        "[1]",
        '"x"',
        "{'a': 1}",
        '{"a": 1} x',
        '{"a":' * 100_000 + "1" + "}" * 100_000,
    ],
    ids=lambda text: repr(text[:30]),
)
def test_text_that_is_not_an_object_raises_as_when_decoding(text: str) -> None:
    """Malformed text, numbers out of a double's range and non-objects raise what decode_arguments raises."""
    with pytest.raises(MessageError) as info:
        exactly(text)
    expected = decode_error(text)
    assert type(info.value) is InvalidArguments
    assert isinstance(info.value, InvalidArguments)
    assert (info.value.path, info.value.rule, info.value.got, info.value.raw) == (
        expected.path,
        expected.rule,
        expected.got,
        expected.raw,
    )
    assert (info.value.call_id, info.value.name) == ("c1", "f")


# The texts of the property below: objects of a few keys that repeat often,
# spelled plainly, escaped (\u0061 is a) or with a colon inside; values with
# colons inside strings (a colon outside one separates a key from its value),
# \u003a (a colon), numbers exact and not.
_SPACES = st.sampled_from(["", " ", "\n  "])
_KEYS = st.sampled_from(['"a"', '"b"', '"\\u0061"', '"a:b"', '"a\\u003ab"', '"é"', '"\\u00e9"'])
_STRINGS = st.sampled_from(['"x"', '"12:00"', '"http://h:1/"', '"\\u003a"', '"\\\\u003a"', '"\\":\\""', '""'])
_NUMBERS = st.one_of(
    st.sampled_from(["1", "-0", "0.1", "1.0", "1E2", "-0.0", "1.50", "1e-400", "12345678901234567890.5"]),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.builds("{}e{}".format, st.integers(-(10**20), 10**20), st.integers(-400, 280)),
    st.builds("{}.{}".format, st.integers(-(10**6), 10**6), st.integers(0, 10**25)),
)


def _object(members: list[tuple[str, str, str, str]]) -> str:
    return "{" + ",".join(f"{before}{key}{after}:{value}" for before, key, after, value in members) + "}"


def _objects(values: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.lists(st.tuples(_SPACES, _KEYS, _SPACES, values), max_size=4).map(_object)


_VALUES = st.recursive(
    st.one_of(_STRINGS, _NUMBERS, st.sampled_from(["true", "false", "null"])),
    lambda children: st.one_of(
        _objects(children), st.lists(children, max_size=3).map(",".join).map("[{}]".format)
    ),
    max_leaves=12,
)
_TEXTS = st.builds("{}{}{}".format, _SPACES, _objects(_VALUES), _SPACES)


def _losses(text: str) -> set[str]:
    """What an independent reading finds: each repeated key and each number a double changes."""
    found: set[str] = set()

    def members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in pairs]
        found.update(f"repeated key {key!r}" for key in keys if keys.count(key) > 1)
        return dict(pairs)

    def number(token: str) -> float:
        value = float(token)
        if Decimal(token) != Decimal(repr(value)):
            found.add(f"the number {token} would be sent as {value!r}")
        return value

    json.loads(text, object_pairs_hook=members, parse_float=number)
    return found


@settings(max_examples=500)
@given(_TEXTS)
def test_decoding_exactly_finds_every_loss_and_only_losses(text: str) -> None:
    """Against a reading that checks every object's keys and every number: a text with a loss is
    Inexact and names one of them (the quick count that lets most texts skip the check never
    misses a repeated key); a text without one decodes as json.loads decodes it."""
    losses = _losses(text)
    value = exactly(text)
    if losses:
        assert isinstance(value, Inexact)
        assert value.rule in losses
    else:
        assert value == json.loads(text)


@given(st.floats(allow_nan=False, allow_infinity=False), st.integers(0, 3), st.booleans())
def test_every_spelling_of_a_float_is_exact(number: float, zeros: int, upper: bool) -> None:
    """A float's repr, with trailing zeros or E, is sent as the number it spells: never Inexact."""
    mantissa, _, exponent = repr(number).partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    text = mantissa + "0" * zeros + ("E" if upper else "e") + (exponent or "0")
    assert exactly(f'{{"x": {text}}}') == {"x": number}


_FLOAT_TOKENS = st.one_of(
    st.builds("{}.{}e{}".format, st.integers(-(10**8), 10**8), st.integers(0, 10**8), st.integers(-330, 300)),
    st.builds("{}.{}".format, st.integers(-(10**9), 10**9), st.integers(0, 10**12)),
)


@settings(max_examples=300)
@given(_FLOAT_TOKENS)
def test_a_float_is_inexact_exactly_when_its_decimal_differs_from_its_repr(token: str) -> None:
    """Short tokens, subnormal ones included (the quick check trusts 15 digits only for normal
    doubles): Inexact exactly when the decimal the token spells is not the repr's."""
    value = float(token)
    changed = Decimal(token) != Decimal(repr(value))
    result = exactly(f'{{"x": {token}}}')
    assert isinstance(result, Inexact) == changed
    if changed:
        assert result == Inexact("arguments.x", f"the number {token} would be sent as {value!r}")
