"""Property tests of the Gemini stream assembler: any assistant turn, its text cut into parts
over any chunks, assembles back into itself (or into from_response's turn when the calls came
without ids); arbitrary and mutated chunks raise only MessageError."""

from __future__ import annotations

import copy
import itertools
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.property import strategies as s
from tests.test_stream_copies import assembled, wreck
from tests.test_stream_snapshots import assert_snapshots_agree
from toolturns import ChatMessage, Role, ToolCall, gemini

# -- local strategies -------------------------------------------------------------------

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
_TURNS = st.builds(
    lambda text, calls: ChatMessage(Role.ASSISTANT, text, tool_calls=calls or None),
    s.unicode_text(max_size=20),
    _CALLS,
)


@st.composite
def pieces(draw: st.DrawFn, text: str) -> list[str]:
    """``text`` cut at points hypothesis chooses: sometimes one character per piece."""
    if draw(st.booleans()):
        return list(text)
    cuts = sorted(draw(st.sets(st.integers(0, len(text)), max_size=6)))
    return [text[a:b] for a, b in itertools.pairwise([0, *cuts, len(text)])]


@st.composite
def streams(draw: st.DrawFn, turn: ChatMessage) -> tuple[ChatMessage, list[dict[str, Any]]]:
    """The chunks Gemini would stream for ``turn``, and the message they must assemble into.

    Text parts are cut into pieces, calls stay whole; the parts are spread over
    chunks cut anywhere. When the calls are sent without ids, the expected turn
    is from_response's for the whole response (made-up ids).
    """
    wire = gemini.to_request([ChatMessage.user("?"), turn])["contents"][1]["parts"]
    without_ids = draw(st.booleans())
    parts: list[dict[str, Any]] = []
    for part in wire:
        if "text" in part:
            parts += [{"text": piece} for piece in draw(pieces(part["text"]))]
        else:
            part = copy.deepcopy(part)
            if without_ids:
                del part["functionCall"]["id"]
            parts.append(part)
    response_id = draw(st.none() | s.unicode_text(min_size=1, max_size=6))
    cuts = sorted(draw(st.sets(st.integers(0, len(parts)), max_size=5)))
    chunks: list[dict[str, Any]] = []
    for a, b in itertools.pairwise([0, *cuts, len(parts)]):
        item: dict[str, Any] = {"candidates": [{"content": {"role": "model", "parts": parts[a:b]}}]}
        if response_id is not None:
            item["responseId"] = response_id
        chunks.append(item)
    chunks[-1]["candidates"][0]["finishReason"] = "STOP"
    if not without_ids:
        return turn, chunks
    whole: dict[str, Any] = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [p for p in wire if "text" in p] + [p for p in parts if "functionCall" in p],
                }
            }
        ]
    }
    if response_id is not None:
        whole["responseId"] = response_id
    return gemini.from_response(whole), chunks


_CASES = _TURNS.flatmap(streams)
_GOLDEN: list[list[Any]] = [
    [
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "Let me "}]}}], "responseId": "r"},
        {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [
                            {"text": "check."},
                            {
                                "functionCall": {"name": "get_weather", "args": {"city": "Paris"}},
                                "thoughtSignature": "c2ln",
                            },
                        ],
                    },
                    "finishReason": "STOP",
                }
            ],
            "usageMetadata": {"promptTokenCount": 3, "totalTokenCount": 9},
            "responseId": "r",
        },
    ]
]


# -- properties -------------------------------------------------------------------------


@given(_CASES)
def test_any_cut_of_a_turn_assembles_back_into_it(case: tuple[ChatMessage, list[dict[str, Any]]]) -> None:
    """For any valid assistant turn and any spread of its parts over chunks, the assembled message is the turn."""
    expected, chunks = case
    assembler = gemini.StreamAssembler()
    for item in chunks:
        assembler.feed(item)
    assert assembler.message() == expected
    assert assembler.ended
    assert assembler.finish_reason == "STOP"


@given(st.lists(s.arbitrary_json(), max_size=6))
def test_arbitrary_json_raises_only_message_error(items: list[Any]) -> None:
    """Any JSON fed in either assembles or raises a MessageError, in feed, snapshot and message."""
    s.feed_expecting_only_message_errors(gemini.StreamAssembler(), items)


@given(s.mutated(st.sampled_from(_GOLDEN)))
def test_mutated_streams_raise_only_message_error(chunks: list[Any]) -> None:
    """A valid stream with a mistake deep inside either assembles or raises a MessageError."""
    s.feed_expecting_only_message_errors(gemini.StreamAssembler(), chunks)


# -- incremental snapshots, and what was fed changed afterwards ------------------------------------


@st.composite
def late_ids(draw: st.DrawFn, chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``chunks`` whose responseId comes only from some chunk on: the made-up ids change then."""
    first = draw(st.integers(0, len(chunks) - 1))  # the last chunk has it, as the whole response
    chunks = copy.deepcopy(chunks)
    for chunk in chunks[:first]:
        chunk.pop("responseId", None)
    return chunks


_POINTS = st.sets(st.integers(1, 80), max_size=4)


@given(_CASES.flatmap(lambda case: st.one_of(late_ids(case[1]), s.mutated(st.just(case[1])))), _POINTS)
def test_a_snapshot_after_every_chunk_shows_what_one_from_scratch_shows(
    chunks: list[Any], points: set[int]
) -> None:
    """Parts in any chunks, the responseId late, or a chunk broken: a snapshot after every chunk shows
    what a snapshot of the same chunks taken at once shows."""
    assert_snapshots_agree(gemini.StreamAssembler, chunks, points)


@given(_CASES.flatmap(lambda case: st.tuples(st.just(case[0]), late_ids(case[1]))))
def test_the_last_snapshot_shows_the_message(case: tuple[ChatMessage, list[dict[str, Any]]]) -> None:
    """The snapshot after the last chunk has the message's text and its calls, made-up ids included,
    however late the responseId they are seeded with came."""
    expected, chunks = case
    assembler = gemini.StreamAssembler()
    for item in chunks:
        assembler.feed(item)
        assembler.snapshot()
    snapshot = assembler.snapshot()
    assert snapshot.content == expected.content
    assert [(p.id, p.name, p.arguments_json) for p in snapshot.tool_calls] == [
        (c.id, c.name, c.arguments_json) for c in expected.tool_calls or ()
    ]


@given(_CASES)
def test_changing_what_was_fed_changes_nothing_assembled(
    case: tuple[ChatMessage, list[dict[str, Any]]],
) -> None:
    """Every dict and list of the chunks changed after feeding them: message, snapshot and usage are as before."""
    expected, chunks = case
    stream = gemini.StreamAssembler()
    for item in chunks:
        stream.feed(item)
    before = assembled(stream)
    wreck(chunks)
    assert assembled(stream) == before
    assert before[0] == expected
