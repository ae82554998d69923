"""Tool.validate: the JSON Schema subset of tool parameters, with JSON Schema's semantics."""

from __future__ import annotations

import math
import typing
from typing import Any

import pytest

from toolturns import InvalidArguments, InvalidTool, Tool, _schema
from toolturns._schema import json_equal


def tool(properties: dict[str, Any] | None = None, **schema: Any) -> Tool:
    return Tool("f", parameters={"type": "object", "properties": properties or {}, **schema})


def one(schema: dict[str, Any] | bool) -> Tool:
    """A tool whose one property ``x`` has ``schema``."""
    return tool({"x": schema})


def refusal(checked: Tool, arguments: object) -> tuple[str, str, str | None]:
    with pytest.raises(InvalidArguments) as caught:
        checked.validate(arguments)  # type: ignore[arg-type]
    return caught.value.path, caught.value.rule, caught.value.got


@pytest.mark.parametrize(
    ("schema", "value"),
    [
        ({"type": "string"}, "a"),
        ({"type": "integer"}, 3),
        ({"type": "integer"}, 1.0),  # JSON Schema: 1.0 is an integer
        ({"type": "integer"}, 10**30),
        ({"type": "number"}, 3),
        ({"type": "number"}, 2.5),
        ({"type": "boolean"}, False),
        ({"type": "null"}, None),
        ({"type": "object"}, {"a": 1}),
        ({"type": "array"}, [1, "a"]),
        ({"type": "array"}, (1, 2)),  # a tuple is a JSON array, as toolturns encodes it
        ({"type": ["string", "null"]}, None),
        ({"type": ["string", "null"]}, "a"),
        ({"enum": ["c", "f"]}, "c"),
        ({"enum": [1, "a", None]}, 1.0),  # 1 and 1.0 are the same JSON number
        ({"enum": [[1, 2], {"a": True}]}, {"a": True}),
        ({"const": {"a": [1, 2]}}, {"a": [1.0, 2]}),
        ({"const": None}, None),
        ({"minimum": 1, "maximum": 3}, 3),
        ({"minimum": 1}, "not a number: bounds say nothing of it"),
        ({"exclusiveMinimum": 1, "exclusiveMaximum": 3}, 2),
        ({"minimum": 1, "exclusiveMinimum": True}, 1.5),  # draft 4's boolean form
        ({"maximum": 1, "exclusiveMaximum": False}, 1),
        ({"exclusiveMinimum": True}, 0),  # draft 4's modifier with no minimum: no bound
        ({"minLength": 2, "maxLength": 3}, "ab"),
        ({"minLength": 2}, 5),
        ({"maxLength": 1}, "\U0001f600"),  # one code point (two UTF-16 units)
        ({"pattern": "^[a-z]+$"}, "abc"),
        ({"pattern": "b"}, "abc"),  # re.search: anywhere in the string
        ({"minItems": 1, "maxItems": 2}, [1, 2]),
        ({"minItems": 1}, {"a": 1}),
        ({"items": {"type": "integer"}}, [1, 2]),
        ({"prefixItems": [{"type": "integer"}, {"type": "string"}]}, [1, "a", None]),
        ({"prefixItems": [{"type": "integer"}], "items": {"type": "string"}}, [1, "a"]),
        ({"items": [{"type": "integer"}], "additionalItems": {"type": "string"}}, [1, "a"]),
        ({"prefixItems": [{"type": "integer"}], "items": False}, [1]),
        ({"properties": {"a": {"type": "integer"}}}, {"a": 1, "b": "x"}),
        ({"additionalProperties": {"type": "integer"}}, {"a": 1, "b": 2}),
        ({"required": ["a"]}, "not an object"),
        ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, None),
        ({"oneOf": [{"type": "integer"}, {"type": "string"}]}, "a"),
        ({"allOf": [{"type": "integer"}, {"minimum": 1}]}, 2),
        (True, {"anything": [1]}),
        ({}, None),
        ({"format": "date", "multipleOf": 7, "uniqueItems": True}, 3),  # not checked: ignored
        ({"not": {"type": "integer"}}, 3),
        ({"$ref": "https://example.invalid/schema"}, 3),  # not a local pointer: not followed
    ],
)
def test_a_value_the_schema_allows_passes(schema: dict[str, Any] | bool, value: object) -> None:
    """Each keyword lets through what JSON Schema lets through."""
    one(schema).validate({"x": value})


@pytest.mark.parametrize(
    ("schema", "value", "rule", "got"),
    [
        ({"type": "string"}, 3, "must be a string", "3"),
        ({"type": "integer"}, True, "must be an integer", "True"),  # a boolean is no integer
        ({"type": "integer"}, 1.5, "must be an integer", "1.5"),
        ({"type": "integer"}, math.inf, "must be an integer", "inf"),
        ({"type": "number"}, False, "must be a number", "False"),
        ({"type": "number"}, math.nan, "must be a number", "nan"),
        ({"type": "number"}, "1", "must be a number", "'1'"),
        ({"type": "boolean"}, 0, "must be a boolean", "0"),
        ({"type": "null"}, 0, "must be null", "0"),
        ({"type": "object"}, [1], "must be an object", "list"),
        ({"type": "array"}, {"a": 1}, "must be an array", "dict"),
        ({"type": "array"}, "ab", "must be an array", "'ab'"),
        ({"type": ["integer", "string", "null"]}, 1.5, "must be an integer, a string or null", "1.5"),
        ({"enum": ["c", "f"]}, "k", "must be one of 'c', 'f'", "'k'"),
        ({"enum": ["c", "f"]}, 1, "must be one of 'c', 'f'", "1"),
        ({"enum": [1, 2]}, True, "must be one of 1, 2", "True"),  # JSON's true is not 1
        ({"enum": [True]}, 1, "must be one of True", "1"),
        ({"enum": [[1]]}, [True], "must be one of [1]", "list"),
        ({"enum": [{"a": 1}]}, {"a": 1, "b": 2}, "must be one of {'a': 1}", "dict"),
        ({"enum": []}, 1, "must be one of no value (enum is empty)", "1"),
        ({"const": "metric"}, "imperial", "must be 'metric'", "'imperial'"),
        ({"const": 0}, False, "must be 0", "False"),
        ({"minimum": 1}, 0, "must be >= 1", "0"),
        ({"maximum": 1}, 1.5, "must be <= 1", "1.5"),
        ({"exclusiveMinimum": 1}, 1, "must be > 1", "1"),
        ({"exclusiveMaximum": 1}, 1, "must be < 1", "1"),
        ({"minimum": 1, "exclusiveMinimum": True}, 1, "must be > 1", "1"),
        ({"maximum": 1, "exclusiveMaximum": True}, 1, "must be < 1", "1"),
        ({"minLength": 2}, "a", "must be at least 2 characters long", "'a'"),
        ({"maxLength": 1}, "ab", "must be at most 1 characters long", "'ab'"),
        ({"pattern": "^[a-z]+$"}, "abc1", "must match the pattern '^[a-z]+$'", "'abc1'"),
        ({"minItems": 2}, [1], "must have at least 2 items", "1 items"),
        ({"maxItems": 1}, [1, 2], "must have at most 1 items", "2 items"),
        (False, 1, "is not allowed (the schema is false)", "1"),
        ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, "a", "must be an integer or null", "'a'"),
        (
            {"oneOf": [{"type": "integer"}, {"type": "number"}]},
            1,
            "must match exactly one of the schemas (matches [0] or [1])",
            "1",
        ),
        ({"allOf": [{"type": "integer"}, {"minimum": 2}]}, 1, "must be >= 2", "1"),
    ],
)
def test_a_value_the_schema_refuses_names_the_rule(
    schema: dict[str, Any] | bool, value: object, rule: str, got: str
) -> None:
    """Each keyword refuses what JSON Schema refuses, and says which rule and what value."""
    assert refusal(one(schema), {"x": value}) == ("x", rule, got)


def test_any_of_says_what_a_model_can_act_on() -> None:
    """No branch matching: the types wanted; or the one branch of the value's type, its path; or each branch's."""
    checked = one({"anyOf": [{"type": "object", "required": ["city"]}, {"type": "string", "minLength": 2}]})
    assert refusal(checked, {"x": 5}) == ("x", "must be an object or a string", "5")
    assert refusal(checked, {"x": {}}) == ("x.city", "is required", None)
    assert refusal(checked, {"x": "a"}) == ("x", "must be at least 2 characters long", "'a'")
    typed = one({"anyOf": [{"type": "array", "items": {"type": "integer"}}, {"type": "null"}]})
    assert refusal(typed, {"x": [9, "noon"]}) == ("x[1]", "must be an integer", "'noon'")
    both = one(
        {"anyOf": [{"type": "object", "required": ["city"]}, {"properties": {"a": {"type": "string"}}}]}
    )
    assert refusal(both, {"x": {"a": 1}}) == (
        "x",
        "must match at least one of the schemas ([0] at city: is required; [1] at a: must be a string)",
        "dict",
    )
    nested = one({"anyOf": [{"anyOf": [{"type": "integer"}, {"type": "null"}]}, {"type": "boolean"}]})
    assert refusal(nested, {"x": "a"}) == ("x", "must be an integer, null or a boolean", "'a'")


def test_one_of_matching_no_branch_names_each() -> None:
    """oneOf with no branch matching says so as anyOf does, asking for exactly one."""
    assert refusal(one({"oneOf": [{"type": "integer"}, {"type": "null"}]}), {"x": "a"})[1] == (
        "must be an integer or null"
    )
    assert refusal(one({"oneOf": [{"minimum": 3}, {"maximum": 1}]}), {"x": 2})[1] == (
        "must match exactly one of the schemas ([0] must be >= 3; [1] must be <= 1)"
    )


def test_the_path_of_a_nested_violation() -> None:
    """The path says where in the arguments: properties by name, items by index, odd keys quoted."""
    stop = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    trip = {"type": "object", "properties": {"stops": {"type": "array", "items": stop}}}
    checked = tool({"trip": trip, "days": {"type": "array", "items": {"type": "integer"}}})
    assert refusal(checked, {"trip": {"stops": [{"city": "Paris"}, {"city": 5}]}}) == (
        "trip.stops[1].city",
        "must be a string",
        "5",
    )
    assert refusal(checked, {"trip": {"stops": [{}]}}) == ("trip.stops[0].city", "is required", None)
    assert refusal(checked, {"days": [1, "2"]}) == ("days[1]", "must be an integer", "'2'")
    odd = tool({"a b": {"type": "integer"}})
    assert refusal(odd, {"a b": "x"})[0] == '["a b"]'


def test_required_and_additional_properties() -> None:
    """A missing required key is named; an unknown one under additionalProperties false is too."""
    checked = tool({"city": {"type": "string"}, "unit": {}}, required=["city"], additionalProperties=False)
    assert refusal(checked, {}) == ("city", "is required", None)
    assert refusal(checked, {"city": "P", "cty": "Q"}) == (
        "cty",
        "is not allowed (allowed: 'city', 'unit')",
        "'Q'",
    )
    closed = tool(additionalProperties=False)
    assert refusal(closed, {"a": 1}) == ("a", "is not allowed (allowed: none)", "1")
    typed = tool(additionalProperties={"type": "integer"})
    assert refusal(typed, {"a": 1, "b": "x"}) == ("b", "must be an integer", "'x'")


def test_the_first_violation_is_reported() -> None:
    """Keywords are met in a fixed order (type, then enum, ...), required keys before values, items in order."""
    assert refusal(one({"type": "integer", "enum": [1]}), {"x": "a"})[1] == "must be an integer"
    checked = tool({"a": {"type": "integer"}, "b": {"type": "integer"}}, required=["c"])
    assert refusal(checked, {"a": "x", "b": "y"})[0] == "c"
    assert refusal(tool({"a": {"type": "integer"}, "b": {"type": "integer"}}), {"b": "y", "a": "x"})[0] == "b"


def test_items_beyond_the_prefix() -> None:
    """items: false after prefixItems refuses more items, naming the first extra one."""
    checked = one({"prefixItems": [{"type": "integer"}], "items": False})
    assert refusal(checked, {"x": [1, "a"]}) == ("x[1]", "is not allowed (the array has 1 items)", "'a'")
    rest = one({"prefixItems": [{"type": "integer"}], "items": {"type": "string"}})
    assert refusal(rest, {"x": ["a"]}) == ("x[0]", "must be an integer", "'a'")
    assert refusal(rest, {"x": [1, 2]}) == ("x[1]", "must be a string", "2")
    old = one({"items": [{"type": "integer"}], "additionalItems": False})
    assert refusal(old, {"x": [1, 2]})[0] == "x[1]"


def test_refs_to_defs_and_definitions() -> None:
    """$ref points into $defs or definitions (or anywhere in the schema, by JSON pointer)."""
    city = {"type": "string", "minLength": 1}
    for where in ("$defs", "definitions"):
        checked = tool({"city": {"$ref": f"#/{where}/City"}}, **{where: {"City": city}})
        checked.validate({"city": "Paris"})
        assert refusal(checked, {"city": ""}) == ("city", "must be at least 1 characters long", "''")
    pointer = tool({"a": {"type": "integer"}, "b": {"$ref": "#/properties/a"}})
    assert refusal(pointer, {"b": "x"})[0] == "b"
    escaped = tool({"b": {"$ref": "#/$defs/a~1b~0c%25"}}, **{"$defs": {"a/b~c%": {"type": "integer"}}})
    assert refusal(escaped, {"b": "x"})[0] == "b"
    indexed = tool({"b": {"$ref": "#/allOf/0"}}, allOf=[{"type": "object"}])
    indexed.validate({"b": {}})
    assert refusal(indexed, {"b": 1})[1] == "must be an object"


def test_a_recursive_ref_checks_as_deep_as_the_value() -> None:
    """A schema that refers to itself through its properties (a tree) is checked level by level."""
    node = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
        },
    }
    checked = tool({"root": {"$ref": "#/$defs/Node"}}, **{"$defs": {"Node": node}})
    leaf = {"name": 5, "children": []}
    assert refusal(checked, {"root": {"name": "a", "children": [{"name": "b", "children": [leaf]}]}}) == (
        "root.children[0].children[0].name",
        "must be a string",
        "5",
    )
    whole = Tool(
        "f", parameters={"type": "object", "properties": {"next": {"$ref": "#"}, "n": {"type": "integer"}}}
    )
    assert refusal(whole, {"next": {"next": {"n": "x"}}})[0] == "next.next.n"


def test_a_value_too_deep_to_check_is_refused() -> None:
    """A value nested past the recursion limit, under a recursive schema, is refused, not a RecursionError."""
    checked = Tool("f", parameters={"type": "object", "properties": {"a": {"$ref": "#"}}})
    value: dict[str, Any] = {}
    for _ in range(5000):
        value = {"a": value}
    assert refusal(checked, value) == ("", "is nested too deeply to check", "dict")


def test_a_key_that_is_not_json_is_shown_by_its_repr() -> None:
    """A mapping with a key JSON has no form for (a caller's, not a model's) still gets InvalidArguments."""
    assert refusal(tool(additionalProperties=False), {(1, 2): 3})[0] == "[(1, 2)]"
    assert refusal(tool(additionalProperties=False), {7: 3})[0] == "[7]"


def test_arguments_that_are_not_an_object() -> None:
    """Arguments must be an object: a list or text is refused as arguments."""
    assert refusal(tool(), [1]) == ("", "must be an object (the arguments by name)", "list")
    assert refusal(tool(), "{}") == ("", "must be an object (the arguments by name)", "'{}'")


def schema_error(parameters: dict[str, Any]) -> tuple[str, str, str | None]:
    with pytest.raises(InvalidTool) as caught:
        Tool("f", parameters={"type": "object", **parameters}).validate({})
    return caught.value.path, caught.value.rule, caught.value.got


#: Schemas with a keyword holding the wrong kind of value: (the schema, where, the rule).
MALFORMED: list[tuple[dict[str, Any], str, str | None]] = [
    ({"properties": []}, "parameters.properties", "must be an object of schemas"),
    ({"properties": {"a": 5}}, "parameters.properties.a", "must be a schema (an object or a boolean)"),
    ({"required": "a"}, "parameters.required", "must be an array of strings"),
    ({"required": [1]}, "parameters.required", "must be an array of strings"),
    ({"minProperties": 1, "properties": {"a": {"type": "int"}}}, "parameters.properties.a.type", None),
    ({"properties": {"a": {"type": []}}}, "parameters.properties.a.type", None),
    ({"properties": {"a": {"minimum": "1"}}}, "parameters.properties.a.minimum", "must be a number"),
    (
        {"properties": {"a": {"exclusiveMaximum": "1"}}},
        "parameters.properties.a.exclusiveMaximum",
        "must be a number",
    ),
    (
        {"properties": {"a": {"minLength": -1}}},
        "parameters.properties.a.minLength",
        "must be a non-negative integer",
    ),
    (
        {"properties": {"a": {"maxItems": 1.5}}},
        "parameters.properties.a.maxItems",
        "must be a non-negative integer",
    ),
    (
        {"properties": {"a": {"pattern": "("}}},
        "parameters.properties.a.pattern",
        "must be a regular expression Python's re compiles",
    ),
    (
        {"properties": {"a": {"pattern": 5}}},
        "parameters.properties.a.pattern",
        "must be a regular expression Python's re compiles",
    ),
    ({"properties": {"a": {"enum": "ab"}}}, "parameters.properties.a.enum", "must be an array"),
    (
        {"properties": {"a": {"prefixItems": {}}}},
        "parameters.properties.a.prefixItems",
        "must be an array of schemas",
    ),
    (
        {"properties": {"a": {"anyOf": []}}},
        "parameters.properties.a.anyOf",
        "must be a non-empty array of schemas",
    ),
    (
        {"properties": {"a": {"oneOf": [1]}}},
        "parameters.properties.a.oneOf[0]",
        "must be a schema (an object or a boolean)",
    ),
    ({"properties": {"a": {"$ref": 5}}}, 'parameters.properties.a["$ref"]', "must be a string"),
    (
        {"properties": {"a": {"$ref": "#/$defs/B"}}},
        'parameters.properties.a["$ref"]',
        "must point to a schema in this one",
    ),
    (
        {"properties": {"a": {"$ref": "#/allOf/3"}}, "allOf": [{}]},
        'parameters.properties.a["$ref"]',
        "must point to a schema in this one",
    ),
]

#: What only validate judges, made into a Tool as given: a pattern may be ECMA-262's, which
#: Python's re does not read (``\\p{L}``), and a ``$ref`` is followed only when checking.
VALIDATE_ONLY: list[dict[str, Any]] = [
    {"properties": {"a": {"pattern": "("}}},
    {"properties": {"a": {"pattern": "^\\p{L}+$"}}},
    {"properties": {"a": {"$ref": "#/$defs/B"}}},
    {"properties": {"a": {"$ref": "#/allOf/3"}}, "allOf": [{}]},
    {"$ref": "#"},
]


@pytest.mark.parametrize(("parameters", "path", "rule"), MALFORMED)
def test_a_malformed_schema_is_the_tools_error(
    parameters: dict[str, Any], path: str, rule: str | None
) -> None:
    """A keyword holding the wrong kind of value is InvalidTool, with its path in the schema, not a guess."""
    error = schema_error(parameters)
    assert error[0] == path
    if rule is not None:
        assert error[1] == rule


@pytest.mark.parametrize(
    ("parameters", "path", "rule"), [case for case in MALFORMED if case[0] not in VALIDATE_ONLY]
)
def test_a_schema_that_is_no_json_schema_is_refused_when_the_tool_is_made(
    parameters: dict[str, Any], path: str, rule: str | None
) -> None:
    """What a provider that checks schemas answers 400 to: the Tool's error at once, where validate would say it."""
    with pytest.raises(InvalidTool) as caught:
        Tool("f", parameters={"type": "object", **parameters})
    assert caught.value.path == path
    if rule is not None:
        assert caught.value.rule == rule
    assert (caught.value.path, caught.value.rule, caught.value.got) == schema_error(parameters)


@pytest.mark.parametrize("parameters", VALIDATE_ONLY)
def test_a_pattern_or_a_ref_is_judged_by_validate_only(parameters: dict[str, Any]) -> None:
    """A Tool is made with it (it may be a valid JSON Schema); validate, which needs it, refuses it."""
    tool = Tool("f", parameters={"type": "object", **parameters})
    with pytest.raises(InvalidTool):
        tool.validate({"a": "x"})


def test_a_pattern_that_is_no_string_is_refused_when_the_tool_is_made() -> None:
    """JSON Schema's pattern is a string: anything else is no pattern in any dialect."""
    with pytest.raises(InvalidTool) as caught:
        Tool("f", parameters={"type": "object", "properties": {"a": {"pattern": ["^a"]}}})
    assert (
        str(caught.value)
        == "parameters.properties.a.pattern: must be a regular expression Python's re compiles, got list"
    )


def test_a_schema_is_read_as_it_is_sent() -> None:
    """A tuple is an array on the wire: a tuple of required names is one, a tuple of schemas too."""
    tool = Tool("f", parameters={"type": "object", "required": ("a",), "properties": {"a": {"anyOf": ({},)}}})
    assert tool.parameters["required"] == ["a"]


def test_a_schema_too_deep_to_walk_is_left_to_validate() -> None:
    """A JSON Schema is not refused for its depth when the Tool is made; validate, which must walk it, says so."""
    schema: dict[str, Any] = {"type": "integer"}
    for _ in range(400):
        schema = {"items": schema}
    tool = Tool("f", parameters={"type": "object", "properties": {"x": schema}})
    with pytest.raises(InvalidTool) as caught:
        tool.validate({"x": []})
    assert caught.value.rule == "is nested too deeply to compile"


@pytest.mark.parametrize(
    ("parameters", "path"),
    [
        ({"$defs": {"A": {"type": "object", "required": None}}}, 'parameters["$defs"].A.required'),
        ({"definitions": {"A": {"properties": {"b": None}}}}, "parameters.definitions.A.properties.b"),
        ({"properties": {"a": {"$defs": {"B": {"type": "int"}}}}}, 'parameters.properties.a["$defs"].B.type'),
        ({"$defs": []}, 'parameters["$defs"]'),
    ],
)
def test_the_schemas_kept_for_ref_are_checked_when_the_tool_is_made(
    parameters: dict[str, Any], path: str
) -> None:
    """Generated schemas keep their nested models in $defs: a mistake there is refused as one inline is,
    whether a $ref reaches it or not."""
    with pytest.raises(InvalidTool) as caught:
        Tool("f", parameters={"type": "object", **parameters})
    assert caught.value.path == path


def test_what_validate_makes_of_defs_is_unchanged() -> None:
    """$defs are a place for schemas, not a keyword a value meets: validate checks only those a $ref reaches."""
    tool = Tool(
        "f",
        parameters={
            "type": "object",
            "$defs": {"N": {"type": "integer"}},
            "properties": {"n": {"$ref": "#/$defs/N"}},
        },
    )
    tool.validate({"n": 1, "m": "x"})
    with pytest.raises(InvalidArguments):
        tool.validate({"n": "x"})
    assert "$defs" not in _schema.CHECKED


def test_the_verdict_on_a_deep_schema_does_not_depend_on_the_stack_or_the_order() -> None:
    """Past _SHAPE_DEPTH levels of objects and arrays no verdict is given when the Tool is made, from any
    stack depth and whatever comes first; at that depth, a mistake is refused from any stack."""
    limit = _schema._SHAPE_DEPTH

    def schema(levels: int, bad_first: bool) -> dict[str, Any]:
        """``levels`` deep: the top, its properties, "a"'s schema, then lists in its default (an
        ignored keyword, one level each); and a null property beside "a"."""
        value: Any = "x"
        for _ in range(levels - 3):
            value = [value]
        properties = {"a": {"default": value}, "b": None}
        return {
            "type": "object",
            "properties": dict(reversed(properties.items())) if bad_first else properties,
        }

    def made(depth: int, parameters: dict[str, Any]) -> bool:
        if depth:
            return made(depth - 1, parameters)
        try:
            Tool("f", parameters=parameters)
        except InvalidTool:
            return False
        return True

    for bad_first in (False, True):
        for levels, accepted in [(limit, False), (limit + 1, True)]:
            parameters = schema(levels, bad_first)
            assert _schema._deeper_than(parameters, levels - 1)
            assert not _schema._deeper_than(parameters, levels)
            assert [made(depth, parameters) for depth in (0, 300, 600)] == [accepted] * 3


def test_a_stack_too_deep_to_check_from_gives_no_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    """Made from a call stack with no room left for the check: the Tool is made, nothing is remembered,
    and validate (or the toolbox) says what is wrong when asked."""

    def overflow(self: object, node: object, path: str) -> None:
        raise RecursionError

    monkeypatch.setattr(_schema, "_SHAPES", {})
    with monkeypatch.context() as patched:
        patched.setattr(_schema._Compiler, "schema", overflow)
        tool = Tool("f", parameters={"type": "object", "required": None})
    assert _schema._SHAPES == {}
    with pytest.raises(InvalidTool) as caught:
        tool.validate({})
    assert caught.value.path == "parameters.required"


def test_the_schemas_checked_are_remembered_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """One check per schema text, however many tools of it; at most _CACHE_SIZE texts are kept."""
    monkeypatch.setattr(_schema, "_SHAPES", {})
    monkeypatch.setattr(_schema, "_CACHE_SIZE", 2)
    made: list[object] = []
    monkeypatch.setattr(_schema, "_Compiler", _counting(_schema._Compiler, made))
    for _ in range(3):
        Tool("f", parameters={"type": "object", "required": ["a"]})
    assert len(made) == 1
    Tool("f", parameters={"type": "object", "required": ["b"]})
    Tool("f", parameters={"type": "object", "required": ["c"]})
    assert list(_schema._SHAPES) == [
        '{"type":"object","required":["b"]}',
        '{"type":"object","required":["c"]}',
    ]
    Tool("f", parameters={"type": "object", "required": ["a"]})  # the oldest went: checked again
    assert len(made) == 4


def _counting(compiler: type[Any], made: list[object]) -> type[Any]:
    class Counting(compiler):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            made.append(args)
            super().__init__(*args, **kwargs)

    return Counting


def test_ref_loops_that_never_reach_into_the_value_are_refused() -> None:
    """$ref cycles that stay on the same value (a schema that is only itself) would never end: InvalidTool."""
    looping = {"$defs": {"A": {"anyOf": [{"$ref": "#/$defs/B"}]}, "B": {"allOf": [{"$ref": "#/$defs/A"}]}}}
    error = schema_error({"properties": {"a": {"$ref": "#/$defs/A"}}, **looping})
    assert error[1] == "must not loop back to itself without reaching into the value"
    assert schema_error({"$ref": "#"})[1] == "must not loop back to itself without reaching into the value"


def test_a_schema_too_deep_to_compile_is_refused() -> None:
    """A schema nested past the recursion limit is InvalidTool, not a RecursionError."""
    schema: dict[str, Any] = {"type": "integer"}
    for _ in range(3000):
        schema = {"items": schema}
    with pytest.raises(InvalidTool) as caught:
        _schema.compile_schema(schema)
    assert caught.value.rule == "is nested too deeply to compile"


def test_the_compiled_schema_is_cached_by_its_text_and_bounded() -> None:
    """One compile per schema, however many calls; the cache keeps at most _CACHE_SIZE schemas."""
    checked = one({"type": "integer"})
    checked.validate({"x": 1})
    compiled = _schema._CACHE[checked.parameters_json]
    checked.validate({"x": 2})
    assert _schema._CACHE[checked.parameters_json] is compiled
    for number in range(_schema._CACHE_SIZE + 1):
        one({"type": "integer", "minimum": number}).validate({"x": number})
    assert len(_schema._CACHE) == _schema._CACHE_SIZE
    assert checked.parameters_json not in _schema._CACHE


def test_json_equality_is_json_schemas() -> None:
    """true is not 1, 1 is 1.0, objects ignore key order, values that are not JSON equal nothing."""
    assert json_equal(1, 1.0)
    assert not json_equal(True, 1)
    assert not json_equal(0, False)
    assert json_equal({"a": 1, "b": [2]}, {"b": [2.0], "a": 1})
    assert not json_equal({"a": 1}, {"b": 1})
    assert not json_equal([1], [1, 2])
    assert not json_equal({1, 2}, {1, 2})
    assert not json_equal(None, 0)


def test_the_type_hints_of_validate_resolve() -> None:
    """typing.get_type_hints works on Tool.validate (the public class's module is toolturns)."""
    hints = typing.get_type_hints(Tool.validate)
    assert hints["return"] is type(None)
    assert set(hints) == {"arguments", "return"}
