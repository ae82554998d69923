"""google-genai's own objects, dumped: snake_case, bytes, enums and nulls read as the REST JSON they stand for.

Each REST body of ``tests/data/gemini/sdk_shapes.json`` is validated with
google-genai's types; the SDK's ``model_dump()`` in python mode (snake_case
keys, ``bytes`` signatures and data, enum members, ``None`` for every unset
field), in json mode (URL-safe base64 text) and with ``by_alias=True``
(camelCase keys, the same values) must read as the REST body reads, and go
back in the REST spelling with standard base64.
"""

from __future__ import annotations

import base64
import copy
import json
import random
import re
from typing import Any

import pytest
from google.genai import types
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import DATA, wire_examples
from tests.providers.gemini.test_properties import model_contents, through_json, transcripts
from toolturns import (
    ChatMessage,
    InvalidMessage,
    InvalidStream,
    InvalidTool,
    InvalidToolCall,
    MessageError,
    Tool,
    gemini,
)

SHAPES: dict[str, Any] = json.loads((DATA / "gemini" / "sdk_shapes.json").read_text("utf-8"))
RESPONSE: dict[str, Any] = SHAPES["response"]
REQUEST: dict[str, Any] = SHAPES["request"]
CHUNKS: list[dict[str, Any]] = SHAPES["chunks"]

#: How a caller may dump an SDK object: the default (python mode, snake_case),
#: json mode, and either with the camelCase aliases.
DUMPS: dict[str, dict[str, Any]] = {
    "python": {},
    "json": {"mode": "json"},
    "python-alias": {"by_alias": True},
    "json-alias": {"mode": "json", "by_alias": True},
}


def dump(value: Any, how: str) -> Any:
    """``value.model_dump(...)`` as ``how`` says (a list dumps item by item)."""
    if isinstance(value, list):
        return [dump(item, how) for item in value]
    return value.model_dump(**DUMPS[how])


def sdk_request(body: dict[str, Any], how: str) -> dict[str, Any]:
    """A REST request body rebuilt from the SDK's Content objects and dumped: what a caller stores from the SDK."""
    contents = [types.Content.model_validate(content) for content in body["contents"]]
    spelled = "systemInstruction" if how.endswith("alias") else "system_instruction"
    dumped: dict[str, Any] = {"contents": dump(contents, how)}
    if "systemInstruction" in body:
        dumped[spelled] = dump(types.Content.model_validate(body["systemInstruction"]), how)
    return dumped


ALL_DUMPS = pytest.mark.parametrize("how", list(DUMPS))


def test_the_sdk_dumps_what_this_file_says() -> None:
    """The premise: python mode gives snake_case, bytes, enums and Nones; json mode URL-safe base64 text."""
    sdk = types.GenerateContentResponse.model_validate(RESPONSE)
    python = dump(sdk, "python")
    part = python["candidates"][0]["content"]["parts"][2]
    signature = RESPONSE["candidates"][0]["content"]["parts"][2]["thoughtSignature"]
    assert part["thought_signature"] == base64.b64decode(signature)
    assert part["text"] is None
    assert "thoughtSignature" not in part
    assert type(python["candidates"][0]["finish_reason"]) is types.FinishReason
    json_part = dump(sdk, "json")["candidates"][0]["content"]["parts"][2]
    assert json_part["thought_signature"] == base64.urlsafe_b64encode(base64.b64decode(signature)).decode()
    assert json_part["thought_signature"] != signature


# -- from_response ----------------------------------------------------------------------------


@ALL_DUMPS
def test_a_response_dump_reads_as_its_rest_json(how: str) -> None:
    """from_response of a dumped GenerateContentResponse equals from_response of the REST body."""
    sdk = types.GenerateContentResponse.model_validate(RESPONSE)
    assert gemini.from_response(dump(sdk, how)) == gemini.from_response(RESPONSE)


@ALL_DUMPS
def test_a_response_dump_goes_back_in_the_rest_spelling_with_standard_base64(how: str) -> None:
    """to_request writes the turn read from a dump as the REST content: camelCase, base64 text; the SDK reads it back."""
    sdk = types.GenerateContentResponse.model_validate(RESPONSE)
    turn = gemini.from_response(dump(sdk, how))
    content = gemini.to_request([ChatMessage.user("go"), turn])["contents"][1]
    assert json.loads(json.dumps(content)) == content  # plain JSON: no bytes
    assert content == RESPONSE["candidates"][0]["content"]
    assert types.Content.model_validate(content) == sdk.candidates[0].content  # type: ignore[index]


@ALL_DUMPS
def test_null_arguments_and_struct_keys_are_data_not_unset_fields(how: str) -> None:
    """None inside args and partMetadata is a value, and their snake_case keys are the caller's: both kept."""
    sdk = types.GenerateContentResponse.model_validate(RESPONSE)
    turn = gemini.from_response(dump(sdk, how))
    assert turn.tool_calls is not None
    assert turn.tool_calls[0].arguments == {"city_name": "Paris", "unit": None, "days": [1, 2]}
    kept = dict(turn.provider_data["gemini"]["items"])
    assert kept[7]["partMetadata"] == {"source_file": "notes.md", "page": None}


@ALL_DUMPS
@pytest.mark.parametrize("example", [e["id"] for e in wire_examples("gemini", "response_message")])
def test_recorded_responses_read_the_same_through_the_sdk(how: str, example: str) -> None:
    """Every recorded Gemini response, validated and dumped by the SDK, reads as the recording."""
    rest = next(e["data"] for e in wire_examples("gemini") if e["id"] == example)
    sdk = types.GenerateContentResponse.model_validate(rest)
    assert gemini.from_response(dump(sdk, how)) == gemini.from_response(rest)


# -- from_request ------------------------------------------------------------------------------


@ALL_DUMPS
def test_a_request_of_dumped_contents_reads_as_its_rest_json(how: str) -> None:
    """from_request of dumped Content objects (system instruction included) equals from_request of the REST body."""
    assert gemini.from_request(sdk_request(REQUEST, how)) == gemini.from_request(REQUEST)


@ALL_DUMPS
def test_a_request_of_dumped_contents_goes_back_as_the_rest_body(how: str) -> None:
    """Reading dumped contents and writing them again gives the REST contents, signatures in standard base64."""
    messages = gemini.from_request(sdk_request(REQUEST, how))
    body = gemini.to_request(messages)
    assert body["contents"] == REQUEST["contents"]
    assert body["systemInstruction"] == REQUEST["systemInstruction"]


@ALL_DUMPS
@pytest.mark.parametrize(
    "example",
    [e["id"] for e in wire_examples("gemini", "request_messages") if isinstance(e["data"], list)],
)
def test_recorded_histories_read_the_same_through_the_sdk(how: str, example: str) -> None:
    """Every recorded list of contents, validated and dumped by the SDK, reads as the recording."""
    rest = next(e["data"] for e in wire_examples("gemini") if e["id"] == example)
    assert gemini.from_request(sdk_request({"contents": rest}, how)) == gemini.from_request(rest)


def test_contents_built_with_the_sdk_read_as_the_rest_json_they_stand_for() -> None:
    """types.Content/Part/FunctionCall built in Python (bytes signature) read as the REST contents, and go back so."""
    signature = b"\xfb\xff\xbe-sig"
    built = [
        types.Content(role="user", parts=[types.Part(text="Weather in Paris?")]),
        types.Content(
            role="model",
            parts=[
                types.Part(
                    function_call=types.FunctionCall(name="get_weather", args={"city": "Paris"}),
                    thought_signature=signature,
                )
            ],
        ),
        types.Content(
            role="user",
            parts=[
                types.Part(
                    function_response=types.FunctionResponse(name="get_weather", response={"result": "18"})
                )
            ],
        ),
    ]
    rest = [
        {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
        {
            "role": "model",
            "parts": [
                {
                    "functionCall": {"name": "get_weather", "args": {"city": "Paris"}},
                    "thoughtSignature": base64.b64encode(signature).decode(),
                }
            ],
        },
        {
            "role": "user",
            "parts": [{"functionResponse": {"name": "get_weather", "response": {"result": "18"}}}],
        },
    ]
    for how in DUMPS:
        messages = gemini.from_request(dump(built, how))
        assert messages == gemini.from_request(rest)
        assert gemini.to_request(messages)["contents"] == rest


# -- StreamAssembler ---------------------------------------------------------------------------


def assemble(chunks: list[Any]) -> gemini.StreamAssembler:
    assembler = gemini.StreamAssembler()
    for item in chunks:
        assembler.feed(item)
    return assembler


@ALL_DUMPS
def test_dumped_chunks_assemble_as_the_rest_chunks(how: str) -> None:
    """Each streamed GenerateContentResponse, dumped: the same message, finish reason and usage as the REST chunks."""
    sdk = [types.GenerateContentResponse.model_validate(item) for item in CHUNKS]
    rest, dumped = assemble(CHUNKS), assemble(dump(sdk, how))
    assert dumped.message() == rest.message()
    assert dumped.finish_reason == "STOP"
    assert type(dumped.finish_reason) is str
    assert dumped.usage == CHUNKS[-1]["usageMetadata"]


@ALL_DUMPS
def test_usage_is_spelled_the_rest_way_whatever_the_chunks_used(how: str) -> None:
    """usage has the REST keys (usage["totalTokenCount"] after SDK chunks), no None fields, plain strings."""
    sdk = types.GenerateContentResponse.model_validate(CHUNKS[0])
    usage = assemble([dump(sdk, how)]).usage
    assert usage is not None
    assert usage["totalTokenCount"] == 50
    assert usage["promptTokensDetails"] == [{"modality": "TEXT", "tokenCount": 31}]
    assert type(usage["promptTokensDetails"][0]["modality"]) is str
    assert None not in usage.values()
    assert usage == CHUNKS[0]["usageMetadata"]


def test_a_blocked_prompt_in_an_sdk_dump_is_reported() -> None:
    """A dumped chunk whose prompt_feedback has a block_reason raises, with the feedback in REST spelling."""
    sdk = types.GenerateContentResponse(
        prompt_feedback=types.GenerateContentResponsePromptFeedback(block_reason=types.BlockedReason.SAFETY)
    )
    with pytest.raises(InvalidStream) as caught:
        assemble([sdk.model_dump()])
    assert str(caught.value) == (
        "item[0].promptFeedback.blockReason: says Gemini blocked the prompt: the stream has no candidate, "
        "got 'SAFETY'"
    )
    assert caught.value.provider_error == {"blockReason": "SAFETY"}


# -- a field named twice -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("part", "error", "path"),
    [
        (
            {"inlineData": {"mimeType": "image/png", "mime_type": "image/png", "data": "iVBO"}},
            InvalidMessage,
            "candidates[0].content.parts[0].inlineData.mime_type: names the field 'mimeType'",
        ),
        (
            {"text": "x", "partMetadata": {"a": [{"b": 1}]}, "part_metadata": {}},
            InvalidMessage,
            "candidates[0].content.parts[0].part_metadata: names the field 'partMetadata'",
        ),
        (
            {"function_call": {"name": "f"}, "functionCall": {"name": "f"}},
            InvalidMessage,
            "candidates[0].content.parts[0].functionCall: names the field 'functionCall'",
        ),
        (
            {"functionCall": {"name": "f", "will_continue": False, "willContinue": False}},
            InvalidToolCall,
            "candidates[0].content.parts[0].functionCall.willContinue: names the field 'willContinue'",
        ),
        (
            {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1"}, "code_execution_result": {}},
            InvalidMessage,
            "candidates[0].content.parts[0].code_execution_result: names the field 'codeExecutionResult'",
        ),
        (
            {"videoMetadata": {"fps": 1}, "inlineData": {"parts": [{"x": 1}, {"a_b": 1, "aB": 2}]}},
            InvalidMessage,
            "candidates[0].content.parts[0].inlineData.parts[1].aB: names the field 'aB'",
        ),
    ],
)
def test_a_field_given_in_both_spellings_is_refused_where_it_is(
    part: dict[str, Any], error: type[MessageError], path: str
) -> None:
    """One field spelled both ways, at any depth of a kept part: refused, naming the second spelling."""
    with pytest.raises(error) as caught:
        gemini.from_response({"candidates": [{"content": {"role": "model", "parts": [part]}}]})
    assert str(caught.value).startswith(
        path + " a second time (snake_case and camelCase spell the same field)"
    )


def test_a_usage_field_given_in_both_spellings_is_refused_where_it_is() -> None:
    """usageMetadata naming a count twice: InvalidStream at the second spelling."""
    chunk = {**CHUNKS[0], "usageMetadata": {"totalTokenCount": 5, "total_token_count": 5}}
    with pytest.raises(InvalidStream) as caught:
        assemble([chunk])
    assert str(caught.value).startswith(
        "item[0].usageMetadata.total_token_count: names the field 'totalTokenCount'"
    )


# -- snake_case everywhere: a property -------------------------------------------------------------

# Fields whose value is the caller's own JSON (args, response, partMetadata):
# their keys are data, not field names.
FREE = {"args", "response", "partMetadata"}


def snake(key: str) -> str:
    """``thoughtSignature`` -> ``thought_signature``, as the SDK spells its fields."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", key).lower()


def respelled(value: Any, pick: random.Random | None = None) -> Any:
    """``value`` with every field name in snake_case (or, given ``pick``, each in either spelling at random)."""
    if isinstance(value, dict):
        return {
            (snake(key) if pick is None or pick.random() < 0.5 else key): (
                item if key in FREE else respelled(item, pick)
            )
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [respelled(item, pick) for item in value]
    return value


def test_respelled_spells_the_sdk_way() -> None:
    """The test's own respelling names the SDK's fields: its types (which forbid unknown fields) take it."""
    sdk = types.GenerateContentResponse.model_validate(RESPONSE)
    assert types.GenerateContentResponse.model_validate(respelled(RESPONSE)) == sdk
    assert "thought_signature" in respelled(RESPONSE)["candidates"][0]["content"]["parts"][0]


@given(transcripts(), st.none() | st.randoms(use_true_random=False))
@settings(max_examples=60)
def test_any_request_body_respelled_in_snake_case_reads_the_same(
    transcript: list[ChatMessage], pick: random.Random | None
) -> None:
    """Every field name of a valid request body in snake_case (or some of them): the same messages."""
    body = through_json(gemini.to_request(transcript, keep_invalid_arguments=True))
    assert gemini.from_request(respelled(body, pick)) == gemini.from_request(body)


@given(model_contents(), st.none() | st.randoms(use_true_random=False))
@settings(max_examples=60)
def test_any_response_respelled_in_snake_case_reads_and_streams_the_same(
    content: dict[str, Any], pick: random.Random | None
) -> None:
    """Every field name of a valid response in snake_case: the same turn, whole or streamed, and the same usage."""
    usage = {
        "promptTokenCount": 3,
        "totalTokenCount": 9,
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 3}],
    }
    body = {
        "candidates": [{"content": content, "finishReason": "STOP"}],
        "usageMetadata": usage,
        "responseId": "r",
    }
    assert gemini.from_response(respelled(body, pick)) == gemini.from_response(body)
    streamed, rest = assemble([respelled(copy.deepcopy(body), pick)]), assemble([body])
    assert streamed.message() == rest.message()
    assert streamed.usage == usage


# -- tool definitions ------------------------------------------------------------------------------


@ALL_DUMPS
def test_dumped_sdk_tools_read_as_their_rest_json(how: str) -> None:
    """read_tools of dumped types.Tool objects: the tools the REST declarations give."""
    sdk = [types.Tool.model_validate(tool) for tool in REQUEST["tools"]]
    assert gemini.read_tools(dump(sdk, how)) == gemini.read_tools(REQUEST["tools"])


def test_rest_tools_read_as_json_schema_and_go_back_unchanged() -> None:
    """The REST declarations read as JSON-Schema tools, and tool_definition writes each back as it came."""
    tools = gemini.read_tools(REQUEST["tools"])
    assert tools[1].parameters == REQUEST["tools"][0]["functionDeclarations"][1]["parametersJsonSchema"]
    assert gemini.to_request([ChatMessage.user("x")], tools=tools)["tools"] == REQUEST["tools"]


def test_gemini_type_names_read_as_json_schema_type_names() -> None:
    """Gemini's Schema spells types in capitals (the SDK dumps "OBJECT"): read_tools gives JSON Schema's names."""
    declaration = {
        "name": "f",
        "parameters": {
            "type": "OBJECT",
            "properties": {"a": {"type": "STRING"}, "b": {"type": "array", "items": {"type": "Integer"}}},
            "any_of": [{"type": "OBJECT", "required": ["a"]}],
        },
    }
    [tool] = gemini.read_tools({"functionDeclarations": [declaration]})
    assert tool == Tool(
        "f",
        parameters={
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "array", "items": {"type": "integer"}}},
            "anyOf": [{"type": "object", "required": ["a"]}],
        },
    )


def test_a_schema_field_given_in_both_spellings_is_refused_where_it_is() -> None:
    """A Schema naming maxItems twice: InvalidTool at the second spelling, deep in the declaration."""
    declaration = {
        "name": "f",
        "parameters": {
            "type": "object",
            "properties": {"a": {"type": "array", "maxItems": 1, "max_items": 1}},
        },
    }
    with pytest.raises(InvalidTool) as caught:
        gemini.read_tools([{"functionDeclarations": [declaration]}])
    assert str(caught.value).startswith(
        "tools[0].functionDeclarations[0].parameters.properties.a.max_items: names the field 'maxItems' a second time"
    )


def test_a_declaration_may_not_give_parameters_in_both_keys() -> None:
    """parameters with parameters_json_schema (SDK spelling) is refused: Gemini takes one or the other."""
    declaration = {
        "name": "f",
        "parameters": {"type": "object"},
        "parameters_json_schema": {"type": "object"},
    }
    with pytest.raises(InvalidTool) as caught:
        gemini.read_tools([{"functionDeclarations": [declaration]}])
    assert caught.value.path == "tools[0].functionDeclarations[0].parametersJsonSchema"


def test_a_dumped_call_is_not_taken_for_vertex_streamed_arguments() -> None:
    """Unset SDK fields of a FunctionCall (partial_args, will_continue: None) are not Vertex's streamed arguments."""
    part = types.Part(function_call=types.FunctionCall(name="f", args={}))
    chunk = types.GenerateContentResponse(
        candidates=[types.Candidate(content=types.Content(role="model", parts=[part]))]
    )
    rest = {
        "candidates": [{"content": {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]}}]
    }
    assert assemble([chunk.model_dump()]).message() == assemble([rest]).message()


def test_a_chunk_with_prompt_feedback_but_no_block_is_usage_only() -> None:
    """prompt_feedback without a block_reason (safety ratings only) blocks nothing: the chunk reports usage."""
    sdk = types.GenerateContentResponse(
        prompt_feedback=types.GenerateContentResponsePromptFeedback(safety_ratings=[]),
        usage_metadata=types.GenerateContentResponseUsageMetadata(total_token_count=4),
    )
    assembler = assemble([sdk.model_dump()])
    assert assembler.usage == {"totalTokenCount": 4}
    assert not assembler.ended


def test_a_kept_value_nested_past_any_depth_raises_only_message_errors() -> None:
    """A kept part value too deep to respell (or circular) is refused by the JSON check, never a RecursionError."""
    deep: dict[str, Any] = {"mime_type": "x"}
    for _ in range(5000):
        deep = {"inline_data": deep}
    circular: list[Any] = []
    circular.append(circular)
    for value in (deep, circular):
        part = {"functionCall": {"name": "f"}, "x_y": value}
        with pytest.raises(MessageError) as caught:
            gemini.from_response({"candidates": [{"content": {"role": "model", "parts": [part]}}]})
        assert caught.value.path == "candidates[0].content.parts[0].xY"
        assert "must nest at most 500 levels deep" in caught.value.rule
