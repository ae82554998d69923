"""Anthropic's tool definitions: ``{name, description?, input_schema}``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..._errors import InvalidTool, describe
from ..._json import join_key
from ..._sdk import dumped
from ..._tool import Tool
from .._shared import (
    at,
    check_tool,
    native_name,
)

_PROVIDER = "anthropic"


# The keys of a tool definition: what a Tool carries (strict too), its type ("custom") and
# cache_control, which only steers Anthropic's prompt cache.
_TOOL_KEYS = frozenset({"type", "name", "description", "input_schema", "strict", "cache_control"})


# -- tools ------------------------------------------------------------------------------


def tool_definition(tool: Tool) -> dict[str, Any]:
    """Anthropic's shape for a tool: ``{"name", "description"?, "input_schema"}``.

    >>> tool_definition(Tool("get_time"))
    {'name': 'get_time', 'input_schema': {'type': 'object', 'properties': {}}}
    """
    check_tool(tool, _PROVIDER)
    definition: dict[str, Any] = {"name": tool.name}
    if tool.description:
        definition["description"] = tool.description
    definition["input_schema"] = tool.parameters
    if tool.strict is not None:
        definition["strict"] = tool.strict
    return definition


def read_tools(tools: object) -> list[Tool]:
    """The tools of a stored request body: the reverse of ``tool_definition``.

    Only custom tools are read: a server tool (``web_search_20250305``, ...)
    is Anthropic's own and cannot be carried to another provider, so it
    raises. ``cache_control`` steers Anthropic's prompt cache only and is
    not kept.

    Raises:
        InvalidTool: the path is the native one (``tools[2].input_schema``).
    """
    if not isinstance(tools, (list, tuple)):
        raise InvalidTool("tools", "must be an array of tool definitions", describe(tools))
    result = []
    for number, item in enumerate(tools):
        with at(f"tools[{number}]"):
            result.append(_read_tool(item))
    return result


def _read_tool(item: object) -> Tool:
    if not isinstance(item, Mapping) and not isinstance(item := dumped(item), Mapping):
        raise InvalidTool("", "must be an object (a tool definition)", describe(item))
    kind = item.get("type")
    if kind is not None and kind != "custom":
        raise InvalidTool(
            "type",
            "must be 'custom' or absent: a server tool is Anthropic's own and cannot be carried elsewhere",
            describe(kind),
        )
    for key, value in item.items():
        if key not in _TOOL_KEYS and value is not None:
            raise InvalidTool(
                join_key("", key),
                "is not a key of a tool toolturns carries (name, description, input_schema, strict)",
                describe(value),
            )
    if item.get("input_schema") is None:
        raise InvalidTool("input_schema", "is required (Anthropic answers 400 without it)")
    description = item.get("description")
    with native_name("parameters", "input_schema"):
        return Tool(
            item.get("name"),  # type: ignore[arg-type]  # checked by Tool
            "" if description is None else description,
            item["input_schema"],
            strict=item.get("strict"),
        )
