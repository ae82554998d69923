"""Ollama's tool definitions: OpenAI's shape, ``{"type": "function", "function": {...}}``."""

from __future__ import annotations

from typing import Any

from ..._tool import Tool
from .._shared import function_tool_definition, read_function_tools

__all__ = ["read_tools", "tool_definition"]


def tool_definition(tool: Tool) -> dict[str, Any]:
    """Ollama's shape for a tool: ``{"type": "function", "function": {...}}``.

    A tool without parameters declares ``{"type": "object", "properties": {}}``:
    Ollama answers 400 to ``[]``.

    >>> from toolturns import Tool
    >>> tool_definition(Tool("get_time"))
    {'type': 'function', 'function': {'name': 'get_time', 'parameters': {'type': 'object', 'properties': {}}}}
    """
    return function_tool_definition(tool, "ollama")


def read_tools(tools: object) -> list[Tool]:
    """The tools of a stored ``/api/chat`` body: the reverse of ``tool_definition``.

    Raises:
        InvalidTool: the path is the native one (``tools[1].function.name``).

    >>> read_tools([{"type": "function", "function": {"name": "get_time"}}])[0].name
    'get_time'
    """
    return read_function_tools(tools, "ollama")
