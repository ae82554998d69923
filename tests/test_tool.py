"""Tool: the definition of a tool the model may call."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

import pytest

from toolturns import (
    ChatMessage,
    InvalidTool,
    MessageError,
    Tool,
    anthropic,
    gemini,
    ollama,
    openai,
)
from toolturns._tool import NO_PARAMETERS

WEATHER = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


def test_a_tool_keeps_name_description_and_schema() -> None:
    """Name, description and parameters read back as given; parameters come back as a fresh dict."""
    tool = Tool("get_weather", "Current weather", WEATHER)
    assert (tool.name, tool.description, tool.parameters) == ("get_weather", "Current weather", WEATHER)
    tool.parameters["required"].append("unit")
    assert tool.parameters == WEATHER


@pytest.mark.parametrize("parameters", [None, {}])
def test_no_parameters_is_an_object_without_properties(parameters: Any) -> None:
    """None and {} mean no parameters, declared as an empty object schema, never []."""
    tool = Tool("get_time", parameters=parameters)
    assert tool.parameters_json == NO_PARAMETERS
    assert tool.parameters == {"type": "object", "properties": {}}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("",), "name: must match ^[a-zA-Z0-9_.:-]{1,128}$, got ''"),
        (("get weather",), "name: must match ^[a-zA-Z0-9_.:-]{1,128}$, got 'get weather'"),
        (("get/weather",), "name: must match ^[a-zA-Z0-9_.:-]{1,128}$, got 'get/weather'"),
        (("a" * 129,), "name: must match ^[a-zA-Z0-9_.:-]{1,128}$, got '" + "a" * 58),
        ((None,), "name: must match ^[a-zA-Z0-9_.:-]{1,128}$, got None"),
        (("f", 5), "description: must be a string, got 5"),
        (("f", "", []), "parameters: must be a JSON-schema object (a mapping) or None, got list"),
        (
            ("f", "", {"type": "array"}),
            "parameters.type: must be 'object' (arguments are a JSON object), got 'array'",
        ),
        (
            ("f", "", {"type": "object", "properties": {1: {}}}),
            "parameters.properties: keys must be strings, got 1",
        ),
    ],
)
def test_bad_definitions_are_rejected(args: tuple[Any, ...], message: str) -> None:
    """A name outside ^[a-zA-Z0-9_.:-]{1,128}$, a non-str description or a schema that is no JSON object is refused."""
    with pytest.raises(InvalidTool) as caught:
        Tool(*args)
    assert isinstance(caught.value, MessageError)
    assert str(caught.value).startswith(message)


def test_names_any_provider_accepts_are_accepted() -> None:
    """Up to 128 characters, dots and colons (Gemini, MCP-style names): some provider takes each."""
    for name in ("a" * 128, "clock.now", "server:tool", "9lives", "_x"):
        assert Tool(name).name == name


@pytest.mark.parametrize(
    ("name", "refused_by"),
    [
        ("get_weather", set()),
        ("clock.now", {"openai", "anthropic"}),
        ("a" * 65, {"openai", "gemini"}),
        ("a" * 128, {"openai", "gemini"}),
        ("9lives", {"gemini"}),
    ],
)
def test_each_codec_writes_only_names_its_provider_accepts(name: str, refused_by: set[str]) -> None:
    """tool_definition and to_request apply the provider's own name rule; Ollama documents none."""
    for provider, codec in (
        ("openai", openai),
        ("anthropic", anthropic),
        ("gemini", gemini),
        ("ollama", ollama),
    ):
        tool = Tool(name)
        if provider in refused_by:
            with pytest.raises(MessageError, match=rf"name: must match .* for {provider}, got '{name[:20]}"):
                codec.tool_definition(tool)
            with pytest.raises(InvalidTool) as caught:
                codec.to_request([ChatMessage.user("hi")], tools=[tool])
            assert caught.value.path == "tools[0].name"
        else:
            assert codec.to_request([ChatMessage.user("hi")], tools=[tool])


def test_tools_compare_by_value_and_hash_alike() -> None:
    """Equal definitions (schema key order aside) are equal and hash alike; a different schema is not equal."""
    reordered = {"required": ["city"], "properties": {"city": {"type": "string"}}, "type": "object"}
    assert Tool("w", "d", WEATHER) == Tool("w", "d", reordered)
    assert hash(Tool("w", "d", WEATHER)) == hash(Tool("w", "d", reordered))
    assert Tool("w", "d", WEATHER) != Tool("w", "d")
    assert Tool("w") != "w"


def test_tools_are_frozen_and_picklable() -> None:
    """No attribute can be set; pickling gives an equal tool; repr shows the schema."""
    tool = Tool("w", "d", WEATHER)
    with pytest.raises(dataclasses.FrozenInstanceError):
        tool.name = "x"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        tool.note = "x"  # type: ignore[attr-defined]
    assert pickle.loads(pickle.dumps(tool)) == tool
    assert (
        repr(Tool("t")) == "Tool(name='t', description='', parameters={'type': 'object', 'properties': {}})"
    )


def test_from_dict_reads_the_openai_shape_and_the_bare_shape() -> None:
    """Tool.from_dict takes {"type": "function", "function": {...}} and a bare {name, description, parameters}."""
    wrapped = {"type": "function", "function": {"name": "w", "description": "d", "parameters": WEATHER}}
    assert Tool.from_dict(wrapped) == Tool("w", "d", WEATHER)
    assert Tool.from_dict({"name": "w", "description": None}) == Tool("w")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be an object, got list"),
        ({"type": "custom", "function": {"name": "w"}}, "type: must be 'function', got 'custom'"),
        ({"type": "function", "function": "w"}, "function: must be an object, got 'w'"),
        ({"type": "function", "function": {"name": ""}}, "function.name: must match"),
        ({"name": "w", "parameters": {"type": "string"}}, "parameters.type: must be 'object'"),
    ],
)
def test_from_dict_rejects_bad_shapes_with_a_path(data: Any, message: str) -> None:
    """A definition of the wrong shape is an InvalidTool whose path says where."""
    with pytest.raises(InvalidTool) as caught:
        Tool.from_dict(data)
    assert str(caught.value).startswith(message)


def test_a_tool_of_another_type_is_named_by_its_type() -> None:
    """{"type": "code_interpreter"} is refused for its type, not for a missing name."""
    with pytest.raises(InvalidTool) as caught:
        Tool.from_dict({"type": "code_interpreter"})
    assert (caught.value.path, caught.value.got) == ("type", "'code_interpreter'")
    assert Tool.from_dict({"type": "function", "name": "f"}).name == "f"


@pytest.mark.parametrize("description", [False, 0, [], {}])
def test_from_dict_refuses_a_description_that_is_not_text(description: object) -> None:
    """A falsy non-string description is refused, not turned into "" (as the Anthropic reader refuses it)."""
    with pytest.raises(InvalidTool, match=r"^function\.description: must be a string"):
        Tool.from_dict({"type": "function", "function": {"name": "f", "description": description}})
    with pytest.raises(InvalidTool, match=r"^description: must be a string"):
        Tool.from_dict({"name": "f", "description": description})
    assert Tool.from_dict({"name": "f", "description": None}) == Tool("f")


@pytest.mark.parametrize("key", ["parameters", "input_schema", "inputSchema", "parametersJsonSchema"])
def test_from_dict_reads_the_schema_under_each_shapes_key(key: str) -> None:
    """OpenAI/Gemini parameters, Anthropic input_schema, MCP inputSchema, Gemini parametersJsonSchema: the
    schema is read (it was dropped, giving the model a tool with no parameters), errors name the key."""
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    assert Tool.from_dict({"name": "get_weather", key: schema}) == Tool("get_weather", parameters=schema)
    assert (
        Tool.from_dict({"type": "function", "function": {"name": "get_weather", key: schema}}).parameters
        == schema
    )
    with pytest.raises(InvalidTool, match=rf"^{key}\.type: must be 'object'"):
        Tool.from_dict({"name": "get_weather", key: {"type": "array"}})


def test_from_dict_refuses_two_schemas() -> None:
    """A definition giving its schema twice (parameters and input_schema) is refused, not half read."""
    with pytest.raises(
        InvalidTool, match=r"^input_schema: must not be given with parameters \(a tool has one schema\)$"
    ):
        Tool.from_dict({"name": "f", "parameters": {"type": "object"}, "input_schema": {"type": "object"}})


def test_strict_and_extra_are_fields_compared_and_hashed() -> None:
    """strict and the definition's other keys are part of a Tool's value."""
    plain = Tool("get_time")
    strict = Tool("get_time", strict=True)
    titled = Tool("get_time", extra={"title": "Time"})
    assert len({plain, strict, titled, Tool("get_time", strict=False)}) == 4
    assert strict == Tool("get_time", strict=True)
    assert hash(titled) == hash(Tool("get_time", extra={"title": "Time"}))
    assert repr(titled) == (
        "Tool(name='get_time', description='', parameters={'type': 'object', 'properties': {}}, extra={'title': 'Time'})"
    )


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"strict": 1}, "strict: must be a boolean or None, got 1"),
        ({"extra": {"name": "x"}}, "extra.name: is a modelled field, not an extra key, got 'x'"),
        ({"extra": {"title": float("nan")}}, "extra.title: must be a finite number, got nan"),
        ({"extra": ["title"]}, "extra: must be a mapping of str to JSON, got list"),
    ],
)
def test_strict_and_extra_are_validated(options: dict[str, Any], error: str) -> None:
    """A strict that is not a bool, or extra keys that are not JSON or shadow a field, are refused, located."""
    with pytest.raises(InvalidTool) as caught:
        Tool("get_time", **options)
    assert str(caught.value).startswith(error)


def test_from_dict_keeps_every_key_of_an_mcp_tool() -> None:
    """MCP's title, annotations and outputSchema are kept in extra: nothing of the definition is lost."""
    definition = {
        "name": "get_weather",
        "title": "Weather",
        "description": "Weather in a city.",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
        "outputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": True},
    }
    tool = Tool.from_dict(definition)
    assert tool.parameters == definition["inputSchema"]
    assert dict(tool.extra) == {
        "title": "Weather",
        "outputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": True},
    }
    assert tool.strict is None


def test_from_dict_reads_strict_and_the_keys_beside_an_openai_function() -> None:
    """OpenAI's function.strict is read, and a key beside function is kept like one inside it."""
    tool = Tool.from_dict({"type": "function", "function": {"name": "f", "strict": True}, "cache": 1})
    assert (tool.strict, dict(tool.extra)) == (True, {"cache": 1})
    with pytest.raises(InvalidTool, match=r"^function\.cache: must not also be given beside function"):
        Tool.from_dict({"type": "function", "function": {"name": "f", "cache": 2}, "cache": 1})


# -- dataclasses.replace --------------------------------------------------------


def test_replace_keeps_every_field() -> None:
    """dataclasses.replace(tool) gives an equal tool: name, description, schema, strict and extra."""
    tool = Tool("get_weather", "Current weather", WEATHER, strict=True, extra={"title": "Weather"})
    assert dataclasses.replace(tool) == tool
    assert repr(dataclasses.replace(tool)) == repr(tool)


def test_replace_changes_a_field_and_checks_again() -> None:
    """A replaced field is checked as the constructor checks it; the schema is replaced as parameters."""
    tool = Tool("get_weather", "Current weather", WEATHER, strict=True, extra={"title": "Weather"})
    renamed = dataclasses.replace(tool, name="weather_now")
    assert (renamed.name, renamed.parameters, renamed.strict) == ("weather_now", WEATHER, True)
    # mypy checks replace() against the fields' types, not __init__'s: it knows
    # neither parameters (not a field) nor that extra takes None.
    assert dataclasses.replace(tool, parameters=None).parameters_json == NO_PARAMETERS  # type: ignore[call-arg]
    assert dataclasses.replace(tool, extra=None).extra == {}  # type: ignore[arg-type]
    bad: list[tuple[dict[str, Any], str]] = [
        ({"name": "get weather"}, r"^name: must match"),
        ({"parameters": {"type": "array"}}, r"^parameters\.type: must be 'object'"),
        ({"strict": "yes"}, r"^strict: must be a boolean or None, got 'yes'$"),
        ({"extra": {"name": "x"}}, r"^extra\.name: is a modelled field"),
    ]
    for changes, pattern in bad:
        with pytest.raises(InvalidTool, match=pattern):
            dataclasses.replace(tool, **changes)


def test_replace_takes_the_schema_as_parameters_not_as_its_text() -> None:
    """parameters_json is what a Tool stores, not what it is built from: replace says so."""
    with pytest.raises(ValueError, match=r"^field parameters_json is declared with init=False"):
        dataclasses.replace(Tool("f"), parameters_json="{}")
