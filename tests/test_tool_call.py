"""Unit tests for toolturns.ToolCall: construction, arguments, the wire pair, equality and immutability."""

from __future__ import annotations

import copy
import dataclasses
import datetime
import json
import pickle
from dataclasses import FrozenInstanceError
from types import MappingProxyType
from typing import Any

import pytest

from toolturns import ChatMessage, InvalidArguments, InvalidToolCall, MessageError, ToolCall
from toolturns._extra import Extra

NOT_JSON = "must be JSON (a str-keyed mapping, list, tuple, str, int, finite float, bool or None)"
NOT_ARGUMENTS = "must be a mapping, JSON text (str) or None"
NOT_STRING = "must be a non-empty string"
#: A call's index is its position in its turn's tool_calls, never an extra key.
INDEX_IN_EXTRA = (
    "is the call's position in its turn's tool_calls, not an extra key "
    "(the order of the calls says it, and OpenAI refuses index in a request)"
)
NOT_A_POSITION = "must be a non-negative integer (the call's position in its turn's tool_calls)"
TOO_DEEP = "must nest at most 500 levels deep (a circular structure never ends)"
MALFORMED = '{"city": "Par'
UNTERMINATED = "Unterminated string starting at: line 1 column 10 (char 9)"


def nested_dicts(depth: int) -> dict[str, Any]:
    """A chain of dicts ``depth`` levels deep, built without recursion."""
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def deep_text(depth: int) -> str:
    """JSON text of an object nested ``depth`` levels deep."""
    return '{"a":' * depth + "1" + "}" * depth


def wire(call_id: Any = "c1", name: Any = "f", arguments: Any = "{}", **more: Any) -> dict[str, Any]:
    """A tool call in the OpenAI wire form."""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}, **more}


#: A wire call with an extra top-level key that is not a string.
INT_KEY: dict[Any, Any] = {**wire(), 1: "x"}


def build_error(*args: Any, **kwargs: Any) -> MessageError:
    """The MessageError raised by ToolCall(*args, **kwargs)."""
    with pytest.raises(MessageError) as info:
        ToolCall(*args, **kwargs)
    return info.value


def read_error(data: Any) -> MessageError:
    """The MessageError raised by ToolCall.from_dict(data)."""
    with pytest.raises(MessageError) as info:
        ToolCall.from_dict(data)
    return info.value


# -- construction: accepting side --------------------------------------------


def test_a_call_has_id_name_and_argument_text() -> None:
    """A call keeps its id and name and stores a mapping as compact JSON text."""
    call = ToolCall("call_1", "get_weather", {"city": "Paris", "days": 3})
    assert call.id == "call_1"
    assert call.name == "get_weather"
    assert call.arguments_json == '{"city":"Paris","days":3}'
    assert call.arguments == {"city": "Paris", "days": 3}
    assert call.extra == {}


@pytest.mark.parametrize(
    "arguments", [None, {}, MappingProxyType({}), "", " \t\n\r", "null", " null "], ids=repr
)
def test_no_arguments_are_stored_as_an_empty_object(arguments: Any) -> None:
    """None, {}, empty or white-space text and null all give arguments_json {} and arguments {}."""
    call = ToolCall("c1", "f", arguments)
    assert call.arguments_json == "{}"
    assert call.arguments == {}
    assert call == ToolCall("c1", "f")


def test_arguments_default_to_none() -> None:
    """A call built without arguments has none."""
    assert ToolCall("c1", "f").arguments_json == "{}"


def test_no_break_space_arguments_are_kept_raw() -> None:
    """U+00A0 is not white space for JSON: the text is kept, and reading it is an error."""
    call = ToolCall("c1", "f", "\u00a0")
    assert call.arguments_json == "\u00a0"
    with pytest.raises(InvalidArguments):
        _ = call.arguments


def test_text_arguments_are_kept_byte_for_byte() -> None:
    """Valid JSON text is stored exactly as given, white space and escapes included."""
    text = ' { "city" : "Z\\u00fcrich" ,\n "days": 3 } '
    call = ToolCall("c1", "f", text)
    assert call.arguments_json == text
    assert call.to_wire()["function"]["arguments"] == text
    assert call.arguments == {"city": "Zürich", "days": 3}


@pytest.mark.parametrize(
    ("arguments", "text"),
    [
        (MappingProxyType({"a": (1, 2)}), '{"a":[1,2]}'),
        ({"t": (True, None)}, '{"t":[true,null]}'),
        ({"city": "東京", "emoji": "🌍"}, '{"city":"東京","emoji":"🌍"}'),
    ],
)
def test_non_dict_mappings_and_tuples_are_accepted(arguments: Any, text: str) -> None:
    """Any Mapping is accepted, tuples inside become arrays, non-ASCII text is kept."""
    assert ToolCall("c1", "f", arguments).arguments_json == text


def test_a_mapping_is_copied_at_construction() -> None:
    """Changing the mapping passed in does not change the call."""
    arguments: dict[str, Any] = {"tags": ["a"]}
    call = ToolCall("c1", "f", arguments)
    arguments["tags"].append("b")
    arguments["new"] = 1
    assert call.arguments == {"tags": ["a"]}


def test_arguments_is_a_fresh_dict_on_every_access() -> None:
    """.arguments returns a new dict each time; changing it does not change the call."""
    call = ToolCall("c1", "f", {"tags": ["a"], "n": {"x": 1}})
    first = call.arguments
    second = call.arguments
    assert first == second
    assert first is not second
    assert first["tags"] is not second["tags"]
    first["tags"].append("b")
    first["n"]["x"] = 2
    first["new"] = True
    assert call.arguments == {"tags": ["a"], "n": {"x": 1}}
    assert call.arguments_json == '{"tags":["a"],"n":{"x":1}}'


def test_empty_arguments_are_a_fresh_dict_on_every_access() -> None:
    """.arguments of a call without arguments is a new empty dict each time."""
    call = ToolCall("c1", "f")
    first = call.arguments
    first["x"] = 1
    assert call.arguments == {}
    assert call.arguments is not call.arguments


def test_ids_and_names_may_be_any_non_empty_string() -> None:
    """Any non-empty str is a valid id or name (providers choose their own formats)."""
    call = ToolCall("toolu_01A09q90qw90lq917835lq9", "weather.get-now")
    assert (call.id, call.name) == ("toolu_01A09q90qw90lq917835lq9", "weather.get-now")


# -- construction: rejecting side --------------------------------------------


@pytest.mark.parametrize(
    ("call_id", "name", "message"),
    [
        ("", "f", "id: must be a non-empty string, got ''"),
        (None, "f", "id: must be a non-empty string, got None"),
        (5, "f", "id: must be a non-empty string, got 5"),
        (b"c1", "f", "id: must be a non-empty string, got bytes"),
        (["c1"], "f", "id: must be a non-empty string, got list"),
        ("c1", "", "name: must be a non-empty string, got ''"),
        ("c1", None, "name: must be a non-empty string, got None"),
        ("c1", 5, "name: must be a non-empty string, got 5"),
        ("", "", "id: must be a non-empty string, got ''"),
    ],
)
def test_id_and_name_must_be_non_empty_strings(call_id: Any, name: Any, message: str) -> None:
    """An empty, missing or non-str id or name raises InvalidToolCall naming the field."""
    error = build_error(call_id, name)
    assert type(error) is InvalidToolCall
    assert str(error) == message
    assert error.rule == NOT_STRING


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({1: 2}, "arguments: keys must be strings, got 1"),
        ({"x": float("nan")}, "arguments.x: must be a finite number, got nan"),
        ({"x": float("inf")}, "arguments.x: must be a finite number, got inf"),
        (float("inf"), f"arguments: {NOT_ARGUMENTS}, got inf"),
        ({"x": {1, 2}}, f"arguments.x: {NOT_JSON}, got set"),
        ({"x": b"a"}, f"arguments.x: {NOT_JSON}, got bytes"),
        ({"x": datetime.datetime.now()}, f"arguments.x: {NOT_JSON}, got datetime"),
        ({"x": [1, {"y": object()}]}, f"arguments.x[1].y: {NOT_JSON}, got object"),
        ([], f"arguments: {NOT_ARGUMENTS}, got list"),
        ([("a", 1)], f"arguments: {NOT_ARGUMENTS}, got list"),
        ((), f"arguments: {NOT_ARGUMENTS}, got tuple"),
        (5, f"arguments: {NOT_ARGUMENTS}, got 5"),
        (True, f"arguments: {NOT_ARGUMENTS}, got True"),
        (b"{}", f"arguments: {NOT_ARGUMENTS}, got bytes"),
        (object(), f"arguments: {NOT_ARGUMENTS}, got object"),
    ],
)
def test_arguments_that_are_not_json_are_rejected_now(arguments: Any, message: str) -> None:
    """Arguments that are not a JSON mapping, text or None raise InvalidArguments at construction."""
    error = build_error("c1", "f", arguments)
    assert type(error) is InvalidArguments
    assert isinstance(error, InvalidArguments)
    assert str(error) == message
    assert (error.call_id, error.name, error.raw) == ("c1", "f", None)


def test_arguments_nested_100000_deep_are_rejected() -> None:
    """A dict nested 100,000 levels deep is a clean InvalidArguments, not a RecursionError."""
    error = build_error("c1", "f", nested_dicts(100_000))
    assert type(error) is InvalidArguments
    assert str(error) == f"arguments: {TOO_DEEP}, got dict"


def test_circular_arguments_are_rejected() -> None:
    """A dict containing itself is rejected, not walked forever."""
    arguments: dict[str, Any] = {}
    arguments["me"] = arguments
    error = build_error("c1", "f", arguments)
    assert type(error) is InvalidArguments
    assert str(error) == f"arguments: {TOO_DEEP}, got dict"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([("a", 1)], "extra: must be a mapping of str to JSON, got list"),
        ({1: "x"}, "extra: keys must be strings, got 1"),
        ({"id": "c2"}, "extra.id: is a modelled field, not an extra key, got 'c2'"),
        ({"type": None}, "extra.type: is a modelled field, not an extra key, got None"),
        ({"function": {}}, "extra.function: is a modelled field, not an extra key, got dict"),
        ({"seq": float("nan")}, "extra.seq: must be a finite number, got nan"),
        ({"index": 0}, f"extra.index: {INDEX_IN_EXTRA}, got 0"),
        ({"meta": {"tags": {1}}}, f"extra.meta.tags: {NOT_JSON}, got set"),
    ],
)
def test_extra_must_be_unmodelled_json(extra: Any, message: str) -> None:
    """extra must be a str-keyed mapping of JSON without the modelled keys id, type and function."""
    error = build_error("c1", "f", extra=extra)
    assert type(error) is InvalidToolCall
    assert str(error) == message


# -- malformed arguments from a model ----------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (MALFORMED, f"arguments: must be valid JSON ({UNTERMINATED}), got '{MALFORMED}'"),
        ("[1]", "arguments: must be a JSON object, got array"),
        ('"x"', "arguments: must be a JSON object, got string"),
        ("42", "arguments: must be a JSON object, got number"),
        ('{"x": NaN}', "arguments: must be valid JSON (NaN is not JSON), got '{\"x\": NaN}'"),
    ],
)
def test_malformed_text_is_kept_and_reading_it_raises(text: str, message: str) -> None:
    """A model's malformed text is kept byte-for-byte; .arguments raises InvalidArguments with call_id, name, raw."""
    call = ToolCall("call_7", "get_weather", text)
    assert call.arguments_json == text
    assert call.to_wire()["function"]["arguments"] == text
    with pytest.raises(MessageError) as info:
        _ = call.arguments
    error = info.value
    assert type(error) is InvalidArguments
    assert isinstance(error, InvalidArguments)
    assert str(error) == message
    assert (error.call_id, error.name, error.raw) == ("call_7", "get_weather", text)


@pytest.mark.parametrize("text", [MALFORMED, "[1]"])
def test_malformed_text_from_the_wire_round_trips(text: str) -> None:
    """from_dict keeps malformed text byte-for-byte and to_wire sends it back unchanged."""
    data = wire("call_7", "get_weather", text)
    call = ToolCall.from_dict(data)
    assert call.arguments_json == text
    assert call.to_wire() == data
    with pytest.raises(InvalidArguments) as info:
        _ = call.arguments
    assert (info.value.call_id, info.value.name, info.value.raw) == ("call_7", "get_weather", text)


def test_text_nested_100000_deep_is_kept_and_reading_it_raises() -> None:
    """Argument text nested 100,000 levels deep is kept; .arguments raises InvalidArguments, not RecursionError."""
    text = deep_text(100_000)
    for call in (ToolCall("c1", "f", text), ToolCall.from_dict(wire(arguments=text))):
        assert call.arguments_json == text
        with pytest.raises(InvalidArguments) as info:
            _ = call.arguments
        assert info.value.rule == "must be valid JSON (nested too deeply to decode)"
        assert info.value.raw == text
        assert call == ToolCall("c1", "f", text)
        assert hash(call) == hash(ToolCall("c1", "f", text))
        assert call != ToolCall("c1", "f", deep_text(99_999))
        assert ToolCall.from_dict(json.loads(json.dumps(call.to_wire()))) == call


# -- to_wire ------------------------------------------------------------------


def test_to_wire_is_the_openai_shape() -> None:
    """to_wire gives id, type function, and function with name and argument text, in that order."""
    out = ToolCall("call_1", "get_weather", {"city": "Paris"}).to_wire()
    assert out == {
        "id": "call_1",
        "type": "function",
        "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
    }
    assert list(out) == ["id", "type", "function"]
    assert list(out["function"]) == ["name", "arguments"]


def test_to_wire_without_arguments_sends_an_empty_object() -> None:
    """A call without arguments sends the text {}, never [] or an empty string."""
    assert ToolCall("c1", "f").to_wire()["function"]["arguments"] == "{}"


def test_to_wire_appends_extra_keys() -> None:
    """Extra keys follow the modelled ones in to_wire."""
    out = ToolCall("c1", "f", extra={"seq": 0, "meta": {"a": [1]}}).to_wire()
    assert out == {
        "id": "c1",
        "type": "function",
        "function": {"name": "f", "arguments": "{}"},
        "seq": 0,
        "meta": {"a": [1]},
    }
    assert list(out) == ["id", "type", "function", "seq", "meta"]


def test_to_wire_is_fresh_each_time() -> None:
    """Changing a dict returned by to_wire does not change the call or later wire dicts."""
    call = ToolCall("c1", "f", {"a": 1}, extra={"meta": {"a": [1]}})
    out = call.to_wire()
    out["function"]["name"] = "g"
    out["meta"]["a"].append(2)
    out["id"] = "c2"
    assert call.to_wire() == wire("c1", "f", '{"a":1}', meta={"a": [1]})
    assert call.name == "f"


# -- from_dict: accepting side ------------------------------------------------


def test_from_dict_reads_the_wire_form() -> None:
    """The wire form (arguments as text) gives a call with that text."""
    call = ToolCall.from_dict(wire("call_1", "get_weather", '{"city": "Paris"}'))
    assert (call.id, call.name, call.arguments_json) == ("call_1", "get_weather", '{"city": "Paris"}')
    assert call.arguments == {"city": "Paris"}
    assert call.extra == {}


@pytest.mark.parametrize(
    "arguments", [{"city": "Paris"}, MappingProxyType({"city": "Paris"})], ids=["dict", "mappingproxy"]
)
def test_from_dict_reads_the_decoded_form(arguments: Any) -> None:
    """Arguments given as an object (Ollama style) are encoded to compact JSON text."""
    call = ToolCall.from_dict({"function": {"name": "get_weather", "arguments": arguments}, "id": "c1"})
    assert call.arguments_json == '{"city":"Paris"}'
    assert call == ToolCall.from_dict(wire("c1", "get_weather", '{"city": "Paris"}'))


@pytest.mark.parametrize("kind", ["function", None, "missing"])
def test_from_dict_accepts_type_function_or_no_type(kind: str | None) -> None:
    """type may be "function", null or missing."""
    data = wire()
    if kind == "missing":
        del data["type"]
    else:
        data["type"] = kind
    assert ToolCall.from_dict(data) == ToolCall("c1", "f")


@pytest.mark.parametrize("arguments", [None, "", "  ", "null", {}, "missing"])
def test_from_dict_reads_missing_or_empty_arguments_as_an_empty_object(arguments: Any) -> None:
    """Missing, null, empty, white-space or null-text arguments all become {}."""
    data = wire(arguments=arguments)
    if arguments == "missing":
        del data["function"]["arguments"]
    assert ToolCall.from_dict(data).arguments_json == "{}"


def test_from_dict_ignores_null_unknown_function_keys() -> None:
    """An unknown key of function whose value is null carries nothing and is ignored."""
    data = wire()
    data["function"]["description"] = None
    assert ToolCall.from_dict(data) == ToolCall("c1", "f")


def test_from_dict_accepts_a_mapping_that_is_not_a_dict() -> None:
    """Any Mapping is read, at the top and as function."""
    data = MappingProxyType({"id": "c1", "function": MappingProxyType({"name": "f", "arguments": "{}"})})
    assert ToolCall.from_dict(data) == ToolCall("c1", "f")


def test_from_dict_keeps_unknown_keys_in_extra_and_re_emits_them() -> None:
    """Unknown top-level keys with a value are kept in extra, 0 and false included, and sent again."""
    data = wire(seq=0, cached=False, meta={"a": [1, "é"]})
    call = ToolCall.from_dict(data)
    assert call.extra == {"seq": 0, "cached": False, "meta": {"a": [1, "é"]}}
    assert isinstance(call.extra, Extra)
    assert call.to_wire() == data


def test_from_dict_drops_null_and_empty_unknown_keys() -> None:
    """Unknown top-level keys whose value is null or empty carry nothing and are dropped."""
    call = ToolCall.from_dict(wire(a=None, b="", c=[], d={}))
    assert call.extra == {}
    assert len(call.extra) == 0
    assert call.to_wire() == wire()


@pytest.mark.parametrize(
    "call",
    [
        ToolCall("c1", "f"),
        ToolCall("call_ü", "get_weather", {"city": "Zürich 🌍", "n": [1, 2.5, None, True], "big": 10**40}),
        ToolCall("c1", "f", ' {"a" : 1} '),
        ToolCall("c1", "f", MALFORMED),
        ToolCall("c1", "f", "[1]"),
        ToolCall("c1", "f", {"a": 1}, extra={"seq": 0, "meta": {"x": [1]}}),
    ],
    ids=repr,
)
def test_from_dict_of_to_wire_is_the_same_call(call: ToolCall) -> None:
    """from_dict(to_wire()) gives back an equal call, also through json.dumps/json.loads."""
    assert ToolCall.from_dict(call.to_wire()) == call
    back = ToolCall.from_dict(json.loads(json.dumps(call.to_wire())))
    assert back == call
    assert back.arguments_json == call.arguments_json
    assert back.extra == call.extra


# -- from_dict: rejecting side ------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be an object, got list"),
        ([wire()], "must be an object, got list"),
        ("x", "must be an object, got 'x'"),
        ("", "must be an object, got ''"),
        (None, "must be an object, got None"),
        (5, "must be an object, got 5"),
        (True, "must be an object, got True"),
        (
            {"id": "c1", "type": "custom", "custom": {"name": "f", "input": "x"}},
            "type: must be 'function' (only function tool calls are supported), got 'custom'",
        ),
        (
            {**wire(), "type": "custom"},
            "type: must be 'function' (only function tool calls are supported), got 'custom'",
        ),
        ({**wire(), "type": ""}, "type: must be 'function' (only function tool calls are supported), got ''"),
        ({**wire(), "type": 5}, "type: must be 'function' (only function tool calls are supported), got 5"),
        (
            {**wire(), "type": ["function"]},
            "type: must be 'function' (only function tool calls are supported), got list",
        ),
        ({"id": "c1", "type": "function"}, "function: is required"),
        ({"id": "c1", "function": None}, "function: is required"),
        ({"id": "c1", "function": []}, "function: must be an object, got list"),
        ({"id": "c1", "function": "f"}, "function: must be an object, got 'f'"),
        ({"id": "c1", "function": 5}, "function: must be an object, got 5"),
        (
            {"id": "c1", "function": {"arguments": "{}"}},
            "function.name: must be a non-empty string, got None",
        ),
        ({"id": "c1", "function": {"name": None}}, "function.name: must be a non-empty string, got None"),
        (wire(name=""), "function.name: must be a non-empty string, got ''"),
        (wire(name=5), "function.name: must be a non-empty string, got 5"),
        (wire(name={"x": 1}), "function.name: must be a non-empty string, got dict"),
        (wire(arguments=5), "function.arguments: must be JSON text (a string) or an object, got 5"),
        (wire(arguments=[1]), "function.arguments: must be JSON text (a string) or an object, got list"),
        (wire(arguments=[]), "function.arguments: must be JSON text (a string) or an object, got list"),
        (wire(arguments=True), "function.arguments: must be JSON text (a string) or an object, got True"),
        (wire(arguments=1.5), "function.arguments: must be JSON text (a string) or an object, got 1.5"),
        (
            {"id": "c1", "function": {"name": "f", "arguments": "{}", "strict": True}},
            "function.strict: is not a known key (function holds name and arguments), got True",
        ),
        (
            {"id": "c1", "function": {"name": "f", "parameters": {}}},
            "function.parameters: is not a known key (function holds name and arguments), got dict",
        ),
        ({"function": {"name": "f", "arguments": "{}"}}, "id: must be a non-empty string, got None"),
        (wire(call_id=None), "id: must be a non-empty string, got None"),
        (wire(call_id=""), "id: must be a non-empty string, got ''"),
        (wire(call_id=5), "id: must be a non-empty string, got 5"),
        (INT_KEY, "keys must be strings, got 1"),
        (wire(meta={"tags": {1, 2}}), f"meta.tags: {NOT_JSON}, got set"),
        (wire(weight=float("nan")), "weight: must be a finite number, got nan"),
        (wire(meta=nested_dicts(100_000)), f"meta: {TOO_DEEP}, got dict"),
    ],
)
def test_from_dict_rejects_a_wrong_shape_with_invalid_tool_call(data: Any, message: str) -> None:
    """A wrong shape raises InvalidToolCall whose message names the path, the rule and the value."""
    error = read_error(data)
    assert type(error) is InvalidToolCall
    assert str(error) == message


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({1: 2}, "function.arguments: keys must be strings, got 1"),
        ({"x": float("nan")}, "function.arguments.x: must be a finite number, got nan"),
        ({"x": {1, 2}}, f"function.arguments.x: {NOT_JSON}, got set"),
        (nested_dicts(100_000), f"function.arguments: {TOO_DEEP}, got dict"),
        ({"a": nested_dicts(100_000)}, f"function.arguments: {TOO_DEEP}, got dict"),
    ],
)
def test_from_dict_rejects_decoded_arguments_that_are_not_json(arguments: Any, message: str) -> None:
    """Decoded arguments that are not JSON (also 100,000 levels deep) raise InvalidArguments naming the call."""
    error = read_error(wire("call_3", "get_time", arguments))
    assert type(error) is InvalidArguments
    assert isinstance(error, InvalidArguments)
    assert str(error) == message
    assert (error.call_id, error.name) == ("call_3", "get_time")


def test_from_dict_checks_type_before_function() -> None:
    """A call of another type is reported as such, not as a missing function."""
    error = read_error({"id": "c1", "type": "custom"})
    assert (error.path, error.got) == ("type", "'custom'")


# -- equality and hash --------------------------------------------------------


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ('{"a":1,"b":2}', '{"b": 2, "a": 1}'),
        ('{"a":[1,{"x":1,"y":2}]}', ' {\n "a" : [ 1, {"y": 2, "x": 1} ] } '),
        ('{"city":"Zürich"}', '{"city":"Z\\u00fcrich"}'),
        ("{}", " { } "),
    ],
)
def test_equal_values_in_different_layouts_are_equal(one: str, other: str) -> None:
    """Calls compare by the JSON value of the arguments, whatever the key order or white space."""
    a = ToolCall("c1", "f", one)
    b = ToolCall("c1", "f", other)
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b}) == 1


def test_a_mapping_equals_its_text() -> None:
    """A call built from a mapping equals one built from text of the same value."""
    a = ToolCall("c1", "f", {"b": [1, 2], "a": None})
    b = ToolCall("c1", "f", '{"a": null, "b": [1, 2]}')
    assert a == b
    assert hash(a) == hash(b)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ({"x": True}, {"x": 1}),
        ({"x": False}, {"x": 0}),
        ({"x": 1}, {"x": 1.0}),
        ({"x": [1, 2]}, {"x": [2, 1]}),
        ({"x": None}, {}),
        ({"x": "1"}, {"x": 1}),
    ],
)
def test_different_json_values_are_not_equal(one: dict[str, Any], other: dict[str, Any]) -> None:
    """JSON true and 1 differ, and so (a documented choice) do 1 and 1.0."""
    assert ToolCall("c1", "f", one) != ToolCall("c1", "f", other)


@pytest.mark.parametrize(
    "other",
    [
        ToolCall("c2", "f", {"a": 1}),
        ToolCall("c1", "g", {"a": 1}),
        ToolCall("c1", "f", {"a": 2}),
        ToolCall("c1", "f", {"a": 1}, extra={"seq": 0}),
    ],
    ids=repr,
)
def test_calls_differing_in_any_part_are_not_equal(other: ToolCall) -> None:
    """A different id, name, arguments value or extra makes a different call."""
    assert ToolCall("c1", "f", {"a": 1}) != other


def test_extra_takes_part_in_equality_by_value() -> None:
    """Calls with the same extra values in another order are equal and hash alike."""
    a = ToolCall("c1", "f", extra={"a": 1, "b": {"x": 1, "y": 2}})
    b = ToolCall("c1", "f", extra={"b": {"y": 2, "x": 1}, "a": 1})
    assert a == b
    assert hash(a) == hash(b)


def test_invalid_text_compares_by_raw_text() -> None:
    """Calls with text that is not JSON are equal only when the raw text is identical."""
    a = ToolCall("c1", "f", MALFORMED)
    assert a == ToolCall("c1", "f", MALFORMED)
    assert hash(a) == hash(ToolCall("c1", "f", MALFORMED))
    assert a != ToolCall("c1", "f", '{"city":"Par')
    assert a != ToolCall("c1", "f", '{"city": "Paris"}')
    assert ToolCall("c1", "f", "[1]") == ToolCall("c1", "f", " [1] ")


def test_equality_is_stable_across_repeated_comparisons() -> None:
    """Comparing and hashing again (after any caching) gives the same answers."""
    a = ToolCall("c1", "f", '{"a": 1}')
    b = ToolCall("c1", "f", '{"a":1}')
    c = ToolCall("c1", "f", '{"a":2}')
    for _ in range(2):
        assert a == b
        assert a != c
        assert hash(a) == hash(b)
    same = a
    assert a == same


def test_a_call_is_not_equal_to_other_types() -> None:
    """A call never equals its wire dict, a string or None."""
    call = ToolCall("c1", "f")
    assert call != call.to_wire()
    assert call != "c1"
    assert call is not None
    assert (call == 1) is False


def test_calls_work_as_set_members_and_dict_keys() -> None:
    """Equal calls collapse in a set and find each other in a dict."""
    table = {ToolCall("c1", "f", '{"a": 1}'): "first"}
    assert table[ToolCall("c1", "f", {"a": 1})] == "first"
    assert len({ToolCall("c1", "f"), ToolCall("c1", "f", ""), ToolCall("c1", "f", None)}) == 1


# -- repr ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "text"),
    [
        (ToolCall("c1", "f"), "ToolCall(id='c1', name='f', arguments='{}')"),
        (
            ToolCall("call_1", "get_weather", {"city": "Paris"}),
            "ToolCall(id='call_1', name='get_weather', arguments='{\"city\":\"Paris\"}')",
        ),
        (ToolCall("c1", "f", MALFORMED), "ToolCall(id='c1', name='f', arguments='{\"city\": \"Par')"),
        (
            ToolCall("c1", "f", extra={"seq": 0}),
            "ToolCall(id='c1', name='f', arguments='{}', extra={'seq': 0})",
        ),
    ],
)
def test_repr_shows_id_name_argument_text_and_extra(call: ToolCall, text: str) -> None:
    """repr shows id, name and the argument text, and extra only when there is some."""
    assert repr(call) == text


# -- immutability -------------------------------------------------------------


@pytest.mark.parametrize("field", ["id", "name", "arguments_json", "arguments", "extra", "_key", "new_field"])
def test_fields_cannot_be_assigned(field: str) -> None:
    """Assigning any attribute raises dataclasses.FrozenInstanceError and changes nothing."""
    call = ToolCall("c1", "f", {"a": 1})
    with pytest.raises(FrozenInstanceError):
        setattr(call, field, "x")
    assert call == ToolCall("c1", "f", {"a": 1})
    assert call.arguments_json == '{"a":1}'


@pytest.mark.parametrize("field", ["id", "name", "arguments_json", "extra", "_key", "new_field"])
def test_fields_cannot_be_deleted(field: str) -> None:
    """Deleting any attribute raises dataclasses.FrozenInstanceError and changes nothing."""
    call = ToolCall("c1", "f", {"a": 1})
    with pytest.raises(FrozenInstanceError):
        delattr(call, field)
    assert (call.id, call.name, call.arguments_json) == ("c1", "f", '{"a":1}')


def test_a_call_has_no_instance_dict() -> None:
    """A call is slotted: there is no __dict__ to write through."""
    assert not hasattr(ToolCall("c1", "f"), "__dict__")


def test_extra_of_a_call_cannot_be_changed_through_lookups() -> None:
    """Changing a value read from extra does not change the call."""
    call = ToolCall("c1", "f", extra={"meta": {"tags": ["a"]}})
    call.extra["meta"]["tags"].append("b")
    assert call.extra["meta"] == {"tags": ["a"]}


# -- pickle and copy ----------------------------------------------------------


CALLS = [
    ToolCall("c1", "f"),
    ToolCall("call_1", "get_weather", {"city": "Zürich", "n": [1, 2.5]}),
    ToolCall("c1", "f", ' {"a" : 1} '),
    ToolCall("c1", "f", MALFORMED),
    ToolCall("c1", "f", {"a": 1}, extra={"seq": 0, "meta": {"x": None}}),
]


@pytest.mark.parametrize("call", CALLS, ids=repr)
@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_calls_pickle(call: ToolCall, protocol: int) -> None:
    """A call survives pickling with every protocol, argument text byte-for-byte."""
    back = pickle.loads(pickle.dumps(call, protocol=protocol))
    assert type(back) is ToolCall
    assert back == call
    assert hash(back) == hash(call)
    assert back.arguments_json == call.arguments_json
    assert back.extra == call.extra
    assert repr(back) == repr(call)


@pytest.mark.parametrize("call", CALLS, ids=repr)
@pytest.mark.parametrize("clone", [copy.copy, copy.deepcopy], ids=["copy", "deepcopy"])
def test_calls_copy(call: ToolCall, clone: Any) -> None:
    """copy.copy and copy.deepcopy give an equal call with the same text."""
    back = clone(call)
    assert back == call
    assert back.arguments_json == call.arguments_json
    assert back.to_wire() == call.to_wire()


def test_a_tampered_pickle_is_validated() -> None:
    """Unpickling goes through the constructor, so a pickle with an empty id is rejected."""
    data = pickle.dumps(ToolCall("c1", "f"), protocol=0)
    assert b"Vc1\n" in data
    with pytest.raises(InvalidToolCall, match=r"^id: must be a non-empty string, got ''$"):
        pickle.loads(data.replace(b"Vc1\n", b"V\n"))


def test_from_dict_drops_ollamas_function_index() -> None:
    """Ollama's function.index (the call's position) is read and dropped; a non-int index is an error."""
    call = ToolCall.from_dict(
        {"type": "function", "function": {"index": 3, "name": "f", "arguments": {"a": 1}}, "id": "c"}
    )
    assert call.to_wire() == {
        "id": "c",
        "type": "function",
        "function": {"name": "f", "arguments": '{"a":1}'},
    }
    with pytest.raises(InvalidToolCall) as caught:
        ToolCall.from_dict({"id": "c", "function": {"index": "3", "name": "f"}})
    assert caught.value.path == "function.index"


@pytest.mark.parametrize("position", [0, 3])
def test_from_dict_reads_a_call_level_index_as_the_position_and_drops_it(position: int) -> None:
    """The openai SDK's stream accumulator leaves index on each call (get_final_completion()): the
    call's position, which the order of the calls keeps. Read, not kept, never sent again: OpenAI
    refuses it in a request. Alone, a call's position is not known, so any position is taken."""
    call = ToolCall.from_dict(wire(index=position, seq=1))
    assert call == ToolCall.from_dict(wire(seq=1))
    assert call.extra == {"seq": 1}
    assert "index" not in call.to_wire()
    assert ToolCall.from_dict(wire(index=None)).extra == {}  # null carries nothing, as on any key


@pytest.mark.parametrize("index", [-1, "0", True, 1.0, [0], {"i": 0}])
@pytest.mark.parametrize("place", ["index", "function.index"])
def test_from_dict_refuses_an_index_that_is_no_position(index: Any, place: str) -> None:
    """An index that cannot be a position (negative, not an integer, a boolean) is refused where it is."""
    if place == "index":
        data = wire(index=index)
    else:
        data = {"id": "c1", "function": {"name": "f", "arguments": "{}", "index": index}}
    error = read_error(data)
    assert type(error) is InvalidToolCall
    assert error.path == place
    assert error.rule == NOT_A_POSITION


def test_an_index_is_not_an_extra_key() -> None:
    """ToolCall(extra={"index": ...}) is refused, located: to_wire() would send it, and OpenAI refuses it.
    null carries nothing and is dropped, as on any extra key."""
    error = build_error("c1", "f", extra={"index": 0, "seq": 1})
    assert type(error) is InvalidToolCall
    assert str(error) == f"extra.index: {INDEX_IN_EXTRA}, got 0"
    assert ToolCall("c1", "f", extra={"index": None}).extra == {}
    kept_by_a_message = ChatMessage.user("hi", extra={"index": 1}).extra  # a message may carry index
    with pytest.raises(InvalidToolCall, match=r"^extra\.index: "):
        ToolCall("c1", "f", extra=kept_by_a_message)


def test_provider_data_is_part_of_the_call_but_not_of_its_wire_form() -> None:
    """A call's provider_data (Gemini's thoughtSignature) compares and pickles, and to_wire() leaves it out."""
    signed = ToolCall("c1", "f", {"a": 1}, provider_data={"gemini": {"keys": {"thoughtSignature": "c2ln"}}})
    plain = ToolCall("c1", "f", {"a": 1})
    assert signed.to_wire() == plain.to_wire()
    assert signed != plain
    assert signed.provider_data["gemini"] == {"keys": {"thoughtSignature": "c2ln"}}
    assert pickle.loads(pickle.dumps(signed)) == signed
    assert "provider_data={'gemini': {'keys': {'thoughtSignature': 'c2ln'}}}" in repr(signed)
    with pytest.raises(InvalidToolCall) as caught:
        ToolCall("c1", "f", provider_data={"gemini": float("nan")})
    assert caught.value.path == "provider_data.gemini"


def test_a_langchain_tool_call_is_named_as_such() -> None:
    """LangChain's {name, args, id, type: tool_call} is refused with a message naming it and the shape read."""
    with pytest.raises(InvalidToolCall) as caught:
        ToolCall.from_dict({"name": "get_time", "args": {}, "id": "call_1", "type": "tool_call"})
    assert caught.value.path == "type"
    assert "LangChain's tool-call shape" in caught.value.rule
    assert "'type': 'function'" in caught.value.rule


def test_a_changed_call_is_built_anew() -> None:
    """ToolCall is not a dataclass: dataclasses.replace refuses it, and the constructor builds the change."""
    call = ToolCall("c1", "f", '{"a" : 1}', extra={"seq": 1}, provider_data={"gemini": {"keys": {}}})
    with pytest.raises(TypeError, match=r"^replace\(\) should be called on dataclass instances$"):
        dataclasses.replace(call, name="g")  # type: ignore[type-var]
    renamed = ToolCall(call.id, "g", call.arguments_json, extra=call.extra, provider_data=call.provider_data)
    assert (renamed.name, renamed.arguments_json, renamed.extra, renamed.provider_data) == (
        "g",
        '{"a" : 1}',
        call.extra,
        call.provider_data,
    )
