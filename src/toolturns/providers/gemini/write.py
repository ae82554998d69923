"""Gemini generateContent, writing: ChatMessages as ``systemInstruction``, ``contents`` and ``tools``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..._content import ContentPart, TextPart
from ..._errors import InvalidMessage, InvalidToolCall, MessageError, describe
from ..._json import exact_object
from ..._message import SYSTEM_ROLES, TOOL, USER, ChatMessage
from ..._tool import Tool
from ..._tool_call import ToolCall
from .._native import Replay, placed, replay_of
from .._shared import (
    arguments_for_object_wire,
    at,
    check_messages,
    check_tools,
    refuse_unsupported,
)
from . import rules
from .media import system_text, write_media, write_text
from .parts import CALL, RESPONSE, answer_text
from .tools import tool_definition

_PROVIDER = "gemini"

# The provider's words, from its rules: each refusal below is a Gemini 400.
_COUNT_400 = f"Gemini answers 400: {rules.RESULT_COUNT.says!r}"
_ORDER_400 = f"Gemini answers 400: {rules.CALL_TURN_ORDER.says!r}"

# The part keys toolturns writes itself, in both spellings the API reads: a
# kept key may not add a second function object to the part.
_CALL_PART_KEYS = frozenset({"functionCall", "function_call"})
_RESPONSE_PART_KEYS = frozenset({"functionResponse", "function_response"})


# A functionResponse.response that reads back as something other than the
# object itself: {"result": x} is a plain result, {"error": x} a failure.
_WRAPPERS = frozenset({"result", "error"})


# -- writing ----------------------------------------------------------------------------


def to_request(
    messages: Sequence[ChatMessage],
    *,
    tools: Sequence[Tool] | None = None,
    keep_invalid_arguments: bool = False,
    drop_unsupported: bool = False,
) -> dict[str, Any]:
    """The message part of a generateContent request body.

    System and developer messages become the parts of ``systemInstruction``,
    assistant turns ``model`` contents, tool results ``functionResponse``
    parts of one ``user`` content per tool-call turn, in the order of the calls.

    Args:
        messages: The conversation.
        tools: Tools the model may call, sent as one ``functionDeclarations`` entry.
        keep_invalid_arguments: Send arguments that are not a JSON object
            wrapped as ``{"_toolturns_raw_arguments": text}`` instead of raising.
        drop_unsupported: Leave out what this wire cannot carry (a message's
            ``name`` or ``extra`` keys, a call's ``extra``, a tool's
            ``strict`` or ``extra``) instead of refusing
            it; ``providers.unsupported`` lists what would go.

    Returns:
        ``{"systemInstruction"?, "contents", "tools"?}`` (camelCase, as the
        REST API documents); merge it with the generation config.

    Raises:
        InvalidMessage: a tool result answers no earlier call, the results
            after a tool-call turn do not answer each of its calls exactly
            once, or a tool-call turn does not follow a user turn or results
            (each a Gemini 400); the path names the message. A content part
            Gemini cannot carry in its role (``rules.check_part``: an image
            in the system instruction, a GIF, an OpenAI file id), at
            ``messages[i].content[j]``, whatever ``drop_unsupported`` says.
        InvalidArguments: a call's arguments are not a JSON object.

    >>> from toolturns import ChatMessage, ToolCall
    >>> turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_time")])
    >>> to_request([ChatMessage.user("Time?"), turn])["contents"][1]
    {'role': 'model', 'parts': [{'functionCall': {'name': 'get_time', 'args': {}, 'id': 'call_1'}}]}
    """
    checked = check_messages(messages)
    refuse_unsupported(checked, rules.CARRIES, _PROVIDER, drop=drop_unsupported)
    checked_tools = check_tools(tools, _PROVIDER, drop=drop_unsupported)
    writer = _Writer(keep_invalid=keep_invalid_arguments)
    for index, message in enumerate(checked):
        writer.add(index, message)
    writer.close_turn(at_end=True)
    body: dict[str, Any] = {}
    if writer.system:
        body["systemInstruction"] = {"parts": writer.system}
    body["contents"] = writer.contents
    if checked_tools:
        body["tools"] = [{"functionDeclarations": [tool_definition(tool) for tool in checked_tools]}]
    return body


@dataclass
class _Turn:
    """A tool-call turn whose results are being collected."""

    index: int
    calls: tuple[ToolCall, ...]
    ids: set[str]  # of its calls: a result finds its call in constant time, however many there are
    answers: dict[str, tuple[int, ChatMessage]] = field(default_factory=dict)


@dataclass
class _Writer:
    """Builds ``systemInstruction`` parts and ``contents`` one message at a time."""

    keep_invalid: bool
    system: list[dict[str, Any]] = field(default_factory=list)
    contents: list[dict[str, Any]] = field(default_factory=list)
    call_ids: set[str] = field(default_factory=set)  # of every call so far
    turn: _Turn | None = None

    def add(self, index: int, message: ChatMessage) -> None:
        if message.role is TOOL:
            self.add_result(index, message)
            return
        self.close_turn(at_end=False)
        if message.role in SYSTEM_ROLES or message.role is USER:
            # Reading keeps nothing of a system or user message itself (its parts keep their own).
            with at(f"messages[{index}]"):
                replay_of(message.provider_data, _PROVIDER, InvalidMessage)
        content = message.content
        if message.role in SYSTEM_ROLES:
            # Gemini has one system channel, outside the contents.
            if isinstance(content, str):
                self.system.append({"text": content})
            else:
                self.system.extend(_parts(f"messages[{index}].content", content, system_text))
        elif message.role is USER:
            self.add_user(index, content)
        else:
            self.add_model(index, message)

    def add_user(self, index: int, content: str | tuple[ContentPart, ...]) -> None:
        # A user turn right after a user content (the results of a tool-call
        # turn, or another user message) joins it: Gemini turns alternate, and
        # reading splits plain text parts into the same messages again.
        parts = (
            [{"text": content}]
            if isinstance(content, str)
            else _parts(f"messages[{index}].content", content, _user_part)
        )
        if self.contents and self.contents[-1]["role"] == "user":
            self.contents[-1]["parts"].extend(parts)
        else:
            self.contents.append({"role": "user", "parts": parts})

    def add_model(self, index: int, message: ChatMessage) -> None:
        calls = message.tool_calls or ()
        if calls and (not self.contents or self.contents[-1]["role"] != "user"):
            raise InvalidMessage(
                f"messages[{index}]",
                f"must follow a user turn or tool results to carry tool calls ({_ORDER_400})",
                "a tool-call turn after an assistant turn" if self.contents else "a first tool-call turn",
            )
        call_parts = [self.call_part(index, position, call) for position, call in enumerate(calls)]
        self.contents.append({"role": "model", "parts": _model_parts(index, message, call_parts)})
        self.call_ids.update(call.id for call in calls)
        if calls:
            self.turn = _Turn(index, calls, {call.id for call in calls})

    def call_part(self, index: int, position: int, call: ToolCall) -> dict[str, Any]:
        with at(f"messages[{index}].tool_calls[{position}]"):
            args = arguments_for_object_wire(call, provider=_PROVIDER, keep_invalid=self.keep_invalid)
            replay = _call_replay(call)
        function: dict[str, Any] = {"name": call.name, "args": args}
        if not replay.generated_id:  # a made-up id was never Gemini's
            function["id"] = call.id
        return _part("functionCall", function, replay)

    def add_result(self, index: int, message: ChatMessage) -> None:
        call_id = message.tool_call_id
        assert call_id is not None  # a tool message always has one
        turn = self.turn
        where = f"messages[{index}].tool_call_id"
        if turn is None or call_id not in turn.ids:
            if call_id not in self.call_ids:
                raise InvalidMessage(
                    where,
                    "must be the id of a call of an earlier assistant turn "
                    "(Gemini's functionResponse names the function that call named)",
                    describe(call_id),
                )
            raise InvalidMessage(
                where,
                "must answer a call of the tool-call turn it follows: Gemini answers each "
                "function call turn in the content right after it",
                describe(call_id),
            )
        earlier = turn.answers.get(call_id)
        if earlier is not None:
            raise InvalidMessage(
                where,
                f"must answer each call once (messages[{earlier[0]}] answers it already; {_COUNT_400})",
                describe(call_id),
            )
        turn.answers[call_id] = (index, message)

    def close_turn(self, *, at_end: bool) -> None:
        turn, self.turn = self.turn, None
        if turn is None or (at_end and not turn.answers):
            # A transcript may end on a tool-call turn: the tools are about to run.
            return
        for position, call in enumerate(turn.calls):
            if call.id not in turn.answers:
                raise InvalidMessage(
                    f"messages[{turn.index}].tool_calls[{position}]",
                    f"must be answered by a tool result before the next turn ({_COUNT_400})",
                    describe(call.id),
                )
        # One user content, one part per call, in the order of the calls.
        parts = [_response_part(*turn.answers[call.id], call) for call in turn.calls]
        self.contents.append({"role": "user", "parts": parts})


def _call_replay(call: ToolCall) -> Replay:
    return replay_of(
        call.provider_data,
        _PROVIDER,
        InvalidToolCall,
        keys=_CALL_PART_KEYS,
        nested={"functionCall": CALL},
        generated_id=True,
    )


def _response_part(index: int, message: ChatMessage, call: ToolCall) -> dict[str, Any]:
    with at(f"messages[{index}]"):
        replay = replay_of(
            message.provider_data,
            _PROVIDER,
            InvalidMessage,
            keys=_RESPONSE_PART_KEYS,
            nested={"functionResponse": RESPONSE},
        )
    response = {"error": message.text} if message.is_error else _response_object(message.text)
    function: dict[str, Any] = {"name": call.name, "response": response}
    content = message.content
    if type(content) is tuple:
        # The text is in response; the images and documents go in parts
        # (Gemini 3's multimodal function responses), in their order.
        media = _result_media(index, content)
        if media:
            function["parts"] = media
    # The call's provider_data was checked when its turn was written.
    if not _call_replay(call).generated_id:
        function["id"] = call.id
    return _part("functionResponse", function, replay)


def _response_object(text: str) -> dict[str, Any]:
    """``functionResponse.response`` for a result text: the object it spells, or ``{"result": text}``."""
    value = exact_object(text)
    # An object that would read back as a wrapper ({"result": x}) goes wrapped
    # itself, so that its text reads back unchanged.
    if value is None or (len(value) == 1 and next(iter(value)) in _WRAPPERS):
        return {"result": text}
    return value


def _model_parts(index: int, message: ChatMessage, call_parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The parts of a model content: the kept layout, or text then calls."""
    with at(f"messages[{index}]"):
        replay = replay_of(message.provider_data, _PROVIDER, InvalidMessage, items=True)
        content = message.content
        if not replay.items:
            if isinstance(content, str):
                parts = [{"text": content}] if content else []
            else:
                parts = _parts("content", content, write_text)
            parts += call_parts
            # Gemini wants at least one part; an empty turn says "".
            return parts or [{"text": ""}]
        # The parts read from Gemini go back as they were, the calls in the places left.
        parts = placed(replay, call_parts)
        text = "".join(answer_text(part) or "" for _, part in replay.items)
        if text != message.text:
            raise InvalidMessage(
                "content",
                f"must be the text of the parts kept in provider_data['gemini'] ({text[:30]!r}...): "
                "drop provider_data['gemini'] to send other text",
                describe(message.content),
            )
        if type(content) is tuple:
            # The kept parts hold the text: a text part's own kept keys would go nowhere.
            position = 0
            try:  # one handler for the loop: a context per item costs more than most items
                for position, part in enumerate(content):  # noqa: B007 (the handler names it)
                    replay_of(part.provider_data, _PROVIDER, InvalidMessage)
            except MessageError as error:
                raise error.with_prefix(f"content[{position}]") from None
        return parts


def _parts(
    where: str, content: tuple[ContentPart, ...], write: Callable[[Any], dict[str, Any]]
) -> list[dict[str, Any]]:
    """The content's parts written by ``write``, an error naming the part (``messages[i].content[j]``)."""
    written = []
    position = 0
    try:  # one handler for the loop: a context per item costs more than most items
        for position, part in enumerate(content):  # noqa: B007 (the handler names it)
            written.append(write(part))
    except MessageError as error:
        raise error.with_prefix(f"{where}[{position}]") from None
    return written


def _user_part(part: ContentPart) -> dict[str, Any]:
    return write_text(part) if isinstance(part, TextPart) else write_media(part)


def _result_media(index: int, content: tuple[ContentPart, ...]) -> list[dict[str, Any]]:
    """A tool result's images and documents, as its function response's ``parts``."""
    media = []
    position = 0
    try:  # one handler for the loop: a context per item costs more than most items
        for position, part in enumerate(content):  # noqa: B007 (the handler names it)
            if isinstance(part, TextPart):
                # Its text is in response: kept keys of it would have no part to go on.
                replay_of(part.provider_data, _PROVIDER, InvalidMessage)
            else:
                media.append(write_media(part))
    except MessageError as error:
        raise error.with_prefix(f"messages[{index}].content[{position}]") from None
    return media


def _part(key: str, function: dict[str, Any], replay: Replay) -> dict[str, Any]:
    """A functionCall/functionResponse part with the keys kept from the part it was read from."""
    function.update(replay.nested_keys(key))
    # thoughtSignature above all: Gemini 3 rejects a call turn without it.
    return {key: function, **replay.keys}
