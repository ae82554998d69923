"""Properties of the tool runner: one result per call, in order, whatever the calls and the tools do."""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.property.strategies import arbitrary_json, tool_calls
from toolturns import ChatMessage, Tool, Toolbox, arun_calls, check_transcript, run_calls

# The toolbox's names; the calls use these and others, so that some name no tool.
_NAMES = st.sampled_from(["a", "b", "c", "missing"])
_SCHEMAS = st.sampled_from(
    [
        None,
        {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]},
        {"type": "object", "additionalProperties": False},
    ]
)


class _Failure(Exception):
    pass


def _behaviour(outcome: object) -> Any:
    """A tool that returns ``outcome``, or raises it when it is an exception."""

    def tool(**arguments: Any) -> object:
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    return tool


_OUTCOMES = st.one_of(arbitrary_json(max_leaves=4), st.just(_Failure("broken")), st.just({1, 2}))


@st.composite
def _toolboxes(draw: st.DrawFn) -> Toolbox:
    return Toolbox(
        *((Tool(name, parameters=draw(_SCHEMAS)), _behaviour(draw(_OUTCOMES))) for name in ("a", "b", "c"))
    )


_TURNS = st.lists(tool_calls(names=_NAMES), min_size=1, max_size=5, unique_by=lambda call: call.id).map(
    ChatMessage.assistant_tool_calls
)


@given(_TURNS, _toolboxes())
def test_every_call_gets_exactly_one_result_in_call_order(turn: ChatMessage, toolbox: Toolbox) -> None:
    """Whatever the arguments, names, schemas and tools do: one result per call, by id, in order,
    and the exchange is one check_transcript accepts."""
    results = run_calls(turn, toolbox)
    assert [result.tool_call_id for result in results] == [call.id for call in turn.tool_calls or ()]
    assert all(result.role.value == "tool" for result in results)
    problems = check_transcript([ChatMessage.user("go"), turn, *results])
    assert [problem.code for problem in problems if problem.code != "invalid_arguments"] == []


@given(_TURNS, _toolboxes())
def test_a_result_is_an_error_exactly_when_the_call_could_not_be_answered(
    turn: ChatMessage, toolbox: Toolbox
) -> None:
    """A call naming no tool, with arguments that are not an object, or whose tool raised, is an error."""
    for call, result in zip(turn.tool_calls or (), run_calls(turn, toolbox), strict=True):
        if call.name == "missing":
            assert result.is_error
            assert result.text.startswith("'missing' was not run: there is no such tool")
        elif result.is_error:
            assert result.text.startswith(
                (f"{call.name} was not run: ", f"{call.name} failed: ", f"{call.name} returned")
            )


@given(_TURNS, _toolboxes(), st.none() | st.integers(1, 3))
def test_the_async_runner_gives_what_the_sync_runner_gives(
    turn: ChatMessage, toolbox: Toolbox, max_concurrency: int | None
) -> None:
    """Concurrency changes when the tools run, never what the results are or their order."""
    assert asyncio.run(arun_calls(turn, toolbox, max_concurrency=max_concurrency)) == run_calls(turn, toolbox)
