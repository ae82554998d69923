"""OpenAI Responses' rules: what the API refuses in ``input`` items that the message model allows.

A request's ``input`` is a list of items: ``message`` items (any role),
``function_call`` items (one per call, answered by a ``function_call_output``
with the same ``call_id``), and items the model does not hold (``reasoning``,
built-in tool calls), which the codec keeps and replays to this wire only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ..._content import AudioPart, ContentPart, FilePart, ImagePart, TextPart
from ..._extra import EMPTY
from ..._message import ASSISTANT, DEVELOPER, SYSTEM, TOOL, USER, ChatMessage, Role
from ..._tool import Tool
from ..._tool_call import ToolCall
from .._rule import Carries, Findings, Rule, top_level_keywords
from ..openai.rules import SCHEMA_TOP_LEVEL, TOP_LEVEL_KEYWORDS, items_problems, strict_problems

__all__ = [
    "ARRAY_WITHOUT_ITEMS",
    "CALL_WITHOUT_REASONING",
    "CARRIES",
    "DUPLICATE_ITEM",
    "INVALID_TOOL_NAME",
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
    "check_tool",
    "kept_for_this_wire_only",
    "misplaced_reasoning",
    "repeated_ids",
]

_LINK = "https://platform.openai.com/docs/api-reference/responses/create"
_REASONING = "https://platform.openai.com/docs/guides/reasoning"

#: Function names: "Must be a-z, A-Z, 0-9, or contain underscores and dashes,
#: with a maximum length of 64" (the same rule as Chat Completions').
TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")
INVALID_TOOL_NAME = Rule("invalid_tool_name", "string does not match pattern", _LINK)

#: An array schema without ``items``, anywhere in a function's parameters: the
#: 400 of Chat Completions (``openai.rules.ARRAY_WITHOUT_ITEMS``, whose walk
#: finds them), on this wire too (its ``param`` was ``tools[36].parameters``,
#: this wire's flat shape).
ARRAY_WITHOUT_ITEMS = Rule(
    "array_without_items",
    "Invalid schema for function 'mcp_gbrain_extract_facts': In context=('properties', 'entity_hints'), "
    "array schema missing items.",
    "https://github.com/garrytan/gbrain/issues/1103",
)

#: A ``message`` item has ``role``, ``content`` (and, replayed from a
#: response, ``id``, ``status``, ``phase``, which the codec keeps); it has no
#: ``name``, and a ``function_call_output`` no ``is_error``. A function tool
#: is ``{type, name, description, parameters, strict}``; OpenAI refuses any
#: other key.
#:
#: A result's ``is_error`` is not sent, as on the Chat Completions wire: the
#: output is the whole answer, so its text says what failed (run_calls' error
#: results do). Refusing it stopped every tool loop on this wire at its first
#: failing tool, and the only way past, ``drop_unsupported``, also dropped what
#: the wire rightly refuses (a message's ``name`` and extra keys).
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
        SYSTEM: frozenset({TextPart, ImagePart, FilePart}),
        DEVELOPER: frozenset({TextPart, ImagePart, FilePart}),
        USER: frozenset({TextPart, ImagePart, FilePart}),
        ASSISTANT: frozenset({TextPart}),
        TOOL: frozenset({TextPart, ImagePart, FilePart}),
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


def misplaced_reasoning(
    turn: Sequence[Mapping[str, Any]], kept_at: Mapping[int, int]
) -> tuple[str, str, str] | None:
    """Where (in the message), why and at which item id (its repr) the turn breaks a reasoning rule, or None.

    ``turn`` is the items the codec writes for one assistant turn, ``kept_at``
    the number in ``provider_data.responses.items`` of each kept one (by
    ``id()``). A kept reasoning item needs an item after it in its turn
    (``REASONING_WITHOUT_FOLLOWING``); in a turn that kept reasoning, a
    replayed call (one with its ``fc_...`` id) needs a reasoning item before
    it (``CALL_WITHOUT_REASONING``).
    """
    if not any(item.get("type") == "reasoning" for item in turn):
        return None
    reasoning_seen = False
    calls = 0  # the modelled calls so far: the index of the next in tool_calls
    for place, item in enumerate(turn):
        kind = item.get("type")
        if kind == "reasoning":
            reasoning_seen = True
            if place == len(turn) - 1:
                return (
                    f"provider_data.responses.items[{kept_at.get(id(item), 0)}]",
                    f"is a reasoning item with no item after it in its turn ({REASONING_WITHOUT_FOLLOWING.says})",
                    repr(item.get("id")),
                )
        elif kind == "function_call" and id(item) not in kept_at:
            if "id" in item and not reasoning_seen:
                return (
                    f"tool_calls[{calls}]",
                    f"comes before every reasoning item of its turn ({CALL_WITHOUT_REASONING.says})",
                    repr(item["id"]),
                )
            calls += 1
    return None


def repeated_ids(index: int, turn: Sequence[Mapping[str, Any]], ids: dict[str, int]) -> list[str]:
    """Why each item id of message ``index``'s items that an earlier item has is refused
    (``DUPLICATE_ITEM``); ``ids`` holds each id seen so far and its message, and learns these.
    A turn replayed twice (a history appended to itself) would send its ids again."""
    found: list[str] = []
    for item in turn:
        item_id = item.get("id")
        if not isinstance(item_id, str):
            continue
        first = ids.get(item_id)
        if first is not None:
            where = "twice" if first == index else f"that messages[{first}] sends too"
            found.append(
                f"sends the item id {item_id!r} {where}: each item goes once ({DUPLICATE_ITEM.says})"
            )
        else:
            ids[item_id] = index
    return found


def kept_for_this_wire_only(provider_data: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """What a turn read from this wire kept that no other wire can send, and that is not the
    wire's own opaque state: each kept item but a ``reasoning`` one (a built-in tool call such as
    ``web_search_call``, a message with a ``refusal``, a second message), as (path in the message,
    what). Another wire's codec refuses it (``_shared.messages_unsupported``) rather than drop
    what the model did or said; a reasoning item is left out there, as every wire's kept state is."""
    entry = provider_data.get("responses")
    items = entry.get("items") if isinstance(entry, Mapping) else None
    if not isinstance(items, list):
        return
    for number, pair in enumerate(items):
        item = pair[1] if isinstance(pair, list) and len(pair) == 2 else None
        kind = item.get("type") if isinstance(item, Mapping) else None
        if kind != "reasoning":
            yield (
                f"provider_data.responses.items[{number}]",
                f"the OpenAI Responses item of type {kind!r} (only that wire can replay it)",
            )


def check(findings: Findings) -> None:
    """What the codec refuses beyond ``CARRIES`` and the parts: reasoning items out of
    place, an item id sent twice. The items judged are those the
    codec writes (``write.turn_items``), so what is reported is what ``to_request`` refuses."""
    from ..._errors import MessageError
    from .write import turn_items  # the codec's writer imports these rules: loaded when checking

    ids: dict[str, int] = {}
    for index, message in findings.readable:
        if message.provider_data is EMPTY and not message.tool_calls:
            continue  # no kept item, no item id
        try:
            written, kept_at = turn_items(message)
        except MessageError:
            continue  # malformed kept data: check_transcript reports the codec's refusal
        refused = misplaced_reasoning(written, kept_at)
        if refused is not None:
            path, why, item_id = refused
            rule = REASONING_WITHOUT_FOLLOWING if path.startswith("provider_data") else CALL_WITHOUT_REASONING
            findings.add(index, f"messages[{index}].{path}", rule, f"{why}, got {item_id}")
        for why in repeated_ids(index, written, ids):
            findings.add(index, f"messages[{index}]", DUPLICATE_ITEM, why)


def check_call(findings: Findings, index: int, position: int, call: ToolCall) -> None:
    """Nothing beyond the function name (``TOOL_NAME``), which every call is checked for."""


def check_exchange(findings: Findings, index: int, turn: ChatMessage, results: int) -> None:
    """Nothing: the tool exchanges are checked for every target; ``unanswered_call`` and
    ``orphan_result`` are what ``NO_TOOL_OUTPUT`` and ``NO_TOOL_CALL`` say."""


def check_tool(tool: Tool) -> Sequence[tuple[str, Rule, str]]:
    """As on Chat Completions, OpenAI's one check of a function's schema: the top of the
    parameters (``openai.rules.SCHEMA_TOP_LEVEL``), every array schema with its items, and a
    strict tool's object schemas (``openai.rules.STRICT_REQUIRED``, seen on this wire)."""
    top = top_level_keywords(tool, TOP_LEVEL_KEYWORDS, SCHEMA_TOP_LEVEL, "OpenAI")
    return top + items_problems(tool, ARRAY_WITHOUT_ITEMS) + strict_problems(tool)
