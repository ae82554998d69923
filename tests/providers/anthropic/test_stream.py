"""The Anthropic stream assembler: every Anthropic bullet of issue #4, the golden streams, truncation, the live view."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.conftest import wire_examples
from toolturns import (
    ChatMessage,
    InvalidArguments,
    InvalidMessage,
    InvalidStream,
    InvalidToolCall,
    MessageError,
    PartialToolCall,
    ToolCall,
    anthropic,
    parse_sse,
)

STREAMS = {e["id"]: [item["data"] for item in e["data"]] for e in wire_examples("anthropic", "stream_chunks")}
COMPLETE = ["anthropic-stream-tool-use-only", "anthropic-stream-text-then-tool-use"]

START = {"type": "message_start", "message": {"type": "message", "role": "assistant", "content": []}}
STOP = {"type": "message_stop"}


def block_start(index: int, block: dict[str, Any]) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


def delta(index: int, kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": {"type": kind, **fields}}


def block_stop(index: int) -> dict[str, Any]:
    return {"type": "content_block_stop", "index": index}


def message_delta(stop_reason: str | None, **usage: int) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "message_delta", "delta": {"stop_reason": stop_reason}}
    if usage:
        event["usage"] = usage
    return event


def assemble(events: list[Any]) -> anthropic.StreamAssembler:
    assembler = anthropic.StreamAssembler()
    for event in events:
        assembler.feed(event)
    return assembler


def equivalent_response(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The non-streamed Message the events spell: block starts with their deltas applied."""
    blocks: list[dict[str, Any]] = []
    json_parts: dict[int, list[str]] = {}
    reason = None
    for event in events:
        if event["type"] == "content_block_start":
            blocks.append(copy.deepcopy(event["content_block"]))
        elif event["type"] == "content_block_delta":
            block, change = blocks[event["index"]], event["delta"]
            if change["type"] == "text_delta":
                block["text"] += change["text"]
            elif change["type"] == "thinking_delta":
                block["thinking"] += change["thinking"]
            elif change["type"] == "signature_delta":
                block["signature"] += change["signature"]
            elif change["type"] == "input_json_delta":
                json_parts.setdefault(event["index"], []).append(change["partial_json"])
        elif event["type"] == "message_delta":
            reason = event["delta"]["stop_reason"]
    for index, parts in json_parts.items():
        if "".join(parts).strip():
            blocks[index]["input"] = json.loads("".join(parts))
    return {"type": "message", "role": "assistant", "content": blocks, "stop_reason": reason}


def thinking_stream() -> list[dict[str, Any]]:
    """A stream with thinking, redacted thinking, text and a tool_use with an extra key."""
    return [
        START,
        block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
        delta(0, "thinking_delta", thinking="The user wants "),
        delta(0, "thinking_delta", thinking="the weather."),
        delta(0, "signature_delta", signature="EqQBCgIYAhIM1gbcDa9GJwZA2b3h"),
        block_stop(0),
        block_start(1, {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"}),
        block_stop(1),
        block_start(2, {"type": "text", "text": ""}),
        {"type": "ping"},
        delta(2, "text_delta", text="Let me "),
        delta(2, "text_delta", text="check."),
        block_stop(2),
        block_start(
            3,
            {
                "type": "tool_use",
                "id": "toolu_9",
                "name": "get_weather",
                "input": {},
                "caller": {"type": "direct"},
            },
        ),
        delta(3, "input_json_delta", partial_json=""),
        delta(3, "input_json_delta", partial_json='{"city": '),
        delta(3, "input_json_delta", partial_json='"Paris"}'),
        block_stop(3),
        message_delta("tool_use", output_tokens=80),
        STOP,
    ]


# -- the golden streams -----------------------------------------------------------------


@pytest.mark.parametrize("example", COMPLETE)
def test_golden_stream_assembles_like_from_response(example: str) -> None:
    """A recorded stream assembles into the ChatMessage from_response gives for the same response sent whole."""
    events = STREAMS[example]
    assembler = assemble(events)
    assert assembler.message() == anthropic.from_response(equivalent_response(events))
    assert assembler.finish_reason == "tool_use"
    assert assembler.ended


def test_golden_tool_use_only_keeps_caller_and_raw_text() -> None:
    """The tool_use block's caller key is kept as from_response keeps it, and the argument text is the model's own."""
    call = assemble(STREAMS["anthropic-stream-tool-use-only"]).message().tool_calls
    assert call is not None
    assert call[0].arguments_json == '{"location": "San Francisco, CA", "units": "f"}'
    assert call[0].provider_data == {"anthropic": {"keys": {"caller": {"type": "direct"}}}}


def test_golden_usage_is_message_start_updated_by_message_delta() -> None:
    """usage is message_start's usage with message_delta's counts laid over it."""
    usage = assemble(STREAMS["anthropic-stream-text-then-tool-use"]).usage
    assert usage is not None
    assert usage["input_tokens"] == 377
    assert usage["output_tokens"] == 65


def test_golden_stream_through_parse_sse() -> None:
    """The raw SSE lines of a recorded stream, read by parse_sse, assemble the same message."""
    example = next(e for e in wire_examples("anthropic", "stream_chunks") if e["id"] == COMPLETE[1])
    lines: list[str] = []
    for item in example["data"]:
        lines += [f"event: {item['event']}", f"data: {json.dumps(item['data'])}", ""]
    assert assemble(list(parse_sse(lines))).message() == assemble(STREAMS[COMPLETE[1]]).message()


# -- truncation -------------------------------------------------------------------------


def test_truncated_mid_json_keeps_the_raw_partial_text() -> None:
    """max_tokens mid-arguments: the call keeps its raw partial text, .arguments raises, finish_reason says why."""
    events = STREAMS["anthropic-stream-truncated-mid-json"]
    assembler = assemble(events)
    message = assembler.message()
    assert assembler.finish_reason == "max_tokens"
    assert assembler.ended  # message_stop arrived: the stream itself ended cleanly
    assert message.text.startswith("I'll create a comprehensive tax guide")
    assert message.tool_calls is not None
    (call,) = message.tool_calls
    expected = "".join(
        e["delta"]["partial_json"] for e in events if e["type"] == "content_block_delta" and e["index"] == 1
    )
    assert (call.id, call.name, call.arguments_json) == (
        "toolu_01EKqbqmZrGRXy18eN7m9kvY",
        "make_file",
        expected,
    )
    with pytest.raises(InvalidArguments) as caught:
        _ = call.arguments
    assert caught.value.raw == expected


def test_stream_cut_off_before_message_stop_is_not_ended() -> None:
    """A stream that stops without message_stop is not ended and keeps what arrived, unrepaired."""
    events = STREAMS["anthropic-stream-tool-use-only"][:7]
    assembler = assemble(events)
    assert not assembler.ended
    assert assembler.finish_reason is None
    message = assembler.message()
    assert message.tool_calls is not None
    assert message.tool_calls[0].arguments_json == '{"locatio'


def test_truncated_server_tool_input_is_kept_wrapped() -> None:
    """An unmodelled block whose streamed input was cut off keeps the raw text wrapped as _toolturns_raw_arguments."""
    events = [
        START,
        block_start(0, {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}),
        delta(0, "input_json_delta", partial_json='{"query": "wea'),
        message_delta("max_tokens"),
        STOP,
    ]
    message = assemble(events).message()
    assert message.provider_data["anthropic"]["items"] == [
        [
            0,
            {
                "type": "server_tool_use",
                "id": "srvtoolu_1",
                "name": "web_search",
                "input": {"_toolturns_raw_arguments": '{"query": "wea'},
            },
        ]
    ]


# -- thinking, kept blocks, ids -----------------------------------------------------------


def test_thinking_and_signature_are_kept_like_from_response() -> None:
    """Thinking (text and signature joined) and redacted thinking are kept with their positions, as from_response keeps them."""
    events = thinking_stream()
    message = assemble(events).message()
    assert message == anthropic.from_response(equivalent_response(events))
    assert message.provider_data["anthropic"]["items"] == [
        [
            0,
            {
                "type": "thinking",
                "thinking": "The user wants the weather.",
                "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3h",
            },
        ],
        [1, {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"}],
    ]


def test_assembled_turn_replays_like_a_non_streamed_one() -> None:
    """to_request of the assembled turn sends back the blocks of the equivalent response, in place."""
    events = thinking_stream()
    body = anthropic.to_request([ChatMessage.user("Weather?"), assemble(events).message()])
    blocks = equivalent_response(events)["content"]
    assert body["messages"][1]["content"] == blocks


def test_unmodelled_blocks_are_kept_with_their_streamed_input() -> None:
    """server_tool_use (input streamed as JSON) and web_search_tool_result are kept like from_response keeps them."""
    result = {
        "type": "web_search_tool_result",
        "tool_use_id": "srvtoolu_1",
        "content": [{"type": "web_search_result", "url": "https://example.com"}],
    }
    events = [
        START,
        block_start(0, {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}),
        delta(0, "input_json_delta", partial_json=""),
        delta(0, "input_json_delta", partial_json='{"query": "weather"}'),
        block_stop(0),
        block_start(1, result),
        block_stop(1),
        block_start(2, {"type": "text", "text": "Sunny."}),
        block_stop(2),
        message_delta("end_turn"),
        STOP,
    ]
    message = assemble(events).message()
    assert message == anthropic.from_response(equivalent_response(events))
    assert message.content == "Sunny."


def test_unmodelled_block_without_input_deltas_is_kept_as_started() -> None:
    """A server_tool_use whose input came whole in its start is kept as it started."""
    started = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "x"}}
    message = assemble([START, block_start(0, started), block_stop(0), STOP]).message()
    assert message.provider_data["anthropic"]["items"] == [[0, started]]


def test_encoded_ids_are_decoded_like_from_response() -> None:
    """A tool_use id toolturns encoded (tt-...) reads back as the original id, as from_response reads it."""
    events = [
        START,
        block_start(0, {"type": "tool_use", "id": "tt-functions-2e_get-3a_0", "name": "get", "input": {}}),
        block_stop(0),
        STOP,
    ]
    message = assemble(events).message()
    assert message == anthropic.from_response(equivalent_response(events))
    assert message.tool_calls is not None
    assert message.tool_calls[0].id == "functions.get:0"


def test_call_without_argument_deltas_has_empty_arguments() -> None:
    """A tool_use whose partial_json fragments are all blank has the arguments {} of its start."""
    events = [
        START,
        block_start(0, {"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {}}),
        delta(0, "input_json_delta", partial_json=""),
        delta(0, "input_json_delta", partial_json=" "),
        block_stop(0),
        STOP,
    ]
    message = assemble(events).message()
    assert message.tool_calls is not None
    assert message.tool_calls == (ToolCall("toolu_1", "get_time"),)
    assert message.tool_calls[0].arguments_json == "{}"


def test_citations_deltas_are_skipped_like_from_response() -> None:
    """citations_delta on a text block is skipped: from_response does not keep text-block citations either."""
    events = [
        START,
        block_start(0, {"type": "text", "text": ""}),
        delta(0, "citations_delta", citation={"type": "char_location", "cited_text": "x"}),
        delta(0, "text_delta", text="Cited."),
        block_stop(0),
        STOP,
    ]
    assert assemble(events).message() == ChatMessage.assistant("Cited.")


def test_ping_and_unknown_event_types_are_skipped() -> None:
    """ping (also before message_start) and event types added later are skipped, as Anthropic asks."""
    events = [
        {"type": "ping"},
        START,
        {"type": "future_event", "x": 1},
        block_start(0, {"type": "text", "text": "Hi"}),
        STOP,
    ]
    assert assemble(events).message() == ChatMessage.assistant("Hi")


def test_empty_stream_message_is_empty_assistant_turn() -> None:
    """A stream of message_start and message_stop only assembles an empty assistant turn."""
    assert assemble([START, message_delta("end_turn"), STOP]).message() == ChatMessage.assistant("")


# -- errors and life cycle ----------------------------------------------------------------


def test_error_event_raises_with_the_provider_error() -> None:
    """An error event raises InvalidStream carrying the provider's error object and naming the item."""
    error = {"type": "overloaded_error", "message": "Overloaded"}
    assembler = assemble([START])
    with pytest.raises(InvalidStream) as caught:
        assembler.feed({"type": "error", "error": error})
    assert caught.value.provider_error == error
    assert caught.value.path == "item[1].error"
    assert "overloaded_error" in str(caught.value)


def test_error_event_with_malformed_error_still_raises_invalid_stream() -> None:
    """An error event whose error is not an object raises InvalidStream carrying that value."""
    with pytest.raises(InvalidStream) as caught:
        assemble([{"type": "error", "error": "boom"}])
    assert caught.value.provider_error == "boom"


def test_message_before_anything_fed_raises() -> None:
    """message() before any event raises InvalidStream."""
    with pytest.raises(InvalidStream, match="feed the stream"):
        anthropic.StreamAssembler().message()


def test_feeding_after_message_stop_raises() -> None:
    """An event after message_stop raises InvalidStream naming its item."""
    assembler = assemble(STREAMS["anthropic-stream-tool-use-only"])
    with pytest.raises(InvalidStream) as caught:
        assembler.feed({"type": "ping"})
    assert caught.value.path == f"item[{len(STREAMS['anthropic-stream-tool-use-only'])}]"


def test_call_whose_id_never_arrived_is_named_by_message() -> None:
    """A tool_use start without id: message() raises naming the block, snapshot() shows None."""
    assembler = assemble([START, block_start(0, {"type": "tool_use", "name": "get", "input": {}})])
    assert assembler.snapshot().tool_calls == (PartialToolCall(None, "get", ""),)
    with pytest.raises(InvalidStream) as caught:
        assembler.message()
    assert caught.value.path == "content[0].id"


def test_call_whose_name_never_arrived_is_named_by_message() -> None:
    """A tool_use start without name: message() raises naming the block, snapshot() shows None."""
    assembler = assemble([START, block_start(0, {"type": "tool_use", "id": "toolu_1", "input": {}})])
    assert assembler.snapshot().tool_calls == (PartialToolCall("toolu_1", None, ""),)
    with pytest.raises(InvalidStream, match="name never arrived") as caught:
        assembler.message()
    assert caught.value.path == "content[0].name"


# -- the live view ----------------------------------------------------------------------


def test_snapshot_during_the_stream_does_not_disturb() -> None:
    """snapshot() at every step shows the text and partial calls so far, and the message is unchanged by it."""
    events = STREAMS["anthropic-stream-text-then-tool-use"]
    assembler = anthropic.StreamAssembler()
    seen = []
    for event in events:
        assembler.feed(event)
        seen.append(assembler.snapshot())
    assert seen[0].content == ""
    assert seen[0].tool_calls == ()
    assert seen[4].content == "I'll check the current weather in Paris for you."
    assert seen[8].tool_calls == (
        PartialToolCall("toolu_01NRLabsLyVHZPKxbKvkfSMn", "get_weather", '{"locati'),
    )
    assert seen[-1].finish_reason == "tool_use"
    assert assembler.message() == assemble(events).message()


def test_snapshot_decodes_encoded_ids() -> None:
    """snapshot() shows a call's decoded id, as message() will."""
    assembler = assemble(
        [START, block_start(0, {"type": "tool_use", "id": "tt-a-2e_b", "name": "f", "input": {}})]
    )
    assert assembler.snapshot().tool_calls[0].id == "a.b"


# -- rejections ---------------------------------------------------------------------------

TEXT0 = block_start(0, {"type": "text", "text": ""})
TOOL0 = block_start(0, {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}})
THINK0 = block_start(0, {"type": "thinking", "thinking": "", "signature": ""})

REJECTED: list[tuple[str, list[Any], str]] = [
    ("not an object", [[]], "item[0]"),
    ("no type", [{"index": 0}], "item[0].type"),
    ("delta before message_start", [delta(0, "text_delta", text="x")], "item[0].type"),
    ("second message_start", [START, START], "item[1].type"),
    ("message not object", [{"type": "message_start", "message": []}], "item[0].message"),
    ("role not assistant", [{"type": "message_start", "message": {"role": "user"}}], "item[0].message.role"),
    (
        "content not empty",
        [{"type": "message_start", "message": {"content": [{"type": "text", "text": "x"}]}}],
        "item[0].message.content",
    ),
    ("usage not object", [{"type": "message_start", "message": {"usage": 5}}], "item[0].message.usage"),
    ("index not int", [START, block_start(True, {"type": "text", "text": ""})], "item[1].index"),
    ("index negative", [START, {"type": "content_block_stop", "index": -1}], "item[1].index"),
    ("index skips", [START, block_start(1, {"type": "text", "text": ""})], "item[1].index"),
    ("index repeats", [START, TEXT0, TEXT0], "item[2].index"),
    ("delta to unstarted block", [START, delta(0, "text_delta", text="x")], "item[1].index"),
    ("delta after stop", [START, TEXT0, block_stop(0), delta(0, "text_delta", text="x")], "item[3].index"),
    ("stop twice", [START, TEXT0, block_stop(0), block_stop(0)], "item[3].index"),
    (
        "block not object",
        [START, {"type": "content_block_start", "index": 0, "content_block": "x"}],
        "item[1].content_block",
    ),
    ("block type missing", [START, block_start(0, {"text": ""})], "item[1].content_block.type"),
    (
        "tool_result block",
        [START, block_start(0, {"type": "tool_result", "tool_use_id": "x"})],
        "item[1].content_block.type",
    ),
    ("text not string", [START, block_start(0, {"type": "text", "text": 5})], "item[1].content_block.text"),
    (
        "thinking not string",
        [START, block_start(0, {"type": "thinking", "thinking": 5})],
        "item[1].content_block.thinking",
    ),
    (
        "id not string",
        [START, block_start(0, {"type": "tool_use", "id": 5, "name": "f", "input": {}})],
        "item[1].content_block.id",
    ),
    (
        "id badly encoded",
        [START, block_start(0, {"type": "tool_use", "id": "tt-!", "name": "f", "input": {}})],
        "item[1].content_block.id",
    ),
    (
        "name empty",
        [START, block_start(0, {"type": "tool_use", "id": "t", "name": "", "input": {}})],
        "item[1].content_block.name",
    ),
    (
        "input not object",
        [START, block_start(0, {"type": "tool_use", "id": "t", "name": "f", "input": "{}"})],
        "item[1].content_block.input",
    ),
    (
        "input not JSON",
        [START, block_start(0, {"type": "tool_use", "id": "t", "name": "f", "input": {"x": float("nan")}})],
        "item[1].content_block.input.x",
    ),
    (
        "delta not object",
        [START, TEXT0, {"type": "content_block_delta", "index": 0, "delta": 1}],
        "item[2].delta",
    ),
    ("text delta to tool_use", [START, TOOL0, delta(0, "text_delta", text="x")], "item[2].delta.type"),
    (
        "json delta to text",
        [START, TEXT0, delta(0, "input_json_delta", partial_json="{")],
        "item[2].delta.type",
    ),
    (
        "json delta to thinking",
        [START, THINK0, delta(0, "input_json_delta", partial_json="{")],
        "item[2].delta.type",
    ),
    (
        "delta type missing",
        [START, TEXT0, {"type": "content_block_delta", "index": 0, "delta": {}}],
        "item[2].delta.type",
    ),
    (
        "fragment not string",
        [START, TOOL0, delta(0, "input_json_delta", partial_json=None)],
        "item[2].delta.partial_json",
    ),
    (
        "signature not string",
        [START, THINK0, delta(0, "signature_delta", signature=1)],
        "item[2].delta.signature",
    ),
    (
        "arguments given twice",
        [
            START,
            block_start(0, {"type": "tool_use", "id": "t", "name": "f", "input": {"a": 1}}),
            delta(0, "input_json_delta", partial_json="{"),
        ],
        "item[2].delta.partial_json",
    ),
    ("message_delta without delta", [START, {"type": "message_delta"}], "item[1].delta"),
    ("stop_reason not string", [START, message_delta(5)], "item[1].delta.stop_reason"),  # type: ignore[arg-type]
    (
        "message_delta usage not object",
        [START, {"type": "message_delta", "delta": {}, "usage": []}],
        "item[1].usage",
    ),
]


@pytest.mark.parametrize(("events", "path"), [(e, p) for _, e, p in REJECTED], ids=[r[0] for r in REJECTED])
def test_malformed_events_are_rejected_with_a_path(events: list[Any], path: str) -> None:
    """A malformed or out-of-order event raises a MessageError whose path names the item and the key."""
    assembler = anthropic.StreamAssembler()
    for event in events[:-1]:
        assembler.feed(event)
    with pytest.raises(MessageError) as caught:
        assembler.feed(events[-1])
    assert caught.value.path == path


def test_duplicate_tool_use_ids_are_rejected() -> None:
    """Two tool_use blocks with the same id raise InvalidToolCall naming the first block, as from_response does."""
    second = block_start(1, {"type": "tool_use", "id": "toolu_1", "name": "g", "input": {}})
    with pytest.raises(InvalidToolCall, match="content block 0 has it too") as caught:
        assemble([START, TOOL0, block_stop(0), second])
    assert caught.value.path == "item[3].content_block.id"


def test_a_block_and_delta_type_added_later_never_abort_the_stream() -> None:
    """A block type toolturns does not model with its own delta type (compaction, compaction_delta): the
    stream goes on, the block is kept with its deltas as they came, and writing it back is refused, located."""
    events = [
        START,
        block_start(0, {"type": "compaction", "content": ""}),
        delta(0, "compaction_delta", content="Earlier: the user asked for Paris."),
        block_stop(0),
        block_start(1, {"type": "text", "text": ""}),
        delta(1, "text_delta", text="Sunny."),
        block_stop(1),
        message_delta("end_turn"),
        STOP,
    ]
    stream = assemble(events)
    turn = stream.message()
    assert turn.content == "Sunny."
    [[position, kept]] = turn.provider_data["anthropic"]["items"]
    assert position == 0
    assert kept["type"] == "compaction"
    assert kept["_toolturns_unassembled_deltas"] == [
        {"type": "compaction_delta", "content": "Earlier: the user asked for Paris."}
    ]
    with pytest.raises(InvalidMessage) as caught:
        anthropic.to_request([ChatMessage.user("Weather?"), turn])
    assert (
        caught.value.path == "messages[1].provider_data.anthropic.items[0][1]._toolturns_unassembled_deltas"
    )
    assert "cannot assemble" in caught.value.rule


def test_an_unknown_delta_type_of_a_modelled_block_is_still_an_error() -> None:
    """On a text block an unknown delta would change the text it models: refused, not skipped."""
    events = [START, block_start(0, {"type": "text", "text": ""}), delta(0, "shiny_delta", text="x")]
    with pytest.raises(InvalidStream, match=r"delta\.type: must be one of citations_delta, text_delta"):
        assemble(events)
