"""Properties of ``ollama.StreamAssembler``: any split of a turn into chunks assembles back; only MessageError escapes."""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.property import strategies as s
from tests.test_stream_copies import assembled, wreck
from tests.test_stream_snapshots import assert_snapshots_agree
from toolturns import ChatMessage, ToolCall, ollama

_NAMES = st.text(st.sampled_from("abcxyz_-0129"), min_size=1, max_size=8)


@st.composite
def _messages(draw: st.DrawFn) -> ChatMessage:
    """A valid assistant turn: text and/or 1-3 tool calls with JSON-object arguments."""
    text = draw(s.unicode_text(max_size=30))
    count = draw(st.integers(0, 3))
    if count == 0:
        return ChatMessage.assistant(text)
    ids = draw(st.lists(_NAMES, min_size=count, max_size=count, unique=True))
    calls = [ToolCall(call_id, draw(_NAMES), draw(s.valid_object_texts())) for call_id in ids]
    return ChatMessage.assistant_tool_calls(calls, text)


def _chunks(message: ChatMessage, seed: int, one_char: bool, with_ids: bool) -> list[dict[str, Any]]:
    """The NDJSON items of ``message``: text cut anywhere, each call whole on some chunk (the done one too)."""
    rng = random.Random(seed)
    wire = ollama.to_request([message])["messages"][0]
    calls = wire.get("tool_calls", [])
    if not with_ids:
        calls = [{key: value for key, value in call.items() if key != "id"} for call in calls]
    text = message.text
    if one_char:
        pieces = list(text)
    else:
        points = sorted({rng.randrange(len(text) + 1) for _ in range(rng.randrange(4))} | {0, len(text)})
        pieces = [text[a:b] for a, b in itertools.pairwise(points)]
    messages: list[dict[str, Any]] = [{"role": "assistant", "content": piece} for piece in pieces]
    messages.append({"role": "assistant", "content": ""})  # the done chunk
    targets = sorted(
        rng.randrange(len(messages)) for _ in calls
    )  # in order: calls come as the model made them
    for call, target in zip(calls, targets, strict=True):
        messages[target].setdefault("tool_calls", []).append(copy.deepcopy(call))
    items = [
        {"model": "m", "created_at": f"2025-07-07T20:22:{number:02d}Z", "message": one, "done": False}
        for number, one in enumerate(messages)
    ]
    items[-1].update(done=True, done_reason="stop", eval_count=len(items))
    return items


def _whole(items: list[dict[str, Any]]) -> dict[str, Any]:
    """The response Ollama sends unstreamed: the last chunk, texts joined, calls of all chunks."""
    response = copy.deepcopy(items[-1])
    response["message"]["content"] = "".join(one["message"]["content"] for one in items)
    calls = [call for one in items for call in one["message"].get("tool_calls", [])]
    if calls:
        response["message"]["tool_calls"] = calls
    return response


@given(_messages(), st.integers(0, 2**32), st.booleans())
def test_any_split_of_the_chunks_assembles_back(message: ChatMessage, seed: int, one_char: bool) -> None:
    """Assembling the chunks of M (text cut anywhere, calls on any chunk) gives M."""
    stream = ollama.StreamAssembler()
    for item in _chunks(message, seed, one_char, with_ids=True):
        stream.feed(item)
        stream.snapshot()
    assert stream.message() == message
    assert stream.ended


@given(_messages(), st.integers(0, 2**32), st.booleans())
def test_calls_without_ids_get_from_response_ids(message: ChatMessage, seed: int, one_char: bool) -> None:
    """Without ids, the assembled turn equals from_response of the unstreamed response, made-up ids included."""
    items = _chunks(message, seed, one_char, with_ids=False)
    stream = ollama.StreamAssembler()
    for item in items:
        stream.feed(item)
    assert stream.message() == ollama.from_response(_whole(items))
    assert [call.id for call in stream.snapshot().tool_calls] == [
        call.id for call in stream.message().tool_calls or ()
    ]


_CHUNKS = st.builds(_chunks, _messages(), st.integers(0, 2**32), st.just(False), st.booleans())


@given(
    st.one_of(
        st.lists(s.arbitrary_json(), max_size=4),
        _CHUNKS.flatmap(lambda c: st.lists(s.mutated(st.sampled_from(c)), max_size=5)),
    )
)
def test_arbitrary_items_raise_only_message_error(items: list[Any]) -> None:
    """Arbitrary JSON and near-valid items fed in give a message or a MessageError, nothing else."""
    s.feed_expecting_only_message_errors(ollama.StreamAssembler(), items)


# -- incremental snapshots, and what was fed changed afterwards ------------------------------------


_POINTS = st.sets(st.integers(1, 80), max_size=4)
_CHUNKS_EITHER_WAY = st.builds(_chunks, _messages(), st.integers(0, 2**32), st.booleans(), st.booleans())


@given(
    _CHUNKS_EITHER_WAY.flatmap(lambda items: st.one_of(st.just(items), s.mutated(st.just(items)))), _POINTS
)
def test_a_snapshot_after_every_chunk_shows_what_one_from_scratch_shows(
    items: list[Any], points: set[int]
) -> None:
    """Calls with ids or without (made up once the stream ended), or a chunk broken: a snapshot after
    every chunk shows what a snapshot of the same chunks taken at once shows."""
    assert_snapshots_agree(ollama.StreamAssembler, items, points)


@given(_CHUNKS_EITHER_WAY)
def test_changing_what_was_fed_changes_nothing_assembled(items: list[dict[str, Any]]) -> None:
    """Every dict and list of the chunks changed after feeding them: message, snapshot and usage are as before."""
    stream = ollama.StreamAssembler()
    for item in items:
        stream.feed(item)
    before = assembled(stream)
    wreck(items)
    assert assembled(stream) == before
