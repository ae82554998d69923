"""The OpenAI Chat Completions codec: toolturns' own wire, as request and response bodies.

>>> from toolturns import ChatMessage, Tool, openai
>>> body = openai.to_request([ChatMessage.user("Weather in Paris?")], tools=[Tool("get_weather")])
>>> body["tools"][0]["function"]["name"]
'get_weather'
>>> openai.from_request(body) == [ChatMessage.user("Weather in Paris?")]
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ._codec import at, check_messages, check_tool, check_tools
from ._errors import InvalidMessage, describe
from ._message import ChatMessage
from ._tool import Tool

__all__ = ["from_request", "from_response", "to_request", "tool_definition"]


def to_request(
    messages: Sequence[ChatMessage], *, tools: Sequence[Tool] | None = None, null_content: bool = False
) -> dict[str, Any]:
    """The message part of a Chat Completions request body.

    Args:
        messages: The conversation.
        tools: Tools the model may call.
        null_content: Send ``content: null`` on tool-call turns without text
            (see ``ChatMessage.to_wire``).

    Returns:
        ``{"messages": [...]}``, with ``"tools": [...]`` when tools are given;
        merge it with the model name and options.
    """
    body: dict[str, Any] = {
        "messages": [message.to_wire(null_content=null_content) for message in check_messages(messages)]
    }
    checked_tools = check_tools(tools)
    if checked_tools:
        body["tools"] = [tool_definition(tool) for tool in checked_tools]
    return body


def from_request(body: object) -> list[ChatMessage]:
    """Read the messages of a stored request body, or a bare list of message dicts.

    Raises:
        MessageError: the path names the message (``messages[3].tool_calls[0].id``).
    """
    messages = body.get("messages") if isinstance(body, Mapping) else body
    if not isinstance(messages, (list, tuple)):
        raise InvalidMessage("messages", "must be an array of messages", describe(messages))
    result = []
    for index, item in enumerate(messages):
        with at(f"messages[{index}]"):
            result.append(ChatMessage.from_dict(item))
    return result


def from_response(body: object, *, choice: int = 0) -> ChatMessage:
    """The assistant turn of a ``chat.completion`` response (or a bare message dict).

    Args:
        body: The decoded response body.
        choice: Which of ``choices`` to read, for requests made with ``n > 1``.
    """
    if isinstance(body, Mapping) and "choices" in body:
        choices = body["choices"]
        # A choice that is not an int would make the comparison below raise TypeError.
        if (
            type(choice) is not int
            or not isinstance(choices, (list, tuple))
            or not 0 <= choice < len(choices)
        ):
            raise InvalidMessage(
                "choices", f"must be an array with an item at index {choice!r}", describe(choices)
            )
        with at(f"choices[{choice}]"):
            item = choices[choice]
            if not isinstance(item, Mapping):
                raise InvalidMessage("", "must be an object", describe(item))
            with at("message"):
                return ChatMessage.from_dict(item.get("message"))
    return ChatMessage.from_dict(body)


def tool_definition(tool: Tool) -> dict[str, Any]:
    """OpenAI's shape for a tool: ``{"type": "function", "function": {...}}``."""
    check_tool(tool)
    function: dict[str, Any] = {"name": tool.name}
    if tool.description:
        function["description"] = tool.description
    function["parameters"] = tool.parameters
    return {"type": "function", "function": function}
