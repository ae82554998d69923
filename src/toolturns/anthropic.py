"""The Anthropic Messages codec: ChatMessages to and from ``/v1/messages`` bodies.

System and developer turns become the top-level ``system`` text blocks, tool
calls become ``tool_use`` blocks, and tool results ``tool_result`` blocks at the
start of the next user turn. Ids Anthropic would refuse are encoded reversibly.

>>> from toolturns import ChatMessage, Tool, ToolCall, anthropic
>>> turn = ChatMessage.assistant_tool_calls([ToolCall("functions.get_weather:0", "get_weather", {"city": "Paris"})])
>>> history = [ChatMessage.system("Be brief."), ChatMessage.user("Weather in Paris?"), turn,
...            ChatMessage.tool_result("functions.get_weather:0", "18 degrees")]
>>> body = anthropic.to_request(history, tools=[Tool("get_weather")])
>>> body["system"]
[{'type': 'text', 'text': 'Be brief.'}]
>>> body["messages"][1]["content"]
[{'type': 'tool_use', 'id': 'tt-functions-2e_get-5f_weather-3a_0', 'name': 'get_weather', 'input': {'city': 'Paris'}}]
>>> anthropic.from_request(body) == history
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ._codec import (
    arguments_for_object_wire,
    arguments_text_from_object_wire,
    at,
    check_messages,
    check_tool,
    check_tools,
    provider_entry,
)
from ._errors import InvalidMessage, InvalidToolCall, MessageError, describe
from ._extra import carries_nothing
from ._json import join_key
from ._message import ChatMessage, Role
from ._tool import Tool
from ._tool_call import ToolCall

__all__ = ["from_request", "from_response", "to_request", "tool_definition"]

_PROVIDER = "anthropic"

# https://docs.anthropic.com/en/api/messages: tool_use.id (and so
# tool_result.tool_use_id) must match ^[a-zA-Z0-9_-]+$; anything else is a 400
# ("String should match pattern"). Ids from other providers often break it
# (Kimi's "functions.get_weather:0").
_WIRE_ID = re.compile(r"[a-zA-Z0-9_-]+")
# Ids toolturns had to encode start with this marker. A valid id that starts
# with it is encoded too, so that decoding never mistakes one for the other.
_ID_MARKER = "tt-"
# What follows the marker: letters and digits as themselves, every other
# character as "-" + lowercase hex of its code point + "_".
_ENCODED = re.compile(r"(?:[A-Za-z0-9]|-[0-9a-f]{1,6}_)+")
_TOKEN = re.compile(r"([A-Za-z0-9])|-([0-9a-f]{1,6})_")
_ID_RULE = "must be an id as to_request encodes it ('tt-', then letters, digits and '-<hex>_' escapes)"

# Keys of native blocks that toolturns models; any other key of a tool_use,
# tool_result or system text block travels in provider_data["anthropic"]["block"].
_TEXT_KEYS = frozenset({"type", "text"})
_TOOL_USE_KEYS = frozenset({"type", "id", "name", "input"})
_TOOL_RESULT_KEYS = frozenset({"type", "tool_use_id", "content", "is_error"})
# A native message has exactly these keys (Anthropic's MessageParam).
_MESSAGE_KEYS = frozenset({"role", "content"})
_SYSTEM_ROLES = (Role.SYSTEM, Role.DEVELOPER)

# Anthropic: "Each tool_result block must have a corresponding tool_use block
# in the previous message" (HTTP 400 otherwise).
_ORPHAN = "Anthropic answers 400 to a tool_result without a matching tool_use in the previous message"


# -- writing ----------------------------------------------------------------------------


def to_request(
    messages: Sequence[ChatMessage],
    *,
    tools: Sequence[Tool] | None = None,
    keep_invalid_arguments: bool = False,
) -> dict[str, Any]:
    """The ``system``, ``messages`` and ``tools`` part of a Messages API request body.

    Every system and developer message becomes one text block of the
    top-level ``system``, in order; the others become ``messages``. A run of
    tool results becomes one user turn of ``tool_result`` blocks in the order
    of the calls they answer, followed by the text of a user message that
    comes right after them.

    Args:
        messages: The conversation.
        tools: Tools the model may call.
        keep_invalid_arguments: Send arguments that are not a JSON object as
            ``{"_toolturns_raw_arguments": text}`` instead of raising.

    Returns:
        ``{"system": [...]?, "messages": [...], "tools": [...]?}``; merge it with
        the model name, ``max_tokens`` and options.

    Raises:
        InvalidArguments: a call's arguments are not a JSON object (and
            ``keep_invalid_arguments`` is false).
        InvalidMessage: a tool result answers no call of the assistant turn
            just before it, or answers a call twice; provider data is malformed.

    >>> from toolturns import ChatMessage, ToolCall
    >>> turn = ChatMessage.assistant_tool_calls([ToolCall("toolu_1", "get_time")], "Let me check.")
    >>> to_request([ChatMessage.user("Time?"), turn, ChatMessage.tool_result("toolu_1", "12:00"),
    ...             ChatMessage.user("And the date?")])["messages"][2]
    {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 'toolu_1', 'content': '12:00'}, {'type': 'text', 'text': 'And the date?'}]}
    """
    checked = check_messages(messages)
    system: list[dict[str, Any]] = []
    # System turns leave the conversation for the top-level system, so a
    # system message between a call and its result does not separate them.
    conversation: list[tuple[int, ChatMessage]] = []
    for index, message in enumerate(checked):
        if message.role in _SYSTEM_ROLES:
            with at(f"messages[{index}]"):
                block = _system_block(message)
            if block is not None:
                system.append(block)
        else:
            conversation.append((index, message))

    wire: list[dict[str, Any]] = []
    position = 0
    while position < len(conversation):
        index, message = conversation[position]
        if message.role is Role.TOOL:
            turn, position = _results_turn(conversation, position)
            wire.append(turn)
            continue
        if message.role is Role.USER:
            wire.append({"role": "user", "content": message.content})
        else:
            with at(f"messages[{index}]"):
                wire.append(_assistant_message(message, keep_invalid_arguments))
        position += 1

    body: dict[str, Any] = {}
    if system:
        body["system"] = system
    body["messages"] = wire
    checked_tools = check_tools(tools)
    if checked_tools:
        body["tools"] = [tool_definition(tool) for tool in checked_tools]
    return body


def _results_turn(conversation: Sequence[tuple[int, ChatMessage]], start: int) -> tuple[dict[str, Any], int]:
    """The user turn for the run of tool results at ``start``, and the position after it.

    A user message right after the run joins the turn as a text block after
    the results; an empty one stays a message of its own (content ""), since
    an empty text block is a 400.
    """
    end = start
    while end < len(conversation) and conversation[end][1].role is Role.TOOL:
        end += 1
    previous = conversation[start - 1] if start else None
    content = _tool_result_blocks(conversation[start:end], previous)
    if end < len(conversation):
        after = conversation[end][1]
        if after.role is Role.USER and after.content:
            content.append({"type": "text", "text": after.content})
            end += 1
    return {"role": "user", "content": content}, end


def _system_block(message: ChatMessage) -> dict[str, Any] | None:
    # An empty system message carries no instruction, and Anthropic answers 400
    # to an empty text block ("text content blocks must be non-empty").
    if not message.content:
        return None
    block: dict[str, Any] = {"type": "text", "text": message.content}
    return _with_block_keys(block, message.provider_data, _TEXT_KEYS, InvalidMessage)


def _assistant_message(message: ChatMessage, keep_invalid: bool) -> dict[str, Any]:
    stored = _stored_blocks(message.provider_data)
    if not message.tool_calls and not stored:
        return {"role": "assistant", "content": message.content}
    content: list[dict[str, Any]] = []
    if message.content:  # an empty text block is a 400
        content.append({"type": "text", "text": message.content})
    for number, call in enumerate(message.tool_calls or ()):
        with at(f"tool_calls[{number}]"):
            content.append(_tool_use_block(call, keep_invalid))
    # Thinking blocks go back where they were, unchanged: Anthropic rejects a
    # tool-use continuation whose thinking blocks were dropped or modified
    # (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking).
    for place, block in stored:
        content.insert(place, block)
    return {"role": "assistant", "content": content}


def _tool_use_block(call: ToolCall, keep_invalid: bool) -> dict[str, Any]:
    block: dict[str, Any] = {
        "type": "tool_use",
        "id": _wire_id(call.id),
        "name": call.name,
        "input": arguments_for_object_wire(call, provider=_PROVIDER, keep_invalid=keep_invalid),
    }
    return _with_block_keys(block, call.provider_data, _TOOL_USE_KEYS, InvalidToolCall)


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
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": _wire_id(message.tool_call_id or "")}
    if message.content:  # an empty text is sent as no content at all
        block["content"] = message.content
    if message.is_error:
        block["is_error"] = True
    return _with_block_keys(block, message.provider_data, _TOOL_RESULT_KEYS, InvalidMessage)


def _with_block_keys(
    block: dict[str, Any],
    provider_data: Mapping[str, Any],
    modelled: frozenset[str],
    error: type[MessageError],
) -> dict[str, Any]:
    """``block`` plus the native keys kept from reading it (``caller``, ``cache_control``)."""
    keys = provider_entry(provider_data, _PROVIDER, error).get("block")
    if keys is None:
        return block
    path = f"provider_data.{_PROVIDER}.block"
    if not isinstance(keys, Mapping):
        raise error(path, "must be an object of native block keys", describe(keys))
    for key, value in keys.items():
        if key in modelled:
            raise error(join_key(path, key), "is a key toolturns writes itself", describe(value))
        block[key] = value
    return block


def _stored_blocks(provider_data: Mapping[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """The kept native blocks of an assistant turn, as (position, block), by position."""
    blocks = provider_entry(provider_data, _PROVIDER, InvalidMessage).get("blocks")
    if blocks is None:
        return []
    path = f"provider_data.{_PROVIDER}.blocks"
    if not isinstance(blocks, list):
        raise InvalidMessage(path, "must be an array of [position, block] pairs", describe(blocks))
    stored = []
    for number, item in enumerate(blocks):
        if not (
            isinstance(item, list)
            and len(item) == 2
            and type(item[0]) is int
            and item[0] >= 0
            and isinstance(item[1], dict)
            and isinstance(item[1].get("type"), str)
        ):
            raise InvalidMessage(
                f"{path}[{number}]",
                "must be a [position, block] pair: an integer >= 0 and an object with a string type",
                describe(item),
            )
        stored.append((item[0], item[1]))
    stored.sort(key=lambda pair: pair[0])  # stable: equal positions keep their order
    return stored


def _wire_id(call_id: str) -> str:
    """The tool_use id Anthropic accepts for ``call_id``: itself, or its escaped form.

    A bijection: distinct ids never collide, and ``_call_id`` undoes it.
    """
    if _WIRE_ID.fullmatch(call_id) and not call_id.startswith(_ID_MARKER):
        return call_id
    return _ID_MARKER + "".join(
        char if char.isascii() and char.isalnum() else f"-{ord(char):x}_" for char in call_id
    )


# -- reading ----------------------------------------------------------------------------


def from_request(body: object) -> list[ChatMessage]:
    """Read a stored Messages request body, or a bare list of native messages.

    ``system`` (a string, or text blocks: one system message each) comes first.
    A user turn's ``tool_result`` blocks become tool messages, in order,
    followed by a user message holding its text blocks if it has any; an
    assistant turn's text blocks are joined and its ``tool_use`` blocks become
    its calls, and other blocks (thinking) are kept for ``to_request``.

    Raises:
        MessageError: the path is the native one (``messages[2].content[1].input``).

    >>> body = {"system": "Be brief.", "messages": [
    ...     {"role": "assistant", "content": [
    ...         {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {}}]},
    ...     {"role": "user", "content": [
    ...         {"type": "tool_result", "tool_use_id": "toolu_1", "content": "12:00"},
    ...         {"type": "text", "text": "Thanks."}]}]}
    >>> for message in from_request(body):
    ...     print(message)
    ChatMessage(role='system', content='Be brief.')
    ChatMessage(role='assistant', content='', tool_calls=(ToolCall(id='toolu_1', name='get_time', arguments='{}'),))
    ChatMessage(role='tool', content='12:00', tool_call_id='toolu_1')
    ChatMessage(role='user', content='Thanks.')
    """
    if isinstance(body, Mapping):
        system, messages = body.get("system"), body.get("messages")
    else:
        system, messages = None, body
    if not isinstance(messages, (list, tuple)):
        raise InvalidMessage("messages", "must be an array of messages", describe(messages))
    result = _read_system(system)
    for index, item in enumerate(messages):
        with at(f"messages[{index}]"):
            result.extend(_read_message(item))
    return result


def from_response(body: object) -> ChatMessage:
    """The assistant turn of a Messages API response (a ``type: "message"`` object).

    Response metadata (``id``, ``model``, ``stop_reason``, ``usage``) is not
    part of the turn and is not read.

    Raises:
        MessageError: not a message, or a malformed block (``content[0].input``).

    >>> turn = from_response({"type": "message", "role": "assistant", "stop_reason": "tool_use",
    ...     "content": [{"type": "text", "text": "Checking."},
    ...                 {"type": "tool_use", "id": "toolu_1", "name": "get_weather",
    ...                  "input": {"city": "Paris"}}]})
    >>> turn.content, turn.tool_calls[0].arguments
    ('Checking.', {'city': 'Paris'})
    """
    if not isinstance(body, Mapping):
        raise InvalidMessage("", "must be an object (an Anthropic Message)", describe(body))
    kind = body.get("type")
    if kind is not None and kind != "message":
        raise InvalidMessage(
            "type", "must be 'message' (an error body or stream event is not a turn)", describe(kind)
        )
    role = body.get("role")
    if role is not None and role != "assistant":
        raise InvalidMessage("role", "must be 'assistant'", describe(role))
    content = body.get("content")
    if content is None:
        raise InvalidMessage("content", "is required: an array of content blocks")
    return _read_assistant(content)


def _read_system(system: object) -> list[ChatMessage]:
    if system is None:
        return []
    if isinstance(system, str):
        return [ChatMessage.system(system)]
    if not isinstance(system, (list, tuple)):
        raise InvalidMessage("system", "must be a string or an array of text blocks", describe(system))
    result = []
    for number, item in enumerate(system):
        with at(f"system[{number}]"):
            block = _text_block(item, "only text content is supported")
            text = _read_text(block)
            result.append(ChatMessage(Role.SYSTEM, text, provider_data=_kept_keys(block, _TEXT_KEYS)))
    return result


def _read_message(item: object) -> list[ChatMessage]:
    if not isinstance(item, Mapping):
        raise InvalidMessage("", "must be an object (a message)", describe(item))
    for key, value in item.items():
        if key not in _MESSAGE_KEYS and value is not None:
            # Anthropic rejects other keys ("Extra inputs are not permitted"):
            # refusing them here keeps them from vanishing silently.
            if not isinstance(key, str):
                raise InvalidMessage("", "keys must be strings", describe(key))
            raise InvalidMessage(
                join_key("", key), "is not a key of an Anthropic message (role, content)", describe(value)
            )
    role = item.get("role")
    if role == "user":
        return _read_user(item.get("content"))
    if role == "assistant":
        return [_read_assistant(item.get("content"))]
    raise InvalidMessage(
        "role", "must be 'user' or 'assistant' (system prompts are the top-level system)", describe(role)
    )


def _blocks(content: object) -> Sequence[Mapping[str, Any]]:
    """A message's content as blocks, each an object with a string type."""
    if not isinstance(content, (list, tuple)):
        raise InvalidMessage("content", "must be a string or an array of content blocks", describe(content))
    for number, block in enumerate(content):
        if not isinstance(block, Mapping):
            raise InvalidMessage(f"content[{number}]", "must be an object (a content block)", describe(block))
        kind = block.get("type")
        if not isinstance(kind, str):
            raise InvalidMessage(
                f"content[{number}].type", "must be a string (the block type)", describe(kind)
            )
    return content


def _read_user(content: object) -> list[ChatMessage]:
    if isinstance(content, str):
        return [ChatMessage.user(content)]
    results: list[ChatMessage] = []
    texts: list[str] = []
    for number, block in enumerate(_blocks(content)):
        with at(f"content[{number}]"):
            kind = block["type"]
            if kind == "tool_result":
                results.append(_read_tool_result(block))
            elif kind == "text":
                texts.append(_read_text(block))
            else:
                raise InvalidMessage(
                    "type",
                    "must be 'text' or 'tool_result' in a user turn: only text content is supported",
                    describe(kind),
                )
    if texts or not results:
        results.append(ChatMessage.user("".join(texts)))
    return results


def _read_assistant(content: object) -> ChatMessage:
    if isinstance(content, str):
        return ChatMessage.assistant(content)
    texts: list[str] = []
    calls: list[ToolCall] = []
    first_seen: dict[str, int] = {}
    stored: list[list[Any]] = []
    for number, block in enumerate(_blocks(content)):
        with at(f"content[{number}]"):
            kind = block["type"]
            if kind == "text":
                texts.append(_read_text(block))
            elif kind == "tool_use":
                call = _read_tool_use(block)
                if call.id in first_seen:
                    raise InvalidToolCall(
                        "id",
                        f"must be unique within the message (content[{first_seen[call.id]}] has it too)",
                        describe(block["id"]),
                    )
                first_seen[call.id] = number
                calls.append(call)
            elif kind == "tool_result":
                raise InvalidMessage(
                    "type",
                    "must not be 'tool_result' in an assistant turn (results go in a user turn)",
                    describe(kind),
                )
            else:
                # thinking, redacted_thinking, server_tool_use, web_search_tool_result...:
                # kept unchanged, with their position, for to_request to replay.
                stored.append([number, block])
    return ChatMessage(
        Role.ASSISTANT,
        "".join(texts),
        tool_calls=calls or None,
        provider_data={_PROVIDER: {"blocks": stored}} if stored else None,
    )


def _text_block(block: object, rule: str) -> Mapping[str, Any]:
    """``block`` if it is a text block, where text is the only content toolturns models."""
    if not isinstance(block, Mapping):
        raise InvalidMessage("", "must be an object (a text block)", describe(block))
    kind = block.get("type")
    if kind != "text":
        raise InvalidMessage("type", f"must be 'text': {rule}", describe(kind))
    return block


def _read_text(block: Mapping[str, Any]) -> str:
    text = block.get("text")
    if not isinstance(text, str):
        raise InvalidMessage("text", "must be a string", describe(text))
    return text


def _read_id(value: object, key: str, error: type[MessageError]) -> str:
    """A native call id, decoded if toolturns encoded it."""
    if not isinstance(value, str) or not value:
        raise error(key, "must be a non-empty string", describe(value))
    if not value.startswith(_ID_MARKER):
        return value
    decoded = _unescaped(value[len(_ID_MARKER) :])
    # Only the one form _wire_id writes is read, so that reading and writing
    # stay inverse: no "-02e_", no "-61_" for "a", no id that needed no escaping.
    if decoded is None or _wire_id(decoded) != value:
        raise error(key, _ID_RULE, describe(value))
    return decoded


def _unescaped(text: str) -> str | None:
    """Undo _wire_id's escapes; None if ``text`` is not made of letters, digits and escapes."""
    if not _ENCODED.fullmatch(text):
        return None
    chars = []
    for literal, code in _TOKEN.findall(text):
        point = int(code, 16) if code else 0
        if point > 0x10FFFF:  # past Unicode's last code point: not a character
            return None
        chars.append(literal or chr(point))
    return "".join(chars)


def _read_tool_use(block: Mapping[str, Any]) -> ToolCall:
    call_id = _read_id(block.get("id"), "id", InvalidToolCall)
    name = block.get("name")
    if not isinstance(name, str) or not name:
        raise InvalidToolCall("name", "must be a non-empty string", describe(name))
    value = block.get("input")
    if not isinstance(value, Mapping):
        raise InvalidToolCall("input", "must be an object (the arguments)", describe(value))
    arguments = arguments_text_from_object_wire(value, path="input", call_id=call_id, name=name)
    return ToolCall(call_id, name, arguments, provider_data=_kept_keys(block, _TOOL_USE_KEYS))


def _read_tool_result(block: Mapping[str, Any]) -> ChatMessage:
    call_id = _read_id(block.get("tool_use_id"), "tool_use_id", InvalidMessage)
    with at("content"):
        text = _result_text(block.get("content"))
    is_error = block.get("is_error")
    if is_error is not None and not isinstance(is_error, bool):
        raise InvalidMessage("is_error", "must be a boolean", describe(is_error))
    return ChatMessage(
        Role.TOOL,
        text,
        tool_call_id=call_id,
        is_error=bool(is_error),
        provider_data=_kept_keys(block, _TOOL_RESULT_KEYS),
    )


def _result_text(content: object) -> str:
    """A tool_result's content: a string, or text blocks joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, (list, tuple)):
        raise InvalidMessage("", "must be a string or an array of text blocks", describe(content))
    parts = []
    for number, block in enumerate(content):
        with at(f"[{number}]"):
            parts.append(_read_text(_text_block(block, "only text content is supported in a tool result")))
    return "".join(parts)


def _kept_keys(block: Mapping[str, Any], modelled: frozenset[str]) -> dict[str, Any] | None:
    """The provider_data that keeps a block's unmodelled keys, or None."""
    # The core's rule for unknown keys: null and empty values carry nothing.
    kept = {key: value for key, value in block.items() if key not in modelled and not carries_nothing(value)}
    return {_PROVIDER: {"block": kept}} if kept else None


# -- tools ------------------------------------------------------------------------------


def tool_definition(tool: Tool) -> dict[str, Any]:
    """Anthropic's shape for a tool: ``{"name", "description"?, "input_schema"}``.

    >>> tool_definition(Tool("get_time"))
    {'name': 'get_time', 'input_schema': {'type': 'object', 'properties': {}}}
    """
    check_tool(tool)
    definition: dict[str, Any] = {"name": tool.name}
    if tool.description:
        definition["description"] = tool.description
    definition["input_schema"] = tool.parameters
    return definition
