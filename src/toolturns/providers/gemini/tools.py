"""Gemini's function declarations: ``{name, description?, parameters? | parametersJsonSchema?}``."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..._errors import (
    InvalidTool,
    MessageError,
    describe,
)
from ..._json import decode, join_key
from ..._tool import NO_PARAMETERS, Tool
from .._shared import (
    at,
    check_tool,
    native_name,
)
from . import rules
from .parts import camel, fields, key_path, plain, twice

_PROVIDER = "gemini"


# The keys of a function declaration a Tool carries (behavior, response and
# the like steer Gemini only: reading them would drop them silently).
_DECLARATION_KEYS = frozenset({"name", "description", "parameters", "parametersJsonSchema"})


# Compared by value: a caller's schema may spell "no parameters" in another key order.
_NO_PARAMETERS = decode(NO_PARAMETERS)


def tool_definition(tool: Tool) -> dict[str, Any]:
    """Gemini's function declaration for a tool: ``{"name", "description"?, "parameters"? | "parametersJsonSchema"?}``.

    The schema goes as ``parameters`` when Gemini's ``Schema`` (an OpenAPI 3.0
    subset) says all of it, else unchanged as ``parametersJsonSchema``
    (``rules.SCHEMA_FIELDS``). A tool without parameters sends neither, as
    the REST samples' no-argument functions do.

    >>> tool_definition(Tool("get_time", "The current time"))
    {'name': 'get_time', 'description': 'The current time'}
    >>> tool_definition(Tool("get_day", parameters={"type": "object", "properties": {"n": {"type": "integer"}}}))
    {'name': 'get_day', 'parameters': {'type': 'object', 'properties': {'n': {'type': 'integer'}}}}
    >>> tool_definition(Tool("get_day", parameters={"type": "object", "additionalProperties": False}))
    {'name': 'get_day', 'parametersJsonSchema': {'type': 'object', 'additionalProperties': False}}
    """
    check_tool(tool, _PROVIDER)
    declaration: dict[str, Any] = {"name": tool.name}
    if tool.description:
        declaration["description"] = tool.description
    parameters = tool.parameters
    if parameters != _NO_PARAMETERS:
        declaration["parameters" if is_gemini_schema(parameters) else "parametersJsonSchema"] = parameters
    return declaration


# What each kind of rules.SCHEMA_FIELDS holds, but subschemas. The schema is
# a Tool's: decoded JSON, of the built-in types exactly.
_HOLDS: dict[str, Callable[[object], bool]] = {
    "type": lambda value: isinstance(value, str) and value in rules.SCHEMA_TYPES,
    "string": lambda value: isinstance(value, str),
    "strings": lambda value: isinstance(value, list) and all(isinstance(item, str) for item in value),
    "integer": lambda value: type(value) is int,
    "number": lambda value: type(value) is int or type(value) is float,
    "boolean": lambda value: type(value) is bool,
    "value": lambda value: value is not None,
}


def is_gemini_schema(schema: object) -> bool:
    """Whether Gemini's ``Schema`` says all of a JSON Schema: only its fields, each holding what it holds.

    >>> is_gemini_schema({"type": "object", "properties": {"a": {"anyOf": [{"type": "string"}]}}})
    True
    >>> is_gemini_schema({"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}]}}})
    False
    """
    pending = [schema]  # a list, not recursion: a schema may nest as deep as JSON does
    while pending:
        node = pending.pop()
        if not isinstance(node, dict):
            return False  # a boolean schema (true, false) is JSON Schema's alone
        if rules.schema_refuses(node):
            return False  # an array without items, an object without properties...
        for key, value in node.items():
            kind = rules.SCHEMA_FIELDS.get(key)
            if kind == "schema":
                pending.append(value)
            elif kind == "schemas":
                if not isinstance(value, list):
                    return False
                pending.extend(value)
            elif kind == "named schemas":
                if not isinstance(value, dict):
                    return False
                pending.extend(value.values())
            elif kind is None or not _HOLDS[kind](value):
                return False
    return True


def read_tools(tools: object) -> list[Tool]:
    """The function declarations of a stored request body's ``tools``: the reverse of ``tool_definition``.

    Field names are read in camelCase or snake_case (google-genai's dumped
    ``types.Tool``), and a single Tool object where an array is expected, as
    ``from_request`` reads them. A declaration gives its schema in
    ``parameters``, Gemini's ``Schema``, read as the JSON Schema it means
    (``json_schema``), or in ``parametersJsonSchema``, read as it is. Tools that
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
    schema = declaration.get(schema_key)
    if schema_key == "parameters":
        with at("parameters"):
            schema = json_schema(schema)
    with native_name("parameters", schema_key):
        return Tool(declaration.get("name"), description, schema)  # type: ignore[arg-type]


# Gemini's type names in any case (its Type enum spells them in capitals), by JSON Schema's name.
_TYPE_NAMES = rules.SCHEMA_TYPES | {"null"}


def json_schema(schema: object) -> object:
    """A Gemini ``Schema`` (a declaration's ``parameters``) as the JSON Schema it means.

    Field names in camelCase (``max_items`` is ``maxItems``), unset (null)
    fields left out, type names in JSON Schema's lower case (``OBJECT`` is
    ``object``), SDK enum members as plain strings, the numbers proto3 JSON
    may write as strings (``"maxItems": "5"``, ``"minimum": "1.5"``) as the
    numbers they spell. The names in
    ``properties`` and the values of ``default``, ``example`` and ``enum``
    are the caller's and stay as they are. What is not an object is left for
    the Tool to judge.

    >>> json_schema({"type": "OBJECT", "properties": {"city_name": {"type": "STRING", "max_length": 64}}})
    {'type': 'object', 'properties': {'city_name': {'type': 'string', 'maxLength': 64}}}
    """
    try:
        return _schema(schema)
    except RecursionError:  # absurdly deep: the Tool's JSON check says so
        return schema


def _schema(schema: object) -> object:
    if type(schema) is not dict and not isinstance(schema, Mapping):
        return schema
    read: dict[Any, Any] = {}
    for key, value in schema.items():
        if value is None:
            continue
        name = key if type(key) is str and "_" not in key else camel(key)
        if name in read:
            raise twice(InvalidTool, key, name, value)
        kind = _KINDS.get(name)
        if kind in _SUBSCHEMAS:
            try:  # not `with at()`: this runs for every field of every schema
                value = _subschemas(kind, value)
            except MessageError as error:
                raise error.with_prefix(key_path(name)) from None
        elif kind in _NUMBERS and type(value) is str and _DECIMAL.fullmatch(value):
            # Proto3 JSON writes an int64 (maxItems, minLength...) as a decimal string (the REST
            # reference types these "string (int64 format)", and generated clients send "5"),
            # and may a double (minimum, maximum) too: read as the JSON number it spells.
            value = _number(value)
        elif isinstance(value, str):
            value = plain(value)
            if kind == "type" and value.lower() in _TYPE_NAMES:
                value = value.lower()
        read[name] = value
    return read


_KINDS: dict[Any, str] = dict(rules.SCHEMA_FIELDS)  # a dict: .get of a mapping proxy costs more
_NUMBERS = frozenset({"integer", "number"})
#: A JSON number's text, short enough to be a count or a double (a longer one is left to the Tool).
_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]{0,18})(?:\.[0-9]{1,17})?(?:[eE][+-]?[0-9]{1,3})?")
_SUBSCHEMAS = frozenset({"schema", "schemas", "named schemas"})


def _number(text: str) -> object:
    """The number a field's decimal text spells; the text itself past a double's range (``1e999``),
    for the Tool to refuse."""
    try:
        return decode(text)
    except ValueError:
        return text


def _subschemas(kind: str | None, value: object) -> object:
    """A field's subschemas (``items``, ``anyOf``, ``properties``), each read in turn."""
    if kind == "schema":
        return _schema(value)
    if kind == "schemas" and isinstance(value, (list, tuple)):
        schemas = []
        for index, item in enumerate(value):
            with at(f"[{index}]"):
                schemas.append(_schema(item))
        return schemas
    if kind == "named schemas" and isinstance(value, Mapping):
        named = {}
        for key, item in value.items():
            try:
                named[key] = _schema(item)
            except MessageError as error:
                raise error.with_prefix(key_path(key)) from None
        return named
    return value  # not what the field holds: the Tool's JSON check judges it
