"""The providers' rules on tool schemas: OpenAI's array items and plain top (Chat Completions and
Responses), Anthropic's plain top."""

from __future__ import annotations

from typing import Any

import pytest

from toolturns import ChatMessage, Tool, check_transcript
from toolturns.providers import PROVIDERS
from toolturns.providers.anthropic import rules as anthropic_rules
from toolturns.providers.openai import rules
from toolturns.providers.responses import rules as responses_rules


def found(properties: dict[str, Any], **more: Any) -> list[str]:
    """Where the rule finds an array schema without items in a schema of these properties."""
    tool = Tool("f", parameters={"type": "object", "properties": properties, **more})
    return [where for where, _, _ in rules.check_tool(tool)]


@pytest.mark.parametrize(
    ("properties", "more", "where"),
    [
        ({"tags": {"type": "array"}}, {}, ["parameters.properties.tags"]),
        ({"tags": {"type": ["array", "null"]}}, {}, ["parameters.properties.tags"]),
        ({"rows": {"type": "array", "items": {"type": "array"}}}, {}, ["parameters.properties.rows.items"]),
        (
            {"pair": {"type": "array", "items": [{"type": "array"}], "additionalItems": {"type": "array"}}},
            {},
            ["parameters.properties.pair.items[0]", "parameters.properties.pair.additionalItems"],
        ),
        (
            {"pair": {"type": "array", "prefixItems": [{"type": "array"}], "items": False}},
            {},
            ["parameters.properties.pair.prefixItems[0]"],
        ),
        (
            {"either": {"anyOf": [{"type": "string"}, {"type": "array"}]}},
            {},
            ["parameters.properties.either.anyOf[1]"],
        ),
        (
            {"one": {"oneOf": [{"type": "array"}]}, "all": {"allOf": [{"type": "array"}]}},
            {},
            ["parameters.properties.one.oneOf[0]", "parameters.properties.all.allOf[0]"],
        ),
        (
            {"deep": {"type": "object", "properties": {"ids": {"type": "array"}}}},
            {},
            ["parameters.properties.deep.properties.ids"],
        ),
        (
            {"map": {"type": "object", "additionalProperties": {"type": "array"}}},
            {},
            ["parameters.properties.map.additionalProperties"],
        ),
        (
            {
                "no": {"not": {"type": "array"}},
                "has": {"type": "array", "items": {}, "contains": {"type": "array"}},
            },
            {},
            ["parameters.properties.no.not", "parameters.properties.has.contains"],
        ),
        (
            {"x": {"$ref": "#/$defs/List"}},
            {"$defs": {"List": {"type": "array"}}},
            ['parameters["$defs"].List'],
        ),
        (
            {},
            {"definitions": {"List": {"type": "array"}}, "patternProperties": {"^x": {"type": "array"}}},
            ["parameters.definitions.List", 'parameters.patternProperties["^x"]'],
        ),
        (
            {"c": {"if": {"type": "array"}, "then": {"type": "array"}, "else": {"type": "array"}}},
            {},
            ["parameters.properties.c.if", "parameters.properties.c.then", "parameters.properties.c.else"],
        ),
        (
            {
                "k": {
                    "type": "object",
                    "propertyNames": {"type": "array"},
                    "unevaluatedProperties": {"type": "array"},
                }
            },
            {
                "dependentSchemas": {"k": {"type": "array"}},
                "dependencies": {"j": ["k"], "l": {"type": "array"}},
            },
            [
                "parameters.properties.k.propertyNames",
                "parameters.properties.k.unevaluatedProperties",
                "parameters.dependentSchemas.k",
                "parameters.dependencies.l",
            ],
        ),
        (
            {"u": {"type": "array", "items": {}, "unevaluatedItems": {"type": "array"}}},
            {},
            ["parameters.properties.u.unevaluatedItems"],
        ),
        (
            {"s": {"type": "string", "contentSchema": {"type": "array"}}},
            {},
            ["parameters.properties.s.contentSchema"],
        ),
        # prefixItems say the first items only: "items" is still missing
        (
            {"pair": {"type": "array", "prefixItems": [{"type": "string"}]}},
            {},
            ["parameters.properties.pair"],
        ),
        # what OpenAI takes: items given (an empty schema, a boolean), a boolean schema, no array at all
        ({"tags": {"type": "array", "items": {}}, "any": True, "none": False}, {}, []),
        ({"tags": {"type": "array", "items": True}, "name": {"type": "string"}}, {}, []),
        ({"list": {"enum": [["a"]]}, "type": {"type": "string"}}, {}, []),
    ],
)
def test_every_array_schema_without_items_is_found_where_it_is(
    properties: dict[str, Any], more: dict[str, Any], where: list[str]
) -> None:
    """In every place a schema holds schemas, in the order the schema's text has them."""
    assert found(properties, **more) == where


def test_the_problems_say_the_rule_and_what_takes_any_item() -> None:
    """OpenAI's words in the rule; the problem says that ``"items": {}`` is enough."""
    tool = Tool("f", parameters={"type": "object", "properties": {"tags": {"type": "array"}}})
    [(where, rule, message)] = rules.check_tool(tool)
    assert where == "parameters.properties.tags"
    assert rule is rules.ARRAY_WITHOUT_ITEMS
    assert rule.says.endswith("array schema missing items.")
    assert message.startswith("array schema has no items; OpenAI requires an items schema for every array")
    assert '"items": {}' in message
    [(_, responses_rule, responses_message)] = responses_rules.check_tool(tool)
    assert responses_rule is responses_rules.ARRAY_WITHOUT_ITEMS
    assert responses_rule.code == rule.code
    assert responses_rule.link != rule.link
    assert responses_message == message


def test_an_array_schema_deeper_than_the_stack_is_found() -> None:
    """The walk builds no Python stack: a schema nested as deep as Tool takes is walked whole."""
    schema: dict[str, Any] = {"type": "array"}
    for _ in range(450):
        schema = {"type": "array", "items": schema}
    assert found({"x": schema}) == ["parameters.properties.x" + ".items" * 450]


TAGGING = Tool("add_tags", parameters={"type": "object", "properties": {"tags": {"type": "array"}}})


@pytest.mark.parametrize("target", sorted(PROVIDERS))
def test_only_openais_wires_report_it(target: str) -> None:
    """Anthropic, Gemini and Ollama take an array schema without items: no problem there, nor without a target."""
    problems = check_transcript([ChatMessage.user("Tag it.")], tools=[TAGGING], target=target)
    expected = (
        [("tools[0].parameters.properties.tags", "array_without_items")]
        if target in ("openai", "responses")
        else []
    )
    assert [(problem.path, problem.code) for problem in problems] == expected
    assert check_transcript([ChatMessage.user("Tag it.")], tools=[TAGGING]) == []


@pytest.mark.parametrize(
    ("definition", "path"),
    [
        (
            {
                "type": "function",
                "function": {"name": "f", "parameters": {"properties": {"t": {"type": "array"}}}},
            },
            "tools[0].function.parameters.properties.t",
        ),
        (
            {"name": "f", "inputSchema": {"type": "object", "properties": {"t": {"type": "array"}}}},
            "tools[0].inputSchema.properties.t",
        ),
        (
            {"name": "f", "input_schema": {"type": "object", "properties": {"t": {"type": "array"}}}},
            "tools[0].input_schema.properties.t",
        ),
    ],
)
def test_the_path_is_the_definitions_own(definition: dict[str, Any], path: str) -> None:
    """An OpenAI, MCP or Anthropic definition: the problem is at the key its schema is under."""
    [problem] = check_transcript([ChatMessage.user("Tag it.")], tools=[definition], target="openai")
    assert problem.path == path


CHOICE = {"anyOf": [{"required": ["city"]}, {"required": ["lat", "lon"]}]}


@pytest.mark.parametrize(
    ("top", "reported"),
    [
        (CHOICE, {"openai": ["anyOf"], "responses": ["anyOf"], "anthropic": ["anyOf"]}),
        (
            {"oneOf": [{"required": ["city"]}]},
            {"openai": ["oneOf"], "responses": ["oneOf"], "anthropic": ["oneOf"]},
        ),
        (
            {"allOf": [{"required": ["city"]}]},
            {"openai": ["allOf"], "responses": ["allOf"], "anthropic": ["allOf"]},
        ),
        ({"not": {"required": ["lat"]}}, {"openai": ["not"], "responses": ["not"]}),
        ({"enum": [{"city": "Paris"}]}, {"openai": ["enum"], "responses": ["enum"]}),
        ({"required": ["city"], "additionalProperties": False}, {}),
    ],
)
def test_a_choice_at_the_top_of_the_parameters_is_reported_where_the_provider_refuses_it(
    top: dict[str, Any], reported: dict[str, list[str]]
) -> None:
    """OpenAI takes none of oneOf, anyOf, allOf, enum and not at the top; Anthropic none of the first three;
    Gemini and Ollama take them (Gemini's codec sends such a schema as parametersJsonSchema)."""
    properties = {"city": {"type": "string"}, "lat": {"type": "number"}, "lon": {"type": "number"}}
    tool = Tool("find", parameters={"type": "object", "properties": properties, **top})
    for target in PROVIDERS:
        problems = check_transcript([ChatMessage.user("Where?")], tools=[tool], target=target)
        expected = [(f"tools[0].parameters.{key}", "schema_top_level") for key in reported.get(target, [])]
        assert [(problem.path, problem.code) for problem in problems] == expected, target


def test_the_top_level_rules_quote_each_provider() -> None:
    """Each wire's rule in its provider's words; the problem names the keyword and the provider."""
    assert "at the top level" in rules.SCHEMA_TOP_LEVEL.says
    assert (
        "input_schema does not support oneOf, allOf, or anyOf at the top level"
        in anthropic_rules.SCHEMA_TOP_LEVEL.says
    )
    assert responses_rules.check_tool is not rules.check_tool
    tool = Tool("find", parameters={"type": "object", "properties": {"city": {"type": "string"}}, **CHOICE})
    [(where, rule, message)] = anthropic_rules.check_tool(tool)
    assert (where, rule) == ("parameters.anyOf", anthropic_rules.SCHEMA_TOP_LEVEL)
    assert message.startswith(
        "anyOf at the top level of a tool's parameters; Anthropic takes oneOf, allOf, anyOf only"
    )
    [problem] = check_transcript(
        [ChatMessage.user("Where?")],
        tools=[{"name": "find", "input_schema": tool.parameters}],
        target="anthropic",
    )
    assert problem.path == "tools[0].input_schema.anyOf"


def test_an_sdk_objects_path_is_its_dumps_own() -> None:
    """An MCP SDK Tool, an openai SDK tool, a google-genai declaration: the key each dumps its schema under."""
    import mcp.types
    from google.genai import types as genai_types
    from openai.types.chat import ChatCompletionFunctionTool

    schema = {"type": "object", "properties": {"tags": {"type": "array"}}}
    given: list[tuple[object, str]] = [
        (
            mcp.types.Tool.model_validate({"name": "f", "inputSchema": schema}),
            "tools[0].inputSchema.properties.tags",
        ),
        (
            ChatCompletionFunctionTool.model_validate(
                {"type": "function", "function": {"name": "f", "parameters": schema}}
            ),
            "tools[0].function.parameters.properties.tags",
        ),
        (
            genai_types.FunctionDeclaration(name="f", parameters_json_schema=schema),
            "tools[0].parametersJsonSchema.properties.tags",
        ),
    ]
    given.append(
        ({"type": "function", "function": given[0][0]}, "tools[0].function.inputSchema.properties.tags")
    )
    for definition, path in given:
        [problem] = check_transcript([ChatMessage.user("Tag it.")], tools=[definition], target="openai")
        assert problem.path == path


def test_the_walk_takes_any_schema_and_passes_over_what_holds_no_schemas() -> None:
    """arrays_without_items reads any JSON (a Tool refuses these already): an anyOf or a properties that is
    no list or object holds no schema, and a list of names under dependencies none either."""
    schema = {"anyOf": {"type": "array"}, "properties": [{"type": "array"}], "dependencies": {"a": ["b"]}}
    assert list(rules.arrays_without_items(schema)) == []
    assert list(rules.arrays_without_items({"type": "array"}, "schema")) == ["schema"]


STRICT_OK = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "unit": {"type": ["string", "null"]},
        "at": {
            "type": "object",
            "properties": {"lat": {"type": "number"}},
            "required": ["lat"],
            "additionalProperties": False,
        },
    },
    "required": ["city", "unit", "at"],
    "additionalProperties": False,
}


@pytest.mark.parametrize("target", ["openai", "responses"])
def test_a_strict_tools_objects_are_closed_and_require_every_property(target: str) -> None:
    """Structured Outputs' two rules, at every object schema, for a strict tool only."""
    assert (
        check_transcript(
            [ChatMessage.user("Where?")], tools=[Tool("f", parameters=STRICT_OK, strict=True)], target=target
        )
        == []
    )
    loose = {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "unit": {"type": "string"},
            "at": {
                "type": "object",
                "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}},
                "required": ["lat"],
            },
            "tags": {
                "type": "array",
                "items": {"properties": {"name": {"type": "string"}}, "additionalProperties": False},
            },
        },
        "required": ["city", "at", "tags"],
        "additionalProperties": False,
    }
    found = check_transcript(
        [ChatMessage.user("Where?")], tools=[Tool("f", parameters=loose, strict=True)], target=target
    )
    assert [(p.path, p.code) for p in found] == [
        ("tools[0].parameters.required", "strict_schema"),
        ("tools[0].parameters.properties.at.additionalProperties", "strict_schema"),
        ("tools[0].parameters.properties.at.required", "strict_schema"),
        ("tools[0].parameters.properties.tags.items.required", "strict_schema"),
    ]
    assert "without 'unit' in required" in found[0].message
    assert "without 'lon' in required" in found[2].message
    for strict in (None, False):
        assert (
            check_transcript(
                [ChatMessage.user("Where?")],
                tools=[Tool("f", parameters=loose, strict=strict)],
                target=target,
            )
            == []
        )
    assert (
        check_transcript(
            [ChatMessage.user("Where?")], tools=[Tool("f", parameters=loose, strict=True)], target="anthropic"
        )
        == []
    )


def test_the_strict_rules_quote_openai() -> None:
    assert "'additionalProperties' is required to be supplied and to be false" in rules.STRICT_CLOSED.says
    assert (
        "'required' is required to be supplied and to be an array including every key"
        in rules.STRICT_REQUIRED.says
    )
    assert rules.STRICT_CLOSED.code == rules.STRICT_REQUIRED.code == "strict_schema"
