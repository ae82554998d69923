"""The public values of streaming: the SSE reader and the live view of a stream.

Each provider's ``StreamAssembler`` (built on ``providers._stream.Assembler``)
gives a ``StreamSnapshot`` of ``PartialToolCall`` values while it is fed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from ._checks import exact_str, lazy_pattern
from ._errors import InvalidStream, describe
from ._frozen import value_class
from ._json import decode

__all__ = ["PartialToolCall", "StreamSnapshot", "parse_sse"]


def parse_sse(lines: str | bytes | Iterable[str | bytes]) -> Iterator[dict[str, Any]]:
    """Turn the lines of a Server-Sent Events stream into the items to feed.

    Follows the SSE format: ``data:`` lines of one event are joined with a
    newline and the event ends at a blank line; comments (``: ping``) and
    ``event:``, ``id:`` and ``retry:`` lines carry nothing an assembler needs
    (Anthropic repeats the event name as the data's ``type``); blank
    keep-alives are skipped; one leading byte order mark is ignored. OpenAI's
    closing ``[DONE]`` ends the iteration.

    ``lines`` are ``str`` or UTF-8 ``bytes`` (what requests' ``iter_lines()``
    gives), with or without their line ends. ``lines`` may also be the whole
    body as one ``str`` or ``bytes`` (``response.text``, ``response.content``):
    it is split where SSE ends a line, at CR, LF or CRLF only (never at
    U+2028, U+2029 or U+0085, which ``str.splitlines()`` also breaks at and
    a JSON string may hold raw). Each event's data is decoded as every
    toolturns reader decodes JSON: ``NaN``, ``Infinity`` and numbers no
    double can hold (``1e999``) are not JSON.

    Raises:
        InvalidStream: ``lines`` is neither lines nor a body (at once, with
            the path ``lines``); a line is not ``str`` or UTF-8 ``bytes``, or an
            event's data is not a JSON object (as the items are read, with the
            path of the line where the event started: ``line[12]``).

    >>> list(parse_sse(["event: ping", 'data: {"type": "ping"}', "", ": keep-alive", "data: [DONE]"]))
    [{'type': 'ping'}]
    >>> list(parse_sse(b'data: {"a": 1}\\r\\n\\r\\ndata: {"b": 2}\\r\\n\\r\\n'))
    [{'a': 1}, {'b': 2}]
    """
    if isinstance(lines, (str, bytes)):
        # Iterating a body would give its characters (or ints), and no event would ever be found.
        return _events(_split(lines))
    try:
        return _events(iter(lines))
    except TypeError:
        raise InvalidStream(
            "lines",
            "must be the lines of a Server-Sent Events stream (str or bytes each) or its whole body (str or bytes)",
            describe(lines),
        ) from None


# SSE's line ends: "Lines must be separated by either a U+000D CARRIAGE RETURN
# U+000A LINE FEED (CRLF) character pair, a single U+000A LINE FEED (LF)
# character, or a single U+000D CARRIAGE RETURN (CR) character."
# (https://html.spec.whatwg.org/multipage/server-sent-events.html#parsing-an-event-stream)
_LINE_END = lazy_pattern(r"\r\n?|\n")
_BYTES_LINE_END = lazy_pattern(rb"\r\n?|\n")


def _split(body: str | bytes) -> Iterator[str | bytes]:
    """The lines of a whole body, one at a time (a large body is not copied into a list of lines)."""
    ends: Iterator[re.Match[Any]] = (
        _LINE_END.finditer(body) if isinstance(body, str) else _BYTES_LINE_END.finditer(body)
    )
    start = 0
    for end in ends:
        yield body[start : end.start()]
        start = end.end()
    yield body[start:]


def _events(lines: Iterator[object]) -> Iterator[dict[str, Any]]:
    data: list[str] = []
    start = 0
    for number, raw in enumerate(lines):
        line = _text(raw, number).rstrip("\r\n")
        if number == 0:  # "One leading U+FEFF BYTE ORDER MARK character must be ignored"
            line = line.removeprefix("\ufeff")
        if not line:
            if data:
                yield _event(data, start)
                data = []
            continue
        field, _, value = line.partition(":")
        if field != "data":
            continue  # a comment, event:, id: or retry: line
        if not data:
            start = number
        data.append(value.removeprefix(" "))
        if data == ["[DONE]"]:
            return
    if data:  # a stream that ended without the closing blank line
        yield _event(data, start)


def _text(line: object, number: int) -> str:
    if isinstance(line, str):
        return exact_str(line)
    if not isinstance(line, bytes):
        raise InvalidStream(f"line[{number}]", "must be a str or bytes line", describe(line))
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidStream(
            f"line[{number}]",
            f"must be UTF-8 text ({error.reason} at byte {error.start})",
            describe(line.decode("utf-8", "backslashreplace")),
        ) from None


def _event(data: list[str], start: int) -> dict[str, Any]:
    text = "\n".join(data)
    try:
        item = decode(text)
    except ValueError as exc:
        raise InvalidStream(f"line[{start}]", f"must be JSON data ({exc})", describe(text)) from None
    if not isinstance(item, dict):
        raise InvalidStream(f"line[{start}]", "must be a JSON object", describe(text))
    return item


@value_class(frozen=True, slots=True)
class PartialToolCall:
    """A tool call as far as it has streamed: id and name once known, the argument text so far.

    >>> from toolturns import openai
    >>> stream = openai.StreamAssembler()
    >>> stream.feed({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "call_1",
    ...     "type": "function", "function": {"name": "get_weather", "arguments": '{"ci'}}]}}]})
    >>> stream.snapshot().tool_calls
    (PartialToolCall(id='call_1', name='get_weather', arguments_json='{"ci'),)
    """

    id: str | None
    name: str | None
    arguments_json: str

    def __init__(self, id: str | None, name: str | None, arguments_json: str) -> None:
        # Text as every field keeps it: a caller's str subclass by its characters.
        object.__setattr__(self, "id", _plain_text(id))
        object.__setattr__(self, "name", _plain_text(name))
        object.__setattr__(self, "arguments_json", _plain_text(arguments_json))


@value_class(frozen=True, slots=True)
class StreamSnapshot:
    """The text and tool calls of a stream so far, for a UI that renders them live.

    >>> from toolturns import ollama
    >>> stream = ollama.StreamAssembler()
    >>> stream.feed({"model": "llama3.2", "created_at": "2025-07-07T20:22:19Z",
    ...              "message": {"role": "assistant", "content": "Let me"}, "done": False})
    >>> stream.snapshot()
    StreamSnapshot(content='Let me', tool_calls=(), finish_reason=None)
    """

    content: str
    tool_calls: tuple[PartialToolCall, ...]
    finish_reason: str | None

    def __init__(
        self, content: str, tool_calls: tuple[PartialToolCall, ...], finish_reason: str | None
    ) -> None:
        object.__setattr__(self, "content", _plain_text(content))
        object.__setattr__(self, "tool_calls", tool_calls)
        object.__setattr__(self, "finish_reason", _plain_text(finish_reason))


def _plain_text(value: Any) -> Any:
    """A str subclass as a plain str (its characters; none of its methods called); else ``value``."""
    return exact_str(value) if isinstance(value, str) else value
