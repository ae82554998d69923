"""The core's one-step ways give what the general ways give.

``ChatMessage.from_dict`` reads the common message shapes in one step
(anything else in ``_message._read``, the general way), and trusted constructors build a message or a
call on an unfrozen twin of its class (``_frozen.unfrozen_twin``) where the
interpreter allows it. Each is switched off here to compare: the same
message, or the same error, on arbitrary and mutated message dicts.
"""

from __future__ import annotations

import copyreg
import pickle
import struct
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzz.seeds import seeds
from tests.property import strategies as s
from toolturns import (
    ChatMessage,
    InvalidToolCall,
    MessageError,
    Role,
    TextPart,
    ToolCall,
    _frozen,
    _message,
    _tool_call,
)
from toolturns._extra import EMPTY

_PLAIN: st.SearchStrategy[dict[str, Any]] = st.sampled_from(
    [
        {"role": "user", "content": "Hi"},
        {"role": "system", "content": ""},
        {"role": "assistant", "content": "It is 18 degrees."},
        {"role": "tool", "content": "18", "tool_call_id": "call_1"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}},
                {"id": "call_2", "type": "function", "function": {"name": "g", "arguments": '{"x": 1}'}},
            ],
        },
    ]
)
_JUNK: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.just(""),
    st.just([]),
    st.sampled_from(["tool", "assistant", "USER"]),
    # argument texts the one-step reader stores as they are ("{...") or leaves to encode_arguments
    st.sampled_from([" ", "null", " null\n", " {}", "{", "{} ", "[1]", '{"a": 1}']),
    s.arbitrary_json(),
)


@st.composite
def _near_plain(draw: st.DrawFn) -> dict[str, Any]:
    """A plain message dict with one key set to something else, one key more or less, or one
    key in place of another (as many keys: the length alone proves nothing)."""
    data = dict(draw(_PLAIN))
    key = draw(st.sampled_from([*data, "tool_call_id", "tool_calls", "name", "weight"]))
    edit = draw(st.sampled_from(["set", "drop", "none", "swap"]))
    if edit == "set":
        data[key] = draw(_JUNK)
    elif edit == "drop":
        data.pop(key, None)
    elif edit == "swap":
        data.pop(draw(st.sampled_from(sorted(data))))
        data[key] = draw(_JUNK)
    return data


def _outcome(read: Any) -> Any:
    try:
        return read()
    except MessageError as error:
        return type(error), str(error)


@settings(max_examples=400)
@given(st.one_of(_PLAIN, _near_plain(), s.mutated(st.sampled_from(seeds("message"))), s.arbitrary_json()))
def test_from_dict_in_one_step_gives_what_the_general_way_gives(data: Any) -> None:
    """Each dict reads to the same message, or fails with the same error, either way."""
    fast = _outcome(lambda: ChatMessage.from_dict(data))
    general = _outcome(lambda: _message._read(ChatMessage, data))
    assert fast == general
    if isinstance(fast, ChatMessage):
        assert repr(fast) == repr(general)


@pytest.mark.parametrize("key", ["name", "refusal", "tool_call_id", "function_call", "weight"])
def test_a_call_turn_with_another_key_for_its_content_is_read_the_general_way(key: str) -> None:
    """Three keys, but not the one-step shape: ``content`` is missing and another key stands in
    its place. It is the general way's, which keeps that key or refuses it (a one step of 0.2's
    development, never released, took the missing content for null and dropped the key)."""
    call = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    data = {"role": "assistant", "tool_calls": [call], key: "bob"}
    read = _outcome(lambda: ChatMessage.from_dict(data))
    assert read == _outcome(lambda: _message._read(ChatMessage, data))
    if key == "name":
        assert isinstance(read, ChatMessage)
        assert read.name == "bob"


def test_the_one_step_reader_takes_the_plain_shapes_only() -> None:
    """It reads the plain shapes and leaves the rest (more keys, parts, a repeated call id) to
    the general way, ``_read``: which dicts reach it is what is counted here."""
    general: list[Any] = []
    read = _message._read

    def counted(cls: type[ChatMessage], data: object) -> ChatMessage:
        general.append(data)
        return read(cls, data)

    plain: list[dict[str, Any]] = [
        {"role": "user", "content": "Hi"},
        {"role": "tool", "content": "18", "tool_call_id": "call_1"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c", "function": {"name": "f"}}]},
    ]
    call = {"id": "c", "function": {"name": "f"}}
    other: list[dict[str, Any]] = [
        {"role": "user", "content": "Hi", "name": "ann"},
        {"role": "tool", "content": "18"},
        {"role": "user", "content": [{"type": "text", "text": "Hi"}]},
        {"role": "assistant", "content": None, "tool_calls": [call, call]},
        {"role": "assistant", "content": None, "tool_calls": []},
        {"role": "USER", "content": "Hi"},
    ]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_message, "_read", counted)
        for data in plain:
            assert ChatMessage.from_dict(data) == read(ChatMessage, data)
        assert general == []
        for data in other:
            _outcome(lambda data=data: ChatMessage.from_dict(data))
        assert general == other


def test_trusted_construction_without_the_twin_gives_the_same_values() -> None:
    """Where the twin is not used (not CPython, or a free-threaded build), the trusted
    constructors set each slot through its setter and give equal, frozen values."""
    call = ToolCall._checked("call_1", "f", "{}", EMPTY, EMPTY)
    message = ChatMessage._plain(Role.ASSISTANT, "hi", None, (call,))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_message, "_Unfrozen", None)
        patch.setattr(_tool_call, "_Unfrozen", None)
        slow_call = ToolCall._checked("call_1", "f", "{}", EMPTY, EMPTY)
        slow = ChatMessage._plain(Role.ASSISTANT, "hi", None, (slow_call,))
    assert (type(slow), type(slow_call)) == (ChatMessage, ToolCall)
    assert slow == message
    assert repr(slow) == repr(message)
    assert pickle.loads(pickle.dumps(message)) == slow
    with pytest.raises(AttributeError):
        message.content = "changed"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        call.id = "changed"  # type: ignore[misc]


class _Call(ToolCall):
    __slots__ = ("note",)  # another layout: never made the twin of a ToolCall


@pytest.mark.parametrize(
    "arguments", [None, "", '{"city": "Paris"}', " {} ", {"city": "Paris", "days": [1, 2.5]}, {}]
)
def test_tool_call_init_sets_through_the_twin_what_the_setters_set(arguments: Any) -> None:
    """``ToolCall(...)`` makes a call its twin to set its slots at once: the call is the one the
    slots' own setters make (where there is no twin, and for a subclass), frozen, a ToolCall."""
    extra = {"note": "kept"}
    data = {"openai": {"keys": {"id": "fc_1"}}}
    call = ToolCall("call_1", "get_weather", arguments, extra=extra, provider_data=data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_tool_call, "_Unfrozen", None)
        slow = ToolCall("call_1", "get_weather", arguments, extra=extra, provider_data=data)
    sub = _Call("call_1", "get_weather", arguments, extra=extra, provider_data=data)
    assert (type(call), type(slow), type(sub)) == (ToolCall, ToolCall, _Call)
    for other in (slow, sub):
        assert (other.id, other.name, other.arguments_json, other.extra, other.provider_data) == (
            call.id,
            call.name,
            call.arguments_json,
            call.extra,
            call.provider_data,
        )
    assert call == slow
    assert hash(call) == hash(slow)
    assert repr(call) == repr(slow)
    assert pickle.loads(pickle.dumps(call)) == call
    with pytest.raises(AttributeError):
        call.name = "changed"  # type: ignore[misc]
    with pytest.raises(InvalidToolCall, match="id: must be a non-empty string"):
        ToolCall("", "get_weather", arguments)


class _PlainCall(ToolCall):
    pass


@pytest.mark.parametrize(
    "data",
    [
        {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}},  # one step
        {"id": "call_1", "function": {"name": "f", "arguments": {"x": 1}}, "note": "kept"},  # general
    ],
)
@pytest.mark.parametrize("twin", [True, False], ids=["twin", "setters"])
def test_a_subclass_reads_a_call_of_its_own_class(data: dict[str, Any], twin: bool) -> None:
    """``from_dict`` on a subclass gives the subclass, whichever way it reads and builds the call."""
    with pytest.MonkeyPatch.context() as patch:
        if not twin:
            patch.setattr(_tool_call, "_Unfrozen", None)
        for cls in (_Call, _PlainCall):
            call = cls.from_dict(data)
            assert type(call) is cls
            assert call.to_wire() == ToolCall.from_dict(data).to_wire()
    assert type(ToolCall.from_dict(data)) is ToolCall


def test_tool_call_names_its_slots_once() -> None:
    """As a class that declares its own slots does: its fields, named once where copyreg looks."""
    names = ("_key", "arguments_json", "extra", "id", "name", "provider_data")
    assert ToolCall.__slots__ == names
    assert copyreg._slotnames(ToolCall) == list(names)  # type: ignore[attr-defined]
    assert ToolCall.__basicsize__ == object.__basicsize__ + len(names) * struct.calcsize("P")
    assert pickle.loads(pickle.dumps(ToolCall.id)) is ToolCall.id


class _Message(ChatMessage):
    __slots__ = ("note",)  # another layout: never made the twin of a ChatMessage


@pytest.mark.parametrize(
    "fields",
    [
        {"role": "user", "content": "hi", "name": "ann"},
        {"role": Role.TOOL, "content": [TextPart("18")], "tool_call_id": "call_1", "is_error": True},
        {"role": "assistant", "content": "", "tool_calls": [ToolCall("call_1", "f")], "extra": {"x": 1}},
        {"role": "assistant", "content": "ok", "provider_data": {"openai": {"keys": {"refusal": "no"}}}},
    ],
)
def test_message_init_sets_through_the_twin_what_the_setters_set(fields: dict[str, Any]) -> None:
    """``ChatMessage(...)`` (``_fill``) makes a message its twin to set its fields at once: the
    message the slots' own setters make (where there is no twin, and for a subclass), frozen."""
    message = ChatMessage(**fields)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_message, "_Unfrozen", None)
        slow = ChatMessage(**fields)
    sub = _Message(**fields)
    assert (type(message), type(slow), type(sub)) == (ChatMessage, ChatMessage, _Message)
    for field in _message._FIELDS:
        assert getattr(sub, field) == getattr(slow, field) == getattr(message, field), field
    assert message == slow
    assert hash(message) == hash(slow)
    assert repr(message) == repr(slow)
    assert pickle.loads(pickle.dumps(message)) == message
    with pytest.raises(AttributeError):
        message.content = "changed"  # type: ignore[misc]
    with pytest.raises(MessageError, match="name: must be a non-empty string"):
        ChatMessage(**{**fields, "name": ""})


@pytest.mark.parametrize(
    ("implementation", "gil"), [("pypy", True), ("cpython", False)], ids=["not-cpython", "free-threaded"]
)
def test_no_twin_where_changing_a_class_is_not_cheap(
    monkeypatch: pytest.MonkeyPatch, implementation: str, gil: bool
) -> None:
    """unfrozen_twin gives None but on CPython with its GIL; there it gives the base that holds the slots."""
    for cls in (ToolCall, ChatMessage):
        twin = _frozen.unfrozen_twin(cls)
        assert cls.__bases__ == (twin,)
        assert twin.__basicsize__ == cls.__basicsize__ > object.__basicsize__
        assert "__setattr__" not in vars(twin)
    monkeypatch.setattr(sys.implementation, "name", implementation)
    monkeypatch.setattr(sys, "_is_gil_enabled", lambda: gil, raising=False)
    assert _frozen.unfrozen_twin(ToolCall) is None


def test_a_class_that_adds_to_its_base_has_no_twin() -> None:
    """Its instances could never be made from one of its base: it is refused when it is declared."""

    class Base:
        __slots__ = ("one",)

    class Slotted(Base):
        __slots__ = ("two",)

    class Unslotted(Base):
        pass

    for cls in (Slotted, Unslotted):
        with pytest.raises(TypeError, match=f"{cls.__name__} must add no slots and no __dict__ to its base"):
            _frozen.unfrozen_twin(cls)


_CALL: dict[str, Any] = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "f", "arguments": '{"x": 1}'},
}


@st.composite
def _near_plain_call(draw: st.DrawFn) -> dict[str, Any]:
    """The plain call dict with one key, of the call or of its function, changed, added or dropped."""
    call = {**_CALL, "function": dict(_CALL["function"])}
    target = call["function"] if draw(st.booleans()) else call
    key = draw(st.sampled_from([*target, "index", "extra_key"]))
    edit = draw(st.sampled_from(["set", "drop", "none"]))
    if edit == "set":
        target[key] = draw(_JUNK)
    elif edit == "drop":
        target.pop(key, None)
    return call


@settings(max_examples=300)
@given(st.one_of(_near_plain_call(), s.arbitrary_json()))
def test_a_call_read_in_one_step_is_what_the_general_way_reads(data: Any) -> None:
    """ToolCall.from_dict gives the same call, or the same error, with its one-step way switched off."""
    fast = _outcome(lambda: ToolCall.from_dict(data))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_tool_call, "_plain_call", lambda data: None)
        general = _outcome(lambda: ToolCall.from_dict(data))
    assert fast == general
    assert repr(fast) == repr(general)
    assert _tool_call._plain_call(_CALL) == ToolCall.from_dict(_CALL)


_CALLS = (ToolCall("call_1", "f"), ToolCall("call_2", "g", {"x": 1}), ToolCall("call_1", "h"))


@settings(max_examples=300)
@given(
    content=st.one_of(st.text(max_size=3), st.just([TextPart("a")]), _JUNK),
    name=st.one_of(st.just("ann"), _JUNK),
    extra=st.one_of(st.just({"weight": 1}), _JUNK),
    call_id=st.one_of(st.just("call_1"), _JUNK),
    is_error=st.one_of(st.booleans(), _JUNK),
    calls=st.one_of(
        st.lists(st.sampled_from(_CALLS), max_size=3),
        st.lists(st.sampled_from(_CALLS), max_size=3).map(tuple),
        _JUNK,
    ),
)
def test_named_constructors_in_one_step_give_what_the_general_way_gives(
    content: Any, name: Any, extra: Any, call_id: Any, is_error: Any, calls: Any
) -> None:
    """Each named constructor gives what ``_make``, its general way, gives: the same message or the same error."""
    make = ChatMessage._make
    pairs: list[tuple[Any, Any]] = [
        (lambda: ChatMessage.system(content, name=name), lambda: make(Role.SYSTEM, content, name=name)),
        (lambda: ChatMessage.developer(content, name=name), lambda: make(Role.DEVELOPER, content, name=name)),
        (
            lambda: ChatMessage.user(content, name=name, extra=extra),
            lambda: make(Role.USER, content, name=name, extra=extra),
        ),
        (lambda: ChatMessage.user(content), lambda: make(Role.USER, content)),
        (lambda: ChatMessage.assistant(content, name=name), lambda: make(Role.ASSISTANT, content, name=name)),
        (lambda: ChatMessage.assistant(content), lambda: make(Role.ASSISTANT, content)),
        (
            lambda: ChatMessage.assistant_tool_calls(calls, content, name=name),
            lambda: make(Role.ASSISTANT, "" if content is None else content, tool_calls=calls, name=name),
        ),
        (
            lambda: ChatMessage.assistant_tool_calls(calls, content),
            lambda: make(Role.ASSISTANT, "" if content is None else content, tool_calls=calls),
        ),
        (
            lambda: ChatMessage.tool_result(call_id, content, is_error=is_error),
            lambda: make(Role.TOOL, content, tool_call_id=call_id, is_error=is_error),
        ),
        (
            lambda: ChatMessage.tool_result(call_id, content),
            lambda: make(Role.TOOL, content, tool_call_id=call_id),
        ),
    ]
    for fast, general in pairs:
        fast_outcome, general_outcome = _outcome(fast), _outcome(general)
        assert fast_outcome == general_outcome
        assert repr(fast_outcome) == repr(general_outcome)


class _Turn(ChatMessage):
    """A caller's subclass: its constructors and its reader make its own class, not a ChatMessage."""

    __slots__ = ()


def test_a_subclass_gets_its_own_class_from_every_constructor() -> None:
    """The one-step ways make a ChatMessage; a subclass goes the general way and gets a _Turn."""
    call = ToolCall("call_1", "f")
    made = [
        _Turn.system("s"),
        _Turn.developer("d"),
        _Turn.user("u"),
        _Turn.assistant("a"),
        _Turn.assistant_tool_calls([call]),
        _Turn.tool_result("call_1", "r"),
        _Turn.from_dict({"role": "user", "content": "u"}),
        _Turn.from_dict({"role": "tool", "content": "r", "tool_call_id": "call_1"}),
        _Turn.from_dict({"role": "assistant", "content": None, "tool_calls": [call.to_wire()]}),
    ]
    assert [type(message) for message in made] == [_Turn] * len(made)
    assert made[-1] == _Turn.assistant_tool_calls([call])
    assert made[-1] != ChatMessage.assistant_tool_calls([call])  # equal values of one class only


class _WrittenCall(ToolCall):
    """A caller's call class with its own wire form."""

    __slots__ = ()

    def to_wire(self) -> dict[str, Any]:
        return {**super().to_wire(), "written_by": "_WrittenCall"}


@given(
    st.lists(
        st.one_of(
            st.sampled_from(_CALLS[:2]),
            st.builds(
                ToolCall,
                st.sampled_from(["call_a", "call_b"]),
                st.just("f"),
                st.none(),
                extra=st.one_of(
                    st.just({}), st.dictionaries(st.sampled_from(["x", "y"]), s.arbitrary_json())
                ),
            ),
            st.just(_WrittenCall("call_c", "g", {"x": 1})),
        ),
        min_size=1,
        max_size=3,
        unique_by=lambda call: call.id,
    )
)
def test_a_turn_writes_each_call_as_the_call_writes_itself(calls: list[ToolCall]) -> None:
    """``ChatMessage.to_wire`` writes each call as the call's ``to_wire`` writes it, extra keys
    and a subclass's own form included (the one place a call's wire shape is written)."""
    turn = ChatMessage.assistant_tool_calls(calls)
    assert turn.to_wire()["tool_calls"] == [call.to_wire() for call in calls]
