"""Property tests of toolturns.datasets: for any rows (valid and broken transcripts, as lists, as
JSON text, with Arrow's null padding), check_batch gives exactly check_transcript's problems,
convert_batch the codec's body or its reason, and neither raises."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from toolturns import ChatMessage, MessageError, check_transcript, openai
from toolturns.datasets import check_batch, convert_batch
from toolturns.providers import PROVIDERS

from . import strategies as s
from .test_transcript_properties import LOOPS, SAFE_LOOPS, TOOL_DICTS, perturbed

TARGETS = st.sampled_from([None, *PROVIDERS])

# Message items as a JSONL line holds them: wire dicts, near-valid and mutated ones, any JSON.
ITEMS = st.one_of(
    s.arbitrary_json(), s.message_dicts(), s.mutated(s.chat_messages().map(ChatMessage.to_wire))
)


@st.composite
def wire_transcripts(draw: st.DrawFn) -> list[Any]:
    """A valid or perturbed loop as wire dicts, with up to two other items put in."""
    loop = draw(st.one_of(perturbed(SAFE_LOOPS), perturbed(LOOPS)))
    wires: list[Any] = [message.to_wire() for message in loop]
    places = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(0, 2))):
        wires.insert(places.randint(0, len(wires)), draw(ITEMS))
    return wires


TOOLS = st.none() | st.lists(TOOL_DICTS, max_size=3)
# Keys Arrow fills with null in a message that never had them (another row's message has them).
PADDED_KEYS = ("tool_calls", "tool_call_id", "name", "weight", "refusal", "is_error")


def pad(messages: list[Any], keys: Sequence[str]) -> list[Any]:
    """The messages as Arrow gives them back: a null for each of ``keys`` a message dict lacks."""
    return [
        {**message, **{key: None for key in keys if key not in message}}
        if isinstance(message, dict)
        else message
        for message in messages
    ]


def without_nulls(value: Any) -> Any:
    """What a tool list read from Arrow means: no object member is null."""
    if isinstance(value, dict):
        return {key: without_nulls(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [without_nulls(item) for item in value]
    return value


def as_text(value: Any) -> str | None:
    """The JSON text of a value, when it has one that reads back as the same value."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        return None
    return text if json.loads(text) == value else None


def problem_dicts(messages: list[Any], tools: list[Any] | None, target: str | None) -> list[dict[str, Any]]:
    return [
        {"index": p.index, "path": p.path, "code": p.code, "message": p.message}
        for p in check_transcript(messages, tools=tools, target=target)
    ]


@given(st.lists(st.tuples(wire_transcripts(), TOOLS), min_size=1, max_size=3), TARGETS, st.data())
def test_check_batch_gives_check_transcripts_problems_for_every_shape(
    rows: list[tuple[list[Any], list[Any] | None]], target: str | None, data: st.DataObject
) -> None:
    """Each row as a list, as JSON text or padded as Arrow pads it: check_transcript's problems."""
    messages_cells: list[Any] = []
    tools_cells: list[Any] = []
    want: list[list[dict[str, Any]]] = []
    for messages, tools in rows:
        shape = data.draw(st.sampled_from(["list", "text", "padded"]))
        messages_text, tools_text = as_text(messages), as_text(tools)
        if shape == "text" and messages_text is not None and tools_text is not None:
            messages_cells.append(messages_text)
            tools_cells.append(tools_text)
            want.append(problem_dicts(json.loads(messages_text), json.loads(tools_text), target))
            continue
        keys = data.draw(st.lists(st.sampled_from(PADDED_KEYS), unique=True)) if shape == "padded" else []
        messages_cells.append(pad(messages, keys))
        tools_cells.append(tools)
        want.append(problem_dicts(messages, without_nulls(tools), target))
    result = check_batch({"messages": messages_cells, "tools": tools_cells}, target=target)
    assert [json.loads(text) for text in result["problems"]] == want
    assert result["clean"] == [not problems for problems in want]


ANY_CELLS = st.one_of(
    s.arbitrary_json(),
    st.lists(ITEMS, max_size=4),
    s.arbitrary_json().map(json.dumps),
    st.text(max_size=20),
    s.hostile_values(),
)


@given(st.lists(st.tuples(ANY_CELLS, ANY_CELLS), min_size=1, max_size=3), TARGETS)
def test_any_cells_give_a_problems_column_and_never_raise(
    rows: list[tuple[Any, Any]], target: str | None
) -> None:
    """Whatever a cell holds: one JSON text of well-formed problems per row, the same for a row alone."""
    batch = {"messages": [row[0] for row in rows], "tools": [row[1] for row in rows]}
    result = check_batch(batch, target=target)
    assert len(result["problems"]) == len(result["clean"]) == len(rows)
    for text, clean in zip(result["problems"], result["clean"], strict=True):
        found = json.loads(text)
        assert clean == (found == [])
        assert all(set(problem) == {"index", "path", "code", "message"} for problem in found)
    assert [
        check_batch({"messages": [m], "tools": [t]}, target=target)["problems"][0] for m, t in rows
    ] == result["problems"]


def codec_body(messages: list[Any], tools: list[Any] | None, to: str) -> dict[str, Any] | None:
    try:
        return PROVIDERS[to].codec.to_request(
            openai.from_request(messages), tools=None if tools is None else openai.read_tools(tools)
        )
    except MessageError:
        return None


@given(
    st.lists(st.tuples(wire_transcripts(), TOOLS), min_size=1, max_size=3), st.sampled_from(list(PROVIDERS))
)
def test_convert_batch_gives_the_codecs_body_or_why_not(
    rows: list[tuple[list[Any], list[Any] | None]], to: str
) -> None:
    """A body exactly when the codec converts the row, and then the codec's body; else a reason."""
    batch = {"messages": [row[0] for row in rows], "tools": [row[1] for row in rows]}
    result = convert_batch(batch, to=to)
    for (messages, tools), body, error in zip(rows, result["body"], result["error"], strict=True):
        want = codec_body(messages, without_nulls(tools), to)
        assert (None if body is None else json.loads(body)) == want
        assert (error is None) == (want is not None)


@given(st.lists(st.tuples(ANY_CELLS, ANY_CELLS), min_size=1, max_size=3), st.sampled_from(list(PROVIDERS)))
def test_convert_batch_never_raises(rows: list[tuple[Any, Any]], to: str) -> None:
    """Any cells: a body or an error per row, never both, never neither, and no exception."""
    result = convert_batch(
        {"messages": [row[0] for row in rows], "tools": [row[1] for row in rows]},
        to=to,
        drop_unsupported=True,
    )
    assert [
        (body is None) != (error is None) for body, error in zip(result["body"], result["error"], strict=True)
    ] == [True] * len(rows)
