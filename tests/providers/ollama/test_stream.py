"""Unit tests for ``toolturns.ollama.StreamAssembler``: assembling ``/api/chat`` NDJSON streams.

Whole tool calls on any chunk (the ``done: true`` one included), text and
thinking concatenated, ids made up exactly as ``from_response`` makes them,
the golden stream examples, truncation, the life cycle, the live view, and
the exact errors for malformed items.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.conftest import wire_examples
from toolturns import (
    ChatMessage,
    InvalidMessage,
    InvalidStream,
    InvalidToolCall,
    PartialToolCall,
    ToolCall,
    ollama,
)
from toolturns.providers._native import is_generated_id

EXAMPLES = wire_examples("ollama", "stream_chunks")
WEATHER = {"function": {"name": "get_weather", "arguments": {"city": "Tokyo"}}}


def item(
    content: str | None = "",
    *,
    done: bool = False,
    calls: list[Any] | None = None,
    created_at: str = "t0",
    **more: Any,
) -> dict[str, Any]:
    """One /api/chat stream item."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls is not None:
        message["tool_calls"] = calls
    result: dict[str, Any] = {"model": "llama3.2", "created_at": created_at, "message": message, "done": done}
    result.update(more)
    return result


def assemble(items: list[Any]) -> ollama.StreamAssembler:
    """An assembler fed ``items``."""
    stream = ollama.StreamAssembler()
    for one in items:
        stream.feed(one)
    return stream


def equivalent_response(items: list[dict[str, Any]]) -> dict[str, Any]:
    """The response Ollama sends when not streaming, built by hand from the chunks' data.

    As server/routes.go builds it: the last chunk, with the content (and
    thinking) of all chunks joined and the tool calls of all chunks in order.
    """
    response = copy.deepcopy(items[-1])
    message = response["message"]
    message["content"] = "".join(one["message"].get("content") or "" for one in items)
    thinking = "".join(one["message"].get("thinking") or "" for one in items)
    if thinking:
        message["thinking"] = thinking
    calls = [call for one in items for call in one["message"].get("tool_calls") or []]
    if calls:
        message["tool_calls"] = calls
    return response


# -- golden examples ----------------------------------------------------------------------


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_golden_stream_assembles_into_what_from_response_gives(example: dict[str, Any]) -> None:
    """Each recorded stream gives the ChatMessage from_response gives for the response sent whole."""
    stream = assemble(example["data"])
    assert stream.message() == ollama.from_response(equivalent_response(example["data"]))
    assert stream.ended
    assert stream.usage is not None


def test_golden_example_names() -> None:
    """Both Ollama golden streams are present."""
    assert {e["id"] for e in EXAMPLES} >= {"ollama-stream-tool-call", "ollama-stream-tool-call-with-id"}


def test_golden_stream_from_ndjson_lines() -> None:
    """The NDJSON text of the recorded stream, one json.loads per line, assembles the same."""
    (example,) = [e for e in EXAMPLES if e["id"] == "ollama-stream-tool-call"]
    lines = "".join(json.dumps(one) + "\n" for one in example["data"]).splitlines()
    stream = assemble([json.loads(line) for line in lines])
    turn = stream.message()
    assert turn.tool_calls is not None
    (call,) = turn.tool_calls
    assert (call.name, call.arguments) == ("get_weather", {"city": "Tokyo"})
    assert (stream.finish_reason, stream.usage and stream.usage["eval_count"]) == ("stop", 15)


def test_golden_stream_with_id_keeps_it() -> None:
    """A call that came with an id keeps it; the done chunk without content or done_reason is fine."""
    (example,) = [e for e in EXAMPLES if e["id"] == "ollama-stream-tool-call-with-id"]
    stream = assemble(example["data"])
    assert stream.message().tool_calls == (
        ToolCall("call_1", "web_search", {"query": "latest Ollama release"}),
    )
    assert (stream.finish_reason, stream.usage) == (None, {"prompt_eval_count": 12, "eval_count": 4})


# -- ids ----------------------------------------------------------------------------------


def test_generated_ids_are_seeded_like_from_response_with_the_last_created_at() -> None:
    """Calls without id get from_response's ids for the whole response, whose created_at is the last chunk's."""
    items = [item(calls=[WEATHER], created_at="t1"), item(done=True, created_at="t2", done_reason="stop")]
    turn = assemble(items).message()
    assert turn.tool_calls is not None
    (call,) = turn.tool_calls
    whole = {"created_at": "t2", "message": {"role": "assistant", "content": "", "tool_calls": [WEATHER]}}
    read_whole = ollama.from_response(whole)
    assert read_whole.tool_calls is not None
    assert call == read_whole.tool_calls[0]
    assert is_generated_id(call, "ollama")
    first = {**whole, "created_at": "t1"}
    read_first = ollama.from_response(first)
    assert read_first.tool_calls is not None
    assert call.id != read_first.tool_calls[0].id


def test_calls_on_several_chunks_keep_their_order_and_positions() -> None:
    """Calls from several chunks, the done one included, are listed in order and get position-seeded ids."""
    second = {"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}
    third = {"id": "call_9", "function": {"name": "get_time", "arguments": {}}}
    items = [
        item(calls=[WEATHER]),
        item("ok"),
        item(calls=[second]),
        item(done=True, calls=[third], done_reason="stop"),
    ]
    turn = assemble(items).message()
    assert turn == ollama.from_response(equivalent_response(items))
    assert [c.name for c in turn.tool_calls or ()] == ["get_weather", "get_weather", "get_time"]
    assert len({c.id for c in turn.tool_calls or ()}) == 3


def test_tool_calls_in_the_done_chunk() -> None:
    """Calls that arrive with done: true are part of the message."""
    stream = assemble([item("Let me check."), item(done=True, calls=[WEATHER], done_reason="stop")])
    turn = stream.message()
    assert turn.content == "Let me check."
    assert turn.tool_calls is not None
    assert turn.tool_calls[0].arguments == {"city": "Tokyo"}


def test_call_ids_given_twice_are_an_error_at_message() -> None:
    """Two calls with one id across chunks break the message rule, reported as from_response would."""
    call = {"id": "call_1", **WEATHER}
    stream = assemble([item(calls=[call]), item(calls=[call])])
    with pytest.raises(InvalidMessage):
        stream.message()


# -- text ---------------------------------------------------------------------------------


def test_content_concatenates() -> None:
    """Text fragments join into the turn's content; null content carries nothing."""
    items = [item("The weather "), item(None), item("is "), item("fine.", done=True, done_reason="stop")]
    stream = assemble(items)
    assert stream.message() == ChatMessage.assistant("The weather is fine.")
    assert stream.message() == ollama.from_response(equivalent_response(items))


def test_thinking_concatenates_into_provider_data() -> None:
    """thinking fragments join and are kept where from_response keeps them."""
    items = [item_with({"thinking": "Hmm, "}), item_with({"thinking": "Tokyo."}), item("Sunny.", done=True)]
    turn = assemble(items).message()
    assert turn == ollama.from_response(equivalent_response(items))
    assert turn.provider_data == {"ollama": {"keys": {"thinking": "Hmm, Tokyo."}}}


def item_with(message_keys: dict[str, Any]) -> dict[str, Any]:
    """An item whose message has ``message_keys`` besides role and content."""
    result = item()
    result["message"].update(message_keys)
    return result


def test_other_keys_repeated_unchanged_are_kept() -> None:
    """A non-text key that repeats the same value is kept once."""
    turn = assemble([item_with({"x": ["a"]}), item_with({"x": ["a"]})]).message()
    assert turn.provider_data == {"ollama": {"keys": {"x": ["a"]}}}


@pytest.mark.parametrize(("first", "second"), [(["a"], ["b"]), ("text", 5), (5, "text")])
def test_other_keys_that_cannot_be_merged(first: Any, second: Any) -> None:
    """A key that changes value, or changes between text and another type, is an error, not lost."""
    stream = assemble([item_with({"other": first})])
    with pytest.raises(InvalidStream, match=r"^item\[1\]\.message\.other: must keep its value"):
        stream.feed(item_with({"other": second}))


def test_values_too_deep_to_keep() -> None:
    """A value nested deeper than toolturns' JSON limit is refused where it came, not RecursionError later."""
    value: list[Any] = []
    for _ in range(100_000):
        value = [value]
    stream = assemble([item("Hi")])
    with pytest.raises(InvalidStream) as caught:
        stream.feed(item_with({"other": value}))
    assert caught.value.path == "item[1].message.other"
    assert caught.value.rule.startswith("must nest at most 500 levels deep")
    assert stream.message().content == "Hi"


# -- truncation and life cycle ------------------------------------------------------------


def test_stream_cut_off_before_done() -> None:
    """No done: true: ended is false, finish_reason None, the message holds what arrived."""
    stream = assemble([item("The weath", calls=[WEATHER])])
    assert (stream.ended, stream.finish_reason, stream.usage) == (False, None, None)
    assert stream.message().content == "The weath"


def test_done_reason_length() -> None:
    """finish_reason is Ollama's own done_reason ('length' when num_predict cut the text)."""
    stream = assemble([item("The weath"), item(done=True, done_reason="length")])
    assert (stream.ended, stream.finish_reason) == (True, "length")
    assert stream.message() == ChatMessage.assistant("The weath")


def test_done_without_counts_has_no_usage() -> None:
    """A done chunk without counts or durations leaves usage None."""
    stream = assemble([{"message": {"role": "assistant", "content": "a"}, "done": True}])
    assert (stream.usage, stream.finish_reason) == (None, None)


def test_message_before_anything_fed() -> None:
    """message() before any item is a clear error."""
    with pytest.raises(InvalidStream, match="has no items yet"):
        ollama.StreamAssembler().message()


def test_feeding_after_done() -> None:
    """An item after done: true is refused; the message is unchanged."""
    stream = assemble([item("a", done=True)])
    with pytest.raises(InvalidStream, match=r"^item\[1\]: must not follow the end of the stream"):
        stream.feed(item("b"))
    assert stream.message() == ChatMessage.assistant("a")


def test_snapshot_during_the_stream_does_not_disturb() -> None:
    """Snapshots show text and calls so far; a made-up id shows as None until done; the result is unchanged."""
    with_id = {"id": "call_1", "function": {"name": "get_time", "arguments": {}}}
    items = [item("Hel", calls=[WEATHER]), item("lo", calls=[with_id]), item(done=True, done_reason="stop")]
    stream = ollama.StreamAssembler()
    seen = []
    for one in items:
        stream.feed(one)
        seen.append(stream.snapshot())
    assert seen[0].tool_calls == (PartialToolCall(None, "get_weather", '{"city":"Tokyo"}'),)
    assert seen[1].content == "Hello"
    assert seen[1].tool_calls[1] == PartialToolCall("call_1", "get_time", "{}")
    final = stream.message()
    assert [c.id for c in seen[2].tool_calls] == [c.id for c in final.tool_calls or ()]
    assert seen[2].finish_reason == "stop"
    assert final == assemble(items).message()


def test_error_item_carries_the_provider_error() -> None:
    """An {"error": "..."} line mid-stream raises InvalidStream carrying Ollama's error."""
    stream = assemble([item("a")])
    with pytest.raises(InvalidStream) as caught:
        stream.feed({"error": "an error was encountered while running the model"})
    assert caught.value.provider_error == "an error was encountered while running the model"
    assert caught.value.path == "item[1].error"


# -- malformed items ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "path", "rule"),
    [
        ("x", "item[0]", "must be an object"),
        ({"done": True}, "item[0].message", "is required"),
        ({"message": "hi"}, "item[0].message", "must be an object"),
        (item(done="yes"), "item[0].done", "must be a boolean"),  # type: ignore[arg-type]
        (item(done_reason=1), "item[0].done_reason", "must be a string"),
        ({"message": {"role": "user", "content": "a"}}, "item[0].message.role", "must be 'assistant'"),
        ({"message": {"content": ["a"]}}, "item[0].message.content", "must be a string"),
        ({"message": {"tool_calls": {}}}, "item[0].message.tool_calls", "must be an array"),
    ],
)
def test_malformed_items_are_rejected_with_their_path(bad: Any, path: str, rule: str) -> None:
    """Each wrong shape raises InvalidStream whose path points inside the item."""
    with pytest.raises(InvalidStream) as caught:
        ollama.StreamAssembler().feed(bad)
    assert caught.value.path == path
    assert caught.value.rule.startswith(rule)


def test_malformed_call_is_reported_on_its_item() -> None:
    """A call without a name is an InvalidToolCall at the item that brought it, as from_response reports it."""
    stream = assemble([item("a")])
    with pytest.raises(InvalidToolCall) as caught:
        stream.feed(item(calls=[{"function": {"arguments": {}}}]))
    assert caught.value.path == "item[1].message.tool_calls[0].function.name"
    assert stream.message() == ChatMessage.assistant("a")
