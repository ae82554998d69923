"""The Responses API's tool definitions: the flat ``{"type": "function", "name", ...}``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..._errors import InvalidTool, at, describe, join_path
from ..._json import join_key
from ..._sdk import dumped
from ..._tool import Tool
from . import rules

__all__ = ["TITLE", "cannot_carry", "check_tool", "check_tools", "read_tools", "tool_definition"]

#: How messages name the wire.
TITLE = "OpenAI Responses"


def cannot_carry(what: str) -> str:
    """Why ``what`` cannot go to this wire, in its words (``_shared.unsupported_reason``'s text)."""
    return f"{TITLE} cannot carry {what} ({rules.CARRIES.unsupported.says})"


_DROP = "; drop_unsupported=True drops it"


def check_tools(tools: object, *, drop: bool = False) -> Sequence[Tool]:
    """The caller's tools: None, or a list or tuple of Tool with unique names this wire takes.

    The wire is not in the registry yet, so ``_shared.check_tools``, which
    asks the registry for the rules, cannot check for it.
    """
    if tools is None:
        return ()
    if not isinstance(tools, (list, tuple)):
        raise InvalidTool("tools", "must be a list or tuple of Tool", describe(tools))
    seen: set[str] = set()
    checked: list[Tool] = []
    for index, tool in enumerate(tools):
        checked.append(check_tool(tool, path=f"tools[{index}]", drop=drop))
        if tool.name in seen:
            raise InvalidTool(f"tools[{index}].name", "must be unique among the tools", repr(tool.name))
        seen.add(tool.name)
    return checked


def check_tool(tool: object, *, path: str = "", drop: bool = False) -> Tool:
    """``tool`` if this wire can send it (its name matches ``rules.TOOL_NAME``, it has no
    ``extra``), else InvalidTool at ``path``; with ``drop`` its extra is left out."""
    if not isinstance(tool, Tool):
        raise InvalidTool(path, "must be a Tool (read dicts with Tool.from_dict)", describe(tool))
    if not rules.TOOL_NAME.fullmatch(tool.name):
        raise InvalidTool(
            join_path(path, "name"), f"must match ^{rules.TOOL_NAME.pattern}$ for responses", repr(tool.name)
        )
    if tool.extra:
        if not drop:
            key = next(iter(tool.extra))
            raise InvalidTool(join_key(path, key), cannot_carry(f"the tool key {key!r}") + _DROP)
        return Tool(tool.name, tool.description, tool.parameters, strict=tool.strict)
    return tool


_KEYS = frozenset({"type", "name", "description", "parameters", "strict"})


def tool_definition(tool: Tool) -> dict[str, Any]:
    """The Responses API's shape for a function tool: flat, no nested ``function``.

    >>> tool_definition(Tool("get_time", "The time now.", strict=True))
    {'type': 'function', 'name': 'get_time', 'description': 'The time now.', 'parameters': {'type': 'object', 'properties': {}}, 'strict': True}
    """
    checked = check_tool(tool)
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
            assert isinstance(item, dict)
            for key in item:
                if key not in _KEYS:
                    raise InvalidTool(
                        key,
                        f"is not a key of a tool toolturns carries ({', '.join(sorted(_KEYS))})",
                        describe(item[key]),
                    )
            result.append(tool)
    return result
