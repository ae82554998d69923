"""Property tests of the ShareGPT reader (``toolturns._sharegpt.read``): whatever a line holds,
only toolturns' errors escape; every valid LLaMA-Factory conversation reads into a transcript
that checks clean for every target, its calls paired with their results and their ids unique."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from toolturns import MessageError, Role, check_transcript
from toolturns._sharegpt import read
from toolturns.providers import PROVIDERS

from . import strategies as s

_SPEAKERS = ("system", "human", "user", "gpt", "assistant", "function_call", "observation", "tool", "")
_NAMES = ("get_weather", "get_time", "search")
# Text a provider takes anywhere: not blank, and no white space at the ends (Anthropic refuses
# a final assistant text that ends in it).
_TEXT = st.text(st.sampled_from("abc XYZ-é1?"), min_size=1, max_size=8).map(str.strip).filter(bool)
_ARGUMENTS = st.dictionaries(
    st.sampled_from(("city", "days", "q")), st.one_of(st.integers(-9, 9), _TEXT), max_size=2
)
_CALLS = st.builds(
    lambda name, arguments: {"name": name, "arguments": arguments}, st.sampled_from(_NAMES), _ARGUMENTS
)


def _maybe_text(value: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A value, or its JSON text: ShareGPT keeps calls, results and tools as text."""
    return st.one_of(value, value.map(json.dumps))


# Near-ShareGPT values: turns whose from and value are right, wrong or arbitrary, calls and
# result lists as text or not, tools in any shape, and any JSON at all.
_VALUES = st.one_of(
    s.json_values(),
    _maybe_text(st.one_of(_CALLS, st.lists(_CALLS, max_size=3), s.json_values())),
    _maybe_text(st.lists(st.one_of(_TEXT, s.json_values()), max_size=3)),
)
_TURNS = st.one_of(
    st.builds(lambda speaker, value: {"from": speaker, "value": value}, st.sampled_from(_SPEAKERS), _VALUES),
    st.dictionaries(st.sampled_from(("from", "value", "weight")), s.json_values(), max_size=3),
    s.json_values(),
)
_LINES = st.one_of(
    s.json_values(),
    st.fixed_dictionaries(
        {"conversations": st.one_of(st.lists(_TURNS, max_size=6), s.json_values())},
        optional={
            "system": st.one_of(_TEXT, s.json_values()),
            "tools": _maybe_text(st.one_of(st.lists(s.json_values(), max_size=2), s.json_values())),
            "images": s.json_values(),
        },
    ),
)


@given(line=_LINES)
def test_only_toolturns_errors_escape(line: Any) -> None:
    """read() returns messages and tools, or raises a MessageError: never another exception."""
    try:
        messages, tools = read(line)
    except MessageError:
        return
    assert isinstance(messages, list)
    assert tools is None or tools


@st.composite
def _conversations(draw: st.DrawFn) -> tuple[dict[str, Any], list[int]]:
    """A valid LLaMA-Factory line, and the number of calls of each function_call turn in order."""
    turns: list[dict[str, Any]] = []
    line: dict[str, Any] = {}
    where = draw(st.sampled_from(("none", "key", "turn")))
    if where == "turn":
        turns.append({"from": "system", "value": draw(_TEXT)})
    elif where == "key":
        line["system"] = draw(_TEXT)
    counts: list[int] = []
    for _ in range(draw(st.integers(1, 3))):  # at least one round: no provider takes an empty transcript
        turns.append({"from": draw(st.sampled_from(("human", "user"))), "value": draw(_TEXT)})
        # Some rounds use tools first: one call, or parallel calls, each answered.
        for _ in range(draw(st.integers(0, 2))):
            calls = draw(st.lists(_CALLS, min_size=1, max_size=3))
            parallel = len(calls) > 1 or draw(st.booleans())
            turns.append({"from": "function_call", "value": json.dumps(calls if parallel else calls[0])})
            results = [draw(_TEXT) for _ in calls]
            answer = json.dumps(results) if len(calls) > 1 else results[0]
            turns.append({"from": "observation", "value": answer})
            counts.append(len(calls))
        turns.append({"from": draw(st.sampled_from(("gpt", "assistant"))), "value": draw(_TEXT)})
    if draw(st.booleans()):  # a fine-tuning example may end on the call it teaches
        turns.append({"from": "human", "value": draw(_TEXT)})
        calls = draw(st.lists(_CALLS, min_size=1, max_size=2))
        turns.append({"from": "function_call", "value": json.dumps(calls)})
        counts.append(len(calls))
    line["conversations"] = turns
    if draw(st.booleans()):
        definitions = [{"name": name, "parameters": {"type": "object"}} for name in _NAMES]
        line["tools"] = json.dumps(definitions) if draw(st.booleans()) else definitions
    return line, counts


@given(generated=_conversations())
def test_valid_conversations_check_clean_for_every_target(
    generated: tuple[dict[str, Any], list[int]],
) -> None:
    """Each call is paired with its result in order, ids are unique, and every target takes the transcript."""
    line, counts = generated
    messages, tools = read(line)
    assert read(json.loads(json.dumps(line))) == (messages, tools)  # the same ids on every run
    calls = [m.tool_calls for m in messages if m.tool_calls]
    assert [len(turn) for turn in calls] == counts
    ids = [call.id for turn in calls for call in turn]
    assert len(set(ids)) == len(ids)
    answered = [m.tool_call_id for m in messages if m.role is Role.TOOL]
    assert answered == ids[: len(answered)]
    for target in (None, *PROVIDERS):
        assert check_transcript(messages, target=target, tools=tools) == [], target
