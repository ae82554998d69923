"""OpenAI Chat Completions' rules: what the API refuses that the message model allows.

The OpenAI codec writes toolturns' own wire, which OpenAI-compatible servers
(vLLM, OpenRouter, Ollama's /v1, ...) share; they differ on these limits, so
the codec sends what it is given, and ``check_transcript(target="openai")``
reports what OpenAI itself would refuse.
"""

from __future__ import annotations

import re

from ..._content import ContentPart
from ..._message import ChatMessage, Role
from ..._tool_call import ToolCall
from .._rule import Carries, Findings, Rule

__all__ = [
    "CALL_ID_MAX",
    "CARRIES",
    "ID_TOO_LONG",
    "INVALID_NAME",
    "INVALID_TOOL_NAME",
    "MAX_TOOLS",
    "NAME",
    "TOOL_NAME",
    "TOO_MANY_TOOLS",
    "check",
    "check_call",
    "check_exchange",
    "check_part",
]

_LINK = "https://platform.openai.com/docs/api-reference/chat/create"

#: Tool names, in definitions and calls: "Must be a-z, A-Z, 0-9, or contain
#: underscores and dashes, with a maximum length of 64" (ChatCompletionTool
#: function.name).
TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
INVALID_TOOL_NAME = Rule("invalid_tool_name", "string does not match pattern", _LINK)

#: OpenAI's messages carry every key of the wire toolturns reads them from
#: (to_wire writes ChatMessage.extra back). A tool definition's function has
#: name, description, parameters and strict, and OpenAI refuses any other key
#: ("Unknown parameter: 'messages[1].tool_calls[0].index'.", seen at
#: https://github.com/songquanpeng/one-api/issues/1319); another provider's
#: kept content (Ollama's images) has no place in a Chat message either.
CARRIES = Carries(
    name=True,
    extra=True,
    strict=True,
    images=False,
    unsupported=Rule("unsupported", "Unknown parameter: '...'.", _LINK),
)


#: The longest call id OpenAI takes; ids made by other providers or frameworks often are longer.
CALL_ID_MAX = 40
ID_TOO_LONG = Rule(
    "id_too_long",
    "Invalid 'messages[2].tool_calls[0].id': string too long. Expected a string with maximum length 40",
    _LINK,
)

#: A message's participant name.
NAME = re.compile(r"[a-zA-Z0-9_-]+")
INVALID_NAME = Rule(
    "invalid_name",
    "Invalid 'messages[1].name': string does not match pattern. "
    "Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
    _LINK,
)

#: The most tool definitions one request may carry.
MAX_TOOLS = 128
TOO_MANY_TOOLS = Rule(
    "too_many_tools", "Invalid 'tools': array too long. Expected an array with maximum length 128", _LINK
)


def check(findings: Findings) -> None:
    """Participant names and the number of tools."""
    for index, turn in findings.readable:
        if turn.name is not None and not NAME.fullmatch(turn.name):
            findings.add(
                index,
                f"messages[{index}].name",
                INVALID_NAME,
                f"name {turn.name!r} does not match ^{NAME.pattern}$, which OpenAI requires",
            )
    if findings.tool_count > MAX_TOOLS:
        findings.add(
            None,
            "tools",
            TOO_MANY_TOOLS,
            f"has {findings.tool_count} tools; OpenAI takes at most {MAX_TOOLS}",
        )


def check_call(findings: Findings, index: int, position: int, call: ToolCall) -> None:
    """A call id of at most 40 characters."""
    if len(call.id) > CALL_ID_MAX:
        findings.add(
            index,
            f"messages[{index}].tool_calls[{position}].id",
            ID_TOO_LONG,
            f"call id has {len(call.id)} characters; OpenAI refuses ids over {CALL_ID_MAX}",
        )


def check_exchange(findings: Findings, index: int, turn: ChatMessage, results: int) -> None:
    """Nothing: the tool exchanges are checked for every target."""


def check_part(role: Role, part: ContentPart) -> tuple[Rule, str] | None:
    """Every part in every role, for now (the content-parts work gives each role its parts)."""
    return None
