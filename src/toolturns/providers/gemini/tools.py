"""Gemini's function declarations: ``{name, description?, parameters?}``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..._errors import (
    InvalidTool,
    describe,
)
from ..._json import decode, join_key
from ..._tool import NO_PARAMETERS, Tool
from .._shared import (
    at,
    check_tool,
    native_name,
)
from .parts import fields

_PROVIDER = "gemini"


# The keys of a function declaration a Tool carries (behavior, response and
# the like steer Gemini only: reading them would drop them silently).
_DECLARATION_KEYS = frozenset({"name", "description", "parameters", "parametersJsonSchema"})


# Compared by value: a caller's schema may spell "no parameters" in another key order.
_NO_PARAMETERS = decode(NO_PARAMETERS)


def tool_definition(tool: Tool) -> dict[str, Any]:
    """Gemini's function declaration for a tool: ``{"name", "description"?, "parameters"?}``.

    A tool without parameters sends no ``parameters``, as the REST samples'
    no-argument functions do.

    >>> tool_definition(Tool("get_time", "The current time"))
    {'name': 'get_time', 'description': 'The current time'}
    """
    check_tool(tool, _PROVIDER)
    declaration: dict[str, Any] = {"name": tool.name}
    if tool.description:
        declaration["description"] = tool.description
    parameters = tool.parameters
    if parameters != _NO_PARAMETERS:
        declaration["parameters"] = parameters
    return declaration


def read_tools(tools: object) -> list[Tool]:
    """The function declarations of a stored request body's ``tools``: the reverse of ``tool_definition``.

    Field names are read in camelCase or snake_case, and a single Tool object
    where an array is expected, as ``from_request`` reads them. A declaration
    gives its schema in ``parameters`` or ``parametersJsonSchema``. Tools that
    are not function declarations (``googleSearch``, ``codeExecution``, ...)
    are Gemini's own and cannot be carried to another provider: they raise.

    Raises:
        InvalidTool: the path is the native one (``tools[0].functionDeclarations[1].name``).
    """
    result = []
    for number, raw in enumerate(_tool_array(tools, "tools", "Tool objects")):
        with at(f"tools[{number}]"):
            entry = fields(raw, "a Tool object", InvalidTool)
            for key, value in entry.items():
                if key != "functionDeclarations":
                    raise InvalidTool(
                        join_key("", key),
                        "is a Gemini tool, not a function declaration: it cannot be carried elsewhere",
                        describe(value),
                    )
            declarations = _tool_array(
                entry.get("functionDeclarations", []), "functionDeclarations", "declarations"
            )
            for position, declaration in enumerate(declarations):
                with at(f"functionDeclarations[{position}]"):
                    result.append(_read_declaration(declaration))
    return result


def _tool_array(value: object, path: str, what: str) -> Sequence[object]:
    if isinstance(value, Mapping):
        return [value]
    if not isinstance(value, (list, tuple)):
        raise InvalidTool(path, f"must be an array of {what}", describe(value))
    return value


def _read_declaration(raw: object) -> Tool:
    declaration = fields(raw, "a function declaration", InvalidTool)
    for key, value in declaration.items():
        if key not in _DECLARATION_KEYS:
            raise InvalidTool(
                join_key("", key),
                "is not a key of a function declaration toolturns carries "
                "(name, description, parameters or parametersJsonSchema)",
                describe(value),
            )
    schema_key = "parametersJsonSchema" if "parametersJsonSchema" in declaration else "parameters"
    if schema_key != "parameters" and "parameters" in declaration:
        raise InvalidTool(schema_key, "must not be given with parameters (Gemini takes one or the other)")
    description = declaration.get("description", "")
    with native_name("parameters", schema_key):
        return Tool(declaration.get("name"), description, declaration.get(schema_key))  # type: ignore[arg-type]
