"""Gemini generateContent, reading: request bodies and the assistant turn of a response."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..._content import ContentPart, TextPart
from ..._errors import (
    InvalidMessage,
    InvalidToolCall,
    MessageError,
    describe,
)
from ..._json import encode, join_key
from ..._message import ASSISTANT, TOOL, ChatMessage
from ..._sdk import dumped
from ..._tool_call import ToolCall
from .._native import kept, unmodelled
from .._shared import (
    OpenCalls,
    arguments_text_from_object_wire,
    at,
    generated_id,
)
from .media import read_part
from .parts import CALL, MEDIA, PART, RESPONSE, answer_text, fields, keys_of, parts_of, plain

_PROVIDER = "gemini"


# A functionResponse.response that reads back as something other than the
# object itself: {"result": x} is a plain result, {"error": x} a failure.
_WRAPPERS = frozenset({"result", "error"})


# -- reading ----------------------------------------------------------------------------


def from_request(body: object) -> list[ChatMessage]:
    """Read a stored generateContent request body, or a bare list of contents.

    Accepts field names in camelCase or snake_case (``systemInstruction`` or
    ``system_instruction``, ``functionCall`` or ``function_call``; error paths
    use the camelCase name), google-genai's ``model_dump()`` of its objects in
    python or json mode (a null field is not set; bytes and URL-safe base64
    become standard base64 text; what is kept is in the REST spelling) and a
    single object where a list is expected
    (``contents``, ``parts``), as the REST samples send them. ``inlineData``
    and ``fileData`` parts read as ImagePart, FilePart and AudioPart (a user
    content of plain text parts is one user message per part; any other part
    makes its content one message of parts), and a ``functionResponse``'s
    ``parts`` as the parts of its tool message, after its text. The legacy role
    ``"function"`` is read like ``"user"``. Calls without an id get made-up
    ids; a ``functionResponse`` without id answers the first unanswered call of
    the same name in the model content before it.

    Raises:
        MessageError: the path is the native one (``contents[1].parts[0].functionCall.name``).

    >>> messages = from_request({"contents": [
    ...     {"role": "user", "parts": [{"text": "Time?"}]},
    ...     {"role": "model", "parts": [{"functionCall": {"name": "get_time", "args": {}}}]},
    ...     {"role": "user", "parts": [{"functionResponse": {"name": "get_time",
    ...                                                      "response": {"result": "noon"}}}]}]})
    >>> messages[2].tool_call_id == messages[1].tool_calls[0].id
    True
    >>> messages[2].content
    'noon'
    """
    system, contents = _request_body(body)
    messages: list[ChatMessage] = []
    if system is not None:
        with at("systemInstruction"):
            messages.extend(_system_messages(system))
    reader = Reader()
    index = 0
    try:  # one handler for the loop: a context per item costs more than most items
        for index, content in enumerate(contents):
            messages.extend(reader.content(index, content))
    except MessageError as error:
        raise error.with_prefix(f"contents[{index}]") from None
    return messages


def from_response(body: object, *, choice: int = 0) -> ChatMessage:
    """The assistant turn of a generateContent response: ``candidates[0].content``.

    A bare model content (``{"role": "model", "parts": [...]}``) is read too,
    and either spelling of every field, as ``from_request`` reads them (a
    ``GenerateContentResponse.model_dump()`` of google-genai's, in python or
    json mode).

    Args:
        body: The decoded response body.
        choice: Which candidate to read, for requests with ``candidateCount > 1``
            (the keyword OpenAI's ``from_response`` has for its choices).

    Raises:
        InvalidMessage: no such candidate (a blocked prompt has none), or a
            candidate without content; MessageError for a malformed content.

    >>> turn = from_response({"candidates": [{"content": {"role": "model", "parts": [
    ...     {"functionCall": {"name": "get_time", "args": {}}, "thoughtSignature": "c2ln"}]}}]})
    >>> turn.tool_calls[0].provider_data["gemini"]["keys"]["thoughtSignature"]
    'c2ln'
    """
    body = fields(body, "a generateContent response object")
    if "candidates" not in body and "parts" in body:
        return Reader().model(body, ("content",), response=True)
    candidates = body.get("candidates")
    if (
        type(choice) is not int
        or not isinstance(candidates, (list, tuple))
        or not 0 <= choice < len(candidates)
    ):
        raise InvalidMessage(
            "candidates",
            f"must be an array with a candidate at index {describe(choice)} "
            "(Gemini sends none when it blocks the prompt: see promptFeedback)",
            describe(candidates),
        )
    response_id = body.get("responseId")
    # The response's own id makes the made-up call ids differ between responses.
    seed = ("response", response_id if isinstance(response_id, str) else None, choice)
    with at(f"candidates[{choice}]"):
        item = fields(candidates[choice], "a candidate object")
        content = item.get("content")
        if not isinstance(content, Mapping) and not isinstance(content := dumped(content), Mapping):
            reason = item.get("finishReason")
            reason = plain(reason) if isinstance(reason, str) else reason
            rule = "must be a Content object" if content is not None else "is required"
            raise InvalidMessage(
                "content",
                f"{rule} (a candidate without content ended early: finishReason {describe(reason)})",
                None if content is None else describe(content),
            )
        with at("content"):
            return Reader().model(content, seed, response=True)


def _request_body(body: object) -> tuple[object, Sequence[object]]:
    """The system instruction (or None) and the contents of a request body."""
    body = dumped(body)
    if isinstance(body, (list, tuple)):
        return None, body
    if not isinstance(body, Mapping):
        raise InvalidMessage(
            "", 'must be a request body ({"contents": [...]}) or an array of contents', describe(body)
        )
    body = fields(body, "a request body")
    system = body.get("systemInstruction")
    contents = body.get("contents")
    if isinstance(contents, Mapping):
        contents = [contents]
    if not isinstance(contents, (list, tuple)):
        raise InvalidMessage("contents", "must be an array of contents", describe(contents))
    return system, contents


def _system_messages(value: object) -> list[ChatMessage]:
    content = fields(value, 'a Content object ({"parts": [...]})')
    messages = []
    parts = parts_of(content)
    position = 0
    try:  # one handler for the loop: a context per item costs more than most items
        for position, raw in enumerate(parts):  # noqa: B007 (the handler names it)
            part = fields(raw, "a part object")
            text = part.get("text")
            if not isinstance(text, str) or len(part) != 1:
                raise InvalidMessage(
                    "", "must be a text part: a system instruction is text only", keys_of(part)
                )
            messages.append(ChatMessage.system(text))
    except MessageError as error:
        raise error.with_prefix(f"parts[{position}]") from None
    return messages


@dataclass
class Reader:
    """Reads contents in order, matching responses without id to the calls before them."""

    calls: OpenCalls = field(default_factory=OpenCalls)

    def content(self, index: int, value: object) -> list[ChatMessage]:
        content = fields(value, "a Content object")
        role = content.get("role")
        if role == "model":
            return [self.model(content, ("request", index))]
        # A content without role is the user's (single-turn requests leave it
        # out); "function" is the legacy role of function responses.
        if role is None or role == "user" or role == "function":
            return self.user(content)
        raise InvalidMessage("role", "must be 'user' or 'model' (or the legacy 'function')", describe(role))

    def model(self, value: object, seed: tuple[object, ...], *, response: bool = False) -> ChatMessage:
        content = fields(value, "a Content object")
        role = content.get("role")
        if response and role is not None and role != "model":
            raise InvalidMessage("role", "must be 'model' in a response", describe(role))
        calls: list[ToolCall] = []
        others: list[tuple[int, dict[Any, Any]]] = []  # the parts that are not calls
        texts: list[str] = []
        ids: dict[str, int] = {}
        parts = parts_of(content)
        position = 0
        try:  # one handler for the loop: a context per item costs more than most items
            for position, raw in enumerate(parts):
                part = fields(raw, "a part object", as_is=PART)
                if "functionCall" in part:
                    calls.append(read_call(part, (*seed, position), ids, position))
                    continue
                if "functionResponse" in part:
                    raise InvalidMessage("functionResponse", "belongs in a user content, not a model content")
                if "text" in part and not isinstance(part["text"], str):
                    raise InvalidMessage("text", "must be a string", describe(part["text"]))
                texts.append(answer_text(part) or "")
                others.append((position, part))
        except MessageError as error:
            raise error.with_prefix(f"parts[{position}]") from None
        text = "".join(texts)
        self.calls.open(calls)
        replay = None if _rebuilt(others, text, len(calls)) else kept(_PROVIDER, items=others)
        return ChatMessage(ASSISTANT, text, tool_calls=calls or None, provider_data=replay)

    def user(self, content: Mapping[Any, Any]) -> list[ChatMessage]:
        parts = parts_of(content)
        if not parts:
            return [ChatMessage.user("")]
        results: list[ChatMessage] = []
        texts: list[str] = []  # the plain text parts, while every other part is one
        mixed: list[ContentPart] | None = None  # every other part, once one is not plain text
        position = 0
        try:  # one handler for the loop: a context per item costs more than most items
            for position, raw in enumerate(parts):  # noqa: B007 (the handler names it)
                part = fields(raw, "a part object", as_is=PART)
                if "functionResponse" in part:
                    results.append(self.result(part))
                    continue
                if "functionCall" in part:
                    raise InvalidMessage("functionCall", "belongs in a model content, not a user content")
                text = part.get("text")
                if not (isinstance(text, str) and len(part) == 1):
                    read = read_part(part)
                    if type(read) is not TextPart or read.provider_data:
                        if mixed is None:
                            mixed = [TextPart(text) for text in texts]
                        mixed.append(read)
                        continue
                    text = read.text  # its other keys carry nothing: plain text
                if mixed is None:
                    texts.append(text)
                else:
                    mixed.append(TextPart(text))
        except MessageError as error:
            raise error.with_prefix(f"parts[{position}]") from None
        # Results answer the model turn before, so they come before the rest
        # (every provider wants results right after the calls). Plain text
        # parts are one user message each, as each was written; any other part
        # makes the content one message of parts: a content has no message
        # boundaries, and one turn is what it most often is.
        if mixed is None:
            return results + [ChatMessage.user(text) for text in texts]
        return [*results, ChatMessage.user(mixed)]

    def result(self, part: dict[Any, Any]) -> ChatMessage:
        with at("functionResponse"):
            function = fields(part["functionResponse"], "an object", as_is=RESPONSE)
            name = _name(function, InvalidMessage)
            response = function.get("response")
            if not isinstance(response, Mapping):
                rule = "is required (an object)" if response is None else "must be an object"
                raise InvalidMessage("response", rule, None if response is None else describe(response))
            text, is_error = _response_text(response)
            media = _response_parts(function.get("parts"))
            call_id = _id(function, InvalidMessage)
            call_id = self.answer(call_id, name)
        # With parts, the text (when there is any) is the first part: a
        # function response holds its text in response and its media in parts.
        content: str | list[ContentPart] = text
        if media:
            content = [TextPart(text), *media] if text else media
        return ChatMessage(
            TOOL,
            content,
            tool_call_id=call_id,
            is_error=is_error,
            provider_data=_kept_keys(part, "functionResponse", function, RESPONSE, InvalidMessage),
        )

    def answer(self, call_id: str | None, name: str) -> str:
        """The id a response answers: its own, or the first unanswered call of its name."""
        if call_id is not None:
            self.calls.answer_id(call_id)
            return call_id
        found = self.calls.answer_name(name)
        if found is None:
            raise InvalidMessage(
                "id",
                f"is required when no unanswered call named {name!r} is in the model content before "
                "(a response without id answers the first such call)",
            )
        return found


def read_call(part: dict[Any, Any], seed: tuple[object, ...], ids: dict[str, int], position: int) -> ToolCall:
    with at("functionCall"):
        function = fields(part["functionCall"], "an object", InvalidToolCall, as_is=CALL)
        name = _name(function, InvalidToolCall)
        arguments = _arguments_text(function.get("args"), name)
        call_id = _id(function, InvalidToolCall)
        if call_id is not None and call_id in ids:
            raise InvalidToolCall(
                "id",
                f"must be unique within the content (parts[{ids[call_id]}] has it too)",
                describe(call_id),
            )
    made_up = call_id is None
    if call_id is None:
        # Gemini often sends no id: make one up from where the call stands and
        # what it is, so the same body always reads the same; never sent back.
        call_id = generated_id(_PROVIDER, *seed, name, arguments)
    else:
        ids[call_id] = position
    data = _kept_keys(part, "functionCall", function, CALL, InvalidToolCall, generated=made_up)
    return ToolCall(call_id, name, arguments, provider_data=data)


def _name(function: Mapping[Any, Any], error: type[MessageError]) -> str:
    name = function.get("name")
    if not isinstance(name, str) or not name:
        raise error(
            "name",
            "is required" if name is None else "must be a non-empty string",
            None if name is None else describe(name),
        )
    return name


def _id(function: Mapping[Any, Any], error: type[MessageError]) -> str | None:
    call_id = function.get("id")
    if call_id is None or call_id == "":  # "" says no more than a missing id
        return None
    if not isinstance(call_id, str):
        raise error("id", "must be a string", describe(call_id))
    return call_id


def _arguments_text(args: object, name: str) -> str:
    """The argument text of ``functionCall.args``: the object as JSON, or kept raw text."""
    if args is not None and not isinstance(args, (str, Mapping)):
        # A wrong type where the arguments belong is a malformed call, as in every codec.
        raise InvalidToolCall("args", "must be an object (or JSON text)", describe(args))
    # The id is read after the arguments, so the error cannot name it.
    return arguments_text_from_object_wire(args, path="args", call_id=None, name=name)


def _response_parts(parts: object) -> list[ContentPart]:
    """A function response's ``parts``: its images and documents (Gemini 3's multimodal responses)."""
    if parts is None:
        return []
    if not isinstance(parts, (list, tuple)):
        raise InvalidMessage("parts", "must be an array of parts", describe(parts))
    media = []
    position = 0
    try:  # one handler for the loop: a context per item costs more than most items
        for position, raw in enumerate(parts):  # noqa: B007 (the handler names it)
            media.append(read_part(fields(raw, "a part object", as_is=MEDIA), text=False))
    except MessageError as error:
        raise error.with_prefix(f"parts[{position}]") from None
    return media


def _response_text(response: Mapping[Any, Any]) -> tuple[str, bool]:
    """A result's text and error flag from ``functionResponse.response``."""
    if len(response) == 1:
        key = next(iter(response))
        if key in _WRAPPERS:
            value = response[key]
            text = (
                value if isinstance(value, str) else encode(value, join_key("response", key), InvalidMessage)
            )
            return text, key == "error"
    return encode(response, "response", InvalidMessage), False


def _kept_keys(
    part: Mapping[Any, Any],
    key: str,
    function: Mapping[Any, Any],
    modelled: frozenset[str],
    error: type[MessageError],
    *,
    generated: bool = False,
) -> Mapping[str, Any] | None:
    """The provider_data keeping what toolturns does not model of a call or response part.

    The part's other keys (``thoughtSignature``), and those of its function
    object (``functionCall.willContinue``), nested under its key.
    """
    return kept(
        _PROVIDER,
        keys=unmodelled(part, frozenset({key}), error=error),
        nested={key: unmodelled(function, modelled, path=key, error=error)},
        generated_id=generated,
    )


def _rebuilt(kept: Sequence[tuple[int, Mapping[Any, Any]]], text: str, call_count: int) -> bool:
    """Whether content and calls alone give back these non-call parts, where they were.

    They do for one plain text part before the calls (or none, with calls and
    no text); anything else (thoughts, signatures, several text parts, code)
    is kept in provider_data so that every part goes back unchanged.
    """
    if any(part.keys() != {"text"} for _, part in kept):
        return False
    if call_count:
        return not kept or (len(kept) == 1 and kept[0][0] == 0 and text != "")
    return len(kept) <= 1
