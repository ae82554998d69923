"""A complete tool loop through the real openai client.

toolturns builds each body, ``client.chat.completions.create`` sends it, and
toolturns reads the ``ChatCompletion`` (or the chunks) the client gives back.
The client is openai's own over an ``httpx2.MockTransport`` (openai 3 takes
only an ``httpx2.Client``) answering with responses recorded from OpenAI
(``tests/data/sdk/openai.json``).
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from openai.types.chat import ChatCompletionStreamOptionsParam

from tests.sdk.recorded import (
    RecordedServer,
    Reply,
    assembled,
    json_reply,
    openai_client,
    recorded,
    sse_reply,
    stream_data,
    tool_loop,
)
from toolturns import ChatMessage, LoopStopped, Tool, Toolbox, check_transcript, openai, run_loop

# The prompts, tools and tool results of the recorded requests.
_MODEL = "gpt-4.1-mini"
_TEMPERATURE = Tool(
    "get_temperature",
    parameters={
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
        "additionalProperties": False,
    },
)
_CAPITAL = Tool(
    "get_capital",
    parameters={
        "type": "object",
        "properties": {"country": {"type": "string"}},
        "required": ["country"],
        "additionalProperties": False,
    },
)
_FUNCTIONS = {"get_temperature": lambda city: "20.0", "get_capital": lambda country: "London"}
_CAPITAL_PROMPT = "What is the capital of the UK? Use the tool, then answer."
# The streamed requests asked for the usage, as the recorded ones did.
_INCLUDE_USAGE: ChatCompletionStreamOptionsParam = {"include_usage": True}


def test_a_tool_loop_through_the_openai_client() -> None:
    """The SDK sends toolturns' body as it is, and its ChatCompletion reads back without a dump."""
    responses = recorded("openai", "loop")
    server = RecordedServer(json_reply(response) for response in responses)
    history = [
        ChatMessage.system("You are a helpful assistant."),
        ChatMessage.user("What is the temperature in Tokyo?"),
    ]
    with openai_client(server) as client:

        def ask(body: dict[str, Any]) -> ChatMessage:
            return openai.from_response(client.chat.completions.create(model=_MODEL, **body))

        loop = tool_loop(openai, history, [_TEMPERATURE], _FUNCTIONS, ask)

    assert server.sent == [{"model": _MODEL, **body} for body in loop.bodies]
    assert loop.turns == [openai.from_response(response) for response in responses]
    assert loop.turns[0].tool_calls is not None
    (call,) = loop.turns[0].tool_calls
    assert (call.id, call.name, call.arguments) == (
        "call_IgqlTCby7lsxDXPIUPgkmAiq",
        "get_temperature",
        {"city": "Tokyo"},
    )
    assert server.sent[1]["messages"][2:] == [
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": "get_temperature", "arguments": '{"city":"Tokyo"}'},
                }
            ],
        },
        {"role": "tool", "content": "20.0", "tool_call_id": call.id},
    ]
    assert loop.turns[-1] == ChatMessage.assistant(
        "The temperature in Tokyo is currently 20.0 degrees Celsius."
    )


def test_a_streamed_tool_loop_through_the_openai_client() -> None:
    """The SDK's ChatCompletionChunk objects assemble to the turn their JSON assembles to."""
    streams = recorded("openai", "stream_loop")
    server = RecordedServer(sse_reply(chunks, done=True) for chunks in streams)
    usages = []
    with openai_client(server) as client:

        def ask(body: dict[str, Any]) -> ChatMessage:
            chunks = client.chat.completions.create(
                model=_MODEL, stream=True, stream_options=_INCLUDE_USAGE, **body
            )
            stream = assembled(openai, chunks)
            usages.append(stream.usage)
            return stream.message()

        loop = tool_loop(openai, [ChatMessage.user(_CAPITAL_PROMPT)], [_CAPITAL], _FUNCTIONS, ask)

    assert server.sent == [
        {"model": _MODEL, "stream": True, "stream_options": _INCLUDE_USAGE, **body} for body in loop.bodies
    ]
    from_the_wire = [assembled(openai, stream_data(chunks)) for chunks in streams]
    assert loop.turns == [stream.message() for stream in from_the_wire]
    assert usages == [stream.usage for stream in from_the_wire]
    assert loop.turns[0].tool_calls is not None
    (call,) = loop.turns[0].tool_calls
    assert (call.id, call.name, call.arguments) == (
        "call_ZR5UUuTt3pf61kjwAJIYdVMj",
        "get_capital",
        {"country": "UK"},
    )
    assert server.sent[1]["messages"][2] == {"role": "tool", "content": "London", "tool_call_id": call.id}
    assert loop.turns[-1] == ChatMessage.assistant("The capital of the UK is London.")


def test_the_openai_stream_helpers_final_completion_reads_and_goes_back_as_the_assembled_turn() -> None:
    """``client.chat.completions.stream(...).get_final_completion()`` is read with ``from_response``.

    The SDK's accumulator puts each call's stream ``index`` inside the call
    (``tool_calls[0].index``), which OpenAI refuses in a request: the calls
    read from it are the calls assembled from the chunks, and the next request
    carries the assistant turn the chunks give, without the ``index``.
    """
    streams = recorded("openai", "stream_loop")
    server = RecordedServer(sse_reply(chunks, done=True) for chunks in streams)
    with openai_client(server) as client:

        def ask(body: dict[str, Any]) -> ChatMessage:
            with client.chat.completions.stream(model=_MODEL, **body) as stream:
                for _ in stream:  # the helper's events; the final completion is built from them
                    pass
                return openai.from_response(stream.get_final_completion())

        loop = tool_loop(openai, [ChatMessage.user(_CAPITAL_PROMPT)], [_CAPITAL], _FUNCTIONS, ask)

    assert loop.turns[-1] == ChatMessage.assistant("The capital of the UK is London.")
    assert server.sent == [{"model": _MODEL, "stream": True, **body} for body in loop.bodies]
    from_the_wire = [assembled(openai, stream_data(chunks)).message() for chunks in streams]
    assert [_calls(turn) for turn in loop.turns] == [_calls(turn) for turn in from_the_wire]
    assert server.sent[1]["messages"][1] == from_the_wire[0].to_wire()


def _calls(turn: ChatMessage) -> list[tuple[str, str, object]]:
    return [(call.id, call.name, call.arguments) for call in turn.tool_calls or ()]


def test_run_loop_through_the_openai_client() -> None:
    """run_loop over the client sends the hand-written loop's requests and gives its history."""
    start = [
        ChatMessage.system("You are a helpful assistant."),
        ChatMessage.user("What is the temperature in Tokyo?"),
    ]
    by_hand = RecordedServer(json_reply(response) for response in recorded("openai", "loop"))
    history = list(start)
    with openai_client(by_hand) as client:

        def ask(body: dict[str, Any]) -> ChatMessage:
            return openai.from_response(client.chat.completions.create(model=_MODEL, **body))

        tool_loop(openai, history, [_TEMPERATURE], _FUNCTIONS, ask)
    server = RecordedServer(json_reply(response) for response in recorded("openai", "loop"))
    toolbox = Toolbox((_TEMPERATURE, _FUNCTIONS["get_temperature"]))
    with openai_client(server) as client:
        result = run_loop(
            lambda body: client.chat.completions.create(model=_MODEL, **body), start, toolbox, codec=openai
        )

    assert server.sent == by_hand.sent
    assert result == history
    assert len(start) == 2  # the history given is not changed
    assert check_transcript(result, target="openai") == []


def test_a_rate_limit_stops_run_loop_with_the_sdks_error_and_the_history_so_far() -> None:
    """The client's RateLimitError is the cause; the history resumes, and ends as the loop without the 429."""
    import openai as sdk

    start = [
        ChatMessage.system("You are a helpful assistant."),
        ChatMessage.user("What is the temperature in Tokyo?"),
    ]
    toolbox = Toolbox((_TEMPERATURE, _FUNCTIONS["get_temperature"]))
    first, *rest = recorded("openai", "loop")
    limited = Reply(
        "application/json",
        b'{"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}}',
        status=429,
    )
    server = RecordedServer([json_reply(first), limited])
    with openai_client(server) as client, pytest.raises(LoopStopped) as raised:
        run_loop(
            lambda body: client.chat.completions.create(model=_MODEL, **body), start, toolbox, codec=openai
        )
    error = raised.value
    assert isinstance(error.error, sdk.RateLimitError)
    assert (error.step, error.stage, error.__cause__) == (2, "send", error.error)
    assert str(error).startswith("send: stopped the loop at step 2 (.history keeps the 4 messages before it)")
    assert check_transcript(error.history, target="openai") == []
    copy = pickle.loads(pickle.dumps(error))  # the SDK's error does not load again: a stand-in does
    assert (str(copy), copy.history) == (str(error), error.history)

    resumed = RecordedServer(json_reply(response) for response in rest)
    with openai_client(resumed) as client:
        history = run_loop(
            lambda body: client.chat.completions.create(model=_MODEL, **body),
            error.history,
            toolbox,
            codec=openai,
        )
    whole = RecordedServer(json_reply(response) for response in recorded("openai", "loop"))
    with openai_client(whole) as client:
        expected = run_loop(
            lambda body: client.chat.completions.create(model=_MODEL, **body), start, toolbox, codec=openai
        )
    assert history == expected
    assert resumed.sent == whole.sent[1:] == server.sent[1:]
