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
