"""Ollama /api/chat, writing: ChatMessages as the ``messages`` of a request body."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..._content import ContentPart
from ..._errors import InvalidMessage, InvalidToolCall, MessageError, describe
from ..._message import ASSISTANT, DEVELOPER, SYSTEM, TOOL, USER, ChatMessage
from ..._tool import Tool
from ..._tool_call import ToolCall
from .._native import Replay, replay_of
from .._shared import (
    arguments_for_object_wire,
    check_messages,
    check_tools,
    refuse_unsupported,
)
from . import rules
from .parts import write_content
from .tools import tool_definition

_PROVIDER = "ollama"
# How the provider is named in error messages.
_DISPLAY_NAME = "Ollama"

# Ollama has one system channel: the message role "system" (docs/api.md,
# "Generate a chat completion": role is system, user, assistant or tool).
_WIRE_ROLES = {
    SYSTEM: "system",
    DEVELOPER: "system",
    USER: "user",
    ASSISTANT: "assistant",
    TOOL: "tool",
}

# The native keys this codec models, per level of the wire. Every other key
# read is kept in provider_data["ollama"] and written back only to Ollama; a
# replayed key may never overwrite one of these, which the codec writes itself.
_MESSAGE_KEYS = frozenset({"role", "content", "images", "tool_calls"})
# tool_name and tool_call_id mean something on a tool result only; on another
# message they are unmodelled keys like any other.
_RESULT_KEYS = _MESSAGE_KEYS | {"tool_name", "tool_call_id"}
_CALL_KEYS = frozenset({"id", "type", "function"})
# function.index is the call's position in tool_calls (api/types.go,
# ToolCallFunction.Index): the order of the calls says the same, so it is read
# and dropped.
_FUNCTION_KEYS = frozenset({"index", "name", "arguments"})


# -- writing ------------------------------------------------------------------------------


def to_request(
    messages: Sequence[ChatMessage],
    *,
    tools: Sequence[Tool] | None = None,
    keep_invalid_arguments: bool = False,
    drop_unsupported: bool = False,
) -> dict[str, Any]:
    """The message part of an ``/api/chat`` request body.

    Args:
        messages: The conversation.
        tools: Tools the model may call.
        keep_invalid_arguments: Send arguments that are not a JSON object
            (malformed model text) wrapped as ``{"_toolturns_raw_arguments": text}``
            instead of raising; ``from_request`` restores the text exactly.
        drop_unsupported: Leave out what this wire cannot carry (a message's
            ``name`` or ``extra`` keys, a call's ``extra``, a tool's
            ``strict`` or ``extra``) instead of refusing it;
            ``providers.unsupported`` lists what would go. A content part is
            never dropped.

    Returns:
        ``{"messages": [...]}``, with ``"tools": [...]`` when tools are given;
        merge it with the model name and options.

    Raises:
        InvalidArguments: a call's arguments are not a JSON object
            (``messages[1].tool_calls[0].arguments``).
        InvalidMessage: a tool result answers no call of an earlier assistant
            turn, so its ``tool_name`` cannot be looked up; a content part
            this wire cannot carry where it stands (``rules.check_part``, an
            image after text: ``rules.PART_ORDER``), at ``messages[1].content[0]``.
        InvalidMessage, InvalidToolCall: ``provider_data["ollama"]`` holds
            something ``from_request``/``from_response`` never write.

    >>> from toolturns import ChatMessage, ToolCall
    >>> turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_time")])
    >>> to_request([ChatMessage.developer("Be brief."), turn])["messages"]
    [{'role': 'system', 'content': 'Be brief.'}, {'role': 'assistant', 'content': '', 'tool_calls': [{'id': 'call_1', 'function': {'name': 'get_time', 'arguments': {}}}]}]
    >>> to_request([ChatMessage.tool_result("call_9", "done")])
    Traceback (most recent call last):
    ...
    toolturns.InvalidMessage: messages[0].tool_call_id: must be the id of a call of an earlier assistant turn (Ollama's tool_name is looked up from it), got 'call_9'
    """
    calls_by_id: dict[str, ToolCall] = {}
    wire = []
    checked = check_messages(messages)
    refuse_unsupported(checked, rules.CARRIES, _PROVIDER, drop=drop_unsupported)
    index = 0
    try:  # one handler for the loop: a context per item costs more than most items
        for index, message in enumerate(checked):  # noqa: B007 (the handler names it)
            wire.append(_message_to_wire(message, calls_by_id, keep_invalid_arguments))
            for call in message.tool_calls or ():
                calls_by_id[call.id] = call  # the latest call with an id is the one a result answers
    except MessageError as error:
        raise error.with_prefix(f"messages[{index}]") from None
    body: dict[str, Any] = {"messages": wire}
    checked_tools = check_tools(tools, _PROVIDER, drop=drop_unsupported)
    if checked_tools:
        body["tools"] = [tool_definition(tool) for tool in checked_tools]
    return body


def _message_to_wire(
    message: ChatMessage, calls_by_id: Mapping[str, ToolCall], keep_invalid: bool
) -> dict[str, Any]:
    # Ollama's Message has no name, is_error or OpenAI extra keys: they are
    # not sent (documented losses).
    content = message.content
    wire: dict[str, Any] = {"role": _WIRE_ROLES[message.role], "content": content}
    if type(content) is tuple:  # parts: text and images (a str is sent as it is)
        wire.update(_parts_to_wire(content))
    reserved = _MESSAGE_KEYS
    if message.role is TOOL:
        wire.update(_result_fields(message, calls_by_id))
        reserved = _RESULT_KEYS
    elif message.tool_calls:
        # A tool-call turn always sends a string content, "" without text.
        calls = []
        index = 0
        try:  # one handler for the loop: a context per item costs more than most items
            for index, call in enumerate(message.tool_calls):  # noqa: B007 (the handler names it)
                calls.append(_call_to_wire(call, keep_invalid))
        except MessageError as error:
            raise error.with_prefix(f"tool_calls[{index}]") from None
        wire["tool_calls"] = calls
    wire.update(replay_of(message.provider_data, _PROVIDER, InvalidMessage, keys=reserved).keys)
    return wire


def _parts_to_wire(parts: tuple[ContentPart, ...]) -> dict[str, Any]:
    # Reading keeps no Ollama data on a part: an entry there is a mistake.
    position = 0
    try:  # one handler for the loop: a context per item costs more than most items
        for position, part in enumerate(parts):  # noqa: B007 (the handler names it)
            replay_of(part.provider_data, _PROVIDER, InvalidMessage)
    except MessageError as error:
        raise error.with_prefix(f"content[{position}]") from None
    return write_content(parts)


def _result_fields(message: ChatMessage, calls_by_id: Mapping[str, ToolCall]) -> dict[str, str]:
    # Ollama identifies a result by tool_name (docs/api.md, "Chat request (With
    # history, with tools)"); tool_call_id is optional and only worth sending
    # for an id Ollama itself gave.
    call_id = message.tool_call_id
    call = calls_by_id.get(call_id) if call_id is not None else None
    if call is None:
        raise InvalidMessage(
            "tool_call_id",
            f"must be the id of a call of an earlier assistant turn "
            f"({_DISPLAY_NAME}'s tool_name is looked up from it)",
            describe(call_id),
        )
    fields = {"tool_name": call.name}
    # The call's provider_data was checked when its turn was written.
    if not _call_replay(call).generated_id:
        fields["tool_call_id"] = call.id
    return fields


def _call_replay(call: ToolCall) -> Replay:
    return replay_of(
        call.provider_data,
        _PROVIDER,
        InvalidToolCall,
        keys=_CALL_KEYS,
        nested={"function": _FUNCTION_KEYS},
        generated_id=True,
    )


def _call_to_wire(call: ToolCall, keep_invalid: bool) -> dict[str, Any]:
    replay = _call_replay(call)
    # function.arguments must be an object: Ollama answers 400 to a string
    # (api/types.go, ToolCallFunctionArguments is a map).
    function: dict[str, Any] = {
        "name": call.name,
        "arguments": arguments_for_object_wire(call, provider=_DISPLAY_NAME, keep_invalid=keep_invalid),
    }
    function.update(replay.nested_keys("function"))
    wire: dict[str, Any] = {}
    if not replay.generated_id:  # an id toolturns made up means nothing to Ollama
        wire["id"] = call.id
    wire["function"] = function
    wire.update(replay.keys)
    return wire
