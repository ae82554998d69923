"""Properties of Tool.validate and Tool.from_function.

- Arguments made to match a from_function schema pass validate, and bind
  turns them into the annotated Python types.
- Only InvalidArguments escapes validate, for any JSON value under any schema
  built of the supported keywords (and only InvalidTool besides, for a
  schema whose keywords hold the wrong kind of value).
- What Tool refuses of a schema, JSON Schema's meta-schema refuses too.
- validate agrees with the jsonschema package (a test-only reference) on
  that subset of JSON Schema 2020-12.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import inspect
import itertools
from collections.abc import Callable
from typing import Annotated, Any, Literal

import jsonschema  # type: ignore[import-untyped]
from hypothesis import given
from hypothesis import strategies as st

from tests.property import strategies as s
from toolturns import InvalidArguments, InvalidTool, Tool, openai
from toolturns._signature import Signature

# -- from_function ------------------------------------------------------------------


class Unit(enum.Enum):
    C = "c"
    F = "f"


@dataclasses.dataclass(frozen=True)
class Spec:
    """A type hint, JSON values that match it, and a test that a bound value is what the hint says."""

    hint: Any
    values: st.SearchStrategy[Any]
    holds: Callable[[Any], bool]


_INTS = st.integers(-(10**6), 10**6)
_TEXT = s.unicode_text(max_size=6)
_LEAVES = [
    Spec(str, _TEXT, lambda value: type(value) is str),
    Spec(int, _INTS | _INTS.map(float), lambda value: type(value) is int),
    Spec(float, _INTS | st.floats(allow_nan=False, allow_infinity=False), lambda value: type(value) is float),
    Spec(bool, st.booleans(), lambda value: type(value) is bool),
    Spec(Unit, st.sampled_from(["c", "f"]), lambda value: isinstance(value, Unit)),
    Spec(
        Literal["a", 2],
        st.sampled_from(["a", 2, 2.0]),
        lambda value: value in ("a", 2) and type(value) is not float,
    ),
    Spec(Any, s.json_values(deep=False, max_leaves=4), lambda value: True),
]
_names = itertools.count()


def _list(item: Spec) -> Spec:
    return Spec(
        list[item.hint],  # type: ignore[name-defined]
        st.lists(item.values, max_size=3),
        lambda value: type(value) is list and all(map(item.holds, value)),
    )


def _tuple(item: Spec) -> Spec:
    return Spec(
        tuple[item.hint, ...],  # type: ignore[name-defined]
        st.lists(item.values, max_size=3),
        lambda value: type(value) is tuple and all(map(item.holds, value)),
    )


def _pair(first: Spec, second: Spec) -> Spec:
    return Spec(
        tuple[first.hint, second.hint],  # type: ignore[name-defined]
        st.tuples(first.values, second.values).map(list),
        lambda value: type(value) is tuple and first.holds(value[0]) and second.holds(value[1]),
    )


def _map(item: Spec) -> Spec:
    return Spec(
        dict[str, item.hint],  # type: ignore[name-defined]
        st.dictionaries(_TEXT, item.values, max_size=3),
        lambda value: type(value) is dict and all(map(item.holds, value.values())),
    )


def _optional(item: Spec) -> Spec:
    return Spec(
        item.hint | None,
        st.none() | item.values,
        lambda value: value is None or item.holds(value),
    )


def _annotated(item: Spec) -> Spec:
    return Spec(Annotated[item.hint, "described"], item.values, item.holds)


def _dataclass(item: Spec) -> Spec:
    cls = dataclasses.make_dataclass(f"Record{next(_names)}", [("field", item.hint)])
    return Spec(
        cls,
        st.fixed_dictionaries({"field": item.values}),
        lambda value: type(value) is cls and item.holds(getattr(value, "field")),  # noqa: B009
    )


def _specs(children: st.SearchStrategy[Spec]) -> st.SearchStrategy[Spec]:
    one = st.sampled_from([_list, _tuple, _map, _optional, _annotated, _dataclass])
    return st.builds(lambda make, child: make(child), one, children) | st.builds(_pair, children, children)


SPECS = st.recursive(st.sampled_from(_LEAVES), _specs, max_leaves=4)


def _function(specs: list[Spec]) -> Callable[..., object]:
    def fn(**arguments: Any) -> dict[str, Any]:
        return arguments

    names = [f"p{number}" for number in range(len(specs))]
    fn.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=spec.hint)
            for name, spec in zip(names, specs, strict=True)
        ]
    )
    fn.__annotations__ = {name: spec.hint for name, spec in zip(names, specs, strict=True)}
    return fn


@st.composite
def signatures_and_arguments(draw: st.DrawFn) -> tuple[Signature, list[Spec], dict[str, Any]]:
    specs = draw(st.lists(SPECS, max_size=4))
    signature = Signature(_function(specs), name="fn")
    arguments = {}
    for number, spec in enumerate(specs):
        optional = (
            "required" not in signature.tool.parameters
            or f"p{number}" not in signature.tool.parameters["required"]
        )
        if not optional or draw(st.booleans()):
            arguments[f"p{number}"] = draw(spec.values)
    return signature, specs, arguments


@given(signatures_and_arguments())
def test_arguments_that_match_a_function_schema_validate_and_bind(
    case: tuple[Signature, list[Spec], dict[str, Any]],
) -> None:
    """Arguments made to match the schema from_function built pass validate, and bind gives the annotated types."""
    signature, specs, arguments = case
    signature.tool.validate(arguments)
    assert jsonschema.Draft202012Validator(signature.tool.parameters).is_valid(arguments)
    bound = signature.bind(arguments)
    for number, spec in enumerate(specs):
        assert spec.holds(bound[f"p{number}"])


@given(signatures_and_arguments())
def test_a_function_schema_is_a_tool_every_codec_writes(
    case: tuple[Signature, list[Spec], dict[str, Any]],
) -> None:
    """The schema of from_function is accepted by Tool and written as it is by the OpenAI codec."""
    tool = case[0].tool
    assert Tool(tool.name, tool.description, tool.parameters) == tool
    assert openai.tool_definition(tool)["function"]["parameters"] == tool.parameters


# -- validate -------------------------------------------------------------------------

_KEYS = st.sampled_from(["a", "b", "c"])
_NUMBERS = st.integers(-5, 5) | st.floats(-5, 5, allow_nan=False)
_TYPES = st.sampled_from(["string", "integer", "number", "boolean", "object", "array", "null"])
_SMALL_JSON: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | _NUMBERS | st.sampled_from(["", "a", "ab1", "b"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(_KEYS, children, max_size=3),
    max_leaves=8,
)
_DEFS = {
    "count": {"type": "integer", "minimum": 0},
    "tree": {"type": "object", "properties": {"a": {"$ref": "#/$defs/tree"}, "b": {"type": "string"}}},
}
_LEAF_SCHEMAS = st.fixed_dictionaries(
    {},
    optional={
        "type": _TYPES | st.lists(_TYPES, min_size=1, max_size=3, unique=True),
        "enum": st.lists(_SMALL_JSON, max_size=3),
        "const": _SMALL_JSON,
        "minimum": _NUMBERS,
        "maximum": _NUMBERS,
        "exclusiveMinimum": _NUMBERS,
        "exclusiveMaximum": _NUMBERS,
        "minLength": st.integers(0, 3),
        "maxLength": st.integers(0, 3),
        "pattern": st.sampled_from(["^a", "b$", "[0-9]", "^$", "a|b"]),
        "minItems": st.integers(0, 3),
        "maxItems": st.integers(0, 3),
        "format": st.just("date"),  # not checked: ignored by both
    },
) | st.sampled_from([{"$ref": "#/$defs/count"}, {"$ref": "#/$defs/tree"}])


def _compound_schemas(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    schema_lists = st.lists(children, min_size=1, max_size=3)
    return st.booleans() | st.fixed_dictionaries(
        {},
        optional={
            "items": children,
            "prefixItems": schema_lists,
            "properties": st.dictionaries(_KEYS, children, max_size=3),
            "required": st.lists(_KEYS, max_size=2),
            "additionalProperties": children,
            "anyOf": schema_lists,
            "oneOf": schema_lists,
            "allOf": schema_lists,
            "type": _TYPES,
        },
    )


SCHEMAS = st.recursive(_LEAF_SCHEMAS, _compound_schemas, max_leaves=6)


def _tool(schema: Any) -> Tool:
    return Tool("f", parameters={"type": "object", "properties": {"x": schema}, "$defs": _DEFS})


def _refused_at(tool: Tool, arguments: dict[str, Any]) -> str | None:
    """The path validate refuses the arguments at, or None when they pass."""
    try:
        tool.validate(arguments)
    except InvalidArguments as error:
        return error.path
    return None


def _passes(tool: Tool, arguments: dict[str, Any]) -> bool:
    path = _refused_at(tool, arguments)
    assert path is None or path == "x" or path.startswith(("x.", "x["))  # the path is in the arguments
    return path is None


@given(SCHEMAS, _SMALL_JSON)
def test_validate_agrees_with_jsonschema(schema: Any, value: Any) -> None:
    """On the subset it checks, validate accepts exactly what jsonschema's 2020-12 validator accepts."""
    tool = _tool(schema)
    expected = jsonschema.Draft202012Validator(tool.parameters).is_valid({"x": value})
    assert _passes(tool, {"x": value}) == expected


@given(SCHEMAS, s.json_values(deep=True, max_leaves=6))
def test_only_invalid_arguments_escapes_validate(schema: Any, value: Any) -> None:
    """Any JSON value, however deep, under any well-formed schema: it passes, or InvalidArguments says where."""
    _passes(_tool(schema), {"x": value})


_MALFORMED = st.dictionaries(
    st.sampled_from(
        [
            "type",
            "minimum",
            "pattern",
            "items",
            "required",
            "properties",
            "enum",
            "anyOf",
            "$ref",
            "maxItems",
        ]
    ),
    # Any JSON, and strings only validate judges: patterns re cannot read, pointers to nothing.
    s.json_values(deep=False, max_leaves=4) | st.sampled_from(["(", "^\\p{L}+$", "#/nowhere", "#"]),
    max_size=3,
)


@given(
    st.recursive(
        _MALFORMED, lambda children: st.dictionaries(st.sampled_from(["items", "not"]), children, min_size=1)
    )
)
def test_a_schema_the_tool_refuses_is_no_json_schema(schema: dict[str, Any]) -> None:
    """What Tool refuses of a schema, JSON Schema 2020-12's own meta-schema refuses (jsonschema says so).

    The meta-schema without its formats asserted, as JSON Schema means it: a pattern is any
    string there (jsonschema's format check would compile it with Python's re)."""
    parameters = {"type": "object", "properties": {"x": schema}}
    meta_schema = jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA)
    try:
        Tool("f", parameters=parameters)
    except InvalidTool:
        assert not meta_schema.is_valid(parameters)


@given(_MALFORMED, _SMALL_JSON)
def test_a_malformed_schema_raises_only_invalid_tool(schema: dict[str, Any], value: Any) -> None:
    """Keywords holding any JSON at all: validate passes, or raises InvalidArguments or InvalidTool, nothing else."""
    with contextlib.suppress(InvalidArguments, InvalidTool):
        _tool(schema).validate({"x": value})
