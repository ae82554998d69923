"""OpenAI's tool definitions: ``{"type": "function", "function": {...}}`` (Ollama's too)."""

from __future__ import annotations

from typing import Any

from ..._tool import Tool
from .._shared import function_tool_definition, read_function_tools

__all__ = ["read_tools", "tool_definition"]


def tool_definition(tool: Tool) -> dict[str, Any]:
    """OpenAI's shape for a tool: ``{"type": "function", "function": {...}}``.

    >>> tool_definition(Tool("get_time", "The time now."))
    {'type': 'function', 'function': {'name': 'get_time', 'description': 'The time now.', 'parameters': {'type': 'object', 'properties': {}}}}
    """
    return function_tool_definition(tool, "openai")


def read_tools(tools: object) -> list[Tool]:
    """The tools of a stored request body or fine-tuning line: the reverse of ``tool_definition``.

    A definition may also be the bare ``{name, description, parameters}``. A
    key a ``Tool`` cannot carry (``strict``) is an error, not a silent loss.

    Raises:
        InvalidTool: the path is the native one (``tools[1].function.strict``).

    >>> read_tools([{"type": "function", "function": {"name": "get_time"}}])
    [Tool(name='get_time', description='', parameters={'type': 'object', 'properties': {}})]
    """
    return read_function_tools(tools)
