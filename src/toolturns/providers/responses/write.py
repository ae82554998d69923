"""OpenAI Responses, writing: ChatMessages as the ``input`` items of a request body."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..._content import ContentPart
from ..._errors import InvalidMessage, InvalidToolCall, MessageError
from ..._extra import EMPTY
from ..._message import ASSISTANT, TOOL, ChatMessage
from ..._tool import Tool
from ..._tool_call import ToolCall
from .._native import kept_text_keys, placed, replay_of
from .._shared import check_messages, refuse_unsupported
from . import rules
from .parts import write_part
from .tools import check_tools, tool_definition

__all__ = ["CALL_KEYS", "MESSAGE_KEYS", "OUTPUT_KEYS", "plain_item", "plain_turn", "to_request", "turn_items"]

_PROVIDER = "responses"
#: The keys of each item the codec writes itself; an item's other keys are kept.
MESSAGE_KEYS = frozenset({"type", "role", "content"})
CALL_KEYS = frozenset({"type", "call_id", "name", "arguments"})
OUTPUT_KEYS = frozenset({"type", "call_id", "output"})


def to_request(
    messages: Sequence[ChatMessage],
    *,
    tools: Sequence[Tool] | None = None,
    keep_invalid_arguments: bool = False,
    drop_unsupported: bool = False,
) -> dict[str, Any]:
    """The ``input`` (and ``tools``) of a Responses API request body.

    Each message is a ``message`` item in place, with its role (system and
    developer ones included: nothing moves to ``instructions``); each call a
    ``function_call`` item after its turn's text; each tool result a
    ``function_call_output``. What a turn read from this wire kept (reasoning
    items, item ids and statuses, built-in tool calls) goes back where it
    stood, and to no other wire.

    Args:
        messages: The conversation.
        tools: Tools the model may call.
        keep_invalid_arguments: Taken as every codec takes it, and changes
            nothing: the wire carries a call's arguments as text, sent as it is.
        drop_unsupported: Leave out what the wire cannot carry (a message's
            ``name`` or ``extra``, a call's ``extra``, a tool's ``extra``)
            instead of refusing it. A content part is never left out. A
            result's ``is_error`` is not sent (a ``function_call_output``
            has no key for it, as the Chat wire has none): its text says
            what failed.

    Raises:
        MessageError: the path names the message and the place
            (``messages[2].content[1]``, ``messages[1].provider_data.responses.items[0]``).

    >>> from toolturns import ChatMessage, ToolCall
    >>> turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_time")])
    >>> to_request([ChatMessage.user("Time?"), turn, ChatMessage.tool_result("call_1", "12:00")])["input"]
    [{'type': 'message', 'role': 'user', 'content': 'Time?'}, {'type': 'function_call', 'call_id': 'call_1', 'name': 'get_time', 'arguments': '{}'}, {'type': 'function_call_output', 'call_id': 'call_1', 'output': '12:00'}]
    """
    checked = check_messages(messages)
    refuse_unsupported(checked, rules.CARRIES, _PROVIDER, drop=drop_unsupported)
    items: list[dict[str, Any]] = []
    ids: dict[str, int] = {}  # each kept item id, and the message that sent it first
    opened: bool | None = None  # after an assistant turn: whether its items open a turn on reading
    for index, message in enumerate(checked):
        plain = plain_item(message)
        if plain is not None:  # most messages: what turn_items gives, with nothing to judge
            items.append(plain)
            opened = None
            continue
        try:
            written, kept_at = turn_items(message)
            if kept_at:  # reasoning items are kept ones
                _refuse_misplaced_reasoning(written, kept_at)
        except MessageError as error:
            raise error.with_prefix(f"messages[{index}]") from None
        if message.provider_data is not EMPTY or message.tool_calls:  # ids come only from kept data
            for why in rules.repeated_ids(index, written, ids):
                raise InvalidMessage(f"messages[{index}]", why)
        if message.role is ASSISTANT:
            if opened is not None and not _starts_a_turn(written, kept_at, opened):
                items.append(dict(_PARTING))
            # An empty turn (one message that says nothing) leaves the next turn's items to join it.
            if message.tool_calls:
                opened = True
            elif not kept_at:  # its one item: the message written from its content
                opened = written[0] != _PARTING
            else:
                opened = any(_modelled_message(item, kept_at) and item != _PARTING for item in written)
        else:
            opened = None
        items.extend(written)
    body: dict[str, Any] = {"input": items}
    checked_tools = check_tools(tools, drop=drop_unsupported)
    if checked_tools:
        body["tools"] = [tool_definition(tool) for tool in checked_tools]
    return body


def _refuse_misplaced_reasoning(written: list[dict[str, Any]], kept_at: dict[int, int]) -> None:
    refused = rules.misplaced_reasoning(written, kept_at)
    if refused is not None:
        path, why, item_id = refused
        raise (InvalidToolCall if path.startswith("tool_calls") else InvalidMessage)(path, why, item_id)


def plain_item(message: ChatMessage) -> dict[str, Any] | None:
    """The one item of a message that is not the assistant's, its content text, with nothing
    kept: what ``turn_items`` writes (a test holds them to it), made in one step; else None."""
    content = message.content
    if message.provider_data is not EMPTY or type(content) is not str:
        return None
    role = message.role
    if role is TOOL:
        return {"type": "function_call_output", "call_id": message.tool_call_id, "output": content}
    if role is ASSISTANT:
        return None
    return {"type": "message", "role": role._value_, "content": content}


def turn_items(message: ChatMessage) -> tuple[list[dict[str, Any]], dict[int, int]]:
    """The items ``message`` is written as, and for each kept item among them (by ``id()``) its
    number in ``provider_data.responses.items``. The rules judge these (``check_transcript`` too).

    Raises:
        MessageError: its kept data is malformed (the path is in the message).
    """
    if message.role is TOOL:
        return [_output(message)], _NONE_KEPT
    if message.role is ASSISTANT:
        plain = plain_turn(message)
        if plain is not None:
            return plain, _NONE_KEPT
    replay = replay_of(
        message.provider_data,
        _PROVIDER,
        InvalidMessage,
        keys=MESSAGE_KEYS,
        items=message.role is ASSISTANT,
    )
    keys = replay.keys
    if message.role is not ASSISTANT:
        return [_with_keys(_message(message, "input_text", False), keys)], _NONE_KEPT
    written: list[dict[str, Any]] = []
    # No empty message item beside calls or kept items (a refusal kept whole): it would read back as text.
    if message.content or keys or not (message.tool_calls or replay.items):
        written.append(_with_keys(_message(message, "output_text", "id" in keys), keys))
    for position, call in enumerate(message.tool_calls or ()):
        item = _call_item(call)
        if call.provider_data is not EMPTY:
            # Its fc_ id and status, as a response's call has them: taken as they are, or checked.
            call_keys = kept_text_keys(call.provider_data, _PROVIDER, CALL_KEYS)
            if call_keys is None:
                try:
                    call_keys = replay_of(call.provider_data, _PROVIDER, InvalidToolCall, keys=CALL_KEYS).keys
                except MessageError as error:
                    raise error.with_prefix(f"tool_calls[{position}]") from None
            item.update(call_keys)
        written.append(item)
    if not replay.items:
        return written, _NONE_KEPT
    return placed(replay, written), {id(item): number for number, (_, item) in enumerate(replay.items)}


_NONE_KEPT: dict[int, int] = {}  # read only


def _call_item(call: ToolCall) -> dict[str, Any]:
    """A call's ``function_call`` item, before the keys it kept (its ``fc_`` id and status)."""
    return {"type": "function_call", "call_id": call.id, "name": call.name, "arguments": call.arguments_json}


def plain_turn(message: ChatMessage) -> list[dict[str, Any]] | None:
    """The items of an assistant turn whose content is text and that keeps nothing but text
    keys (its ``msg_`` id and status, its calls' ``fc_`` ids and statuses), made without a
    ``Replay``: what the rest of ``turn_items`` writes (a test holds them to it); else None.
    Most turns a loop sends back are these."""
    content = message.content
    if type(content) is not str:
        return None
    keys = kept_text_keys(message.provider_data, _PROVIDER, MESSAGE_KEYS)
    if keys is None:
        return None
    calls = message.tool_calls
    written: list[dict[str, Any]] = []
    if content or keys or not calls:  # as turn_items says
        written.append(_with_keys(_message(message, "output_text", "id" in keys), keys))
    for call in calls or ():
        item = _call_item(call)
        if call.provider_data is not EMPTY:
            call_keys = kept_text_keys(call.provider_data, _PROVIDER, CALL_KEYS)
            if call_keys is None:
                return None
            item.update(call_keys)
        written.append(item)
    return written


#: What parts two assistant turns in a row whose items would read back as one turn: an
#: assistant message that says nothing (``read.empty_message``), read as no item of either.
_PARTING = {"type": "message", "role": "assistant", "content": ""}


def _modelled_message(item: dict[str, Any], kept_at: dict[int, int]) -> bool:
    """Whether ``item`` is the message item written from the turn's content (not one kept whole)."""
    return item.get("type") == "message" and id(item) not in kept_at


def _starts_a_turn(written: list[dict[str, Any]], kept_at: dict[int, int], after_opened: bool) -> bool:
    """Whether an assistant turn's items, right after another assistant turn's, read back as a
    turn of their own: after any reasoning items, they start with a message that says nothing,
    or with the turn's own message when it has no id and the turn before opened on reading."""
    # Reasoning items before the turn's message go with it on reading (read.trailing_reasoning).
    # (A turn of reasoning items alone is refused before this is asked.)
    first = next((item for item in written if item.get("type") != "reasoning"), _PARTING)
    if first == _PARTING:
        return True
    return after_opened and _modelled_message(first, kept_at) and "id" not in first


def _with_keys(item: dict[str, Any], keys: Mapping[str, Any]) -> dict[str, Any]:
    """``item`` (made here) with the kept keys after its own, as the native item had them."""
    if keys:
        item.update(keys)
    return item


def _message(message: ChatMessage, text_type: str, output_shape: bool) -> dict[str, Any]:
    """A message item; the text of a replayed assistant message (one with its ``msg_...`` id)
    has the shape of the response's output item: one ``output_text`` with no ``annotations``.
    Text parts are written as they were read, each with its kept keys."""
    content = message.content
    if type(content) is str:
        if not output_shape:
            return {"type": "message", "role": message.role.value, "content": content}
        return {
            "type": "message",
            "role": message.role.value,
            "content": [{"type": "output_text", "text": content, "annotations": []}],
        }
    parts = [write_part(part, text_type) for part in _parts(content)]
    return {"type": "message", "role": message.role.value, "content": parts}


def _parts(content: object) -> tuple[ContentPart, ...]:
    assert type(content) is tuple
    return content


def _output(message: ChatMessage) -> dict[str, Any]:
    assert message.tool_call_id is not None  # the model requires it on a tool message
    replay = replay_of(message.provider_data, _PROVIDER, InvalidMessage, keys=OUTPUT_KEYS)
    content = message.content
    output: object = (
        content if type(content) is str else [write_part(part, "input_text") for part in _parts(content)]
    )
    item = {"type": "function_call_output", "call_id": message.tool_call_id, "output": output}
    return {**item, **replay.keys} if replay.keys else item
