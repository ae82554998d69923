"""Ollama /api/chat's rules: none beyond the tool exchanges and arguments as an object.

Ollama documents no id or name patterns and no limits
(https://github.com/ollama/ollama/blob/main/docs/api.md); a call's arguments
travel as an object, which ``check_transcript`` checks for every such wire.
"""

from __future__ import annotations

import re

from ..._message import ChatMessage
from ..._tool_call import ToolCall
from .._rule import Findings, Rule

__all__ = ["INVALID_TOOL_NAME", "TOOL_NAME", "check", "check_call", "check_exchange"]

#: Any name a ``Tool`` takes.
TOOL_NAME: re.Pattern[str] | None = None
INVALID_TOOL_NAME = Rule("invalid_tool_name", "", "https://github.com/ollama/ollama/blob/main/docs/api.md")


def check(findings: Findings) -> None:
    """Nothing: the tool exchanges are checked for every target."""


def check_call(findings: Findings, index: int, position: int, call: ToolCall) -> None:
    """Nothing: arguments are checked for every object wire."""


def check_exchange(findings: Findings, index: int, turn: ChatMessage, results: int) -> None:
    """Nothing: the tool exchanges are checked for every target."""
