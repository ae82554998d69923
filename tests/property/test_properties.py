"""Property tests of the value objects: wire round trips, value equality and
hashing, pickling, immutability, "only MessageError escapes", and arguments."""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import pickle
import types
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolturns import ChatMessage, InvalidArguments, MessageError, Role, ToolCall

from . import strategies as s

# -- helpers ----------------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def decode(text: str) -> Any:
    """Decode JSON text the way the spec reads it: NaN and Infinity are not JSON."""
    return json.loads(text, parse_constant=_reject_constant)


def strict_equal(left: Any, right: Any) -> bool:
    """JSON equality that tells true from 1, 1 from 1.0 and 0.0 from -0.0."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return list(left) == list(right) and all(strict_equal(left[key], right[key]) for key in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(strict_equal(a, b) for a, b in zip(left, right, strict=True))
    if isinstance(left, float):
        return left == right and math.copysign(1.0, left) == math.copysign(1.0, right)
    return bool(left == right)


def snapshot(value: ChatMessage | ToolCall) -> str:
    """What an object holds, exactly, at this moment: its wire form and its provider data as text."""
    calls = value.tool_calls or () if isinstance(value, ChatMessage) else ()
    held = [dict(value.provider_data), *(dict(call.provider_data) for call in calls)]
    return json.dumps([value.to_wire(), held])


def deep_mutate(value: Any) -> None:
    """Change every list and dict inside ``value`` in place."""
    pending = [value]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            pending.extend(node.values())
            node["\ue000mutated"] = 1
        elif isinstance(node, list):
            pending.extend(node)
            node.append("\ue000mutated")


def as_mapping_input(value: Any) -> Any:
    """``value`` with every dict a read-only mapping proxy and every list a tuple."""
    if isinstance(value, dict):
        return types.MappingProxyType({key: as_mapping_input(child) for key, child in value.items()})
    if isinstance(value, list):
        return tuple(as_mapping_input(child) for child in value)
    return value


def read(reader: Callable[[Any], Any], data: Any) -> Any:
    """Call ``reader(data)``; a MessageError gives None, any other exception fails the test."""
    try:
        return reader(data)
    except MessageError as error:
        caught = error
    # Structured, and printable: the message says where and which rule.
    assert isinstance(caught.path, str)
    assert isinstance(caught.rule, str)
    assert caught.rule
    assert str(caught)
    return None


def assert_equal_and_hash_equal(values: list[Any]) -> None:
    for left in values:
        for right in values:
            assert left == right
            assert hash(left) == hash(right)


def rebuilt_wire(data: st.DataObject, wire: dict[str, Any]) -> dict[str, Any]:
    """The wire dict of a message with keys reordered and call arguments re-laid out."""
    result = data.draw(s.reordered(wire))
    for call in result.get("tool_calls") or []:
        text = call["function"]["arguments"]
        try:
            value = decode(text)
        except ValueError:
            continue
        if not isinstance(value, dict):
            continue
        # The decoded form (an object) or the same value in another layout.
        call["function"]["arguments"] = data.draw(st.one_of(s.reordered(value), s.json_texts(value)))
    return result


_EMPTY_TEXTS = frozenset(["", "null"])


def means_no_arguments(text: str) -> bool:
    return text.strip(" \t\n\r") in _EMPTY_TEXTS


# -- 1. messages round-trip through the wire --------------------------------------------


@given(s.chat_messages(allow_is_error=False))
def test_message_round_trips_through_the_wire(message: ChatMessage) -> None:
    """ChatMessage.from_dict(m.to_wire()) == m, also through JSON text and with null content,
    and reading the wire back emits the very same wire."""
    for null_content in (False, True):
        wire = message.to_wire(null_content=null_content)
        for data in (wire, json.loads(json.dumps(wire))):
            back = ChatMessage.from_dict(data)
            assert back == message
            assert strict_equal(back.to_wire(null_content=null_content), wire)


@given(s.chat_messages())
def test_is_error_is_the_only_field_the_wire_drops(message: ChatMessage) -> None:
    """Reading back the wire of any message, tool errors included, gives the message with is_error false."""
    assert ChatMessage.from_dict(message.to_wire()) == dataclasses.replace(message, is_error=False)


@given(s.chat_messages())
def test_wire_keys_come_in_the_documented_order(message: ChatMessage) -> None:
    """to_wire() keys are role, content, name?, tool_calls?, tool_call_id?, then the extra keys;
    a plain message is exactly {role, content}; content is null only when asked, beside tool calls."""
    wire = message.to_wire()
    modelled = [key for key in ("role", "content", "name", "tool_calls", "tool_call_id") if key in wire]
    assert list(wire) == modelled + list(message.extra)
    assert wire["role"] == message.role.value
    assert wire["content"] == message.content
    if message.name is None and message.tool_calls is None and message.tool_call_id is None:
        assert modelled == ["role", "content"]
    assert "is_error" not in wire
    nulled = message.to_wire(null_content=True)["content"]
    assert nulled == message.content or (nulled is None and message.tool_calls and not message.content)


# -- 2. tool calls round-trip and compare by value --------------------------------------


@given(s.tool_calls())
def test_tool_call_round_trips_through_the_wire(call: ToolCall) -> None:
    """ToolCall.from_dict(c.to_wire()) == c, also through JSON text; the wire carries the
    argument text unchanged with type "function", and reading it back emits the same wire."""
    wire = call.to_wire()
    assert wire["type"] == "function"
    assert wire["function"] == {"name": call.name, "arguments": call.arguments_json}
    for data in (wire, json.loads(json.dumps(wire))):
        back = ToolCall.from_dict(data)
        assert back == call
        assert back.arguments_json == call.arguments_json
        assert strict_equal(back.to_wire(), wire)


@given(st.data(), s.json_objects())
def test_tool_call_equality_ignores_argument_layout(data: st.DataObject, value: dict[str, Any]) -> None:
    """Calls whose arguments are the same JSON value are equal with equal hashes, however the text
    is laid out (white space, key order, escapes, number spelling) and whether given as text,
    mapping or the decoded wire form."""
    first = data.draw(s.json_texts(value), label="first")
    second = data.draw(s.json_texts(value), label="second")
    decoded_form = {"id": "c", "function": {"name": "f", "arguments": data.draw(s.reordered(value))}}
    calls = [
        ToolCall("c", "f", value),
        ToolCall("c", "f", first),
        ToolCall("c", "f", second),
        ToolCall.from_dict(decoded_form),
        ToolCall.from_dict({"id": "c", "type": "function", "function": {"name": "f", "arguments": second}}),
    ]
    assert_equal_and_hash_equal(calls)
    assert calls[1].arguments_json == first  # equal, yet each keeps its own text
    assert ToolCall("c", "g", value) != calls[0]
    assert ToolCall("d", "f", value) != calls[0]


@given(
    s.json_objects(deep=False),
    s.unicode_text(max_size=5),
    st.sampled_from([(True, 1), (False, 0), (True, 1.0), (False, 0.0)]),
)
def test_json_true_and_1_are_different_values(
    base: dict[str, Any], key: str, pair: tuple[bool, int | float]
) -> None:
    """JSON true/false and the numbers 1/0 are different values: in arguments (given as a mapping
    or as text) and in extra, calls and messages that differ only there are unequal."""
    boolean, number = pair
    with_bool, with_number = {**base, key: boolean}, {**base, key: number}
    assert ToolCall("c", "f", with_bool) != ToolCall("c", "f", with_number)
    assert ToolCall("c", "f", json.dumps(with_bool)) != ToolCall("c", "f", json.dumps(with_number))
    assert ToolCall("c", "f", extra={"k": boolean}) != ToolCall("c", "f", extra={"k": number})
    assert ChatMessage.user("x", extra={"k": boolean}) != ChatMessage.user("x", extra={"k": number})
    assert ChatMessage.user("x", extra={"k": [boolean]}) != ChatMessage.user("x", extra={"k": [number]})


# -- 3. equal implies equal hash --------------------------------------------------------


@given(st.data(), s.tool_calls(with_provider_data=True))
def test_tool_calls_built_in_different_ways_are_equal_with_equal_hashes(
    data: st.DataObject, call: ToolCall
) -> None:
    """A call rebuilt from its text, its reordered wire, its decoded arguments in another layout,
    or its extra in another key order equals the original, with the same hash."""
    wire = call.to_wire()
    provider_data = dict(call.provider_data)
    rebuilt = [
        call,
        ToolCall(
            call.id, call.name, call.arguments_json, extra=dict(call.extra), provider_data=provider_data
        ),
        ToolCall(
            call.id,
            call.name,
            call.arguments_json,
            extra=data.draw(s.reordered(dict(call.extra))),
            provider_data=data.draw(s.reordered(provider_data)),
        ),
        copy.copy(call),
    ]
    if not provider_data:  # the OpenAI wire does not carry it
        rebuilt.append(ToolCall.from_dict(data.draw(s.reordered(wire))))
    try:
        value = decode(call.arguments_json)
    except ValueError:
        value = None
    if isinstance(value, dict):  # the decoded form carries objects only
        text = data.draw(s.json_texts(value))
        rebuilt.append(
            ToolCall(call.id, call.name, text, extra=dict(call.extra), provider_data=provider_data)
        )
        if not provider_data:
            wire["function"]["arguments"] = data.draw(s.reordered(value))
            rebuilt.append(ToolCall.from_dict(wire))
    assert_equal_and_hash_equal(rebuilt)


@given(st.data(), s.chat_messages(with_provider_data=True))
def test_messages_built_in_different_ways_are_equal_with_equal_hashes(
    data: st.DataObject, message: ChatMessage
) -> None:
    """A message rebuilt from its reordered wire (call arguments re-laid out or decoded), through
    the constructor with plain values, or by dataclasses.replace equals it, with the same hash."""
    wire = message.to_wire()
    rebuilt = [
        message,
        dataclasses.replace(message),
        ChatMessage(
            message.role.value,
            message.content,
            tool_calls=None if message.tool_calls is None else list(message.tool_calls),
            tool_call_id=message.tool_call_id,
            name=message.name,
            is_error=message.is_error,
            extra=data.draw(s.reordered(dict(message.extra))),
            provider_data=data.draw(s.reordered(dict(message.provider_data))),
        ),
    ]
    carries_provider_data = message.provider_data or any(
        call.provider_data for call in message.tool_calls or ()
    )
    if not message.is_error and not carries_provider_data:  # what the OpenAI wire drops
        rebuilt.append(ChatMessage.from_dict(wire))
        rebuilt.append(ChatMessage.from_dict(rebuilt_wire(data, wire)))
    assert_equal_and_hash_equal(rebuilt)


@given(s.small_tool_calls(), s.small_tool_calls())
def test_equal_tool_calls_have_equal_hashes(left: ToolCall, right: ToolCall) -> None:
    """For any two calls (drawn from a tiny domain so that many are equal): a == b is symmetric
    and implies hash(a) == hash(b)."""
    assert left == left
    assert (left == right) == (right == left)
    assert (left != right) != (left == right)
    if left == right:
        assert hash(left) == hash(right)


@given(s.small_chat_messages(), s.small_chat_messages())
def test_equal_messages_have_equal_hashes(left: ChatMessage, right: ChatMessage) -> None:
    """For any two messages (drawn from a tiny domain so that many are equal): a == b is symmetric
    and implies hash(a) == hash(b)."""
    assert left == left
    assert (left == right) == (right == left)
    if left == right:
        assert hash(left) == hash(right)


# -- 4. pickle and copy -----------------------------------------------------------------


@given(st.one_of(s.chat_messages(with_provider_data=True), s.tool_calls(with_provider_data=True)))
def test_pickle_and_copy_give_equal_objects(value: ChatMessage | ToolCall) -> None:
    """Pickling (every protocol), copy.copy and copy.deepcopy give an equal object of the same
    type, with the same hash and the same wire form."""
    wire = snapshot(value)
    copies = [pickle.loads(pickle.dumps(value, protocol)) for protocol in range(pickle.HIGHEST_PROTOCOL + 1)]
    copies += [copy.copy(value), copy.deepcopy(value)]
    for other in copies:
        assert type(other) is type(value)
        assert other == value
        assert hash(other) == hash(value)
        assert snapshot(other) == wire
        assert other.provider_data == value.provider_data
        if isinstance(other, ChatMessage):
            assert isinstance(value, ChatMessage)
            assert other.is_error == value.is_error


# -- 5. immutability --------------------------------------------------------------------

_MESSAGE_FIELDS = [field.name for field in dataclasses.fields(ChatMessage)]
_CALL_FIELDS = ["id", "name", "arguments_json", "arguments", "extra", "provider_data"]


@given(s.chat_messages(with_provider_data=True), st.sampled_from(_MESSAGE_FIELDS), s.json_leaves())
def test_message_fields_cannot_be_assigned(message: ChatMessage, field: str, value: Any) -> None:
    """Assigning or deleting any field of a message raises FrozenInstanceError and changes nothing."""
    before = snapshot(message)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(message, field, value)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(message, field)
    assert snapshot(message) == before


@given(s.tool_calls(with_provider_data=True), st.sampled_from(_CALL_FIELDS), s.json_leaves())
def test_tool_call_fields_cannot_be_assigned(call: ToolCall, field: str, value: Any) -> None:
    """Assigning or deleting any field of a call (or its arguments property) raises
    FrozenInstanceError and changes nothing."""
    before = snapshot(call)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(call, field, value)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(call, field)
    assert snapshot(call) == before


@given(st.one_of(s.chat_messages(), s.tool_calls()), s.unicode_text(max_size=8), s.json_leaves())
def test_new_attributes_cannot_be_added(value: ChatMessage | ToolCall, attribute: str, new: Any) -> None:
    """Setting or deleting an attribute that is not a field (``m.note = ...``) raises AttributeError
    (as assigning a field does) and changes nothing."""
    before = snapshot(value)
    attribute = "unknown_" + attribute
    with pytest.raises(AttributeError):
        setattr(value, attribute, new)
    with pytest.raises(AttributeError):
        delattr(value, attribute)
    assert snapshot(value) == before


@given(
    st.one_of(
        s.chat_messages(extra=s.message_extras(), with_provider_data=True),
        s.tool_calls(extra=s.tool_call_extras(), with_provider_data=True),
    )
)
def test_extra_is_read_only(value: ChatMessage | ToolCall) -> None:
    """The extra and provider_data mappings cannot be changed: item assignment, deletion and
    attribute assignment raise."""
    before = snapshot(value)
    mappings: list[Any] = [value.extra, value.provider_data]
    for mapping in mappings:
        key = next(iter(mapping), "absent")
        with pytest.raises(TypeError):
            mapping[key] = 1
        with pytest.raises(TypeError):
            del mapping[key]
        with pytest.raises(AttributeError):
            mapping._texts = {}  # even the private store is guarded
    assert snapshot(value) == before


@given(s.chat_messages(with_provider_data=True))
def test_mutating_returned_data_changes_nothing(message: ChatMessage) -> None:
    """Mutating what a message or call hands out (to_wire(), extra[...], provider_data[...],
    to_dict(), arguments) does not change the object: each access gives fresh data."""
    before = snapshot(message)
    calls = message.tool_calls or ()
    call_before = [snapshot(call) for call in calls]
    deep_mutate(message.to_wire())
    deep_mutate(message.to_wire(null_content=True))
    for mapping in (message.extra, message.provider_data):
        deep_mutate(dict(mapping))
        for key in mapping:
            deep_mutate(mapping[key])
    for call in calls:
        deep_mutate(call.to_wire())
        for mapping in (call.extra, call.provider_data):
            deep_mutate(dict(mapping))
            for key in mapping:
                deep_mutate(mapping[key])
        try:
            arguments = call.arguments
        except InvalidArguments:
            continue
        deep_mutate(arguments)
        assert arguments is not call.arguments
        assert strict_equal(call.arguments, decode(call.arguments_json))
    assert snapshot(message) == before
    assert [snapshot(call) for call in calls] == call_before


@given(s.json_objects(), s.tool_call_extras(), s.message_extras(), s.unicode_text())
def test_mutating_constructor_inputs_changes_nothing(
    arguments: dict[str, Any], call_extra: dict[str, Any], message_extra: dict[str, Any], content: str
) -> None:
    """Mutating the dicts and lists given to a constructor after the call (arguments, extra, the
    list of tool calls) does not change the object built."""
    originals = copy.deepcopy((arguments, call_extra, message_extra))
    call = ToolCall("c", "f", arguments, extra=call_extra)
    calls = [call]
    message = ChatMessage(Role.ASSISTANT, content, tool_calls=calls, extra=message_extra)
    call_before, message_before = snapshot(call), snapshot(message)
    deep_mutate(arguments)
    deep_mutate(call_extra)
    deep_mutate(message_extra)
    calls.append(ToolCall("d", "g"))
    calls[0] = ToolCall("e", "h")
    assert snapshot(call) == call_before
    assert snapshot(message) == message_before
    assert message.tool_calls == (call,)
    assert strict_equal(call.arguments, originals[0])
    assert strict_equal(dict(call.extra), originals[1])
    assert strict_equal(dict(message.extra), originals[2])


@given(s.tool_call_extras(), s.message_extras())
def test_extra_is_validated_whatever_mapping_carries_it(
    call_extra: dict[str, Any], message_extra: dict[str, Any]
) -> None:
    """extra is checked the same way whether it is a plain dict or the extra mapping of another
    object: a key the receiver models (role, content, ... / id, type, function) is rejected either
    way, and never overwrites a modelled field on the wire."""
    call = ToolCall("c", "f", extra=call_extra)
    message = ChatMessage.user("x", extra=message_extra)

    def outcome(
        build: Callable[[Mapping[str, Any]], ChatMessage | ToolCall], extra: Mapping[str, Any]
    ) -> Any:
        try:
            return snapshot(build(extra))
        except MessageError as error:
            return type(error), error.path, error.rule

    def as_message(extra: Mapping[str, Any]) -> ChatMessage:
        return ChatMessage.user("x", extra=extra)

    def as_call(extra: Mapping[str, Any]) -> ToolCall:
        return ToolCall("c", "f", extra=extra)

    assert outcome(as_message, call.extra) == outcome(as_message, dict(call.extra))
    assert outcome(as_call, message.extra) == outcome(as_call, dict(message.extra))


@given(s.unicode_text(), s.message_extras(), st.lists(st.sampled_from([None, "", [], {}]), max_size=3))
def test_extra_drops_only_values_that_carry_nothing(
    content: str, extra: dict[str, Any], empties: list[Any]
) -> None:
    """Extra keys whose value is null, "", [] or {} are dropped; every other value (0 and false
    included) is kept and emitted again."""
    padded = {**{f"\ue001empty{index}": value for index, value in enumerate(empties)}, **extra}
    message = ChatMessage.user(content, extra=padded)
    assert message == ChatMessage.user(content, extra=extra)
    assert strict_equal(dict(message.extra), extra)
    assert strict_equal({key: message.to_wire()[key] for key in extra}, extra)


# -- 6. only MessageError escapes -------------------------------------------------------

_wires = s.chat_messages().map(ChatMessage.to_wire)
_call_wires = s.tool_calls().map(ToolCall.to_wire)


def check_message_read(data: Any) -> None:
    message = read(ChatMessage.from_dict, data)
    if message is None:
        return
    assert isinstance(message, ChatMessage)
    expected = dataclasses.replace(message, is_error=False)
    for null_content in (False, True):
        wire = message.to_wire(null_content=null_content)
        assert ChatMessage.from_dict(wire) == expected
        assert ChatMessage.from_dict(json.loads(json.dumps(wire))) == expected
    for call in message.tool_calls or ():
        check_arguments(call)


def check_call_read(data: Any) -> None:
    call = read(ToolCall.from_dict, data)
    if call is None:
        return
    assert isinstance(call, ToolCall)
    assert ToolCall.from_dict(call.to_wire()) == call
    assert ToolCall.from_dict(json.loads(json.dumps(call.to_wire()))) == call
    check_arguments(call)


def check_arguments(call: ToolCall) -> None:
    try:
        arguments = call.arguments
    except InvalidArguments as error:
        caught = error
    else:
        assert isinstance(arguments, dict)
        return
    assert caught.raw == call.arguments_json
    assert (caught.call_id, caught.name) == (call.id, call.name)


@given(st.one_of(s.arbitrary_json(), s.message_dicts(), s.mutated(_wires), s.mutated(s.message_dicts())))
def test_message_from_dict_raises_only_message_error(data: Any) -> None:
    """ChatMessage.from_dict of any JSON either succeeds or raises a MessageError subclass (no
    KeyError, TypeError, ...); a message it reads round-trips through to_wire/from_dict."""
    check_message_read(data)


@given(
    st.one_of(s.arbitrary_json(), s.tool_call_dicts(), s.mutated(_call_wires), s.mutated(s.tool_call_dicts()))
)
def test_tool_call_from_dict_raises_only_message_error(data: Any) -> None:
    """ToolCall.from_dict of any JSON either succeeds or raises a MessageError subclass; a call
    it reads round-trips through to_wire/from_dict, and its arguments decode or raise
    InvalidArguments carrying the raw text."""
    check_call_read(data)


_hostile = s.hostile_values()


@given(
    st.one_of(
        _hostile,
        s.message_dicts(junk=_hostile),
        s.tool_call_dicts(junk=_hostile),
        s.mutated(_wires, junk=_hostile),
        s.mutated(_call_wires, junk=_hostile),
    )
)
def test_readers_raise_only_message_error_on_values_that_are_not_json(data: Any) -> None:
    """Given Python values that are not JSON (NaN, huge ints, bytes, sets, non-str keys, circular
    or 1000-deep structures...), from_dict and the constructors' mapping arguments either succeed
    or raise a MessageError subclass."""
    check_message_read(data)
    check_call_read(data)
    if isinstance(data, Mapping):
        read(lambda value: ToolCall("c", "f", value), data)
        read(lambda value: ToolCall("c", "f", extra=value), data)
        read(lambda value: ChatMessage.user("x", extra=value), data)


# -- 7. arguments -----------------------------------------------------------------------


@given(s.argument_mappings())
def test_mapping_arguments_decode_to_the_same_value(value: dict[str, Any]) -> None:
    """For any JSON-object mapping v, ToolCall(id, name, v).arguments == v (true, 1 and 1.0 told
    apart), a fresh dict on each access, and arguments_json is compact JSON of v."""
    call = ToolCall("c", "f", value)
    assert strict_equal(call.arguments, value)
    assert call.arguments is not call.arguments
    compact = {
        json.dumps(value, separators=(",", ":"), ensure_ascii=ascii, allow_nan=False)
        for ascii in (False, True)
    }
    assert call.arguments_json in compact


@given(s.argument_mappings(deep=False))
def test_any_mapping_and_sequence_is_accepted_as_arguments(value: dict[str, Any]) -> None:
    """Arguments given as read-only mappings and tuples are encoded like dicts and lists."""
    call = ToolCall("c", "f", as_mapping_input(value))
    assert strict_equal(call.arguments, value)
    assert call == ToolCall("c", "f", value)


@given(s.raw_argument_texts())
def test_raw_argument_text_is_kept_byte_for_byte(text: str) -> None:
    """Raw argument text is kept exactly (valid or not) unless it means "no arguments"; arguments
    decodes it to the same object, or raises InvalidArguments carrying call_id, name and raw."""
    call = ToolCall("c", "f", text)
    assert call.arguments_json == ("{}" if means_no_arguments(text) else text)
    assert call.to_wire()["function"]["arguments"] == call.arguments_json
    try:
        value = decode(call.arguments_json)
    except ValueError:
        value = None
    if isinstance(value, dict):
        assert strict_equal(call.arguments, value)
        assert ToolCall("c", "f", value) == call  # decoding and encoding again keeps the value
    else:
        with pytest.raises(InvalidArguments) as raised:
            _ = call.arguments
        assert (raised.value.call_id, raised.value.name, raised.value.raw) == ("c", "f", text)


@given(st.one_of(s.empty_argument_texts(), st.none(), st.just({}), st.just(types.MappingProxyType({}))))
def test_empty_arguments_normalise_to_an_empty_object(arguments: Any) -> None:
    """None, {}, "", JSON white space and null (with white space) all mean "no arguments" and are
    stored and sent as the two characters {}."""
    call = ToolCall("c", "f", arguments)
    assert call.arguments_json == "{}"
    assert call.arguments == {}
    assert call.to_wire()["function"]["arguments"] == "{}"
    assert call == ToolCall("c", "f")
    assert hash(call) == hash(ToolCall("c", "f"))


_NOT_JSON = [
    float("nan"),
    float("inf"),
    -float("inf"),
    s.TOO_LONG_INT,
    b"bytes",
    {1, 2},
    frozenset(),
    Decimal("1.5"),
    1j,
    object(),
    {1: "int key"},
    {None: "null key"},
    [[float("nan")]],
]


@given(s.json_objects(deep=False), s.unicode_text(max_size=5), st.sampled_from(_NOT_JSON))
def test_mapping_arguments_that_are_not_json_are_rejected_now(
    base: dict[str, Any], key: str, bad: Any
) -> None:
    """A mapping holding anything that is not JSON (NaN, infinity, too-long int, bytes, sets,
    Decimal, objects, non-str keys) is rejected at construction with InvalidArguments naming the call."""
    with pytest.raises(InvalidArguments) as raised:
        ToolCall("c", "f", {**base, key: bad})
    assert (raised.value.call_id, raised.value.name) == ("c", "f")
    with pytest.raises(InvalidArguments):
        ToolCall("c", "f", {**base, key: {"deeper": [bad]}})
