"""The echo wire's rules: one, so that ``check_transcript(target="echo")`` has something to report."""

from __future__ import annotations

import re
from collections.abc import Mapping

from toolturns import AudioPart, ChatMessage, ContentPart, FilePart, ImagePart, Role, TextPart, ToolCall
from toolturns.providers._rule import Carries, Findings, Rule

__all__ = [
    "CALL_ID_TOO_LONG",
    "CARRIES",
    "INVALID_TOOL_NAME",
    "MAX_CALL_ID",
    "PARTS",
    "TOOL_NAME",
    "check",
    "check_call",
    "check_exchange",
    "check_part",
]

_LINK = "tests/providers/fake/rules.py"

#: Any name a ``Tool`` takes.
TOOL_NAME: re.Pattern[str] | None = None
INVALID_TOOL_NAME = Rule("invalid_tool_name", "", _LINK)

#: The echo wire writes each message's OpenAI wire dict: it carries all of it.
CARRIES = Carries(name=True, extra=True, strict=True, unsupported=Rule("unsupported", "", _LINK))

#: Every part in every role: the echo wire writes each message's OpenAI wire dict.
PARTS: Mapping[Role, frozenset[type[ContentPart]]] = {
    role: frozenset({TextPart, ImagePart, FilePart, AudioPart}) for role in Role
}

#: The longest call id the echo wire takes, in characters.
MAX_CALL_ID = 8
CALL_ID_TOO_LONG = Rule("call_id_too_long", f"must be at most {MAX_CALL_ID} characters", _LINK)


def check(findings: Findings) -> None:
    """Nothing: the tool exchanges are checked for every target."""


def check_call(findings: Findings, index: int, position: int, call: ToolCall) -> None:
    """A call id longer than ``MAX_CALL_ID`` characters."""
    if len(call.id) > MAX_CALL_ID:
        findings.add(
            index,
            f"messages[{index}].tool_calls[{position}].id",
            CALL_ID_TOO_LONG,
            f"call id {call.id!r} has {len(call.id)} characters; echo call ids {CALL_ID_TOO_LONG.says}",
        )


def check_exchange(findings: Findings, index: int, turn: ChatMessage, results: int) -> None:
    """Nothing: the tool exchanges are checked for every target."""


def check_part(role: Role, part: ContentPart) -> tuple[Rule, str] | None:
    """Every part: the echo wire writes each message's OpenAI wire dict."""
    return None
