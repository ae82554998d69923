"""Ollama /api/chat, reading: request bodies and the assistant turn of a response."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..._content import ContentPart
from ..._errors import InvalidMessage, InvalidToolCall, MessageError, describe
from ..._json import value_key
from ..._message import ASSISTANT, TOOL, ChatMessage, Role
from ..._sdk import dumped
from ..._tool_call import ToolCall
from .._native import kept, unmodelled
from .._shared import (
    OpenCalls,
    arguments_text_from_object_wire,
    at,
    generated_id,
)
from . import rules
from .parts import read_content, read_images

_PROVIDER = "ollama"
# How the provider is named in error messages.
_DISPLAY_NAME = "Ollama"


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


# -- reading ------------------------------------------------------------------------------


def from_request(body: object) -> list[ChatMessage]:
    """Read the messages of a stored ``/api/chat`` request body, or a bare list of them.

    Tool results are matched to their call by ``tool_call_id`` when present,
    else by ``tool_name`` to the first call of the preceding assistant turn
    with that name that has no result yet. Calls without an id get
    deterministic ids (never sent back to Ollama). A message's ``images``
    are ``ImagePart``s before its text, each media type read from the
    image's first bytes (``parts``).

    Raises:
        MessageError: the path is the native one (``messages[1].tool_calls[0].function.name``).

    >>> messages = from_request({"model": "llama3.2", "messages": [
    ...     {"role": "assistant", "tool_calls": [{"function": {"name": "get_time", "arguments": {}}}]},
    ...     {"role": "tool", "content": "12:00", "tool_name": "get_time"}]})
    >>> messages[1].tool_call_id == messages[0].tool_calls[0].id
    True
    >>> from_request([{"role": "tool", "content": "12:00", "tool_name": "get_time"}])
    Traceback (most recent call last):
    ...
    toolturns.InvalidMessage: messages[0].tool_name: must name a call of the preceding assistant turn that has no result yet (results without tool_call_id are matched by name, in call order), got 'get_time'
    """
    body = dumped(body)
    if isinstance(body, Mapping):
        if "messages" not in body:
            raise InvalidMessage("messages", "is required")
        messages = body["messages"]
    else:
        messages = body
    if not isinstance(messages, (list, tuple)):
        raise InvalidMessage("messages", "must be an array of messages", describe(messages))
    calls = _CallsRead()
    result = []
    index = 0
    try:  # one handler for the loop: a context per item costs more than most items
        for index, item in enumerate(messages):
            result.append(_read_message(item, ("messages", index), calls))
    except MessageError as error:
        raise error.with_prefix(f"messages[{index}]") from None
    return result


def from_response(body: object) -> ChatMessage:
    """The assistant turn of a non-streaming ``/api/chat`` response.

    Calls without an id get ids seeded with the response's ``created_at``, so
    reading the same response twice gives equal messages.

    Raises:
        MessageError: the path is the native one (``message.tool_calls[0].function``);
            an error body (``{"error": "..."}``) is reported as such.

    >>> turn = from_response({"model": "llama3.2", "created_at": "2025-07-07T20:32:53.844124Z",
    ...     "message": {"role": "assistant", "content": "",
    ...                 "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Tokyo"}}}]},
    ...     "done_reason": "stop", "done": True})
    >>> turn.tool_calls[0].name, turn.tool_calls[0].arguments
    ('get_weather', {'city': 'Tokyo'})
    >>> from_response({"error": "model 'llama9' not found"})
    Traceback (most recent call last):
    ...
    toolturns.InvalidMessage: error: Ollama answered with an error, not a message, got "model 'llama9' not found"
    """
    if not isinstance(body, Mapping) and not isinstance(body := dumped(body), Mapping):
        raise InvalidMessage("", "must be an object (an /api/chat response)", describe(body))
    if "message" not in body:
        if "error" in body:  # Ollama's error body: {"error": "..."} (api/types.go, StatusError)
            raise InvalidMessage(
                "error", f"{_DISPLAY_NAME} answered with an error, not a message", describe(body["error"])
            )
        raise InvalidMessage("message", "is required")
    created_at = body.get("created_at")
    # created_at tells two responses apart; a call's position, name and
    # arguments tell two calls of one response apart.
    seed = ("message", created_at if isinstance(created_at, str) else None)
    item = body["message"]
    with at("message"):
        role = item.get("role", ASSISTANT.value) if isinstance(item, Mapping) else None
        if role != ASSISTANT.value and role is not None:
            raise InvalidMessage(
                "role", "must be 'assistant' (a response holds the model's turn)", describe(role)
            )
        return _read_message(item, seed, _CallsRead())


class _CallsRead:
    """The calls read so far in one body: what tool results are matched against."""

    def __init__(self) -> None:
        self._by_id: dict[str, ToolCall] = {}
        self._turn = OpenCalls()  # the calls of the latest assistant turn

    def add_turn(self, calls: Sequence[ToolCall]) -> None:
        """Start a new assistant turn (without calls, a turn no result answers)."""
        self._turn.open(calls)
        for call in calls:
            self._by_id[call.id] = call

    def answer(self, call_id: object, tool_name: object) -> str:
        """The id of the call a tool result answers, marking that call answered."""
        # "" is Go's zero value: Ollama leaves the key out then (omitempty).
        wanted_id = _optional_text(call_id, "tool_call_id")
        wanted_name = _optional_text(tool_name, "tool_name")
        if wanted_id:
            return self._by_call_id(wanted_id, wanted_name)
        if not wanted_name:
            raise InvalidMessage(
                "tool_name", "is required without a tool_call_id (it says which call this result answers)"
            )
        return self._by_tool_name(wanted_name)

    def _by_call_id(self, call_id: str, tool_name: str) -> str:
        call = self._by_id.get(call_id)
        if call is None:
            raise InvalidMessage(
                "tool_call_id", "must be the id of a call of an earlier assistant turn", describe(call_id)
            )
        if tool_name and tool_name != call.name:
            raise InvalidMessage(
                "tool_name",
                f"must be the name of the call it answers ({call.name!r}, by tool_call_id)",
                describe(tool_name),
            )
        self._turn.answer_id(call_id)
        return call_id

    def _by_tool_name(self, tool_name: str) -> str:
        # How Ollama's own examples identify parallel results: by name, in the
        # order of the calls (docs/capabilities/tool-calling.mdx, "Parallel tool calling").
        found = self._turn.answer_name(tool_name)
        if found is not None:
            return found
        raise InvalidMessage(
            "tool_name",
            "must name a call of the preceding assistant turn that has no result yet "
            "(results without tool_call_id are matched by name, in call order)",
            describe(tool_name),
        )


def _optional_text(value: object, path: str) -> str:
    """A string key that may be absent: ``""`` when it is missing or null."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidMessage(path, "must be a string", describe(value))
    return value


def _read_message(item: object, seed: tuple[object, ...], calls: _CallsRead) -> ChatMessage:
    """One native message; ``seed`` places it, for the ids of its calls."""
    if not isinstance(item, Mapping) and not isinstance(item := dumped(item), Mapping):
        raise InvalidMessage("", "must be an object", describe(item))
    if "role" not in item:
        raise InvalidMessage("role", "is required")
    role = item["role"]
    text = item.get("content")
    if type(text) is not str:
        text = _text(text)
    images = item.get("images")
    # null and [] both mean no images (Go's omitempty leaves the key out).
    content = text if images is None else read_content(text, read_images(images))
    is_result = role == TOOL.value
    tool_calls = _read_calls(item.get("tool_calls"), seed)
    provider_data = kept(_PROVIDER, keys=unmodelled(item, _RESULT_KEYS if is_result else _MESSAGE_KEYS))
    if is_result:
        call_id = calls.answer(item.get("tool_call_id"), item.get("tool_name"))
        message = ChatMessage(
            role, content, tool_calls=tool_calls, tool_call_id=call_id, provider_data=provider_data
        )
    else:
        message = ChatMessage(role, content, tool_calls=tool_calls, provider_data=provider_data)
        if message.role is ASSISTANT:
            calls.add_turn(message.tool_calls or ())
    if type(content) is tuple:
        _check_images(message.role, content)
    return message


def _text(content: object) -> str:
    """A message's content: Ollama's Message.Content is a Go string, so missing or null is ""
    (its zero value, and the Python client leaves the key out then)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        raise InvalidMessage(
            "content",
            "must be a string: Ollama's content is text and its images go in 'images'; a list of parts "
            "is OpenAI's shape (read it with toolturns.openai or ChatMessage.from_dict)",
            describe(content),
        )
    raise InvalidMessage(
        "content",
        "must be a string (Ollama's content is text and its images go in 'images')",
        describe(content),
    )


def _check_images(role: Role, content: tuple[ContentPart, ...]) -> None:
    """Refuse, where it stands, an image the role cannot carry: what is read can be sent again.
    The images come first in the parts, so a part's position is its place in ``images``."""
    for position, part in enumerate(content):
        refused = rules.check_part(role, part)
        if refused is not None:
            rule, why = refused
            raise InvalidMessage(f"images[{position}]", f"{why} ({rule.says})")


def _read_calls(value: object, seed: tuple[object, ...]) -> list[ToolCall] | None:
    # null and [] both mean no calls; toolturns never sends [].
    if value is None:
        return None
    if not isinstance(value, (list, tuple)):
        raise InvalidMessage("tool_calls", "must be an array of tool calls", describe(value))
    calls = []
    index = 0
    try:  # one handler for the loop: a context per item costs more than most items
        for index, item in enumerate(value):
            calls.append(read_call(item, (*seed, index)))
    except MessageError as error:
        raise error.with_prefix(f"tool_calls[{index}]") from None
    return calls or None


def read_call(item: object, seed: tuple[object, ...]) -> ToolCall:
    """One native call: ``{"id"?, "type"?, "function": {"index"?, "name", "arguments"}}``."""
    if not isinstance(item, Mapping) and not isinstance(item := dumped(item), Mapping):
        raise InvalidToolCall("", "must be an object", describe(item))
    kind = item.get("type")
    if kind is not None and kind != "function":
        raise InvalidToolCall(
            "type", "must be 'function' (only function tool calls are supported)", describe(kind)
        )
    function = item.get("function")
    if not isinstance(function, Mapping):
        if function is None:
            raise InvalidToolCall("function", "is required")
        raise InvalidToolCall("function", "must be an object", describe(function))
    name = function.get("name")
    if not isinstance(name, str) or not name:
        raise InvalidToolCall("function.name", "must be a non-empty string", describe(name))
    index = function.get("index")
    if index is not None and type(index) is not int:
        raise InvalidToolCall("function.index", "must be an integer (the call's position)", describe(index))
    call_id = item.get("id")
    if call_id is not None and not isinstance(call_id, str):
        raise InvalidToolCall("id", "must be a string", describe(call_id))
    arguments_json = _arguments_text(function.get("arguments"), call_id or None, name)
    made_up = not call_id  # missing, null or "" (Go's zero value, left out by omitempty)
    if not call_id:
        # Seeded with the arguments' value, not their layout: the same call
        # read from text or from the object toolturns sent gets the same id.
        call_id = generated_id(_PROVIDER, *seed, name, value_key(arguments_json))
    data = kept(
        _PROVIDER,
        keys=unmodelled(item, _CALL_KEYS, error=InvalidToolCall),
        nested={"function": unmodelled(function, _FUNCTION_KEYS, path="function", error=InvalidToolCall)},
        generated_id=made_up,
    )
    return ToolCall(call_id, name, arguments_json, provider_data=data)


def _arguments_text(value: object, call_id: str | None, name: str) -> str:
    """The arguments as a call stores them: an object (or the wrapped raw text
    toolturns sent) becomes JSON text; text some clients send is kept as is."""
    if value is not None and not isinstance(value, (str, Mapping)):
        raise InvalidToolCall("function.arguments", "must be an object (or JSON text)", describe(value))
    return arguments_text_from_object_wire(value, path="function.arguments", call_id=call_id, name=name)
