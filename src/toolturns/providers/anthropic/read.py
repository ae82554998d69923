"""Anthropic Messages, reading: request bodies and the assistant turn of a response."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..._content import ContentPart, TextPart
from ..._errors import InvalidMessage, InvalidToolCall, MessageError, describe
from ..._json import join_key
from ..._message import ASSISTANT, SYSTEM, TOOL, USER, ChatMessage, Role
from ..._sdk import dumped
from ..._tool_call import ToolCall
from .._native import kept, unmodelled
from .._shared import (
    arguments_text_from_object_wire,
    at,
)
from .blocks import MESSAGE_KEYS, TEXT_KEYS, TOOL_RESULT_KEYS, TOOL_USE_KEYS
from .ids import read_id
from .parts import read_part

_PROVIDER = "anthropic"


# -- reading ----------------------------------------------------------------------------


def from_request(body: object) -> list[ChatMessage]:
    """Read a stored Messages request body, or a bare list of native messages.

    ``system`` (a string, or text blocks: one system message each) comes first.
    A user turn's ``tool_result`` blocks become tool messages, in order,
    followed by a user message holding its other blocks if it has any. Content
    given as a string reads as a string, content given as blocks as content
    parts (``text``, ``image``, ``document``); a lone text block with text after tool
    results reads as a string, the form ``to_request`` writes a string in.
    Blocks that are not parts (``search_result``) are kept, with their place,
    for ``to_request``. An assistant turn's text blocks are joined and its
    ``tool_use`` blocks become its calls, and other blocks (thinking) are kept.

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
    body = dumped(body)
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
    if not isinstance(body, Mapping) and not isinstance(body := dumped(body), Mapping):
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
            block = _system_text_block(item)
            text = _read_text(block)
            result.append(ChatMessage(SYSTEM, text, provider_data=kept_keys(block, TEXT_KEYS)))
    return result


def _read_message(item: object) -> list[ChatMessage]:
    if not isinstance(item, Mapping) and not isinstance(item := dumped(item), Mapping):
        raise InvalidMessage("", "must be an object (a message)", describe(item))
    for key, value in item.items():
        if key not in MESSAGE_KEYS and value is not None:
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
    blocks: Sequence[object] = content
    for number, block in enumerate(content):
        if not isinstance(block, Mapping):
            block = dumped(block)  # an SDK's block object, as ``response.content`` holds them
            if not isinstance(block, Mapping):
                raise InvalidMessage(
                    f"content[{number}]", "must be an object (a content block)", describe(block)
                )
            blocks = [*blocks[:number], block, *blocks[number + 1 :]]
        kind = block.get("type")
        if not isinstance(kind, str):
            raise InvalidMessage(
                f"content[{number}].type", "must be a string (the block type)", describe(kind)
            )
    return blocks  # type: ignore[return-value]  # each checked to be a Mapping above


def _read_user(content: object) -> list[ChatMessage]:
    """A user turn: its tool results, in order, then a user message of its other blocks (if any).

    Content given as a string reads as a string, and blocks as parts (a
    ``search_result`` is kept with its place). After tool results, one plain
    text block with text reads as a string: it is how ``to_request`` writes a
    user message's string there.
    """
    if isinstance(content, str):
        return [ChatMessage.user(content)]
    results: list[ChatMessage] = []
    others = _Others()
    for number, block in enumerate(_blocks(content)):
        with at(f"content[{number}]"):
            kind = block["type"]
            if kind == "tool_result":
                results.append(_read_tool_result(block))
            elif kind == "tool_use":
                raise InvalidMessage(
                    "type",
                    "must not be 'tool_use' in a user turn (calls go in an assistant turn)",
                    describe(kind),
                )
            else:
                others.add(block)
    if not results:
        return [others.message(USER)]
    if others:
        results.append(others.message(USER, after_results=True))
    return results


class _Others:
    """The blocks of a turn that are not tool results, as content parts and kept blocks.

    A kept block's position counts every block before it here (parts and kept
    blocks alike), which is where ``to_request`` writes it back.
    """

    __slots__ = ("kept", "parts")

    def __init__(self) -> None:
        self.parts: list[ContentPart] = []
        self.kept: list[tuple[int, dict[str, Any]]] = []

    def __bool__(self) -> bool:
        return bool(self.parts or self.kept)

    def add(self, block: Mapping[str, Any]) -> None:
        part = read_part(block)
        if part is None:
            self.kept.append((len(self.parts) + len(self.kept), dict(block)))
        else:
            self.parts.append(part)

    def content(self, *, plain_text: bool = False) -> str | tuple[ContentPart, ...]:
        """The parts as content; "" when there are none. With ``plain_text`` (after tool results,
        where ``to_request`` writes a non-empty string as one text block) a lone plain text part
        with text is that string."""
        parts = self.parts
        if not parts:
            return ""
        if plain_text and len(parts) == 1 and not self.kept:
            part = parts[0]
            if type(part) is TextPart and part.text and not part.provider_data:
                return part.text
        return tuple(parts)

    def message(self, role: Role, *, after_results: bool = False) -> ChatMessage:
        return ChatMessage(
            role, self.content(plain_text=after_results), provider_data=kept(_PROVIDER, items=self.kept)
        )


def _read_assistant(content: object) -> ChatMessage:
    if isinstance(content, str):
        return ChatMessage.assistant(content)
    texts: list[str] = []
    calls: list[ToolCall] = []
    first_seen: dict[str, int] = {}
    layout = Layout()
    for number, block in enumerate(_blocks(content)):
        with at(f"content[{number}]"):
            kind = block["type"]
            if kind == "text":
                texts.append(layout.text(_read_text(block)))
            elif kind == "tool_use":
                call = read_tool_use(block)
                if call.id in first_seen:
                    raise InvalidToolCall(
                        "id",
                        f"must be unique within the message (content[{first_seen[call.id]}] has it too)",
                        describe(block["id"]),
                    )
                first_seen[call.id] = number
                calls.append(layout.call(call))
            elif kind == "tool_result":
                raise InvalidMessage(
                    "type",
                    "must not be 'tool_result' in an assistant turn (results go in a user turn)",
                    describe(kind),
                )
            else:
                # thinking, redacted_thinking, server_tool_use, web_search_tool_result...:
                # kept unchanged, with their position, for to_request to replay.
                layout.keep(block)
    return ChatMessage(
        ASSISTANT,
        "".join(texts),
        tool_calls=calls or None,
        provider_data=kept(_PROVIDER, items=layout.kept),
    )


class Layout:
    """Where each block kept from an assistant turn goes back among the blocks ``to_request`` writes.

    ``to_request`` writes the turn's text as one block (none when it is
    empty), then its calls, and puts each kept block back at its position
    among all of them. So a position counts the first text block with text,
    every tool_use and every kept block before it, but not the text blocks
    that join the first one, nor empty ones: else a kept block after them
    would stand past the end of what is written.
    """

    __slots__ = ("_has_text", "_next", "kept")

    def __init__(self) -> None:
        self.kept: list[tuple[int, dict[str, Any]]] = []
        self._next = 0
        self._has_text = False

    def text(self, text: str) -> str:
        if text and not self._has_text:
            self._has_text = True
            self._next += 1
        return text

    def call(self, call: ToolCall) -> ToolCall:
        self._next += 1
        return call

    def keep(self, block: Mapping[str, Any]) -> None:
        self.kept.append((self._next, dict(block)))
        self._next += 1


def _system_text_block(block: object) -> Mapping[str, Any]:
    """``block`` if it is a text block: the system prompt is text blocks only."""
    if not isinstance(block, Mapping) and not isinstance(block := dumped(block), Mapping):
        raise InvalidMessage("", "must be an object (a text block)", describe(block))
    kind = block.get("type")
    if kind != "text":
        raise InvalidMessage("type", "must be 'text': the system prompt is text blocks", describe(kind))
    return block


def _read_text(block: Mapping[str, Any]) -> str:
    text = block.get("text")
    if not isinstance(text, str):
        raise InvalidMessage("text", "must be a string", describe(text))
    return text


def read_tool_use(block: Mapping[str, Any], *, streamed: str | None = None) -> ToolCall:
    """The call of a ``tool_use`` block, read or streamed.

    ``streamed`` is the argument text a stream's ``partial_json`` fragments
    gave, kept raw (never completed or repaired) in place of ``input``; a
    stream without it has its arguments in the start's ``input``, as a
    response sent whole has.
    """
    call_id = read_id(block.get("id"), "id", InvalidToolCall)
    name = block.get("name")
    if not isinstance(name, str) or not name:
        raise InvalidToolCall("name", "must be a non-empty string", describe(name))
    if streamed is None:
        value = block.get("input")
        if not isinstance(value, Mapping):
            raise InvalidToolCall("input", "must be an object (the arguments)", describe(value))
        streamed = arguments_text_from_object_wire(value, path="input", call_id=call_id, name=name)
    return ToolCall(call_id, name, streamed, provider_data=kept_keys(block, TOOL_USE_KEYS, InvalidToolCall))


def _read_tool_result(block: Mapping[str, Any]) -> ChatMessage:
    call_id = read_id(block.get("tool_use_id"), "tool_use_id", InvalidMessage)
    content, others = _result_content(block.get("content"))
    is_error = block.get("is_error")
    if is_error is not None and not isinstance(is_error, bool):
        raise InvalidMessage("is_error", "must be a boolean", describe(is_error))
    return ChatMessage(
        TOOL,
        content,
        tool_call_id=call_id,
        is_error=bool(is_error),
        provider_data=kept(
            _PROVIDER,
            keys=unmodelled(block, TOOL_RESULT_KEYS),
            items=others.kept if others is not None else None,
        ),
    )


def _result_content(content: object) -> tuple[str | tuple[ContentPart, ...], _Others | None]:
    """A tool_result's content: a string as it is, blocks as parts (and kept blocks); none as ""."""
    if content is None:
        return "", None
    if isinstance(content, str):
        return content, None
    others = _Others()
    for number, block in enumerate(_blocks(content)):
        with at(f"content[{number}]"):
            others.add(block)
    return others.content(), others


def kept_keys(
    block: Mapping[str, Any], modelled: frozenset[str], error: type[MessageError] = InvalidMessage
) -> Mapping[str, Any] | None:
    """The provider_data that keeps a block's unmodelled keys (``cache_control``, ``caller``), or None."""
    return kept(_PROVIDER, keys=unmodelled(block, modelled, error=error))
