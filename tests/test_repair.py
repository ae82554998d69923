"""repair: each action, what it leaves alone, the input never changed, and the errors it raises."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

import toolturns
from toolturns import (
    ChatMessage,
    InvalidMessage,
    InvalidToolCall,
    InvalidTranscript,
    RepairAction,
    Repaired,
    ToolCall,
    anthropic,
    check_transcript,
    repair,
    responses,
)
from toolturns._repair import NOT_RUN
from toolturns.providers import PROVIDERS

WEATHER = ToolCall("call_1", "get_weather", {"city": "Paris"})
TIME = ToolCall("call_2", "get_time")
DATE = ToolCall("call_3", "get_date")
ASK = ChatMessage.user("Weather, time and date?")
CALLS = ChatMessage.assistant_tool_calls([WEATHER, TIME, DATE], "Let me look.")
R1 = ChatMessage.tool_result("call_1", "18 C")
R2 = ChatMessage.tool_result("call_2", "noon")
R3 = ChatMessage.tool_result("call_3", "Monday")
ANSWER = ChatMessage.assistant("18 C at noon on Monday.")
AGAIN = ChatMessage.user("And tomorrow?")
SYSTEM = ChatMessage.system("Be brief.")


def not_run(call_id: str) -> ChatMessage:
    return ChatMessage.tool_result(call_id, NOT_RUN, is_error=True)


def actions(messages: Any, **options: Any) -> list[tuple[int, str]]:
    """(index, code) of each action, in repair's order."""
    return [(action.index, action.code) for action in repair(messages, **options).actions]


def codes(messages: Any, **options: Any) -> list[str]:
    return [problem.code for problem in check_transcript(messages, **options)]


def assert_repaired(
    messages: list[ChatMessage], expected: list[ChatMessage], *, completed: int | None = None
) -> Repaired:
    """repair gives ``expected``, which check_transcript finds clean, and every action names a
    problem check_transcript reported at that index (but the calls added to the pending call turn
    ``completed``, which a result moved into); the input is not changed."""
    before = list(messages)
    repaired = repair(messages)
    assert repaired.messages == expected
    assert messages == before
    assert check_transcript(repaired.messages) == []
    reported = {(problem.index, problem.code) for problem in check_transcript(messages)}
    reported.add((completed, "unanswered_call"))
    assert {(action.index, action.code) for action in repaired.actions} <= reported
    assert repair(repaired.messages) == Repaired(repaired.messages, ())
    return repaired


# -- each action ---------------------------------------------------------------------------


def test_an_unanswered_call_gets_an_error_result_after_the_existing_ones_in_call_order() -> None:
    repaired = assert_repaired(
        [ASK, CALLS, R2, ANSWER], [ASK, CALLS, R2, not_run("call_1"), not_run("call_3"), ANSWER]
    )
    assert [str(action) for action in repaired.actions] == [
        "messages[1]: unanswered_call: added an is_error result for call 'call_1' ('get_weather') "
        "saying the tool was not run",
        "messages[1]: unanswered_call: added an is_error result for call 'call_3' ('get_date') "
        "saying the tool was not run",
    ]
    added = repaired.messages[3]
    assert (added.is_error, added.text, added.tool_call_id) == (True, NOT_RUN, "call_1")
    assert "not run" in NOT_RUN


def test_a_call_turn_with_some_results_at_the_end_is_completed() -> None:
    assert_repaired([ASK, CALLS, R3], [ASK, CALLS, R3, not_run("call_1"), not_run("call_2")])


def test_a_pending_call_turn_stays_unless_allow_pending_is_false() -> None:
    pending = [ASK, CALLS]
    assert repair(pending) == Repaired(pending, ())
    repaired = repair(pending, allow_pending=False)
    assert repaired.messages == [ASK, CALLS, not_run("call_1"), not_run("call_2"), not_run("call_3")]
    assert actions(pending, allow_pending=False) == [(1, "unanswered_call")] * 3
    assert check_transcript(repaired.messages, allow_pending=False) == []
    # Repairing the rest leaves it waiting.
    orphan = ChatMessage.tool_result("call_9", "lost")
    assert repair([orphan, ASK, CALLS]).messages == pending
    # Only the last message is pending: an earlier call turn is answered either way.
    assert repair([ASK, CALLS, AGAIN]).messages == [
        ASK,
        CALLS,
        not_run("call_1"),
        not_run("call_2"),
        not_run("call_3"),
        AGAIN,
    ]


def test_a_result_answering_no_call_is_removed() -> None:
    orphan = ChatMessage.tool_result("call_9", "lost")
    repaired = assert_repaired([ASK, CALLS, R1, orphan, R2, R3, ANSWER], [ASK, CALLS, R1, R2, R3, ANSWER])
    assert [str(action) for action in repaired.actions] == [
        "messages[3]: orphan_result: removed the result for call 'call_9', which answers no call"
    ]
    # Before any call turn: a history trimmed from the front.
    assert_repaired([orphan, ASK, ANSWER], [ASK, ANSWER])
    assert actions([orphan, ASK, ANSWER]) == [(0, "result_before_call")]


def test_a_late_result_goes_back_to_its_turn_in_call_order() -> None:
    messages = [ASK, CALLS, R2, AGAIN, R3, R1, ANSWER]
    repaired = assert_repaired(messages, [ASK, CALLS, R2, R1, R3, AGAIN, ANSWER])
    assert [str(action) for action in repaired.actions] == [
        "messages[4]: late_result: moved the result for call 'call_3' back to right after its call turn, "
        "messages[1]",
        "messages[5]: late_result: moved the result for call 'call_1' back to right after its call turn, "
        "messages[1]",
    ]
    assert repaired.messages[3] is R1  # the caller's own result, not a copy


def test_moved_and_added_results_come_in_call_order() -> None:
    assert_repaired([ASK, CALLS, R2, AGAIN, R3], [ASK, CALLS, R2, not_run("call_1"), R3, AGAIN])
    assert actions([ASK, CALLS, R2, AGAIN, R3]) == [(1, "unanswered_call"), (4, "late_result")]


def test_results_split_by_a_system_message_are_merged_for_every_target() -> None:
    """A system message between results splits them: Anthropic's and Gemini's one turn of results
    becomes two for check_transcript, which reports it for every target; repair moves the results
    behind the system message back, so each wire gets them in one turn."""
    messages = [ASK, CALLS, R1, SYSTEM, R2, R3, ANSWER]
    assert "late_result" in codes(messages)
    repaired = assert_repaired(messages, [ASK, CALLS, R1, R2, R3, SYSTEM, ANSWER])
    for target in PROVIDERS:
        assert check_transcript(repaired.messages, target=target) == []
    wire = anthropic.to_request(repaired.messages)["messages"]
    assert [block["tool_use_id"] for block in wire[2]["content"]] == ["call_1", "call_2", "call_3"]


def test_a_result_before_its_call_goes_after_it() -> None:
    before = [R1, ASK, CALLS, R2, R3, ANSWER]
    assert_repaired(before, [ASK, CALLS, R2, R3, R1, ANSWER])
    assert actions(before) == [(0, "result_before_call")]
    # With a call turn before it, check_transcript calls it an orphan.
    earlier = ChatMessage.assistant_tool_calls([ToolCall("call_0", "get_time")])
    r0 = ChatMessage.tool_result("call_0", "11:00")
    messages = [ASK, earlier, r0, R1, ANSWER, AGAIN, CALLS, R2, R3]
    assert_repaired(messages, [ASK, earlier, r0, ANSWER, AGAIN, CALLS, R2, R3, R1])
    [action] = repair(messages).actions
    assert str(action) == (
        "messages[3]: orphan_result: moved the result for call 'call_1' to right after its call turn, messages[6]"
    )


def test_a_result_before_its_call_moves_into_a_pending_turn_which_is_then_completed() -> None:
    assert_repaired([R1, ASK, CALLS], [ASK, CALLS, R1, not_run("call_2"), not_run("call_3")], completed=2)
    assert actions([R1, ASK, CALLS]) == [
        (0, "result_before_call"),
        (2, "unanswered_call"),
        (2, "unanswered_call"),
    ]


def test_a_result_before_an_answered_call_is_removed() -> None:
    early = ChatMessage.tool_result("call_1", "17 C")
    messages = [early, ASK, CALLS, R1, R2, R3]
    repaired = assert_repaired(messages, [ASK, CALLS, R1, R2, R3])
    assert [str(action) for action in repaired.actions] == [
        "messages[0]: result_before_call: removed a second result for call 'call_1', which messages[3] answers"
    ]
    # Answered late, not in place: the late one is the answer, as check_transcript pairs them.
    assert_repaired([early, ASK, CALLS, R2, R3, AGAIN, R1], [ASK, CALLS, R2, R3, R1, AGAIN])
    assert actions([early, ASK, CALLS, R2, R3, AGAIN, R1]) == [(0, "result_before_call"), (6, "late_result")]


def test_a_second_result_is_removed_the_first_kept() -> None:
    again = ChatMessage.tool_result("call_1", "19 C")
    repaired = assert_repaired([ASK, CALLS, R1, R2, again, R3, ANSWER], [ASK, CALLS, R1, R2, R3, ANSWER])
    assert [str(action) for action in repaired.actions] == [
        "messages[4]: duplicate_result: removed a second result for call 'call_1', which messages[2] answers"
    ]
    # Late, after an answer in place; and twice late: the first goes back, the second goes.
    assert_repaired([ASK, CALLS, R1, R2, R3, ANSWER, again], [ASK, CALLS, R1, R2, R3, ANSWER])
    assert actions([ASK, CALLS, R1, R2, R3, ANSWER, again]) == [(6, "duplicate_result")]
    twice = [ASK, CALLS, R2, R3, AGAIN, again, R1]
    assert_repaired(twice, [ASK, CALLS, R2, R3, again, AGAIN])
    assert actions(twice) == [(5, "late_result"), (6, "duplicate_result")]


def test_actions_come_in_input_order_and_name_the_input_index() -> None:
    orphan = ChatMessage.tool_result("call_9", "lost")
    messages = [orphan, ASK, CALLS, R3, R3, AGAIN, R1]
    repaired = repair(messages)
    assert [(a.index, a.code) for a in repaired.actions] == [
        (0, "result_before_call"),
        (2, "unanswered_call"),
        (4, "duplicate_result"),
        (6, "late_result"),
    ]
    assert repaired.messages == [ASK, CALLS, R3, R1, not_run("call_2"), AGAIN]


# -- what it leaves alone --------------------------------------------------------------------


def test_a_clean_transcript_comes_back_equal_as_a_new_list() -> None:
    for messages in ([], [ASK, CALLS, R3, R1, R2, ANSWER, AGAIN], [SYSTEM, ASK, CALLS], (ASK, ANSWER)):
        repaired = repair(messages)
        assert repaired == Repaired(list(messages), ())
        assert repaired.messages is not messages
        assert type(repaired.messages) is list


def test_a_call_id_of_two_turns_pairs_results_in_place_and_leaves_the_rest() -> None:
    """Right after a turn, a result answers that turn's call; away from both turns, it could answer
    either: it stays, and so does the call it could answer, both still reported."""
    first = ChatMessage.assistant_tool_calls([WEATHER])
    second = ChatMessage.assistant_tool_calls([WEATHER, TIME])
    paired = [ASK, first, R1, R1, AGAIN, second, R1, ANSWER]
    repaired = repair(paired)
    assert repaired.messages == [ASK, first, R1, AGAIN, second, R1, not_run("call_2"), ANSWER]
    assert actions(paired) == [(3, "duplicate_result"), (5, "unanswered_call")]
    assert codes(repaired.messages) == ["duplicate_call_id"]

    stranded = [ASK, first, AGAIN, second, R2, ANSWER, R1]
    repaired = repair(stranded)
    assert repaired == Repaired(stranded, ())
    assert codes(repaired.messages) == [
        "unanswered_call",
        "duplicate_call_id",
        "unanswered_call",
        "late_result",
    ]

    # Once every call of that id is answered right after its turn, a result away from them is surplus.
    surplus = [R1, ASK, first, R1, AGAIN, second, R1, R2, ANSWER, R1]
    repaired = repair(surplus)
    assert repaired.messages == [ASK, first, R1, AGAIN, second, R1, R2, ANSWER]
    assert [str(action) for action in repaired.actions] == [
        f"messages[{index}]: {code}: removed a result for call 'call_1': every call of that id "
        "(messages[2], messages[5]) is answered right after its turn"
        for index, code in ((0, "result_before_call"), (9, "duplicate_result"))
    ]

    # A call of that id with no result anywhere was simply not run.
    unanswered = [ASK, first, AGAIN, second, R2]
    assert repair(unanswered).messages == [
        ASK,
        first,
        not_run("call_1"),
        AGAIN,
        second,
        R2,
        not_run("call_1"),
    ]
    assert actions(unanswered) == [(1, "unanswered_call"), (3, "unanswered_call")]


def test_a_result_naming_another_function_stays() -> None:
    named = ChatMessage.from_dict(
        {"role": "tool", "tool_call_id": "call_2", "name": "get_date", "content": "x"}
    )
    messages = [ASK, CALLS, R1, named, R3]
    assert repair(messages) == Repaired(messages, ())
    assert codes(messages) == ["result_name_mismatch"]
    # Moved back, it is still reported: the move fixed where it was, not what it says.
    late = [ASK, CALLS, R1, R3, AGAIN, named]
    assert repair(late).messages == [ASK, CALLS, R1, R3, named, AGAIN]
    assert codes(repair(late).messages) == ["result_name_mismatch"]


def test_an_added_result_says_it_was_not_run_where_the_wire_has_no_is_error() -> None:
    """A function_call_output has no is_error (as OpenAI Chat's tool message has none): the
    result's text, which says the tool was not run, is what goes; every target accepts it."""
    repaired = repair([ASK, CALLS, R1, R2, AGAIN])
    body = responses.to_request(repaired.messages)
    assert {"type": "function_call_output", "call_id": "call_3", "output": NOT_RUN} in body["input"]
    for target in PROVIDERS:
        assert check_transcript(repaired.messages, target=target) == []


def test_nothing_else_calls_repair() -> None:
    """Only the caller repairs: no module but the package's exports imports it."""
    package = Path(toolturns.__file__).parent
    importers = [
        path.relative_to(package).as_posix()
        for path in package.rglob("*.py")
        if "_repair" in path.read_text(encoding="utf-8") and path.name != "_repair.py"
    ]
    assert importers == ["__init__.py"]


# -- input -------------------------------------------------------------------------------------


def test_message_dicts_are_read_and_never_changed() -> None:
    wires = [ASK.to_wire(), CALLS.to_wire(), R2.to_wire(), AGAIN.to_wire()]
    before = copy.deepcopy(wires)
    repaired = repair(wires)
    assert wires == before
    assert repaired.messages == [ASK, CALLS, R2, not_run("call_1"), not_run("call_3"), AGAIN]
    assert repair([message.to_wire() for message in [ASK, ANSWER]]) == Repaired([ASK, ANSWER], ())


@pytest.mark.parametrize(
    ("messages", "error", "text"),
    [
        ("hi", InvalidTranscript, "messages: must be a list or tuple of messages, got 'hi'"),
        (None, InvalidTranscript, "messages: must be a list or tuple of messages, got None"),
        ([ASK, 3], InvalidMessage, "messages[1]: "),
        ([ASK, {"role": "tool", "content": "x"}], InvalidMessage, "messages[1].tool_call_id: "),
        (
            [{"role": "assistant", "tool_calls": [{"id": "", "function": {"name": "f"}}]}],
            InvalidToolCall,
            "messages[0].tool_calls[0].id: ",
        ),
    ],
)
def test_bad_input_is_a_located_error(messages: Any, error: type[Exception], text: str) -> None:
    with pytest.raises(error) as raised:
        repair(messages)
    assert str(raised.value).startswith(text)


def test_allow_pending_must_be_a_bool() -> None:
    with pytest.raises(InvalidTranscript, match=r"^allow_pending: must be a boolean, got 1$"):
        repair([ASK], allow_pending=1)  # type: ignore[arg-type]


def test_values_are_frozen_and_show_what_was_done() -> None:
    action = RepairAction(3, "orphan_result", "removed it")
    assert repr(action) == "RepairAction(index=3, code='orphan_result', did='removed it')"
    assert str(action) == "messages[3]: orphan_result: removed it"
    with pytest.raises(AttributeError):
        action.index = 4  # type: ignore[misc]
    repaired = repair([ASK, CALLS])
    assert repr(repaired).startswith("Repaired(messages=[ChatMessage(role='user'")
    with pytest.raises(AttributeError):
        repaired.messages = []  # type: ignore[misc]
