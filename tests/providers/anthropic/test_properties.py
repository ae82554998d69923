"""Property tests of the Anthropic codec: round trips up to the documented losses,
OpenAI -> Anthropic -> OpenAI, the id bijection, thinking-block replay, and
"only MessageError escapes" on arbitrary and mutated native bodies."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.property import strategies as s
from toolturns import (
    ChatMessage,
    InvalidArguments,
    InvalidToolCall,
    MessageError,
    Role,
    ToolCall,
    anthropic,
    openai,
)

# Anthropic's rule for tool_use.id and tool_result.tool_use_id.
WIRE_ID = re.compile(r"[a-zA-Z0-9_-]+")
SYSTEM_ROLES = (Role.SYSTEM, Role.DEVELOPER)

# -- local strategies -------------------------------------------------------------------

_TEXT = s.unicode_text(max_size=12)
_NAMES = st.none() | s.unicode_text(min_size=1, max_size=6)
_EXTRAS = st.none() | s.message_extras()
_CALLS = s.tool_calls()
# Shallow arguments: fuzzing walks every container, and 50-level values only slow it down.
_LIGHT_CALLS = s.tool_calls(
    arguments=st.one_of(st.none(), s.json_objects(deep=False), s.malformed_argument_texts())
)


def _is_object(call: ToolCall) -> bool:
    try:
        return isinstance(call.arguments, dict)
    except InvalidArguments:
        return False


@st.composite
def tool_loops(draw: st.DrawFn, call_strategy: st.SearchStrategy[ToolCall] = _CALLS) -> list[ChatMessage]:
    """A well-formed tool loop: system prompts anywhere, a user turn, rounds of an
    assistant tool-call turn answered once per call in call order (maybe followed
    by user text), and a final assistant text; names and extra keys here and there."""
    messages: list[ChatMessage] = []

    def maybe_system() -> None:
        if draw(st.integers(0, 5)) == 0:
            role = draw(st.sampled_from(SYSTEM_ROLES))
            messages.append(ChatMessage(role, draw(_TEXT), name=draw(_NAMES)))

    maybe_system()
    messages.append(ChatMessage(Role.USER, draw(_TEXT), name=draw(_NAMES), extra=draw(_EXTRAS)))
    for _ in range(draw(st.integers(0, 2))):
        maybe_system()
        calls = draw(st.lists(call_strategy, min_size=1, max_size=3, unique_by=lambda call: call.id))
        messages.append(
            ChatMessage(Role.ASSISTANT, draw(_TEXT), tool_calls=calls, name=draw(_NAMES), extra=draw(_EXTRAS))
        )
        for call in calls:
            maybe_system()
            messages.append(
                ChatMessage(
                    Role.TOOL,
                    draw(_TEXT),
                    tool_call_id=call.id,
                    is_error=draw(st.booleans()),
                    extra=draw(_EXTRAS),
                )
            )
        for _ in range(draw(st.integers(0, 2))):
            messages.append(ChatMessage.user(draw(_TEXT)))
    maybe_system()
    if draw(st.booleans()):
        messages.append(ChatMessage.assistant(draw(_TEXT)))
    return messages


def expected(messages: list[ChatMessage]) -> list[ChatMessage]:
    """``messages`` after the documented losses: non-empty system and developer
    messages first, as system; no name, no extra keys (of messages or calls)."""
    systems = [ChatMessage.system(m.content) for m in messages if m.role in SYSTEM_ROLES and m.content]
    rest = [
        ChatMessage(
            m.role,
            m.content,
            tool_calls=None
            if m.tool_calls is None
            else [ToolCall(c.id, c.name, c.arguments_json) for c in m.tool_calls],
            tool_call_id=m.tool_call_id,
            is_error=m.is_error,
        )
        for m in messages
        if m.role not in SYSTEM_ROLES
    ]
    return systems + rest


def through_json(body: Any) -> Any:
    """``body`` sent as JSON text and read back, as it travels over HTTP."""
    return json.loads(json.dumps(body))


_WIRE_IDS = st.from_regex(WIRE_ID, fullmatch=True).filter(lambda text: not text.startswith("tt-"))
_KEPT_TYPES = st.sampled_from(
    ["thinking", "redacted_thinking", "server_tool_use", "web_search_tool_result", "x"]
)
_NONEMPTY_EXTRAS = st.dictionaries(
    st.sampled_from(["caller", "cache_control", "zz"]),
    st.one_of(st.booleans(), st.integers(), s.unicode_text(min_size=1), st.just({"type": "direct"})),
    max_size=2,
)


def _kept_block(kind: str, fields: dict[str, Any]) -> dict[str, Any]:
    if kind == "thinking" and not fields.get("signature"):
        # Anthropic signs every thinking block it sends; an unsigned one is refused on replay.
        fields = {**fields, "signature": "c2ln"}
    return {**fields, "type": kind}


def _tool_use(call_id: str, name: str, arguments: dict[str, Any], extras: dict[str, Any]) -> dict[str, Any]:
    return {**extras, "type": "tool_use", "id": call_id, "name": name, "input": arguments}


@st.composite
def assistant_contents(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Native assistant content in the form to_request writes: an optional non-empty
    text block, then tool_use blocks, with kept blocks (thinking...) anywhere."""
    content: list[dict[str, Any]] = []
    text = draw(s.unicode_text(min_size=1, max_size=8))
    if draw(st.booleans()):
        content.append({"type": "text", "text": text})
    ids = draw(st.lists(_WIRE_IDS, max_size=3, unique=True))
    for call_id in ids:
        arguments = draw(s.json_objects(deep=False))
        content.append(
            _tool_use(
                call_id, draw(s.unicode_text(min_size=1, max_size=6)), arguments, draw(_NONEMPTY_EXTRAS)
            )
        )
    for _ in range(draw(st.integers(0, 3))):
        block = _kept_block(draw(_KEPT_TYPES), draw(s.json_objects(deep=False)))
        content.insert(draw(st.integers(0, len(content))), block)
    return content


@st.composite
def native_bodies(draw: st.DrawFn) -> Any:
    """Valid native request bodies: what to_request writes for a tool loop, with kept blocks."""
    body = anthropic.to_request(
        draw(tool_loops(_LIGHT_CALLS)), keep_invalid_arguments=True, drop_unsupported=True
    )
    if draw(st.booleans()):
        body["messages"].append({"role": "assistant", "content": draw(assistant_contents())})
    return body


def read(reader: Any, data: Any) -> Any:
    """``reader(data)``; a MessageError gives None, any other exception fails the test."""
    try:
        return reader(data)
    except MessageError:
        return None


# -- round trips ------------------------------------------------------------------------


@settings(max_examples=100)
@given(tool_loops())
def test_from_request_undoes_to_request_up_to_documented_losses(messages: list[ChatMessage]) -> None:
    """from_request(to_request(T)) == T but for the documented losses, also through JSON text."""
    body = anthropic.to_request(messages, keep_invalid_arguments=True, drop_unsupported=True)
    assert anthropic.from_request(through_json(body)) == expected(messages)


@settings(max_examples=50)
@given(tool_loops(_LIGHT_CALLS))
def test_invalid_arguments_raise_unless_kept(messages: list[ChatMessage]) -> None:
    """Without keep_invalid_arguments, to_request raises InvalidArguments exactly when a call's arguments are not an object."""
    invalid = [call.id for m in messages for call in m.tool_calls or () if not _is_object(call)]
    if invalid:
        with pytest.raises(InvalidArguments) as caught:
            anthropic.to_request(messages, drop_unsupported=True)
        assert caught.value.call_id == invalid[0]
    else:
        assert anthropic.to_request(messages, drop_unsupported=True) == anthropic.to_request(
            messages, keep_invalid_arguments=True, drop_unsupported=True
        )


def _calls_and_results(messages: list[ChatMessage]) -> tuple[list[Any], list[tuple[str | None, str]]]:
    calls = [(c.id, c.name, c.arguments_json) for m in messages for c in m.tool_calls or ()]
    results = [(m.tool_call_id, m.text) for m in messages if m.role is Role.TOOL]
    return calls, results


@settings(max_examples=100)
@given(tool_loops())
def test_openai_to_anthropic_to_openai_keeps_ids_names_arguments_and_results(
    messages: list[ChatMessage],
) -> None:
    """OpenAI -> Anthropic -> OpenAI keeps every id, name, argument value and result text."""
    first = openai.from_request(through_json(openai.to_request(messages)))
    native = through_json(anthropic.to_request(first, keep_invalid_arguments=True, drop_unsupported=True))
    back = openai.from_request(through_json(openai.to_request(anthropic.from_request(native))))
    (calls_before, results_before), (calls_after, results_after) = (
        _calls_and_results(first),
        _calls_and_results(back),
    )
    assert results_after == results_before
    assert len(calls_after) == len(calls_before)
    for (id_a, name_a, args_a), (id_b, name_b, args_b) in zip(calls_before, calls_after, strict=True):
        assert (id_a, name_a) == (id_b, name_b)
        # Same JSON value (a ToolCall compares arguments by value), or the same raw text.
        assert ToolCall(id_a, name_a, args_a) == ToolCall(id_b, name_b, args_b)


@settings(max_examples=200)
@given(st.lists(s.unicode_text(min_size=1, max_size=10), min_size=1, max_size=4, unique=True))
def test_ids_map_by_a_bijection_onto_valid_wire_ids(ids: list[str]) -> None:
    """Any ids become distinct ids matching ^[a-zA-Z0-9_-]+$, the same on tool_use and tool_result, and read back exactly."""
    messages = [ChatMessage.assistant_tool_calls([ToolCall(i, "f") for i in ids])]
    messages += [ChatMessage.tool_result(i, "ok") for i in ids]
    body = anthropic.to_request(messages)
    used = [block["id"] for block in body["messages"][0]["content"]]
    answered = [block["tool_use_id"] for block in body["messages"][1]["content"]]
    assert used == answered
    assert len(set(used)) == len(ids)
    assert all(WIRE_ID.fullmatch(wire_id) for wire_id in used)
    assert [wire_id == i for wire_id, i in zip(used, ids, strict=True)] == [
        bool(WIRE_ID.fullmatch(i)) and not i.startswith("tt-") for i in ids
    ]
    assert anthropic.from_request(through_json(body)) == messages


@settings(max_examples=200)
@given(st.from_regex(WIRE_ID, fullmatch=True) | st.from_regex(r"tt-[a-z0-9_-]{0,12}", fullmatch=True))
def test_every_wire_id_read_is_written_back_unchanged(wire_id: str) -> None:
    """A valid wire id is either refused (a malformed 'tt-' form) or read to an id that to_request writes back as the same wire id."""
    native = [
        {"role": "assistant", "content": [{"type": "tool_use", "id": wire_id, "name": "f", "input": {}}]}
    ]
    try:
        messages = anthropic.from_request(native)
    except InvalidToolCall:
        assert wire_id.startswith("tt-")
        return
    assert anthropic.to_request(messages)["messages"] == native


@settings(max_examples=100)
@given(assistant_contents())
def test_kept_blocks_replay_exactly(content: list[dict[str, Any]]) -> None:
    """from_response -> to_request gives back the assistant content exactly: thinking and other kept blocks in place."""
    turn = anthropic.from_response(through_json({"type": "message", "role": "assistant", "content": content}))
    written = anthropic.to_request([turn])["messages"][0]["content"]
    if isinstance(written, str):  # a text answer without kept blocks is written as a string
        assert content == ([{"type": "text", "text": written}] if written else [])
    else:
        assert written == content
    assert "provider_data" not in json.dumps(openai.to_request([turn]))


# -- only MessageError escapes ------------------------------------------------------------


@settings(max_examples=300)
@given(s.arbitrary_json())
def test_arbitrary_json_raises_only_message_errors(data: Any) -> None:
    """Any JSON value into from_request and from_response succeeds or raises a MessageError."""
    read(anthropic.from_request, data)
    read(anthropic.from_response, data)
    read(anthropic.from_request, {"messages": data})
    read(anthropic.from_request, {"system": data, "messages": [{"role": "user", "content": data}]})
    read(anthropic.from_response, {"type": "message", "content": data})
    read(anthropic.from_response, {"content": [data]})


@settings(max_examples=100)
@given(s.mutated(native_bodies()))
def test_mutated_request_bodies_raise_only_message_errors(body: Any) -> None:
    """Valid native bodies with 1-3 random edits anywhere: success or a MessageError."""
    read(anthropic.from_request, body)


@settings(max_examples=100)
@given(
    s.mutated(
        assistant_contents().map(lambda content: {"type": "message", "role": "assistant", "content": content})
    )
)
def test_mutated_responses_raise_only_message_errors(body: Any) -> None:
    """Valid responses with 1-3 random edits anywhere: success or a MessageError."""
    read(anthropic.from_response, body)


@settings(max_examples=100)
@given(s.hostile_values())
def test_hostile_python_values_raise_only_message_errors(value: Any) -> None:
    """Values that are not JSON at all (NaN, sets, circular structures) inside bodies: success or a MessageError."""
    read(anthropic.from_request, value)
    read(anthropic.from_request, [{"role": "assistant", "content": [{"type": "thinking", "x": value}]}])
    read(
        anthropic.from_request,
        [
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {"x": value}}],
            }
        ],
    )
    read(
        anthropic.from_response,
        {"content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}, "caller": value}]},
    )
