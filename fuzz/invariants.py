"""The invariants the fuzz targets check: one ``check_*`` function per reader.

Each function takes one decoded input and returns normally when toolturns kept
its contract: the input was read, or refused with a ``MessageError``, and what
was read survives the way back. Anything else escapes: an ``AssertionError``
naming the broken invariant, or the unexpected exception itself (a
``KeyError`` from a reader is a finding, not something to catch here).

The fuzz driver (``fuzz/run.py``) feeds these functions atheris inputs, and
``tests/property/test_fuzz_invariants.py`` feeds them hypothesis values, so the
fast test suite and the long fuzz runs check one definition. Standard library
and toolturns only: the test suite imports this module without atheris.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from toolturns import (
    ChatMessage,
    ContentPart,
    InvalidMessage,
    InvalidStream,
    InvalidTranscript,
    MessageError,
    Problem,
    Role,
    StreamSnapshot,
    TextPart,
    Tool,
    ToolCall,
    check_transcript,
    parse_sse,
    trim,
)
from toolturns._json import value_key
from toolturns.providers import PROVIDERS, Provider
from toolturns.providers.openai.rules import check_part, not_carried

__all__ = [
    "CODECS",
    "TARGETS",
    "Codec",
    "check_message",
    "check_request",
    "check_response",
    "check_sse",
    "check_stream",
    "check_transcripts",
    "check_trim",
    "sse_reference",
]

_T = TypeVar("_T")

# -- reading ----------------------------------------------------------------------------


def read(reader: Callable[[], _T]) -> _T | None:
    """``reader()``, or None when it raised a MessageError; any other exception escapes."""
    try:
        return reader()
    except MessageError as error:
        check_error(error)
        return None


_E = TypeVar("_E", bound=MessageError)


def raised(kind: type[_E], call: Callable[[], object]) -> _E:
    """The ``kind`` error ``call()`` raises; it must raise one."""
    try:
        call()
    except kind as error:
        check_error(error)
        return error
    raise AssertionError(f"expected {kind.__name__}, nothing was raised")


def check_error(error: MessageError) -> None:
    """A MessageError is structured and printable: it says where, which rule, what value."""
    assert isinstance(error.path, str), f"error path is not text: {error.path!r}"
    assert isinstance(error.rule, str), f"error rule is not text: {error.rule!r}"
    assert error.rule, "error without a rule"
    assert error.got is None or isinstance(error.got, str), f"error value is not text: {error.got!r}"
    assert str(error), "error prints as nothing"


def json_text(value: object) -> str | None:
    """``value`` as JSON text (NaN allowed, keys sorted), None when too deep to encode."""
    try:
        return json.dumps(value, sort_keys=True)
    except RecursionError:
        return None


def wire_text(wire: object, where: str) -> str:
    """What a writer produced, as the JSON text sent over HTTP: it must be strict JSON.

    Bodies are compared as this text: ``true`` and ``1``, ``1`` and ``1.0``
    differ there, and so does key order, which a codec that keeps text (a
    Gemini result object read back as text) must not change either.
    """
    try:
        return json.dumps(wire, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise AssertionError(f"{where} wrote something that is not JSON: {error}") from None


# -- what survives a trip -----------------------------------------------------------------


def openai_view(message: ChatMessage) -> ChatMessage:
    """``message`` as the OpenAI wire carries it: no provider data (the message's, its calls',
    its parts') but the OpenAI wire's own (a part's unknown keys, an assistant's refusal
    parts, which ``to_wire`` writes back), is_error false."""
    calls = None
    if message.tool_calls is not None:
        calls = [ToolCall(c.id, c.name, c.arguments_json, extra=c.extra) for c in message.tool_calls]
    content = message.content
    if type(content) is tuple:
        content = tuple(
            dataclasses.replace(part, provider_data=_openai_only(part.provider_data)) for part in content
        )
    return ChatMessage(
        message.role,
        content,
        tool_calls=calls,
        tool_call_id=message.tool_call_id,
        name=message.name,
        extra=message.extra,
        provider_data=_openai_only(message.provider_data),
    )


def _openai_only(provider_data: Mapping[str, Any]) -> dict[str, Any]:
    """The OpenAI wire's own entry of ``provider_data``: what ``to_wire`` writes back."""
    return {"openai": provider_data["openai"]} if "openai" in provider_data else {}


def check_openai_wire(message: ChatMessage) -> None:
    """Any message read by any reader goes through to_wire/from_dict (and JSON text) unchanged,
    but for is_error and provider data, which that wire does not carry; or to_wire refuses it at
    its first part that wire has no place for (a file's URL, which Responses and Gemini read)."""
    uncarried = _first_uncarried_part(message)
    if uncarried is not None:
        refusal = raised(InvalidMessage, message.to_wire)
        assert refusal.path == uncarried, f"to_wire refused {message!r} at {refusal.path}, not {uncarried}"
        return
    expected = openai_view(message)
    for null_content in (False, True):
        wire = message.to_wire(null_content=null_content)
        text = wire_text(wire, "to_wire")
        back = ChatMessage.from_dict(json.loads(text))
        assert back == expected, f"to_wire/from_dict changed {message!r} into {back!r}"


def _first_uncarried_part(message: ChatMessage) -> str | None:
    """The path of the first part of ``message`` the OpenAI wire has no place for
    (docs/providers.md: to_wire refuses "a field no key holds"), or None."""
    content = message.content
    if type(content) is tuple:
        for position, part in enumerate(content):
            missing = not_carried(part)
            if missing is not None:
                return f"content[{position}].{missing[0]}"
    return None


def facts(messages: Sequence[ChatMessage], codec: Codec) -> tuple[list[Any], list[Any], list[str]]:
    """What no trip through ``codec``'s wire may lose: every call (id, name, argument value), every
    result (the call it answers, its text, the error flag where that wire has one) and every
    other non-empty text.

    Results and texts are sorted: providers move system prompts to the top and
    results into call order (docs/providers.md, Normalisations). An id a codec
    made up is never sent and is made again on reading, so it counts by its
    place: the n-th made-up id, which the results must still answer. Gemini
    gives result texts back as gemini_result_text says.
    """
    made_up: dict[str, str] = {}
    calls = []
    for message in messages:
        for call in message.tool_calls or ():
            call_id = call.id
            # A made-up id is not sent back (another is made up on reading), except on
            # the OpenAI wire, where a result names its call by it: there it is an id.
            if any(_generated(call, provider) for provider in CODECS if provider != "openai"):
                call_id = made_up.setdefault(call.id, f"<made-up id {len(made_up)}>")
            calls.append((call_id, call.name, _argument_value(call.arguments_json)))
    results = sorted(
        (
            made_up.get(m.tool_call_id or "", m.tool_call_id or ""),
            gemini_result_text(m.text, m.is_error)
            if codec.name == "gemini"
            else repr(_content_facts(m, codec)),
            m.is_error and codec.carries_is_error,
        )
        for m in messages
        if m.role is Role.TOOL
    )
    texts = sorted(
        fact for m in messages if m.role is not Role.TOOL and m.content for fact in _content_facts(m, codec)
    )
    return calls, results, texts


def _content_facts(message: ChatMessage, codec: Codec) -> list[str]:
    """A message's content as a trip through ``codec`` keeps it: each part with only that
    wire's own kept data (no wire sends another's), and text parts alone in the form that
    wire gives them back (docs/content.md), so there they count by their text: Ollama has
    no list of parts (its images in order, then their text joined), nor has Gemini (one
    text per part, a message each), nor Anthropic's system and assistant turns (a system
    message per block, an assistant's text joined) or a user's one text block after
    results (its text)."""
    content = message.content
    by_text = codec.name in ("ollama", "gemini", "anthropic")
    if type(content) is not tuple:
        return [repr(content)]
    own = tuple(_own_data_only(part, codec.name) for part in content)
    if codec.name == "gemini":
        # A content has no message boundaries: user turns in a row share one, text parts alone
        # are one message each; every part counts on its own, a text by its text.
        return [
            repr(part.text) if isinstance(part, TextPart) else repr(part)
            for part in own
            if part != TextPart("")
        ]
    if codec.name == "ollama":
        # One content string and one images list: the images in order, then the text parts joined.
        text = [repr(message.text)] if message.text else []
        return [repr(part) for part in own if type(part) is not TextPart] + text
    if by_text and all(type(part) is TextPart for part in own):
        if codec.name == "anthropic" and message.role is Role.ASSISTANT:
            return [repr(message.text)]
        if message.role in (Role.SYSTEM, Role.DEVELOPER) or len(own) == 1:
            return [repr(part.text) for part in own if isinstance(part, TextPart) and part.text]
    return [repr(own)]


def _own_data_only(part: ContentPart, provider: str) -> ContentPart:
    data = part.provider_data
    return dataclasses.replace(part, provider_data={provider: data[provider]} if provider in data else {})


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    number = float(text)
    if math.isinf(number):
        raise ValueError(f"{text} is out of range")
    return number


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    if len({key for key, _ in pairs}) != len(pairs):
        raise ValueError("duplicate key")
    return dict(pairs)


def gemini_result_text(text: str, is_error: bool) -> str:
    """A result text as Gemini's wire gives it back (docs/providers.md, Gemini normalisations):
    an object's text, when JSON can say that object again, comes back compact; an error's text,
    plain text and any other JSON come back as they were."""
    if is_error:
        return text
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_unique)
    except (ValueError, RecursionError):
        return text
    if not isinstance(value, dict) or (len(value) == 1 and next(iter(value)) in ("result", "error")):
        return text
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _argument_value(text: str) -> tuple[bool, str]:
    """The value of an argument text, as calls compare it (an object shaped like the
    raw-text wrapper is sent wrapped itself, so it reads back as the same object)."""
    return value_key(text)


def _generated(call: ToolCall, provider: str) -> bool:
    data = call.provider_data.get(provider)
    return isinstance(data, dict) and data.get("generated_id") is True


class Assembler(Protocol):
    """What every provider's StreamAssembler offers."""

    @property
    def finish_reason(self) -> str | None: ...

    def feed(self, item: object) -> None: ...

    def message(self) -> ChatMessage: ...

    def snapshot(self) -> StreamSnapshot: ...


@dataclass(frozen=True)
class Codec:
    """One provider module, seen through the verbs the invariants use."""

    name: str
    from_request: Callable[[object], list[ChatMessage]]
    from_response: Callable[[object], ChatMessage]
    #: to_request, sending malformed argument text wrapped (keep_invalid_arguments=True).
    to_request: Callable[[list[ChatMessage]], dict[str, Any]]
    stream: Callable[[], Assembler]
    #: Whether to_request must accept every transcript from_request reads. Anthropic and
    #: Gemini read what their API would answer 400 to, and refuse to send it.
    sends_what_it_reads: bool
    #: Whether the wire says a tool failed (OpenAI and Ollama have no such field).
    carries_is_error: bool


# What the invariants must know of a wire that its registry entry does not say: documented
# behaviour (docs/providers.md), per provider. A registered provider missing here stops the
# import with a KeyError naming it: say how its wire behaves before it is fuzzed.
#: Whether to_request sends every transcript from_request reads (see Codec.sends_what_it_reads).
_SENDS_WHAT_IT_READS = {
    "openai": True,
    "anthropic": False,
    "gemini": False,
    "ollama": True,
    # Reads a reasoning item with nothing after it, or an item id twice; refuses to send them.
    "responses": False,
}
#: Whether the wire says a tool failed (see Codec.carries_is_error).
_CARRIES_IS_ERROR = {"openai": False, "anthropic": True, "gemini": True, "ollama": False, "responses": False}


def _documented(table: dict[str, bool], provider: Provider) -> bool:
    if provider.name not in table:
        raise KeyError(f"fuzz/invariants.py does not say how the {provider.title} wire behaves: add it")
    return table[provider.name]


def _codec(provider: Provider) -> Codec:
    module = provider.codec
    return Codec(
        provider.name,
        module.from_request,
        module.from_response,
        lambda messages: module.to_request(messages, keep_invalid_arguments=True),
        module.StreamAssembler,
        _documented(_SENDS_WHAT_IT_READS, provider),
        _documented(_CARRIES_IS_ERROR, provider),
    )


#: Every wire of the registry, by name.
CODECS: dict[str, Codec] = {name: _codec(provider) for name, provider in PROVIDERS.items()}


def check_sent_back(codec: Codec, messages: list[ChatMessage], *, may_refuse: bool) -> None:
    """``messages`` survive ``codec``'s wire: to_request writes strict JSON (or, if ``may_refuse``,
    raises a MessageError), from_request reads it back with every call, result and text (the
    OpenAI wire gives back the messages themselves, less is_error and provider data), and
    sending that again writes the same body."""
    try:
        wire = codec.to_request(messages)
    except MessageError as error:
        refusal = error
    else:
        _check_read_back(codec, messages, wire)
        return
    check_error(refusal)
    assert may_refuse or (codec.name == "openai" and _parts_refused_by_role(messages)), (
        f"{codec.name}.to_request refused {messages!r}: {refusal}"
    )


def _check_read_back(codec: Codec, messages: list[ChatMessage], wire: dict[str, Any]) -> None:
    """What check_sent_back asks of ``wire``, the body to_request wrote for ``messages``."""
    text = wire_text(wire, f"{codec.name}.to_request")
    try:
        back = codec.from_request(json.loads(text))
    except MessageError as error:
        raise AssertionError(f"{codec.name}.from_request refused what to_request wrote: {error}") from None
    if codec.name == "openai":
        expected = [openai_view(message) for message in messages]
        assert back == expected, f"openai round trip changed {expected!r} into {back!r}"
    assert facts(back, codec) == facts(messages, codec), (
        f"{codec.name} round trip lost data: {messages!r} -> {back!r}"
    )
    again = wire_text(codec.to_request(back), f"{codec.name}.to_request")
    assert again == text, f"{codec.name}: sending what was read back changed the body: {text} -> {again}"


def _parts_refused_by_role(messages: Sequence[ChatMessage]) -> bool:
    """Whether a message holds a part OpenAI refuses in its role (``openai.rules.check_part``):
    ``ChatMessage.from_dict`` reads every part in every role (the value model is the same for
    every wire), and openai.to_request refuses an image outside a user message, a tool result's
    image, file or audio unless told ``tool_parts_to_user=True``, ... (docs/content.md)."""
    return any(
        check_part(m.role, part) is not None
        for m in messages
        if type(m.content) is tuple
        for part in m.content
    )


# -- readers -------------------------------------------------------------------------------


def check_message(data: object) -> None:
    """ChatMessage.from_dict: reads or raises a MessageError; what it reads round-trips."""
    message = read(lambda: ChatMessage.from_dict(data))
    if message is None:
        return
    assert isinstance(message, ChatMessage)
    assert ChatMessage.from_dict(data) == message, "from_dict is not deterministic"
    check_openai_wire(message)
    for call in message.tool_calls or ():
        check_arguments(call)


def check_arguments(call: ToolCall) -> None:
    """``.arguments`` decodes to a dict, or raises InvalidArguments carrying the call and its raw text."""
    try:
        arguments = call.arguments
    except MessageError as error:
        failure = error
    else:
        assert isinstance(arguments, dict)
        return
    assert failure.path == "arguments", f"arguments error at {failure.path!r}"
    assert getattr(failure, "raw", None) == call.arguments_json
    assert getattr(failure, "call_id", None) == call.id


def check_request(codec: Codec, body: object) -> None:
    """``codec.from_request``: reads or raises a MessageError; what it reads goes to the OpenAI wire
    and back, and through the provider's own wire and back (see check_sent_back)."""
    before = json_text(body)
    messages = read(lambda: codec.from_request(body))
    assert json_text(body) == before, f"{codec.name}.from_request changed its input"
    if messages is None:
        return
    assert type(messages) is list
    assert all(isinstance(m, ChatMessage) for m in messages)
    assert codec.from_request(body) == messages, f"{codec.name}.from_request is not deterministic"
    for message in messages:
        check_openai_wire(message)
    check_sent_back(codec, messages, may_refuse=not codec.sends_what_it_reads)
    if codec.name == "openai":
        # OpenAI -> any provider -> back keeps every call, result and text
        # (docs/providers.md: names, extra keys and replay data are the losses);
        # each provider may refuse what its API would answer 400 to.
        for other in CODECS.values():
            if other is not codec:
                check_sent_back(other, messages, may_refuse=True)


def check_response(codec: Codec, body: object) -> None:
    """``codec.from_response``: an assistant turn or a MessageError; the turn survives both wires,
    sent after a user turn as a loop sends it."""
    before = json_text(body)
    turn = read(lambda: codec.from_response(body))
    assert json_text(body) == before, f"{codec.name}.from_response changed its input"
    if turn is None:
        return
    assert isinstance(turn, ChatMessage)
    assert turn.role is Role.ASSISTANT, f"{codec.name}.from_response gave a {turn.role} turn"
    assert codec.from_response(body) == turn, f"{codec.name}.from_response is not deterministic"
    check_openai_wire(turn)
    check_sent_back(codec, [ChatMessage.user("?"), turn], may_refuse=not codec.sends_what_it_reads)


def check_stream(codec: Codec, items: object) -> None:
    """A StreamAssembler fed ``items`` (a list, else one item) with a snapshot after each: every step
    works or raises a MessageError, also after a refused item. The message agrees with the last
    snapshot, is the same from a fresh assembler, and survives both wires like a response."""
    sequence = items if isinstance(items, list) else [items]
    assembler = codec.stream()
    try:
        for item in sequence:
            assembler.feed(item)
            assembler.snapshot()
    except MessageError as error:
        check_error(error)
        # A UI shows what came before the broken item: asking must not crash.
        read(assembler.snapshot)
        read(assembler.message)
        return
    turn = read(assembler.message)
    if turn is None:
        return
    assert turn.role is Role.ASSISTANT
    check_snapshot(assembler.snapshot(), turn, assembler.finish_reason)
    fresh = codec.stream()
    for item in sequence:
        fresh.feed(item)
    assert fresh.message() == turn, f"{codec.name} stream assembly is not deterministic"
    check_openai_wire(turn)
    check_sent_back(codec, [ChatMessage.user("?"), turn], may_refuse=not codec.sends_what_it_reads)


def check_snapshot(snapshot: StreamSnapshot, turn: ChatMessage, finish_reason: str | None) -> None:
    """The live view at the end shows the assembled turn: its text, and each call's id (when
    known), name and argument text (an empty text meaning no arguments, as everywhere)."""
    assert snapshot.content == turn.text, "snapshot text differs from the message"
    assert snapshot.finish_reason == finish_reason
    calls = turn.tool_calls or ()
    assert len(snapshot.tool_calls) == len(calls), "snapshot shows another number of calls"
    for partial, call in zip(snapshot.tool_calls, calls, strict=True):
        assert partial.id in (None, call.id), f"snapshot id {partial.id!r} is not {call.id!r}"
        assert partial.name in (None, call.name), f"snapshot name {partial.name!r} is not {call.name!r}"
        shown = ToolCall("id", "name", partial.arguments_json).arguments_json
        assert shown == call.arguments_json, f"snapshot arguments {shown!r} != {call.arguments_json!r}"


# -- parse_sse ----------------------------------------------------------------------------

_DONE = "[DONE]"


def sse_reference(lines: Sequence[str]) -> tuple[list[str], list[int]]:
    """The data of each event of ``lines`` (without line ends), and the line each started on.

    An independent reading of the event-stream format (WHATWG HTML, "Event
    stream interpretation") as parse_sse documents it: a blank line dispatches,
    ``:`` starts a comment, the field name ends at the first colon and one
    space after it is dropped, ``data`` lines join with a newline, other
    fields carry nothing for us. Two documented departures: an event cut off
    by the end of the stream is still given, and a first data line
    ``[DONE]`` (OpenAI's) ends the stream.
    """
    events: list[str] = []
    starts: list[int] = []
    data: list[str] | None = None
    for number, line in enumerate(lines):
        if line == "":
            if data is not None:
                events.append("\n".join(data))
                data = None
            continue
        if line.startswith(":"):
            continue
        field, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if field != "data":
            continue
        if data is None:
            data = []
            starts.append(number)
        data.append(value)
        if data == [_DONE]:
            starts.pop()
            return events, starts
    if data is not None:
        events.append("\n".join(data))
    return events, starts


def _sse_lines(text: str, *, keep_ends: bool) -> list[str]:
    """``text`` cut at CRLF, LF or CR, as the format says, with or without the line ends."""
    lines: list[str] = []
    start = 0
    position = 0
    while position < len(text):
        char = text[position]
        if char in "\r\n":
            end = position + 2 if text.startswith("\r\n", position) else position + 1
            lines.append(text[start : end if keep_ends else position])
            start = position = end
        else:
            position += 1
    if start < len(text):
        lines.append(text[start:])
    return lines


def _parsed(lines: Sequence[str]) -> tuple[list[str], str | None]:
    """What parse_sse gives for ``lines``: its items as JSON text, and the error path if it raised."""
    items: list[str] = []
    try:
        for item in parse_sse(lines):
            assert type(item) is dict, f"parse_sse gave a {type(item).__name__}"
            items.append(json.dumps(item))
    except InvalidStream as error:
        check_error(error)
        return items, error.path
    return items, None


def check_sse(text: str) -> None:
    """parse_sse of the lines of ``text``: the items the format gives, as objects, or an InvalidStream
    naming the line where the bad event started; lines with or without their ends read the same;
    the items written again as an event stream read back the same."""
    try:
        lines = _sse_lines(text, keep_ends=False)
        items, failure = _parsed(lines)
    except RecursionError:  # an event too deep for json.dumps here; parse_sse itself coped
        return
    assert _parsed(_sse_lines(text, keep_ends=True)) == (items, failure), "line ends changed the items"
    events, starts = sse_reference(lines)
    expected: list[str] = []
    expected_failure = None
    for event, start in zip(events, starts, strict=True):
        try:
            value = json.loads(
                event, parse_constant=_no_constant, parse_float=_finite
            )  # as parse_sse: strict JSON
        except (ValueError, RecursionError):
            expected_failure = f"line[{start}]"
            break
        if not isinstance(value, dict):
            expected_failure = f"line[{start}]"
            break
        expected.append(json.dumps(value))
    assert (items, failure) == (expected, expected_failure), f"parse_sse differs from the format: {lines!r}"
    written = [line for item in items for line in (f"data: {item}", "")]
    assert _parsed(written) == (items, None), "items written as an event stream read back differently"


# -- check_transcript and trim -------------------------------------------------------------


def _transcript_parts(value: object) -> tuple[object, object]:
    """The messages and tools of one dataset line: ``{"messages", "tools"?}`` or a bare list."""
    if isinstance(value, dict):
        return value.get("messages"), value.get("tools")
    return value, None


def check_problems(problems: object, length: int) -> list[Problem]:
    """A list of well-formed Problems, ordered by message index, each inside the transcript."""
    assert type(problems) is list, f"check_transcript gave a {type(problems).__name__}"
    indexes = []
    for problem in problems:
        assert isinstance(problem, Problem)
        assert problem.code, "problem without a code"
        assert problem.message, "problem without a message"
        assert str(problem) == f"{problem.path}: {problem.code}: {problem.message}"
        if problem.index is None:
            assert problem.path == "messages" or problem.path.startswith("tools"), problem.path
            indexes.append(-1)
        else:
            assert 0 <= problem.index < length, f"problem index {problem.index} outside {length} messages"
            assert problem.path.startswith(f"messages[{problem.index}]"), problem.path
            indexes.append(problem.index)
    assert indexes == sorted(indexes), "problems are not in message order"
    return problems


def check_transcripts(value: object) -> None:
    """check_transcript, with no target and with each target: a list of Problems for any list, an
    InvalidTranscript for anything else; the input unchanged; a target only adds problems; and a
    transcript with no problem for a target is one that target's to_request accepts."""
    messages, tools = _transcript_parts(value)
    if tools is not None and not isinstance(tools, list):
        refused = raised(InvalidTranscript, lambda: check_transcript([], tools=tools))  # type: ignore[arg-type]
        assert refused.path == "tools", f"tools as a {type(tools).__name__}: {refused}"
        tools = None
    if not isinstance(messages, list):
        refused = raised(InvalidTranscript, lambda: check_transcript(messages))  # type: ignore[arg-type]
        assert refused.path == "messages", f"messages as a {type(messages).__name__}: {refused}"
        return
    before = json_text(value)
    base = check_problems(check_transcript(messages, tools=tools), len(messages))
    strict = check_problems(check_transcript(messages, tools=tools, allow_pending=False), len(messages))
    assert set(base) <= set(strict), "allow_pending=False lost problems"
    for target in CODECS:
        problems = check_problems(check_transcript(messages, target=target, tools=tools), len(messages))
        assert set(base) <= set(problems), f"target {target} lost problems"
        if not problems:
            assert_sendable(target, messages, tools)
    assert json_text(value) == before, "check_transcript changed its input"


def assert_sendable(target: str, items: list[Any], tools: list[Any] | None) -> None:
    """Documented: no problem for a target means its to_request accepts the transcript."""
    messages = [item if isinstance(item, ChatMessage) else ChatMessage.from_dict(item) for item in items]
    tool_values = None if tools is None else [t if isinstance(t, Tool) else Tool.from_dict(t) for t in tools]
    try:
        wire = PROVIDERS[target].codec.to_request(messages, tools=tool_values)
    except MessageError as error:
        raise AssertionError(f"clean for {target}, yet its to_request refused it: {error}") from None
    wire_text(wire, f"{target}.to_request")
    check_sent_back(CODECS[target], messages, may_refuse=False)


def _tokens(item: object) -> int:
    """A tokenizer stand-in: deterministic, cheap, and different from message to message."""
    if isinstance(item, dict) and isinstance(item.get("content"), str):
        return 1 + len(item["content"]) // 4
    return 1


def check_trim(value: object) -> None:
    """trim with the input's own options (``{"messages", "max_messages"?, ...}``) and with limits
    around the input's size: a sub-sequence of the same items or a MessageError."""
    messages, _ = _transcript_parts(value)
    options = value if isinstance(value, dict) else {}
    given = {key: options[key] for key in ("max_messages", "max_tokens", "start_on_user") if key in options}
    runs: list[dict[str, Any]] = [given] if given else []
    if isinstance(messages, list):
        size = len(messages)
        total = sum(_tokens(item) for item in messages)
        for limit in sorted({0, 1, size // 2, max(size - 1, 0), size}):
            runs.append({"max_messages": limit, "start_on_user": True})
            runs.append({"max_messages": limit, "start_on_user": False})
        runs.append({"max_tokens": total // 2, "start_on_user": False})
        runs.append({"max_tokens": total // 2, "max_messages": size // 2 + 1})
    else:
        runs.append({})
    for run in runs:
        trim_once(messages, run)


def trim_once(messages: object, options: dict[str, Any]) -> None:
    """One trim call: the result is the system messages plus whole trailing units (a turn with the
    tool results after it) that fit the limits, in order, identical items; else a MessageError."""
    counter = _tokens if "max_tokens" in options else None
    try:
        kept = trim(messages, count_tokens=counter, **options)  # type: ignore[arg-type]  # any input
    except MessageError as error:
        failure = error
    else:
        _check_kept(messages, options, kept)
        return
    check_error(failure)
    if isinstance(failure, InvalidTranscript):
        assert failure.path in ("messages", "max_messages", "max_tokens", "start_on_user"), failure.path
    else:
        assert failure.path.startswith("messages["), f"trim error at {failure.path!r}"


def _check_kept(messages: object, options: dict[str, Any], kept: object) -> None:
    """What trim_once asks of ``kept``, what trim returned for ``messages`` with ``options``."""
    assert isinstance(messages, list | tuple)
    assert type(kept) is list
    where = {id(item): index for index, item in enumerate(messages)}
    positions = [where.get(id(item), -1) for item in kept]
    assert -1 not in positions, "trim returned an item that was not given"
    assert positions == sorted(set(positions)), "trim reordered or repeated items"
    roles = [ChatMessage.from_dict(item).role for item in messages]
    system = [i for i, role in enumerate(roles) if role in (Role.SYSTEM, Role.DEVELOPER)]
    others = [i for i, role in enumerate(roles) if role not in (Role.SYSTEM, Role.DEVELOPER)]
    kept_others = [i for i in positions if i not in system]
    assert set(system) <= set(positions), "trim dropped a system message"
    assert kept_others == others[len(others) - len(kept_others) :], "trim kept turns that are not the newest"
    for before, after in itertools.pairwise(others):
        if roles[after] is Role.TOOL:
            assert (before in positions) == (after in positions), "trim split a turn from its results"
    max_messages = options.get("max_messages")
    max_tokens = options.get("max_tokens")
    if max_messages is not None:
        assert len(kept) <= max_messages, "trim kept more messages than allowed"
    if max_tokens is not None:
        assert sum(_tokens(item) for item in kept) <= max_tokens, "trim kept more tokens than allowed"
    fits = (max_messages is None or len(messages) <= max_messages) and (
        max_tokens is None or sum(_tokens(item) for item in messages) <= max_tokens
    )
    if fits:
        assert len(kept) == len(messages), "trim cut a history that fits whole"
    elif options.get("start_on_user", True) and kept_others:
        assert roles[kept_others[0]] is Role.USER, "a cut history does not start on a user turn"


# -- the fuzz targets ------------------------------------------------------------------------


def _bind(check: Callable[[Codec, object], None], codec: Codec) -> Callable[[object], None]:
    return lambda value: check(codec, value)


#: Every fuzz target: its name, and the check it runs on one decoded input (JSON, or text for sse).
TARGETS: dict[str, Callable[[Any], None]] = {
    "message": check_message,
    **{f"{name}_request": _bind(check_request, codec) for name, codec in CODECS.items()},
    **{f"{name}_response": _bind(check_response, codec) for name, codec in CODECS.items()},
    **{f"{name}_stream": _bind(check_stream, codec) for name, codec in CODECS.items()},
    "sse": check_sse,
    "transcript": check_transcripts,
    "trim": check_trim,
}
