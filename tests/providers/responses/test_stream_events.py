"""The Responses event accumulator: recorded streams give back the response the closing event carries.

The goldens in tests/data/responses/stream_*.json are real streams (each file
says where it came from): text, a function call, a reasoning item with
``encrypted_content``, a response cut off by ``max_output_tokens``, a failed
one.
"""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path
from typing import Any

import httpx2
import pytest
from hypothesis import given
from hypothesis import strategies as st
from openai import OpenAI
from openai.types.responses import ResponseStreamEvent
from pydantic import TypeAdapter

from tests.growth import BOUND, growth
from tests.property.strategies import json_values
from tests.sdk.recorded import RecordedServer, sse_reply
from toolturns import InvalidStream, parse_sse
from toolturns.providers.responses.stream import ResponseBuilder

_DATA = Path(__file__).parents[2] / "data" / "responses"
_COMPLETE = ["stream_text", "stream_function_call", "stream_reasoning_call"]
_GOLDENS = [*_COMPLETE, "stream_incomplete"]
_EVENTS: TypeAdapter[ResponseStreamEvent] = TypeAdapter(ResponseStreamEvent)


def _events(name: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = json.loads((_DATA / f"{name}.json").read_text())["events"]
    return events


def _built(events: list[Any]) -> ResponseBuilder:
    builder = ResponseBuilder()
    for event in events:
        builder.feed(event)
    return builder


def _sse(events: list[dict[str, Any]]) -> bytes:
    return sse_reply({"event": event["type"], "data": event} for event in events).body


def _without_encrypted_content(response: dict[str, Any]) -> dict[str, Any]:
    # OpenAI encrypts a reasoning item anew each time it writes it: the
    # output_item.done and the response.completed of one stream differ.
    response = copy.deepcopy(response)
    for item in response["output"]:
        item.pop("encrypted_content", None)
    return response


def _as_far_as_carried(built: dict[str, Any], final: dict[str, Any]) -> None:
    """The built response equals the closing event's, its output where that event carries one."""
    if final["output"]:
        assert _without_encrypted_content(built) == _without_encrypted_content(final)
    else:
        assert {**built, "output": []} == final


# -- the goldens ------------------------------------------------------------------------


@pytest.mark.parametrize("name", _GOLDENS)
def test_a_recorded_stream_gives_the_response_its_closing_event_carries(name: str) -> None:
    events = _events(name)
    builder = _built(events)
    assert builder.ended
    _as_far_as_carried(builder.response(), events[-1]["response"])
    assert builder.usage == events[-1]["response"].get("usage")


@pytest.mark.parametrize("name", _GOLDENS)
def test_parse_sse_feeds_the_builder_the_same_events(name: str) -> None:
    events = _events(name)
    assert _built(list(parse_sse(_sse(events)))).response() == _built(events).response()


# stream_text's responses lack keys the SDK's Response requires (``tools``...):
# the client parses them leniently (see the client test below), TypeAdapter not.
@pytest.mark.parametrize("name", ["stream_function_call", "stream_reasoning_call", "stream_incomplete"])
def test_the_sdks_own_parsed_events_give_the_same_response(name: str) -> None:
    events = _events(name)
    parsed = [_EVENTS.validate_python(event) for event in events]
    assert _built(parsed).response() == _built(events).response()


def test_the_reasoning_items_encrypted_content_is_the_one_its_done_event_brought() -> None:
    events = _events("stream_reasoning_call")
    added, done = (
        e["item"] for e in events if e["type"].startswith("response.output_item") and e["output_index"] == 0
    )
    (reasoning, call) = _built(events).response()["output"]
    assert reasoning["encrypted_content"] == done["encrypted_content"] != added["encrypted_content"]
    assert call["call_id"] == "call_LUBOONF2cY8HDQdBwiEQ9fk1"


@pytest.mark.parametrize("name", ["stream_text", "stream_function_call"])
def test_items_built_from_deltas_alone_equal_the_final_ones_but_for_their_status(name: str) -> None:
    """Without the output_item.done events, the text and arguments come from the deltas, joined."""
    events = _events(name)
    deltas_only = [e for e in events if e["type"] not in ("response.output_item.done", "response.completed")]
    built = _built(deltas_only).items()
    assert built == [{**item, "status": "in_progress"} for item in events[-1]["response"]["output"]]


def test_the_incomplete_stream_keeps_its_cut_text_and_says_why() -> None:
    builder = _built(_events("stream_incomplete"))
    assert builder.finish_reason == "max_output_tokens"
    (message,) = builder.response()["output"]
    assert message["status"] == "in_progress"
    assert message["content"] == [{"type": "output_text", "text": '{"val', "annotations": [], "logprobs": []}]


def test_the_finish_reason_is_the_status_or_the_incomplete_reason() -> None:
    assert _built(_events("stream_text")).finish_reason == "completed"
    events = _events("stream_incomplete")
    events[-1]["response"]["incomplete_details"] = {"reason": "content_filter"}
    assert _built(events).finish_reason == "content_filter"
    events[-1]["response"]["incomplete_details"] = None
    assert _built(events).finish_reason == "incomplete"


def test_a_stream_cut_anywhere_keeps_the_argument_text_so_far_byte_for_byte() -> None:
    events = _events("stream_function_call")
    for cut in range(3, 9):
        builder = _built(events[:cut])
        sent = "".join(e["delta"] for e in events[:cut] if e["type"].endswith("arguments.delta"))
        assert builder.items()[0]["arguments"] == sent
        assert not builder.ended
        assert builder.finish_reason is None
        assert builder.response()["status"] == "in_progress"


def test_a_view_after_every_event_ends_as_the_response() -> None:
    events = _events("stream_reasoning_call")
    builder = ResponseBuilder()
    for event in events:
        builder.feed(event)
        builder.items()
    assert builder.items() == _built(events).response()["output"]


def test_what_was_fed_may_change_afterwards() -> None:
    events = _events("stream_text")
    builder = _built(events)
    kept = builder.response()
    for event in events:
        event.clear()
    assert builder.response() == kept


def test_the_response_is_a_copy_the_caller_may_change() -> None:
    builder = _built(_events("stream_text"))
    builder.response()["output"][0]["content"].clear()
    assert builder.response()["output"][0]["content"]


# -- failures ---------------------------------------------------------------------------


def test_a_failed_response_raises_with_its_error_and_is_still_given() -> None:
    created, failed = _events("stream_failed")
    builder = _built([created])
    with pytest.raises(InvalidStream, match=r"^item\[1\]\.response\.error: the provider reported") as raised:
        builder.feed(failed)
    assert raised.value.provider_error == failed["response"]["error"]
    assert builder.ended
    assert builder.finish_reason == "failed"
    assert builder.response() == failed["response"]


def test_an_error_event_raises_with_the_event_and_ends_the_stream() -> None:
    builder = _built(_events("stream_text")[:5])
    error = {"type": "error", "code": "server_error", "message": "The server had an error", "param": None}
    with pytest.raises(InvalidStream, match=r"^item\[5\]: the provider reported an error") as raised:
        builder.feed(error)
    assert raised.value.provider_error == error
    with pytest.raises(InvalidStream, match=r"^item\[5\]: must not follow the end"):
        builder.feed(_events("stream_text")[5])


_CREATED: dict[str, Any] = {
    "type": "response.created",
    "response": {"id": "resp_1", "status": "in_progress", "output": []},
}
_CALL: dict[str, Any] = {
    "type": "response.output_item.added",
    "output_index": 0,
    "item": {"id": "fc_1", "type": "function_call", "call_id": "call_1", "name": "f", "arguments": ""},
}
_MESSAGE: dict[str, Any] = {
    "type": "response.output_item.added",
    "output_index": 0,
    "item": {"id": "msg_1", "type": "message", "role": "assistant", "content": []},
}
_REFUSAL_PART: dict[str, Any] = {
    "type": "response.content_part.added",
    "item_id": "msg_1",
    "output_index": 0,
    "content_index": 0,
    "part": {"type": "refusal", "refusal": ""},
}


def _arguments(kind: str = "delta", **keys: object) -> dict[str, Any]:
    event = {"type": f"response.function_call_arguments.{kind}", "item_id": "fc_1", "output_index": 0}
    return {**event, ("delta" if kind == "delta" else "arguments"): "{}", **keys}


_CALL_DONE: dict[str, Any] = {
    "type": "response.output_item.done",
    "output_index": 0,
    "item": {**_CALL["item"], "status": "completed"},
}
_COMPLETED: dict[str, Any] = {
    "type": "response.completed",
    "response": {"id": "resp_1", "status": "completed", "output": []},
}

_BAD = [
    ([42], "item[0]", "must be an object"),
    ([{"type": 7}], "item[0].type", "must be a string"),
    ([_CALL], "item[0].type", "must be 'response.created' first"),
    ([_CREATED, _CREATED], "item[1].type", "must come once"),
    ([_CREATED, {"type": "response.in_progress", "response": []}], "item[1].response", "must be an object"),
    (
        [_CREATED, {"type": "response.something", "output_index": 0}],
        "item[1].type",
        "must be a Responses stream event",
    ),
    ([_CREATED, _CALL, _CALL], "item[2].output_index", "must name a new output item"),
    ([_CREATED, {**_CALL, "output_index": True}], "item[1].output_index", "must be a non-negative integer"),
    ([_CREATED, {**_CALL, "item": {"id": "fc_1"}}], "item[1].item.type", "must be a string"),
    ([_CREATED, {**_CALL, "item": {**_CALL["item"], "id": 3}}], "item[1].item.id", "must be a string"),
    ([_CREATED, _CALL, {**_CALL, "output_index": 1}], "item[2].item.id", "must not be the id of another"),
    ([_CREATED, _arguments()], "item[1].output_index", "must name an output item added before"),
    ([_CREATED, _CALL, _arguments(item_id="fc_9")], "item[2].item_id", "must be the id of output item 0"),
    ([_CREATED, _CALL, _arguments(delta=None)], "item[2].delta", "must be a string"),
    ([_CREATED, _CALL, _arguments("done"), _arguments()], "item[3].item_id", "arguments are not done"),
    (
        [_CREATED, _CALL, _CALL_DONE, _arguments()],
        "item[3].output_index",
        "must name an output item not done",
    ),
    (
        [_CREATED, _MESSAGE, {**_arguments(), "item_id": "msg_1"}],
        "item[2].output_index",
        "must name a function_call",
    ),
    (
        [_CREATED, _CALL, {**_CALL_DONE, "item": {**_CALL_DONE["item"], "id": "fc_2"}}],
        "item[2].item.id",
        "must be the id of the item added",
    ),
    (
        [_CREATED, _CALL, {**_CALL_DONE, "item": {**_CALL_DONE["item"], "type": "message"}}],
        "item[2].item.type",
        "must be the type of the item added",
    ),
    (
        [
            _CREATED,
            _MESSAGE,
            _REFUSAL_PART,
            {**_REFUSAL_PART, "type": "response.output_text.delta", "delta": "x"},
        ],
        "item[3].content_index",
        "must name a part that streams 'text'",
    ),
    ([_CREATED, _MESSAGE, _REFUSAL_PART, _REFUSAL_PART], "item[3].content_index", "must name a new part"),
    (
        [_CREATED, _MESSAGE, {**_REFUSAL_PART, "type": "response.refusal.delta", "delta": "x"}],
        "item[2].content_index",
        "must name a part added before",
    ),
    (
        [
            _CREATED,
            _MESSAGE,
            _REFUSAL_PART,
            {**_REFUSAL_PART, "type": "response.refusal.done", "refusal": "No."},
            {**_REFUSAL_PART, "type": "response.refusal.delta", "delta": "x"},
        ],
        "item[4].content_index",
        "whose text is not done yet",
    ),
    (
        [_CREATED, {**_COMPLETED, "response": {"status": "failed"}}],
        "item[1].response.status",
        "must be 'completed'",
    ),
    ([_CREATED, _COMPLETED, _CALL], "item[2]", "must not follow the end of the stream"),
]


@pytest.mark.parametrize(("events", "path", "rule"), _BAD)
def test_a_bad_event_raises_located(events: list[Any], path: str, rule: str) -> None:
    builder = ResponseBuilder()
    *good, bad = events
    for event in good:
        builder.feed(event)
    with pytest.raises(InvalidStream) as raised:
        builder.feed(bad)
    assert raised.value.path == path
    assert rule in raised.value.rule


def test_a_response_before_any_event_is_refused() -> None:
    with pytest.raises(InvalidStream, match="has no events yet"):
        ResponseBuilder().response()


def test_a_refusal_and_a_reasoning_summary_stream_into_their_parts() -> None:
    summary = {
        "type": "response.reasoning_summary_part.added",
        "item_id": "rs_1",
        "output_index": 0,
        "summary_index": 0,
    }
    builder = _built(
        [
            _CREATED,
            {
                "type": "response.output_item.added",
                "output_index": 0,
                "item": {"id": "rs_1", "type": "reasoning", "summary": []},
            },
            {**summary, "part": {"type": "summary_text", "text": ""}},
            {**summary, "type": "response.reasoning_summary_text.delta", "delta": "Think"},
            {**summary, "type": "response.reasoning_summary_text.delta", "delta": "ing"},
            {**_MESSAGE, "output_index": 1},
            {**_REFUSAL_PART, "output_index": 1},
            {**_REFUSAL_PART, "output_index": 1, "type": "response.refusal.delta", "delta": "No"},
            {
                **_REFUSAL_PART,
                "output_index": 1,
                "type": "response.output_text.annotation.added",
                "annotation": {},
            },
        ]
    )
    reasoning, message = builder.items()
    assert reasoning["summary"] == [{"type": "summary_text", "text": "Thinking"}]
    assert message["content"] == [{"type": "refusal", "refusal": "No"}]
    builder.feed({**_REFUSAL_PART, "output_index": 1, "type": "response.refusal.done", "refusal": "No."})
    builder.feed({**summary, "type": "response.reasoning_summary_text.done", "text": "Thinking."})
    builder.feed(
        {
            **summary,
            "type": "response.reasoning_summary_part.done",
            "part": {"type": "summary_text", "text": "Thinking!"},
        }
    )
    builder.feed({**_REFUSAL_PART, "output_index": 1, "type": "response.content_part.done"})
    assert [item.get("summary", item.get("content")) for item in builder.items()] == [
        [{"type": "summary_text", "text": "Thinking!"}],
        [{"type": "refusal", "refusal": ""}],
    ]


def test_an_added_item_with_parts_already_keeps_them() -> None:
    item = {"id": "msg_1", "type": "message", "content": [{"type": "output_text", "text": "Hi"}, "junk"]}
    builder = _built([_CREATED, {**_MESSAGE, "item": item}])
    builder.feed({**_REFUSAL_PART, "type": "response.output_text.delta", "delta": " there"})
    assert builder.items()[0]["content"] == [{"type": "output_text", "text": "Hi there"}]


# -- only our errors, and linear time ---------------------------------------------------

_TYPES = [
    "response.created",
    "response.in_progress",
    "response.output_item.added",
    "response.output_item.done",
    "response.content_part.added",
    "response.content_part.done",
    "response.output_text.delta",
    "response.output_text.done",
    "response.refusal.delta",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.done",
    "response.reasoning_summary_part.added",
    "response.reasoning_summary_text.delta",
    "response.completed",
    "response.incomplete",
    "response.failed",
    "response.web_search_call.searching",
    "error",
]
_SMALL = st.integers(-1, 2)
_EVENT = st.fixed_dictionaries(
    {"type": st.sampled_from(_TYPES)},
    optional={
        "output_index": st.one_of(_SMALL, json_values(deep=False)),
        "content_index": _SMALL,
        "summary_index": _SMALL,
        "item_id": st.sampled_from(["fc_1", "msg_1", None]),
        "delta": st.one_of(st.text(max_size=3), json_values(deep=False)),
        "text": st.one_of(st.text(max_size=3), json_values(deep=False)),
        "arguments": st.text(max_size=3),
        "item": st.one_of(st.sampled_from([_CALL["item"], _MESSAGE["item"]]), json_values(deep=False)),
        "part": st.one_of(st.just({"type": "output_text", "text": ""}), json_values(deep=False)),
        "response": st.one_of(st.just({"status": "completed"}), json_values()),
    },
)


@given(st.lists(st.one_of(_EVENT, json_values()), max_size=12))
def test_only_our_errors_escape_whatever_the_events(events: list[Any]) -> None:
    builder = ResponseBuilder()
    for event in [_CREATED, *events]:
        with contextlib.suppress(InvalidStream):
            builder.feed(event)
    builder.items()
    builder.response()


def test_a_view_after_every_delta_costs_linear_time() -> None:
    def prepare(size: int) -> Any:
        events = [_CREATED, _CALL, *([_arguments(delta="x" * 8)] * size)]

        def work() -> None:
            builder = ResponseBuilder()
            for event in events:
                builder.feed(event)
                builder.items()
            builder.response()

        return work

    assert growth(prepare, 2000) < BOUND


# -- through the real client ------------------------------------------------------------


@pytest.mark.parametrize("name", _COMPLETE)
def test_the_events_the_openai_client_yields_build_the_response(name: str) -> None:
    events = _events(name)
    server = RecordedServer([sse_reply({"event": e["type"], "data": e} for e in events)])
    client = OpenAI(
        api_key="test",
        base_url="http://openai.test/v1",
        max_retries=0,
        http_client=httpx2.Client(transport=server.httpx2_transport()),
    )
    with client:
        builder = ResponseBuilder()
        for event in client.responses.create(model="gpt-5.1", input="Hi", stream=True):
            builder.feed(event)
    assert server.sent == [{"model": "gpt-5.1", "input": "Hi", "stream": True}]
    assert builder.response() == _built(events).response()


def test_an_item_without_an_id_and_a_part_without_text_are_kept_as_they_came() -> None:
    """A compatible server may leave an item's id out; a part's text key appears only once it has text."""
    item = {"type": "message", "role": "assistant", "content": []}
    part = {
        "type": "response.content_part.added",
        "output_index": 0,
        "content_index": 0,
        "part": {"type": "output_text"},
    }
    builder = _built([_CREATED, {**_MESSAGE, "item": item}, part])
    assert builder.items() == [{**item, "content": [{"type": "output_text"}]}]
    builder.feed({**part, "type": "response.output_text.delta", "delta": "Hi"})
    assert builder.items()[0]["content"] == [{"type": "output_text", "text": "Hi"}]


def _without_output_index(event: dict[str, Any]) -> dict[str, Any]:
    return {
        key: value
        for key, value in event.items()
        if key != "output_index" or event["type"].endswith(".added")
    }


@pytest.mark.parametrize("name", _COMPLETE)
def test_events_without_an_output_index_find_their_item_by_its_id(name: str) -> None:
    """Some compatible servers send only the ``item_id`` (the item's ``id`` on output_item.done)."""
    events = _events(name)
    assert _built([_without_output_index(e) for e in events]).response() == _built(events).response()


def test_parallel_calls_interleaved_keep_each_ones_arguments() -> None:
    """Two calls of the recorded stream at once, their deltas taking turns: each keyed by its index and id."""
    events = _events("stream_function_call")
    first = events[2:11]  # output_item.added to output_item.done of the one call
    second = [_renamed(event) for event in first]
    interleaved = [event for pair in zip(first, second, strict=True) for event in pair]
    final = events[-1]["response"]
    final = {**final, "output": [*final["output"], _renamed({"item": final["output"][0]})["item"]]}
    builder = _built([*events[:2], *interleaved, {**events[-1], "response": final}])
    first_call, second_call = builder.response()["output"]
    assert first_call["arguments"] == '{"city":"Beijing"}' == second_call["arguments"]
    assert (first_call["call_id"], second_call["call_id"]) == ("call_2FQdm3Br7Qb35YUBSkDR7kue", "call_2")
    _as_far_as_carried(builder.response(), final)


def _renamed(event: dict[str, Any]) -> dict[str, Any]:
    """The event as for a second call: output_index 1, item id fc_2, call id call_2."""
    event = copy.deepcopy(event)
    if "output_index" in event:
        event["output_index"] = 1
    if "item_id" in event:
        event["item_id"] = "fc_2"
    if "item" in event:
        event["item"].update(id="fc_2", call_id="call_2")
    return event
