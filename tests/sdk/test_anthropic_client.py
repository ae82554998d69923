"""A complete tool loop through the real anthropic client.

toolturns builds each body, ``client.messages.create`` sends it, and toolturns
reads the ``Message`` (or the stream events) the client gives back. The
client is anthropic's own over an ``httpx2.MockTransport`` (anthropic 2 takes
only an ``httpx2.Client``) answering with responses recorded from Anthropic by
the SDK's own tool runner (``tests/data/sdk/anthropic.json``).
"""

from __future__ import annotations

from typing import Any

import httpx2
from anthropic import Anthropic

from tests.conftest import wire_examples
from tests.sdk.recorded import (
    RecordedServer,
    assembled,
    json_reply,
    recorded,
    sse_reply,
    stream_data,
    tool_loop,
)
from toolturns import ChatMessage, Tool, Toolbox, anthropic, check_transcript, run_loop

# The prompt and tool of the recorded requests.
_MODEL = "claude-haiku-4-5"
_MAX_TOKENS = 1024
_PROMPT = "What is the weather in SF?"
_WEATHER = Tool(
    "get_weather",
    "Lookup the weather for a given city in either celsius or fahrenheit",
    {
        "additionalProperties": False,
        "properties": {
            "location": {
                "description": "The city and state, e.g. San Francisco, CA",
                "title": "Location",
                "type": "string",
            },
            "units": {
                "description": "Unit for the output, either 'c' for celsius or 'f' for fahrenheit",
                "enum": ["c", "f"],
                "title": "Units",
                "type": "string",
            },
        },
        "required": ["location", "units"],
        "type": "object",
    },
)


def _failing_weather(location: str, units: str) -> str:
    raise RuntimeError("Unexpected error, try again")  # as the recorded loop's tool did


def _sunny_weather(location: str, units: str) -> str:
    return '{"location": "San Francisco, CA", "temperature": "68\\u00b0F", "condition": "Sunny"}'


def _client(server: RecordedServer) -> Anthropic:
    # No retries: a failed request fails the test instead of being sent again.
    return Anthropic(
        api_key="test",
        base_url="http://anthropic.test",
        max_retries=0,
        http_client=httpx2.Client(transport=server.httpx2_transport()),
    )


def test_a_tool_loop_through_the_anthropic_client() -> None:
    """The SDK sends toolturns' body as it is; its Message reads back without a dump; an error goes back as one."""
    responses = recorded("anthropic", "loop")
    server = RecordedServer(json_reply(response) for response in responses)
    with _client(server) as client:

        def ask(body: dict[str, Any]) -> ChatMessage:
            return anthropic.from_response(
                client.messages.create(model=_MODEL, max_tokens=_MAX_TOKENS, **body)
            )

        loop = tool_loop(
            anthropic, [ChatMessage.user(_PROMPT)], [_WEATHER], {"get_weather": _failing_weather}, ask
        )

    assert server.sent == [{"model": _MODEL, "max_tokens": _MAX_TOKENS, **body} for body in loop.bodies]
    assert loop.turns == [anthropic.from_response(response) for response in responses]
    # The second request is the one the SDK's own tool runner sent in the
    # recording, the tool_use block's "caller" included.
    (runner_sent,) = [
        e["data"] for e in wire_examples("anthropic") if e["id"] == "anthropic-tool-result-is-error-request"
    ]
    assert server.sent[1]["messages"] == runner_sent
    assert loop.turns[-1].text.startswith("I apologize, but I'm getting an error")
    assert not loop.turns[-1].tool_calls


def test_a_streamed_tool_loop_through_the_anthropic_client() -> None:
    """The SDK's raw stream events (``create(stream=True)``) assemble to the turn their JSON assembles to."""
    streams = recorded("anthropic", "stream_loop")
    server = RecordedServer(sse_reply(events) for events in streams)
    usages = []
    with _client(server) as client:

        def ask(body: dict[str, Any]) -> ChatMessage:
            events = client.messages.create(model=_MODEL, max_tokens=_MAX_TOKENS, stream=True, **body)
            stream = assembled(anthropic, events)
            usages.append(stream.usage)
            return stream.message()

        loop = tool_loop(
            anthropic, [ChatMessage.user(_PROMPT)], [_WEATHER], {"get_weather": _sunny_weather}, ask
        )

    assert server.sent == [
        {"model": _MODEL, "max_tokens": _MAX_TOKENS, "stream": True, **body} for body in loop.bodies
    ]
    from_the_wire = [assembled(anthropic, stream_data(events)) for events in streams]
    assert loop.turns == [stream.message() for stream in from_the_wire]
    assert usages == [stream.usage for stream in from_the_wire]
    assert loop.turns[0].tool_calls is not None
    (call,) = loop.turns[0].tool_calls
    assert (call.id, call.arguments) == (
        "toolu_018acGYLtfR52q9yDbWaEdQZ",
        {"location": "San Francisco, CA", "units": "f"},
    )
    assert server.sent[1]["messages"][2] == {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": call.id, "content": _sunny_weather("", "")}],
    }
    assert loop.turns[-1].content == (
        "The weather in San Francisco, CA is currently:\n- **Temperature:** 68°F\n- **Condition:** Sunny\n\n"
        "It's a nice sunny day!"
    )


def test_the_anthropic_stream_helper_reads_as_the_raw_events() -> None:
    """``client.messages.stream(...)``: its events (text and input_json ones added) and its final message.

    Both read to the turn the raw events assemble to.
    """
    streams = recorded("anthropic", "stream_loop")
    server = RecordedServer(sse_reply(events) for events in streams)
    finals = []
    with _client(server) as client:

        def ask(body: dict[str, Any]) -> ChatMessage:
            with client.messages.stream(model=_MODEL, max_tokens=_MAX_TOKENS, **body) as events:
                stream = assembled(anthropic, events)
                finals.append(anthropic.from_response(events.get_final_message()))
            return stream.message()

        loop = tool_loop(
            anthropic, [ChatMessage.user(_PROMPT)], [_WEATHER], {"get_weather": _sunny_weather}, ask
        )

    assert server.sent == [
        {"model": _MODEL, "max_tokens": _MAX_TOKENS, "stream": True, **body} for body in loop.bodies
    ]
    from_the_wire = [assembled(anthropic, stream_data(events)).message() for events in streams]
    assert loop.turns == from_the_wire
    assert finals == from_the_wire


def test_run_loop_through_the_anthropic_client() -> None:
    """run_loop over the client answers the failing tool with an is_error result saying what it raised."""
    responses = recorded("anthropic", "loop")
    server = RecordedServer(json_reply(response) for response in responses)
    start = [ChatMessage.user(_PROMPT)]
    with _client(server) as client:
        result = run_loop(
            lambda body: client.messages.create(model=_MODEL, max_tokens=_MAX_TOKENS, **body),
            start,
            Toolbox((_WEATHER, _failing_weather)),
            codec=anthropic,
        )

    call_turn, answer = (anthropic.from_response(response) for response in responses)
    assert call_turn.tool_calls is not None
    (call,) = call_turn.tool_calls
    failed = ChatMessage.tool_result(
        call.id, "get_weather failed: RuntimeError: Unexpected error, try again", is_error=True
    )
    assert result == [*start, call_turn, failed, answer]
    assert server.sent == [
        {"model": _MODEL, "max_tokens": _MAX_TOKENS, **anthropic.to_request(result[:end], tools=[_WEATHER])}
        for end in (1, 3)
    ]
    assert server.sent[1]["messages"][2]["content"][0]["is_error"] is True
    assert check_transcript(result, target="anthropic") == []
