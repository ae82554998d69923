"""Property tests of the Anthropic stream assembler: any assistant turn, streamed in any
cut of its blocks, assembles back into itself; arbitrary and mutated events raise only MessageError."""

from __future__ import annotations

import itertools
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import wire_examples
from tests.property import strategies as s
from tests.test_stream_copies import assembled, wreck
from tests.test_stream_snapshots import assert_snapshots_agree
from toolturns import ChatMessage, Role, ToolCall, anthropic

# -- local strategies -------------------------------------------------------------------

_THINKING = st.builds(
    lambda thinking, signature: {"type": "thinking", "thinking": thinking, "signature": signature},
    s.unicode_text(max_size=12),
    s.unicode_text(min_size=1, max_size=8),
)
_CALLS = st.lists(
    st.builds(
        ToolCall,
        s.unicode_text(min_size=1, max_size=8),
        s.unicode_text(min_size=1, max_size=6),
        s.json_objects(deep=False),
    ),
    max_size=3,
    unique_by=lambda call: call.id,
)


@st.composite
def assistant_turns(draw: st.DrawFn) -> ChatMessage:
    """Valid assistant turns: text, 0-3 calls with JSON-object arguments, maybe a thinking block first."""
    calls = draw(_CALLS)
    thinking = draw(st.none() | _THINKING)
    return ChatMessage(
        Role.ASSISTANT,
        draw(s.unicode_text(max_size=20)),
        tool_calls=calls or None,
        provider_data=None if thinking is None else {"anthropic": {"items": [[0, thinking]]}},
    )


@st.composite
def pieces(draw: st.DrawFn, text: str) -> list[str]:
    """``text`` cut at points hypothesis chooses: sometimes one character per piece, never losing a character."""
    if draw(st.booleans()):
        return list(text)
    cuts = sorted(draw(st.sets(st.integers(0, len(text)), max_size=6)))
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds)]


@st.composite
def streams(draw: st.DrawFn, turn: ChatMessage) -> list[dict[str, Any]]:
    """The events Anthropic would stream for ``turn``: its wire blocks, each fragment cut anywhere, pings anywhere."""
    content = anthropic.to_request([ChatMessage.user("?"), turn])["messages"][1]["content"]
    blocks = (
        content if isinstance(content, list) else ([{"type": "text", "text": content}] if content else [])
    )
    events: list[dict[str, Any]] = [
        {
            "type": "message_start",
            "message": {"type": "message", "role": "assistant", "content": [], "usage": {"input_tokens": 1}},
        }
    ]

    def deltas(index: int, kind: str, key: str, text: str) -> None:
        for piece in draw(pieces(text)):
            events.append(
                {"type": "content_block_delta", "index": index, "delta": {"type": kind, key: piece}}
            )
            if draw(st.integers(0, 9)) == 0:
                events.append({"type": "ping"})

    for index, block in enumerate(blocks):
        if block["type"] == "text":
            events.append(
                {"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}
            )
            deltas(index, "text_delta", "text", block["text"])
        elif block["type"] == "tool_use":
            start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            events.append({"type": "content_block_start", "index": index, "content_block": start})
            deltas(
                index,
                "input_json_delta",
                "partial_json",
                "" if not block["input"] else json.dumps(block["input"]),
            )
        else:
            start = {"type": "thinking", "thinking": "", "signature": ""}
            events.append({"type": "content_block_start", "index": index, "content_block": start})
            deltas(index, "thinking_delta", "thinking", block["thinking"])
            deltas(index, "signature_delta", "signature", block["signature"])
        events.append({"type": "content_block_stop", "index": index})
    reason = "tool_use" if turn.tool_calls else "end_turn"
    events += [
        {"type": "message_delta", "delta": {"stop_reason": reason}, "usage": {"output_tokens": 9}},
        {"type": "message_stop"},
    ]
    return events


_TURN_AND_STREAM = assistant_turns().flatmap(lambda turn: st.tuples(st.just(turn), streams(turn)))
_GOLDEN = [[item["data"] for item in e["data"]] for e in wire_examples("anthropic", "stream_chunks")]


# -- properties -------------------------------------------------------------------------


@given(_TURN_AND_STREAM)
def test_any_cut_of_a_turn_assembles_back_into_it(
    turn_and_stream: tuple[ChatMessage, list[dict[str, Any]]],
) -> None:
    """For any valid assistant turn and any cut of its blocks into deltas, the assembled message is the turn."""
    turn, events = turn_and_stream
    assembler = anthropic.StreamAssembler()
    for event in events:
        assembler.feed(event)
    assert assembler.message() == turn
    assert assembler.ended
    assert assembler.finish_reason == ("tool_use" if turn.tool_calls else "end_turn")


@given(st.lists(s.arbitrary_json(), max_size=6))
def test_arbitrary_json_raises_only_message_error(items: list[Any]) -> None:
    """Any JSON fed in either assembles or raises a MessageError, in feed, snapshot and message."""
    s.feed_expecting_only_message_errors(anthropic.StreamAssembler(), items)


@given(s.mutated(st.sampled_from(_GOLDEN)))
def test_mutated_golden_streams_raise_only_message_error(events: list[Any]) -> None:
    """A recorded stream with a mistake deep inside either assembles or raises a MessageError."""
    s.feed_expecting_only_message_errors(anthropic.StreamAssembler(), events)


# -- incremental snapshots, and what was fed changed afterwards ------------------------------------


@st.composite
def interleaved(draw: st.DrawFn, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` with every block started first, then their deltas merged in any order (each block's in
    its own order), then the stops: blocks streamed side by side, as the event protocol allows."""
    starts = [e for e in events if e["type"] == "content_block_start"]
    stops = [e for e in events if e["type"] == "content_block_stop"]
    queues = [
        [e for e in events if e["type"] == "content_block_delta" and e["index"] == i]
        for i in range(len(starts))
    ]
    deltas = []
    while any(queues):
        queue = draw(st.sampled_from([q for q in queues if q]))
        deltas.append(queue.pop(0))
    return [events[0], *starts, *deltas, *draw(st.permutations(stops)), *events[-2:]]


@st.composite
def texts_and_calls(draw: st.DrawFn) -> tuple[str, list[dict[str, Any]]]:
    """Several text blocks and tool_use blocks in any order, each streamed in pieces; the text they make."""
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": {"role": "assistant", "content": []}}
    ]
    texts = []
    for index in range(draw(st.integers(1, 5))):
        if draw(st.booleans()):
            text = draw(s.unicode_text(max_size=8))
            texts.append(text)
            start: dict[str, Any] = {"type": "text", "text": ""}
            kind, key = "text_delta", "text"
        else:
            text = json.dumps({"n": draw(s.unicode_text(max_size=6))})
            start = {"type": "tool_use", "id": f"toolu_{index}", "name": "f", "input": {}}
            kind, key = "input_json_delta", "partial_json"
        events.append({"type": "content_block_start", "index": index, "content_block": start})
        events += [
            {"type": "content_block_delta", "index": index, "delta": {"type": kind, key: piece}}
            for piece in draw(pieces(text))
        ]
        events.append({"type": "content_block_stop", "index": index})
    events += [{"type": "message_delta", "delta": {"stop_reason": "end_turn"}}, {"type": "message_stop"}]
    return "".join(texts), events


_POINTS = st.sets(st.integers(1, 80), max_size=4)
_SIDE_BY_SIDE = texts_and_calls().flatmap(lambda case: st.tuples(st.just(case[0]), interleaved(case[1])))


@given(
    st.one_of(
        _TURN_AND_STREAM.map(lambda case: case[1]),
        _TURN_AND_STREAM.flatmap(lambda case: interleaved(case[1])),
        _SIDE_BY_SIDE.map(lambda case: case[1]),
        _TURN_AND_STREAM.flatmap(lambda case: s.mutated(st.just(case[1]))),
    ),
    _POINTS,
)
def test_a_snapshot_after_every_event_shows_what_one_from_scratch_shows(
    events: list[Any], points: set[int]
) -> None:
    """Blocks one after another or side by side, or an event broken: a snapshot after every event shows
    what a snapshot of the same events taken at once shows."""
    assert_snapshots_agree(anthropic.StreamAssembler, events, points)


def _block_order(event: dict[str, Any]) -> float:
    """Where an event goes when blocks stream one after another (a stable sort keeps each block's order)."""
    if event["type"] == "message_start":
        return -1
    return event["index"] if "index" in event else float("inf")


@given(_SIDE_BY_SIDE)
def test_blocks_streamed_side_by_side_assemble_as_one_after_another(
    case: tuple[str, list[dict[str, Any]]],
) -> None:
    """Text and tool_use blocks whose deltas interleave: the snapshot after every event and the message have
    the texts in block order, and the message is the one the blocks streamed one after another give."""
    text, events = case
    assembler, in_order = anthropic.StreamAssembler(), anthropic.StreamAssembler()
    for event in events:
        assembler.feed(event)
        assembler.snapshot()
    for event in sorted(events, key=_block_order):
        in_order.feed(event)
    assert assembler.snapshot().content == assembler.message().content == text
    assert assembler.message() == in_order.message()


@given(_TURN_AND_STREAM)
def test_changing_what_was_fed_changes_nothing_assembled(
    case: tuple[ChatMessage, list[dict[str, Any]]],
) -> None:
    """Every dict and list of the events changed after feeding them: message, snapshot and usage are as before."""
    turn, events = case
    stream = anthropic.StreamAssembler()
    for event in events:
        stream.feed(event)
    before = assembled(stream)
    wreck(events)
    assert assembled(stream) == before
    assert before[0] == turn
