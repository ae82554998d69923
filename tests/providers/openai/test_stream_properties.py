"""Properties of ``openai.StreamAssembler``: any cut of a message's chunks assembles back; only MessageError escapes."""

from __future__ import annotations

import itertools
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.property import strategies as s
from toolturns import ChatMessage, ToolCall, openai

_NAMES = st.text(st.sampled_from("abcxyz_-0129"), min_size=1, max_size=8)
_TEXT = s.unicode_text(max_size=30)


@st.composite
def _messages(draw: st.DrawFn) -> ChatMessage:
    """A valid assistant turn: text and/or 1-3 tool calls with JSON-object argument text."""
    text = draw(_TEXT)
    count = draw(st.integers(0, 3))
    if count == 0:
        return ChatMessage.assistant(text)
    ids = draw(st.lists(_NAMES, min_size=count, max_size=count, unique=True))
    calls = [ToolCall(call_id, draw(_NAMES), draw(s.valid_object_texts())) for call_id in ids]
    return ChatMessage.assistant_tool_calls(calls, text)


def _cut(text: str, rng: random.Random, one_char: bool) -> list[str]:
    """``text`` cut at random points (every character apart with ``one_char``)."""
    if one_char:
        return list(text)
    points = sorted({rng.randrange(len(text) + 1) for _ in range(rng.randrange(4))} | {0, len(text)})
    return [text[a:b] for a, b in itertools.pairwise(points)]


def _chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
    return {
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }


def _wire_chunks(message: ChatMessage, seed: int, one_char: bool, repeat_ids: bool) -> list[dict[str, Any]]:
    """The chunks of ``message``: text and arguments cut anywhere, calls interleaved, ids repeated or not."""
    rng = random.Random(seed)
    items = [_chunk({"role": "assistant", "content": ""})]
    items += [_chunk({"content": piece}) for piece in _cut(message.content, rng, one_char)]
    queues = []
    for index, call in enumerate(message.tool_calls or ()):
        pieces = _cut(call.arguments_json, rng, one_char)
        first = {
            "index": index,
            "id": call.id,
            "type": "function",
            "function": {"name": call.name, "arguments": ""},
        }
        later = [
            {"index": index, "id": call.id, "function": {"name": call.name, "arguments": piece}}
            if repeat_ids
            else {"index": index, "function": {"arguments": piece}}
            for piece in pieces
        ]
        queues.append([first, *later])
    while queues:  # interleave the calls' deltas, each call's in order
        queue = rng.choice(queues)
        items.append(_chunk({"tool_calls": [queue.pop(0)]}))
        if not queue:
            queues.remove(queue)
    items.append(_chunk({}, "tool_calls" if message.tool_calls else "stop"))
    items.append({"object": "chat.completion.chunk", "choices": [], "usage": {"total_tokens": len(items)}})
    return items


@given(_messages(), st.integers(0, 2**32), st.booleans(), st.booleans())
def test_any_cut_of_the_chunks_assembles_back(
    message: ChatMessage, seed: int, one_char: bool, repeat_ids: bool
) -> None:
    """Assembling the chunks of M, cut anywhere (one character apart, ids repeated or not), gives M."""
    stream = openai.StreamAssembler()
    for item in _wire_chunks(message, seed, one_char, repeat_ids):
        stream.feed(item)
        stream.snapshot()
    assert stream.message() == message
    assert stream.ended


_CHUNKS = st.builds(_wire_chunks, _messages(), st.integers(0, 2**32), st.just(False), st.booleans())


@given(
    st.one_of(
        st.lists(s.arbitrary_json(), max_size=4),
        _CHUNKS.flatmap(lambda c: st.lists(s.mutated(st.sampled_from(c)), max_size=5)),
    )
)
def test_arbitrary_items_raise_only_message_error(items: list[Any]) -> None:
    """Arbitrary JSON and near-valid chunks fed in give a message or a MessageError, nothing else."""
    s.feed_expecting_only_message_errors(openai.StreamAssembler(), items)
