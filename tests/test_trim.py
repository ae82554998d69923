"""trim: system messages kept, the newest whole units that fit, start_on_user, limits and errors."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest

from tests.conftest import Frozen
from toolturns import (
    ChatMessage,
    InvalidMessage,
    InvalidToolCall,
    InvalidTranscript,
    MessageError,
    ToolCall,
    check_transcript,
    trim,
)

WEATHER = ToolCall("call_1", "get_weather", {"city": "Paris"})
TIME = ToolCall("call_2", "get_time")
ROME = ToolCall("call_3", "get_weather", {"city": "Rome"})

# 0 system, 1 user, 2-4 a call turn and its results, 5 answer, 6 user, 7-8 a call turn and its result
HISTORY = [
    ChatMessage.system("Be brief."),
    ChatMessage.user("Weather and time in Paris?"),
    ChatMessage.assistant_tool_calls([WEATHER, TIME]),
    ChatMessage.tool_result("call_1", "18 C"),
    ChatMessage.tool_result("call_2", "noon"),
    ChatMessage.assistant("18 C at noon."),
    ChatMessage.user("And in Rome?"),
    ChatMessage.assistant_tool_calls([ROME]),
    ChatMessage.tool_result("call_3", "21 C"),
]


def positions(kept: Sequence[object], messages: Sequence[object]) -> list[int]:
    """Where each kept item is in ``messages``, by identity (fails for an item not in it)."""
    found = []
    for item in kept:
        matches = [index for index, original in enumerate(messages) if original is item]
        assert len(matches) == 1, f"{item!r} is not one of the items given"
        found.append(matches[0])
    return found


def words(message: ChatMessage) -> int:
    """A token count: the characters of the text."""
    return len(message.content)


# -- which messages are kept ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("limit", "start_on_user", "kept"),
    [
        (None, True, [0, 1, 2, 3, 4, 5, 6, 7, 8]),
        (9, True, [0, 1, 2, 3, 4, 5, 6, 7, 8]),
        (100, False, [0, 1, 2, 3, 4, 5, 6, 7, 8]),
        (8, True, [0, 6, 7, 8]),
        (8, False, [0, 2, 3, 4, 5, 6, 7, 8]),
        (7, False, [0, 5, 6, 7, 8]),
        (6, False, [0, 5, 6, 7, 8]),
        (5, False, [0, 5, 6, 7, 8]),
        (5, True, [0, 6, 7, 8]),
        (4, True, [0, 6, 7, 8]),
        (4, False, [0, 6, 7, 8]),
        (3, True, [0]),
        (3, False, [0, 7, 8]),
        (2, True, [0]),
        (2, False, [0]),
        (1, True, [0]),
        (1, False, [0]),
    ],
)
def test_max_messages_keeps_the_newest_whole_units(
    limit: int | None, start_on_user: bool, kept: list[int]
) -> None:
    """Units (a turn with the results after it) are kept whole from the newest back; system always."""
    result = trim(HISTORY, max_messages=limit, start_on_user=start_on_user)
    assert positions(result, HISTORY) == kept
    assert limit is None or len(result) <= limit


def test_the_first_unit_that_does_not_fit_ends_the_history() -> None:
    """A smaller older unit is not kept in place of a bigger newer one that did not fit."""
    messages = [
        ChatMessage.user("Hi"),
        ChatMessage.assistant_tool_calls([WEATHER, TIME]),
        ChatMessage.tool_result("call_1", "18 C"),
        ChatMessage.tool_result("call_2", "noon"),
        ChatMessage.user("Thanks"),
    ]
    assert positions(trim(messages, max_messages=3, start_on_user=False), messages) == [4]
    assert positions(trim(messages, max_messages=4, start_on_user=False), messages) == [1, 2, 3, 4]


def test_max_messages_zero_without_system_messages_keeps_nothing() -> None:
    """A limit of 0 is allowed when there is no system message: an empty list."""
    messages = HISTORY[1:]
    assert trim(messages, max_messages=0) == []
    assert trim(messages, max_messages=0, start_on_user=False) == []
    assert trim([], max_messages=0) == []
    assert trim([]) == []


def test_exact_fit_keeps_everything() -> None:
    """A limit equal to the length keeps every message; one less drops at least the oldest unit."""
    assert trim(HISTORY, max_messages=len(HISTORY)) == HISTORY
    assert trim(HISTORY, max_messages=len(HISTORY) - 1) != HISTORY


def test_system_messages_are_kept_where_they_are_and_count_toward_the_limit() -> None:
    """System and developer messages anywhere are kept in place, each counting as one message."""
    messages = [
        ChatMessage.system("A"),
        ChatMessage.user("1"),
        ChatMessage.developer("B"),
        ChatMessage.assistant("2"),
        ChatMessage.user("3"),
        ChatMessage.system("C"),
        ChatMessage.assistant("4"),
    ]
    assert positions(trim(messages, max_messages=3), messages) == [0, 2, 5]
    assert positions(trim(messages, max_messages=5), messages) == [0, 2, 4, 5, 6]
    assert positions(trim(messages, max_messages=5, start_on_user=False), messages) == [0, 2, 4, 5, 6]
    assert positions(trim(messages, max_messages=6, start_on_user=False), messages) == [0, 2, 3, 4, 5, 6]
    assert positions(trim(messages, max_messages=6), messages) == [0, 2, 4, 5, 6]


def test_results_stay_with_their_turn_across_a_system_message() -> None:
    """A tool result after a system message still belongs to the call turn before the system message."""
    messages = [
        ChatMessage.user("Weather?"),
        ChatMessage.assistant_tool_calls([WEATHER]),
        ChatMessage.system("Tools may be slow."),
        ChatMessage.tool_result("call_1", "18 C"),
        ChatMessage.assistant("18 C."),
    ]
    assert positions(trim(messages, max_messages=3, start_on_user=False), messages) == [2, 4]
    assert positions(trim(messages, max_messages=4, start_on_user=False), messages) == [1, 2, 3, 4]
    assert positions(trim(messages, max_messages=4), messages) == [2]


def test_start_on_user_drops_kept_units_before_the_first_user_turn() -> None:
    """With start_on_user, the kept history opens on a user turn, or keeps only the system messages."""
    messages = [
        ChatMessage.user("1"),
        ChatMessage.assistant("2"),
        ChatMessage.assistant("3"),
        ChatMessage.user("4"),
        ChatMessage.assistant("5"),
    ]
    assert positions(trim(messages, max_messages=4), messages) == [3, 4]
    assert positions(trim(messages, max_messages=4, start_on_user=False), messages) == [1, 2, 3, 4]
    assert positions(trim(messages, max_messages=1), messages) == []
    assert positions(trim(messages, max_messages=5), messages) == [0, 1, 2, 3, 4]


def test_a_history_starting_on_a_result_keeps_that_result_apart() -> None:
    """A leading tool result with no turn before it is a unit of its own (never attached to a later turn)."""
    messages = [
        ChatMessage.system("S"),
        ChatMessage.tool_result("call_0", "old"),
        ChatMessage.user("Hi"),
    ]
    assert positions(trim(messages, start_on_user=False), messages) == [0, 1, 2]
    assert positions(trim(messages), messages) == [0, 1, 2]  # nothing cut: returned whole
    assert positions(trim(messages, max_messages=2, start_on_user=False), messages) == [0, 2]
    assert positions(trim(messages, max_messages=2), messages) == [0, 2]


def test_the_result_is_a_new_list_of_the_same_objects() -> None:
    """Even when everything fits, a new list of the caller's own items is returned; the input is unchanged."""
    before = list(HISTORY)
    result = trim(HISTORY)
    assert result == HISTORY
    assert result is not HISTORY
    assert all(kept is original for kept, original in zip(result, HISTORY, strict=True))
    result.clear()
    assert before == HISTORY


def test_a_tuple_gives_a_list() -> None:
    """A tuple of messages is accepted; the result is a list."""
    result = trim(tuple(HISTORY), max_messages=4)
    assert isinstance(result, list)
    assert positions(result, HISTORY) == [0, 6, 7, 8]


# -- max_tokens --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("limit", "start_on_user", "kept"),
    [
        # tokens per message: 9, 26, 0, 4, 4, 13, 12, 0, 4 (system 9, total 72)
        (72, True, [0, 1, 2, 3, 4, 5, 6, 7, 8]),
        (71, False, [0, 2, 3, 4, 5, 6, 7, 8]),
        (71, True, [0, 6, 7, 8]),
        (46, False, [0, 2, 3, 4, 5, 6, 7, 8]),
        (45, False, [0, 5, 6, 7, 8]),
        (38, False, [0, 5, 6, 7, 8]),
        (37, False, [0, 6, 7, 8]),
        (25, False, [0, 6, 7, 8]),
        (25, True, [0, 6, 7, 8]),
        (24, False, [0, 7, 8]),
        (24, True, [0]),
        (13, False, [0, 7, 8]),
        (12, False, [0]),
        (9, False, [0]),
    ],
)
def test_max_tokens_counts_with_the_given_counter(limit: int, start_on_user: bool, kept: list[int]) -> None:
    """Units are kept while their tokens fit, system tokens included; exact fits are kept."""
    assert [words(m) for m in HISTORY] == [9, 26, 0, 4, 4, 13, 12, 0, 4]
    result = trim(HISTORY, max_tokens=limit, count_tokens=words, start_on_user=start_on_user)
    assert positions(result, HISTORY) == kept
    assert sum(words(m) for m in result) <= limit


def test_both_limits_apply_together() -> None:
    """The stricter of max_messages and max_tokens decides."""
    assert positions(trim(HISTORY, max_messages=4, max_tokens=1000, count_tokens=words), HISTORY) == [
        0,
        6,
        7,
        8,
    ]
    assert positions(trim(HISTORY, max_messages=100, max_tokens=24, count_tokens=words), HISTORY) == [0]
    kept = trim(HISTORY, max_messages=5, max_tokens=38, count_tokens=words, start_on_user=False)
    assert positions(kept, HISTORY) == [0, 5, 6, 7, 8]
    kept = trim(HISTORY, max_messages=4, max_tokens=38, count_tokens=words, start_on_user=False)
    assert positions(kept, HISTORY) == [0, 6, 7, 8]


def test_max_tokens_zero_with_nothing_counted() -> None:
    """Zero tokens fit zero-token messages; without system messages and a limit of 0, nothing else."""
    assert trim(HISTORY, max_tokens=0, count_tokens=lambda message: 0) == HISTORY
    assert trim(HISTORY[1:], max_tokens=0, count_tokens=words, start_on_user=False) == []


def test_count_tokens_is_ignored_without_max_tokens() -> None:
    """A counter without max_tokens is never called."""

    def never(message: ChatMessage) -> int:
        raise AssertionError("called")

    assert trim(HISTORY, count_tokens=never) == HISTORY


def test_count_tokens_errors_pass_through_unchanged() -> None:
    """An exception from the caller's counter is not wrapped."""
    failure = KeyError("tokenizer")

    def broken(message: ChatMessage) -> int:
        raise failure

    with pytest.raises(KeyError) as caught:
        trim(HISTORY, max_tokens=10, count_tokens=broken)
    assert caught.value is failure


# -- dicts -------------------------------------------------------------------------------------


def test_dicts_are_trimmed_like_messages_and_returned_as_the_same_dicts() -> None:
    """Wire dicts (and other mappings) are read for their role only; the same objects come back unchanged."""
    wires: list[Any] = [message.to_wire() for message in HISTORY]
    wires[3] = Frozen(**wires[3])
    before = copy.deepcopy([dict(wire) for wire in wires])
    for limit in range(1, len(HISTORY) + 1):
        for start_on_user in (True, False):
            expected = positions(trim(HISTORY, max_messages=limit, start_on_user=start_on_user), HISTORY)
            kept = trim(wires, max_messages=limit, start_on_user=start_on_user)
            assert positions(kept, wires) == expected
    assert [dict(wire) for wire in wires] == before


def test_dicts_and_messages_mixed_with_a_counter_of_dicts() -> None:
    """count_tokens gets each item as given, dict or message."""
    mixed: list[Any] = [m.to_wire() if index % 2 else m for index, m in enumerate(HISTORY)]
    seen: list[Any] = []

    def count(item: Any) -> int:
        seen.append(item)
        return len(item.content if isinstance(item, ChatMessage) else item["content"] or "")

    kept = trim(mixed, max_tokens=38, count_tokens=count, start_on_user=False)
    assert positions(kept, mixed) == [0, 5, 6, 7, 8]
    assert all(any(item is original for original in mixed) for item in seen)


def test_trimmed_valid_history_is_still_valid() -> None:
    """For the example history, every limit gives a transcript check_transcript finds nothing in."""
    assert check_transcript(HISTORY) == []
    for limit in range(1, len(HISTORY) + 1):
        for start_on_user in (True, False):
            assert check_transcript(trim(HISTORY, max_messages=limit, start_on_user=start_on_user)) == []


# -- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("messages", "options", "path"),
    [
        ("hello", {}, "messages"),
        (None, {}, "messages"),
        (iter(HISTORY), {}, "messages"),
        ({"role": "user", "content": "hi"}, {}, "messages"),
        (HISTORY, {"max_messages": -1}, "max_messages"),
        (HISTORY, {"max_messages": True}, "max_messages"),
        (HISTORY, {"max_messages": False}, "max_messages"),
        (HISTORY, {"max_messages": 3.0}, "max_messages"),
        (HISTORY, {"max_messages": "3"}, "max_messages"),
        (HISTORY, {"max_messages": 0}, "max_messages"),
        (HISTORY, {"max_tokens": -1, "count_tokens": words}, "max_tokens"),
        (HISTORY, {"max_tokens": True, "count_tokens": words}, "max_tokens"),
        (HISTORY, {"max_tokens": 2.5, "count_tokens": words}, "max_tokens"),
        (HISTORY, {"max_tokens": 10}, "count_tokens"),
        (HISTORY, {"max_tokens": 10, "count_tokens": "len"}, "count_tokens"),
        (HISTORY, {"max_tokens": 8, "count_tokens": words}, "max_tokens"),
        (HISTORY, {"max_tokens": 100, "count_tokens": lambda m: 1.0}, "count_tokens"),
        (HISTORY, {"max_tokens": 100, "count_tokens": lambda m: True}, "count_tokens"),
        (HISTORY, {"max_tokens": 100, "count_tokens": lambda m: -1}, "count_tokens"),
        (HISTORY, {"max_tokens": 100, "count_tokens": lambda m: None}, "count_tokens"),
        (HISTORY, {"start_on_user": 1}, "start_on_user"),
        (HISTORY, {"start_on_user": None}, "start_on_user"),
    ],
)
def test_called_wrongly_raises_invalid_transcript_naming_the_argument(
    messages: Any, options: dict[str, Any], path: str
) -> None:
    """Bad messages, limits, counters or flags raise InvalidTranscript with the argument's name as path."""
    with pytest.raises(InvalidTranscript) as caught:
        trim(messages, **options)
    assert caught.value.path == path
    assert isinstance(caught.value, MessageError)


def test_a_limit_smaller_than_the_system_messages_says_so() -> None:
    """Two system messages and max_messages=1: the error explains that system messages are always kept."""
    messages = [ChatMessage.system("A"), ChatMessage.developer("B"), ChatMessage.user("hi")]
    assert positions(trim(messages, max_messages=2), messages) == [0, 1]
    with pytest.raises(InvalidTranscript) as caught:
        trim(messages, max_messages=1)
    assert "system" in caught.value.rule
    assert caught.value.got == "1"


def test_a_counter_returning_a_bad_count_for_a_unit_raises() -> None:
    """The count is checked for every message counted, not only the system ones."""

    def bad_for_tools(message: ChatMessage) -> int:
        return -1 if message.role == "tool" else 1

    with pytest.raises(InvalidTranscript) as caught:
        trim(HISTORY, max_tokens=100, count_tokens=bad_for_tools)
    assert caught.value.path == "count_tokens"
    assert caught.value.got == "-1"


@pytest.mark.parametrize(
    ("item", "error", "path"),
    [
        ({"role": "user", "content": 5}, InvalidMessage, "messages[1].content"),
        ({"role": "moderator", "content": "hi"}, InvalidMessage, "messages[1].role"),
        ({"content": "hi"}, InvalidMessage, "messages[1].role"),
        (5, InvalidMessage, "messages[1]"),
        (None, InvalidMessage, "messages[1]"),
        (
            {"role": "assistant", "content": None, "tool_calls": [{"id": "", "function": {"name": "f"}}]},
            InvalidToolCall,
            "messages[1].tool_calls[0].id",
        ),
    ],
)
def test_an_item_that_does_not_read_raises_its_error_with_the_index(
    item: Any, error: type[MessageError], path: str
) -> None:
    """The reading error comes out with its path prefixed by messages[N]."""
    with pytest.raises(error) as caught:
        trim([ChatMessage.user("hi"), item, ChatMessage.assistant("x")])
    assert type(caught.value) is error
    assert caught.value.path == path


def test_start_on_user_leaves_a_history_that_fits_whole() -> None:
    """start_on_user applies to a history that was cut; one that fits keeps its opening greeting."""
    messages = [ChatMessage.system("S"), ChatMessage.assistant("How can I help?"), ChatMessage.user("Hi")]
    assert positions(trim(messages), messages) == [0, 1, 2]
    assert positions(trim(messages, max_messages=3), messages) == [0, 1, 2]
    assert positions(trim(messages, max_messages=2), messages) == [0, 2]
    assert positions(trim(messages, max_messages=2, start_on_user=False), messages) == [0, 2]
