"""OpenAI Chat Completions, reading: request bodies and the assistant turn of a response."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from ..._errors import InvalidMessage, MessageError, describe
from ..._message import ASSISTANT, ChatMessage
from ..._sdk import dumped
from ..._tool_call import ToolCall
from .._native import kept
from .._shared import at, generated_id

_PROVIDER = "openai"


def from_request(body: object) -> list[ChatMessage]:
    """Read the messages of a stored request body, or a bare list of message dicts.

    Raises:
        MessageError: the path names the message (``messages[3].tool_calls[0].id``).

    >>> [m.role.value for m in from_request({"model": "gpt-4o", "messages": [
    ...     {"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]})]
    ['system', 'user']
    >>> from_request({"messages": [{"role": "user", "content": 5}]})
    Traceback (most recent call last):
    ...
    toolturns.InvalidMessage: messages[0].content: must be a string or a list of content parts, got 5
    """
    body = dumped(body)
    messages = body.get("messages") if isinstance(body, Mapping) else body
    if not isinstance(messages, (list, tuple)):
        raise InvalidMessage("messages", "must be an array of messages", describe(messages))
    result = []
    index = 0
    # Bound once: a classmethod looked up on its class makes a bound method each time, 30-80 ns
    # a message by the machine (CPython 3.11 specialises the lookup of a function, not of a
    # classmethod).
    read = ChatMessage.from_dict
    try:  # one handler for the loop, not a context per message: a request holds hundreds
        for index, item in enumerate(messages):  # noqa: B007 (the handler names the message)
            result.append(read(item))
    except MessageError as error:
        raise error.with_prefix(f"messages[{index}]") from None
    return result


def from_response(body: object, *, choice: int = 0) -> ChatMessage:
    """The assistant turn of a ``chat.completion`` response (or a bare message dict).

    Args:
        body: The decoded response body.
        choice: Which of ``choices`` to read, for requests made with ``n > 1``.

    Raises:
        MessageError: the path names the place (``choices[0].message.role``);
            a turn whose role is not ``assistant`` is refused like any other
            mistake, as the other codecs refuse it.

    >>> turn = from_response({"object": "chat.completion", "choices": [{"index": 0, "finish_reason": "tool_calls",
    ...     "message": {"role": "assistant", "content": None, "refusal": None, "tool_calls": [{"id": "call_1",
    ...         "type": "function", "function": {"name": "get_time", "arguments": "{}"}}]}}]})
    >>> turn.tool_calls[0].name, turn.content
    ('get_time', '')
    """
    body = dumped(body)
    if isinstance(body, Mapping) and "choices" in body:
        choices = body["choices"]
        # A choice that is not an int would make the comparison below raise TypeError.
        if (
            type(choice) is not int
            or not isinstance(choices, (list, tuple))
            or not 0 <= choice < len(choices)
        ):
            raise InvalidMessage(
                "choices", f"must be an array with an item at index {describe(choice)}", describe(choices)
            )
        with at(f"choices[{choice}]"):
            item = choices[choice]
            if not isinstance(item, Mapping) and not isinstance(item := dumped(item), Mapping):
                raise InvalidMessage("", "must be an object", describe(item))
            with at("message"):
                seed = ("response", body.get("id"), choice)
                return _model_turn(read_turn(_answered(item.get("message")), seed))
    return _model_turn(read_turn(_answered(body), ("message",)))


def read_turn(message: object, seed: tuple[object, ...]) -> ChatMessage:
    """A response message, its calls that came without an id given made-up ids.

    OpenAI-compatible servers (Ollama's /v1, some vLLM builds) send calls
    without ``id``. Such a call gets a deterministic id, seeded with ``seed``
    (the response's id and choice) and what the call is and where it stands,
    marked ``provider_data["openai"]["generated_id"]`` as the Gemini and
    Ollama codecs mark theirs. Unlike theirs, it is sent back: on this wire a
    tool result names its call by id.
    """
    message = dumped(message)
    made_up: set[int] = set()
    # type() first: a dict, the common message, without the cost of an ABC's isinstance.
    calls = message.get("tool_calls") if type(message) is dict or isinstance(message, Mapping) else None
    if isinstance(calls, (list, tuple)) and any(map(_lacks_id, calls)):  # map: no generator frame
        filled = []
        for position, call in enumerate(calls):
            if _lacks_id(call):
                function = call.get("function")
                name = function.get("name") if isinstance(function, Mapping) else None
                arguments = function.get("arguments") if isinstance(function, Mapping) else None
                # Only text goes into the id: anything else is refused below, or is an object whose
                # JSON may not even be writable (an int too long for text); the position tells calls apart.
                name, arguments = (value if isinstance(value, str) else None for value in (name, arguments))
                call = {**call, "id": generated_id(_PROVIDER, *seed, position, name, arguments)}
                made_up.add(position)
            filled.append(call)
        assert isinstance(message, Mapping)
        message = {**message, "tool_calls": filled}
    turn = ChatMessage.from_dict(message)
    if not made_up:
        return turn
    marked = tuple(
        ToolCall(
            call.id,
            call.name,
            call.arguments_json,
            extra=call.extra,
            provider_data=kept(_PROVIDER, generated_id=True),
        )
        if position in made_up
        else call
        for position, call in enumerate(turn.tool_calls or ())
    )
    return dataclasses.replace(turn, tool_calls=marked)


def _lacks_id(call: object) -> bool:
    # Missing, null or "": some servers send "" on every call. (type() first: it runs for
    # every call of every response and streamed turn, and isinstance of an ABC costs more.)
    if type(call) is not dict and not isinstance(call, Mapping):
        return False
    call_id = call.get("id")
    return call_id is None or call_id == ""


def _answered(message: object) -> object:
    """A response message as ``from_dict`` reads it: ``content: null`` without calls is no text.

    Real responses send an assistant message with ``content: null`` and no
    tool calls (a model that stopped with nothing to say); it is the model's
    turn and must stay readable. A request message with it is still refused by
    ``from_dict``: there it is a caller's mistake.
    """
    if (
        isinstance(message, Mapping)
        and message.get("role") == ASSISTANT
        and message.get("content") is None
        and not message.get("tool_calls")
        and not message.get("refusal")
    ):
        return {**message, "content": ""}
    return message


def _model_turn(message: ChatMessage) -> ChatMessage:
    # A response holds the model's turn, as the other codecs and the stream
    # assembler require; a user or tool message here is a request read by mistake.
    if message.role is not ASSISTANT:
        raise InvalidMessage(
            "role", "must be 'assistant' (a response holds the model's turn)", describe(message.role.value)
        )
    return message
