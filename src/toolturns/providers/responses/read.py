"""OpenAI Responses, reading: the ``input`` items of a request and the ``output`` of a response."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..._arguments import text_arguments
from ..._content import ContentPart
from ..._errors import InvalidMessage, InvalidToolCall, MessageError, describe
from ..._extra import EMPTY, carries_nothing
from ..._message import ASSISTANT, DEVELOPER, SYSTEM, TOOL, USER, ChatMessage, _plain, unique_ids
from ..._sdk import dumped
from ..._tool_call import ToolCall, _checked
from .._native import kept, kept_unmodelled, unmodelled
from .parts import read_part
from .write import CALL_KEYS, MESSAGE_KEYS, OUTPUT_KEYS

__all__ = ["finish_reason", "from_request", "from_response", "plain_input", "plain_message"]

_PROVIDER = "responses"
_INPUT_ROLES = {"system": SYSTEM, "developer": DEVELOPER, "user": USER}


def from_request(body: object) -> list[ChatMessage]:
    """The messages of a stored request body: ``{"input": [...]}``, a bare item list, or a string.

    A top-level ``instructions`` string reads as a system message before the
    items. An assistant turn is an assistant ``message`` item and the
    ``function_call`` items after it; any other item (``reasoning``, a
    built-in tool call) is kept in the turn it stands in (a reasoning item
    right before an assistant message starts that message's turn: it needs
    an item after it). Items the server keeps (``previous_response_id``,
    ``item_reference``) are not in the body: toolturns cannot know them.

    Raises:
        MessageError: the path names the item (``input[3].call_id``).

    >>> [(m.role.value, m.text) for m in from_request({"instructions": "Be brief.", "input": "Hi"})]
    [('system', 'Be brief.'), ('user', 'Hi')]
    """
    body = dumped(body)
    messages: list[ChatMessage] = []
    if isinstance(body, Mapping):
        instructions = body.get("instructions")
        if instructions is not None:
            if not isinstance(instructions, str):
                raise InvalidMessage("instructions", "must be a string", describe(instructions))
            messages.append(ChatMessage.system(instructions))
        items = body.get("input")
    else:
        items = body
    if isinstance(items, str):
        return [*messages, ChatMessage.user(items)]
    if not isinstance(items, (list, tuple)):
        raise InvalidMessage("input", "must be a string or an array of items", describe(items))
    return messages + _read_items(items)


def from_response(body: object) -> ChatMessage:
    """The assistant turn of a ``response`` object: every item of its ``output``.

    The first ``message`` item's text is the turn's content (one string when
    it is one ``output_text`` with no annotations, else text parts that keep
    their annotations); each ``function_call`` a ``ToolCall`` (``call_id`` is
    its id; the item's ``id`` and ``status`` are kept); every other item
    (``reasoning`` with its ``summary`` and ``encrypted_content``, built-in
    tool calls, a message with a ``refusal``) is kept whole where it stood,
    and ``to_request`` sends it back to this wire only.

    A failed response (``status: "failed"``) has no turn: it raises at
    ``error``, saying what the provider said.

    Raises:
        MessageError: the path names the place (``output[1].call_id``).

    >>> turn = from_response({"object": "response", "status": "completed", "output": [
    ...     {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_time",
    ...      "arguments": "{}", "status": "completed"}]})
    >>> turn.tool_calls[0].id, turn.tool_calls[0].provider_data["responses"]["keys"]["id"]
    ('call_1', 'fc_1')
    """
    if type(body) is not dict:
        body = dumped(body)
    if not isinstance(body, Mapping):
        raise InvalidMessage("", "must be a response object", describe(body))
    if body.get("status") == "failed":
        raise InvalidMessage(
            "error", "says the response failed: it has no turn to read", _said(body.get("error"))
        )
    output = body.get("output")
    if not isinstance(output, (list, tuple)):
        raise InvalidMessage("output", "must be an array of output items", describe(output))
    turn = _Turn()
    number = 0
    try:  # one handler for the loop, not a context per item
        for number, raw in enumerate(output):  # noqa: B007 (the handler names the item)
            item = _item(raw)
            kind = item.get("type")
            if not isinstance(kind, str):  # an input item may leave it out; an output item has it
                raise InvalidMessage("type", "must be an item type (a string)", describe(kind))
            if kind == "message":
                if (
                    turn.holds_anything()
                    and not has_id(item)
                    and not (turn.content is None and plain_message(item))
                ):
                    # Kept whole after the turn's text or calls, it is told from the next turn's
                    # message by its id when it is sent back (from_request).
                    raise InvalidMessage(
                        "id", "must be the id of a message that follows the turn's text or calls"
                    )
                turn.message_item(item)
            elif kind == "function_call":
                turn.call(item)
            elif kind == "function_call_output":  # the caller's input, never the model's output
                raise InvalidMessage(
                    "type", "must be an output item (a function_call_output is an input)", repr(kind)
                )
            else:
                turn.keep(item)
    except MessageError as error:
        raise error.with_prefix(f"output[{number}]") from None
    return turn.close()


def _said(error: object) -> str:
    """What a failed response's ``error`` says: ``code: message``, else the value described."""
    error = dumped(error)
    if isinstance(error, Mapping) and isinstance(error.get("message"), str):
        code = error.get("code")
        return f"{code}: {error['message']}" if isinstance(code, str) else str(error["message"])
    return describe(error)


def finish_reason(body: object) -> str | None:
    """Why the response ended, in the wire's words: its ``status`` (``completed``,
    ``failed``, ``cancelled``, ``in_progress``), or for an ``incomplete`` one its
    ``incomplete_details.reason`` (``max_output_tokens``, ``content_filter``).

    >>> finish_reason({"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}})
    'max_output_tokens'
    """
    body = dumped(body)
    if not isinstance(body, Mapping):
        raise InvalidMessage("", "must be a response object", describe(body))
    status = body.get("status")
    details = dumped(body.get("incomplete_details"))
    if status == "incomplete" and isinstance(details, Mapping) and isinstance(details.get("reason"), str):
        return str(details["reason"])
    if status is not None and not isinstance(status, str):
        raise InvalidMessage("status", "must be a string", describe(status))
    return status


# -- items --------------------------------------------------------------------------------


def _item(value: object) -> dict[str, Any]:
    if type(value) is not dict:  # an SDK object, or another mapping: read as the dict it stands for
        value = dumped(value)
        if not isinstance(value, Mapping):
            raise InvalidMessage("", "must be an item object", describe(value))
        value = dict(value)
    item: dict[str, Any] = value  # the caller's own dict: read, never changed (copied before an edit)
    kind = item.get("type")
    if kind == "function_call":
        if _PARSED_ARGUMENTS in item:
            item = {key: value for key, value in item.items() if key != _PARSED_ARGUMENTS}
    elif kind == "message" and type(content := item.get("content")) is list and _any_parsed(content):
        item = {**item, "content": [_unparsed(part) for part in content]}
    return item


def _any_parsed(content: list[Any]) -> bool:
    for part in content:  # noqa: SIM110 (a loop costs less than any(): it runs for every message read)
        if (type(part) is dict or isinstance(part, Mapping)) and _PARSED in part:
            return True
    return False


# The openai SDK's parse() and stream() helpers give a ParsedResponse, which adds what the
# response did not say: ``parsed`` on each output_text (its text decoded into the caller's type)
# and ``parsed_arguments`` on each function call (its arguments decoded). Copies of what the
# item says, read and never sent: OpenAI refuses them ("Unknown parameter: '...'.").
_PARSED = "parsed"
_PARSED_ARGUMENTS = "parsed_arguments"


def _unparsed(part: object) -> object:
    part = dumped(part)
    if isinstance(part, Mapping) and part.get("type") == "output_text" and _PARSED in part:
        return {key: value for key, value in part.items() if key != _PARSED}
    return part


def has_id(item: Mapping[str, Any]) -> bool:
    """Whether an item has its id (``msg_...``): a response's item, replayed as it came."""
    item_id = item.get("id")
    return isinstance(item_id, str) and bool(item_id)


def empty_message(item: Mapping[str, Any]) -> bool:
    """An assistant message item that says nothing: no text, no parts, no key beyond its role
    (no id: it is no response's item). ``to_request`` writes one between two assistant turns."""
    content = item.get("content")
    return (content == "" or content == []) and all(
        key in MESSAGE_KEYS or carries_nothing(value) for key, value in item.items()
    )


def plain_message(item: Mapping[str, Any]) -> bool:
    """A message item the model holds: an assistant's, its content text only (not a ``refusal``)."""
    if item.get("role") != "assistant":
        return False
    content = item.get("content")
    if isinstance(content, str):
        return True
    if not isinstance(content, (list, tuple)):
        return False
    for part in content:  # a loop, not all(): it runs for every assistant message read
        if not (type(part) is dict or isinstance(part, Mapping)) or part.get("type") != "output_text":
            return False
    return True


class _Turn:
    """An assistant turn being read: its message item, its calls and the items it keeps."""

    __slots__ = ("calls", "content", "count", "items", "message_keys", "parted")

    def __init__(self, *, parted: bool = False) -> None:
        self.parted = parted  # begun by a message that says nothing: a turn even if nothing follows
        self.content: str | tuple[ContentPart, ...] | None = None
        self.message_keys: dict[str, Any] = {}
        self.calls: list[ToolCall] = []
        self.items: list[tuple[int, Any]] = []
        self.count = 0

    @property
    def opened(self) -> bool:
        """Whether it has a message or a call: another assistant message starts a new turn."""
        return self.content is not None or bool(self.calls)

    def holds_anything(self) -> bool:
        """Whether it has a message, a call or a kept item: a turn to close."""
        return self.content is not None or bool(self.calls) or bool(self.items)

    def message(self, item: Mapping[str, Any]) -> None:
        self.content = _content(item, output_shape="id" in item)
        self.message_keys = unmodelled(item, MESSAGE_KEYS)
        self.count += 1

    def replayed_message(self, item: dict[str, Any], text: str, keys: dict[str, Any]) -> None:
        """``replayed_text``'s item, as ``_read_items`` would take it the general way: a text
        message with its id goes in the turn being read (the first as its message, any other
        kept whole), and opens one when none is; it says something, and never is refused."""
        if self.content is None:
            self.content = text
            self.message_keys = keys
            self.count += 1
        else:
            self.keep(item)

    def follows_message(self) -> bool:
        """Whether the turn's last item is a message item (its own or one kept whole)."""
        if self.items and self.items[-1][0] == self.count - 1:
            return bool(self.items[-1][1].get("type") == "message")
        return self.content is not None and not self.calls and self.count > 0

    def message_item(self, item: Mapping[str, Any], plain: bool | None = None) -> None:
        """The first message item of text is the turn's; any other (a refusal, a second
        message) is kept whole, as the same reading gives it back (``_refuse_unreadable``).
        A message that says nothing (``empty_message``) is no item of the turn. ``plain``:
        what ``plain_message`` says of it, when the caller knows and it says something."""
        if plain is None:
            if empty_message(item):
                return
            plain = plain_message(item)
        if self.content is None and plain:
            self.message(item)
        else:
            _refuse_unreadable(item)
            self.keep(item)

    def call(self, item: Mapping[str, Any]) -> None:
        self.calls.append(_call(item))
        self.count += 1

    def keep(self, item: Mapping[str, Any]) -> None:
        unmodelled(item, frozenset())  # checked as JSON, with its path
        self.items.append((self.count, item))
        self.count += 1

    def trailing_reasoning(self) -> list[Mapping[str, Any]]:
        """The reasoning items after the last modelled item: they belong to the next turn."""
        moved: list[Mapping[str, Any]] = []
        while (
            self.items
            and self.items[-1][0] == self.count - 1
            and self.items[-1][1].get("type") == "reasoning"
        ):
            moved.insert(0, self.items.pop()[1])
            self.count -= 1
        return moved

    def close(self) -> ChatMessage:
        provider_data = kept(_PROVIDER, keys=self.message_keys, items=self.items)
        content = "" if self.content is None else self.content
        calls = self.calls
        if type(content) is str and unique_ids(calls):  # nothing left to check: built at once
            return _plain(
                ASSISTANT,
                content,
                None,
                tuple(calls) or None,
                EMPTY if provider_data is None else provider_data,
            )
        return ChatMessage(ASSISTANT, content, tool_calls=calls or None, provider_data=provider_data)


def _read_items(items: list[Any] | tuple[Any, ...]) -> list[ChatMessage]:
    messages: list[ChatMessage] = []
    turn: _Turn | None = None
    number = 0
    try:  # one handler for the loop, not a context per item: a request holds hundreds
        for number, raw in enumerate(items):  # noqa: B007 (the handler names the item)
            read_at_once = plain_input(raw)
            if read_at_once is not None:  # most items: what the general way below gives, in one step
                if turn is not None:
                    messages.append(turn.close())
                    turn = None
                messages.append(read_at_once)
                continue
            said = replayed_text(raw)
            if said is not None:  # a response's message, replayed: its text and its kept keys
                if turn is None:
                    turn = _Turn()
                turn.replayed_message(raw, *said)
                continue
            item = _item(raw)
            kind = item.get("type", "message" if "role" in item else None)
            if kind == "message" and item.get("role") == "assistant":
                if empty_message(item):
                    # Nothing said: it starts an assistant turn, which is an empty one if nothing
                    # follows in it (to_request writes one between two turns that would read as
                    # one), and counts in no kept item's position.
                    carried = turn.trailing_reasoning() if turn is not None else []
                    if turn is not None and (turn.holds_anything() or turn.parted):
                        messages.append(turn.close())
                    turn = _Turn(parted=True)
                    for kept_item in carried:
                        turn.keep(kept_item)
                    continue
                plain = plain_message(item)
                if turn is not None and (
                    (turn.follows_message() and not plain) or (has_id(item) and turn.holds_anything())
                ):
                    # A refusal right after the turn's message, or a further message of a response
                    # (it has its id): kept in that turn, as from_response read it.
                    turn.message_item(item, plain)
                    continue
                carried = []
                if turn is not None and turn.opened:
                    carried = turn.trailing_reasoning()
                    messages.append(turn.close())
                    turn = None
                if turn is None:
                    turn = _Turn()
                    for kept_item in carried:
                        turn.keep(kept_item)
                turn.message_item(item, plain)
            elif kind in ("message", "function_call_output"):
                if turn is not None:
                    messages.append(turn.close())
                    turn = None
                messages.append(_input_message(item) if kind == "message" else _output(item))
            else:
                if turn is None:
                    turn = _Turn()
                if kind == "function_call":
                    turn.call(item)
                elif isinstance(kind, str):
                    turn.keep(item)
                else:
                    raise InvalidMessage("type", "must be an item type (a string)", describe(kind))
    except MessageError as error:
        raise error.with_prefix(f"input[{number}]") from None
    if turn is not None and (turn.holds_anything() or turn.parted):
        messages.append(turn.close())
    return messages


def plain_input(raw: object) -> ChatMessage | None:
    """The message of an input item with no key beyond those the codec writes, its text a
    string: ``{"type": "message", "role": "user", "content": "..."}`` (or a system or developer
    one) and ``{"type": "function_call_output", "call_id": "...", "output": "..."}``; else None,
    and the item is read the general way, which gives the same message (a test holds them
    to it). Three keys, each found with a value of its type, are the only keys."""
    if type(raw) is not dict or len(raw) != 3:
        return None
    kind = raw.get("type")
    if kind == "message":
        given, content = raw.get("role"), raw.get("content")
        role = _INPUT_ROLES.get(given) if type(given) is str else None
        if role is not None and type(content) is str:
            return _plain(role, content)
    elif kind == "function_call_output":
        call_id, output = raw.get("call_id"), raw.get("output")
        if type(call_id) is str and call_id and type(output) is str:
            return _plain(TOOL, output, call_id)
    return None


def replayed_text(raw: object) -> tuple[str, dict[str, Any]] | None:
    """The text and kept keys (its ``msg_`` id and status) of an assistant message item as a
    response gives it and a client replays it: five keys, its content one ``output_text``
    with no ``annotations``, its id and status text; else None, and the item is read the
    general way, which gives the same turn (a test holds them to it).

    ``{"type": "message", "role": "assistant", "id": "msg_...", "status": "completed",
    "content": [{"type": "output_text", "text": "...", "annotations": []}]}``
    """
    if (
        type(raw) is not dict
        or len(raw) != 5
        or raw.get("type") != "message"
        or raw.get("role") != "assistant"
    ):
        return None
    content, item_id, status = raw.get("content"), raw.get("id"), raw.get("status")
    if type(content) is not list or len(content) != 1 or type(item_id) is not str or type(status) is not str:
        return None
    part = content[0]
    if type(part) is not dict or len(part) != 3 or part.get("type") != "output_text":
        return None
    text = part.get("text")
    if type(text) is not str or part.get("annotations") != [] or not item_id or not status:
        return None
    # In the item's own order, as the general way keeps them and the writer sends them back.
    return text, {key: value for key, value in raw.items() if key == "id" or key == "status"}


def _refuse_unreadable(item: Mapping[str, Any]) -> None:
    """A message item of a response kept whole must read back when it is replayed: an
    assistant message whose parts are ``output_text`` or ``refusal``, each with its text."""
    if item.get("role") != "assistant":
        raise InvalidMessage("role", "must be 'assistant' in a response", describe(item.get("role")))
    content = dumped(item.get("content"))
    if isinstance(content, str):
        return
    if not isinstance(content, (list, tuple)):
        raise InvalidMessage("content", "must be a string or an array of content parts", describe(content))
    for number, part in enumerate(content):
        part = dumped(part)
        if not isinstance(part, Mapping):
            raise InvalidMessage(f"content[{number}]", "must be a content part object", describe(part))
        kind = part.get("type")
        key = {"output_text": "text", "refusal": "refusal"}.get(kind) if isinstance(kind, str) else None
        if key is None:
            raise InvalidMessage(
                f"content[{number}].type", "must be 'output_text' or 'refusal'", describe(kind)
            )
        if not isinstance(part.get(key), str):
            raise InvalidMessage(f"content[{number}].{key}", "must be a string", describe(part.get(key)))


def _content(item: Mapping[str, Any], *, output_shape: bool) -> str | tuple[ContentPart, ...]:
    content = item.get("content")
    if isinstance(content, str):
        return content
    if type(content) is not list:
        content = dumped(content)
    if not isinstance(content, (list, tuple)):
        raise InvalidMessage("content", "must be a string or an array of content parts", describe(content))
    if not content:
        return ""  # no parts: no text (a message holds no empty tuple of parts)
    if output_shape and len(content) == 1 and _plain_text(content[0]):
        return str(content[0]["text"])  # the response's one output_text, with no annotations: the turn's text
    return tuple(read_part(part, f"content[{number}]") for number, part in enumerate(content))


def _plain_text(part: object) -> bool:
    """An ``output_text`` as a response has it when it holds text only: ``annotations: []``
    (and empty or no ``logprobs``, which carry nothing)."""
    if not (
        (type(part) is dict or isinstance(part, Mapping))
        and part.get("type") == "output_text"
        and isinstance(part.get("text"), str)
        and part.get("annotations") == []
    ):
        return False
    if len(part) == 3:  # the three keys just read, and no other
        return True
    for key, value in part.items():  # a loop, not all(): the API's parts have logprobs: []
        if key not in _PLAIN_TEXT_KEYS and not carries_nothing(value):
            return False
    return True


_PLAIN_TEXT_KEYS = frozenset({"type", "text", "annotations"})


def _input_message(item: Mapping[str, Any]) -> ChatMessage:
    given = item.get("role")
    role = _INPUT_ROLES.get(given) if isinstance(given, str) else None
    if role is None:
        raise InvalidMessage(
            "role", "must be 'system', 'developer', 'user' or 'assistant'", describe(item.get("role"))
        )
    return ChatMessage(
        role,
        _content(item, output_shape=False),
        provider_data=kept_unmodelled(_PROVIDER, item, MESSAGE_KEYS),
    )


def _call(item: Mapping[str, Any]) -> ToolCall:
    call_id, name, arguments = item.get("call_id"), item.get("name"), item.get("arguments", "")
    if type(call_id) is str and call_id and type(name) is str and name and type(arguments) is str:
        # Nothing left to check but the kept keys: built at once.
        provider_data = kept_unmodelled(_PROVIDER, item, CALL_KEYS, error=InvalidToolCall)
        arguments_json = text_arguments(arguments)
        return _checked(
            call_id, name, arguments_json, EMPTY, EMPTY if provider_data is None else provider_data
        )
    if not isinstance(call_id, str):
        raise InvalidToolCall("call_id", "must be a string", describe(call_id))
    if not isinstance(name, str):
        raise InvalidToolCall("name", "must be a string", describe(name))
    if not isinstance(arguments, str):
        raise InvalidToolCall(
            "arguments", "must be a string (the arguments as JSON text)", describe(arguments)
        )
    provider_data = kept_unmodelled(_PROVIDER, item, CALL_KEYS, error=InvalidToolCall)
    return ToolCall(call_id, name, arguments, provider_data=provider_data)  # it says what is wrong


def _output(item: Mapping[str, Any]) -> ChatMessage:
    call_id = item.get("call_id")
    if not isinstance(call_id, str) or not call_id:
        raise InvalidMessage("call_id", "must be a non-empty string", describe(call_id))
    output = item.get("output")
    if isinstance(output, str):
        content: str | tuple[ContentPart, ...] = output
    else:
        output = dumped(output)
        if not isinstance(output, (list, tuple)):
            raise InvalidMessage("output", "must be a string or an array of content parts", describe(output))
        content = (
            ""
            if not output
            else tuple(read_part(part, f"output[{number}]") for number, part in enumerate(output))
        )
    return ChatMessage(
        TOOL,
        content,
        tool_call_id=call_id,
        provider_data=kept_unmodelled(_PROVIDER, item, OUTPUT_KEYS),
    )
