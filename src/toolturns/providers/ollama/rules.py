"""Ollama /api/chat's rules: none beyond the tool exchanges and arguments as an object.

Ollama documents no id or name patterns and no limits
(https://github.com/ollama/ollama/blob/main/docs/api.md); a call's arguments
travel as an object, which ``check_transcript`` checks for every such wire.
"""

from __future__ import annotations

import re

from ..._content import ContentPart
from ..._message import ChatMessage, Role
from ..._tool_call import ToolCall
from .._rule import PARTS_NOT_YET, Carries, Findings, Rule

__all__ = ["CARRIES", "INVALID_TOOL_NAME", "TOOL_NAME", "check", "check_call", "check_exchange", "check_part"]

#: Any name a ``Tool`` takes.
TOOL_NAME: re.Pattern[str] | None = None
INVALID_TOOL_NAME = Rule("invalid_tool_name", "", "https://github.com/ollama/ollama/blob/main/docs/api.md")

#: Ollama's server decodes a message into its Go struct (role, content,
#: thinking, images, tool_calls, tool_name, tool_call_id) and a tool into
#: {type, function: {name, description, parameters}}: Go's encoding/json
#: ignores any other key, so it would be lost without an error.
CARRIES = Carries(
    name=False,
    extra=False,
    strict=False,
    images=True,
    unsupported=Rule(
        "unsupported",
        "(no error: Go's encoding/json ignores a key the struct does not have, and the value is lost)",
        "https://github.com/ollama/ollama/blob/main/api/types.go",
    ),
)


def check(findings: Findings) -> None:
    """Nothing: the tool exchanges are checked for every target."""


def check_call(findings: Findings, index: int, position: int, call: ToolCall) -> None:
    """Nothing: arguments are checked for every object wire."""


def check_exchange(findings: Findings, index: int, turn: ChatMessage, results: int) -> None:
    """Nothing: the tool exchanges are checked for every target."""


def check_part(role: Role, part: ContentPart) -> tuple[Rule, str] | None:
    """No part yet: the content-parts work gives this wire its parts (text goes as a string)."""
    return PARTS_NOT_YET, f"this wire does not carry content parts yet, got {type(part).__name__}"
