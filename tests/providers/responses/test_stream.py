"""responses.StreamAssembler: the turn a streamed response gives is the turn its final response gives."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.property.strategies import json_values, mutated
from tests.test_stream_snapshots import assert_snapshots_agree
from toolturns import InvalidStream, MessageError, parse_sse
from toolturns.providers.responses.read import from_response
from toolturns.providers.responses.stream import ResponseBuilder, StreamAssembler

_DATA = Path(__file__).parents[2] / "data" / "responses"
_ENDED = ["stream_text", "stream_function_call", "stream_reasoning_call", "stream_incomplete"]


def _events(name: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = json.loads((_DATA / f"{name}.json").read_text("utf-8"))["events"]
    return events


def _assembled(events: list[dict[str, Any]]) -> StreamAssembler:
    stream = StreamAssembler()
    for event in events:
        stream.feed(event)
    return stream


def _without_encrypted_content(response: dict[str, Any]) -> dict[str, Any]:
    """OpenAI encrypts a reasoning item again each time it writes it: the stream's last
    ``output_item.done`` and the closing event's copy differ in ``encrypted_content`` only."""
    output = [{k: v for k, v in item.items() if k != "encrypted_content"} for item in response["output"]]
    return {**response, "output": output}


@pytest.mark.parametrize("name", _ENDED)
def test_the_streamed_turn_is_the_final_responses_turn(name: str) -> None:
    events = _events(name)
    stream = _assembled(events)
    assert stream.ended
    final = events[-1]["response"]
    if final["output"]:
        assert from_response(_without_encrypted_content(final)) == from_response(
            _without_encrypted_content(stream._builder.response())
        )
        if name != "stream_reasoning_call":
            assert stream.message() == from_response(final)
    assert stream.finish_reason == ("max_output_tokens" if name == "stream_incomplete" else "completed")
    assert stream.usage == final.get("usage")


@pytest.mark.parametrize("name", _ENDED)
def test_parse_sse_feeds_it(name: str) -> None:
    events = _events(name)
    text = "".join(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n" for event in events)
    stream = StreamAssembler()
    for item in parse_sse(text.splitlines()):
        stream.feed(item)
    assert stream.message() == _assembled(events).message()


@pytest.mark.parametrize(
    "name", ["stream_text", "stream_function_call", "stream_reasoning_call", "stream_incomplete"]
)
def test_a_message_after_snapshots_holds_what_came_since_the_last(name: str) -> None:
    """A snapshot every other event, and the message at each: what a stream never snapshotted gives."""
    events = _events(name)
    assert_snapshots_agree(StreamAssembler, events, range(1, len(events), 2))


def test_a_cut_stream_keeps_the_argument_text_so_far_and_snapshots_agree() -> None:
    """Cut anywhere, the call holds the argument text so far, byte for byte (a call with none
    yet reads as ``{}``, as every call without arguments does; its snapshot shows the raw text)."""
    events = _events("stream_function_call")
    deltas = ""
    stream = StreamAssembler()
    for event in events:
        stream.feed(event)
        if event["type"] == "response.function_call_arguments.delta":
            deltas += event["delta"]
        calls = stream.message().tool_calls
        if calls:
            assert stream.snapshot().tool_calls[0].id == calls[0].id
            assert stream.snapshot().tool_calls[0].arguments_json == deltas
            assert calls[0].arguments_json == (deltas or "{}")
    assert stream.ended


def test_snapshots_show_the_text_as_it_grows() -> None:
    events = _events("stream_text")
    stream = StreamAssembler()
    seen = []
    for event in events:
        stream.feed(event)
        seen.append(stream.snapshot().content)
    assert seen[-1] == stream.message().text
    assert all(later.startswith(earlier) or not earlier for earlier, later in itertools.pairwise(seen))


def test_a_failed_response_raises_and_ends_the_stream() -> None:
    stream = StreamAssembler()
    *events, failed = _events("stream_failed")
    for event in events:
        stream.feed(event)
    with pytest.raises(InvalidStream) as caught:
        stream.feed(failed)
    assert caught.value.path.startswith("item[")
    assert stream.ended
    assert stream.finish_reason == "failed"
    with pytest.raises(InvalidStream, match="must not follow the end"):
        stream.feed({"type": "response.completed"})


def test_nothing_fed_has_no_message() -> None:
    with pytest.raises(InvalidStream, match="has no items yet"):
        StreamAssembler().message()


@given(st.lists(st.one_of(json_values(), st.sampled_from(_events("stream_function_call"))), max_size=8))
def test_any_events_give_only_our_errors(events: list[Any]) -> None:
    stream = StreamAssembler()
    for event in events:
        try:
            stream.feed(event)
        except MessageError:
            break
    try:
        stream.message()
        stream.snapshot()
    except MessageError:
        pass


def test_a_snapshot_shows_the_first_messages_output_text_only() -> None:
    """The snapshot's text is the message from_response makes the turn's content of: a message with a
    refusal part is kept whole, so the first message of text only is the turn's."""
    stream = StreamAssembler()
    stream.feed(
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress", "output": []}}
    )
    stream.feed(
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "content": [{"type": "refusal", "refusal": "No."}, {"type": "output_text", "text": "Sorry."}],
            },
        }
    )
    stream.feed(
        {
            "type": "response.output_item.added",
            "output_index": 1,
            "item": {
                "id": "msg_2",
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Later."}],
            },
        }
    )
    assert stream.snapshot().content == "Later."
    assert stream.message().text == "Later."


def test_a_snapshot_of_a_refusal_only_has_no_text() -> None:
    """A message of a refusal alone is kept whole: the turn, and so the snapshot, has no text."""
    stream = StreamAssembler()
    stream.feed(
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress", "output": []}}
    )
    refusal = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": [{"type": "refusal", "refusal": "No."}],
    }
    stream.feed({"type": "response.output_item.added", "output_index": 0, "item": refusal})
    assert (stream.snapshot().content, stream.message().content) == ("", "")


def test_a_snapshot_shows_a_message_given_as_text() -> None:
    """An item whose content is a string is the turn's text, in the snapshot as in message()."""
    stream = StreamAssembler()
    stream.feed(
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress", "output": []}}
    )
    message = {"id": "msg_1", "type": "message", "role": "assistant", "content": "Sunny."}
    stream.feed({"type": "response.output_item.added", "output_index": 0, "item": message})
    assert (stream.snapshot().content, stream.message().content) == ("Sunny.", "Sunny.")


def _outcome(feed: Any, events: list[Any]) -> tuple[int, str]:
    """How far ``feed`` took the events, and the error it stopped with ('' when none)."""
    for number, event in enumerate(events):
        try:
            feed(event)
        except MessageError as error:
            return number, str(error)
    return len(events), ""


_RECORDED = st.sampled_from([_events(name) for name in _ENDED])


_ODD: list[object] = [None, 0, 1, 2, "0", "fc_x", "", [], "response.output_text.delta"]


@st.composite
def _fragments_edited(draw: st.DrawFn) -> list[Any]:
    """A recorded stream whose argument fragments have their keys edited: what the fast path must
    decline (another item's id or index, a missing or odd value) or take as the general path does."""
    recorded = draw(st.sampled_from([_events(name) for name in _ENDED]))
    events = [dict(event) for event in recorded]
    fragments = [n for n, event in enumerate(events) if event["type"].endswith("arguments.delta")]
    edited: list[int] = draw(st.lists(st.sampled_from(fragments), max_size=3)) if fragments else []
    for number in edited:
        key = draw(st.sampled_from(["item_id", "output_index", "delta", "type"]))
        odd: object = draw(st.sampled_from(_ODD))
        if draw(st.booleans()):
            events[number].pop(key, None)
        else:
            events[number][key] = odd
    again: bool = draw(st.booleans())
    if fragments and again:  # a fragment after its call's arguments, or the call, are done
        closing = (
            "response.function_call_arguments.done" if draw(st.booleans()) else "response.output_item.done"
        )
        after = next(n for n, event in enumerate(events) if event.get("type") == closing)
        events.insert(after + 1, dict(recorded[fragments[-1]]))
    if draw(st.booleans()):  # the item done without its arguments' done event (the item brings them)
        events = [event for event in events if event.get("type") != "response.function_call_arguments.done"]
    return events


@given(events=st.one_of(mutated(_RECORDED), _fragments_edited()))
def test_the_delta_fast_path_takes_what_the_general_path_takes(events: list[Any]) -> None:
    """An assembler (which takes argument fragments in one call) and one whose builder takes every
    event the general way take the same events, stop at the same one with the same error, and
    build the same turn."""
    stream, general = StreamAssembler(), StreamAssembler()
    general._builder = _General()
    assert _outcome(stream.feed, events) == _outcome(general.feed, events)
    assert stream._builder.items() == general._builder.items()
    assert _outcome(lambda _: stream.message(), [None]) == _outcome(lambda _: general.message(), [None])


class _General(ResponseBuilder):
    """A builder without the fragment fast path."""

    def took_delta(self, event: dict[str, Any]) -> bool:
        return False


def test_a_server_that_streams_no_item_gives_the_closing_output() -> None:
    """Only response.created and response.completed: the closing response's output is the turn."""
    final = _events("stream_function_call")[-1]["response"]
    stream = StreamAssembler()
    stream.feed({"type": "response.created", "response": {**final, "status": "in_progress", "output": []}})
    stream.feed({"type": "response.completed", "response": final})
    assert stream.message() == from_response(final)
    assert stream.message().tool_calls


@pytest.mark.parametrize(
    ("edit", "error"),
    [
        ("after_item_done", "must name an output item not done yet"),
        ("after_arguments_done", "must name a call whose arguments are not done yet"),
        ("other_item_id", "must be the id of output item 1"),
        ("delta_not_text", "delta: must be a string"),
        ("not_a_call", "must name a function_call item"),
    ],
)
def test_a_fragment_the_fast_path_declines_is_refused_as_the_general_path_refuses(
    edit: str, error: str
) -> None:
    events = _events("stream_reasoning_call")
    fragment = dict(next(event for event in events if event["type"].endswith("arguments.delta")))
    if edit == "not_a_call":  # the reasoning item's index and id
        reasoning = events[2]["item"]
        at, fragment = 3, {**fragment, "output_index": 0, "item_id": reasoning["id"]}
    elif edit == "after_item_done":
        events = [event for event in events if event["type"] != "response.function_call_arguments.done"]
        at = max(n for n, event in enumerate(events) if event["type"] == "response.output_item.done") + 1
    elif edit == "after_arguments_done":
        at = next(n for n, event in enumerate(events) if event["type"].endswith("arguments.done")) + 1
    else:
        at = next(n for n, event in enumerate(events) if event["type"].endswith("arguments.delta"))
        fragment = {**fragment, **({"item_id": "fc_other"} if edit == "other_item_id" else {"delta": 5})}
    events.insert(at, fragment)
    for assembler in (StreamAssembler(), _general()):
        assert at == _outcome(assembler.feed, events)[0]
        with pytest.raises(InvalidStream, match=re.escape(error)):
            assembler.feed(events[at])


def _general() -> StreamAssembler:
    stream = StreamAssembler()
    stream._builder = _General()
    return stream


def test_the_snapshot_of_a_stream_of_no_item_shows_the_closing_output() -> None:
    """Where the closing response brings the only output, the snapshot shows it, as message() does
    (found by the responses_stream target); anything in it that is no item is left to message()."""
    final = _events("stream_function_call")[-1]["response"]
    stream = StreamAssembler()
    stream.feed({"type": "response.created", "response": {**final, "status": "in_progress", "output": []}})
    stream.feed({"type": "response.completed", "response": {**final, "output": [5, *final["output"]]}})
    assert [call.name for call in stream.snapshot().tool_calls] == ["get_weather"]
    with pytest.raises(MessageError):
        stream.message()
