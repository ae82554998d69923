"""The Gemini stream assembler: every Gemini bullet of issue #4, the Vertex-only example, truncation, the live view."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.conftest import wire_examples
from toolturns import (
    ChatMessage,
    InvalidMessage,
    InvalidStream,
    InvalidToolCall,
    MessageError,
    PartialToolCall,
    ToolCall,
    gemini,
)

VERTEX = next(
    e for e in wire_examples("gemini", "stream_chunks") if e["id"] == "gemini-vertex-streamed-partial-args"
)

CALL = {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}
CALL2 = {"functionCall": {"name": "get_time", "args": {}}}
USAGE = {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}


def chunk(
    *parts: dict[str, Any], finish: str | None = None, response_id: str | None = "resp-1", **more: Any
) -> dict[str, Any]:
    """One streamed GenerateContentResponse with these parts of candidate 0."""
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}}
    if finish is not None:
        candidate["finishReason"] = finish
    body: dict[str, Any] = {"candidates": [candidate], **more}
    if response_id is not None:
        body["responseId"] = response_id
    return body


def assemble(chunks: list[Any], **options: Any) -> gemini.StreamAssembler:
    assembler = gemini.StreamAssembler(**options)
    for item in chunks:
        assembler.feed(item)
    return assembler


def whole(parts: list[dict[str, Any]], response_id: str | None = "resp-1") -> dict[str, Any]:
    """The non-streamed response with these parts."""
    body: dict[str, Any] = {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}]
    }
    if response_id is not None:
        body["responseId"] = response_id
    return body


# -- text, calls, signatures ----------------------------------------------------------------


def test_text_parts_concatenate_into_one_part() -> None:
    """Text parts of successive chunks join: the message is from_response's for one text part, with no provider_data."""
    chunks = [
        chunk({"text": "The weather "}),
        chunk({"text": "in Paris "}),
        chunk({"text": "is mild."}, finish="STOP"),
    ]
    message = assemble(chunks).message()
    assert message == gemini.from_response(whole([{"text": "The weather in Paris is mild."}]))
    assert message == ChatMessage.assistant("The weather in Paris is mild.")


def test_function_calls_append_in_order_with_from_response_ids() -> None:
    """functionCall parts append in order, their made-up ids seeded as from_response seeds them (responseId, position)."""
    chunks = [chunk({"text": "Checking "}), chunk({"text": "both."}, CALL), chunk(CALL2, finish="STOP")]
    message = assemble(chunks).message()
    expected = gemini.from_response(whole([{"text": "Checking both."}, CALL, CALL2]))
    assert message == expected
    assert message.tool_calls is not None
    assert [call.name for call in message.tool_calls] == ["get_weather", "get_time"]
    assert message.tool_calls[0].arguments == {"city": "Paris"}


def test_generated_ids_depend_on_the_response_id() -> None:
    """Two streams that differ only in responseId give different made-up ids, as two responses do."""
    first = assemble([chunk(CALL, finish="STOP", response_id="a")]).message()
    second = assemble([chunk(CALL, finish="STOP", response_id="b")]).message()
    assert first.tool_calls is not None
    assert second.tool_calls is not None
    assert first.tool_calls[0].id != second.tool_calls[0].id
    assert first == gemini.from_response(whole([CALL], response_id="a"))


def test_response_id_arriving_late_seeds_like_from_response() -> None:
    """A responseId first seen on a later chunk still seeds the ids of calls fed before it."""
    chunks = [chunk(CALL, response_id=None), chunk(finish="STOP", response_id="late")]
    assert assemble(chunks).message() == gemini.from_response(whole([CALL], response_id="late"))


def test_stream_without_response_id_seeds_like_from_response() -> None:
    """Without any responseId the ids are from_response's for a response without one."""
    chunks = [chunk(CALL, finish="STOP", response_id=None)]
    assert assemble(chunks).message() == gemini.from_response(whole([CALL], response_id=None))


def test_call_ids_gemini_sent_are_kept_and_never_marked() -> None:
    """A functionCall with Gemini's own id keeps it, as from_response does."""
    call = {"functionCall": {"id": "fc_1", "name": "get_time", "args": {}}}
    message = assemble([chunk(call, finish="STOP")]).message()
    assert message.tool_calls == (ToolCall("fc_1", "get_time"),)
    assert message == gemini.from_response(whole([call]))


def test_thought_signature_stays_on_its_part() -> None:
    """A thoughtSignature on a functionCall part stays on that call, as from_response keeps it."""
    signed = {**CALL, "thoughtSignature": "c2lnbmF0dXJl"}
    message = assemble([chunk(signed, finish="STOP")]).message()
    assert message == gemini.from_response(whole([signed]))
    assert message.tool_calls is not None
    assert message.tool_calls[0].provider_data["gemini"]["keys"]["thoughtSignature"] == "c2lnbmF0dXJl"


def test_signature_on_a_closing_empty_text_part_is_kept_in_place() -> None:
    """A signature sent on an empty text part at the end stays a part of its own, after the joined text."""
    chunks = [
        chunk({"text": "Hello "}),
        chunk({"text": "world."}),
        chunk({"text": "", "thoughtSignature": "sig"}, finish="STOP"),
    ]
    message = assemble(chunks).message()
    parts = [{"text": "Hello world."}, {"text": "", "thoughtSignature": "sig"}]
    assert message == gemini.from_response(whole(parts))
    assert message.content == "Hello world."
    assert gemini.to_request([ChatMessage.user("Hi"), message])["contents"][1]["parts"] == parts


def test_thought_summaries_join_apart_from_the_answer() -> None:
    """Thought-summary parts join with each other, not with the answer text, and stay out of the content."""
    chunks = [
        chunk({"text": "Thinking ", "thought": True}),
        chunk({"text": "hard.", "thought": True}),
        chunk({"text": "Answer."}, finish="STOP"),
    ]
    message = assemble(chunks).message()
    assert message == gemini.from_response(
        whole([{"text": "Thinking hard.", "thought": True}, {"text": "Answer."}])
    )
    assert message.content == "Answer."


def test_empty_plain_text_parts_are_dropped() -> None:
    """An empty plain text part (often in the closing chunk) carries nothing and adds no part."""
    chunks = [chunk(CALL), chunk({"text": ""}, finish="STOP")]
    assert assemble(chunks).message() == gemini.from_response(whole([CALL]))


def test_other_parts_are_kept_like_from_response() -> None:
    """Parts toolturns does not model (executableCode) and text with other keys are kept in place."""
    code = {"executableCode": {"language": "PYTHON", "code": "print(1)"}}
    odd = {"text": "x", "thought": False}
    chunks = [chunk({"text": "a"}, code), chunk({"text": "b"}, odd, finish="STOP")]
    message = assemble(chunks).message()
    assert message == gemini.from_response(whole([{"text": "a"}, code, {"text": "b"}, odd]))


def test_snake_case_chunks_read_like_camel_case() -> None:
    """Chunks with snake_case field names (SDK dumps) assemble like camelCase ones."""
    snake = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"function_call": {"name": "get_time", "args": {}}, "thought_signature": "s"}],
                },
                "finish_reason": "STOP",
            }
        ],
        "usage_metadata": USAGE,
        "response_id": "resp-1",
    }
    camel = chunk(
        {"functionCall": {"name": "get_time", "args": {}}, "thoughtSignature": "s"},
        finish="STOP",
        usageMetadata=USAGE,
    )
    snake_assembler, camel_assembler = assemble([snake]), assemble([camel])
    assert snake_assembler.message() == camel_assembler.message()
    assert snake_assembler.usage == USAGE


def test_finish_reason_ends_the_stream_and_usage_is_the_last() -> None:
    """finishReason sets finish_reason and ends the stream; usage is the last usageMetadata."""
    first_usage = {"promptTokenCount": 10, "totalTokenCount": 11}
    assembler = assemble([chunk({"text": "a"}, usageMetadata=first_usage)])
    before = (assembler.ended, assembler.usage)
    assembler.feed(chunk({"text": "b"}, finish="MAX_TOKENS", usageMetadata=USAGE))
    assert before == (False, first_usage)
    assert assembler.ended
    assert assembler.finish_reason == "MAX_TOKENS"
    assert assembler.usage == USAGE


def test_candidate_without_content_finishes() -> None:
    """A closing candidate with a finishReason and no content ends the stream."""
    assembler = assemble([chunk({"text": "a"}), {"candidates": [{"finishReason": "STOP"}]}])
    assert assembler.ended
    assert assembler.message() == ChatMessage.assistant("a")


def test_usage_only_chunk_is_accepted() -> None:
    """A chunk with usageMetadata and no candidates updates usage."""
    assembler = assemble([chunk({"text": "a"}), {"usageMetadata": USAGE}])
    assert assembler.usage == USAGE


def test_another_candidate_can_be_chosen() -> None:
    """choice=1 assembles the candidate whose index is 1 (index 0 left out, as proto JSON does)."""
    item = {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": "zero"}]}},
            {"index": 1, "content": {"role": "model", "parts": [{"text": "one"}]}, "finishReason": "STOP"},
        ]
    }
    assert assemble([item], choice=1).message() == ChatMessage.assistant("one")
    assert not assemble([item]).ended
    assert assemble([item]).message() == ChatMessage.assistant("zero")


def test_candidate_option_is_checked() -> None:
    """A candidate that is not an integer >= 0 is rejected at construction."""
    with pytest.raises(InvalidStream):
        gemini.StreamAssembler(choice=-1)


# -- truncation, life cycle, live view ------------------------------------------------------


def test_stream_cut_off_before_finish_reason_is_not_ended() -> None:
    """A stream without finishReason is not ended, and keeps the whole parts that arrived."""
    assembler = assemble([chunk({"text": "Let me "}), chunk(CALL)])
    assert not assembler.ended
    assert assembler.finish_reason is None
    assert assembler.message() == gemini.from_response(whole([{"text": "Let me "}, CALL]))


def test_message_before_anything_fed_raises() -> None:
    """message() before any chunk raises InvalidStream."""
    with pytest.raises(InvalidStream, match="feed the stream"):
        gemini.StreamAssembler().message()


def test_feeding_after_the_finish_reason_raises() -> None:
    """A chunk after the one with finishReason raises InvalidStream naming it."""
    assembler = assemble([chunk({"text": "a"}, finish="STOP")])
    with pytest.raises(InvalidStream) as caught:
        assembler.feed(chunk({"text": "b"}))
    assert caught.value.path == "item[1]"


def test_snapshot_during_the_stream_does_not_disturb() -> None:
    """snapshot() shows the text and calls so far, with the ids message() will give, and changes nothing."""
    chunks = [chunk({"text": "Checking "}), chunk({"text": "both."}, CALL), chunk(CALL2, finish="STOP")]
    assembler = gemini.StreamAssembler()
    assembler.feed(chunks[0])
    assert assembler.snapshot().content == "Checking "
    assembler.feed(chunks[1])
    view = assembler.snapshot()
    assembler.feed(chunks[2])
    message = assembler.message()
    assert message.tool_calls is not None
    first = message.tool_calls[0]
    assert view.content == "Checking both."
    assert view.tool_calls == (PartialToolCall(first.id, "get_weather", first.arguments_json),)
    assert view.finish_reason is None
    assert assembler.snapshot().finish_reason == "STOP"
    assert message == assemble(chunks).message()


# -- the Vertex-only streamed arguments -------------------------------------------------------


def test_vertex_partial_args_example_is_rejected() -> None:
    """The Vertex-only example (bare Contents) is rejected: a stream chunk is a GenerateContentResponse."""
    with pytest.raises(InvalidStream, match="not a bare Content") as caught:
        assemble(VERTEX["data"])
    assert caught.value.path == "item[0]"


@pytest.mark.parametrize("position", [0, 1])
def test_vertex_partial_args_in_response_chunks_are_rejected(position: int) -> None:
    """Vertex's willContinue/partialArgs call fragments, as response chunks, raise a clear InvalidStream."""
    chunks = [{"candidates": [{"content": copy.deepcopy(content)}]} for content in VERTEX["data"]]
    with pytest.raises(InvalidStream, match="streamFunctionCallArguments") as caught:
        gemini.StreamAssembler().feed(chunks[position])
    key = "willContinue" if position == 0 else "partialArgs"
    assert caught.value.path == f"item[0].candidates[0].content.parts[0].functionCall.{key}"


def test_vertex_snake_case_partial_args_are_rejected() -> None:
    """The snake_case spelling (partial_args) of Vertex's fragments is rejected too."""
    part = {"function_call": {"name": "f", "partial_args": [{"json_path": "$.a", "string_value": "x"}]}}
    with pytest.raises(InvalidStream, match="streamFunctionCallArguments"):
        assemble([chunk(part)])


# -- rejections ---------------------------------------------------------------------------

REJECTED: list[tuple[str, Any, type[MessageError], str]] = [
    ("not an object", [], InvalidStream, "item[0]"),
    ("responseId not string", {"responseId": 5}, InvalidStream, "item[0].responseId"),
    ("usage not object", {"usageMetadata": []}, InvalidStream, "item[0].usageMetadata"),
    ("candidates not array", {"candidates": {}}, InvalidStream, "item[0].candidates"),
    ("candidate not object", {"candidates": [5]}, InvalidStream, "item[0].candidates[0]"),
    ("index not int", {"candidates": [{"index": "0"}]}, InvalidStream, "item[0].candidates[0].index"),
    ("content not object", {"candidates": [{"content": []}]}, InvalidStream, "item[0].candidates[0].content"),
    (
        "role not model",
        {"candidates": [{"content": {"role": "user", "parts": []}}]},
        InvalidStream,
        "item[0].candidates[0].content.role",
    ),
    (
        "parts not array",
        {"candidates": [{"content": {"parts": 5}}]},
        InvalidMessage,
        "item[0].candidates[0].content.parts",
    ),
    (
        "part not object",
        {"candidates": [{"content": {"parts": [5]}}]},
        InvalidMessage,
        "item[0].candidates[0].content.parts[0]",
    ),
    (
        "text not string",
        {"candidates": [{"content": {"parts": [{"text": 5}]}}]},
        InvalidMessage,
        "item[0].candidates[0].content.parts[0].text",
    ),
    (
        "functionResponse in model content",
        {"candidates": [{"content": {"parts": [{"functionResponse": {"name": "f", "response": {}}}]}}]},
        InvalidMessage,
        "item[0].candidates[0].content.parts[0].functionResponse",
    ),
    (
        "call without name",
        {"candidates": [{"content": {"parts": [{"functionCall": {"args": {}}}]}}]},
        InvalidToolCall,
        "item[0].candidates[0].content.parts[0].functionCall.name",
    ),
    (
        "call not object",
        {"candidates": [{"content": {"parts": [{"functionCall": "f"}]}}]},
        InvalidToolCall,
        "item[0].candidates[0].content.parts[0].functionCall",
    ),
    (
        "finishReason not string",
        {"candidates": [{"finishReason": 1}]},
        InvalidStream,
        "item[0].candidates[0].finishReason",
    ),
    ("duplicate spelling", {"responseId": "a", "response_id": "b"}, InvalidStream, "item[0].response_id"),
]


@pytest.mark.parametrize(
    ("item", "error", "path"), [(i, e, p) for _, i, e, p in REJECTED], ids=[r[0] for r in REJECTED]
)
def test_malformed_chunks_are_rejected_with_a_path(item: Any, error: type[MessageError], path: str) -> None:
    """A malformed chunk raises the codec's error whose path names the item and the key."""
    with pytest.raises(error) as caught:
        gemini.StreamAssembler().feed(item)
    assert caught.value.path == path


def test_chunks_of_two_responses_are_rejected() -> None:
    """A chunk with another responseId than the earlier chunks raises InvalidStream."""
    assembler = assemble([chunk({"text": "a"}, response_id="one")])
    with pytest.raises(InvalidStream, match="one stream per assembler") as caught:
        assembler.feed(chunk({"text": "b"}, response_id="two"))
    assert caught.value.path == "item[1].responseId"


def test_duplicate_call_ids_across_chunks_are_rejected() -> None:
    """A call id Gemini sent twice, in two chunks, raises InvalidToolCall when the second arrives."""
    call = {"functionCall": {"id": "fc_1", "name": "f", "args": {}}}
    assembler = assemble([chunk(call)])
    with pytest.raises(InvalidToolCall, match="parts\\[0\\] has it too"):
        assembler.feed(chunk(call))


def test_blocked_prompt_raises_with_the_feedback() -> None:
    """A chunk that says the prompt was blocked raises InvalidStream carrying promptFeedback."""
    feedback = {"blockReason": "SAFETY", "safetyRatings": []}
    with pytest.raises(InvalidStream) as caught:
        assemble([{"promptFeedback": feedback}])
    assert caught.value.provider_error == feedback
    assert caught.value.path == "item[0].promptFeedback.blockReason"


def test_a_snapshot_before_the_response_id_came_is_updated_when_it_comes() -> None:
    """A call without id snapshotted before the first responseId: once it comes, the snapshot shows the
    made-up id the message has, seeded with it."""
    assembler = assemble([chunk(CALL, response_id=None)])
    before = assembler.snapshot().tool_calls[0].id
    assembler.feed(chunk({"text": "Done."}, finish="STOP"))
    turn = assembler.message()
    assert turn.tool_calls is not None
    (call,) = turn.tool_calls
    assert assembler.snapshot().tool_calls[0].id == call.id != before
    assert call == gemini.from_response(whole([CALL, {"text": "Done."}])).tool_calls[0]  # type: ignore[index]


def test_snapshots_leave_thought_summaries_out_of_the_text() -> None:
    """Thought-summary parts before the answer and between its parts: no snapshot shows their text, as the
    message's content does not."""
    chunks = [
        chunk({"text": "Thinking", "thought": True}),
        chunk({"text": " hard", "thought": True}),
        chunk({"text": "Hello"}),
        chunk({"text": "more thought", "thought": True}, {"text": " there", "thoughtSignature": "c2ln"}),
        chunk(CALL, finish="STOP"),
    ]
    assembler = gemini.StreamAssembler()
    shown = []
    for item in chunks:
        assembler.feed(item)
        shown.append(assembler.snapshot().content)
    assert shown == ["", "", "Hello", "Hello there", "Hello there"]
    assert assembler.message().content == "Hello there"
