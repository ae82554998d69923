"""Tool.from_function, Toolbox, run_calls / arun_calls and run_loop / arun_loop, as a type checker sees them.

Checked by ``mypy --strict`` and pyright (README.md in this folder). Every
example is a function, so importing this module runs none of them;
``test_examples.py`` runs them on purpose.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal, assert_type

from toolturns import (
    ChatMessage,
    InvalidMessage,
    InvalidTool,
    InvalidTranscript,
    LoopLimit,
    LoopStopped,
    Tool,
    Toolbox,
    ToolCall,
    anthropic,
    arun_calls,
    arun_loop,
    openai,
    run_calls,
    run_loop,
)

from ._cases import correct, gap, mistake


def _get_weather(city: str) -> dict[str, Any]:
    """Current weather in a city."""
    return {"city": city, "temperature": 18}


async def _get_time(city: str) -> str:
    """The local time in a city."""
    return "12:00"


_TURN = ChatMessage.assistant_tool_calls([ToolCall("call_1", "_get_weather", {"city": "Paris"})])
_ANSWER = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "18 C."}}]}


def _send(body: dict[str, Any]) -> dict[str, Any]:
    return _ANSWER


async def _asend(body: dict[str, Any]) -> dict[str, Any]:
    return _ANSWER


# -- correct code ---------------------------------------------------------------------------------


@correct
def toolbox_of_functions_and_pairs() -> None:
    """Functions, sync or async, and (Tool, callable) pairs; .tools is what to_request takes."""
    assert_type(Tool.from_function(_get_weather), Tool)
    toolbox = Toolbox(_get_weather, _get_time, (Tool("get_date"), lambda: "today"))
    assert_type(toolbox.tools, tuple[Tool, ...])
    assert openai.to_request([ChatMessage.user("hi")], tools=toolbox.tools)["tools"]


@correct
def results_are_messages() -> None:
    """run_calls gives a list of tool results; arun_calls the same, awaited."""
    assert_type(run_calls(_TURN, Toolbox(_get_weather)), list[ChatMessage])
    results = asyncio.run(arun_calls(_TURN, Toolbox(_get_weather), max_concurrency=2, timeout=1.5))
    assert_type(results, list[ChatMessage])


@correct
def loops_over_a_codec_module_or_its_name() -> None:
    """codec is a codec module or a registered name; the history comes back as a list."""
    history = run_loop(_send, [ChatMessage.user("hi")], Toolbox(_get_weather), codec=openai)
    assert_type(history, list[ChatMessage])
    assert run_loop(_send, (ChatMessage.user("hi"),), Toolbox(), codec="openai", max_steps=3)
    assert asyncio.run(arun_loop(_asend, [ChatMessage.user("hi")], Toolbox(), codec=openai, timeout=5))


@correct
def a_loop_limit_carries_the_history() -> None:
    """LoopLimit's history is the messages so far."""
    error = LoopLimit(2, [ChatMessage.user("hi")])
    assert_type(error.history, list[ChatMessage])
    assert_type(error.max_steps, int)


@correct
def a_stopped_loop_carries_the_history_and_the_error() -> None:
    """LoopStopped's history is the messages before the step; its error the exception that step raised."""
    error = LoopStopped(2, "send", TimeoutError("read timed out"), [ChatMessage.user("hi")])
    assert_type(error.history, list[ChatMessage])
    assert_type(error.error, Exception)
    assert_type(error.step, int)
    assert_type(error.stage, Literal["to_request", "send", "from_response"])
    assert_type(error.response, object)


# -- mistakes the checkers flag ---------------------------------------------------------------------
# Each line carries the exact codes that flag it; an ignore that silences nothing fails the check.


@mistake(InvalidTool)
def a_list_of_functions_as_the_toolbox() -> None:
    """The tools are read once, by Toolbox."""
    # Mistake: a list of functions where a Toolbox is expected.
    run_calls(_TURN, [_get_weather])  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@mistake(InvalidMessage)
def a_call_where_the_turn_goes() -> None:
    """run_calls takes the assistant turn, not one of its calls."""
    # Mistake: a ToolCall where the turn is expected.
    run_calls(ToolCall("call_1", "get_weather"), Toolbox())  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@mistake(TypeError)
def codec_by_position() -> None:
    """codec is keyword-only."""
    # Mistake: the codec passed by position.
    run_loop(_send, [], Toolbox(), openai)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]


@mistake(InvalidTranscript)
def a_module_that_is_not_a_codec() -> None:
    """A module without to_request and from_response is no codec."""
    # Mistake: a module that has neither verb.
    run_loop(_send, [], Toolbox(), codec=asyncio)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


# -- mistakes no checker flags today ----------------------------------------------------------------
# If a checker starts flagging one, the check fails here: move it up, with its codes.


@gap(InvalidTranscript)
def an_unknown_wire_name() -> None:
    """codec names are a str: a name no wire has type-checks."""
    run_loop(_send, [], Toolbox(), codec="anthropic-messages")


@gap(InvalidTranscript)
def a_zero_step_loop() -> None:
    """max_steps is an int: 0 type-checks, and is refused when it runs."""
    run_loop(_send, [], Toolbox(), codec=anthropic, max_steps=0)
