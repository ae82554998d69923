"""Property tests of matching results to calls: check_transcript and the readers that match by
name (Gemini, Ollama) agree with a plain model of the rules, whatever the results' order.

The matching is done with lookups (tests/test_growth.py times it); the models here
scan, as the rules are worded, so the two are compared on many small turns.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from toolturns import ChatMessage, ToolCall, check_transcript, gemini, ollama

NAMES = ("get_weather", "get_time", "search")
_NAME = st.sampled_from(NAMES)


@st.composite
def turns(draw: st.DrawFn) -> list[ToolCall]:
    """One assistant turn's parallel calls: unique ids, names from a few (so they repeat)."""
    names = draw(st.lists(_NAME, min_size=1, max_size=6))
    return [ToolCall(f"call_{position}", name, {"n": position}) for position, name in enumerate(names)]


@st.composite
def results(draw: st.DrawFn, calls: list[ToolCall]) -> list[tuple[str, str | None]]:
    """(call id, name or None) of each result after the turn: any calls, in any order, some twice,
    some answering no call, some naming a function (not always the call's)."""
    ids = st.sampled_from([call.id for call in calls]) | st.sampled_from(["other_1", "other_2"])
    return draw(st.lists(st.tuples(ids, st.none() | _NAME), max_size=8))


def expected_problems(calls: list[ToolCall], answers: list[tuple[str, str | None]]) -> set[tuple[str, str]]:
    """(path, code) of each problem, by the rules as docs/transcripts.md words them."""
    found: set[tuple[str, str]] = set()
    answered: set[str] = set()
    for number, (call_id, name) in enumerate(answers):
        index = 2 + number
        made = [call for call in calls if call.id == call_id]
        if not made:
            found.add((f"messages[{index}].tool_call_id", "orphan_result"))
            continue
        if call_id in answered:
            found.add((f"messages[{index}].tool_call_id", "duplicate_result"))
        answered.add(call_id)
        if name is not None and name != made[0].name:
            found.add((f"messages[{index}].name", "result_name_mismatch"))
    for position, call in enumerate(calls):
        if call.id not in answered:
            found.add((f"messages[1].tool_calls[{position}]", "unanswered_call"))
    return found


@given(turns().flatmap(lambda calls: st.tuples(st.just(calls), results(calls))))
def test_check_transcript_matches_each_result_as_the_rules_say(
    drawn: tuple[list[ToolCall], list[tuple[str, str | None]]],
) -> None:
    calls, answers = drawn
    messages: list[dict[str, Any]] = [
        ChatMessage.user("Go.").to_wire(),
        ChatMessage.assistant_tool_calls(calls).to_wire(),
    ]
    for call_id, name in answers:
        result = ChatMessage.tool_result(call_id, "done").to_wire()
        if name is not None:
            result["name"] = name
        messages.append(result)
    messages.append(ChatMessage.user("Thanks.").to_wire())
    problems = check_transcript(messages)
    assert {(problem.path, problem.code) for problem in problems} == expected_problems(calls, answers)


@st.composite
def answered_by_name(draw: st.DrawFn) -> tuple[list[ToolCall], list[tuple[str, bool]]]:
    """A turn and its results in any order, each (the call it was drawn from, whether it gives the id)."""
    calls = draw(turns())
    positions = draw(st.permutations(range(len(calls))))
    chosen = positions[: draw(st.integers(0, len(calls)))]
    return calls, [(calls[position].id, draw(st.booleans())) for position in chosen]


def expected_ids(calls: list[ToolCall], answers: list[tuple[str, bool]]) -> list[str]:
    """The call each result answers: its own id, or the first unanswered call of its name."""
    unanswered = [call.id for call in calls]
    name_of = {call.id: call.name for call in calls}
    found = []
    for call_id, gives_id in answers:
        if not gives_id:
            call_id = next(other for other in unanswered if name_of[other] == name_of[call_id])
        if call_id in unanswered:
            unanswered.remove(call_id)
        found.append(call_id)
    return found


@given(answered_by_name())
def test_gemini_reads_responses_without_id_as_answering_the_first_unanswered_call_of_their_name(
    drawn: tuple[list[ToolCall], list[tuple[str, bool]]],
) -> None:
    calls, answers = drawn
    name_of = {call.id: call.name for call in calls}
    responses: list[dict[str, Any]] = []
    for call_id, gives_id in answers:
        function: dict[str, Any] = {"name": name_of[call_id], "response": {}}
        if gives_id:
            function["id"] = call_id
        responses.append({"functionResponse": function})
    body = gemini.to_request([ChatMessage.user("Go."), ChatMessage.assistant_tool_calls(calls)])
    body["contents"].append({"role": "user", "parts": responses or [{"text": "Never mind."}]})
    read = gemini.from_request(body)
    assert [message.tool_call_id for message in read[2 : 2 + len(answers)]] == expected_ids(calls, answers)


@given(answered_by_name())
def test_ollama_reads_results_by_tool_name_as_answering_the_first_unanswered_call_of_that_name(
    drawn: tuple[list[ToolCall], list[tuple[str, bool]]],
) -> None:
    calls, answers = drawn
    name_of = {call.id: call.name for call in calls}
    body = ollama.to_request([ChatMessage.user("Go."), ChatMessage.assistant_tool_calls(calls)])
    for call_id, gives_id in answers:
        result = {"role": "tool", "content": "done", "tool_name": name_of[call_id]}
        if gives_id:
            result["tool_call_id"] = call_id
        body["messages"].append(result)
    read = ollama.from_request(body)
    assert [message.tool_call_id for message in read[2:]] == expected_ids(calls, answers)
