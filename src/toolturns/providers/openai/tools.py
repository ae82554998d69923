"""OpenAI's tool definitions: ``{"type": "function", "function": {...}}`` (Ollama's too)."""

from __future__ import annotations

from typing import Any

from ..._tool import Tool
from .._shared import function_tool_definition, read_function_tools

__all__ = ["read_tools", "tool_definition"]


def tool_definition(tool: Tool) -> dict[str, Any]:
    """OpenAI's shape for a tool: ``{"type": "function", "function": {...}}``.

    >>> tool_definition(Tool("get_time", "The time now.", strict=True))
    {'type': 'function', 'function': {'name': 'get_time', 'description': 'The time now.', 'parameters': {'type': 'object', 'properties': {}}, 'strict': True}}
    """
    return function_tool_definition(tool, "openai")


def read_tools(tools: object) -> list[Tool]:
    """The tools of a stored request body or fine-tuning line: the reverse of ``tool_definition``.

    A definition may also be the bare ``{name, description, parameters}``;
    ``strict`` is read. Any other key is an error, not a silent loss.

    Raises:
        InvalidTool: the path is the native one (``tools[1].function.title``).

    >>> read_tools([{"type": "function", "function": {"name": "get_time", "strict": True}}])
    [Tool(name='get_time', description='', parameters={'type': 'object', 'properties': {}}, strict=True)]
    """
    return read_function_tools(tools, "openai")
