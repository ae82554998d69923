"""The echo wire's codec: the verbs of ``toolturns.providers.Codec``.

A request body is ``{"turns": [...], "tools": [...]}``: each turn the OpenAI
message dict ``ChatMessage.to_wire()`` gives, with ``"is_error": true`` on a
failed tool result (which that shape leaves out), each tool its OpenAI
definition. A response is ``{"turn": {...}}``. A stream is ``{"text": ...}``
and ``{"call": {...}}`` items, then ``{"done": true}``. Arguments travel as
text, so any argument text can be sent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolturns import (
    ChatMessage,
    InvalidMessage,
    InvalidStream,
    InvalidTool,
    InvalidToolCall,
    MessageError,
    PartialToolCall,
    Role,
    Tool,
    ToolCall,
)
from toolturns._errors import describe
from toolturns.providers._stream import Assembler

from . import rules

__all__ = ["StreamAssembler", "from_request", "from_response", "read_tools", "to_request", "tool_definition"]


def to_request(
    messages: Sequence[ChatMessage],
    *,
    tools: Sequence[Tool] | None = None,
    keep_invalid_arguments: bool = False,  # text carries any arguments: nothing to keep
    drop_unsupported: bool = False,  # the echo wire carries all a ChatMessage holds: nothing to drop
) -> dict[str, Any]:
    """The body for ``messages``; a call id longer than ``rules.MAX_CALL_ID`` is refused."""
    turns = []
    for index, message in enumerate(messages):
        if not isinstance(message, ChatMessage):
            raise InvalidMessage(f"messages[{index}]", "must be a ChatMessage", describe(message))
        for position, call in enumerate(message.tool_calls or ()):
            if len(call.id) > rules.MAX_CALL_ID:
                path = f"messages[{index}].tool_calls[{position}].id"
                raise InvalidToolCall(path, rules.CALL_ID_TOO_LONG.says, repr(call.id))
        wire = message.to_wire()
        if message.is_error:
            wire["is_error"] = True
        turns.append(wire)
    body: dict[str, Any] = {"turns": turns}
    if tools:
        body["tools"] = [tool_definition(tool) for tool in tools]
    return body


def _read(item: object, where: str) -> ChatMessage:
    try:
        return ChatMessage.from_dict(item)
    except MessageError as error:
        raise error.with_prefix(where) from None


def from_request(body: object) -> list[ChatMessage]:
    """The messages of a body, or of a bare list of turns."""
    if isinstance(body, Mapping):
        if "turns" not in body:
            raise InvalidMessage("turns", "is required")
        body = body["turns"]
    if not isinstance(body, (list, tuple)):
        raise InvalidMessage("turns", "must be an array of turns", describe(body))
    return [_read(item, f"turns[{index}]") for index, item in enumerate(body)]


def from_response(body: object) -> ChatMessage:
    """The assistant turn of a response."""
    if not isinstance(body, Mapping):
        raise InvalidMessage("", "must be an object (an echo response)", describe(body))
    if "turn" not in body:
        raise InvalidMessage("turn", "is required")
    turn = _read(body["turn"], "turn")
    if turn.role is not Role.ASSISTANT:
        raise InvalidMessage("turn.role", "must be 'assistant'", repr(turn.role.value))
    return turn


def tool_definition(tool: Tool) -> dict[str, Any]:
    """A tool as OpenAI defines one."""
    function: dict[str, Any] = {"name": tool.name}
    if tool.description:
        function["description"] = tool.description
    function["parameters"] = tool.parameters
    return {"type": "function", "function": function}


def read_tools(tools: object) -> list[Tool]:
    """The tools of a body: the reverse of ``tool_definition``."""
    if not isinstance(tools, (list, tuple)):
        raise InvalidTool("tools", "must be an array of tool definitions", describe(tools))
    read = []
    for index, item in enumerate(tools):
        try:
            read.append(Tool.from_dict(item))
        except MessageError as error:
            raise error.with_prefix(f"tools[{index}]") from None
    return read


class StreamAssembler(Assembler):
    """Assemble a streamed echo response: text fragments and whole calls, then ``{"done": true}``."""

    def __init__(self) -> None:
        super().__init__()
        self._text: list[str] = []
        self._calls: list[ToolCall] = []

    def _feed(self, item: dict[str, Any]) -> None:
        keys = list(item)
        if keys == ["text"]:
            if not isinstance(item["text"], str):
                raise InvalidStream("text", "must be a string", describe(item["text"]))
            self._text.append(item["text"])
        elif keys == ["call"]:
            try:
                self._calls.append(ToolCall.from_dict(item["call"]))
            except MessageError as error:
                raise error.with_prefix("call") from None
        elif keys == ["done"]:
            if item["done"] is not True:
                raise InvalidStream("done", "must be true", describe(item["done"]))
            self._end_with("tool_calls" if self._calls else "stop", "done")
        else:
            raise InvalidStream("", 'must be {"text": ...}, {"call": ...} or {"done": true}', describe(item))

    def _build(self) -> ChatMessage:
        return ChatMessage(Role.ASSISTANT, self._content(), tool_calls=self._calls or None)

    def _content(self) -> str:
        return "".join(self._text)

    def _partial_calls(self) -> list[PartialToolCall]:
        return [PartialToolCall(call.id, call.name, call.arguments_json) for call in self._calls]
