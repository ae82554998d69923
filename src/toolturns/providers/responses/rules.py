"""OpenAI Responses' rules: what the API refuses in ``input`` items that the message model allows.

A request's ``input`` is a list of items: ``message`` items (any role),
``function_call`` items (one per call, answered by a ``function_call_output``
with the same ``call_id``), and items the model does not hold (``reasoning``,
built-in tool calls), which the codec keeps and replays to this wire only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from ..._content import AudioPart, ContentPart, FilePart, ImagePart, TextPart
from ..._message import ChatMessage, Role
from ..._tool_call import ToolCall
from .._rule import Carries, Findings, Rule

__all__ = [
    "CALL_WITHOUT_REASONING",
    "CARRIES",
    "DUPLICATE_ITEM",
    "INVALID_TOOL_NAME",
    "IS_ERROR",
    "NOT_CARRIED",
    "NO_TOOL_CALL",
    "NO_TOOL_OUTPUT",
    "PARTS",
    "REASONING_WITHOUT_FOLLOWING",
    "TOOL_NAME",
    "check",
    "check_call",
    "check_exchange",
    "check_part",
    "is_error_refused",
]

_LINK = "https://platform.openai.com/docs/api-reference/responses/create"
_REASONING = "https://platform.openai.com/docs/guides/reasoning"

#: Function names: "Must be a-z, A-Z, 0-9, or contain underscores and dashes,
#: with a maximum length of 64" (the same rule as Chat Completions').
TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
INVALID_TOOL_NAME = Rule("invalid_tool_name", "string does not match pattern", _LINK)

#: A ``message`` item has ``role``, ``content`` (and, replayed from a
#: response, ``id``, ``status``, ``phase``, which the codec keeps); it has no
#: ``name``, and a ``function_call_output`` no ``is_error``. A function tool
#: is ``{type, name, description, parameters, strict}``; OpenAI refuses any
#: other key.
CARRIES = Carries(
    name=False,
    extra=False,
    strict=True,
    unsupported=Rule("unsupported", "Unknown parameter: '...'.", _LINK),
)

#: The part classes each role may carry: a message of the user, system or
#: developer roles takes ``input_text``, ``input_image`` and ``input_file``
#: (``ResponseInputMessageContentListParam``), as does a function call's
#: output (``ResponseFunctionCallOutputItemListParam``); an assistant message
#: holds ``output_text`` (and ``refusal``) only. No input part holds audio.
PARTS: Mapping[Role, frozenset[type[ContentPart]]] = MappingProxyType(
    {
        Role.SYSTEM: frozenset({TextPart, ImagePart, FilePart}),
        Role.DEVELOPER: frozenset({TextPart, ImagePart, FilePart}),
        Role.USER: frozenset({TextPart, ImagePart, FilePart}),
        Role.ASSISTANT: frozenset({TextPart}),
        Role.TOOL: frozenset({TextPart, ImagePart, FilePart}),
    }
)

#: A part the role's content cannot hold: OpenAI validates ``content[i].type``
#: against the types its role takes.
NOT_CARRIED = Rule(
    "unsupported_part",
    "Invalid value: '...'. Supported values are: 'input_text', 'input_image', 'output_text', "
    "'refusal', 'input_file', 'computer_screenshot', and 'summary_text'.",
    _LINK,
)

#: A ``function_call`` item no ``function_call_output`` answers.
NO_TOOL_OUTPUT = Rule(
    "unanswered_call",
    "No tool output found for function call call_...",
    "https://community.openai.com/t/no-tool-output-found-for-function-call/1142379",
)
#: A ``function_call_output`` whose ``call_id`` no earlier ``function_call`` has.
NO_TOOL_CALL = Rule(
    "orphan_result",
    "No tool call found for function call output with call_id call_...",
    _LINK,
)
#: A kept ``reasoning`` item last in its turn: the item it came with must follow it.
REASONING_WITHOUT_FOLLOWING = Rule(
    "reasoning_without_following",
    "Item 'rs_...' of type 'reasoning' was provided without its required following item.",
    _REASONING,
)
#: A ``function_call`` with its ``fc_...`` id replayed without the reasoning item it came after.
CALL_WITHOUT_REASONING = Rule(
    "call_without_reasoning",
    "Item 'fc_...' was provided without its required 'reasoning' item: 'rs_...'.",
    _REASONING,
)
#: The same item id twice in ``input``.
DUPLICATE_ITEM = Rule("duplicate_item", "Duplicate item found with id fc_...", _LINK)


def check_part(role: Role, part: ContentPart) -> tuple[Rule, str] | None:
    """Why the Responses API cannot carry ``part`` in a ``role`` turn, or None (see ``PARTS``)."""
    if type(part) in PARTS[role]:
        return None
    kind = _KINDS.get(type(part), "a part of this kind")
    return NOT_CARRIED, f"is {kind}; a Responses {role.value} item holds none"


_KINDS = {AudioPart: "an audio part", ImagePart: "an image part", FilePart: "a file part"}


#: A tool result's ``is_error``: a ``function_call_output`` has no key for it (``CARRIES``).
IS_ERROR = "is_error=True (a function_call_output has no such key)"


def is_error_refused(index: int) -> tuple[str, str]:
    """Where and why a tool result's ``is_error=True`` cannot be sent: the codec raises it
    (unless told to drop it), ``check_transcript`` reports it."""
    return (
        f"messages[{index}].is_error",
        f"OpenAI Responses cannot carry {IS_ERROR} ({CARRIES.unsupported.says}); "
        "to_request(..., drop_unsupported=True) leaves it out",
    )


def check(findings: Findings) -> None:
    """What the wire has no place for beyond ``CARRIES``: a tool result's ``is_error``."""
    for index, message in findings.readable:
        if message.is_error:
            path, why = is_error_refused(index)
            findings.add(index, path, CARRIES.unsupported, why)


def check_call(findings: Findings, index: int, position: int, call: ToolCall) -> None:
    """A call's name, as every OpenAI wire checks it."""
    if not TOOL_NAME.fullmatch(call.name):
        findings.add(
            index, f"messages[{index}].tool_calls[{position}].name", INVALID_TOOL_NAME, repr(call.name)
        )


def check_exchange(findings: Findings, index: int, turn: ChatMessage, results: int) -> None:
    """Every call of the turn needs an output (``NO_TOOL_OUTPUT``)."""
    calls = turn.tool_calls or ()
    if results < len(calls):
        findings.add(
            index,
            f"messages[{index}].tool_calls",
            NO_TOOL_OUTPUT,
            f"has {len(calls)} calls and {results} results after it",
        )
