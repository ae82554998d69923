"""A complete tool loop through the real ollama client.

toolturns builds each body, ``client.chat`` sends it, and toolturns reads the
``ChatResponse`` objects the client gives back. The client is ollama's own; it
passes its keyword arguments to the classic ``httpx.Client``, so an
``httpx.MockTransport`` answers, with responses from Ollama's API reference
(``tests/data/sdk/ollama.json``).

The client validates each message into its ``Message`` model and sends the
model's fields that hold a value: an empty ``content`` is left out (its
``_copy_messages`` keeps ``if v``), and keys the model does not have are gone.
"""

from __future__ import annotations

from contextlib import closing
from typing import Any

import ollama as ollama_sdk

from tests.sdk.recorded import RecordedServer, assembled, json_reply, ndjson_reply, recorded, tool_loop
from toolturns import ChatMessage, Tool, Toolbox, check_transcript, ollama, run_loop

# The prompts and tool of the documented requests.
_MODEL = "llama3.2"
_WEATHER = Tool(
    "get_weather",
    "Get the weather in a given city",
    {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "The city to get the weather for"}},
        "required": ["city"],
    },
)
_WEATHER_IN = {"Toronto": "11 degrees celsius", "Tokyo": "18 degrees celsius"}
_FUNCTIONS = {"get_weather": lambda city: _WEATHER_IN[city]}


def _client(server: RecordedServer) -> ollama_sdk.Client:
    # ollama's Client has close() but no __enter__: the tests close it with contextlib.closing.
    return ollama_sdk.Client(host="http://ollama.test:11434", transport=server.httpx_transport())


def sent_by_ollama(body: dict[str, Any], *, stream: bool) -> dict[str, Any]:
    """toolturns' body as the ollama client sends it: ``model`` and ``stream`` added, empty ``content`` left out."""
    messages = [{key: value for key, value in message.items() if value != ""} for message in body["messages"]]
    return {"model": _MODEL, "stream": stream, **body, "messages": messages}


def test_a_tool_loop_through_the_ollama_client() -> None:
    """The SDK sends toolturns' body (less the empty content); its ChatResponse reads back without a dump."""
    responses = recorded("ollama", "loop")
    server = RecordedServer(json_reply(response) for response in responses)
    with closing(_client(server)) as client:

        def ask(body: dict[str, Any]) -> ChatMessage:
            return ollama.from_response(client.chat(model=_MODEL, **body))

        loop = tool_loop(
            ollama, [ChatMessage.user("what is the weather in Toronto?")], [_WEATHER], _FUNCTIONS, ask
        )

    assert server.sent == [sent_by_ollama(body, stream=False) for body in loop.bodies]
    assert loop.turns == [ollama.from_response(response) for response in responses]
    # The history the API reference sends (its "// the message from the model
    # appended to history", then the tool's answer by tool_name).
    assert server.sent[1]["messages"] == [
        {"role": "user", "content": "what is the weather in Toronto?"},
        {
            "role": "assistant",
            "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Toronto"}}}],
        },
        {"role": "tool", "content": "11 degrees celsius", "tool_name": "get_weather"},
    ]
    assert loop.turns[-1] == ChatMessage.assistant("The current temperature in Toronto is 11°C.")


def test_a_streamed_tool_loop_through_the_ollama_client() -> None:
    """``chat(stream=True)``'s ChatResponse chunks assemble to the turn their JSON assembles to."""
    streams = recorded("ollama", "stream_loop")
    server = RecordedServer(ndjson_reply(chunks) for chunks in streams)
    usages = []
    with closing(_client(server)) as client:

        def ask(body: dict[str, Any]) -> ChatMessage:
            stream = assembled(ollama, client.chat(model=_MODEL, stream=True, **body))
            usages.append(stream.usage)
            return stream.message()

        loop = tool_loop(
            ollama, [ChatMessage.user("what is the weather in tokyo?")], [_WEATHER], _FUNCTIONS, ask
        )

    assert server.sent == [sent_by_ollama(body, stream=True) for body in loop.bodies]
    from_the_wire = [assembled(ollama, chunks) for chunks in streams]
    assert loop.turns == [stream.message() for stream in from_the_wire]
    assert usages == [stream.usage for stream in from_the_wire]
    assert server.sent[1]["messages"][2] == {
        "role": "tool",
        "content": "18 degrees celsius",
        "tool_name": "get_weather",
    }
    assert loop.turns[-1] == ChatMessage.assistant("The weather in Tokyo is 18 degrees celsius.")


def test_run_loop_through_the_ollama_client() -> None:
    """run_loop over the client (the codec given by its name) sends the hand-written loop's requests."""
    start = [ChatMessage.user("what is the weather in Toronto?")]
    by_hand = RecordedServer(json_reply(response) for response in recorded("ollama", "loop"))
    history = list(start)
    with closing(_client(by_hand)) as client:

        def ask(body: dict[str, Any]) -> ChatMessage:
            return ollama.from_response(client.chat(model=_MODEL, **body))

        tool_loop(ollama, history, [_WEATHER], _FUNCTIONS, ask)
    server = RecordedServer(json_reply(response) for response in recorded("ollama", "loop"))
    with closing(_client(server)) as client:
        result = run_loop(
            lambda body: client.chat(model=_MODEL, **body),
            start,
            Toolbox((_WEATHER, _FUNCTIONS["get_weather"])),
            codec="ollama",
        )

    assert server.sent == by_hand.sent
    assert result == history
    assert check_transcript(result, target="ollama") == []
