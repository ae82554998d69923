"""OpenAI Chat Completions, writing: ChatMessages as the ``messages`` of a request body."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..._message import ChatMessage
from ..._tool import Tool
from .._shared import check_messages, check_tools, refuse_unsupported
from . import rules
from .tools import tool_definition


def to_request(
    messages: Sequence[ChatMessage],
    *,
    tools: Sequence[Tool] | None = None,
    null_content: bool = False,
    keep_invalid_arguments: bool = False,
    drop_unsupported: bool = False,
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
            ``strict`` or ``extra``, Ollama's kept images) instead of refusing
            it; ``providers.unsupported`` lists what would go.

    Returns:
        ``{"messages": [...]}``, with ``"tools": [...]`` when tools are given;
        merge it with the model name and options.

    >>> from toolturns import ChatMessage, Tool, ToolCall
    >>> turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_time")])
    >>> body = to_request([ChatMessage.user("Time?"), turn], tools=[Tool("get_time")], null_content=True)
    >>> body["messages"][1]["content"], body["tools"][0]["function"]["name"]
    (None, 'get_time')
    """
    checked = check_messages(messages)
    refuse_unsupported(checked, rules.CARRIES, "openai", drop=drop_unsupported)
    body: dict[str, Any] = {"messages": [message.to_wire(null_content=null_content) for message in checked]}
    checked_tools = check_tools(tools, "openai", drop=drop_unsupported)
    if checked_tools:
        body["tools"] = [tool_definition(tool) for tool in checked_tools]
    return body
