"""Tool.from_function and Signature.bind: a Python function as a tool, and its arguments as it takes them."""

from __future__ import annotations

import dataclasses
import enum
import functools
import typing
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, NewType, NotRequired, Optional, Required, TypedDict

import pytest

from toolturns import (
    ChatMessage,
    InvalidArguments,
    InvalidTool,
    Tool,
    openai,
)
from toolturns._signature import Signature
from toolturns.providers import PROVIDERS


def schema_of(hint: Any) -> dict[str, Any]:
    """The schema from_function gives a parameter ``x`` of type ``hint``."""

    def f(x: Any) -> None:  # its hint is ``hint``, set below: a type expression cannot name a variable
        """F."""

    f.__annotations__["x"] = hint
    properties: dict[str, Any] = Tool.from_function(f).parameters["properties"]
    return properties["x"]  # type: ignore[no-any-return]


class Unit(enum.Enum):
    C = "c"
    F = "f"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


@dataclasses.dataclass
class Stop:
    city: str
    nights: int = 1
    note: str | None = None
    tags: list[str] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Trip:
    stops: list[Stop]
    unit: Unit
    leader: Annotated[str, "Who leads"] | None


@dataclasses.dataclass
class Node:
    name: str
    children: list[Node]
    seen: bool = dataclasses.field(init=False, default=False)  # not an argument: not in the schema


@dataclasses.dataclass
class Positive:
    n: int

    def __post_init__(self) -> None:
        if self.n <= 0:
            raise ValueError("n must be positive")


class Options(TypedDict, total=False):
    verbose: bool
    depth: Required[int]


class Point(TypedDict):
    x: float
    label: NotRequired[str]
    parent: Point | None


UserId = NewType("UserId", str)


@pytest.mark.parametrize(
    ("hint", "schema"),
    [
        (str, {"type": "string"}),
        (int, {"type": "integer"}),
        (float, {"type": "number"}),
        (bool, {"type": "boolean"}),
        (type(None), {"type": "null"}),
        (Any, {}),
        (list[int], {"type": "array", "items": {"type": "integer"}}),
        (list, {"type": "array"}),
        (Sequence[str], {"type": "array", "items": {"type": "string"}}),
        (tuple[int, ...], {"type": "array", "items": {"type": "integer"}}),
        (
            tuple[int, str],
            {
                "type": "array",
                "prefixItems": [{"type": "integer"}, {"type": "string"}],
                "minItems": 2,
                "maxItems": 2,
            },
        ),
        (tuple[()], {"type": "array", "maxItems": 0}),
        (tuple, {"type": "array"}),
        (dict[str, int], {"type": "object", "additionalProperties": {"type": "integer"}}),
        (dict, {"type": "object"}),
        (Mapping[str, Any], {"type": "object", "additionalProperties": {}}),
        (int | None, {"anyOf": [{"type": "integer"}, {"type": "null"}]}),
        (Optional[str], {"anyOf": [{"type": "string"}, {"type": "null"}]}),  # noqa: UP045
        (int | str, {"anyOf": [{"type": "integer"}, {"type": "string"}]}),
        (Literal["c", "f"], {"type": "string", "enum": ["c", "f"]}),
        (Literal[1, 2], {"type": "integer", "enum": [1, 2]}),
        (Literal[True], {"type": "boolean", "enum": [True]}),
        (Literal["a", 1, None], {"enum": ["a", 1, None]}),
        (Unit, {"type": "string", "enum": ["c", "f"]}),
        (Level, {"type": "integer", "enum": [1, 2]}),
        (Annotated[int, "How many days"], {"type": "integer", "description": "How many days"}),
        (Annotated[int, 3, "Days"], {"type": "integer", "description": "Days"}),
        (Annotated[int, 3], {"type": "integer"}),
        (Annotated[int, ["unhashable"], "Days"], {"type": "integer", "description": "Days"}),
        (
            list[Annotated[str, "A city"]],
            {"type": "array", "items": {"type": "string", "description": "A city"}},
        ),
        (UserId, {"type": "string"}),
        (
            Stop,
            {
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "nights": {"type": "integer", "default": 1},
                    "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
                    "tags": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["city"],
                "additionalProperties": False,
            },
        ),
        (
            Options,
            {
                "type": "object",
                "properties": {"verbose": {"type": "boolean"}, "depth": {"type": "integer"}},
                "required": ["depth"],
                "additionalProperties": False,
            },
        ),
    ],
)
def test_each_type_has_its_schema(hint: Any, schema: dict[str, Any]) -> None:
    """Each supported type hint becomes its JSON Schema (bool before int, Enum before int)."""
    assert schema_of(hint) == schema


def test_a_dataclass_in_a_dataclass_is_inline() -> None:
    """Nested classes are written where they are used, so every provider reads them."""
    trip = schema_of(Trip)
    assert trip["properties"]["stops"]["items"]["properties"]["city"] == {"type": "string"}
    assert trip["properties"]["unit"] == {"type": "string", "enum": ["c", "f"]}
    assert trip["properties"]["leader"] == {
        "anyOf": [{"type": "string", "description": "Who leads"}, {"type": "null"}]
    }
    assert trip["required"] == ["stops", "unit"]  # leader is T | None without default


def test_a_class_that_contains_itself_goes_to_defs() -> None:
    """A recursive dataclass or TypedDict is in $defs once and each use is a $ref: no endless schema."""

    def grow(tree: Node, points: list[Point], other: Node) -> None:
        """Grow."""

    schema = Tool.from_function(grow).parameters
    assert schema["properties"]["tree"] == schema["properties"]["other"] == {"$ref": "#/$defs/Node"}
    assert list(schema["$defs"]["Node"]["properties"]) == ["name", "children"]
    assert schema["properties"]["points"] == {"type": "array", "items": {"$ref": "#/$defs/Point"}}
    assert schema["$defs"]["Node"]["properties"]["children"] == {
        "type": "array",
        "items": {"$ref": "#/$defs/Node"},
    }
    assert schema["$defs"]["Point"]["properties"]["parent"] == {
        "anyOf": [{"$ref": "#/$defs/Point"}, {"type": "null"}]
    }
    assert schema["$defs"]["Point"]["required"] == ["x"]


@dataclasses.dataclass
class Node2:
    child: Node2 | None


Node2.__name__ = "Node"  # another class of the same name as Node


def test_two_recursive_classes_of_one_name_get_two_defs() -> None:
    """$defs names are the classes' names, numbered when two classes share one."""

    def both(a: Node, b: Node2) -> None:
        """Both."""

    schema = Tool.from_function(both).parameters
    assert set(schema["$defs"]) == {"Node", "Node2"}
    assert schema["properties"]["b"] == {"$ref": "#/$defs/Node2"}


def get_weather(city: str, unit: Unit = Unit.C, days: int = 1, when: str | None = None) -> str:
    """Get the current weather
    in a city.

    Longer text that is not the description.

    Args:
        city: The city's name,
            as the post writes it.
        unit (Unit): The temperature unit.

    Returns:
        The weather.
    """
    return f"{city} {unit} {days} {when}"


def test_a_function_becomes_a_tool() -> None:
    """The name, the docstring's first paragraph, the parameters from the hints, defaults recorded."""
    tool = Tool.from_function(get_weather)
    assert tool.name == "get_weather"
    assert tool.description == "Get the current weather in a city."
    assert tool.parameters == {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "The city's name, as the post writes it."},
            "unit": {
                "type": "string",
                "enum": ["c", "f"],
                "description": "The temperature unit.",
                "default": "c",
            },
            "days": {"type": "integer", "default": 1},
            "when": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        },
        "required": ["city"],
        "additionalProperties": False,
    }
    renamed = Tool.from_function(get_weather, name="weather", description="Weather.")
    assert (renamed.name, renamed.description) == ("weather", "Weather.")


def test_a_default_that_is_not_json_is_not_shown() -> None:
    """A default JSON cannot say is left out of the schema; the parameter is still not required."""
    marker = object()
    paris = Stop("Paris")

    def f(x: Any = marker, stop: Stop | None = paris, pair: tuple[int, int] = (1, 2)) -> None:
        """F."""

    schema = Tool.from_function(f).parameters
    assert "default" not in schema["properties"]["x"]
    assert "default" not in schema["properties"]["stop"]
    assert schema["properties"]["pair"]["default"] == [1, 2]
    assert "required" not in schema


def google(city: str, days: int) -> None:
    """Weather.

    Args:
        city (str): The city.
        days: How many
            days ahead.

    Raises:
        ValueError: never.
    """


def numpy(city: str, days: int, hours: int) -> None:
    """Weather.

    Parameters
    ----------
    city : str
        The city.
    days, hours : int
        How many days
        ahead.

    Returns
    -------
    str
    """


def numpy_last(city: str, days: int) -> None:
    """Weather.

    Parameters
    ----------
    city : str
        The city.
    days
        How many days ahead.
    """


def sphinx(city: str, days: int) -> None:
    """Weather.
    :param str city: The city.
    :param days: How many
        days ahead.
    :returns: the weather.
    """


@pytest.mark.parametrize("fn", [google, numpy, numpy_last, sphinx])
def test_parameter_descriptions_from_each_docstring_style(fn: Any) -> None:
    """Google, NumPy and Sphinx sections give each parameter its description; they are not the tool's."""
    tool = Tool.from_function(fn)
    assert tool.description == "Weather."
    properties = tool.parameters["properties"]
    assert properties["city"]["description"] == "The city."
    assert properties["days"]["description"] == "How many days ahead."


def test_annotated_descriptions_win_and_missing_docs_are_fine() -> None:
    """Annotated's description is the parameter's own; no docstring at all is an empty description."""

    def f(city: Annotated[str, "From Annotated"]) -> None:
        """F.

        Args:
            city: From the docstring.
            gone: Not a parameter (a partial's bound one, say): left out.
        """

    assert Tool.from_function(f).parameters["properties"]["city"]["description"] == "From Annotated"

    def bare(x: int) -> None:
        pass

    assert Tool.from_function(bare).description == ""


def test_a_section_right_after_the_summary_ends_it() -> None:
    """A summary line followed by a section without a blank line is the whole description."""

    def f(x: int) -> None:
        """Do it.
        Args:
            x: The x.
        """

    def g(x: int) -> None:
        """Args:
        x: The x.
        """

    def h(x: int) -> None:
        """Do it.
        Returns:
            Nothing.
        """

    assert Tool.from_function(f).description == "Do it."
    assert Tool.from_function(f).parameters["properties"]["x"]["description"] == "The x."
    assert Tool.from_function(g).description == ""
    assert Tool.from_function(h).description == "Do it."


class Forecaster:
    def forecast(self, city: str) -> str:
        """Forecast a city."""
        return city

    @classmethod
    def create(cls, name: str) -> str:
        """Create one."""
        return name

    def __call__(self, city: str) -> str:
        """Forecast, called."""
        return city


async def aforecast(city: str) -> str:
    """Forecast, asynchronously."""
    return city


def test_methods_partials_and_async_functions() -> None:
    """self and cls are not parameters; a partial's bound ones are not either; async works the same."""
    method = Tool.from_function(Forecaster().forecast)
    assert (method.name, method.description, list(method.parameters["properties"])) == (
        "forecast",
        "Forecast a city.",
        ["city"],
    )
    assert list(Tool.from_function(Forecaster.create).parameters["properties"]) == ["name"]
    partial = Tool.from_function(functools.partial(get_weather, "Paris"))
    assert partial.name == "get_weather"
    assert partial.description == "Get the current weather in a city."
    assert list(partial.parameters["properties"]) == ["unit", "days", "when"]
    keyword = Tool.from_function(functools.partial(get_weather, days=3))
    assert keyword.parameters["properties"]["days"]["default"] == 3
    asynchronous = Tool.from_function(aforecast)
    assert (asynchronous.name, asynchronous.parameters["required"]) == ("aforecast", ["city"])
    called = Tool.from_function(Forecaster(), name="forecaster")
    assert (called.description, called.parameters["required"]) == ("Forecast, called.", ["city"])


def refusal(fn: Any, **options: Any) -> tuple[str, str, str | None]:
    with pytest.raises(InvalidTool) as caught:
        Tool.from_function(fn, **options)
    return caught.value.path, caught.value.rule, caught.value.got


def test_what_has_no_json_form_is_refused_naming_the_parameter() -> None:
    """*args, **kwargs, positional-only and unannotated parameters, and types JSON cannot say."""

    def star(*days: int) -> None: ...
    def stars(**options: int) -> None: ...
    def positional(x: int, /) -> None: ...
    def bare(x) -> None: ...  # type: ignore[no-untyped-def]

    assert refusal(star) == ("parameters.days", "must not be *args (a tool's arguments are named)", None)
    assert refusal(stars)[:2] == (
        "parameters.options",
        "must not be **kwargs (a tool's arguments are each declared)",
    )
    assert refusal(positional)[:2] == (
        "parameters.x",
        "must not be positional-only (the arguments are passed by name)",
    )
    assert refusal(bare) == (
        "parameters.x",
        "must have a type annotation (its JSON schema comes from it)",
        None,
    )


class Plain:
    pass


class Mixed(enum.Enum):
    A = "a"
    B = 2


@dataclasses.dataclass
class Meeting:
    when: bytes


@pytest.mark.parametrize(
    ("hint", "path", "got"),
    [
        (bytes, "parameters.x", "bytes"),
        (set[int], "parameters.x", "set[int]"),
        (Plain, "parameters.x", "Plain"),
        (typing.Callable[[int], int], "parameters.x", "typing.Callable[[int], int]"),
        (list[bytes], "parameters.x", "bytes"),
        (int | bytes, "parameters.x", "bytes"),
        (dict[int, str], "parameters.x", "dict[int, str]"),
        (Literal[Unit.C], "parameters.x", "typing.Literal[<Unit.C: 'c'>]"),
        (Mixed, "parameters.x", "Mixed"),
        (Meeting, "parameters.x.when", "bytes"),
        (typing.TypeVar("T"), "parameters.x", "T"),
    ],
)
def test_a_type_with_no_json_form_is_refused(hint: Any, path: str, got: str) -> None:
    """The error names the parameter (and field), says the type has no JSON schema form, and names it."""

    def f(x: int) -> None: ...

    f.__annotations__["x"] = hint
    error = refusal(f)
    assert (error[0], error[2]) == (path, got)
    assert error[1].startswith("has no JSON schema form")


def test_callables_that_cannot_be_read_are_refused() -> None:
    """Not a callable, no signature, hints that do not resolve, no name: each an InvalidTool."""
    assert refusal(5)[:2] == ("", "must be a function (callable)")
    assert refusal(type)[1] == "must have a signature inspect can read"

    def unresolved(x: Missing) -> None: ...  # type: ignore[name-defined]  # noqa: F821

    assert refusal(unresolved) == (
        "parameters",
        "must have type hints that resolve",
        "\"name 'Missing' is not defined\"",
    )
    assert refusal(lambda: None)[0] == "name"

    class Nameless:
        def __call__(self) -> None: ...

    instance = Nameless()
    assert refusal(instance)[:2] == ("name", "is required: the callable has no __name__ (pass name=...)")

    @dataclasses.dataclass
    class Broken:
        x: Missing  # type: ignore[name-defined]  # noqa: F821

    def uses(b: Broken) -> None: ...

    uses.__annotations__["b"] = Broken
    assert refusal(uses)[:2] == ("parameters.b", "must have type hints that resolve")


def test_the_type_hints_of_from_function_resolve() -> None:
    """typing.get_type_hints works on Tool.from_function."""
    hints = typing.get_type_hints(Tool.from_function)
    assert hints["return"] is Tool
    assert set(hints) == {"fn", "name", "description", "return"}


def test_every_wire_takes_a_tool_from_a_function() -> None:
    """The schema from_function builds is one each codec writes."""

    def plan(trip: Trip, days: list[int], tree: Node | None = None) -> None:
        """Plan."""

    tool = Tool.from_function(plan)
    assert openai.tool_definition(tool)["function"]["parameters"] == tool.parameters
    for provider in PROVIDERS.values():
        codec = provider.codec
        body = codec.to_request([ChatMessage.user("Plan it")], tools=[tool])
        assert codec.read_tools(body["tools"]) == [tool]


# -- bind ---------------------------------------------------------------------------


def plan(
    trip: Trip,
    level: Level,
    days: list[int],
    pair: tuple[int, Unit],
    spans: tuple[float, ...],
    by_city: dict[str, Stop],
    mode: Literal[1, 2] = 1,
    note: str | None = None,
    tree: Node | None = None,
    shape: int | Stop = 0,
    point: Point | None = None,
) -> None:
    """Plan."""


PLAN = Signature(plan)


def test_bind_converts_what_json_cannot_carry() -> None:
    """Enum members, dataclasses, tuples, ints from 1.0 and floats from 1, nested in lists, dicts and Optional."""
    arguments = {
        "trip": {"stops": [{"city": "Paris", "nights": 2.0}], "unit": "f"},
        "level": 2.0,
        "days": [1.0, 2],
        "pair": [3, "c"],
        "spans": [1, 2.5],
        "by_city": {"Rome": {"city": "Rome"}},
        "mode": 2.0,
        "tree": {"name": "a", "children": [{"name": "b", "children": []}]},
        "shape": {"city": "Oslo"},
        "point": {"x": 1, "parent": {"x": 2, "parent": None}},
    }
    PLAN.tool.validate(arguments)
    bound = PLAN.bind(arguments)
    assert bound == {
        "trip": Trip([Stop("Paris", 2)], Unit.F, None),
        "level": Level.HIGH,
        "days": [1, 2],
        "pair": (3, Unit.C),
        "spans": (1.0, 2.5),
        "by_city": {"Rome": Stop("Rome")},
        "mode": 2,
        "tree": Node("a", [Node("b", [])]),
        "shape": Stop("Oslo"),
        "point": {"x": 1.0, "parent": {"x": 2.0, "parent": None}},
    }
    assert type(bound["days"][0]) is int
    assert type(bound["mode"]) is int
    assert type(bound["spans"][0]) is float
    assert type(bound["point"]["x"]) is float
    assert PLAN.bind({**arguments, "shape": 3.0})["shape"] == 3


def test_bind_makes_tuples_of_items_that_need_nothing() -> None:
    """A tuple of strings is still a tuple: JSON gives a list."""

    def f(names: tuple[str, ...], pair: tuple[str, int], anything: tuple) -> None:  # type: ignore[type-arg]
        """F."""

    bound = Signature(f).bind({"names": ["a", "b"], "pair": ["a", 1.0], "anything": [1, "x"]})
    assert bound == {"names": ("a", "b"), "pair": ("a", 1), "anything": (1, "x")}
    assert type(bound["pair"][1]) is int


def test_bind_passes_none_for_a_left_out_optional() -> None:
    """A T | None parameter without default, left out, is passed as None; one with a default is left to it."""
    assert Signature(get_weather).bind({"city": "Paris"}) == {"city": "Paris"}

    def f(a: int | None, b: int | None = 5) -> None:
        """F."""

    signature = Signature(f)
    assert "required" not in signature.tool.parameters
    assert signature.bind({}) == {"a": None}
    assert signature.bind({"a": 1, "b": None}) == {"a": 1, "b": None}


def binding_refusal(signature: Signature, arguments: Any) -> tuple[str, str, str | None]:
    with pytest.raises(InvalidArguments) as caught:
        signature.bind(arguments)
    return caught.value.path, caught.value.rule, caught.value.got


def test_bind_refuses_what_cannot_be_converted() -> None:
    """A dataclass that refuses its values, a wrong key, a missing one: InvalidArguments with the path."""

    def f(items: list[Positive], count: int) -> None:
        """F."""

    signature = Signature(f)
    assert binding_refusal(signature, {"items": [{"n": 1}, {"n": 0}], "count": 1}) == (
        "items[1]",
        "cannot be made a Positive: n must be positive",
        "dict",
    )
    assert binding_refusal(signature, {"count": 1, "other": 2}) == (
        "other",
        "is not a parameter (parameters: 'items', 'count')",
        "2",
    )
    assert binding_refusal(signature, {"items": []}) == ("count", "is required", None)
    assert binding_refusal(signature, [1]) == ("", "must be an object (the arguments by name)", "list")
    assert (
        binding_refusal(Signature(lambda: None, name="f"), {"a": 1})[1]
        == "is not a parameter (parameters: none)"
    )


@pytest.mark.parametrize(
    ("arguments", "path", "rule"),
    [
        ({"level": True}, "level", "must be one of 1, 2"),
        ({"level": [1]}, "level", "must be one of 1, 2"),
        ({"trip": "Paris"}, "trip", "must be an object"),
        ({"trip": {"stops": [], "unit": "c", "extra": 1}}, "trip", None),
        ({"days": "12"}, "days", "must be an array"),
        ({"pair": [1]}, "pair", "must have 2 items"),
        ({"by_city": [1]}, "by_city", "must be an object"),
        ({"spans": [10**400]}, "spans[0]", "must be a number a float can hold"),
        ({"shape": "x"}, "shape", "must match one of the types of the union"),
        ({"point": [1]}, "point", "must be an object"),
    ],
)
def test_bind_never_raises_anything_but_invalid_arguments(
    arguments: dict[str, Any], path: str, rule: str | None
) -> None:
    """Values that did not pass validate still get InvalidArguments with a path, never a TypeError."""
    error = binding_refusal(PLAN, arguments)
    assert error[0] == path
    if rule is not None:
        assert error[1] == rule


def test_bind_of_a_value_too_deep_is_refused() -> None:
    """A recursive value past the recursion limit is InvalidArguments, not a RecursionError."""
    tree: dict[str, Any] = {"name": "leaf", "children": []}
    for _ in range(5000):
        tree = {"name": "n", "children": [tree]}
    assert binding_refusal(PLAN, {"tree": tree}) == ("", "is nested too deeply to convert", "dict")


class Unconverted(TypedDict):
    a: str | bool


class Holey(TypedDict):
    a: str | None


def test_a_typed_dict_without_conversions_is_passed_as_it_is() -> None:
    """A TypedDict whose values need nothing is passed through; one with a left-out Optional key gets None."""

    def f(p: Unconverted, h: Holey) -> None:
        """F."""

    signature = Signature(f)
    value = {"a": "x"}
    assert signature.bind({"p": value, "h": {}}) == {"p": {"a": "x"}, "h": {"a": None}}
    assert signature.bind({"p": value, "h": {}})["p"] is value
