"""Gemini tool definitions: ``parameters`` (its OpenAPI-subset Schema) or ``parametersJsonSchema``, and back."""

from __future__ import annotations

import json
from typing import Any

import pytest
from google.genai import types
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.property import strategies as s
from toolturns import ChatMessage, InvalidTool, Tool, gemini
from toolturns.providers.gemini import rules
from toolturns.providers.gemini.tools import is_gemini_schema


def declaration(schema: dict[str, Any]) -> dict[str, Any]:
    """What tool_definition writes for a tool with this schema."""
    return gemini.tool_definition(Tool("f", parameters=schema))


def read_back(definition: dict[str, Any]) -> Tool:
    [tool] = gemini.read_tools([{"functionDeclarations": [json.loads(json.dumps(definition))]}])
    return tool


EVERY_FIELD = {
    "type": "object",
    "title": "Query",
    "description": "A search",
    "nullable": False,
    "properties": {
        "text": {"type": "string", "format": "enum", "enum": ["a", "b"], "minLength": 1, "maxLength": 9},
        "pattern_name": {"type": "string", "pattern": "^[a-z]+$", "example": "abc", "default": "a"},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 0, "maxItems": 3},
        "limit": {"type": "integer", "minimum": 1, "maximum": 50.5},
        "where": {
            "anyOf": [
                {"type": "string"},
                {
                    "type": "object",
                    "properties": {"at": {"type": "string"}},
                    "minProperties": 1,
                    "maxProperties": 2,
                },
            ]
        },
        "flag": {"type": "boolean", "default": {"nested": None}},
        "ratio": {"type": "number"},
    },
    "required": ["text"],
    "propertyOrdering": ["text", "tags"],
}


def test_a_schema_of_gemini_schema_fields_only_goes_as_parameters() -> None:
    """Every field of Gemini's Schema, nested: sent as parameters, unchanged; google-genai's Schema takes it."""
    definition = declaration(EVERY_FIELD)
    assert definition == {"name": "f", "parameters": EVERY_FIELD}
    schema = types.Schema.model_validate(definition["parameters"])  # extra="forbid": a stray keyword fails
    assert schema.properties is not None
    assert schema.properties["where"].any_of is not None


OUTSIDE = [
    {"additionalProperties": False},
    {"$defs": {"A": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/A"}}},
    {"properties": {"a": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}},
    {"properties": {"a": {"allOf": [{"type": "string"}]}}},
    {"properties": {"a": {"not": {"type": "string"}}}},
    {"properties": {"a": {"const": "x"}}},
    {"properties": {"a": {"if": {"type": "string"}, "then": {"minLength": 1}}}},
    {"patternProperties": {"^x": {"type": "string"}}},
    {"properties": {"a": {"type": "array", "prefixItems": [{"type": "string"}]}}},
    {
        "properties": {
            "a": {"type": "array", "items": {"type": "object", "additionalProperties": {"type": "string"}}}
        }
    },
    {"properties": {"a": {"anyOf": [{"type": "string", "exclusiveMinimum": 1}]}}},
    {"$schema": "https://json-schema.org/draft/2020-12/schema"},
    {"properties": {"a": {"type": "array", "uniqueItems": True}}},
    {"properties": {"a": {"examples": ["x"]}}},
    {"properties": {"a": {"ref": "#/defs/A"}}, "defs": {"A": {"type": "string"}}},
    # values Gemini's Schema fields cannot hold
    {"properties": {"a": {"type": ["string", "null"]}}},
    {"properties": {"a": {"type": "null"}}},
    {"properties": {"a": True}},
    {"properties": {"a": {"type": "array", "items": False}}},
    {"properties": {"a": {"type": "integer", "enum": [1, 2]}}},
    {"properties": {"a": {"type": "array", "maxItems": 2.0}}},
    {"properties": {"a": {"type": "string", "default": None}}},
    {"properties": {"a": {"type": "string", "nullable": "yes"}}},
]


#: JSON Schemas of Gemini's fields only that Gemini's Schema refuses all the same, with its 400.
REFUSED_BY_GEMINI_SCHEMA = [
    # "parameters.properties[tags].items: missing field."
    {"properties": {"tags": {"type": "array"}}},
    {"properties": {"rows": {"type": "array", "items": {"type": "array"}}}},
    # "parameters.properties: should be non-empty for OBJECT type"
    {},
    {"properties": {}, "required": []},
    {"properties": {"meta": {"type": "object", "description": "Anything."}}},
    {"properties": {"a": {"anyOf": [{"type": "object"}, {"type": "string"}]}}},
    # "parameters.required[0]: property is not defined"
    {"properties": {"city": {"type": "string"}}, "required": ["city", "ref"]},
    # "properties[commit_hash].type: must be specified when not using one_of, any_of or all_of fields"
    {"properties": {"commit_hash": {"description": "Any form."}}},
    {"properties": {"list": {"type": "array", "items": {}}}},
]


def test_the_rule_takes_any_schema() -> None:
    """schema_refuses reads what no Tool holds within its checked depth (a list in required) without raising."""
    assert rules.schema_refuses(
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": [["a"]]}
    )
    assert not rules.schema_refuses(
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    )


def test_a_schema_without_a_type_goes_as_parameters_json_schema() -> None:
    """At the top too: a Tool takes parameters without "type" (an object's, by default)."""
    untyped = {"properties": {"city": {"type": "string"}}}
    assert declaration(untyped) == {"name": "f", "parametersJsonSchema": untyped}
    assert declaration({"anyOf": [{"type": "object", "properties": untyped["properties"]}]})["parameters"]


@pytest.mark.parametrize("schema", REFUSED_BY_GEMINI_SCHEMA)
def test_a_schema_gemini_schema_refuses_goes_as_parameters_json_schema(schema: dict[str, Any]) -> None:
    """An array without items, an object without properties, a required name with no property, at
    any depth: valid JSON Schema, sent unchanged as parametersJsonSchema, and read back the same."""
    parameters = {"type": "object", **schema}
    assert declaration(parameters) == {"name": "f", "parametersJsonSchema": parameters}
    assert read_back(declaration(parameters)) == Tool("f", parameters=parameters)


def test_the_same_schemas_with_what_gemini_needs_go_as_parameters() -> None:
    """Items, properties and every required name given: Gemini's Schema takes them."""
    schema = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string"}},
            "meta": {"type": "object", "properties": {"by": {"type": "string"}}, "required": ["by"]},
        },
        "required": ["tags"],
    }
    assert declaration(schema) == {"name": "f", "parameters": schema}
    types.Schema.model_validate(schema)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": [{"type": "string"}]},
        {"type": "object", "properties": {"a": {"anyOf": {}}}},
    ],
)
def test_what_no_tool_holds_is_no_gemini_schema(schema: dict[str, Any]) -> None:
    """The test takes any schema, one a Tool would refuse too: properties that are no object, anyOf no array."""
    assert not is_gemini_schema(schema)


#: Not JSON Schemas at all, each with where it breaks JSON Schema: the Tool refuses them.
NOT_SCHEMAS = [
    ({"properties": {"a": {"type": "STRING"}}}, "properties.a.type"),
    ({"properties": {"a": {"anyOf": {"type": "string"}}}}, "properties.a.anyOf"),
    ({"properties": [{"type": "string"}]}, "properties"),
    ({"required": "a"}, "required"),
    (
        {"properties": {"a": {"items": {"additionalProperties": {"type": "x"}}}}},
        "properties.a.items.additionalProperties.type",
    ),
]


@pytest.mark.parametrize(("schema", "path"), NOT_SCHEMAS)
def test_a_json_schema_that_is_none_is_refused_where_it_breaks(schema: dict[str, Any], path: str) -> None:
    """Read from parametersJsonSchema, or made into a Tool for this wire: InvalidTool at the keyword."""
    with pytest.raises(InvalidTool) as caught:
        read_back({"name": "f", "parametersJsonSchema": {"type": "object", **schema}})
    assert caught.value.path == f"tools[0].functionDeclarations[0].parametersJsonSchema.{path}"
    with pytest.raises(InvalidTool) as made:
        Tool("f", parameters={"type": "object", **schema})
    assert made.value.path == f"parameters.{path}"


@pytest.mark.parametrize("outside", OUTSIDE)
def test_a_schema_outside_gemini_schema_goes_as_parameters_json_schema(outside: dict[str, Any]) -> None:
    """A keyword Gemini's Schema lacks, or a value its field cannot hold, at any depth: parametersJsonSchema, unchanged."""
    schema = {"type": "object", **outside}
    assert declaration(schema) == {"name": "f", "parametersJsonSchema": schema}
    body = gemini.to_request([ChatMessage.user("x")], tools=[Tool("f", parameters=schema)])
    assert body["tools"] == [{"functionDeclarations": [{"name": "f", "parametersJsonSchema": schema}]}]
    assert read_back(declaration(schema)) == Tool("f", parameters=schema)


def test_the_rule_names_only_fields_of_google_genais_schema() -> None:
    """Each field the rule sends as parameters is one google-genai's types.Schema has (by its camelCase alias)."""
    aliases = {field.alias for field in types.Schema.model_fields.values()}
    assert set(rules.SCHEMA_FIELDS) <= aliases
    # The three it leaves out are Vertex AI's (the SDK refuses additionalProperties for the Gemini API).
    assert aliases - set(rules.SCHEMA_FIELDS) == {"additionalProperties", "ref", "defs"}


# -- the round trip ----------------------------------------------------------------------------

NAMES = st.sampled_from(["city", "city_name", "anyOf", "max_items", "type", "a b", "\u00e9"])
TEXT = s.unicode_text(max_size=6)
VALUES: dict[str, st.SearchStrategy[Any]] = {
    "type": st.sampled_from(["string", "number", "integer", "boolean", "array", "object", "null"])
    | st.just(["string", "null"]),
    "format": TEXT,
    "title": TEXT,
    "description": TEXT,
    "pattern": TEXT,
    "nullable": st.booleans(),
    "enum": st.lists(TEXT, max_size=2) | st.lists(st.integers(), min_size=1, max_size=2),
    "maxItems": st.integers(0, 5) | st.just(2.0),
    "minLength": st.integers(0, 5),
    "minimum": st.integers() | st.floats(allow_nan=False, allow_infinity=False),
    "required": st.lists(NAMES, max_size=2),
    "propertyOrdering": st.lists(NAMES, max_size=2),
    "default": s.json_values(deep=False, max_leaves=3),
    "example": s.json_values(deep=False, max_leaves=3),
    "const": s.json_values(deep=False, max_leaves=2),
    "$ref": st.just("#/$defs/A"),
    "uniqueItems": st.booleans(),
    "exclusiveMaximum": st.integers(),
}
NESTING = ["properties", "items", "anyOf", "oneOf", "additionalProperties", "not", "$defs"]


@st.composite
def json_schemas(draw: st.DrawFn, depth: int = 2) -> Any:
    """JSON Schemas mixing Gemini's fields with others, values it holds with ones it does not."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.booleans())
    keys = draw(st.lists(st.sampled_from(sorted(VALUES)), unique=True, max_size=3))
    schema = {key: draw(VALUES[key]) for key in keys}
    if depth:
        sub = json_schemas(depth=depth - 1)
        for key in draw(st.lists(st.sampled_from(NESTING), unique=True, max_size=2)):
            if key in ("properties", "$defs"):
                schema[key] = draw(st.dictionaries(NAMES, sub, max_size=2))
            elif key in ("anyOf", "oneOf"):
                schema[key] = draw(st.lists(sub, min_size=1, max_size=2))
            else:
                schema[key] = draw(sub)
    return schema


@st.composite
def tools(draw: st.DrawFn) -> Tool:
    schema = draw(json_schemas())
    parameters = {**schema, "type": "object"} if isinstance(schema, dict) else {"type": "object"}
    return Tool("f", draw(TEXT), parameters)


@given(tools())
@settings(max_examples=150)
def test_tool_definitions_read_back_whichever_key_they_use(tool: Tool) -> None:
    """read_tools(tool_definition(t)) == t, through JSON; what goes as parameters google-genai's Schema takes."""
    definition = gemini.tool_definition(tool)
    assert read_back(definition) == tool
    if "parameters" in definition:
        schema = types.Schema.model_validate(definition["parameters"])
        assert schema.additional_properties is None
        assert schema.defs is None
        assert schema.ref is None


# -- reading Gemini's Schema -------------------------------------------------------------------


def test_reading_parameters_keeps_property_names_and_data_as_they_are() -> None:
    """Only field names are respelled: property names, required, enum values and defaults keep theirs."""
    schema = {
        "type": "OBJECT",
        "properties": {"max_items": {"type": "STRING", "enum": ["OBJECT"], "default": {"a_b": None}}},
        "required": ["max_items"],
        "property_ordering": ["max_items"],
    }
    assert read_back({"name": "f", "parameters": schema}).parameters == {
        "type": "object",
        "properties": {"max_items": {"type": "string", "enum": ["OBJECT"], "default": {"a_b": None}}},
        "required": ["max_items"],
        "propertyOrdering": ["max_items"],
    }


def test_numbers_proto_json_writes_as_strings_read_as_numbers() -> None:
    """Gemini's REST Schema types maxItems and the other counts "string (int64 format)": "5" is 5; a
    double (minimum, maximum) may come as text too."""
    schema = {
        "type": "OBJECT",
        "properties": {
            "tags": {"type": "ARRAY", "items": {"type": "STRING"}, "maxItems": "5", "min_items": "1"},
            "n": {"type": "NUMBER", "minimum": "-1.5", "maximum": "2e3"},
        },
    }
    assert read_back({"name": "f", "parameters": schema}).parameters["properties"] == {
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5, "minItems": 1},
        "n": {"type": "number", "minimum": -1.5, "maximum": 2000.0},
    }
    # No count's text (an Arabic-Indic five, too long for one, signs and spaces), or a count the Tool
    # refuses (-1); past a double's range: the text is kept, and the Tool says what is wrong.
    for kept, key in [
        ("-1", "maxLength"),
        ("five", "maxLength"),
        ("\u0665", "maxLength"),
        ("9" * 4301, "maxLength"),
        ("+5", "maxLength"),
        ("5 ", "maxLength"),
        ("1e999", "minimum"),
    ]:
        fields = {"type": "OBJECT", "properties": {"t": {"type": "STRING", key: kept}}}
        with pytest.raises(InvalidTool) as caught:
            read_back({"name": "f", "parameters": fields})
        assert caught.value.path.endswith(f"parameters.properties.t.{key}")


def test_reading_parameters_json_schema_changes_nothing() -> None:
    """parametersJsonSchema is JSON Schema already: snake_case keys, capitals and nulls in it stay."""
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string", "enum": ["STRING"], "max_items": None}},
    }
    assert read_back({"name": "f", "parametersJsonSchema": schema}).parameters == schema


@pytest.mark.parametrize(
    ("schema", "path"),
    [
        (
            {"type": "object", "items": {"type": "x", "min_items": 1, "minItems": 1}},
            "parameters.items.minItems",
        ),
        (
            {"type": "object", "anyOf": [{}, {"type": "string", "max_length": 1, "maxLength": 1}]},
            "parameters.anyOf[1].maxLength",
        ),
        (
            {"type": "object", "properties": {"a b": {"min_length": 1, "minLength": 1}}},
            'parameters.properties["a b"].minLength',
        ),
    ],
)
def test_a_schema_field_named_twice_is_refused_where_it_is(schema: dict[str, Any], path: str) -> None:
    """Deep in parameters (items, anyOf, a property): InvalidTool at the second spelling."""
    with pytest.raises(InvalidTool) as caught:
        read_back({"name": "f", "parameters": schema})
    assert str(caught.value).startswith(f"tools[0].functionDeclarations[0].{path}: names the field")


def test_parameters_that_are_not_a_schema_are_refused_as_before() -> None:
    """A parameters value that is no object is the Tool's to refuse, at the native path."""
    with pytest.raises(InvalidTool) as caught:
        read_back({"name": "f", "parameters": ["type", "object"]})
    assert caught.value.path == "tools[0].functionDeclarations[0].parameters"


def test_parameters_nested_past_any_depth_raise_only_invalid_tool() -> None:
    """A schema nested past the interpreter's stack: InvalidTool, never RecursionError."""
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(5000):
        schema = {"items": schema}
    with pytest.raises(InvalidTool):
        gemini.read_tools(
            [{"functionDeclarations": [{"name": "f", "parameters": {"type": "object", **schema}}]}]
        )


@pytest.mark.parametrize(
    ("schema", "path"), [({"properties": ["city"]}, "properties"), ({"items": 5}, "items")]
)
def test_a_schema_field_not_holding_its_kind_is_the_tools_to_refuse(
    schema: dict[str, Any], path: str
) -> None:
    """``properties`` or ``items`` that are not schemas are not walked by the reader: the Tool refuses them, at the native path."""
    with pytest.raises(InvalidTool) as caught:
        read_back({"name": "f", "parameters": {"type": "OBJECT", **schema}})
    assert caught.value.path == f"tools[0].functionDeclarations[0].parameters.{path}"
