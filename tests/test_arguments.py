"""Unit tests for toolturns._arguments: the empties rule, encoding and decoding argument text."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest

from tests.conftest import Frozen
from toolturns import InvalidArguments, MessageError
from toolturns._arguments import EMPTY_ARGUMENTS, decode_arguments, encode_arguments

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
    ids=repr,
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
    ids=repr,
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
    ids=repr,
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
    ids=repr,
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
