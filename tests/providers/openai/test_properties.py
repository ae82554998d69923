"""Properties of the OpenAI codec: request round trips and only MessageError escaping."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.property import strategies as s
from toolturns import ChatMessage, InvalidToolCall, MessageError, openai

_BODIES = st.lists(s.chat_messages(allow_is_error=False), max_size=6).map(lambda ms: openai.to_request(ms))


@given(st.lists(s.chat_messages(allow_is_error=False), max_size=6))
def test_from_request_reads_back_what_to_request_wrote(messages: list[ChatMessage]) -> None:
    """from_request(to_request(T)) == T for every list of valid messages (is_error false)."""
    assert openai.from_request(openai.to_request(messages)) == messages


@given(st.one_of(s.arbitrary_json(), s.mutated(_BODIES), st.lists(s.message_dicts(), max_size=3)))
@example(  # found by hypothesis: a tool result's is_error, which the OpenAI wire does not carry
    [
        {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "function": {"name": "f"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "x", "is_error": True},
    ]
)
def test_from_request_raises_only_message_error(body: Any) -> None:
    """Arbitrary and near-valid request bodies give messages or a MessageError, nothing else."""
    try:
        messages = openai.from_request(body)
    except MessageError:
        return
    # from_dict reads a tool message's is_error (toolturns' own key), and the OpenAI wire has
    # no such field: to_request sends the result without it (docs/providers.md, "The mapping").
    sent = [dataclasses.replace(m, is_error=False) if m.is_error else m for m in messages]
    assert openai.from_request(openai.to_request(messages)) == sent


@given(
    st.one_of(
        s.arbitrary_json(),
        s.message_dicts(),
        s.mutated(
            s.message_dicts().map(lambda m: {"object": "chat.completion", "choices": [{"message": m}]})
        ),
    ),
    st.integers(min_value=-1, max_value=2),
)
def test_from_response_raises_only_message_error(body: Any, choice: int) -> None:
    """Arbitrary and near-valid responses give a message or a MessageError, nothing else."""
    try:
        message = openai.from_response(body, choice=choice)
    except MessageError:
        return
    assert isinstance(message, ChatMessage)


_CALL_TURNS = st.lists(s.tool_calls(), min_size=1, max_size=4, unique_by=lambda call: call.id).map(
    ChatMessage.assistant_tool_calls
)


@given(_CALL_TURNS)
def test_each_calls_position_is_read_and_never_sent(turn: ChatMessage) -> None:
    """index: <position> on each call, as the openai SDK's stream accumulator leaves it, reads as the
    same turn, and to_request sends no index."""
    wire = turn.to_wire()
    for position, call in enumerate(wire["tool_calls"]):
        call["index"] = position
    (back,) = openai.from_request([wire])
    assert back == turn
    assert all("index" not in call for call in openai.to_request([back])["messages"][0]["tool_calls"])


@given(_CALL_TURNS, st.data())
def test_an_index_that_is_not_the_position_is_refused_where_it_is(
    turn: ChatMessage, data: st.DataObject
) -> None:
    """Any index but the call's position (or null, which carries nothing) is an InvalidToolCall at the
    first call that has one, never another error and never kept."""
    wire = turn.to_wire()
    calls = wire["tool_calls"]
    indices = data.draw(
        st.lists(st.one_of(st.integers(-2, 5), s.arbitrary_json()), min_size=len(calls), max_size=len(calls))
    )
    for call, index in zip(calls, indices, strict=True):
        call["index"] = index
    wrong = [
        n for n, index in enumerate(indices) if index is not None and not (type(index) is int and index == n)
    ]
    if not wrong:
        assert openai.from_request([wire]) == [turn]
        return
    with pytest.raises(InvalidToolCall) as caught:
        openai.from_request([wire])
    assert caught.value.path == f"messages[0].tool_calls[{wrong[0]}].index"
