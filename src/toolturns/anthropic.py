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
from typing import Any, NoReturn

from ._codec import (
    RAW_ARGUMENTS_KEY,
    arguments_for_object_wire,
    arguments_text_from_object_wire,
    at,
    check_messages,
    check_tool,
    check_tools,
    provider_entry,
)
from ._errors import InvalidMessage, InvalidStream, InvalidTool, InvalidToolCall, MessageError, describe
from ._extra import carries_nothing
from ._json import decode, join_key
from ._message import SYSTEM_ROLES, ChatMessage, Role
from ._stream import Assembler, PartialToolCall
from ._tool import Tool
from ._tool_call import ToolCall

__all__ = ["StreamAssembler", "from_request", "from_response", "to_request", "tool_definition"]

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
# The keys of a tool definition: what a Tool carries, its type ("custom") and
# cache_control, which only steers Anthropic's prompt cache.
_TOOL_KEYS = frozenset({"type", "name", "description", "input_schema", "cache_control"})
# A native message has exactly these keys (Anthropic's MessageParam).
_MESSAGE_KEYS = frozenset({"role", "content"})

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
        if message.role in SYSTEM_ROLES:
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
    checked_tools = check_tools(tools, _PROVIDER)
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
    check_tool(tool, _PROVIDER)
    definition: dict[str, Any] = {"name": tool.name}
    if tool.description:
        definition["description"] = tool.description
    definition["input_schema"] = tool.parameters
    return definition


def _read_tools(tools: object) -> list[Tool]:
    """The tools of a stored request body: the reverse of ``tool_definition``.

    Only custom tools are read: a server tool (``web_search_20250305``, ...)
    is Anthropic's own and cannot be carried to another provider, so it
    raises. ``cache_control`` steers Anthropic's prompt cache only and is
    not kept.

    Raises:
        InvalidTool: the path is the native one (``tools[2].input_schema``).
    """
    if not isinstance(tools, (list, tuple)):
        raise InvalidTool("tools", "must be an array of tool definitions", describe(tools))
    result = []
    for number, item in enumerate(tools):
        with at(f"tools[{number}]"):
            result.append(_read_tool(item))
    return result


def _read_tool(item: object) -> Tool:
    if not isinstance(item, Mapping):
        raise InvalidTool("", "must be an object (a tool definition)", describe(item))
    kind = item.get("type")
    if kind is not None and kind != "custom":
        raise InvalidTool(
            "type",
            "must be 'custom' or absent: a server tool is Anthropic's own and cannot be carried elsewhere",
            describe(kind),
        )
    for key, value in item.items():
        if key not in _TOOL_KEYS and value is not None:
            raise InvalidTool(
                join_key("", key),
                "is not a key of a tool toolturns carries (name, description, input_schema)",
                describe(value),
            )
    if item.get("input_schema") is None:
        raise InvalidTool("input_schema", "is required (Anthropic answers 400 without it)")
    description = item.get("description")
    try:
        return Tool(item.get("name"), "" if description is None else description, item["input_schema"])  # type: ignore[arg-type]
    except InvalidTool as error:
        # Tool names its schema "parameters"; the error must name the native key.
        if error.path.startswith("parameters"):
            raise InvalidTool(
                "input_schema" + error.path.removeprefix("parameters"), error.rule, error.got
            ) from None
        raise


# -- streaming --------------------------------------------------------------------------

# https://docs.anthropic.com/en/docs/build-with-claude/streaming: the event
# types of a Messages stream. "We may occasionally add new event types, and
# your code should handle unknown event types gracefully": an event of another
# type is skipped (a new delta type inside a known event is not: it would change
# a block, and dropping it would lose data silently).
_SKIPPED_EVENTS = frozenset({"ping"})
# The delta types each kind of block takes; a delta of another type is an error.
# citations_delta adds a citation to a text block: from_response does not keep
# the citations of text blocks either, so the stream skips them too.
_TEXT_DELTAS = frozenset({"text_delta", "citations_delta"})
_THINKING_DELTAS = frozenset({"thinking_delta", "signature_delta"})
_JSON_DELTAS = frozenset({"input_json_delta"})
# The key of each delta type that carries its fragment.
_DELTA_KEYS = {
    "text_delta": "text",
    "input_json_delta": "partial_json",
    "thinking_delta": "thinking",
    "signature_delta": "signature",
}


class _Block:
    """One content block as far as it has streamed: its start, and the fragments since."""

    __slots__ = ("fragments", "signature", "start", "stopped")

    def __init__(self, start: dict[str, Any]) -> None:
        self.start = start
        self.fragments: list[str] = []  # text, partial_json or thinking, by kind
        self.signature: list[str] = []  # signature_delta fragments of a thinking block
        self.stopped = False

    @property
    def kind(self) -> str:
        kind: str = self.start["type"]
        return kind


class StreamAssembler(Assembler):
    """Assembles the events of one streamed Messages response into the assistant turn.

    Feed it the decoded ``data`` of each server-sent event (``parse_sse``
    gives them from the raw lines). The message is the one ``from_response``
    gives for the same response sent whole: text blocks joined, ``tool_use``
    blocks as calls (ids decoded, unknown block keys such as ``caller`` kept),
    thinking, redacted thinking and every other block kept unchanged with its
    position in ``provider_data["anthropic"]["blocks"]``, so the turn replays
    like a non-streamed one. A call's argument text is the model's own
    ``partial_json`` fragments joined, never completed or repaired.

    ``finish_reason`` is ``message_delta``'s ``stop_reason`` (``end_turn``,
    ``tool_use``, ``max_tokens``...), ``usage`` the usage of ``message_start``
    updated by ``message_delta``'s, and ``ended`` turns true at ``message_stop``.

    Raises:
        InvalidStream: an ``error`` event (the provider's error object is in
            ``provider_error``), an event out of order (a delta for a block
            that was not started or already stopped, a delta type the block
            does not take), or a malformed event; the path names the item.

    >>> events = [
    ...     {"type": "message_start", "message": {"type": "message", "role": "assistant", "content": [],
    ...                                           "usage": {"input_tokens": 12, "output_tokens": 1}}},
    ...     {"type": "content_block_start", "index": 0,
    ...      "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}},
    ...     {"type": "ping"},
    ...     {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": ""}},
    ...     {"type": "content_block_delta", "index": 0,
    ...      "delta": {"type": "input_json_delta", "partial_json": '{"city": "Pa'}},
    ...     {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": 'ris"}'}},
    ...     {"type": "content_block_stop", "index": 0},
    ...     {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 20}},
    ...     {"type": "message_stop"}]
    >>> assembler = StreamAssembler()
    >>> for event in events:
    ...     assembler.feed(event)
    >>> assembler.message().tool_calls
    (ToolCall(id='toolu_1', name='get_weather', arguments='{"city": "Paris"}'),)
    >>> assembler.finish_reason, assembler.ended, assembler.usage
    ('tool_use', True, {'input_tokens': 12, 'output_tokens': 20})
    """

    def __init__(self) -> None:
        super().__init__()
        self._started = False
        self._blocks: list[_Block] = []
        self._ids: dict[str, int] = {}  # decoded tool_use id -> block index

    # -- events ---------------------------------------------------------------------

    def _feed(self, item: dict[str, Any]) -> None:
        kind = item.get("type")
        if not isinstance(kind, str):
            raise InvalidStream("type", "must be a string (the event type)", describe(kind))
        if kind == "error":
            self._error(item)
        if kind == "message_start":
            self._message_start(item)
        elif not self._started and kind != "ping":
            # Anthropic opens every stream with message_start; anything else first
            # is not the start of a Messages stream.
            raise InvalidStream("type", "must be 'message_start' first (or 'ping')", describe(kind))
        elif kind == "content_block_start":
            self._block_start(item)
        elif kind == "content_block_delta":
            self._block_delta(item)
        elif kind == "content_block_stop":
            self._open_block(item).stopped = True
        elif kind == "message_delta":
            self._message_delta(item)
        elif kind == "message_stop":
            self._ended = True
        # else: ping, or an event type added after this code was written.

    def _error(self, item: dict[str, Any]) -> NoReturn:
        error = item.get("error")
        fields = error if isinstance(error, dict) else {}
        what = fields.get("type")
        message = fields.get("message")
        # e.g. {"type": "overloaded_error", "message": "Overloaded"} mid-stream.
        raise InvalidStream(
            "error",
            f"the provider ended the stream with an error ({describe(what)}: {describe(message)})",
            describe(error) if not isinstance(error, dict) else None,
            provider_error=error,
        )

    def _message_start(self, item: dict[str, Any]) -> None:
        if self._started:
            raise InvalidStream("type", "must not be 'message_start' a second time", "'message_start'")
        message = item.get("message")
        if not isinstance(message, dict):
            raise InvalidStream("message", "must be an object (the Message)", describe(message))
        role = message.get("role")
        if role is not None and role != "assistant":
            raise InvalidStream("message.role", "must be 'assistant'", describe(role))
        content = message.get("content")
        if content is not None and content != []:
            raise InvalidStream(
                "message.content",
                "must be empty (blocks arrive as content_block_start events)",
                describe(content),
            )
        self._usage(message.get("usage"), "message.usage")
        self._started = True

    def _usage(self, usage: object, path: str) -> None:
        if usage is None:
            return
        if not isinstance(usage, dict):
            raise InvalidStream(path, "must be an object", describe(usage))
        # message_delta's counts are cumulative and may cover only some keys:
        # they update the ones message_start gave.
        self.usage = {**(self.usage or {}), **usage}

    def _index(self, item: dict[str, Any]) -> int:
        index = item.get("index")
        if type(index) is not int or index < 0:
            raise InvalidStream("index", "must be an integer >= 0 (the block's index)", describe(index))
        return index

    def _open_block(self, item: dict[str, Any]) -> _Block:
        index = self._index(item)
        if index >= len(self._blocks):
            raise InvalidStream("index", "must be the index of a block already started", describe(index))
        block = self._blocks[index]
        if block.stopped:
            raise InvalidStream("index", "must be the index of a block not yet stopped", describe(index))
        return block

    def _block_start(self, item: dict[str, Any]) -> None:
        index = self._index(item)
        if index != len(self._blocks):
            # Blocks are numbered from 0 in order; their index is their position
            # in the non-streamed response's content.
            raise InvalidStream(
                "index", f"must be {len(self._blocks)}, the next block's index", describe(index)
            )
        start = item.get("content_block")
        with at("content_block"):
            if not isinstance(start, dict):
                raise InvalidStream("", "must be an object (a content block)", describe(start))
            kind = start.get("type")
            if not isinstance(kind, str):
                raise InvalidStream("type", "must be a string (the block type)", describe(kind))
            if kind == "text":
                self._text_start(start)
            elif kind == "tool_use":
                self._tool_use_start(start, index)
            elif kind == "tool_result":
                raise InvalidStream("type", "must not be 'tool_result' in an assistant turn", describe(kind))
            elif kind == "thinking":
                for key in ("thinking", "signature"):
                    value = start.get(key, "")
                    if not isinstance(value, str):
                        raise InvalidStream(key, "must be a string", describe(value))
        self._blocks.append(_Block(start))

    def _text_start(self, start: dict[str, Any]) -> None:
        text = start.get("text", "")
        if not isinstance(text, str):
            raise InvalidStream("text", "must be a string", describe(text))

    def _tool_use_start(self, start: dict[str, Any], index: int) -> None:
        # The id and name come whole here; a missing one is reported by
        # message() (the live view shows None until then).
        call_id = start.get("id")
        if call_id is not None:
            decoded = _read_id(call_id, "id", InvalidToolCall)
            if decoded in self._ids:
                raise InvalidToolCall(
                    "id",
                    f"must be unique within the message (content block {self._ids[decoded]} has it too)",
                    describe(call_id),
                )
            self._ids[decoded] = index
        name = start.get("name")
        if name is not None and (not isinstance(name, str) or not name):
            raise InvalidToolCall("name", "must be a non-empty string", describe(name))
        value = start.get("input", {})
        if not isinstance(value, dict):
            raise InvalidToolCall("input", "must be an object (the arguments)", describe(value))
        # The start's input is {} in a stream; an object with keys would read
        # as arguments of their own.
        arguments_text_from_object_wire(value, path="input", call_id=None, name=name or "")

    def _block_delta(self, item: dict[str, Any]) -> None:
        block = self._open_block(item)
        delta = item.get("delta")
        with at("delta"):
            if not isinstance(delta, dict):
                raise InvalidStream("", "must be an object", describe(delta))
            kind = delta.get("type")
            if block.kind == "text":
                accepted = _TEXT_DELTAS
            elif block.kind == "thinking":
                accepted = _THINKING_DELTAS
            else:  # tool_use, and unmodelled blocks whose input streams (server_tool_use)
                accepted = _JSON_DELTAS
            if not isinstance(kind, str) or kind not in accepted:
                raise InvalidStream(
                    "type",
                    f"must be one of {', '.join(sorted(accepted))} for a {block.kind} block",
                    describe(kind),
                )
            if kind == "citations_delta":
                return
            key = _DELTA_KEYS[kind]
            fragment = delta.get(key)
            if not isinstance(fragment, str):
                raise InvalidStream(key, "must be a string", describe(fragment))
        if kind == "input_json_delta" and fragment and block.start.get("input", {}) != {}:
            raise InvalidStream(
                "delta.partial_json",
                "must not follow a content_block_start whose input is not {} (the arguments would be given twice)",
                describe(fragment),
            )
        (block.signature if kind == "signature_delta" else block.fragments).append(fragment)

    def _message_delta(self, item: dict[str, Any]) -> None:
        delta = item.get("delta")
        if not isinstance(delta, dict):
            raise InvalidStream("delta", "must be an object", describe(delta))
        reason = delta.get("stop_reason")
        if reason is not None:
            if not isinstance(reason, str):
                raise InvalidStream("delta.stop_reason", "must be a string", describe(reason))
            self.finish_reason = reason
        self._usage(item.get("usage"), "usage")

    # -- results --------------------------------------------------------------------

    def _build(self) -> ChatMessage:
        texts: list[str] = []
        calls: list[ToolCall] = []
        stored: list[list[Any]] = []
        for number, block in enumerate(self._blocks):
            if block.kind == "text":
                texts.append(_joined_text(block))
            elif block.kind == "tool_use":
                with at(f"content[{number}]"):
                    calls.append(_stream_call(block))
            else:
                stored.append([number, _stored_block(block)])
        return ChatMessage(
            Role.ASSISTANT,
            "".join(texts),
            tool_calls=calls or None,
            provider_data={_PROVIDER: {"blocks": stored}} if stored else None,
        )

    def _content(self) -> str:
        return "".join(_joined_text(block) for block in self._blocks if block.kind == "text")

    def _partial_calls(self) -> list[PartialToolCall]:
        calls = []
        for block in self._blocks:
            if block.kind == "tool_use":
                call_id = block.start.get("id")
                text = "".join(block.fragments)
                if not text.strip() and block.start.get("input"):
                    # No argument text streamed yet: the start's own input is the
                    # arguments so far, as message() gives them.
                    text = arguments_text_from_object_wire(
                        block.start["input"], path="input", call_id=None, name=""
                    )
                calls.append(
                    PartialToolCall(
                        None if call_id is None else _read_id(call_id, "id", InvalidToolCall),
                        block.start.get("name"),
                        text,
                    )
                )
        return calls


def _joined_text(block: _Block) -> str:
    start: str = block.start.get("text", "")
    return start + "".join(block.fragments)


def _stream_call(block: _Block) -> ToolCall:
    """The call of a streamed tool_use block: its raw partial_json, or its start's input."""
    start = block.start
    for key in ("id", "name"):
        if start.get(key) is None:
            raise InvalidStream(
                key,
                f"is required: this tool_use block's {key} never arrived (content_block_start carries it)",
            )
    call_id = _read_id(start["id"], "id", InvalidToolCall)
    name: str = start["name"]
    text = "".join(block.fragments)
    # Blank text ("" is the usual first fragment) means no arguments streamed:
    # the start's input ({}) is the arguments, as in the non-streamed block.
    arguments = (
        text
        if text.strip()
        else arguments_text_from_object_wire(start.get("input", {}), path="input", call_id=call_id, name=name)
    )
    return ToolCall(call_id, name, arguments, provider_data=_kept_keys(start, _TOOL_USE_KEYS))


def _stored_block(block: _Block) -> dict[str, Any]:
    """A block toolturns does not model, as the non-streamed response has it."""
    stored = dict(block.start)
    if block.kind == "thinking":
        stored["thinking"] = stored.get("thinking", "") + "".join(block.fragments)
        stored["signature"] = stored.get("signature", "") + "".join(block.signature)
        return stored
    text = "".join(block.fragments)
    if text.strip():
        # A server tool's input streams like a tool_use's. Text that is not a
        # JSON object (cut off by max_tokens) is kept raw, wrapped the way
        # toolturns carries malformed arguments through object wires.
        try:
            value = decode(text)
        except ValueError:
            value = None
        stored["input"] = value if isinstance(value, dict) else {RAW_ARGUMENTS_KEY: text}
    return stored
