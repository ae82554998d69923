"""The Ollama ``/api/chat`` codec: request and response bodies of Ollama's native chat API.

Ollama carries a call's arguments as a JSON *object*, names the tool on each
tool result (``tool_name``), and often sends calls without ids. Calls read
without an id get deterministic ids that are never sent back to Ollama; tool
results without ``tool_call_id`` are matched to their call by ``tool_name``,
in call order.

>>> from toolturns import ChatMessage, ToolCall, ollama
>>> turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_weather", {"city": "Paris"})])
>>> body = ollama.to_request([ChatMessage.user("Weather in Paris?"), turn,
...                           ChatMessage.tool_result("call_1", "18 degrees")])
>>> body["messages"][1]["tool_calls"]
[{'id': 'call_1', 'function': {'name': 'get_weather', 'arguments': {'city': 'Paris'}}}]
>>> body["messages"][2]
{'role': 'tool', 'content': '18 degrees', 'tool_name': 'get_weather', 'tool_call_id': 'call_1'}
>>> ollama.from_request(body)[1] == turn
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ._codec import (
    GENERATED_ID_KEY,
    arguments_for_object_wire,
    arguments_text_from_object_wire,
    at,
    check_messages,
    check_tool,
    check_tools,
    generated_id,
    is_generated_id,
    mark_generated_id,
)
from ._errors import InvalidMessage, InvalidStream, InvalidToolCall, MessageError, describe
from ._extra import Extra
from ._json import join_key, value_key
from ._message import ChatMessage, Role
from ._stream import Assembler, OtherKeys, PartialToolCall
from ._tool import Tool
from ._tool_call import ToolCall

__all__ = ["StreamAssembler", "from_request", "from_response", "to_request", "tool_definition"]

_PROVIDER = "ollama"
# How the provider is named in error messages.
_DISPLAY_NAME = "Ollama"

# Ollama has one system channel: the message role "system" (docs/api.md,
# "Generate a chat completion": role is system, user, assistant or tool).
_WIRE_ROLES = {
    Role.SYSTEM: "system",
    Role.DEVELOPER: "system",
    Role.USER: "user",
    Role.ASSISTANT: "assistant",
    Role.TOOL: "tool",
}

# The native keys this codec models, per level of the wire. Every other key
# read is kept in provider_data["ollama"] and written back only to Ollama; a
# replayed key may never overwrite one of these, which the codec writes itself.
_MESSAGE_KEYS = frozenset({"role", "content", "tool_calls"})
# tool_name and tool_call_id mean something on a tool result only; on another
# message they are unmodelled keys like any other.
_RESULT_KEYS = _MESSAGE_KEYS | {"tool_name", "tool_call_id"}
_CALL_KEYS = frozenset({"id", "type", "function"})
# function.index is the call's position in tool_calls (api/types.go,
# ToolCallFunction.Index): the order of the calls says the same, so it is read
# and dropped.
_FUNCTION_KEYS = frozenset({"index", "name", "arguments"})

# What provider_data["ollama"] may hold, on a message and on a call.
_MESSAGE_DATA = frozenset({"keys"})
_CALL_DATA = frozenset({GENERATED_ID_KEY, "keys", "function_keys"})


# -- writing ------------------------------------------------------------------------------


def to_request(
    messages: Sequence[ChatMessage],
    *,
    tools: Sequence[Tool] | None = None,
    keep_invalid_arguments: bool = False,
) -> dict[str, Any]:
    """The message part of an ``/api/chat`` request body.

    Args:
        messages: The conversation.
        tools: Tools the model may call.
        keep_invalid_arguments: Send arguments that are not a JSON object
            (malformed model text) wrapped as ``{"_toolturns_raw_arguments": text}``
            instead of raising; ``from_request`` restores the text exactly.

    Returns:
        ``{"messages": [...]}``, with ``"tools": [...]`` when tools are given;
        merge it with the model name and options.

    Raises:
        InvalidArguments: a call's arguments are not a JSON object
            (``messages[1].tool_calls[0].arguments``).
        InvalidMessage: a tool result answers no call of an earlier assistant
            turn, so its ``tool_name`` cannot be looked up.
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
    for index, message in enumerate(check_messages(messages)):
        with at(f"messages[{index}]"):
            wire.append(_message_to_wire(message, calls_by_id, keep_invalid_arguments))
        for call in message.tool_calls or ():
            calls_by_id[call.id] = call  # the latest call with an id is the one a result answers
    body: dict[str, Any] = {"messages": wire}
    checked_tools = check_tools(tools, _PROVIDER)
    if checked_tools:
        body["tools"] = [tool_definition(tool) for tool in checked_tools]
    return body


def _message_to_wire(
    message: ChatMessage, calls_by_id: Mapping[str, ToolCall], keep_invalid: bool
) -> dict[str, Any]:
    # Ollama's Message has no name, is_error or OpenAI extra keys: they are
    # not sent (documented losses).
    wire: dict[str, Any] = {"role": _WIRE_ROLES[message.role], "content": message.content}
    reserved = _MESSAGE_KEYS
    if message.role is Role.TOOL:
        wire.update(_result_fields(message, calls_by_id))
        reserved = _RESULT_KEYS
    elif message.tool_calls:
        # A tool-call turn always sends a string content, "" without text.
        calls = []
        for index, call in enumerate(message.tool_calls):
            with at(f"tool_calls[{index}]"):
                calls.append(_call_to_wire(call, keep_invalid))
        wire["tool_calls"] = calls
    entry = _replay_entry(message.provider_data, _MESSAGE_DATA, InvalidMessage)
    wire.update(_replayed_keys(entry, "keys", reserved, InvalidMessage))
    return wire


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
    if not is_generated_id(call, _PROVIDER):
        fields["tool_call_id"] = call.id
    return fields


def _call_to_wire(call: ToolCall, keep_invalid: bool) -> dict[str, Any]:
    entry = _replay_entry(call.provider_data, _CALL_DATA, InvalidToolCall)
    # function.arguments must be an object: Ollama answers 400 to a string
    # (api/types.go, ToolCallFunctionArguments is a map).
    function: dict[str, Any] = {
        "name": call.name,
        "arguments": arguments_for_object_wire(call, provider=_DISPLAY_NAME, keep_invalid=keep_invalid),
    }
    function.update(_replayed_keys(entry, "function_keys", _FUNCTION_KEYS, InvalidToolCall))
    wire: dict[str, Any] = {}
    if not is_generated_id(call, _PROVIDER):  # an id toolturns made up means nothing to Ollama
        wire["id"] = call.id
    wire["function"] = function
    wire.update(_replayed_keys(entry, "keys", _CALL_KEYS, InvalidToolCall))
    return wire


def _replay_entry(
    provider_data: Mapping[str, Any], allowed: frozenset[str], error: type[MessageError]
) -> Mapping[str, Any]:
    """This codec's entry of a provider_data mapping, checked: it is written by
    ``from_request``/``from_response`` only, so anything else is a mistake."""
    entry = provider_data.get(_PROVIDER)
    if entry is None:
        return {}
    path = join_key("provider_data", _PROVIDER)
    if not isinstance(entry, Mapping):
        raise error(path, "must be an object (the data the Ollama codec read)", describe(entry))
    for key in entry:
        if key not in allowed:
            rule = "is not data the Ollama codec writes (it writes " + ", ".join(sorted(allowed)) + ")"
            raise error(join_key(path, key), rule, describe(entry[key]))
    return entry


def _replayed_keys(
    entry: Mapping[str, Any], field: str, reserved: frozenset[str], error: type[MessageError]
) -> dict[str, Any]:
    """The native keys kept under ``field`` of the entry, to send back as they were read."""
    keys = entry.get(field)
    if keys is None:
        return {}
    path = join_key(join_key("provider_data", _PROVIDER), field)
    if not isinstance(keys, Mapping):
        raise error(path, "must be an object of native keys", describe(keys))
    for key in keys:
        if key in reserved:
            raise error(
                join_key(path, key),
                "is a key the Ollama codec writes itself, not a kept key",
                describe(keys[key]),
            )
    return dict(keys)


# -- reading ------------------------------------------------------------------------------


def from_request(body: object) -> list[ChatMessage]:
    """Read the messages of a stored ``/api/chat`` request body, or a bare list of them.

    Tool results are matched to their call by ``tool_call_id`` when present,
    else by ``tool_name`` to the first call of the preceding assistant turn
    with that name that has no result yet. Calls without an id get
    deterministic ids (never sent back to Ollama).

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
    for index, item in enumerate(messages):
        with at(f"messages[{index}]"):
            result.append(_read_message(item, ("messages", index), calls))
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
    if not isinstance(body, Mapping):
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
        role = item.get("role", Role.ASSISTANT.value) if isinstance(item, Mapping) else None
        if role != Role.ASSISTANT.value and role is not None:
            raise InvalidMessage(
                "role", "must be 'assistant' (a response holds the model's turn)", describe(role)
            )
        return _read_message(item, seed, _CallsRead())


class _CallsRead:
    """The calls read so far in one body: what tool results are matched against."""

    def __init__(self) -> None:
        self._by_id: dict[str, ToolCall] = {}
        # The calls of the latest assistant turn, and which have a result yet.
        self._turn: tuple[ToolCall, ...] = ()
        self._answered: list[bool] = []

    def add_turn(self, calls: Sequence[ToolCall]) -> None:
        """Start a new assistant turn (without calls, a turn no result answers)."""
        self._turn = tuple(calls)
        self._answered = [False] * len(calls)
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
        for position, candidate in enumerate(self._turn):
            if candidate is call:
                self._answered[position] = True
        return call_id

    def _by_tool_name(self, tool_name: str) -> str:
        # How Ollama's own examples identify parallel results: by name, in the
        # order of the calls (docs/capabilities/tool-calling.mdx, "Parallel tool calling").
        for position, call in enumerate(self._turn):
            if not self._answered[position] and call.name == tool_name:
                self._answered[position] = True
                return call.id
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
    if not isinstance(item, Mapping):
        raise InvalidMessage("", "must be an object", describe(item))
    if "role" not in item:
        raise InvalidMessage("role", "is required")
    role = item["role"]
    # Ollama's Message.Content is a Go string: missing or null is "" (its
    # zero value), and the Python client leaves the key out then.
    content = item.get("content")
    if content is None:
        content = ""
    is_result = role == Role.TOOL.value
    tool_calls = _read_calls(item.get("tool_calls"), seed)
    kept = _unmodelled(item, _RESULT_KEYS if is_result else _MESSAGE_KEYS, "", InvalidMessage)
    provider_data = {_PROVIDER: {"keys": kept}} if kept else None
    if is_result:
        call_id = calls.answer(item.get("tool_call_id"), item.get("tool_name"))
        return ChatMessage(
            role, content, tool_calls=tool_calls, tool_call_id=call_id, provider_data=provider_data
        )
    message = ChatMessage(role, content, tool_calls=tool_calls, provider_data=provider_data)
    if message.role is Role.ASSISTANT:
        calls.add_turn(message.tool_calls or ())
    return message


def _read_calls(value: object, seed: tuple[object, ...]) -> list[ToolCall] | None:
    # null and [] both mean no calls; toolturns never sends [].
    if value is None:
        return None
    if not isinstance(value, (list, tuple)):
        raise InvalidMessage("tool_calls", "must be an array of tool calls", describe(value))
    calls = []
    for index, item in enumerate(value):
        with at(f"tool_calls[{index}]"):
            calls.append(_read_call(item, (*seed, index)))
    return calls or None


def _read_call(item: object, seed: tuple[object, ...]) -> ToolCall:
    """One native call: ``{"id"?, "type"?, "function": {"index"?, "name", "arguments"}}``."""
    if not isinstance(item, Mapping):
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
    data: dict[str, Any] = {}
    if not call_id:  # missing, null or "" (Go's zero value, left out by omitempty)
        # Seeded with the arguments' value, not their layout: the same call
        # read from text or from the object toolturns sent gets the same id.
        call_id = generated_id(_PROVIDER, *seed, name, value_key(arguments_json))
        data.update(mark_generated_id(_PROVIDER)[_PROVIDER])
    kept = _unmodelled(item, _CALL_KEYS, "", InvalidToolCall)
    if kept:
        data["keys"] = kept
    kept_in_function = _unmodelled(function, _FUNCTION_KEYS, "function", InvalidToolCall)
    if kept_in_function:
        data["function_keys"] = kept_in_function
    return ToolCall(call_id, name, arguments_json, provider_data={_PROVIDER: data} if data else None)


def _arguments_text(value: object, call_id: str | None, name: str) -> str:
    """The arguments as a call stores them: an object (or the wrapped raw text
    toolturns sent) becomes JSON text; text some clients send is kept as is."""
    if value is not None and not isinstance(value, (str, Mapping)):
        raise InvalidToolCall("function.arguments", "must be an object (or JSON text)", describe(value))
    return arguments_text_from_object_wire(value, path="function.arguments", call_id=call_id, name=name)


def _unmodelled(
    mapping: Mapping[Any, Any], modelled: frozenset[str], path: str, error: type[MessageError]
) -> dict[str, Any]:
    """The keys of a native object this codec does not model, checked as JSON;
    null and empty values carry nothing and are dropped."""
    rest = {key: value for key, value in mapping.items() if key not in modelled}
    return Extra.build(rest, path=path, reserved=frozenset(), error=error).to_dict() if rest else {}


# -- tools --------------------------------------------------------------------------------


def tool_definition(tool: Tool) -> dict[str, Any]:
    """Ollama's shape for a tool: ``{"type": "function", "function": {...}}``.

    A tool without parameters declares ``{"type": "object", "properties": {}}``:
    Ollama answers 400 to ``[]``.

    >>> from toolturns import Tool
    >>> tool_definition(Tool("get_time"))
    {'type': 'function', 'function': {'name': 'get_time', 'parameters': {'type': 'object', 'properties': {}}}}
    """
    check_tool(tool, _PROVIDER)
    function: dict[str, Any] = {"name": tool.name}
    if tool.description:
        function["description"] = tool.description
    function["parameters"] = tool.parameters
    return {"type": "function", "function": function}


# -- streaming ----------------------------------------------------------------------------

# What the closing (done: true) chunk reports about the work done
# (docs/api.md, "Generate a chat completion", response fields).
_USAGE_KEYS = (
    "prompt_eval_count",
    "eval_count",
    "total_duration",
    "load_duration",
    "prompt_eval_duration",
    "eval_duration",
)


class StreamAssembler(Assembler):
    """Assemble one streamed ``/api/chat`` response: its NDJSON objects, one per line.

    Feed each decoded line; ``message()`` then gives the ChatMessage
    ``from_response`` gives for the same response sent whole. That response is
    what Ollama itself builds when it is asked not to stream (server/routes.go,
    ``ChatHandler``): the texts of all chunks joined (``content``, and
    ``thinking``, kept in provider_data as ``from_response`` keeps it), the
    tool calls of all chunks in order, everything else from the last chunk,
    ``created_at`` included. So calls without an id get the ids
    ``from_response`` gives: seeded with the last chunk's ``created_at``, they
    are final once the ``done: true`` chunk arrived, and ``snapshot()`` shows
    them as ``None`` until then.

    Tool calls arrive whole (arguments as an object), on any chunk, the
    ``done: true`` one included; ``ended`` turns true with that chunk, and
    ``finish_reason`` is its ``done_reason``. ``usage`` holds its counts and
    durations (``prompt_eval_count``, ``eval_count``, ...).

    >>> from toolturns import ollama
    >>> stream = ollama.StreamAssembler()
    >>> stream.feed({"model": "llama3.2", "created_at": "2025-07-07T20:22:19.184789Z",
    ...     "message": {"role": "assistant", "content": "",
    ...                 "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Tokyo"}}}]},
    ...     "done": False})
    >>> stream.feed({"model": "llama3.2", "created_at": "2025-07-07T20:22:19.19314Z",
    ...     "message": {"role": "assistant", "content": ""}, "done_reason": "stop", "done": True,
    ...     "prompt_eval_count": 169, "eval_count": 15})
    >>> turn = stream.message()
    >>> turn.tool_calls[0].name, turn.tool_calls[0].arguments
    ('get_weather', {'city': 'Tokyo'})
    >>> stream.finish_reason, stream.ended, stream.usage
    ('stop', True, {'prompt_eval_count': 169, 'eval_count': 15})
    """

    def __init__(self) -> None:
        super().__init__()
        self._text: list[str] = []
        # Other keys of the messages, in the order they first came: text
        # (thinking) concatenates, any other value must stay the same.
        self._others = OtherKeys(extend_arrays=False)
        # Each call as it came, and as read then (for the live view).
        self._calls: list[tuple[dict[str, Any], ToolCall]] = []
        self._created_at: object = None

    def _feed(self, item: dict[str, Any]) -> None:
        error = item.get("error")
        if error is not None:
            # A failure after the stream started arrives as {"error": "..."}
            # on its own line (server/routes.go, the gin.H error sent on the channel).
            raise InvalidStream(
                "error",
                f"{_DISPLAY_NAME} reported an error in the stream",
                describe(error),
                provider_error=error,
            )
        if "message" not in item:
            raise InvalidStream("message", "is required (every /api/chat stream item has one)")
        message = item["message"]
        if not isinstance(message, dict):
            raise InvalidStream("message", "must be an object", describe(message))
        done = item.get("done")
        if done is not None and type(done) is not bool:
            raise InvalidStream("done", "must be a boolean", describe(done))
        reason = item.get("done_reason")
        if reason is not None and not isinstance(reason, str):
            raise InvalidStream("done_reason", "must be a string", describe(reason))
        with at("message"):
            self._feed_message(message)
        self._created_at = item.get("created_at")
        if done:
            self.finish_reason = reason
            usage = {key: item[key] for key in _USAGE_KEYS if item.get(key) is not None}
            self.usage = usage or None
            self._ended = True

    def _feed_message(self, message: dict[str, Any]) -> None:
        role = message.get("role")
        if role is not None and role != Role.ASSISTANT.value:
            raise InvalidStream(
                "role", "must be 'assistant' (a response streams the model's turn)", describe(role)
            )
        for key, value in message.items():
            if value is None or key == "role":
                continue  # null carries nothing (Go's omitempty leaves the key out)
            if key == "content":
                if not isinstance(value, str):
                    raise InvalidStream("content", "must be a string", describe(value))
                self._text.append(value)
            elif key == "tool_calls":
                if not isinstance(value, list):
                    raise InvalidStream("tool_calls", "must be an array of tool calls", describe(value))
                for position, raw in enumerate(value):
                    with at(f"tool_calls[{position}]"):
                        # Read now, so a broken call is reported on the item that
                        # brought it; read again in message(), with the final seed.
                        call = _read_call(raw, (*self._seed(), len(self._calls)))
                    self._calls.append((raw, call))
            else:
                self._others.merge(key, value, key)

    def _content(self) -> str:
        if len(self._text) > 1:
            self._text[:] = ["".join(self._text)]
        return self._text[0] if self._text else ""

    def _partial_calls(self) -> list[PartialToolCall]:
        if not self._ended:
            # An id toolturns makes up depends on the last chunk's created_at:
            # not known before the end.
            return [
                PartialToolCall(
                    None if is_generated_id(call, _PROVIDER) else call.id, call.name, call.arguments_json
                )
                for _, call in self._calls
            ]
        seed = self._seed()
        calls = [_read_call(raw, (*seed, position)) for position, (raw, _) in enumerate(self._calls)]
        return [PartialToolCall(call.id, call.name, call.arguments_json) for call in calls]

    def _seed(self) -> tuple[object, ...]:
        """What from_response seeds the ids of the calls with (a call adds its position)."""
        return ("message", self._created_at if isinstance(self._created_at, str) else None)

    def _build(self) -> ChatMessage:
        message: dict[str, Any] = {"role": Role.ASSISTANT.value, "content": self._content()}
        message.update(self._others.joined())
        if self._calls:
            message["tool_calls"] = [raw for raw, _ in self._calls]
        return from_response({"created_at": self._created_at, "message": message})
