"""repair, Repaired and RepairAction, as a type checker sees them.

Checked by ``mypy --strict`` and pyright (README.md in this folder). Every
example is a function, so importing this module runs none of them;
``test_examples.py`` runs them on purpose.
"""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError
from typing import Any, assert_type

from toolturns import ChatMessage, InvalidTranscript, RepairAction, Repaired, ToolCall, repair

from ._cases import correct, gap, mistake


def _history() -> list[ChatMessage]:
    return [
        ChatMessage.user("Weather in Paris?"),
        ChatMessage.assistant_tool_calls([ToolCall("call_1", "get_weather", {"city": "Paris"})]),
        ChatMessage.user("Hello?"),
    ]


# -- correct code ---------------------------------------------------------------------------------


@correct
def repair_returns_repaired() -> None:
    """repair takes messages, tuples of them, or message dicts (from json.loads too)."""
    repaired = repair(_history())
    assert_type(repaired, Repaired)
    assert_type(repaired.messages, list[ChatMessage])
    assert_type(repaired.actions, tuple[RepairAction, ...])
    assert_type(repair(tuple(_history()), allow_pending=False), Repaired)
    wire: list[dict[str, Any]] = [message.to_wire() for message in _history()]
    assert repair(json.loads(json.dumps(wire))).actions == repaired.actions


@correct
def action_fields() -> None:
    """An action's fields are typed; its index is always a message of the input."""
    [action] = repair(_history()).actions
    assert_type(action.index, int)
    assert_type(action.code, str)
    assert_type(action.did, str)
    assert_type(str(action), str)
    assert _history()[action.index].tool_calls


@correct
def the_messages_are_the_callers_list() -> None:
    """The repaired messages are a new list, to go on with."""
    history = repair(_history()).messages
    history.append(ChatMessage.assistant("18 C."))
    assert len(history) == 5


# -- mistakes the checkers flag ---------------------------------------------------------------------
# Each line carries the exact codes that flag it; an ignore that silences nothing fails the check.


@mistake(InvalidTranscript)
def one_message_not_a_transcript() -> None:
    """repair takes the whole transcript."""
    # Mistake: a single ChatMessage where a list of them is expected.
    repair(ChatMessage.user("hi"))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@mistake(TypeError)
def allow_pending_positional() -> None:
    """allow_pending is keyword-only."""
    # Mistake: allow_pending passed by position.
    repair(_history(), False)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]


@mistake(FrozenInstanceError)
def assigning_an_action_field() -> None:
    """Actions are frozen."""
    [action] = repair(_history()).actions
    # Mistake: assigning to a field of a RepairAction.
    action.did = "nothing"  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]


# -- mistakes no checker flags today ----------------------------------------------------------------
# If a checker starts flagging one, the check fails here: move it up, with its codes.


@gap(InvalidTranscript)
def text_as_a_transcript() -> None:
    """messages is ``Sequence[object]`` (so json.loads data type-checks), and a str is a Sequence."""
    repair("Weather in Paris?")
