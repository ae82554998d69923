"""OpenAI Chat Completions, writing: ChatMessages as the ``messages`` of a request body."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..._message import ChatMessage
from ..._tool import Tool
from .._shared import check_messages, check_tools
from .tools import tool_definition


def to_request(
    messages: Sequence[ChatMessage],
    *,
    tools: Sequence[Tool] | None = None,
    null_content: bool = False,
    keep_invalid_arguments: bool = False,
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

    Returns:
        ``{"messages": [...]}``, with ``"tools": [...]`` when tools are given;
        merge it with the model name and options.

    >>> from toolturns import ChatMessage, Tool, ToolCall
    >>> turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_time")])
    >>> body = to_request([ChatMessage.user("Time?"), turn], tools=[Tool("get_time")], null_content=True)
    >>> body["messages"][1]["content"], body["tools"][0]["function"]["name"]
    (None, 'get_time')
    """
    body: dict[str, Any] = {
        "messages": [message.to_wire(null_content=null_content) for message in check_messages(messages)]
    }
    checked_tools = check_tools(tools, "openai")
    if checked_tools:
        body["tools"] = [tool_definition(tool) for tool in checked_tools]
    return body
