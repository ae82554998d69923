"""Property tests of ``toolturns.ollama``: round trips through the Ollama wire up to
the documented losses, OpenAI -> Ollama -> OpenAI, and "only MessageError escapes"."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import wire_examples
from tests.property import strategies as s
from toolturns import ChatMessage, MessageError, Role, ToolCall, ollama, openai
from toolturns.providers._native import GENERATED_ID, is_generated_id

# -- local strategies ---------------------------------------------------------------------

# Few names, so that one turn often calls the same tool twice and tool results
# have to be matched by name in call order.
_NAMES = st.one_of(st.sampled_from(["get_weather", "get_time"]), s.unicode_text(min_size=1, max_size=6))
_IDS = st.one_of(
    st.sampled_from(["call_1", "call_2", "functions.get_time:0"]), s.unicode_text(min_size=1, max_size=8)
)
_TEXT = s.unicode_text(max_size=12)
# Built, not filtered: JSON values that carry something (null and empties are dropped when read).
_LEAVES = st.one_of(st.booleans(), s.json_ints(), st.floats(allow_nan=False, allow_infinity=False), _TEXT)
_NONEMPTY_JSON = st.one_of(
    st.booleans(),
    s.json_ints(),
    s.unicode_text(min_size=1, max_size=8),
    st.lists(_LEAVES, min_size=1, max_size=3),
    st.dictionaries(_TEXT, _LEAVES, min_size=1, max_size=2),
)
# Keys the codec does not model: some real ones, others prefixed so that they
# can never be a key the codec writes itself.
_UNMODELLED = st.one_of(st.sampled_from(["thinking", "x"]), s.unicode_text(max_size=5).map("x-".__add__))
_MESSAGE_KEPT = st.dictionaries(
    st.one_of(_UNMODELLED, st.sampled_from(["name", "tool_name", "tool_call_id"])),
    _NONEMPTY_JSON,
    min_size=1,
    max_size=2,
)
_RESULT_KEPT = st.dictionaries(_UNMODELLED, _NONEMPTY_JSON, min_size=1, max_size=2)
_CALL_KEPT = _RESULT_KEPT
# provider_data of other providers: never sent to Ollama.
_OTHERS = st.dictionaries(st.sampled_from(["anthropic", "gemini", "openai"]), _NONEMPTY_JSON, max_size=1)
_NO_DATA: st.SearchStrategy[dict[str, Any] | None] = st.none()


def _message_data(kept: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any] | None]:
    """A message's provider_data: nothing, other providers' data, kept Ollama keys, or both."""
    ollama_data = st.builds(lambda keys: {"ollama": {"keys": keys}}, kept)
    both = st.builds(lambda others, mine: {**others, **mine}, _OTHERS, ollama_data)
    return st.one_of(st.none(), st.none(), _OTHERS.map(lambda data: data or None), ollama_data, both)


_DATA = {
    "message": _message_data(_MESSAGE_KEPT),
    "result": _message_data(_RESULT_KEPT),
}


@st.composite
def _call_data(draw: st.DrawFn) -> dict[str, Any] | None:
    ollama_data: dict[str, Any] = {}
    if draw(st.booleans()):
        ollama_data[GENERATED_ID] = True
    if draw(st.booleans()):
        ollama_data["keys"] = draw(_CALL_KEPT)
    if draw(st.booleans()):
        ollama_data["nested"] = {"function": draw(_CALL_KEPT)}
    data: dict[str, Any] = draw(_OTHERS)
    if ollama_data:
        data["ollama"] = ollama_data
    return data or None


_ARGUMENTS = st.one_of(st.none(), s.json_objects(), s.raw_argument_texts())
# Extra keys are OpenAI-wire keys the Ollama wire drops: a few plain ones say so.
_CALL_EXTRA = st.none() | st.dictionaries(
    st.sampled_from(["seq", "x-extra"]), _NONEMPTY_JSON, min_size=1, max_size=2
)


def loop_calls(*, with_data: bool) -> st.SearchStrategy[ToolCall]:
    """Calls of a tool loop; with ``with_data``, some with a generated id and kept keys."""
    data = _call_data() if with_data else _NO_DATA
    return st.builds(
        lambda call_id, name, arguments, extra, provider_data: ToolCall(
            call_id, name, arguments, extra=extra, provider_data=provider_data
        ),
        _IDS,
        _NAMES,
        _ARGUMENTS,
        _CALL_EXTRA,
        data,
    )


_CALL_LISTS = {
    with_data: st.lists(
        loop_calls(with_data=with_data), min_size=1, max_size=3, unique_by=lambda call: call.id
    )
    for with_data in (True, False)
}
_NAMES_OR_NONE = st.none() | _IDS
_EXTRAS = st.none() | st.dictionaries(
    st.sampled_from(["weight", "refusal", "x-extra"]), _NONEMPTY_JSON, min_size=1, max_size=2
)


@st.composite
def tool_loops(draw: st.DrawFn, *, with_data: bool = True) -> list[ChatMessage]:
    """A well-formed tool loop: system or developer?, then 1-2 rounds of a user turn, an
    assistant tool-call turn and its results (each call answered once, in call order),
    then an assistant text turn. Names, extra and is_error appear (the wire drops them)."""
    names, extras = _NAMES_OR_NONE, _EXTRAS
    message_data = _DATA["message"] if with_data else _NO_DATA
    result_data = _DATA["result"] if with_data else _NO_DATA
    messages: list[ChatMessage] = []
    if draw(st.booleans()):
        role = draw(st.sampled_from([Role.SYSTEM, Role.DEVELOPER]))
        messages.append(
            ChatMessage(
                role,
                draw(_TEXT),
                name=draw(names),
                extra=draw(extras),
                provider_data=draw(message_data),
            )
        )
    for _ in range(draw(st.integers(1, 2))):
        messages.append(
            ChatMessage(
                "user",
                draw(_TEXT),
                name=draw(names),
                extra=draw(extras),
                provider_data=draw(message_data),
            )
        )
        calls = draw(_CALL_LISTS[with_data])
        messages.append(
            ChatMessage(
                "assistant",
                draw(_TEXT),
                tool_calls=calls,
                name=draw(names),
                extra=draw(extras),
                provider_data=draw(message_data),
            )
        )
        messages.extend(
            ChatMessage(
                "tool",
                draw(_TEXT),
                tool_call_id=call.id,
                is_error=draw(st.booleans()),
                extra=draw(extras),
                provider_data=draw(result_data),
            )
            for call in calls
        )
    messages.append(
        ChatMessage(
            "assistant",
            draw(_TEXT),
            name=draw(names),
            provider_data=draw(message_data),
        )
    )
    return messages


def _near_valid_calls(junk: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    function = st.fixed_dictionaries(
        {},
        optional={
            "name": st.one_of(_NAMES, _NAMES, junk),
            "arguments": st.one_of(s.json_objects(deep=False), s.raw_argument_texts(), junk),
            "index": st.one_of(st.integers(0, 3), junk),
            "x": junk,
        },
    )
    return st.fixed_dictionaries(
        {"function": st.one_of(function, function, function, junk)},
        optional={
            "id": st.one_of(_IDS, st.just(""), junk),
            "type": st.one_of(st.just("function"), junk),
            "y": junk,
        },
    )


def native_messages(junk: st.SearchStrategy[Any] | None = None) -> st.SearchStrategy[dict[str, Any]]:
    """Near-valid native Ollama messages: the real keys, plausible or junk values."""
    if junk is None:
        junk = s.arbitrary_json(max_leaves=4)
    roles = st.one_of(
        st.sampled_from(["system", "developer", "user", "assistant", "assistant", "tool"]), junk
    )
    return st.fixed_dictionaries(
        {"role": roles},
        optional={
            "content": st.one_of(_TEXT, st.none(), junk),
            "tool_calls": st.one_of(st.lists(_near_valid_calls(junk), max_size=3), junk),
            "tool_name": st.one_of(_NAMES, junk),
            "tool_call_id": st.one_of(_IDS, junk),
            "thinking": st.one_of(_TEXT, junk),
            "images": junk,
        },
    )


def _sent(messages: Sequence[ChatMessage]) -> dict[str, Any]:
    """The request body for ``messages`` (malformed arguments kept), through JSON text."""
    body: dict[str, Any] = json.loads(
        json.dumps(ollama.to_request(messages, keep_invalid_arguments=True, drop_unsupported=True))
    )
    return body


_VALID_BODIES = st.one_of(
    st.sampled_from([e["data"] for e in wire_examples("ollama", "request_messages")]),
    tool_loops().map(_sent),
)


def _assistant_turns(messages: list[ChatMessage]) -> st.SearchStrategy[dict[str, Any]]:
    """One of the assistant messages of the body sent for ``messages``."""
    return st.sampled_from([m for m in _sent(messages)["messages"] if m["role"] == "assistant"])


_RESPONSE_MESSAGES = st.one_of(
    native_messages().map(lambda message: {**message, "role": "assistant"}),
    native_messages(),
    tool_loops().flatmap(_assistant_turns),
)
_RESPONSES = st.one_of(
    st.sampled_from([e["data"] for e in wire_examples("ollama", "response_message")]),
    st.builds(
        lambda message, created_at: {"created_at": created_at, "message": message, "done": True},
        _RESPONSE_MESSAGES,
        st.one_of(_TEXT, s.arbitrary_json(max_leaves=2)),
    ),
)


# -- expected results ---------------------------------------------------------------------


def _ollama_only(data: Any) -> dict[str, Any] | None:
    """provider_data as the Ollama wire carries it: the 'ollama' entry only."""
    return {"ollama": data["ollama"]} if "ollama" in data else None


def after_losses(sent: Sequence[ChatMessage], read: Sequence[ChatMessage]) -> list[ChatMessage]:
    """``sent`` as the Ollama wire gives it back: developer is system; name, extra, is_error,
    call extra and other providers' data are dropped; generated ids are made again (the
    ones ``read`` holds, position by position), and the results follow their calls."""
    expected: list[ChatMessage] = []
    renamed: dict[str, str] = {}
    for before, after in zip(sent, read, strict=True):
        calls = None
        if before.tool_calls:
            renamed = {}
            calls = []
            for call, new in zip(before.tool_calls, after.tool_calls or (), strict=True):
                call_id = call.id
                if is_generated_id(call, "ollama"):
                    renamed[call.id] = call_id = new.id
                calls.append(
                    ToolCall(
                        call_id,
                        call.name,
                        call.arguments_json,
                        provider_data=_ollama_only(call.provider_data),
                    )
                )
        expected.append(
            ChatMessage(
                Role.SYSTEM if before.role is Role.DEVELOPER else before.role,
                before.content,
                tool_calls=calls,
                tool_call_id=None
                if before.tool_call_id is None
                else renamed.get(before.tool_call_id, before.tool_call_id),
                provider_data=_ollama_only(before.provider_data),
            )
        )
    return expected


def must_only_raise_message_error(read: Callable[[Any], Any], body: Any) -> Any:
    """Call ``read(body)``; only a MessageError may escape. None when it raised."""
    try:
        return read(body)
    except MessageError:
        return None


# -- 1. round trip up to the documented losses --------------------------------------------


@given(tool_loops())
def test_tool_loops_round_trip_up_to_the_documented_losses(messages: list[ChatMessage]) -> None:
    """from_request(to_request(T)) == T for every tool loop T, up to the documented losses,
    also through JSON text; ids toolturns made up are made again and still marked so. On the
    wire, content is always a string, arguments always an object, and results always named."""
    body = _sent(messages)
    for message in body["messages"]:
        assert isinstance(message["content"], str)
        for call in message.get("tool_calls", ()):
            assert isinstance(call["function"]["arguments"], dict)
        if message["role"] == "tool":
            assert isinstance(message["tool_name"], str)
    read = ollama.from_request(body)
    assert read == after_losses(messages, read)
    for before, after in zip(messages, read, strict=True):
        for call, new in zip(before.tool_calls or (), after.tool_calls or (), strict=True):
            assert is_generated_id(new, "ollama") == is_generated_id(call, "ollama")
    assert _sent(read) == body  # and what was read sends the same body again


# -- 2. OpenAI -> Ollama -> OpenAI ----------------------------------------------------------


def _facts(messages: Sequence[ChatMessage]) -> list[Any]:
    """What must survive a trip through another provider: ids, names, argument values, texts."""
    return [
        (
            message.content,
            [ToolCall(call.id, call.name, call.arguments_json) for call in message.tool_calls or ()],
            message.tool_call_id,
        )
        for message in messages
    ]


@given(tool_loops(with_data=False))
def test_openai_to_ollama_to_openai_keeps_ids_names_arguments_and_results(
    messages: list[ChatMessage],
) -> None:
    """A transcript read from the OpenAI wire, sent to Ollama and read back, keeps every id, name,
    argument value and result text, and loses nothing but the documented losses."""
    from_openai = openai.from_request(json.loads(json.dumps(openai.to_request(messages))))
    back = ollama.from_request(_sent(from_openai))
    assert _facts(back) == _facts(from_openai)
    assert back == after_losses(from_openai, back)


# -- 3. only MessageError escapes -----------------------------------------------------------


@given(
    st.one_of(
        s.arbitrary_json(),
        st.lists(native_messages(), max_size=5),
        st.fixed_dictionaries({"messages": st.lists(native_messages(), max_size=5)}),
        st.lists(s.message_dicts(), max_size=3),
        s.mutated(_VALID_BODIES),
    )
)
def test_from_request_raises_only_message_error(body: Any) -> None:
    """Any JSON, near-valid native messages and mutated valid bodies either read or raise a
    MessageError; reading is deterministic, what was read can always be sent again, and
    sending is then stable."""
    read = must_only_raise_message_error(ollama.from_request, body)
    if read is not None:
        assert ollama.from_request(copy.deepcopy(body)) == read
        sent = _sent(read)
        assert _sent(ollama.from_request(sent)) == sent


@given(st.one_of(s.arbitrary_json(), _RESPONSES, s.mutated(_RESPONSES)))
def test_from_response_raises_only_message_error(body: Any) -> None:
    """Any JSON and mutated responses either read as an assistant turn (the same one each time)
    or raise a MessageError; what was read can be sent."""
    turn = must_only_raise_message_error(ollama.from_response, body)
    if turn is not None:
        assert turn.role is Role.ASSISTANT
        assert ollama.from_response(copy.deepcopy(body)) == turn
        _sent([turn])


@given(s.hostile_values(max_leaves=6))
def test_readers_raise_only_message_error_on_values_that_are_not_json(value: Any) -> None:
    """Python values that are not JSON, anywhere in a body, raise nothing but MessageError."""
    for body in (value, {"messages": [value]}, [{"role": "assistant", "content": "", "thinking": value}]):
        must_only_raise_message_error(ollama.from_request, body)
    for body in (value, {"message": value}, {"message": {"role": "assistant", "tool_calls": [value]}}):
        must_only_raise_message_error(ollama.from_response, body)
