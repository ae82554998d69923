"""Anthropic Messages, writing: ChatMessages as ``system``, ``messages`` and ``tools``.

System and developer turns become the top-level ``system`` text blocks, tool
calls ``tool_use`` blocks, and tool results ``tool_result`` blocks at the
start of the next user turn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..._content import ContentPart, text_of
from ..._errors import InvalidMessage, InvalidToolCall, describe
from ..._json import join_key
from ..._message import SYSTEM_ROLES, TOOL, USER, ChatMessage
from ..._tool import Tool
from ..._tool_call import ToolCall
from .._native import ITEMS, Replay, placed, replay_of
from .._shared import (
    arguments_for_object_wire,
    at,
    check_messages,
    check_tools,
    refuse_unsupported,
)
from . import rules
from .blocks import TEXT_KEYS, TOOL_RESULT_KEYS, TOOL_USE_KEYS, UNASSEMBLED
from .ids import wire_id
from .parts import part_block
from .tools import tool_definition

_PROVIDER = "anthropic"


# The provider's words, from its rules.
_ORPHAN = f"Anthropic answers 400: {rules.ORPHAN_RESULT.says!r}"


# -- writing ----------------------------------------------------------------------------


def to_request(
    messages: Sequence[ChatMessage],
    *,
    tools: Sequence[Tool] | None = None,
    keep_invalid_arguments: bool = False,
    drop_unsupported: bool = False,
) -> dict[str, Any]:
    """The ``system``, ``messages`` and ``tools`` part of a Messages API request body.

    Every system and developer message becomes one text block of the
    top-level ``system`` (one per part for text parts), in order; the others
    become ``messages``. A run of tool results becomes one user turn of
    ``tool_result`` blocks in the order of the calls they answer, followed by
    the blocks of a user message that comes right after them (its string as
    one text block). Content parts become ``text``, ``image`` and ``document``
    blocks, each with the keys reading kept on it (``cache_control``).

    Args:
        messages: The conversation.
        tools: Tools the model may call.
        keep_invalid_arguments: Send arguments that are not a JSON object as
            ``{"_toolturns_raw_arguments": text}`` instead of raising.
        drop_unsupported: Leave out what this wire cannot carry (a message's
            ``name`` or ``extra`` keys, a call's ``extra``, a tool's
            ``strict`` or ``extra``) instead of refusing
            it; ``providers.unsupported`` lists what would go.

    Returns:
        ``{"system": [...]?, "messages": [...], "tools": [...]?}``; merge it with
        the model name, ``max_tokens`` and options.

    Raises:
        InvalidArguments: a call's arguments are not a JSON object (and
            ``keep_invalid_arguments`` is false).
        InvalidMessage: a tool result answers no call of the assistant turn
            just before it, or answers a call twice; a content part Anthropic
            cannot take where it stands (``rules.check_part``: audio, an
            image in a system turn, a media type it refuses), at
            ``messages[i].content[j]``; provider data is malformed.

    >>> from toolturns import ChatMessage, ToolCall
    >>> turn = ChatMessage.assistant_tool_calls([ToolCall("toolu_1", "get_time")], "Let me check.")
    >>> to_request([ChatMessage.user("Time?"), turn, ChatMessage.tool_result("toolu_1", "12:00"),
    ...             ChatMessage.user("And the date?")])["messages"][2]
    {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 'toolu_1', 'content': '12:00'}, {'type': 'text', 'text': 'And the date?'}]}
    """
    checked = check_messages(messages)
    refuse_unsupported(checked, rules.CARRIES, _PROVIDER, drop=drop_unsupported)
    system: list[dict[str, Any]] = []
    # System turns leave the conversation for the top-level system, so a
    # system message between a call and its result does not separate them.
    conversation: list[tuple[int, ChatMessage]] = []
    for index, message in enumerate(checked):
        if message.role in SYSTEM_ROLES:
            with at(f"messages[{index}]"):
                system.extend(_system_blocks(message))
        else:
            conversation.append((index, message))

    wire: list[dict[str, Any]] = []
    position = 0
    while position < len(conversation):
        index, message = conversation[position]
        if message.role is TOOL:
            turn, position = _results_turn(conversation, position)
            wire.append(turn)
            continue
        if message.role is USER:
            if type(message.content) is str and not message.provider_data:
                wire.append({"role": "user", "content": message.content})  # the common case, as it is
            else:
                with at(f"messages[{index}]"):
                    wire.append({"role": "user", "content": _user_content(message)})
        else:
            with at(f"messages[{index}]"):
                wire.append(_assistant_message(message, keep_invalid_arguments))
        position += 1

    body: dict[str, Any] = {}
    if system:
        body["system"] = system
    body["messages"] = wire
    checked_tools = check_tools(tools, _PROVIDER, drop=drop_unsupported)
    if checked_tools:
        body["tools"] = [tool_definition(tool) for tool in checked_tools]
    return body


def _results_turn(conversation: Sequence[tuple[int, ChatMessage]], start: int) -> tuple[dict[str, Any], int]:
    """The user turn for the run of tool results at ``start``, and the position after it.

    A user message right after the run joins the turn: its blocks come after
    the results (a string as one text block). An empty one stays a message
    of its own (content ""), since an empty text block is a 400.
    """
    end = start
    while end < len(conversation) and conversation[end][1].role is TOOL:
        end += 1
    previous = conversation[start - 1] if start else None
    content = _tool_result_blocks(conversation[start:end], previous)
    if end < len(conversation):
        index, after = conversation[end]
        if after.role is USER:
            with at(f"messages[{index}]"):
                blocks = _user_blocks(after)
            if blocks:
                content.extend(blocks)
                end += 1
    return {"role": "user", "content": content}, end


def _system_blocks(message: ChatMessage) -> list[dict[str, Any]]:
    """A system message's blocks of the top-level ``system``: one for its text, or one per part."""
    keys = replay_of(message.provider_data, _PROVIDER, InvalidMessage, keys=TEXT_KEYS).keys
    content = message.content
    if type(content) is tuple:
        if keys:
            raise InvalidMessage(
                "provider_data.anthropic.keys",
                "must be empty on a system message of parts: each part keeps its own block's keys",
                describe(dict(keys)),
            )
        return _part_blocks(content)
    # An empty system message carries no instruction, and Anthropic answers 400 (rules.EMPTY_TEXT)
    # to an empty text block ("text content blocks must be non-empty").
    if not content:
        return []
    return [{"type": "text", "text": content, **keys}]


def _user_content(message: ChatMessage) -> str | list[dict[str, Any]]:
    """A user message's content: its string as it is, unless it keeps blocks; else its blocks."""
    replay = replay_of(message.provider_data, _PROVIDER, InvalidMessage, items=True)
    if type(message.content) is str and not replay.items:
        return message.content
    return _blocks_of(message.content, replay)


def _user_blocks(message: ChatMessage) -> list[dict[str, Any]]:
    """A user message's blocks after tool results: its parts, or its text as one text block."""
    return _blocks_of(
        message.content, replay_of(message.provider_data, _PROVIDER, InvalidMessage, items=True)
    )


def _blocks_of(content: str | tuple[ContentPart, ...], replay: Replay) -> list[dict[str, Any]]:
    """Content as blocks (none for ""), with the blocks reading kept back where they were."""
    if type(content) is tuple:
        blocks = _part_blocks(content)
    else:
        blocks = [{"type": "text", "text": content}] if content else []
    return placed(replay, blocks)


def _part_blocks(parts: tuple[ContentPart, ...]) -> list[dict[str, Any]]:
    blocks = []
    for position, part in enumerate(parts):
        with at(f"content[{position}]"):
            blocks.append(part_block(part))
    return blocks


def _assistant_message(message: ChatMessage, keep_invalid: bool) -> dict[str, Any]:
    replay = replay_of(message.provider_data, _PROVIDER, InvalidMessage, items=True)
    for number, (_, block) in enumerate(replay.items):
        where = f"{join_key(replay.path, ITEMS)}[{number}][1]"
        if not isinstance(block.get("type"), str):
            raise InvalidMessage(
                f"{where}.type",
                "must be a string: a kept item is a content block",
                describe(block.get("type")),
            )
        if UNASSEMBLED in block:
            raise InvalidMessage(
                f"{where}.{UNASSEMBLED}",
                f"is a {block['type']!r} block streamed in deltas toolturns cannot assemble: replay the "
                "response read whole (from_response), or drop the block",
                describe(block[UNASSEMBLED]),
            )
        if block["type"] == "thinking" and not block.get("signature"):
            raise InvalidMessage(
                f"{where}.signature",
                "must be the signature Anthropic gave the thinking block (a stream cut before it leaves none; "
                f"drop the block to send the turn): Anthropic answers 400: {rules.UNSIGNED_THINKING.says!r}",
                describe(block.get("signature")),
            )
    text = message.content
    if type(text) is tuple and all(_PROVIDER not in part.provider_data for part in text):
        # Anthropic's assistant turn holds one text: read back, its text blocks are joined. Parts
        # with no Anthropic keys are written as that text, so the request reads back to itself.
        text = text_of(text)
    if type(text) is tuple:
        # Parts with kept keys (cache_control) are written as they are, one text block each.
        content = _part_blocks(text)
    elif not message.tool_calls and not replay.items:
        return {"role": "assistant", "content": text}
    else:
        content = [{"type": "text", "text": text}] if text else []  # an empty text block is a 400
    for number, call in enumerate(message.tool_calls or ()):
        with at(f"tool_calls[{number}]"):
            content.append(_tool_use_block(call, keep_invalid))
    # Thinking blocks go back where they were, unchanged: Anthropic rejects a
    # tool-use continuation whose thinking blocks were dropped or modified
    # (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking).
    return {"role": "assistant", "content": placed(replay, content)}


def _tool_use_block(call: ToolCall, keep_invalid: bool) -> dict[str, Any]:
    block: dict[str, Any] = {
        "type": "tool_use",
        "id": wire_id(call.id),
        "name": call.name,
        "input": arguments_for_object_wire(call, provider=_PROVIDER, keep_invalid=keep_invalid),
    }
    block.update(replay_of(call.provider_data, _PROVIDER, InvalidToolCall, keys=TOOL_USE_KEYS).keys)
    return block


def _tool_result_blocks(
    run: Sequence[tuple[int, ChatMessage]], previous: tuple[int, ChatMessage] | None
) -> list[dict[str, Any]]:
    """The tool_result blocks of a run of tool results, in the order of the calls they answer."""
    calls = previous[1].tool_calls if previous is not None else None
    order = {call.id: number for number, call in enumerate(calls or ())}
    answered: dict[int, tuple[int, dict[str, Any]]] = {}
    for index, message in run:
        with at(f"messages[{index}]"):
            number = order.get(message.tool_call_id or "")
            if number is None:
                raise InvalidMessage("tool_call_id", _orphan_rule(previous), describe(message.tool_call_id))
            if number in answered:
                raise InvalidMessage(
                    "tool_call_id",
                    f"must answer a call once (messages[{answered[number][0]}] answers it already)",
                    describe(message.tool_call_id),
                )
            answered[number] = (index, _tool_result_block(message))
    return [answered[number][1] for number in sorted(answered)]


def _orphan_rule(previous: tuple[int, ChatMessage] | None) -> str:
    if previous is None or not previous[1].tool_calls:
        return f"must follow an assistant turn with tool calls ({_ORPHAN})"
    return f"must be the id of a call of messages[{previous[0]}], the assistant turn just before ({_ORPHAN})"


def _tool_result_block(message: ChatMessage) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": wire_id(message.tool_call_id or "")}
    replay = replay_of(message.provider_data, _PROVIDER, InvalidMessage, keys=TOOL_RESULT_KEYS, items=True)
    content = message.content
    if type(content) is tuple or replay.items:
        block["content"] = _blocks_of(content, replay)
    elif content:  # an empty text is sent as no content at all
        block["content"] = content
    if message.is_error:
        block["is_error"] = True
    block.update(replay.keys)
    return block
