"""check_transcript, Problem and trim, as a type checker sees them.

Checked by ``mypy --strict`` and pyright (README.md in this folder). Every
example is a function, so importing this module runs none of them;
``test_examples.py`` runs them on purpose.
"""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError
from typing import Any, assert_type

from toolturns import (
    ChatMessage,
    InvalidMessage,
    InvalidTranscript,
    Problem,
    Tool,
    ToolCall,
    check_transcript,
    trim,
)

from ._cases import correct, gap, mistake


def _history() -> list[ChatMessage]:
    return [
        ChatMessage.system("Be brief."),
        ChatMessage.user("Weather in Paris?"),
        ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_weather", {"city": "Paris"})]),
        ChatMessage.tool_result("call_1", "18 C"),
        ChatMessage.assistant("18 C in Paris."),
    ]


def _tool_problem() -> Problem:
    # A problem outside any message (a repeated tool name) has no index.
    [problem] = check_transcript(_history(), tools=[Tool("get_weather"), Tool("get_weather")])
    return problem


def _words(message: ChatMessage) -> int:
    return len(message.text.split()) + 1


# -- correct code ---------------------------------------------------------------------------------


@correct
def check_transcript_returns_problems() -> None:
    """check_transcript returns list[Problem] for messages, dicts, or data straight from json.loads."""
    history = _history()
    assert_type(check_transcript(history), list[Problem])
    assert_type(check_transcript(tuple(history), target="gemini", tools=[Tool("get_weather")]), list[Problem])
    wire: list[dict[str, Any]] = [message.to_wire() for message in history]
    assert_type(check_transcript(wire, target="openai", allow_pending=False), list[Problem])
    assert check_transcript(
        json.loads(json.dumps(wire)), tools=[{"type": "function", "function": {"name": "x"}}]
    )


@correct
def problem_fields() -> None:
    """Problem's fields are typed; index is None for a problem outside any message."""
    problem = _tool_problem()
    assert_type(problem.index, int | None)
    assert_type(problem.path, str)
    assert_type(problem.code, str)
    assert_type(problem.message, str)
    assert_type(str(problem), str)
    history = _history()
    where = history[problem.index] if problem.index is not None else None
    assert where is None


@correct
def trim_keeps_the_item_type() -> None:
    """trim returns a list of the very item type it is given."""
    history = _history()
    assert_type(trim(history, max_messages=3), list[ChatMessage])
    assert_type(trim(tuple(history), max_messages=3, start_on_user=False), list[ChatMessage])
    wire: list[dict[str, Any]] = [message.to_wire() for message in history]
    assert_type(trim(wire, max_messages=3), list[dict[str, Any]])
    assert_type(trim(history, max_tokens=20, count_tokens=_words), list[ChatMessage])
    assert_type(trim(json.loads(json.dumps(wire)), max_messages=3), list[Any])


@correct
def trim_mixed_items() -> None:
    """A list of messages and dicts needs its type written down under mypy.

    mypy joins ``[ChatMessage, dict]`` to ``list[object]``, which trim's type
    variable refuses; pyright infers the union by itself. Annotated, both agree.
    """
    mixed: list[ChatMessage | dict[str, Any]] = [
        ChatMessage.user("Weather in Paris?"),
        {"role": "assistant", "content": "18 C"},
    ]
    assert_type(trim(mixed, max_messages=2), list[ChatMessage | dict[str, Any]])


# -- mistakes the checkers flag ---------------------------------------------------------------------
# Each line carries the exact codes that flag it; an ignore that silences nothing fails the check.


@mistake(InvalidTranscript)
def one_message_not_a_transcript() -> None:
    """check_transcript takes the whole transcript."""
    # Mistake: a single ChatMessage where a list of them is expected.
    check_transcript(ChatMessage.user("hi"))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@mistake(TypeError)
def target_positional() -> None:
    """target is keyword-only."""
    # Mistake: the target provider passed by position.
    check_transcript(_history(), "openai")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]


@mistake(TypeError)
def problem_index_unchecked() -> object:
    """A problem outside any message has index None."""
    problem = _tool_problem()
    # Mistake: indexing the history with an Optional index.
    return _history()[problem.index]  # type: ignore[index]  # pyright: ignore[reportArgumentType, reportCallIssue]


@mistake(FrozenInstanceError)
def assigning_a_problem_field() -> None:
    """Problems are frozen."""
    problem = _tool_problem()
    # Mistake: assigning to a field of a Problem.
    problem.code = "ignored"  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]


@mistake(TypeError)
def max_messages_positional() -> None:
    """trim's limits are keyword-only."""
    # Mistake: the limit passed by position.
    trim(_history(), 3)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]


@mistake(TypeError)
def len_as_token_counter() -> None:
    """count_tokens counts one item's tokens; messages have no len()."""
    # Mistake: len as the token counter of ChatMessage items.
    trim(_history(), max_tokens=10, count_tokens=len)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@mistake(InvalidMessage)
def trimming_strings() -> None:
    """trim's items are messages or message dicts."""
    # Mistake: a list of strings given to trim.
    trim(["Weather in Paris?", "18 C"], max_messages=1)  # type: ignore[type-var]  # pyright: ignore[reportArgumentType]


# -- mistakes no checker flags today ----------------------------------------------------------------
# If a checker starts flagging one, the check fails here: move it up, with its codes.


@gap(InvalidTranscript)
def target_typo() -> None:
    """target is typed ``str | None``, so a misspelt provider type-checks and is refused at run time."""
    check_transcript(_history(), target="claude")


@gap(InvalidTranscript)
def text_as_a_transcript() -> None:
    """messages is ``Sequence[object]`` (so json.loads data type-checks), and a str is a Sequence."""
    check_transcript("Weather in Paris?")
