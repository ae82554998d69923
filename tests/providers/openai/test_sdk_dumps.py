"""What the official openai SDK hands back, dumped, read by the OpenAI codec.

The SDK's own stream accumulation (``ChatCompletionStreamState``, what
``client.chat.completions.stream(...).get_final_completion()`` returns) fed
with the recorded chunks, and its ``ChatCompletion`` built from recorded
responses: their ``model_dump()`` in python and json mode reads as the turn
toolturns reads from the same response, and nothing the SDK adds (each call's
``index``, ``parsed``, ``parsed_arguments``, ``annotations: None``, ``audio:
None``, ``function_call: None``) is sent back.
"""

from __future__ import annotations

from typing import Any, Literal

import pytest
from openai.lib.streaming.chat import ChatCompletionStreamState
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from tests.conftest import wire_examples
from toolturns import ChatMessage, openai

STREAMS = [
    pytest.param([item for item in example["data"] if item != "[DONE]"], id=example["id"])
    for example in wire_examples("openai", "stream_chunks")
]
RESPONSES = [
    pytest.param(example["data"], id=example["id"])
    for example in wire_examples("openai", "response_message")
    if "choices" in example["data"]
]
MODES = ["python", "json"]
Mode = Literal["python", "json"]


def final_completion(chunks: list[dict[str, Any]]) -> ChatCompletion:
    """The SDK's own accumulation of a stream, as ``stream.get_final_completion()`` gives it."""
    state: ChatCompletionStreamState[None] = ChatCompletionStreamState()
    for chunk in chunks:
        state.handle_chunk(ChatCompletionChunk.model_validate(chunk))
    return state.get_final_completion()


def assembled(chunks: list[dict[str, Any]]) -> ChatMessage:
    """toolturns' own assembly of the same stream: the turn from_response gives it sent whole."""
    stream = openai.StreamAssembler()
    for chunk in chunks:
        stream.feed(chunk)
    return stream.message()


def sent_calls(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every tool call of every message of a request body."""
    return [call for message in body["messages"] for call in message.get("tool_calls") or []]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("chunks", STREAMS)
def test_the_sdks_final_completion_reads_as_the_stream_and_sends_no_index(
    chunks: list[dict[str, Any]], mode: Mode
) -> None:
    """get_final_completion() leaves index on each call (its position): the dump reads as the turn
    toolturns assembles from the same chunks, and to_request sends no index (OpenAI refuses it:
    "Unknown parameter: 'messages[1].tool_calls[0].index'.")."""
    dump = final_completion(chunks).model_dump(mode=mode)
    message = dump["choices"][0]["message"]
    assert [call["index"] for call in message["tool_calls"]] == list(range(len(message["tool_calls"])))
    turn = openai.from_response(dump)
    assert turn == assembled(chunks)
    body = openai.to_request([ChatMessage.user("Weather and AAPL?"), turn])
    calls = sent_calls(body)
    assert calls
    assert all(set(call) == {"id", "type", "function"} for call in calls)
    assert all(set(call["function"]) == {"name", "arguments"} for call in calls)
    # The SDK's nulls (refusal, annotations, audio, function_call, parsed) are not sent as noise.
    assert set(body["messages"][1]) == {"role", "content", "tool_calls"}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("chunks", STREAMS)
def test_the_sdks_message_kept_in_a_history_reads_back_without_index(
    chunks: list[dict[str, Any]], mode: Mode
) -> None:
    """A history that keeps the SDK's message dump (messages.append(message.model_dump())) reads
    with from_request as the assembled turn, and sending it again carries no index."""
    message = final_completion(chunks).choices[0].message.model_dump(mode=mode)
    history = [{"role": "user", "content": "Weather and AAPL?"}, message]
    turn = openai.from_request(history)[1]
    assert turn == assembled(chunks)
    assert all("index" not in call for call in sent_calls(openai.to_request([turn])))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("response", RESPONSES)
def test_the_sdks_chat_completion_reads_as_the_plain_response(response: dict[str, Any], mode: Mode) -> None:
    """ChatCompletion.model_validate(body).model_dump() reads as the body itself, and the request
    carries only what the body's message says (the SDK's added nulls are not sent)."""
    dump = ChatCompletion.model_validate(response).model_dump(mode=mode)
    turn = openai.from_response(dump)
    assert turn == openai.from_response(response)
    assert openai.to_request([turn]) == openai.to_request([openai.from_response(response)])


def completion(*messages: dict[str, Any]) -> dict[str, Any]:
    """A chat.completion body with one choice per message."""
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1727346166,
        "model": "gpt-4o",
        "choices": [
            {"index": n, "finish_reason": "stop", "message": message} for n, message in enumerate(messages)
        ],
    }


@pytest.mark.parametrize("mode", MODES)
def test_the_sdks_refusal_and_annotations_are_kept_and_sent_again(mode: Mode) -> None:
    """A refusal and a real annotations list, in the SDK's dump, are kept in extra and sent again;
    annotations: [] (what OpenAI sends without citations) carries nothing and is not sent."""
    citation = {
        "type": "url_citation",
        "url_citation": {"start_index": 0, "end_index": 5, "url": "https://example.com/", "title": "Ex"},
    }
    response = completion(
        {"role": "assistant", "content": "Paris", "refusal": None, "annotations": [citation]},
        {"role": "assistant", "content": None, "refusal": "I can't help with that."},
        {"role": "assistant", "content": "Paris", "refusal": None, "annotations": []},
    )
    dump = ChatCompletion.model_validate(response).model_dump(mode=mode)
    cited = openai.from_response(dump)
    assert cited == ChatMessage("assistant", "Paris", extra={"annotations": [citation]})
    assert openai.to_request([cited])["messages"] == [
        {"role": "assistant", "content": "Paris", "annotations": [citation]}
    ]
    refused = openai.from_response(dump, choice=1)
    assert refused == ChatMessage("assistant", "", extra={"refusal": "I can't help with that."})
    assert openai.to_request([refused])["messages"] == [
        {"role": "assistant", "content": "", "refusal": "I can't help with that."}
    ]
    assert openai.from_response(dump, choice=2) == ChatMessage.assistant("Paris")
