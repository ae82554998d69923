"""The Gemini generateContent codec: ``contents`` of ``user``/``model`` parts, ``systemInstruction``.

Calls are ``functionCall`` parts of a ``model`` content, their results
``functionResponse`` parts of the next ``user`` content, one per call, in the
order of the calls. Ids Gemini did not send are made up deterministically and
never sent back; Gemini 3's ``thoughtSignature`` goes back on the part it came on.

>>> from toolturns import ChatMessage, Tool, ToolCall, gemini
>>> turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_weather", {"city": "Paris"})])
>>> body = gemini.to_request(
...     [ChatMessage.system("Be brief."), ChatMessage.user("Weather in Paris?"), turn,
...      ChatMessage.tool_result("call_1", "18 degrees")],
...     tools=[Tool("get_weather")])
>>> body["systemInstruction"]
{'parts': [{'text': 'Be brief.'}]}
>>> body["contents"][2]
{'role': 'user', 'parts': [{'functionResponse': {'name': 'get_weather', 'response': {'result': '18 degrees'}, 'id': 'call_1'}}]}
>>> gemini.from_request(body)[2] == turn
True
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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
    provider_entry,
)
from ._errors import (
    InvalidArguments,
    InvalidMessage,
    InvalidStream,
    InvalidTool,
    InvalidToolCall,
    MessageError,
    describe,
)
from ._json import decode, encode, join_key
from ._message import SYSTEM_ROLES, ChatMessage, Role
from ._stream import Assembler, PartialToolCall
from ._tool import NO_PARAMETERS, Tool
from ._tool_call import ToolCall

__all__ = ["StreamAssembler", "from_request", "from_response", "to_request", "tool_definition"]

_PROVIDER = "gemini"

# What Gemini answers when the function response parts after a function call
# turn do not match its function call parts one to one (HTTP 400).
_COUNT_400 = (
    "Gemini answers 400: 'Please ensure that the number of function response parts "
    "is equal to the number of function call parts of the function call turn.'"
)
_ORDER_400 = (
    "Gemini answers 400: 'Please ensure that function call turn comes immediately "
    "after a user turn or after a function response turn.'"
)

# The keys of functionCall / functionResponse that toolturns models; any other
# key travels in provider_data["gemini"] and goes back where it came from.
_CALL_KEYS = frozenset({"name", "args", "id"})
_RESPONSE_KEYS = frozenset({"name", "response", "id"})
# The keys of a function declaration a Tool carries (behavior, response and
# the like steer Gemini only: reading them would drop them silently).
_DECLARATION_KEYS = frozenset({"name", "description", "parameters", "parametersJsonSchema"})

# The API takes a field's snake_case name as well as its camelCase one (proto
# JSON): the REST samples send system_instruction, SDK dumps function_call.
_SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")

# A functionResponse.response that reads back as something other than the
# object itself: {"result": x} is a plain result, {"error": x} a failure.
_WRAPPERS = frozenset({"result", "error"})

# Compared by value: a caller's schema may spell "no parameters" in another key order.
_NO_PARAMETERS = decode(NO_PARAMETERS)


# -- writing ----------------------------------------------------------------------------


def to_request(
    messages: Sequence[ChatMessage],
    *,
    tools: Sequence[Tool] | None = None,
    keep_invalid_arguments: bool = False,
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

    Returns:
        ``{"systemInstruction"?, "contents", "tools"?}`` (camelCase, as the
        REST API documents); merge it with the generation config.

    Raises:
        InvalidMessage: a tool result answers no earlier call, the results
            after a tool-call turn do not answer each of its calls exactly
            once, or a tool-call turn does not follow a user turn or results
            (each a Gemini 400); the path names the message.
        InvalidArguments: a call's arguments are not a JSON object.

    >>> from toolturns import ChatMessage, ToolCall
    >>> turn = ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_time")])
    >>> to_request([ChatMessage.user("Time?"), turn])["contents"][1]
    {'role': 'model', 'parts': [{'functionCall': {'name': 'get_time', 'args': {}, 'id': 'call_1'}}]}
    """
    checked = check_messages(messages)
    checked_tools = check_tools(tools, _PROVIDER)
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


def tool_definition(tool: Tool) -> dict[str, Any]:
    """Gemini's function declaration for a tool: ``{"name", "description"?, "parameters"?}``.

    A tool without parameters sends no ``parameters``, as the REST samples'
    no-argument functions do.

    >>> tool_definition(Tool("get_time", "The current time"))
    {'name': 'get_time', 'description': 'The current time'}
    """
    check_tool(tool, _PROVIDER, path="tool", error=InvalidMessage)
    declaration: dict[str, Any] = {"name": tool.name}
    if tool.description:
        declaration["description"] = tool.description
    parameters = tool.parameters
    if parameters != _NO_PARAMETERS:
        declaration["parameters"] = parameters
    return declaration


def _read_tools(tools: object) -> list[Tool]:
    """The function declarations of a stored request body's ``tools``: the reverse of ``tool_definition``.

    Field names are read in camelCase or snake_case, and a single Tool object
    where an array is expected, as ``from_request`` reads them. A declaration
    gives its schema in ``parameters`` or ``parametersJsonSchema``. Tools that
    are not function declarations (``googleSearch``, ``codeExecution``, ...)
    are Gemini's own and cannot be carried to another provider: they raise.

    Raises:
        InvalidTool: the path is the native one (``tools[0].functionDeclarations[1].name``).
    """
    result = []
    for number, raw in enumerate(_tool_array(tools, "tools", "Tool objects")):
        with at(f"tools[{number}]"):
            entry = _fields(raw, "a Tool object", InvalidTool)
            for key, value in entry.items():
                if key != "functionDeclarations":
                    raise InvalidTool(
                        join_key("", key),
                        "is a Gemini tool, not a function declaration: it cannot be carried elsewhere",
                        describe(value),
                    )
            declarations = _tool_array(
                entry.get("functionDeclarations", []), "functionDeclarations", "declarations"
            )
            for position, declaration in enumerate(declarations):
                with at(f"functionDeclarations[{position}]"):
                    result.append(_read_declaration(declaration))
    return result


def _tool_array(value: object, path: str, what: str) -> Sequence[object]:
    if isinstance(value, Mapping):
        return [value]
    if not isinstance(value, (list, tuple)):
        raise InvalidTool(path, f"must be an array of {what}", describe(value))
    return value


def _read_declaration(raw: object) -> Tool:
    declaration = _fields(raw, "a function declaration", InvalidTool)
    for key, value in declaration.items():
        if key not in _DECLARATION_KEYS:
            raise InvalidTool(
                join_key("", key),
                "is not a key of a function declaration toolturns carries "
                "(name, description, parameters or parametersJsonSchema)",
                describe(value),
            )
    schema_key = "parametersJsonSchema" if "parametersJsonSchema" in declaration else "parameters"
    if schema_key != "parameters" and "parameters" in declaration:
        raise InvalidTool(schema_key, "must not be given with parameters (Gemini takes one or the other)")
    description = declaration.get("description", "")
    try:
        return Tool(declaration.get("name"), description, declaration.get(schema_key))  # type: ignore[arg-type]
    except InvalidTool as error:
        # Tool names its schema "parameters"; the error must name the native key.
        if error.path.startswith("parameters"):
            raise InvalidTool(
                schema_key + error.path.removeprefix("parameters"), error.rule, error.got
            ) from None
        raise


@dataclass
class _Turn:
    """A tool-call turn whose results are being collected."""

    index: int
    calls: tuple[ToolCall, ...]
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
        if message.role is Role.TOOL:
            self.add_result(index, message)
            return
        self.close_turn(at_end=False)
        if message.role in SYSTEM_ROLES:
            # Gemini has one system channel, outside the contents.
            self.system.append({"text": message.content})
        elif message.role is Role.USER:
            self.add_user(message)
        else:
            self.add_model(index, message)

    def add_user(self, message: ChatMessage) -> None:
        # Text right after a user content (the results of a tool-call turn, or
        # another user message) joins it as a text part: Gemini turns alternate,
        # and reading splits the parts into the same messages again.
        part = {"text": message.content}
        if self.contents and self.contents[-1]["role"] == "user":
            self.contents[-1]["parts"].append(part)
        else:
            self.contents.append({"role": "user", "parts": [part]})

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
            self.turn = _Turn(index, calls)

    def call_part(self, index: int, position: int, call: ToolCall) -> dict[str, Any]:
        with at(f"messages[{index}].tool_calls[{position}]"):
            args = arguments_for_object_wire(call, provider=_PROVIDER, keep_invalid=self.keep_invalid)
            kept = provider_entry(call.provider_data, _PROVIDER, InvalidToolCall)
        function: dict[str, Any] = {"name": call.name, "args": args}
        if not is_generated_id(call, _PROVIDER):  # a made-up id was never Gemini's
            function["id"] = call.id
        return _part("functionCall", function, _CALL_KEYS, kept)

    def add_result(self, index: int, message: ChatMessage) -> None:
        call_id = message.tool_call_id
        assert call_id is not None  # a tool message always has one
        turn = self.turn
        where = f"messages[{index}].tool_call_id"
        if turn is None or all(call.id != call_id for call in turn.calls):
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


def _response_part(index: int, message: ChatMessage, call: ToolCall) -> dict[str, Any]:
    with at(f"messages[{index}]"):
        kept = provider_entry(message.provider_data, _PROVIDER, InvalidMessage)
    response = {"error": message.content} if message.is_error else _response_object(message.content)
    function: dict[str, Any] = {"name": call.name, "response": response}
    if not is_generated_id(call, _PROVIDER):
        function["id"] = call.id
    return _part("functionResponse", function, _RESPONSE_KEYS, kept)


def _response_object(text: str) -> dict[str, Any]:
    """``functionResponse.response`` for a result text: the object it spells, or ``{"result": text}``."""
    value = _json_object(text)
    # An object that would read back as a wrapper ({"result": x}) goes wrapped
    # itself, so that its text reads back unchanged.
    if value is None or (len(value) == 1 and next(iter(value)) in _WRAPPERS):
        return {"result": text}
    return value


def _reject(text: str) -> Any:
    raise ValueError(f"{text} is not JSON")


def _finite(text: str) -> float:
    number = float(text)
    if math.isinf(number):  # 1e400: no JSON number can say it back
        raise ValueError(f"{text} is out of range")
    return number


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):  # the object would not say what the text says
        raise ValueError("duplicate key")
    return value


_STRICT = json.JSONDecoder(parse_constant=_reject, parse_float=_finite, object_pairs_hook=_unique_keys)


def _json_object(text: str) -> dict[str, Any] | None:
    """The object a JSON-object text spells, when JSON can say it back; else None."""
    if not text.lstrip(" \t\n\r").startswith("{"):
        return None  # the common case: plain text, not worth a parse
    try:
        value = _STRICT.decode(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _model_parts(index: int, message: ChatMessage, call_parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The parts of a model content: the kept layout, or text then calls."""
    kept = _kept_parts(index, message, len(call_parts))
    if kept is None:
        parts = [{"text": message.content}] if message.content else []
        parts += call_parts
        # Gemini wants at least one part; an empty turn says "".
        return parts or [{"text": ""}]
    calls = iter(call_parts)
    return [part if part is not None else next(calls) for part in kept]


def _kept_parts(index: int, message: ChatMessage, call_count: int) -> list[dict[str, Any] | None] | None:
    """The parts read from Gemini and kept in provider_data, at their positions (None: a call)."""
    with at(f"messages[{index}]"):
        data = provider_entry(message.provider_data, _PROVIDER, InvalidMessage)
    stored = data.get("parts")
    if stored is None or stored == []:
        return None
    where = f"messages[{index}].provider_data.gemini.parts"
    if not isinstance(stored, list):
        raise InvalidMessage(where, "must be a list of [position, part] pairs", describe(stored))
    slots: list[dict[str, Any] | None] = [None] * (len(stored) + call_count)
    for number, item in enumerate(stored):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], dict)):
            raise InvalidMessage(f"{where}[{number}]", "must be a [position, part] pair", describe(item))
        position = item[0]
        if type(position) is not int or not 0 <= position < len(slots) or slots[position] is not None:
            raise InvalidMessage(
                f"{where}[{number}][0]",
                f"must be a free position below {len(slots)} (the parts kept plus the calls)",
                describe(position),
            )
        slots[position] = item[1]
    text = "".join(_answer_text(part) or "" for part in slots if part is not None)
    if text != message.content:
        raise InvalidMessage(
            f"messages[{index}].content",
            f"must be the text of the parts kept in provider_data['gemini'] ({text[:30]!r}...): "
            "drop provider_data['gemini'] to send other text",
            describe(message.content),
        )
    return slots


def _part(
    key: str, function: dict[str, Any], modelled: frozenset[str], kept: Mapping[str, Any]
) -> dict[str, Any]:
    """A functionCall/functionResponse part with the keys kept from the part it was read from."""
    inner = kept.get(key)
    if isinstance(inner, dict):
        function.update((name, value) for name, value in inner.items() if name not in modelled)
    part: dict[str, Any] = {key: function}
    # thoughtSignature above all: Gemini 3 rejects a call turn without it. The
    # generated-id marker sits next to the part's keys but is toolturns' own;
    # reading spells part keys in camelCase, so no part key is named like it.
    part.update((name, value) for name, value in kept.items() if name != key and name != GENERATED_ID_KEY)
    return part


def _answer_text(part: Mapping[str, Any]) -> str | None:
    """The text a part adds to the message's content: not a thought summary's."""
    text = part.get("text")
    return text if isinstance(text, str) and part.get("thought") is not True else None


# -- reading ----------------------------------------------------------------------------


def from_request(body: object) -> list[ChatMessage]:
    """Read a stored generateContent request body, or a bare list of contents.

    Accepts field names in camelCase or snake_case (``systemInstruction`` or
    ``system_instruction``, ``functionCall`` or ``function_call``; error paths
    use the camelCase name) and a single object where a list is expected
    (``contents``, ``parts``), as the REST samples send them. The legacy role
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
    reader = _Reader()
    for index, content in enumerate(contents):
        with at(f"contents[{index}]"):
            messages.extend(reader.content(index, content))
    return messages


def from_response(body: object, *, candidate: int = 0) -> ChatMessage:
    """The assistant turn of a generateContent response: ``candidates[0].content``.

    A bare model content (``{"role": "model", "parts": [...]}``) is read too.

    Args:
        body: The decoded response body.
        candidate: Which candidate to read, for requests with ``candidateCount > 1``.

    Raises:
        InvalidMessage: no such candidate (a blocked prompt has none), or a
            candidate without content; MessageError for a malformed content.

    >>> turn = from_response({"candidates": [{"content": {"role": "model", "parts": [
    ...     {"functionCall": {"name": "get_time", "args": {}}, "thoughtSignature": "c2ln"}]}}]})
    >>> turn.tool_calls[0].provider_data["gemini"]["thoughtSignature"]
    'c2ln'
    """
    body = _fields(body, "a generateContent response object")
    if "candidates" not in body and "parts" in body:
        return _Reader().model(body, ("content",), response=True)
    candidates = body.get("candidates")
    if (
        type(candidate) is not int
        or not isinstance(candidates, (list, tuple))
        or not 0 <= candidate < len(candidates)
    ):
        raise InvalidMessage(
            "candidates",
            f"must be an array with a candidate at index {candidate!r} "
            "(Gemini sends none when it blocks the prompt: see promptFeedback)",
            describe(candidates),
        )
    response_id = body.get("responseId")
    # The response's own id makes the made-up call ids differ between responses.
    seed = ("response", response_id if isinstance(response_id, str) else None, candidate)
    with at(f"candidates[{candidate}]"):
        item = _fields(candidates[candidate], "a candidate object")
        content = item.get("content")
        if not isinstance(content, Mapping):
            reason = item.get("finishReason")
            rule = "must be a Content object" if content is not None else "is required"
            raise InvalidMessage(
                "content",
                f"{rule} (a candidate without content ended early: finishReason {describe(reason)})",
                None if content is None else describe(content),
            )
        with at("content"):
            return _Reader().model(content, seed, response=True)


def _request_body(body: object) -> tuple[object, Sequence[object]]:
    """The system instruction (or None) and the contents of a request body."""
    if isinstance(body, (list, tuple)):
        return None, body
    if not isinstance(body, Mapping):
        raise InvalidMessage(
            "", 'must be a request body ({"contents": [...]}) or an array of contents', describe(body)
        )
    body = _fields(body, "a request body")
    system = body.get("systemInstruction")
    contents = body.get("contents")
    if isinstance(contents, Mapping):
        contents = [contents]
    if not isinstance(contents, (list, tuple)):
        raise InvalidMessage("contents", "must be an array of contents", describe(contents))
    return system, contents


def _system_messages(value: object) -> list[ChatMessage]:
    content = _fields(value, 'a Content object ({"parts": [...]})')
    messages = []
    for position, raw in enumerate(_parts(content)):
        with at(f"parts[{position}]"):
            part = _fields(raw, "a part object")
            text = part.get("text")
            if not isinstance(text, str) or len(part) != 1:
                raise InvalidMessage(
                    "", "must be a text part: a system instruction is text only", _keys(part)
                )
            messages.append(ChatMessage.system(text))
    return messages


def _parts(content: Mapping[Any, Any]) -> list[object]:
    parts = content.get("parts")
    if parts is None:
        return []
    if isinstance(parts, Mapping):
        return [parts]
    if not isinstance(parts, (list, tuple)):
        raise InvalidMessage("parts", "must be an array of parts", describe(parts))
    return list(parts)


def _fields(value: object, what: str, error: type[MessageError] = InvalidMessage) -> dict[Any, Any]:
    """An object's fields by their camelCase names, without the null ones ("not set" in proto JSON).

    Only field names are respelled, never the keys of ``args`` or ``response``.
    """
    if not isinstance(value, Mapping):
        raise error("", f"must be {what}", describe(value))
    fields: dict[Any, Any] = {}
    for key, item in value.items():
        if item is None:
            continue
        name = _camel(key)
        if name in fields:
            raise error(
                key,
                f"names the field {name!r} a second time (snake_case and camelCase spell the same field)",
                describe(item),
            )
        fields[name] = item
    return fields


def _camel(key: object) -> object:
    if not isinstance(key, str) or not _SNAKE.fullmatch(key):
        return key
    head, *words = key.split("_")
    return head + "".join(word[0].upper() + word[1:] for word in words)


def _keys(part: Mapping[Any, Any]) -> str:
    return describe(", ".join(key if isinstance(key, str) else describe(key) for key in part) or "no keys")


@dataclass
class _Pending:
    """A call of the last model content, and whether a response answered it."""

    call_id: str
    name: str
    answered: bool = False


@dataclass
class _Reader:
    """Reads contents in order, matching responses without id to the calls before them."""

    pending: list[_Pending] = field(default_factory=list)

    def content(self, index: int, value: object) -> list[ChatMessage]:
        content = _fields(value, "a Content object")
        role = content.get("role")
        if role == "model":
            return [self.model(content, ("request", index))]
        # A content without role is the user's (single-turn requests leave it
        # out); "function" is the legacy role of function responses.
        if role is None or role == "user" or role == "function":
            return self.user(content)
        raise InvalidMessage("role", "must be 'user' or 'model' (or the legacy 'function')", describe(role))

    def model(self, value: object, seed: tuple[object, ...], *, response: bool = False) -> ChatMessage:
        content = _fields(value, "a Content object")
        role = content.get("role")
        if response and role is not None and role != "model":
            raise InvalidMessage("role", "must be 'model' in a response", describe(role))
        calls: list[ToolCall] = []
        kept: list[list[Any]] = []
        texts: list[str] = []
        ids: dict[str, int] = {}
        for position, raw in enumerate(_parts(content)):
            with at(f"parts[{position}]"):
                part = _fields(raw, "a part object")
                if "functionCall" in part:
                    calls.append(_call(part, (*seed, position), ids, position))
                    continue
                if "functionResponse" in part:
                    raise InvalidMessage("functionResponse", "belongs in a user content, not a model content")
                if "text" in part and not isinstance(part["text"], str):
                    raise InvalidMessage("text", "must be a string", describe(part["text"]))
                texts.append(_answer_text(part) or "")
                kept.append([position, part])
        text = "".join(texts)
        self.pending = [_Pending(call.id, call.name) for call in calls]
        replay = None if _rebuilt(kept, text, len(calls)) else {_PROVIDER: {"parts": kept}}
        return ChatMessage(Role.ASSISTANT, text, tool_calls=calls or None, provider_data=replay)

    def user(self, content: Mapping[Any, Any]) -> list[ChatMessage]:
        parts = _parts(content)
        if not parts:
            return [ChatMessage.user("")]
        results: list[ChatMessage] = []
        texts: list[ChatMessage] = []
        for position, raw in enumerate(parts):
            with at(f"parts[{position}]"):
                part = _fields(raw, "a part object")
                if "functionResponse" in part:
                    results.append(self.result(part))
                    continue
                if "functionCall" in part:
                    raise InvalidMessage("functionCall", "belongs in a model content, not a user content")
                text = part.get("text")
                if "text" in part and not isinstance(text, str):
                    raise InvalidMessage("text", "must be a string", describe(text))
                if not isinstance(text, str) or len(part) != 1:
                    raise InvalidMessage(
                        "",
                        "must be a text or functionResponse part: toolturns models text only "
                        "(no images, files or other parts in user turns)",
                        _keys(part),
                    )
                texts.append(ChatMessage.user(text))
        # Results answer the model turn before, so they come before the text
        # (every provider wants results right after the calls).
        return results + texts

    def result(self, part: dict[Any, Any]) -> ChatMessage:
        with at("functionResponse"):
            function = _fields(part["functionResponse"], "an object")
            name = _name(function, InvalidMessage)
            response = function.get("response")
            if not isinstance(response, Mapping):
                rule = "is required (an object)" if response is None else "must be an object"
                raise InvalidMessage("response", rule, None if response is None else describe(response))
            content, is_error = _response_text(response)
            call_id = _id(function, InvalidMessage)
            call_id = self.answer(call_id, name)
        kept = _kept_keys(part, "functionResponse", function, _RESPONSE_KEYS)
        return ChatMessage(
            Role.TOOL,
            content,
            tool_call_id=call_id,
            is_error=is_error,
            provider_data={_PROVIDER: kept} if kept else None,
        )

    def answer(self, call_id: str | None, name: str) -> str:
        """The id a response answers: its own, or the first unanswered call of its name."""
        for pending in self.pending:
            if not pending.answered and (
                pending.call_id == call_id or (call_id is None and pending.name == name)
            ):
                pending.answered = True
                return pending.call_id
        if call_id is None:
            raise InvalidMessage(
                "id",
                f"is required when no unanswered call named {name!r} is in the model content before "
                "(a response without id answers the first such call)",
            )
        return call_id


def _call(part: dict[Any, Any], seed: tuple[object, ...], ids: dict[str, int], position: int) -> ToolCall:
    with at("functionCall"):
        function = _fields(part["functionCall"], "an object", InvalidToolCall)
        name = _name(function, InvalidToolCall)
        arguments = _arguments_text(function.get("args"), name)
        call_id = _id(function, InvalidToolCall)
        if call_id is not None and call_id in ids:
            raise InvalidToolCall(
                "id",
                f"must be unique within the content (parts[{ids[call_id]}] has it too)",
                describe(call_id),
            )
    kept = _kept_keys(part, "functionCall", function, _CALL_KEYS)
    if call_id is None:
        # Gemini often sends no id: make one up from where the call stands and
        # what it is, so the same body always reads the same; never sent back.
        call_id = generated_id(_PROVIDER, *seed, name, arguments)
        kept.update(mark_generated_id(_PROVIDER)[_PROVIDER])
    else:
        ids[call_id] = position
    return ToolCall(call_id, name, arguments, provider_data={_PROVIDER: kept} if kept else None)


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
        raise InvalidArguments("args", "must be an object", describe(args), name=name)
    # The id is read after the arguments, so the error cannot name it.
    return arguments_text_from_object_wire(args, path="args", call_id=None, name=name)


def _response_text(response: Mapping[Any, Any]) -> tuple[str, bool]:
    """A result's text and error flag from ``functionResponse.response``."""
    if len(response) == 1:
        key = next(iter(response))
        if key in _WRAPPERS:
            value = response[key]
            text = value if isinstance(value, str) else encode(value, f"response.{key}", InvalidMessage)
            return text, key == "error"
    return encode(response, "response", InvalidMessage), False


def _kept_keys(
    part: Mapping[Any, Any], key: str, function: Mapping[Any, Any], modelled: frozenset[str]
) -> dict[str, Any]:
    """The keys of a part and of its function object that toolturns does not model."""
    kept = {name: value for name, value in part.items() if name != key}
    inner = {name: value for name, value in function.items() if name not in modelled}
    if inner:
        kept[key] = inner
    return kept


def _rebuilt(kept: list[list[Any]], text: str, call_count: int) -> bool:
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


# -- streaming --------------------------------------------------------------------------

# Vertex AI's streamFunctionCallArguments sends a call in pieces: partialArgs
# (JSON paths and values) with willContinue. The Gemini Developer API does not
# ("This field is not supported in Gemini API"): each functionCall part of its
# stream is whole, with its full args object.
_VERTEX_PARTIAL_KEYS = ("partialArgs", "willContinue")


class _Run:
    """Consecutive plain text parts of a stream (thought summaries apart): their texts, joined once."""

    __slots__ = ("fragments", "thought")

    def __init__(self, thought: bool) -> None:
        self.thought = thought
        self.fragments: list[str] = []

    def part(self) -> dict[str, Any]:
        part: dict[str, Any] = {"text": "".join(self.fragments)}
        if self.thought:
            part["thought"] = True
        return part


class StreamAssembler(Assembler):
    """Assembles the chunks of one ``streamGenerateContent`` response into the assistant turn.

    Feed it each chunk (a ``GenerateContentResponse``: one SSE ``data:`` line
    of ``?alt=sse``, or one element of the JSON array the endpoint sends
    without it). Chunks carry whole parts: consecutive plain text parts (and
    consecutive thought-summary parts) join into one; every other part, a
    ``functionCall`` or a part with a ``thoughtSignature``, stays a part of
    its own, in order; empty plain text parts carry nothing and are dropped.
    The message is the one ``from_response`` gives for the response with
    those parts sent whole: calls without an id get the same made-up ids
    (seeded with the ``responseId`` and each call's position), and a
    ``thoughtSignature`` stays on the part it came on.

    ``finish_reason`` is the candidate's ``finishReason`` (``STOP``,
    ``MAX_TOKENS``, ``SAFETY``...), which also ends the stream (``ended``);
    ``usage`` is the last ``usageMetadata``.

    Args:
        candidate: Which candidate to assemble, for ``candidateCount > 1``.

    Raises:
        InvalidStream: a chunk that is not a ``GenerateContentResponse``, a
            blocked prompt (``promptFeedback``, in ``provider_error``), chunks
            of two responses, or a Vertex AI streamed-arguments call
            (``partialArgs``/``willContinue``), which the Gemini Developer API
            never sends; MessageError for a malformed part.

    >>> chunks = [
    ...     {"candidates": [{"content": {"role": "model", "parts": [{"text": "Let me "}]}}], "responseId": "r1"},
    ...     {"candidates": [{"content": {"role": "model", "parts": [{"text": "check."},
    ...         {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}, "thoughtSignature": "c2ln"}]},
    ...       "finishReason": "STOP"}],
    ...      "usageMetadata": {"promptTokenCount": 10, "totalTokenCount": 30}, "responseId": "r1"}]
    >>> assembler = StreamAssembler()
    >>> for chunk in chunks:
    ...     assembler.feed(chunk)
    >>> turn = assembler.message()
    >>> turn.content, turn.tool_calls[0].name, turn.tool_calls[0].arguments
    ('Let me check.', 'get_weather', {'city': 'Paris'})
    >>> turn.tool_calls[0].provider_data["gemini"]["thoughtSignature"]
    'c2ln'
    >>> assembler.finish_reason, assembler.ended, assembler.usage["totalTokenCount"]
    ('STOP', True, 30)
    """

    def __init__(self, *, candidate: int = 0) -> None:
        super().__init__()
        if type(candidate) is not int or candidate < 0:
            raise InvalidStream("candidate", "must be an integer >= 0", describe(candidate))
        self._candidate = candidate
        self._response_id: str | None = None
        self._parts: list[_Run | dict[str, Any]] = []
        self._ids: dict[str, int] = {}  # call id Gemini sent -> its part's position

    def _feed(self, item: dict[str, Any]) -> None:
        chunk = _fields(item, "a GenerateContentResponse chunk", InvalidStream)
        if "candidates" not in chunk and "parts" in chunk:
            raise InvalidStream(
                "",
                "must be a GenerateContentResponse chunk ({'candidates': [...]}), not a bare Content: "
                "feed each streamed chunk whole",
                _keys(chunk),
            )
        response_id = chunk.get("responseId")
        if response_id is not None:
            if not isinstance(response_id, str):
                raise InvalidStream("responseId", "must be a string", describe(response_id))
            if self._response_id is None:
                self._response_id = response_id
            elif response_id != self._response_id:
                raise InvalidStream(
                    "responseId",
                    f"must be the responseId of the earlier chunks ({self._response_id!r}): one stream per assembler",
                    describe(response_id),
                )
        usage = chunk.get("usageMetadata")
        if usage is not None:
            if not isinstance(usage, dict):
                raise InvalidStream("usageMetadata", "must be an object", describe(usage))
            self.usage = usage  # cumulative: each chunk's counts replace the last
        candidates = chunk.get("candidates")
        if candidates is None:
            feedback = chunk.get("promptFeedback")
            if isinstance(feedback, dict) and feedback.get("blockReason") is not None:
                raise InvalidStream(
                    "promptFeedback.blockReason",
                    "says Gemini blocked the prompt: the stream has no candidate",
                    describe(feedback.get("blockReason")),
                    provider_error=feedback,
                )
            return  # usage only
        if not isinstance(candidates, list):
            raise InvalidStream("candidates", "must be an array of candidates", describe(candidates))
        for position, raw in enumerate(candidates):
            with at(f"candidates[{position}]"):
                candidate = _fields(raw, "a candidate object", InvalidStream)
                index = candidate.get("index", position)  # proto JSON leaves out index 0
                if type(index) is not int:
                    raise InvalidStream("index", "must be an integer", describe(index))
                if index == self._candidate:
                    self._take(candidate)

    def _take(self, candidate: dict[Any, Any]) -> None:
        content = candidate.get("content")
        if content is not None:
            with at("content"):
                content = _fields(content, "a Content object", InvalidStream)
                role = content.get("role")
                if role is not None and role != "model":
                    raise InvalidStream("role", "must be 'model' in a response", describe(role))
                for number, raw in enumerate(_parts(content)):
                    with at(f"parts[{number}]"):
                        self._add(_fields(raw, "a part object"))
        reason = candidate.get("finishReason")
        if reason is not None:
            self._end_with(reason, "finishReason")

    def _add(self, part: dict[Any, Any]) -> None:
        text = part.get("text")
        if "text" in part and not isinstance(text, str):
            raise InvalidMessage("text", "must be a string", describe(text))
        if "functionResponse" in part:
            raise InvalidMessage("functionResponse", "belongs in a user content, not a model content")
        if "functionCall" in part:
            function = part["functionCall"]
            fields = (
                {_camel(key): value for key, value in function.items()}
                if isinstance(function, Mapping)
                else {}
            )
            for key in _VERTEX_PARTIAL_KEYS:
                if fields.get(key) is not None:
                    raise InvalidStream(
                        f"functionCall.{key}",
                        "is Vertex AI's streamed function-call arguments (streamFunctionCallArguments), "
                        "which the Gemini Developer API does not send and toolturns does not assemble: "
                        "turn it off to receive each call whole",
                        describe(fields[key]),
                    )
            # Checked as from_response checks it (and ids kept unique) now, so
            # that message() cannot fail later on a part fed long ago.
            _call(part, ("stream",), self._ids, len(self._parts))
            self._parts.append(part)
            return
        thought = part.get("thought")
        plain = isinstance(text, str) and (
            part.keys() == {"text"} or (part.keys() == {"text", "thought"} and thought is True)
        )
        if not plain:
            self._parts.append(part)  # a signature, a thought flag of its own, code, media...
            return
        assert isinstance(text, str)
        if not text:
            return  # an empty plain part says nothing
        last = self._parts[-1] if self._parts else None
        if not isinstance(last, _Run) or last.thought != (thought is True):
            last = _Run(thought is True)
            self._parts.append(last)
        last.fragments.append(text)

    def _build(self) -> ChatMessage:
        parts = [part.part() if isinstance(part, _Run) else part for part in self._parts]
        seed = ("response", self._response_id, self._candidate)
        return _Reader().model({"role": "model", "parts": parts}, seed, response=True)

    def _content(self) -> str:
        return self._build().content

    def _partial_calls(self) -> list[PartialToolCall]:
        return [
            PartialToolCall(call.id, call.name, call.arguments_json)
            for call in self._build().tool_calls or ()
        ]
