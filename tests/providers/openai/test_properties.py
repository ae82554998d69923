"""Properties of the OpenAI codec: request round trips and only MessageError escaping."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.property import strategies as s
from toolturns import ChatMessage, MessageError, openai

_BODIES = st.lists(s.chat_messages(allow_is_error=False), max_size=6).map(lambda ms: openai.to_request(ms))


@given(st.lists(s.chat_messages(allow_is_error=False), max_size=6))
def test_from_request_reads_back_what_to_request_wrote(messages: list[ChatMessage]) -> None:
    """from_request(to_request(T)) == T for every list of valid messages (is_error false)."""
    assert openai.from_request(openai.to_request(messages)) == messages


@given(st.one_of(s.arbitrary_json(), s.mutated(_BODIES), st.lists(s.message_dicts(), max_size=3)))
def test_from_request_raises_only_message_error(body: Any) -> None:
    """Arbitrary and near-valid request bodies give messages or a MessageError, nothing else."""
    try:
        messages = openai.from_request(body)
    except MessageError:
        return
    assert openai.from_request(openai.to_request(messages)) == messages


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
