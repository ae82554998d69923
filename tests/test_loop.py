"""The toolbox, run_calls / arun_calls and run_loop / arun_loop: one result per call, every failure an answer."""

from __future__ import annotations

import asyncio
import copy
import enum
import pickle
import threading
import time
import typing
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

from toolturns import (
    ChatMessage,
    ImagePart,
    InvalidMessage,
    InvalidTool,
    InvalidTranscript,
    LoopLimit,
    LoopStopped,
    MessageError,
    TextPart,
    Tool,
    Toolbox,
    ToolCall,
    arun_calls,
    arun_loop,
    check_transcript,
    openai,
    run_calls,
    run_loop,
)

_CITY = Tool(
    "get_weather",
    "Current weather in a city.",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)
_PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="


def _weather(city: str) -> dict[str, Any]:
    return {"city": city, "temperature": 18}


def _turn(*calls: ToolCall) -> ChatMessage:
    return ChatMessage.assistant_tool_calls(list(calls))


def _call(name: str = "get_weather", arguments: object = None, id: str = "call_1") -> ToolCall:
    return ToolCall(id, name, {"city": "Paris"} if arguments is None else arguments)  # type: ignore[arg-type]


class _Unit(enum.Enum):
    C = "c"
    F = "f"


def _forecast(city: str, unit: _Unit = _Unit.C) -> str:
    """The forecast."""
    return f"{city} in {type(unit).__name__}.{unit.name}"


def _one(value: object) -> ChatMessage:
    """The result of one call whose tool returned ``value``."""
    (result,) = run_calls(_turn(_call()), Toolbox((_CITY, lambda city: value)))
    return result


# -- the toolbox -----------------------------------------------------------------------


def test_a_toolbox_lists_its_tools_in_the_order_given() -> None:
    """``.tools`` is what to_request's tools= takes, in the toolbox's order."""
    time_tool = Tool("get_time")
    toolbox = Toolbox((_CITY, _weather), (time_tool, lambda: "12:00"))
    assert toolbox.tools == (_CITY, time_tool)
    assert repr(toolbox) == "Toolbox('get_weather', 'get_time')"


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ((42,), "[0]: must be a function or a (Tool, callable) pair, got 42"),
        (((_CITY,),), "[0]: must be a function or a (Tool, callable) pair, got tuple"),
        (((_CITY, "not callable"),), "[0]: must be a function or a (Tool, callable) pair, got tuple"),
        ((("get_weather", _weather),), "[0]: must be a function or a (Tool, callable) pair, got tuple"),
        ((int,), "[0]: must be a function or a (Tool, callable) pair, got type"),
        (
            ((_CITY, _weather), (Tool("get_time"), str), (_CITY, _weather)),
            "[2].name: must be unique in the toolbox (tool [0] has it), got 'get_weather'",
        ),
    ],
)
def test_a_toolbox_refuses_what_is_not_a_tool_and_names_shared_twice(
    entries: tuple[Any, ...], message: str
) -> None:
    """Each wrong entry is named by its position."""
    with pytest.raises(InvalidTool) as raised:
        Toolbox(*entries)
    assert str(raised.value) == message


# -- run_calls: what a tool returns ------------------------------------------------------


def test_each_call_gets_one_result_in_call_order() -> None:
    """The results answer the calls by id, in the calls' order."""
    turn = _turn(*(_call(arguments={"city": city}, id=f"call_{city}") for city in ("Paris", "Rome", "Oslo")))
    results = run_calls(turn, Toolbox((_CITY, _weather)))
    assert [(result.tool_call_id, result.content) for result in results] == [
        ("call_Paris", '{"city":"Paris","temperature":18}'),
        ("call_Rome", '{"city":"Rome","temperature":18}'),
        ("call_Oslo", '{"city":"Oslo","temperature":18}'),
    ]
    assert not any(result.is_error for result in results)
    assert check_transcript([ChatMessage.user("Weather?"), turn, *results]) == []


def test_a_turn_without_calls_has_no_results() -> None:
    """Nothing to run: an empty list."""
    assert run_calls(ChatMessage.assistant("Hello."), Toolbox()) == []


@pytest.mark.parametrize(
    ("value", "content"),
    [
        ("18 degrees", "18 degrees"),
        ("", ""),
        ({"temperature": 18, "unit": "°C"}, '{"temperature":18,"unit":"°C"}'),
        ([1, 2.5, None, True], "[1,2.5,null,true]"),
        (None, "null"),
        (18, "18"),
        (TextPart("sunny"), (TextPart("sunny"),)),
        (
            [TextPart("a chart:"), ImagePart(data=_PIXEL, media_type="image/png")],
            (TextPart("a chart:"), ImagePart(data=_PIXEL, media_type="image/png")),
        ),
    ],
)
def test_what_a_tool_returns_becomes_the_content(value: object, content: object) -> None:
    """A str as it is, parts as parts, any other JSON value as compact JSON text."""
    result = _one(value)
    assert (result.content, result.is_error, result.tool_call_id) == (content, False, "call_1")


def test_a_str_subclass_is_sent_as_a_plain_str() -> None:
    """The content is a str, whatever str subclass the tool returned."""

    class Celsius(str):
        pass

    assert type(_one(Celsius("18")).content) is str


def test_a_tool_result_the_tool_built_answers_the_call_it_ran_for() -> None:
    """A returned tool result keeps its content, is_error and extra, with the call's id."""
    built = ChatMessage.tool_result("anything", "it broke", is_error=True)
    result = _one(built)
    assert result == ChatMessage.tool_result("call_1", "it broke", is_error=True)
    with_extra = ChatMessage.from_dict(
        {"role": "tool", "tool_call_id": "other", "content": "out", "weight": 0}
    )
    assert _one(with_extra).extra == {"weight": 0}
    assert _one(with_extra).tool_call_id == "call_1"
    same_id = ChatMessage.tool_result("call_1", "out")
    assert _one(same_id) is same_id


@pytest.mark.parametrize(
    ("value", "content"),
    [
        ({1, 2}, "get_weather returned a value that is not JSON: must be JSON (a str-keyed mapping, "),
        (float("nan"), "get_weather returned a value that is not JSON: "),
        ([TextPart("a"), "b"], "get_weather returned a value that is not JSON: "),
        (ChatMessage.user("hi"), "get_weather returned a user message; only a tool result can answer a call"),
    ],
)
def test_a_return_value_with_no_wire_form_is_an_error_result(value: object, content: str) -> None:
    """The model hears that the tool's answer could not be sent, not nothing."""
    result = _one(value)
    assert result.is_error
    assert isinstance(result.content, str)
    assert result.content.startswith(content)


# -- run_calls: what fails ----------------------------------------------------------------


def test_an_unknown_tool_is_answered_with_the_tools_there_are() -> None:
    """The model is told which names exist, so that it can call the right one."""
    (result,) = run_calls(_turn(_call("get_wether")), Toolbox((_CITY, _weather), (Tool("get_time"), str)))
    assert result == ChatMessage.tool_result(
        "call_1",
        "'get_wether' was not run: there is no such tool (the tools are: 'get_weather', 'get_time')",
        is_error=True,
    )
    (result,) = run_calls(_turn(_call("get_wether")), Toolbox())
    assert result.content == "'get_wether' was not run: there is no such tool (the tools are: none)"


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            '{"city": "Ro',
            "get_weather was not run: its arguments are not a JSON object: must be valid JSON "
            '(Unterminated string starting at: line 1 column 10 (char 9)), got \'{"city": "Ro\'',
        ),
        (
            "[1]",
            "get_weather was not run: its arguments are not a JSON object: must be a JSON object, got array",
        ),
    ],
)
def test_arguments_that_are_not_a_json_object_are_answered_saying_so(text: str, content: str) -> None:
    """The tool is not run; the model reads what was wrong with its text."""
    ran = []
    (result,) = run_calls(_turn(_call(arguments=text)), Toolbox((_CITY, lambda **kw: ran.append(kw))))
    assert (result.content, result.is_error) == (content, True)
    assert ran == []


def test_arguments_that_break_the_schema_are_answered_with_the_path() -> None:
    """The schema is checked before the tool runs; the first violation is named."""
    ran = []
    (result,) = run_calls(_turn(_call(arguments={"city": 7})), Toolbox((_CITY, lambda **kw: ran.append(kw))))
    assert result.is_error
    assert (
        result.content
        == "get_weather was not run: its arguments do not match its schema: city: must be a string, got 7"
    )
    assert ran == []


def test_a_tools_exception_is_answered_with_its_type_and_message() -> None:
    """The exception's words, not a traceback; the other calls still run."""

    def flaky(city: str) -> str:
        if city == "Rome":
            raise LookupError(f"no station in {city}")
        if city == "Oslo":
            raise KeyError
        return "18"

    turn = _turn(*(_call(arguments={"city": city}, id=f"call_{city}") for city in ("Rome", "Paris", "Oslo")))
    results = run_calls(turn, Toolbox((_CITY, flaky)))
    assert [(result.content, result.is_error) for result in results] == [
        ("get_weather failed: LookupError: no station in Rome", True),
        ("18", False),
        ("get_weather failed: KeyError", True),
    ]


def test_a_pairs_callable_gets_the_decoded_arguments_as_keywords() -> None:
    """Arguments the callable does not take are its TypeError, answered like any exception."""
    (result,) = run_calls(
        _turn(_call(arguments={"city": "Paris", "unit": "C"})), Toolbox((_CITY, lambda city: city))
    )
    assert result.is_error
    assert "TypeError" in result.text
    assert "unit" in result.text


def test_an_interrupt_is_not_turned_into_a_result() -> None:
    """Only Exceptions are answers: KeyboardInterrupt and SystemExit stop the loop as they should."""

    def interrupted(city: str) -> str:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_calls(_turn(_call()), Toolbox((_CITY, interrupted)))


@pytest.mark.parametrize(
    ("turn", "message"),
    [
        ({"role": "assistant"}, ": must be a ChatMessage (the assistant turn whose calls to run), got dict"),
        (ChatMessage.user("hi"), "role: must be 'assistant' (a turn that calls tools), got 'user'"),
    ],
)
def test_run_calls_refuses_what_is_not_an_assistant_turn(turn: object, message: str) -> None:
    """A programmer's mistake raises at once, with the library's own error."""
    with pytest.raises(InvalidMessage) as raised:
        run_calls(turn, Toolbox())  # type: ignore[arg-type]
    assert str(raised.value) == message.removeprefix(": ")


def test_run_calls_refuses_what_is_not_a_toolbox() -> None:
    """A list of functions is not a toolbox: the tools are read once, by Toolbox."""
    with pytest.raises(InvalidTool, match=r"^toolbox: must be a Toolbox, got list$"):
        run_calls(_turn(_call()), [_weather])  # type: ignore[arg-type]


# -- async tools in run_calls -------------------------------------------------------------


async def _async_weather(city: str) -> str:
    await asyncio.sleep(0)
    return f"{city}: 18"


def test_run_calls_runs_an_async_tool_in_a_loop_of_its_own() -> None:
    """An async tool works from synchronous code, as does a sync callable returning an awaitable."""
    (result,) = run_calls(_turn(_call()), Toolbox((_CITY, _async_weather)))
    assert result.content == "Paris: 18"
    (result,) = run_calls(_turn(_call()), Toolbox((_CITY, lambda city: _async_weather(city))))
    assert result.content == "Paris: 18"


def test_run_calls_from_async_code_runs_an_async_tool_in_another_thread() -> None:
    """Inside a running event loop, asyncio.run would refuse: the tool gets a thread and a loop."""

    async def failing(city: str) -> str:
        raise ValueError("down")

    async def main() -> list[ChatMessage]:
        return run_calls(
            _turn(_call(), _call("fail", id="call_2")),
            Toolbox((_CITY, _async_weather), (Tool("fail"), failing)),
        )

    results = asyncio.run(main())
    assert [(result.content, result.is_error) for result in results] == [
        ("Paris: 18", False),
        ("fail failed: ValueError: down", True),
    ]


def test_an_object_with_an_async_call_method_is_an_async_tool() -> None:
    """The toolbox sees through a callable object to its async __call__."""

    class Station:
        async def __call__(self, city: str) -> str:
            return f"{city} station"

    (result,) = asyncio.run(arun_calls(_turn(_call()), Toolbox((_CITY, Station()))))
    assert result.content == "Paris station"


# -- arun_calls ----------------------------------------------------------------------------


class _Gauge:
    """How many calls run at once, at most."""

    def __init__(self) -> None:
        self.now = 0
        self.most = 0
        self.lock = threading.Lock()

    def enter(self) -> None:
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)

    def leave(self) -> None:
        with self.lock:
            self.now -= 1


def test_arun_calls_gives_results_in_call_order_whatever_finishes_first() -> None:
    """The first call finishes last; its result still comes first. Sync tools run in threads, at once."""
    gauge = _Gauge()

    async def slow(city: str) -> str:
        gauge.enter()
        await asyncio.sleep(0.05 if city == "Paris" else 0)
        gauge.leave()
        return city

    def blocking(city: str) -> str:
        gauge.enter()
        time.sleep(0.02)
        gauge.leave()
        return city.upper()

    turn = _turn(
        _call(arguments={"city": "Paris"}, id="call_1"),
        _call("block", arguments={"city": "Rome"}, id="call_2"),
        _call(arguments={"city": "Oslo"}, id="call_3"),
        _call("block", arguments={"city": "Bern"}, id="call_4"),
    )
    block = Tool("block", parameters=_CITY.parameters)
    results = asyncio.run(arun_calls(turn, Toolbox((_CITY, slow), (block, blocking))))
    assert [(result.tool_call_id, result.content) for result in results] == [
        ("call_1", "Paris"),
        ("call_2", "ROME"),
        ("call_3", "Oslo"),
        ("call_4", "BERN"),
    ]
    assert gauge.most > 1


def test_max_concurrency_bounds_the_calls_running_at_once() -> None:
    """With max_concurrency=2, never more than two calls run together."""
    gauge = _Gauge()

    async def counted(city: str) -> str:
        gauge.enter()
        await asyncio.sleep(0.01)
        gauge.leave()
        return city

    turn = _turn(*(_call(arguments={"city": str(n)}, id=f"call_{n}") for n in range(6)))
    results = asyncio.run(arun_calls(turn, Toolbox((_CITY, counted)), max_concurrency=2))
    assert [result.content for result in results] == [str(n) for n in range(6)]
    assert gauge.most == 2


def test_a_call_past_its_timeout_is_answered_saying_so() -> None:
    """An async tool is cancelled at the timeout; a sync one is no longer waited for."""
    cancelled = []

    async def hangs(city: str) -> str:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            cancelled.append(city)
            raise
        return city

    def blocks(city: str) -> str:
        time.sleep(0.3)
        return city

    block = Tool("block", parameters=_CITY.parameters)
    turn = _turn(_call(), _call("block", id="call_2"))
    started = time.perf_counter()
    results = asyncio.run(arun_calls(turn, Toolbox((_CITY, hangs), (block, blocks)), timeout=0.05))
    assert time.perf_counter() - started < 5
    assert [(result.content, result.is_error) for result in results] == [
        ("get_weather did not finish within 0.05 seconds", True),
        ("block did not finish within 0.05 seconds", True),
    ]
    assert cancelled == ["Paris"]


def test_a_tools_own_timeout_error_is_its_exception() -> None:
    """A TimeoutError the tool raised itself is reported as the tool's, not as the loop's timeout."""

    async def gives_up(city: str) -> str:
        raise TimeoutError("the station did not answer")

    (result,) = asyncio.run(arun_calls(_turn(_call()), Toolbox((_CITY, gives_up)), timeout=5))
    assert result.content == "get_weather failed: TimeoutError: the station did not answer"


def test_arun_calls_answers_failures_as_run_calls_does() -> None:
    """Unknown tools, bad arguments, exceptions, awaitables from sync callables: the same answers."""

    def fails(city: str) -> str:
        raise RuntimeError("down")

    turn = _turn(
        _call("nope", id="call_1"),
        _call(arguments='{"city"', id="call_2"),
        _call("fails", id="call_3"),
        _call("lazy", id="call_4"),
    )
    toolbox = Toolbox(
        (_CITY, _weather),
        (Tool("fails"), fails),
        (Tool("lazy"), lambda city: _async_weather(city)),
    )
    assert asyncio.run(arun_calls(turn, toolbox)) == run_calls(turn, toolbox)


def test_cancelling_the_caller_cancels_the_running_calls() -> None:
    """CancelledError reaches the caller; the calls still running are cancelled; no results."""
    started = asyncio.Event()
    cancelled = []

    async def hangs(city: str) -> str:
        started.set()
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            cancelled.append(city)
            raise
        return city

    async def main() -> None:
        task = asyncio.create_task(arun_calls(_turn(_call(), _call(id="call_2")), Toolbox((_CITY, hangs))))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert cancelled == ["Paris", "Paris"]


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"max_concurrency": 0}, "max_concurrency: must be None or an integer of at least 1, got 0"),
        ({"max_concurrency": True}, "max_concurrency: must be None or an integer of at least 1, got True"),
        ({"timeout": 0}, "timeout: must be None or a positive finite number of seconds, got 0"),
        ({"timeout": float("inf")}, "timeout: must be None or a positive finite number of seconds, got inf"),
        ({"timeout": "5"}, "timeout: must be None or a positive finite number of seconds, got '5'"),
    ],
)
def test_arun_calls_refuses_bad_limits(keywords: dict[str, Any], message: str) -> None:
    """The limits are checked before any call runs."""
    with pytest.raises(InvalidTool) as raised:
        asyncio.run(arun_calls(_turn(_call()), Toolbox((_CITY, _weather)), **keywords))
    assert str(raised.value) == message


# -- run_loop --------------------------------------------------------------------------------


def _completion(message: dict[str, Any]) -> dict[str, Any]:
    return {"id": "chatcmpl-1", "object": "chat.completion", "choices": [{"index": 0, "message": message}]}


def _calling(*cities: str) -> dict[str, Any]:
    return _completion(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": f"call_{city}",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": f'{{"city": "{city}"}}'},
                }
                for city in cities
            ],
        }
    )


class _Replay:
    """A transport answering each body with the next recorded response, keeping the bodies."""

    def __init__(self, *responses: dict[str, Any]) -> None:
        self.bodies: list[dict[str, Any]] = []
        self._responses: Iterator[dict[str, Any]] = iter(responses)

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        self.bodies.append(body)
        return next(self._responses)

    async def asend(self, body: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(0)
        return self(body)


def test_run_loop_runs_the_calls_until_the_model_answers_in_text() -> None:
    """Each request carries the history so far and the toolbox's tools; the history comes back whole."""
    send = _Replay(_calling("Paris", "Rome"), _completion({"role": "assistant", "content": "Both 18 °C."}))
    start = [ChatMessage.user("Weather in Paris and Rome?")]
    history = run_loop(send, start, Toolbox((_CITY, _weather)), codec=openai)
    assert [message.role.value for message in history] == ["user", "assistant", "tool", "tool", "assistant"]
    assert history[-1].content == "Both 18 °C."
    assert send.bodies == [
        openai.to_request(history[:1], tools=[_CITY]),
        openai.to_request(history[:4], tools=[_CITY]),
    ]
    assert start == [ChatMessage.user("Weather in Paris and Rome?")]
    assert check_transcript(history, target="openai") == []


def test_past_max_steps_the_loop_stops_with_a_history_that_checks() -> None:
    """LoopLimit says the limit and carries every message, the last turn's calls answered."""
    send = _Replay(_calling("Paris"), _calling("Rome"), _calling("Oslo"))
    with pytest.raises(LoopLimit) as raised:
        run_loop(
            send, [ChatMessage.user("Weather?")], Toolbox((_CITY, _weather)), codec="openai", max_steps=2
        )
    assert str(raised.value) == "max_steps: the model still called tools after 2 steps (max_steps=2)"
    assert raised.value.max_steps == 2
    assert len(send.bodies) == 2
    history = raised.value.history
    assert [message.role.value for message in history] == ["user", "assistant", "tool", "assistant", "tool"]
    assert check_transcript(history, target="openai") == []
    assert isinstance(raised.value, MessageError)


def test_a_loop_limit_pickles_with_its_history() -> None:
    """A worker process can send it back whole."""
    error = LoopLimit(3, [ChatMessage.user("hi")])
    copy = pickle.loads(pickle.dumps(error))
    assert (str(copy), copy.max_steps, copy.history) == (str(error), 3, error.history)


def test_arun_loop_awaits_the_transport_and_runs_the_calls_concurrently() -> None:
    """The async twin gives what run_loop gives, on the same responses."""
    responses = (_calling("Paris", "Rome"), _completion({"role": "assistant", "content": "Both 18 °C."}))
    start = [ChatMessage.user("Weather?")]
    by_sync = run_loop(_Replay(*responses), start, Toolbox((_CITY, _weather)), codec=openai)
    send = _Replay(*responses)
    by_async = asyncio.run(
        arun_loop(send.asend, start, Toolbox((_CITY, _weather)), codec=openai, max_concurrency=1, timeout=5)
    )
    assert by_async == by_sync
    with pytest.raises(LoopLimit):
        asyncio.run(
            arun_loop(
                _Replay(_calling("Paris")).asend, start, Toolbox((_CITY, _weather)), codec=openai, max_steps=1
            )
        )


class _FailingAt(_Replay):
    """A transport that answers with ``responses``, then raises ``error``."""

    def __init__(self, error: BaseException, *responses: dict[str, Any]) -> None:
        super().__init__(*responses)
        self.error = error
        self.left = len(responses)

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        if not self.left:
            self.bodies.append(body)
            raise self.error
        self.left -= 1
        return super().__call__(body)


def _looped(
    asynchronous: bool, send: _Replay, start: list[ChatMessage], toolbox: Toolbox
) -> list[ChatMessage]:
    """run_loop, or arun_loop over the same replies."""
    if asynchronous:
        return asyncio.run(arun_loop(send.asend, start, toolbox, codec=openai))
    return run_loop(send, start, toolbox, codec=openai)


def _roles(history: list[ChatMessage]) -> list[str]:
    return [message.role.value for message in history]


@pytest.mark.parametrize("asynchronous", [False, True], ids=["run_loop", "arun_loop"])
def test_a_transport_error_stops_the_loop_keeping_every_turn_and_result(asynchronous: bool) -> None:
    """The tools already run are not lost: the history so far is the error's, complete, and resumes."""
    down = ConnectionError("no route to host")
    send = _FailingAt(down, _calling("Paris"))
    start = [ChatMessage.user("Weather?")]
    toolbox = Toolbox((_CITY, _weather))
    with pytest.raises(LoopStopped) as raised:
        _looped(asynchronous, send, start, toolbox)
    error = raised.value
    assert str(error) == (
        "send: stopped the loop at step 2 (.history keeps the 3 messages before it),"
        " got ConnectionError: no route to host"
    )
    assert (error.step, error.stage, error.error, error.__cause__) == (2, "send", down, down)
    assert error.response is None
    assert _roles(error.history) == ["user", "assistant", "tool"]
    assert error.history[2].content == '{"city":"Paris","temperature":18}'
    assert check_transcript(error.history, target="openai") == []
    assert len(send.bodies) == 2
    assert send.bodies[1] == openai.to_request(error.history, tools=[_CITY])
    assert isinstance(error, MessageError)
    # Resumed from its history, the loop goes on where it stopped.
    again = _Replay(_completion({"role": "assistant", "content": "18 °C."}))
    history = run_loop(again, error.history, toolbox, codec=openai)
    assert _roles(history) == ["user", "assistant", "tool", "assistant"]
    assert again.bodies == [send.bodies[1]]


@pytest.mark.parametrize("asynchronous", [False, True], ids=["run_loop", "arun_loop"])
def test_a_response_the_codec_cannot_read_stops_the_loop_with_the_codecs_error(asynchronous: bool) -> None:
    """from_response's located error is the cause, and is said in the loop's error."""
    broken = _completion({"role": "user", "content": "hi"})
    send = _Replay(_calling("Paris"), broken)
    start = [ChatMessage.user("Weather?")]
    with pytest.raises(LoopStopped) as raised:
        _looped(asynchronous, send, start, Toolbox((_CITY, _weather)))
    error = raised.value
    assert isinstance(error.error, InvalidMessage)
    assert error.__cause__ is error.error
    assert str(error.error).startswith("choices[0].message.role: ")
    assert (error.step, error.stage, error.response) == (2, "from_response", broken)
    assert str(error) == (
        "from_response: stopped the loop at step 2 (.history keeps the 3 messages before it),"
        f" got InvalidMessage: {error.error}"
    )
    assert _roles(error.history) == ["user", "assistant", "tool"]


@pytest.mark.parametrize("asynchronous", [False, True], ids=["run_loop", "arun_loop"])
def test_a_history_the_wire_cannot_carry_stops_the_loop_with_the_tools_results_kept(
    asynchronous: bool,
) -> None:
    """A tool returned an image, which OpenAI Chat takes only when asked: the result is kept to resend."""

    def snapshot(city: str) -> ImagePart:
        return ImagePart(data=_PIXEL, media_type="image/png")

    tool = Tool("get_weather", parameters=_CITY.parameters)
    send = _Replay(_calling("Paris"))
    start = [ChatMessage.user("Weather?")]
    with pytest.raises(LoopStopped) as raised:
        _looped(asynchronous, send, start, Toolbox((tool, snapshot)))
    error = raised.value
    assert (error.step, error.stage, type(error.error), error.response) == (
        2,
        "to_request",
        InvalidMessage,
        None,
    )
    assert str(error.error).startswith("messages[2].content[0]: OpenAI takes images in user messages only")
    assert error.got == f"InvalidMessage: {error.error}"  # toolturns' own error, said whole
    assert _roles(error.history) == ["user", "assistant", "tool"]
    assert error.history[2].content == (ImagePart(data=_PIXEL, media_type="image/png"),)
    assert len(send.bodies) == 1  # the request that could not be written was not sent
    again = _Replay(_completion({"role": "assistant", "content": "Sunny."}))
    options = {"tool_parts_to_user": True}
    run_loop(again, error.history, Toolbox((tool, snapshot)), codec=openai, request_options=options)
    assert again.bodies == [openai.to_request(error.history, tools=[tool], **options)]


def test_a_loop_stopped_at_the_first_step_keeps_the_history_it_was_given() -> None:
    """One message, said in the singular; the error pickles whole, its cause with it."""
    error = ConnectionError("no route")
    with pytest.raises(LoopStopped) as raised:
        run_loop(_FailingAt(error), [ChatMessage.user("hi")], Toolbox(), codec=openai)
    assert str(raised.value) == (
        "send: stopped the loop at step 1 (.history keeps the 1 message before it), got ConnectionError: no route"
    )
    copy = pickle.loads(pickle.dumps(raised.value))
    assert (str(copy), copy.step, copy.stage, copy.history) == (
        str(raised.value),
        1,
        "send",
        [ChatMessage.user("hi")],
    )
    assert type(copy.error) is ConnectionError
    assert copy.error.args == ("no route",)


def test_a_loop_error_says_what_raised_even_when_it_cannot_be_shown() -> None:
    """A long text is cut; an exception whose __str__ raises is named by its type alone."""

    class Unprintable(Exception):
        def __str__(self) -> str:
            raise TypeError("no text")

    long = LoopStopped(3, "send", OSError("x" * 500), [])
    assert long.got == f"OSError: {'x' * 231}... (509 characters)"
    assert LoopStopped(3, "send", Unprintable(), []).got == "Unprintable"
    assert LoopStopped(3, "send", OSError(), []).got == "OSError"

    def unprintable(city: str) -> str:
        raise Unprintable

    assert (
        run_calls(_turn(_call()), Toolbox((_CITY, unprintable)))[0].text == "get_weather failed: Unprintable"
    )


class _Keyworded(Exception):
    """An exception that pickles and does not load again, as the openai SDK's APIStatusError."""

    def __init__(self, message: str, *, status: int) -> None:
        super().__init__(message)
        self.status = status


class _Opaque:
    """A response that does not pickle: a lock inside."""

    def __init__(self) -> None:
        self.lock = threading.Lock()


def test_a_loop_error_pickles_when_its_cause_or_response_does_not() -> None:
    """What does not load again is replaced by a RuntimeError saying the error, or by None."""
    history = [ChatMessage.user("hi")]
    error = LoopStopped(1, "from_response", _Keyworded("rate limited", status=429), history, _Opaque())
    copy = pickle.loads(pickle.dumps(error))
    assert (str(copy), copy.step, copy.stage, copy.history, copy.response) == (
        str(error),
        1,
        "from_response",
        history,
        None,
    )
    assert type(copy.error) is RuntimeError
    assert copy.error.args == ("_Keyworded: rate limited",)
    kept = pickle.loads(pickle.dumps(LoopStopped(1, "from_response", ValueError("x"), history, {"id": "r"})))
    assert (type(kept.error), kept.error.args, kept.response) == (ValueError, ("x",), {"id": "r"})


def test_a_loop_error_whose_cause_holds_it_pickles_at_once() -> None:
    """An error that refers back to the LoopStopped it caused is tried once, not once per level."""
    inner = ValueError("loop")
    error = LoopStopped(1, "send", inner, [ChatMessage.user("hi")])
    inner.args = (error,)
    copy = pickle.loads(pickle.dumps(error))
    assert str(copy) == str(error)


def test_a_loop_error_keeps_its_prefix_and_notes_through_pickle_and_its_cause_through_copy() -> None:
    """What it holds beyond its arguments pickles; copy and deepcopy keep the very error and response."""
    error = LoopStopped(2, "from_response", _Keyworded("rate limited", status=429), [], _Opaque())
    prefixed = error.with_prefix("agent")
    prefixed.add_note("retry later")
    loaded = pickle.loads(pickle.dumps(prefixed))
    assert (str(loaded), loaded.path, loaded.__notes__) == (
        str(prefixed),
        "agent.from_response",
        ["retry later"],
    )
    for copied in (copy.copy(error), copy.deepcopy(error)):
        assert (copied.error, copied.response) == (error.error, error.response)
        assert (str(copied), copied.step, copied.stage, copied.history) == (
            str(error),
            2,
            "from_response",
            [],
        )
    deep = copy.deepcopy(LoopStopped(1, "send", ValueError("x"), [ChatMessage.user("hi")], {"id": "r"}))
    assert (type(deep.error), deep.error.args, deep.response) == (ValueError, ("x",), {"id": "r"})


class _Stopped(LoopStopped):
    """A caller's subclass: copies and pickles are of it."""


def test_a_subclass_of_loop_stopped_copies_and_pickles_as_itself() -> None:
    error = _Stopped(1, "send", ValueError("x"), [])
    for copied in (copy.copy(error), copy.deepcopy(error), pickle.loads(pickle.dumps(error))):
        assert type(copied) is _Stopped
        assert str(copied) == str(error)


def test_arun_loop_stops_at_a_sync_transports_error_with_the_stage_send() -> None:
    """A sync send raising under arun_loop is the send stage, as an async one's."""
    down = TimeoutError("read timed out")
    with pytest.raises(LoopStopped) as raised:
        asyncio.run(arun_loop(_FailingAt(down), [ChatMessage.user("hi")], Toolbox(), codec=openai))
    assert (raised.value.stage, raised.value.error) == ("send", down)


def test_cancelling_arun_loop_while_it_waits_for_the_transport_is_a_cancellation() -> None:
    """A CancelledError is no Exception: it passes as it is, not as LoopStopped."""

    async def waits(body: dict[str, Any]) -> dict[str, Any]:
        await asyncio.sleep(60)
        raise AssertionError("not cancelled")

    async def cancelled() -> None:
        task = asyncio.create_task(arun_loop(waits, [ChatMessage.user("hi")], Toolbox(), codec=openai))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancelled())


class _Unsaid(str):
    """A str whose __str__ raises: its characters are still the content."""

    def __str__(self) -> str:
        raise RuntimeError("no text")


class _Unreadable(list[ImagePart]):
    """A list of parts whose iteration raises."""

    def __iter__(self) -> Iterator[ImagePart]:
        raise RuntimeError("cannot iterate")


@pytest.mark.parametrize("asynchronous", [False, True], ids=["run_calls", "arun_calls"])
def test_a_value_that_cannot_be_read_is_answered_as_an_error_and_a_str_by_its_characters(
    asynchronous: bool,
) -> None:
    """run_calls answers every call whatever a tool returns: no exception of a return value escapes."""
    turn = _turn(_call(id="call_1"), _call(id="call_2"))
    values = iter([_Unsaid("18 °C"), _Unreadable([ImagePart(data=_PIXEL, media_type="image/png")])])

    def returns(city: str) -> object:
        return next(values)

    toolbox = Toolbox((_CITY, returns))
    results = (
        asyncio.run(arun_calls(turn, toolbox, max_concurrency=1))
        if asynchronous
        else run_calls(turn, toolbox)
    )
    assert results[0] == ChatMessage.tool_result("call_1", "18 °C")
    assert type(results[0].content) is str
    assert results[1] == ChatMessage.tool_result(
        "call_2",
        "get_weather returned a value that cannot be read: RuntimeError: cannot iterate",
        is_error=True,
    )


@pytest.mark.parametrize("asynchronous", [False, True], ids=["run_loop", "arun_loop"])
def test_an_interrupt_of_the_transport_passes_as_it_is(asynchronous: bool) -> None:
    """Only Exceptions stop the loop as LoopStopped: KeyboardInterrupt is not wrapped."""

    with pytest.raises(KeyboardInterrupt):
        _looped(asynchronous, _FailingAt(KeyboardInterrupt()), [ChatMessage.user("hi")], Toolbox())


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: run_loop(_Replay(), [], Toolbox(), codec=openai, max_steps=0),
            "max_steps: must be an integer of at least 1, got 0",
        ),
        (
            lambda: run_loop(_Replay(), "hi", Toolbox(), codec=openai),  # type: ignore[arg-type]
            "history: must be a list or tuple of ChatMessage, got 'hi'",
        ),
        (
            lambda: run_loop(_Replay(), [{"role": "user", "content": "hi"}], Toolbox(), codec=openai),  # type: ignore[list-item]
            "history[0]: must be a ChatMessage, got dict",
        ),
        (
            lambda: run_loop(_Replay(), [], Toolbox(), codec="openai-chat"),
            "codec: must be a codec module or one of 'openai', 'anthropic', 'gemini', 'ollama', 'responses', got 'openai-chat'",
        ),
        (
            lambda: run_loop(_Replay(), [], Toolbox(), codec=42),  # type: ignore[arg-type]
            "codec: must be a codec module (with to_request and from_response) or a wire's name, got 42",
        ),
    ],
)
def test_run_loop_refuses_bad_arguments_before_sending(call: Callable[[], object], message: str) -> None:
    """Nothing is sent when the loop's own arguments are wrong."""
    with pytest.raises(InvalidTranscript) as raised:
        call()
    assert str(raised.value) == message


@pytest.mark.parametrize(
    "function",
    [Toolbox.__init__, run_calls, arun_calls, run_loop, arun_loop, LoopLimit.__init__, LoopStopped.__init__],
    ids=lambda function: function.__qualname__,
)
def test_the_loops_annotations_resolve_at_run_time(function: Callable[..., object]) -> None:
    """typing.get_type_hints works on each public callable: every name it annotates with exists."""
    hints = typing.get_type_hints(function)
    assert "return" in hints


def test_a_function_with_no_tool_form_is_refused_at_its_position() -> None:
    """The toolbox says which entry could not be described, and why."""

    def takes_anything(*args: str) -> str:
        return ""

    with pytest.raises(InvalidTool) as raised:
        Toolbox(_weather, takes_anything)
    assert raised.value.path.startswith("[1].")


def test_a_tool_whose_schema_cannot_be_checked_is_refused_by_the_toolbox() -> None:
    """A schema the Tool takes but validate cannot follow (a $ref to nothing, an MCP server's, say) is the
    toolbox's error when it is built, not an answer later. (A schema that is no JSON Schema, the Tool refuses.)"""
    broken = Tool(
        "get_weather", parameters={"type": "object", "properties": {"days": {"$ref": "#/$defs/Days"}}}
    )
    with pytest.raises(InvalidTool) as raised:
        Toolbox((Tool("get_time"), str), (broken, _weather))
    assert raised.value.path == '[1][0].parameters.properties.days["$ref"]'


def test_request_options_go_to_each_to_request() -> None:
    """What the caller accepts to lose (an MCP tool's title) is said once, for every request."""
    titled = Tool(_CITY.name, _CITY.description, _CITY.parameters, extra={"title": "Weather"})
    toolbox = Toolbox((titled, _weather))
    answer = _completion({"role": "assistant", "content": "18 °C."})
    with pytest.raises(LoopStopped) as raised:
        run_loop(_Replay(answer), [ChatMessage.user("Weather?")], toolbox, codec=openai)
    assert (raised.value.stage, type(raised.value.error)) == ("to_request", InvalidTool)
    assert "title" in str(raised.value.error)
    send = _Replay(_calling("Paris"), answer)
    history = run_loop(
        send,
        [ChatMessage.user("Weather?")],
        toolbox,
        codec=openai,
        request_options={"drop_unsupported": True},
    )
    assert history[-1].content == "18 °C."
    assert [body["tools"] for body in send.bodies] == [[openai.tool_definition(_CITY)]] * 2
    asend = _Replay(answer)
    asyncio.run(
        arun_loop(
            asend.asend,
            [ChatMessage.user("Weather?")],
            toolbox,
            codec=openai,
            request_options={"drop_unsupported": True},
        )
    )
    assert asend.bodies[0]["tools"] == [openai.tool_definition(_CITY)]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            [("drop_unsupported", True)],
            "request_options: must be None or a mapping of to_request's keyword arguments, got list",
        ),
        ({1: True}, "request_options: must be None or a mapping of to_request's keyword arguments, got dict"),
        ({"tools": []}, "request_options.tools: must not be given: the loop sends the toolbox's tools"),
        (
            {"drop_unsupported": True, "tool_part_to_user": True},
            "request_options.tool_part_to_user: is not a keyword argument of the codec's to_request (it takes"
            " null_content, keep_invalid_arguments, drop_unsupported, tool_parts_to_user), got True",
        ),
    ],
)
def test_request_options_that_are_not_keyword_arguments_are_refused(options: object, message: str) -> None:
    """Checked before anything is sent."""
    send = _Replay()
    with pytest.raises(InvalidTranscript) as raised:
        run_loop(send, [], Toolbox(), codec=openai, request_options=options)  # type: ignore[arg-type]
    assert str(raised.value) == message
    assert send.bodies == []


class _TakesAnything:
    """A codec of the caller's whose to_request takes any keyword: the loop leaves the options to it."""

    def __init__(self) -> None:
        self.options: list[dict[str, object]] = []

    def to_request(self, messages: Sequence[ChatMessage], **options: Any) -> dict[str, Any]:
        self.options.append(options)
        return openai.to_request(messages, tools=options.get("tools"))

    def from_response(self, body: object) -> ChatMessage:
        return openai.from_response(body)


class _Unsigned(_TakesAnything):
    """A codec whose to_request has no signature inspect can read (a callable object's may not)."""

    def __init__(self) -> None:
        super().__init__()
        self.to_request = _unsigned(super().to_request)  # type: ignore[method-assign]


def _unsigned(function: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    def to_request(*args: Any, **options: Any) -> dict[str, Any]:
        return function(*args, **options)

    to_request.__signature__ = "not a signature"  # type: ignore[attr-defined]  # inspect raises TypeError
    return to_request


@pytest.mark.parametrize("make", [_TakesAnything, _Unsigned], ids=["**kwargs", "no signature"])
def test_request_options_go_as_they_are_to_a_codec_whose_signature_does_not_say(
    make: Callable[[], _TakesAnything],
) -> None:
    """A to_request taking any keyword, or one whose signature cannot be read: nothing is refused
    before the call, whose own error says what it refuses."""
    codec = make()
    send = _Replay(_completion({"role": "assistant", "content": "Hi."}))
    run_loop(send, [ChatMessage.user("hi")], Toolbox(), codec=codec, request_options={"seed": 7})
    assert codec.options == [{"tools": (), "seed": 7}]


class _NamesItsMessages(_TakesAnything):
    """A codec whose to_request names its messages otherwise and takes one option of its own."""

    def to_request(self, history: Sequence[ChatMessage], tools: Any = None, seed: int = 0) -> dict[str, Any]:  # type: ignore[override]
        return openai.to_request(history, tools=tools)


def _keyword_only(*, seed: int = 0) -> dict[str, Any]:
    return {}


@pytest.mark.parametrize(
    ("to_request", "key", "takes"),
    [(_NamesItsMessages().to_request, "history", "seed"), (_keyword_only, "bogus", "seed")],
)
def test_the_first_positional_parameter_is_the_messages_whatever_its_name(
    to_request: Callable[..., dict[str, Any]], key: str, takes: str
) -> None:
    """Not an option: a keyword-only first parameter is one."""
    codec = _TakesAnything()
    codec.to_request = to_request  # type: ignore[method-assign]
    with pytest.raises(InvalidTranscript) as raised:
        run_loop(_Replay(), [], Toolbox(), codec=codec, request_options={key: 1})
    assert str(raised.value) == (
        f"request_options.{key}: is not a keyword argument of the codec's to_request (it takes {takes}), got 1"
    )


def test_an_async_transport_in_run_loop_is_refused_saying_to_use_arun_loop() -> None:
    """The coroutine is closed (no 'never awaited' warning) and the error names the fix."""
    send = _Replay(_completion({"role": "assistant", "content": "Hi."}))
    with pytest.raises(LoopStopped) as raised:
        run_loop(send.asend, [ChatMessage.user("hi")], Toolbox(), codec=openai)
    assert raised.value.stage == "send"
    assert isinstance(raised.value.error, InvalidTranscript)
    assert str(raised.value.error).startswith(
        "send: must return the response, not an awaitable (use arun_loop)"
    )


def test_arun_loop_takes_a_sync_transport_too() -> None:
    """Only an awaitable is awaited."""
    send = _Replay(_completion({"role": "assistant", "content": "Hi."}))
    history = asyncio.run(arun_loop(send, [ChatMessage.user("hi")], Toolbox(), codec=openai))
    assert history[-1].content == "Hi."


def test_a_function_renamed_with_from_function_keeps_its_conversions() -> None:
    """A (Tool, function) pair whose tool has the function's own parameters (renamed, redescribed)
    is called as the function is: its arguments converted to its types. A schema written by hand
    gets them as decoded."""
    renamed = Tool.from_function(_forecast, name="get_forecast", description="The weather to come.")
    by_hand = Tool("get_forecast", parameters={"type": "object", "properties": {"city": {}, "unit": {}}})
    turn = _turn(_call("get_forecast", {"city": "Paris", "unit": "f"}))
    assert run_calls(turn, Toolbox((renamed, _forecast)))[0].content == "Paris in _Unit.F"
    assert run_calls(turn, Toolbox((by_hand, _forecast)))[0].text.startswith(
        "get_forecast failed: AttributeError"
    )


@pytest.mark.parametrize("cls", [Toolbox, LoopLimit])
def test_the_loops_classes_annotations_resolve_where_they_are_shown(cls: type) -> None:
    """typing.get_type_hints resolves a class's annotations in toolturns, where it is shown."""
    assert typing.get_type_hints(cls)
