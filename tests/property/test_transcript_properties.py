"""Property tests of check_transcript and trim: valid tool loops are clean, trimming keeps them
clean, a clean check means the codec converts, and any input gives Problems, never a crash."""

from __future__ import annotations

import copy
import random
import re
import string
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolturns import (
    ChatMessage,
    InvalidTranscript,
    MessageError,
    Problem,
    Role,
    Tool,
    ToolCall,
    check_transcript,
    trim,
)
from toolturns.providers import PROVIDERS, Codec

from . import strategies as s

CODECS: dict[str, Codec] = {name: provider.codec for name, provider in PROVIDERS.items()}
TARGETS = st.sampled_from(sorted(CODECS))
SYSTEM_ROLES = (Role.SYSTEM, Role.DEVELOPER)
TOOL_NAME = re.compile(r"[a-zA-Z0-9_-]{1,64}")

# -- valid tool loops ------------------------------------------------------------------------


class Parts:
    """The strategies one kind of tool loop draws its pieces from."""

    def __init__(
        self,
        *,
        ids: st.SearchStrategy[str],
        names: st.SearchStrategy[str],
        text: st.SearchStrategy[str],
        call_text: st.SearchStrategy[str],
        system_text: st.SearchStrategy[str],
        result_text: st.SearchStrategy[str],
        arguments: st.SearchStrategy[Any],
        loose: bool,
    ) -> None:
        self.ids = ids
        self.names = names
        self.text = text
        self.call_text = call_text
        self.system_text = system_text
        self.result_text = result_text
        self.arguments = arguments
        # Loose loops are valid without a target only: rounds may start without a user
        # turn, assistant text may come before a call turn.
        self.loose = loose


ANY_TEXT = s.unicode_text(max_size=12)
ANY_PARTS = Parts(
    ids=s.unicode_text(min_size=1, max_size=6),
    names=s.unicode_text(min_size=1, max_size=6),
    text=ANY_TEXT,
    call_text=ANY_TEXT,
    system_text=ANY_TEXT,
    result_text=ANY_TEXT,
    arguments=st.one_of(st.none(), s.json_objects(deep=False), s.raw_argument_texts()),
    loose=True,
)

# What every target accepts: names matching all three patterns, short safe ids,
# non-blank text without trailing white space, JSON-object arguments.
SAFE_WORD = st.text(string.ascii_letters + string.digits, min_size=1, max_size=6)
SAFE_TEXT = st.builds(
    lambda head, middle, tail: head + middle + tail,
    st.text(string.ascii_letters + string.digits + " ,.\n\u00e9\U0001f600", max_size=1),
    st.text(string.printable + "\u00e9\U0001f600", max_size=10),
    st.text(string.ascii_letters + string.digits + ".?!\u00e9\U0001f600", min_size=1, max_size=2),
)
SAFE_PARTS = Parts(
    ids=SAFE_WORD.map("call_".__add__),
    names=st.builds(
        str.__add__,
        st.sampled_from(string.ascii_letters + "_"),
        st.text(string.ascii_letters + string.digits + "_-", max_size=12),
    ),
    text=SAFE_TEXT,
    call_text=st.one_of(st.just(""), SAFE_TEXT),
    system_text=st.one_of(st.just(""), SAFE_TEXT),
    result_text=ANY_TEXT,
    arguments=st.one_of(
        st.none(),
        s.json_objects(deep=False),
        s.json_objects(deep=False).flatmap(s.json_texts),
        s.empty_argument_texts(),
    ),
    loose=False,
)


_SEEDS = st.integers(0, 2**32 - 1)
_BOOLEANS = st.booleans()
_ZERO_TO_TWO = st.integers(0, 2)
_ONE_TO_THREE = st.integers(1, 3)
_ONE_IN_FIVE = st.integers(0, 4).map(lambda number: number == 0)
_SYSTEM_KINDS = st.sampled_from([ChatMessage.system, ChatMessage.developer])


@st.composite
def tool_loops(draw: st.DrawFn, parts: Parts) -> list[ChatMessage]:
    """Valid tool loops: system?, rounds of user turns, call turns each followed by a permutation of
    their results, assistant text; call ids unique in the transcript; maybe a pending call turn last."""
    used: set[str] = set()
    order = random.Random(draw(_SEEDS))  # the order of results, one draw for all

    def fresh_calls() -> list[ToolCall]:
        calls = []
        for _ in range(draw(_ONE_TO_THREE)):
            call_id = draw(parts.ids)
            while call_id in used:  # unique in the transcript, still of the drawn kind
                call_id += str(len(used) % 10)
            used.add(call_id)
            calls.append(ToolCall(call_id, draw(parts.names), draw(parts.arguments)))
        return calls

    def system() -> ChatMessage:
        return draw(_SYSTEM_KINDS)(draw(parts.system_text))

    messages: list[ChatMessage] = [system() for _ in range(draw(_ZERO_TO_TWO))]
    for _ in range(draw(_ONE_TO_THREE)):
        users = draw(_ZERO_TO_TWO) if parts.loose else draw(_ONE_TO_THREE) % 2 + 1
        messages.extend(ChatMessage.user(draw(parts.text)) for _ in range(users))
        if parts.loose and draw(_BOOLEANS):
            messages.append(ChatMessage.assistant(draw(parts.text)))
        for _ in range(draw(_ZERO_TO_TWO)):
            if draw(_ONE_IN_FIVE):
                messages.append(system())  # between exchanges, never inside one
            calls = fresh_calls()
            messages.append(ChatMessage.assistant_tool_calls(calls, draw(parts.call_text)))
            results = [
                ChatMessage.tool_result(call.id, draw(parts.result_text), is_error=draw(_BOOLEANS))
                for call in calls
            ]
            order.shuffle(results)
            messages.extend(results)
        if draw(_BOOLEANS):
            messages.append(ChatMessage.assistant(draw(parts.text)))
        if draw(_ONE_IN_FIVE):
            messages.append(system())
    if draw(_BOOLEANS):
        last = [m for m in messages if m.role not in SYSTEM_ROLES][-1:]
        if not parts.loose and last and last[0].role is Role.ASSISTANT:
            messages.append(ChatMessage.user(draw(parts.text)))
        messages.append(ChatMessage.assistant_tool_calls(fresh_calls(), draw(parts.call_text)))
    return messages


LOOPS = tool_loops(ANY_PARTS)
SAFE_LOOPS = tool_loops(SAFE_PARTS)


def tools_for(messages: Sequence[ChatMessage]) -> list[Tool]:
    """One definition for each tool name the calls use (that a Tool may have)."""
    names = {call.name for message in messages for call in message.tool_calls or ()}
    return [Tool(name) for name in sorted(names) if TOOL_NAME.fullmatch(name)]


@given(LOOPS)
def test_valid_tool_loops_have_no_problem(transcript: list[ChatMessage]) -> None:
    """A loop where every call is answered right after its turn, once, with unique ids, is clean, as
    messages or wire dicts; allow_pending=False reports exactly the calls of a final call turn."""
    assert check_transcript(transcript) == []
    assert check_transcript([message.to_wire() for message in transcript]) == []
    last = len(transcript) - 1
    pending = transcript[-1].tool_calls or () if transcript else ()
    assert [(p.index, p.path, p.code) for p in check_transcript(transcript, allow_pending=False)] == [
        (last, f"messages[{last}].tool_calls[{position}]", "unanswered_call")
        for position in range(len(pending))
    ]


# -- trim keeps valid loops valid ---------------------------------------------------------------


def identity_positions(kept: Sequence[object], messages: Sequence[object]) -> list[int]:
    """Where each kept item is in ``messages``, by identity."""
    where = {id(item): index for index, item in enumerate(messages)}
    assert all(id(item) in where for item in kept)
    return [where[id(item)] for item in kept]


def expected_trim(roles: Sequence[Role], sizes: Sequence[int], room: int, start_on_user: bool) -> list[int]:
    """trim's rule spelled out: units from the newest back while their sizes fit the room left."""
    units: list[list[int]] = []
    for index, role in enumerate(roles):
        if role in SYSTEM_ROLES:
            continue
        if role is Role.TOOL and units:
            units[-1].append(index)
        else:
            units.append([index])
    kept: list[list[int]] = []
    for unit in reversed(units):
        room -= sum(sizes[index] for index in unit)
        if room < 0:
            break
        kept.insert(0, unit)
    # start_on_user: only a history that was cut starts at a user turn
    while start_on_user and len(kept) < len(units) and kept and roles[kept[0][0]] is not Role.USER:
        kept.pop(0)
    system = [index for index, role in enumerate(roles) if role in SYSTEM_ROLES]
    return sorted(system + [index for unit in kept for index in unit])


def assert_trimmed(transcript: list[ChatMessage], kept: list[ChatMessage], expected: list[int]) -> None:
    """kept is a clean sub-sequence of transcript, by identity, with every system message, as expected."""
    where = identity_positions(kept, transcript)
    assert where == sorted(where)
    assert where == expected
    assert all(index in where for index, m in enumerate(transcript) if m.role in SYSTEM_ROLES)
    assert check_transcript(kept) == []


@given(LOOPS, st.integers(0, 40))
def test_trim_by_messages_keeps_valid_loops_valid(transcript: list[ChatMessage], some_limit: int) -> None:
    """Every max_messages from the system count up, both start_on_user: clean, at most k, a sub-sequence
    by identity with every system message. Wire dicts trim to the same positions."""
    roles = [m.role for m in transcript]
    systems = sum(role in SYSTEM_ROLES for role in roles)
    for limit in range(systems, len(transcript) + 2):
        for start_on_user in (True, False):
            kept = trim(transcript, max_messages=limit, start_on_user=start_on_user)
            assert len(kept) <= limit
            expected = expected_trim(roles, [1] * len(roles), limit - systems, start_on_user)
            assert_trimmed(transcript, kept, expected)
    wires = [message.to_wire() for message in transcript]
    before = copy.deepcopy(wires)
    limit = max(some_limit, systems)
    kept_wires = trim(wires, max_messages=limit)
    assert identity_positions(kept_wires, wires) == identity_positions(
        trim(transcript, max_messages=limit), transcript
    )
    assert wires == before


def tokens(message: ChatMessage) -> int:
    """A made-up token count, zero for some messages."""
    return len(message.content) % 4 + len(message.tool_calls or ())


@given(LOOPS)
def test_trim_by_tokens_keeps_valid_loops_valid(transcript: list[ChatMessage]) -> None:
    """Every max_tokens from the system tokens up, both start_on_user: clean, within the limit, a sub-sequence."""
    roles = [m.role for m in transcript]
    sizes = [tokens(m) for m in transcript]
    system_tokens = sum(size for size, role in zip(sizes, roles, strict=True) if role in SYSTEM_ROLES)
    for limit in range(system_tokens, sum(sizes) + 2):
        for start_on_user in (True, False):
            kept = trim(transcript, max_tokens=limit, count_tokens=tokens, start_on_user=start_on_user)
            assert sum(tokens(m) for m in kept) <= limit
            expected = expected_trim(roles, sizes, limit - system_tokens, start_on_user)
            assert_trimmed(transcript, kept, expected)


# -- targets: clean means convertible --------------------------------------------------------


@given(SAFE_LOOPS, TARGETS)
def test_safe_loops_are_clean_for_every_target_and_convert(
    transcript: list[ChatMessage], target: str
) -> None:
    """With ids, names, text and arguments every provider takes, each target finds nothing and converts."""
    assert check_transcript(transcript, target=target) == []
    CODECS[target].to_request(transcript)
    tools = tools_for(transcript)
    assert check_transcript(transcript, target=target, tools=tools) == []
    CODECS[target].to_request(transcript, tools=tools)


@st.composite
def perturbed(draw: st.DrawFn, loops: st.SearchStrategy[list[ChatMessage]]) -> list[ChatMessage]:
    """A valid loop with a few messages dropped, repeated, moved or added: often broken, sometimes not."""
    messages = list(draw(loops))
    edits = random.Random(draw(_SEEDS))
    for _ in range(draw(st.integers(0, 3))):
        action = edits.choice(["drop", "repeat", "move", "add"])
        if action == "add" or not messages:
            messages.insert(edits.randint(0, len(messages)), draw(s.chat_messages(with_provider_data=True)))
            continue
        index = edits.randrange(len(messages))
        if action == "drop":
            del messages[index]
        elif action == "repeat":
            messages.insert(edits.randint(0, len(messages)), messages[index])
        else:
            messages.insert(edits.randint(0, len(messages) - 1), messages.pop(index))
    return messages


ANY_TRANSCRIPTS = st.one_of(
    perturbed(SAFE_LOOPS),
    perturbed(LOOPS),
    st.lists(s.chat_messages(with_provider_data=True), max_size=6),
    st.lists(s.small_chat_messages(), max_size=6),
)


@given(ANY_TRANSCRIPTS, TARGETS, st.booleans())
def test_no_problem_for_a_target_means_its_codec_converts(
    transcript: list[ChatMessage], target: str, with_tools: bool
) -> None:
    """check_transcript(T, target=X) == [] implies toolturns.X.to_request(T) does not raise."""
    if with_tools:
        tools = tools_for(transcript)
        if check_transcript(transcript, target=target, tools=tools) == []:
            CODECS[target].to_request(transcript, tools=tools)
    if check_transcript(transcript, target=target) == []:
        CODECS[target].to_request(transcript)


# -- any input: Problems, never a crash ---------------------------------------------------------

TOOL_DICTS = st.one_of(
    st.builds(lambda name: {"type": "function", "function": {"name": name}}, s.unicode_text(max_size=6)),
    st.builds(
        lambda name: {"name": name, "parameters": {"type": "object"}}, st.sampled_from(["f", "g", "1f"])
    ),
    s.arbitrary_json(),
)
ANY_TOOLS = st.none() | st.lists(st.one_of(TOOL_DICTS, st.sampled_from([Tool("f"), Tool("g")])), max_size=3)
ANY_ITEMS = st.one_of(
    s.arbitrary_json(),
    s.message_dicts(),
    s.mutated(s.chat_messages().map(ChatMessage.to_wire)),
    s.chat_messages(with_provider_data=True),
)
OPTIONS = st.fixed_dictionaries(
    {"target": st.sampled_from([None, *sorted(CODECS)]), "tools": ANY_TOOLS, "allow_pending": st.booleans()}
)


def assert_well_formed(problems: object, length: int) -> None:
    """A list of Problems in index order, each index within the transcript and its path at that index."""
    assert isinstance(problems, list)
    assert all(type(problem) is Problem for problem in problems)
    indexes = [-1 if problem.index is None else problem.index for problem in problems]
    assert indexes == sorted(indexes)
    for problem in problems:
        assert str(problem) == f"{problem.path}: {problem.code}: {problem.message}"
        assert problem.code
        assert problem.message
        if problem.index is None:
            assert problem.path == "messages" or problem.path.startswith("tools[")
        else:
            assert 0 <= problem.index < length
            assert problem.path.startswith(f"messages[{problem.index}]")


@given(st.lists(ANY_ITEMS, max_size=6), OPTIONS, st.integers(0, 8), _BOOLEANS)
def test_arbitrary_items_give_problems_and_are_not_changed(
    messages: list[Any], options: dict[str, Any], limit: int, start_on_user: bool
) -> None:
    """Any JSON, near-valid or mutated message dicts, messages: a well-formed list of Problems, input
    unchanged; trim returns some of the items in order or raises a MessageError, nothing else."""
    before = copy.deepcopy((messages, options))
    assert_well_formed(check_transcript(messages, **options), len(messages))
    assert (messages, options) == before
    failure: MessageError | None = None
    kept: list[Any] = []
    try:
        kept = trim(messages, max_messages=limit, start_on_user=start_on_user)
    except MessageError as error:
        failure = error
    if isinstance(failure, InvalidTranscript):
        assert failure.path == "max_messages"
    elif failure is not None:
        assert failure.path.startswith("messages[")
    where = identity_positions(kept, messages)
    assert where == sorted(where)
    assert len(kept) <= limit
    assert (messages, options) == before


@st.composite
def broken_wire_loops(draw: st.DrawFn) -> list[Any]:
    """A perturbed loop as wire dicts, with up to two arbitrary or mutated items put in."""
    wires: list[Any] = [message.to_wire() for message in draw(perturbed(LOOPS))]
    places = random.Random(draw(_SEEDS))
    for _ in range(draw(_ZERO_TO_TWO)):
        wires.insert(places.randint(0, len(wires)), draw(ANY_ITEMS))
    return wires


@given(broken_wire_loops(), OPTIONS)
def test_broken_wire_loops_give_problems(messages: list[Any], options: dict[str, Any]) -> None:
    """Broken loops as wire dicts with junk among them: a well-formed list of Problems."""
    assert_well_formed(check_transcript(messages, **options), len(messages))


@given(st.lists(s.hostile_values(), max_size=3), st.sampled_from([None, *sorted(CODECS)]))
def test_hostile_python_values_give_problems(messages: list[Any], target: str | None) -> None:
    """Values that are not JSON at all (NaN, bytes, sets, cycles, deep nesting) are still only Problems."""
    assert_well_formed(check_transcript(messages, target=target), len(messages))


NOT_SEQUENCES = st.one_of(
    s.arbitrary_json().filter(lambda value: not isinstance(value, list)),
    st.builds(lambda items: iter(items), st.lists(s.chat_messages(), max_size=2)),
    st.builds(lambda items: set(range(items)), st.integers(0, 3)),
    st.just(ChatMessage.user("hi")),
)


@given(NOT_SEQUENCES, OPTIONS)
def test_a_non_list_raises_only_invalid_transcript(messages: Any, options: dict[str, Any]) -> None:
    """Anything but a list or tuple as messages: InvalidTranscript with path messages, nothing else."""
    with pytest.raises(InvalidTranscript) as caught:
        check_transcript(messages, **options)
    assert caught.value.path == "messages"
    with pytest.raises(InvalidTranscript):
        trim(messages)


# -- Problem is a value ------------------------------------------------------------------------


def fields(problem: Problem) -> tuple[Any, ...]:
    """The four fields of a Problem."""
    return (problem.index, problem.path, problem.code, problem.message)


SMALL_PROBLEMS = st.builds(
    Problem,
    st.sampled_from([None, 0, 1]),
    st.sampled_from(["messages", "messages[0]"]),
    st.sampled_from(["orphan_result", "late_result"]),
    st.sampled_from(["a", "b"]),
)


@given(SMALL_PROBLEMS, SMALL_PROBLEMS)
def test_problem_equality_implies_equal_hash(first: Problem, second: Problem) -> None:
    """Two equal Problems hash equally; equality is field by field."""
    assert (first == second) == (fields(first) == fields(second))
    if first == second:
        assert hash(first) == hash(second)
