"""The Responses API's tool definitions: the flat ``{"type": "function", "name", ...}``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..._errors import InvalidTool, at, describe
from ..._sdk import dumped
from ..._tool import Tool
from .. import _shared

__all__ = ["check_tools", "read_tools", "tool_definition"]

_PROVIDER = "responses"


def check_tools(tools: object, *, drop: bool = False) -> Sequence[Tool]:
    """The caller's tools: None, or a list or tuple of Tool with unique names this wire takes
    (``rules.TOOL_NAME``) and nothing it cannot carry (``extra``, unless ``drop``)."""
    return _shared.check_tools(tools, _PROVIDER, drop=drop)


_KEYS = frozenset({"type", "name", "description", "parameters", "strict"})


def tool_definition(tool: Tool) -> dict[str, Any]:
    """The Responses API's shape for a function tool: flat, no nested ``function``.

    >>> tool_definition(Tool("get_time", "The time now.", strict=True))
    {'type': 'function', 'name': 'get_time', 'description': 'The time now.', 'parameters': {'type': 'object', 'properties': {}}, 'strict': True}
    """
    checked = _shared.check_tool(tool, _PROVIDER)
    definition: dict[str, Any] = {"type": "function", "name": checked.name}
    if checked.description:
        definition["description"] = checked.description
    definition["parameters"] = checked.parameters
    if checked.strict is not None:
        definition["strict"] = checked.strict
    return definition


def read_tools(tools: object) -> list[Tool]:
    """The function tools of a stored request body: the reverse of ``tool_definition``.

    A built-in tool (``web_search``, ``file_search``, ...) or any key beyond
    the five is an error, not a silent loss.

    Raises:
        InvalidTool: the path is the native one (``tools[1].title``).

    >>> read_tools([{"type": "function", "name": "get_time", "strict": True}])
    [Tool(name='get_time', description='', parameters={'type': 'object', 'properties': {}}, strict=True)]
    """
    tools = dumped(tools)
    if not isinstance(tools, (list, tuple)):
        raise InvalidTool("tools", "must be an array of tool definitions", describe(tools))
    result = []
    for number, item in enumerate(tools):
        with at(f"tools[{number}]"):
            item = dumped(item)
            tool = Tool.from_dict(item)  # refuses what is not a mapping, and a built-in tool's type
            assert isinstance(item, Mapping)
            for key in item:
                if key not in _KEYS:
                    raise InvalidTool(
                        key,
                        f"is not a key of a tool toolturns carries ({', '.join(sorted(_KEYS))})",
                        describe(item[key]),
                    )
            result.append(tool)
    return result
