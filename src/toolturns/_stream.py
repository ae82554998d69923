"""The public values of streaming: the SSE reader and the live view of a stream.

Each provider's ``StreamAssembler`` (built on ``providers._stream.Assembler``)
gives a ``StreamSnapshot`` of ``PartialToolCall`` values while it is fed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ._errors import InvalidStream, describe
from ._frozen import refuse_changes

__all__ = ["PartialToolCall", "StreamSnapshot", "parse_sse"]


def parse_sse(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """Turn the text lines of a Server-Sent Events stream into the items to feed.

    Follows the SSE format: ``data:`` lines of one event are joined with a
    newline and the event ends at a blank line; comments (``: ping``) and
    ``event:``, ``id:`` and ``retry:`` lines carry nothing an assembler needs
    (Anthropic repeats the event name as the data's ``type``); blank
    keep-alives are skipped. OpenAI's closing ``[DONE]`` ends the iteration.

    ``lines`` may also be the whole body as one string (``response.text``):
    it is split into lines. (Iterating a string would give its characters,
    and no event would ever be found.)

    Raises:
        InvalidStream: an event's data is not a JSON object; the path names
            the line where the event started (``line[12]``).

    >>> list(parse_sse(["event: ping", 'data: {"type": "ping"}', "", ": keep-alive", "data: [DONE]"]))
    [{'type': 'ping'}]
    >>> list(parse_sse('data: {"a": 1}\\n\\ndata: {"b": 2}\\n\\n'))
    [{'a': 1}, {'b': 2}]
    """
    data: list[str] = []
    start = 0
    for number, raw in enumerate(lines.splitlines() if isinstance(lines, str) else lines):
        line = raw.rstrip("\r\n")
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


def _event(data: list[str], start: int) -> dict[str, Any]:
    text = "\n".join(data)
    try:
        item = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise InvalidStream(f"line[{start}]", f"must be JSON data ({exc})", describe(text)) from None
    if not isinstance(item, dict):
        raise InvalidStream(f"line[{start}]", "must be a JSON object", describe(text))
    return item


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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


refuse_changes(PartialToolCall)
refuse_changes(StreamSnapshot)
