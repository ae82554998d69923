"""Every reader takes the official SDKs' own objects, and their dumps, as it takes the wire's JSON.

The objects here are the SDKs' real pydantic models, built from the recorded
wire examples with ``model_validate``, the way their clients build them from a
response body. Each reader must read the object, its ``model_dump()`` (python
mode) and its ``model_dump(mode="json")`` to what it reads from the JSON.
"""

from __future__ import annotations

import contextlib
import json
import types
from collections.abc import Callable
from typing import Any

import anthropic.types as anthropic_types
import ollama as ollama_sdk
import openai.types.chat as openai_types
import openai.types.responses as responses_types
import openai.types.shared as openai_shared
import pydantic
import pytest
from google.genai import types as genai_types
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import DATA, wire_examples
from tests.property.strategies import json_values
from toolturns import ChatMessage, MessageError, Tool, ToolCall, anthropic, gemini, ollama, openai, responses
from toolturns._sdk import dumped
from toolturns.providers import PROVIDERS, Codec

_AS_GIVEN: list[Callable[[pydantic.BaseModel], object]] = [
    lambda model: model,
    lambda model: model.model_dump(),
    lambda model: model.model_dump(mode="json"),
]
_AS_GIVEN_IDS = ["object", "model_dump", "model_dump_json_mode"]


def _example(example_id: str) -> Any:
    if example_id.startswith("responses/"):  # the Responses goldens are files of their own
        body = json.loads((DATA / f"{example_id}.json").read_text("utf-8"))
        # Their usage predates the SDK's required cache_write_tokens; no turn reads usage.
        return {key: value for key, value in body.items() if key != "usage"}
    (example,) = [e for e in wire_examples(example_id.split("-")[0]) if e["id"] == example_id]
    return example["data"]


# (codec, SDK model of a whole response, recorded response example)
_RESPONSES = [
    (openai, openai_types.ChatCompletion, "openai-parallel-tool-calls-response"),
    (openai, openai_types.ChatCompletion, "openai-nested-arguments-response"),
    (anthropic, anthropic_types.Message, "anthropic-tool-use-response"),
    (anthropic, anthropic_types.Message, "anthropic-text-plus-tool-use-response"),
    (gemini, genai_types.GenerateContentResponse, "gemini-functioncall-response"),
    (ollama, ollama_sdk.ChatResponse, "ollama-nonstream-tool-call-response"),
    (responses, responses_types.Response, "responses/response_function_call"),
    (responses, responses_types.Response, "responses/response_text"),
]


@pytest.mark.parametrize("given_as", _AS_GIVEN, ids=_AS_GIVEN_IDS)
@pytest.mark.parametrize(("codec", "model", "example_id"), _RESPONSES, ids=[r[2] for r in _RESPONSES])
def test_from_response_reads_the_sdk_response_object_as_its_json(
    codec: Codec, model: type[pydantic.BaseModel], example_id: str, given_as: Callable[[Any], object]
) -> None:
    """``from_response(client.chat.completions.create(...))`` and the like need no dump."""
    body = _example(example_id)
    response = model.model_validate(body)
    assert codec.from_response(given_as(response)) == codec.from_response(body)


def _response_turn_objects() -> list[tuple[Codec, object, object]]:
    """(codec, the SDK's object of the model's turn, what a caller appends to the history)."""
    chat = openai_types.ChatCompletion.model_validate(_example("openai-parallel-tool-calls-response"))
    message = anthropic_types.Message.model_validate(_example("anthropic-text-plus-tool-use-response"))
    gemini_response = genai_types.GenerateContentResponse.model_validate(
        _example("gemini-functioncall-response")
    )
    assert gemini_response.candidates
    chat_response = ollama_sdk.ChatResponse.model_validate(_example("ollama-nonstream-tool-call-response"))
    output = responses_types.Response.model_validate(_example("responses/response_function_call"))
    return [
        # messages.append(completion.choices[0].message)
        (openai, chat.choices[0].message, [chat.choices[0].message]),
        # messages.append({"role": "assistant", "content": message.content})
        (anthropic, message, [{"role": "assistant", "content": message.content}]),
        # contents.append(response.candidates[0].content)
        (gemini, gemini_response, [gemini_response.candidates[0].content]),
        # messages.append(response.message)
        (ollama, chat_response, [chat_response.message]),
        # input += response.output
        (responses, output, list(output.output)),
    ]


@pytest.mark.parametrize(("codec", "response", "appended"), _response_turn_objects(), ids=list(PROVIDERS))
def test_from_request_reads_sdk_objects_appended_to_a_plain_history(
    codec: Codec, response: object, appended: list[object]
) -> None:
    """The SDKs' tool loops append the response's own objects to a list of dicts."""
    history: list[object] = [
        {"role": "user", "parts": [{"text": "Hi"}]} if codec is gemini else {"role": "user", "content": "Hi"}
    ]
    history.extend(appended)
    read = codec.from_request(history)
    assert read[0] == ChatMessage.user("Hi")
    (turn,) = read[1:]
    expected = codec.from_response(response)
    # Gemini and Ollama calls come without ids: theirs are made up from where
    # the call stands, which differs between a request and a response.
    assert (turn.content, _calls(turn)) == (expected.content, _calls(expected))


def _calls(message: ChatMessage) -> list[tuple[str, str]]:
    return [(call.name, call.arguments_json) for call in message.tool_calls or ()]


def test_chat_message_and_tool_call_from_dict_read_openai_sdk_objects() -> None:
    """``ChatMessage.from_dict`` and ``ToolCall.from_dict`` take what the openai SDK gives."""
    body = _example("openai-parallel-tool-calls-response")
    message = openai_types.ChatCompletion.model_validate(body).choices[0].message
    assert message.tool_calls
    assert ChatMessage.from_dict(message) == ChatMessage.from_dict(body["choices"][0]["message"])
    assert ToolCall.from_dict(message.tool_calls[1]) == ToolCall.from_dict(
        body["choices"][0]["message"]["tool_calls"][1]
    )
    # A call in a hand-built message: the object inside a plain dict.
    built = {"role": "assistant", "content": None, "tool_calls": list(message.tool_calls)}
    assert ChatMessage.from_dict(built) == ChatMessage.from_dict(message)


_SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
}


def test_tool_from_dict_and_read_tools_take_sdk_tool_objects() -> None:
    """Tool definitions the SDKs model as objects read as their JSON does."""
    expected = Tool("get_weather", "Weather in a city.", _SCHEMA)
    function = openai_shared.FunctionDefinition(
        name="get_weather", description="Weather in a city.", parameters=_SCHEMA
    )
    assert Tool.from_dict(function) == expected
    assert Tool.from_dict({"type": "function", "function": function}) == expected
    assert openai.read_tools(
        [openai_types.ChatCompletionFunctionTool(type="function", function=function)]
    ) == [expected]
    # anthropic types its tool definitions as TypedDicts: they are dicts already.
    anthropic_tool = anthropic_types.ToolParam(
        name="get_weather", description="Weather in a city.", input_schema=_SCHEMA
    )
    assert anthropic.read_tools([anthropic_tool]) == [expected]
    declaration = genai_types.FunctionDeclaration(
        name="get_weather", description="Weather in a city.", parameters_json_schema=_SCHEMA
    )
    assert gemini.read_tools([genai_types.Tool(function_declarations=[declaration])]) == [expected]
    ollama_tool = ollama_sdk.Tool.model_validate({"type": "function", "function": function.model_dump()})
    assert ollama.read_tools([ollama_tool]) == [expected]


def _openai_chunks() -> list[dict[str, Any]]:
    return list(_example("openai-stream-parallel-tool-calls"))


# (codec, how the SDK models one stream item, a recorded stream)
_STREAMS: list[tuple[Codec, Callable[[Any], pydantic.BaseModel], str]] = [
    (openai, openai_types.ChatCompletionChunk.model_validate, "openai-stream-parallel-tool-calls"),
    (openai, openai_types.ChatCompletionChunk.model_validate, "openai-stream-single-tool-call"),
    (
        anthropic,
        pydantic.TypeAdapter(anthropic_types.RawMessageStreamEvent).validate_python,
        "anthropic-stream-text-then-tool-use",
    ),
    # Not the recording whose calls carry ids: the ollama client's ToolCall
    # model has no id field and drops it (see docs/sdks.md).
    (ollama, ollama_sdk.ChatResponse.model_validate, "ollama-stream-tool-call"),
]


def _stream_items(items: list[Any]) -> list[dict[str, Any]]:
    """A recorded stream's data items, as the SDKs decode them (without [DONE] and Anthropic's pings)."""
    data = [item["data"] if "event" in item else item for item in items if isinstance(item, dict)]
    return [item for item in data if item.get("type") != "ping"]


@pytest.mark.parametrize("given_as", _AS_GIVEN, ids=_AS_GIVEN_IDS)
@pytest.mark.parametrize(("codec", "parse", "example_id"), _STREAMS, ids=[s[2] for s in _STREAMS])
def test_stream_assembler_takes_the_sdk_stream_items(
    codec: Codec,
    parse: Callable[[Any], pydantic.BaseModel],
    example_id: str,
    given_as: Callable[[Any], object],
) -> None:
    """``for chunk in client...(stream=True): assembler.feed(chunk)`` assembles what the JSON does."""
    items = _example(example_id)
    from_json = codec.StreamAssembler()
    from_sdk = codec.StreamAssembler()
    for item in _stream_items(items):
        from_json.feed(item)
        from_sdk.feed(given_as(parse(item)))
    assert from_sdk.message() == from_json.message()
    assert from_sdk.finish_reason == from_json.finish_reason


def test_gemini_stream_assembler_takes_generate_content_response_chunks() -> None:
    """google-genai's ``generate_content_stream`` yields one GenerateContentResponse per chunk."""
    chunks = [
        {"candidates": [{"content": {"role": "model", "parts": [{"text": "Let me "}]}}]},
        {
            "candidates": [
                {
                    "content": {
                        "role": "model",
                        "parts": [
                            {"text": "check."},
                            {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}},
                        ],
                    },
                    "finishReason": "STOP",
                }
            ],
        },
    ]
    from_json = gemini.StreamAssembler()
    from_sdk = gemini.StreamAssembler()
    for chunk in chunks:
        from_json.feed(chunk)
        from_sdk.feed(genai_types.GenerateContentResponse.model_validate(chunk))
    assert from_sdk.message() == from_json.message()
    assert from_sdk.message().content == "Let me check."


_READERS: list[tuple[str, Callable[[object], object]]] = [
    ("ChatMessage.from_dict", ChatMessage.from_dict),
    ("ToolCall.from_dict", ToolCall.from_dict),
    ("Tool.from_dict", Tool.from_dict),
    *[(f"{name}.from_response", PROVIDERS[name].codec.from_response) for name in PROVIDERS],
    *[(f"{name}.from_request", PROVIDERS[name].codec.from_request) for name in PROVIDERS],
    *[
        (f"{name}.read_tools", lambda value, n=name: PROVIDERS[n].codec.read_tools([value]))
        for name in PROVIDERS
    ],
    *[
        (
            f"{name}.StreamAssembler.feed",
            lambda value, n=name: PROVIDERS[n].codec.StreamAssembler().feed(value),
        )
        for name in PROVIDERS
    ],
]


@pytest.mark.parametrize(("name", "read"), _READERS, ids=[name for name, _ in _READERS])
def test_an_object_that_is_not_data_is_refused_saying_what_to_pass(
    name: str, read: Callable[[object], object]
) -> None:
    """Any other object is refused, and the error says how to turn it into data."""
    with pytest.raises(MessageError) as caught:
        read(types.SimpleNamespace(role="user", content="Hi"))
    assert "got SimpleNamespace (an object, not JSON data: pass e.g. its .model_dump() or .to_dict())" in str(
        caught.value
    ), name


class _Model:
    """An object with a ``model_dump`` that gives whatever it was made with, or raises."""

    def __init__(self, dumped: object) -> None:
        self.dumped = dumped

    def model_dump(self, **options: object) -> object:
        if isinstance(self.dumped, Exception):
            raise self.dumped
        return self.dumped


@given(dumped=json_values() | st.builds(ValueError, st.text()) | st.builds(TypeError))
@pytest.mark.parametrize(("name", "read"), _READERS, ids=[name for name, _ in _READERS])
def test_only_our_errors_escape_whatever_model_dump_gives(
    name: str, read: Callable[[object], object], dumped: object
) -> None:
    """A model_dump that raises, or gives anything at all, still meets only MessageError."""
    with contextlib.suppress(MessageError):
        read(_Model(dumped))


def test_sdk_bytes_read_as_the_wires_standard_base64_and_enums_and_times_as_json() -> None:
    """A google-genai thought signature holding '+' and '/' reads as the REST JSON's text
    (pydantic's JSON mode would give the URL-safe alphabet); enums and datetimes become JSON."""
    signed = {"functionCall": {"name": "get_time", "args": {}}, "thoughtSignature": "ab+/cQ=="}
    body = {
        "candidates": [{"content": {"role": "model", "parts": [signed]}, "finishReason": "STOP"}],
        "createTime": "2025-01-01T00:00:00Z",
        "responseId": "r1",
    }
    response = genai_types.GenerateContentResponse.model_validate(body)
    turn = gemini.from_response(response)
    assert turn == gemini.from_response(body)
    assert turn.tool_calls
    assert turn.tool_calls[0].provider_data["gemini"]["keys"]["thoughtSignature"] == "ab+/cQ=="
    assert dumped(response) == {**body, "createTime": "2025-01-01T00:00:00+00:00"}
