"""The Responses codec's one-step ways for the common items give what the general way gives.

``read.plain_input`` reads a plain input message or tool output in one step,
``read.replayed_text`` a response's assistant message as a client replays it,
``write.plain_item`` writes a plain message and ``write.plain_turn`` an
assistant turn that keeps only text keys; each is switched off here to
compare: the same messages, the same body, or the same error, on the fuzz
seeds with edits deep inside and on the plain shapes with one key changed.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzz.seeds import seeds
from tests.property import strategies as s
from tests.providers.responses.test_properties import transcripts
from toolturns import ChatMessage, MessageError, TextPart, ToolCall, responses
from toolturns.providers.responses import read, write

#: A response's assistant message, as a client replays it from ``response.output``.
_REPLAYED: dict[str, Any] = {
    "type": "message",
    "role": "assistant",
    "content": [{"type": "output_text", "text": "Sunny.", "annotations": []}],
    "id": "msg_1",
    "status": "completed",
}
_PLAIN = st.sampled_from(
    [
        {"type": "message", "role": "user", "content": "Hi"},
        {"type": "message", "role": "system", "content": "Be brief."},
        {"type": "message", "role": "developer", "content": ""},
        {"type": "function_call_output", "call_id": "call_1", "output": "18 degrees"},
        _REPLAYED,
        {**_REPLAYED, "id": "msg_2"},
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "f",
            "arguments": "{}",
            "id": "fc_1",
            "status": "completed",
        },
    ]
)
_JUNK = st.one_of(
    st.none(), st.just(""), st.just([]), st.just("assistant"), st.just("tool"), s.arbitrary_json()
)


@st.composite
def _near_plain(draw: st.DrawFn) -> dict[str, Any]:
    """A plain item with one key set to something else, or one key more or less."""
    item = dict(draw(_PLAIN))
    edit = draw(st.sampled_from(["set", "add", "drop", "none"]))
    key = draw(st.sampled_from([*item, "id", "status", "name"]))
    if edit == "set" or edit == "add":
        item[key] = draw(_JUNK)
    elif edit == "drop":
        item.pop(key, None)
    return item


_ITEMS = st.lists(
    st.one_of(_PLAIN, _near_plain(), s.mutated(st.sampled_from(seeds("responses_request")))), max_size=4
)


def _outcome(read_items: Any) -> Any:
    try:
        return read_items()
    except MessageError as error:
        return type(error), str(error)


@settings(max_examples=300)
@given(_ITEMS)
def test_reading_in_one_step_gives_what_the_general_way_gives(items: list[Any]) -> None:
    """Each item list reads to the same messages, or fails with the same error, either way."""
    body = {"input": [item for value in items for item in _as_items(value)]}
    fast = _outcome(lambda: responses.from_request(body))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(read, "plain_input", lambda raw: None)
        patch.setattr(read, "replayed_text", lambda raw: None)
        general = _outcome(lambda: responses.from_request(body))
    assert fast == general
    if not isinstance(fast, tuple):  # read either way, they are written back the same, key order too
        assert _written(fast) == _written(general)


def _written(messages: list[ChatMessage]) -> Any:
    """Each written item's keys and values in order: dict equality would not see an order changed."""
    return _outcome(lambda: [list(item.items()) for item in responses.to_request(messages)["input"]])


def _as_items(value: Any) -> list[Any]:
    """A seed is a whole request body; its items join the list."""
    if isinstance(value, dict) and isinstance(value.get("input"), list):
        return list(value["input"])
    return [value]


def test_the_one_step_reader_takes_only_the_plain_shapes() -> None:
    """It reads the plain items, and leaves every other to the general way."""
    assert read.plain_input({"type": "message", "role": "user", "content": "Hi"}) == ChatMessage.user("Hi")
    assert read.plain_input(
        {"type": "function_call_output", "call_id": "c", "output": "ok"}
    ) == ChatMessage.tool_result("c", "ok")
    for other in [
        {"type": "message", "role": "assistant", "content": "Hi"},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Hi"}]},
        {"type": "message", "role": ["user"], "content": "Hi"},
        {"type": "message", "role": "user", "content": "Hi", "id": "msg_1"},
        {"type": "function_call_output", "call_id": "", "output": "ok"},
        {"type": "function_call_output", "call_id": "c", "output": []},
        {"type": "function_call", "call_id": "c", "name": "f"},
        ["type", "message", "role"],
    ]:
        assert read.plain_input(other) is None, other


def test_the_one_step_reader_of_a_replayed_message_takes_only_that_shape() -> None:
    """It gives a replayed message's text and its id and status in the item's order, and
    leaves every other to the general way."""
    assert read.replayed_text(_REPLAYED) == ("Sunny.", {"id": "msg_1", "status": "completed"})
    assert list(read.replayed_text(_REPLAYED)[1]) == ["id", "status"]  # type: ignore[index]
    reordered = {"status": "completed", **{k: v for k, v in _REPLAYED.items() if k != "status"}}
    assert list(read.replayed_text(reordered)[1]) == ["status", "id"]  # type: ignore[index]
    part = _REPLAYED["content"][0]
    for other in [
        {**_REPLAYED, "role": "user"},
        {**_REPLAYED, "type": "reasoning"},
        {**_REPLAYED, "id": ""},
        {**_REPLAYED, "status": None},
        {**_REPLAYED, "content": "Sunny."},
        {**_REPLAYED, "content": [part, part]},
        {**_REPLAYED, "content": [{**part, "annotations": [{"type": "url_citation"}]}]},
        {**_REPLAYED, "content": [{**part, "type": "refusal"}]},
        {**_REPLAYED, "content": [{**part, "logprobs": []}]},
        {**_REPLAYED, "content": [{**part, "text": None}]},
        {**_REPLAYED, "content": [["type", "output_text"]]},
        {k: v for k, v in _REPLAYED.items() if k != "status"},
        [_REPLAYED],
    ]:
        assert read.replayed_text(other) is None, other


_MESSAGES = st.one_of(
    transcripts(),
    st.lists(s.chat_messages(with_provider_data=True), max_size=4),
)


@settings(max_examples=300)
@given(_MESSAGES)
def test_writing_in_one_step_gives_what_the_general_way_gives(messages: list[ChatMessage]) -> None:
    """Each transcript writes the same body, or fails with the same error, either way."""
    fast = _outcome(lambda: responses.to_request(messages, drop_unsupported=True))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(write, "plain_item", lambda message: None)
        patch.setattr(write, "plain_turn", lambda message: None)
        general = _outcome(lambda: responses.to_request(messages, drop_unsupported=True))
    assert fast == general


def test_the_one_step_writer_takes_only_plain_messages() -> None:
    """It writes a plain message that is not the assistant's, and leaves every other to turn_items."""
    for plain in [ChatMessage.user("Hi"), ChatMessage.developer("x"), ChatMessage.tool_result("c", "ok")]:
        assert write.plain_item(plain) == write.turn_items(plain)[0][0]
    for other in [
        ChatMessage.assistant("Hi"),
        ChatMessage("user", "Hi", provider_data={"responses": {"keys": {"id": "msg_1"}}}),
        ChatMessage.user([TextPart("Hi")]),
    ]:
        assert write.plain_item(other) is None, other


def test_the_one_step_writer_of_a_turn_takes_only_text_keys() -> None:
    """It writes a turn that keeps only text keys as turn_items does without it, and leaves
    a turn keeping anything else (items, a key of another type, parts) to the general way."""
    read_back = responses.from_request(
        {
            "input": [
                _REPLAYED,
                {"type": "function_call", "call_id": "c", "name": "f", "id": "fc_1", "status": "done"},
            ]
        }
    )
    for turn in [*read_back, ChatMessage.assistant("Hi"), ChatMessage.assistant("")]:
        written = write.plain_turn(turn)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(write, "plain_turn", lambda message: None)
            assert written == write.turn_items(turn)[0], turn
    reasoning = {"type": "reasoning", "id": "rs_1", "summary": []}
    for other in [
        *responses.from_request({"input": [reasoning, _REPLAYED]}),
        ChatMessage("assistant", "Hi", provider_data={"responses": {"keys": {"id": 1}}}),
        ChatMessage(
            "assistant",
            "",
            tool_calls=[ToolCall("c", "f", provider_data={"responses": {"keys": {"n": [1]}}})],
        ),
        ChatMessage.assistant([TextPart("Hi")]),
    ]:
        assert write.plain_turn(other) is None, other
