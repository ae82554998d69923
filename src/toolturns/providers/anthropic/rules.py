"""Anthropic Messages' rules: what the API refuses that the message model allows."""

from __future__ import annotations

import re

from ..._content import ContentPart
from ..._message import SYSTEM_ROLES, ChatMessage, Role
from ..._tool_call import ToolCall
from .._rule import PARTS_NOT_YET, Carries, Findings, Rule, require_conversation

__all__ = [
    "CALL_ID",
    "CARRIES",
    "EMPTY_TEXT",
    "INVALID_CALL_ID",
    "INVALID_TOOL_NAME",
    "NO_CONVERSATION",
    "ORPHAN_RESULT",
    "TOOL_NAME",
    "TRAILING_WHITESPACE",
    "UNSIGNED_THINKING",
    "check",
    "check_call",
    "check_exchange",
    "check_part",
]

_LINK = "https://docs.anthropic.com/en/api/messages"

#: Tool names, in definitions and calls (64 characters until mid 2025).
TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,128}")
INVALID_TOOL_NAME = Rule(
    "invalid_tool_name", "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'", _LINK
)

#: A Messages API message is {role, content}: Anthropic answers 400 "Extra
#: inputs are not permitted" to any other key. Tools take ``strict``.
CARRIES = Carries(
    name=False,
    extra=False,
    strict=True,
    images=False,
    unsupported=Rule(
        "unsupported", "Extra inputs are not permitted", "https://docs.anthropic.com/en/api/messages"
    ),
)


#: tool_use.id, and so tool_result.tool_use_id. The codec escapes other ids
#: reversibly (``ids.wire_id``); anything else that sends them gets the 400.
CALL_ID = re.compile(r"[a-zA-Z0-9_-]+")
INVALID_CALL_ID = Rule(
    "invalid_call_id", "tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'", _LINK
)

#: Text blocks must hold text. The codec sends no block for an empty text
#: (an empty system message, a call turn without text, an empty result).
EMPTY_TEXT = Rule(
    "empty_text",
    "messages: text content blocks must be non-empty; text content blocks must contain non-whitespace text",
    _LINK,
)
#: A prefill (the final assistant text) may not end in whitespace.
TRAILING_WHITESPACE = Rule(
    "trailing_whitespace", "final assistant content cannot end with trailing whitespace", _LINK
)
#: System messages go apart (the top-level ``system``): the rest must not be empty.
NO_CONVERSATION = Rule("no_conversation", "messages: at least one message is required", _LINK)
#: Results go in the user turn right after the call turn.
ORPHAN_RESULT = Rule(
    "orphan_result",
    "Each tool_result block must have a corresponding tool_use block in the previous message",
    "https://docs.anthropic.com/en/docs/build-with-claude/tool-use",
)


#: A thinking block goes back with the signature Anthropic gave it; an empty
#: one (a stream cut before its signature_delta) cannot be replayed. The codec
#: refuses such a kept block, which check_transcript reports as not_convertible.
UNSIGNED_THINKING = Rule(
    "not_convertible",
    "messages.1.content.0: Invalid `signature` in `thinking` block",
    "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking",
)


def check(findings: Findings) -> None:
    """A conversation besides the system messages; no empty or whitespace-only text."""
    require_conversation(findings, NO_CONVERSATION)
    last = findings.conversation[-1][0] if findings.conversation else -1
    for index, turn in findings.readable:
        text, final = turn.text, index == last
        if turn.role is Role.TOOL:
            continue  # an empty result is sent without content, which Anthropic accepts
        if text.strip():
            if final and turn.role is Role.ASSISTANT and not turn.tool_calls and text != text.rstrip():
                findings.add(
                    index,
                    f"messages[{index}].content",
                    TRAILING_WHITESPACE,
                    "the final assistant text ends in whitespace, which Anthropic refuses",
                )
            continue
        if not text and (
            turn.role in SYSTEM_ROLES or turn.tool_calls or (turn.role is Role.ASSISTANT and final)
        ):
            # Sent as no text block: the codec drops an empty system message, a call
            # turn has its calls, and Anthropic allows an empty final assistant turn.
            continue
        findings.add(
            index,
            f"messages[{index}].content",
            EMPTY_TEXT,
            f"{turn.role} text {text!r} is empty or only whitespace, which Anthropic refuses",
        )


def check_call(findings: Findings, index: int, position: int, call: ToolCall) -> None:
    """A call id Anthropic accepts as it is."""
    if not CALL_ID.fullmatch(call.id):
        findings.add(
            index,
            f"messages[{index}].tool_calls[{position}].id",
            INVALID_CALL_ID,
            f"call id {call.id!r} is outside ^{CALL_ID.pattern}$, which Anthropic requires of tool_use ids "
            "(toolturns.anthropic.to_request escapes such ids; other senders get a 400)",
        )


def check_exchange(findings: Findings, index: int, turn: ChatMessage, results: int) -> None:
    """Nothing: the tool exchanges are checked for every target."""


def check_part(role: Role, part: ContentPart) -> tuple[Rule, str] | None:
    """No part yet: the content-parts work gives this wire its parts (text goes as a string)."""
    return PARTS_NOT_YET, f"this wire does not carry content parts yet, got {type(part).__name__}"
