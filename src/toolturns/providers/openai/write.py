"""OpenAI Chat Completions, writing: ChatMessages as the ``messages`` of a request body."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ..._content import ContentPart, TextPart
from ..._errors import InvalidMessage, MessageError
from ..._message import TOOL, USER, ChatMessage
from ..._tool import Tool
from .._shared import check_messages, check_tools, refuse_unsupported
from . import rules
from .tools import tool_definition

__all__ = ["MOVED_PARTS", "to_request"]

#: The text a tool message keeps when ``tool_parts_to_user=True`` moved all its
#: parts: a tool message needs content, and the model reads where its result went.
MOVED_PARTS = "[The tool's result is attached in the next user message.]"


def to_request(
    messages: Sequence[ChatMessage],
    *,
    tools: Sequence[Tool] | None = None,
    null_content: bool = False,
    keep_invalid_arguments: bool = False,
    drop_unsupported: bool = False,
    tool_parts_to_user: bool = False,
) -> dict[str, Any]:
    """The message part of a Chat Completions request body.

    Args:
        messages: The conversation.
        tools: Tools the model may call.
        null_content: Send ``content: null`` on tool-call turns without text
            (see ``ChatMessage.to_wire``).
        keep_invalid_arguments: Taken as every codec takes it, and changes
            nothing: this wire carries a call's arguments as text, so text
            that is not a JSON object is sent as it is.
        drop_unsupported: Leave out what this wire cannot carry (a message's
            ``name`` or ``extra`` keys, a call's ``extra``, a tool's
            ``strict`` or ``extra``) instead of refusing
            it; ``providers.unsupported`` lists what would go. A content part
            is never left out.
        tool_parts_to_user: A tool message carries text parts only: send the
            images, files and audio of each run of tool results in one user
            message right after the run, in order, each tool message keeping
            its text parts (or ``MOVED_PARTS`` when it has none). The history
            sent is then not the history kept, and the model sees those parts
            as the user's (docs/content.md). Without it such a part is
            refused, naming the message and the part.

    Returns:
        ``{"messages": [...]}``, with ``"tools": [...]`` when tools are given;
        merge it with the model name and options.

    Raises:
        MessageError: the path names the message and the part
            (``messages[2].content[1]``).

    >>> from toolturns import ChatMessage, Tool, ToolCall
    >>> turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_time")])
    >>> body = to_request([ChatMessage.user("Time?"), turn], tools=[Tool("get_time")], null_content=True)
    >>> body["messages"][1]["content"], body["tools"][0]["function"]["name"]
    (None, 'get_time')
    """
    checked = check_messages(messages)
    if tool_parts_to_user:
        _refuse_moved_parts(checked)
        # What is sent of each tool message, where it stands, for the checks every message gets.
        checked_as_sent: Sequence[ChatMessage] = [_results_kept(message) for message in checked]
    else:
        checked_as_sent = checked
    refuse_unsupported(checked_as_sent, rules.CARRIES, "openai", drop=drop_unsupported)
    wire = _wire(checked, null_content)
    body: dict[str, Any] = {"messages": _with_parts_moved(wire) if tool_parts_to_user else wire}
    checked_tools = check_tools(tools, "openai", drop=drop_unsupported)
    if checked_tools:
        body["tools"] = [tool_definition(tool) for tool in checked_tools]
    return body


def _wire(messages: Sequence[ChatMessage], null_content: bool) -> list[dict[str, Any]]:
    try:
        return [message.to_wire(null_content=null_content) for message in messages]
    except MessageError as error:
        # Rare (a part's or a message's malformed provider_data): find which message.
        index = next(index for index, message in enumerate(messages) if _raises(message, null_content))
        raise error.with_prefix(f"messages[{index}]") from None


def _raises(message: ChatMessage, null_content: bool) -> bool:
    try:
        message.to_wire(null_content=null_content)
    except MessageError:
        return True
    return False


# -- tool_parts_to_user -------------------------------------------------------------------


def _moved(message: ChatMessage) -> tuple[ContentPart, ...] | None:
    """A tool result's content, when it holds parts that go to the user message after it."""
    content = message.content
    if (
        message.role is TOOL
        and isinstance(content, tuple)
        and any(not isinstance(part, TextPart) for part in content)
    ):
        return content
    return None


def _results_kept(message: ChatMessage) -> ChatMessage:
    """The message as it is sent: a tool result with parts that move keeps its text parts,
    or ``MOVED_PARTS``; any other message is sent as it is."""
    content = _moved(message)
    if content is None:
        return message
    texts = tuple(part for part in content if isinstance(part, TextPart))
    return dataclasses.replace(message, content=texts or MOVED_PARTS)


def _refuse_moved_parts(messages: Sequence[ChatMessage]) -> None:
    """Each part that moves, as the user message that carries it can carry it: where the
    caller's history has it (``messages[i].content[j]``), in the rules' words."""
    for index, message in enumerate(messages):
        for position, part in enumerate(_moved(message) or ()):
            refused = None if isinstance(part, TextPart) else rules.check_part(USER, part)
            if refused is not None:
                rule, why = refused
                raise InvalidMessage(f"messages[{index}].content[{position}]", f"{why} ({rule.says})")


def _with_parts_moved(wire: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The wire messages with each run of tool results' other parts in a user message after it."""
    sent: list[dict[str, Any]] = []
    moved: list[dict[str, Any]] = []  # the parts of the current run of results
    for message in wire:
        if message["role"] != "tool" and moved:
            sent.append({"role": "user", "content": moved})
            moved = []
        content = message["content"]
        if message["role"] == "tool" and type(content) is list:
            texts = [part for part in content if part["type"] == "text"]
            if len(texts) < len(content):
                moved.extend(part for part in content if part["type"] != "text")
                message["content"] = texts or MOVED_PARTS
        sent.append(message)
    if moved:
        sent.append({"role": "user", "content": moved})
    return sent
