"""Property tests of repair: repaired transcripts have whole tool exchanges, clean ones come back
equal, repairing twice changes nothing, every action names a problem check_transcript reported,
and nothing a caller gave is lost but the results an action says were removed."""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from toolturns import ChatMessage, MessageError, Problem, Repaired, Role, ToolCall, check_transcript, repair
from toolturns._repair import NOT_RUN
from toolturns.providers import PROVIDERS

from . import strategies as s
from .test_transcript_properties import LOOPS, SAFE_LOOPS

# The problems repair removes (each an exchange code of check_transcript).
REPAIRED = frozenset(
    {"unanswered_call", "orphan_result", "late_result", "result_before_call", "duplicate_result"}
)
TARGETS = st.sampled_from(sorted(PROVIDERS))


@st.composite
def broken(draw: st.DrawFn, loops: st.SearchStrategy[list[ChatMessage]]) -> list[ChatMessage]:
    """A valid loop with results dropped, repeated, moved anywhere, orphans added, any message moved:
    call ids stay unique, so every exchange can be repaired."""
    messages = list(draw(loops))
    order = random.Random(draw(st.integers(0, 2**32 - 1)))
    for number in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(["drop", "repeat", "move", "orphan", "move any"]))
        results = [index for index, message in enumerate(messages) if message.role is Role.TOOL]
        somewhere = order.randint(0, len(messages))
        if kind == "orphan":  # ids of 8 characters: no loop's call has one
            messages.insert(somewhere, ChatMessage.tool_result(f"orphan_{number}", "lost"))
        elif kind == "move any" and messages:
            messages.insert(somewhere, messages.pop(order.randrange(len(messages))))
        elif results:
            chosen = order.choice(results)
            if kind == "drop":
                del messages[chosen]
            elif kind == "repeat":
                messages.insert(
                    somewhere, copy.copy(messages[chosen])
                )  # its own object: told apart by identity
            else:
                messages.insert(somewhere, messages.pop(chosen))
    return messages


# Few ids, so that results often answer calls, of other turns too, and turns often share an id.
_TINY_IDS = st.sampled_from(["a", "b", "c"])
_CALL_TURNS = st.lists(_TINY_IDS, min_size=1, max_size=3, unique=True).map(
    lambda ids: ChatMessage.assistant_tool_calls([ToolCall(call_id, f"tool_{call_id}") for call_id in ids])
)
TANGLED = st.lists(
    st.one_of(
        _CALL_TURNS,
        st.builds(ChatMessage.tool_result, _TINY_IDS, st.sampled_from(["1", "2"]), is_error=st.booleans()),
        st.sampled_from([ChatMessage.user("u"), ChatMessage.assistant("t"), ChatMessage.system("s")]),
    ),
    max_size=12,
)

ANY = st.one_of(
    TANGLED,
    st.lists(s.small_chat_messages(), max_size=12),
    st.lists(s.chat_messages(), max_size=8),
    broken(LOOPS),
)


def call_ids(messages: Sequence[ChatMessage]) -> dict[str, int]:
    """Call id -> how many turns' calls use it."""
    counts: dict[str, int] = {}
    for message in messages:
        for call in message.tool_calls or ():
            counts[call.id] = counts.get(call.id, 0) + 1
    return counts


def problem_id(messages: Sequence[ChatMessage], problem: Problem) -> str:
    """The call id a tool-exchange problem is about."""
    assert problem.index is not None
    message = messages[problem.index]
    if message.tool_call_id is not None:
        return message.tool_call_id
    position = int(problem.path.rsplit("[", 1)[1].rstrip("]"))
    assert message.tool_calls is not None
    return message.tool_calls[position].id


def assert_repair_invariants(messages: list[ChatMessage], repaired: Repaired, allow_pending: bool) -> None:
    after = repaired.messages
    # What remains is only about ids calls of two turns share: which one a result answers is a guess.
    shared = {call_id for call_id, turns in call_ids(messages).items() if turns > 1}
    for problem in check_transcript(after, allow_pending=allow_pending):
        assert problem.code not in REPAIRED or problem_id(after, problem) in shared, problem
    # Each action names a problem check_transcript reported at that index of the input: but for the
    # calls of a pending last turn that a result was moved into, which were then waiting no longer.
    reported = {(p.index, p.code) for p in check_transcript(messages, allow_pending=allow_pending)}
    last = f"right after its call turn, messages[{len(messages) - 1}]"
    completed = any(action.did.endswith(last) for action in repaired.actions)
    for action in repaired.actions:
        assert (action.index, action.code) in reported or (completed and action.code == "unanswered_call")
    assert_results_placed(messages, after)
    # Nothing lost: the input's messages, in order, less the results removed, and added results saying
    # the tool was not run; non-results keep their order.
    removed = {action.index for action in repaired.actions if action.did.startswith("removed")}
    added = [m for m in after if all(m is not given for given in messages)]
    assert all(m.is_error and m.text == NOT_RUN and m.role is Role.TOOL for m in added)
    assert sum(a.code == "unanswered_call" for a in repaired.actions) == len(added)
    kept = [m for m in after if any(m is given for given in messages)]
    assert sorted(map(id, kept)) == sorted(id(m) for index, m in enumerate(messages) if index not in removed)
    assert [m for m in after if m.role is not Role.TOOL] == [m for m in messages if m.role is not Role.TOOL]
    assert list(repaired.actions) == sorted(repaired.actions, key=lambda action: action.index)
    # Repairing again does nothing.
    assert repair(after, allow_pending=allow_pending) == Repaired(after, ())


def runs(messages: Sequence[ChatMessage]) -> list[tuple[ChatMessage | None, list[ChatMessage]]]:
    """Each message but a result, with the results right after it (None: the results first)."""
    found: list[tuple[ChatMessage | None, list[ChatMessage]]] = [(None, [])]
    for message in messages:
        if message.role is Role.TOOL:
            found[-1][1].append(message)
        else:
            found.append((message, []))
    return found


def assert_results_placed(messages: Sequence[ChatMessage], after: Sequence[ChatMessage]) -> None:
    """After each turn: the results that were there and stay, in their order, then the results moved
    there and added, in the order of the turn's calls."""
    for (turn, was), (same, now) in zip(runs(messages), runs(after), strict=True):
        assert turn is same
        stayed = [result for result in was if any(result is kept for kept in now)]
        assert all(a is b for a, b in zip(now, stayed, strict=False))
        if turn is not None and turn.tool_calls and len(now) > len(stayed):
            order = [call.id for call in turn.tool_calls]
            placed = [order.index(str(result.tool_call_id)) for result in now[len(stayed) :]]
            assert placed == sorted(placed)


@given(ANY, st.booleans())
def test_repaired_exchanges_are_whole(messages: list[ChatMessage], allow_pending: bool) -> None:
    before = list(messages)
    repaired = repair(messages, allow_pending=allow_pending)
    assert messages == before
    assert_repair_invariants(messages, repaired, allow_pending)


@given(broken(SAFE_LOOPS), TARGETS)
def test_broken_loops_repair_clean_for_every_target(messages: list[ChatMessage], target: str) -> None:
    """Unique ids: nothing is left of the exchange codes, nor Gemini's count of results. What a
    target's own rules say of the turns' order (Gemini's misplaced_call_turn, after a message was
    moved) is not the exchanges'."""
    repaired = repair(messages)
    assert_repair_invariants(messages, repaired, True)
    left = {p.code for p in check_transcript(repaired.messages, target=target)}
    assert not left & (REPAIRED | {"result_count_mismatch"})


@given(LOOPS, st.booleans())
def test_clean_transcripts_come_back_equal(messages: list[ChatMessage], as_wire: bool) -> None:
    """A valid loop (maybe ending on a call turn waiting for its results) has nothing to repair."""
    given_messages: list[object] = [m.to_wire() for m in messages] if as_wire else list(messages)
    if as_wire:
        messages = [ChatMessage.from_dict(m) for m in given_messages]
    assert repair(given_messages) == Repaired(messages, ())


@given(SAFE_LOOPS, TARGETS)
def test_clean_for_a_target_stays_clean(messages: list[ChatMessage], target: str) -> None:
    problems = check_transcript(messages, target=target)
    repaired = repair(messages)
    assert repaired == Repaired(messages, ())
    assert check_transcript(repaired.messages, target=target) == problems


@given(st.one_of(s.arbitrary_json(), st.lists(s.arbitrary_json(max_leaves=6), max_size=4)), st.booleans())
def test_any_input_gives_a_repair_or_one_of_our_errors(value: object, allow_pending: bool) -> None:
    """Anything json.loads gives, as the transcript or as its messages: only toolturns' errors escape."""
    try:
        repaired = repair(value, allow_pending=allow_pending)  # type: ignore[arg-type]
    except MessageError:
        return
    assert isinstance(value, list)
    assert repair([ChatMessage.from_dict(item) for item in value], allow_pending=allow_pending) == repaired
