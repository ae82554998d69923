"""The Responses codec's one-step ways for the common items give what the general way gives.

``read.plain_input`` reads a plain input message or tool output in one step,
``write.plain_item`` writes one; each is switched off here to compare: the
same messages, the same body, or the same error, on the fuzz seeds with edits
deep inside and on the plain shapes with one key changed.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzz.seeds import seeds
from tests.property import strategies as s
from tests.providers.responses.test_properties import transcripts
from toolturns import ChatMessage, MessageError, TextPart, responses
from toolturns.providers.responses import read, write

_PLAIN = st.sampled_from(
    [
        {"type": "message", "role": "user", "content": "Hi"},
        {"type": "message", "role": "system", "content": "Be brief."},
        {"type": "message", "role": "developer", "content": ""},
        {"type": "function_call_output", "call_id": "call_1", "output": "18 degrees"},
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
        general = _outcome(lambda: responses.from_request(body))
    assert fast == general


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
