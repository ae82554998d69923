"""Unit tests for ``Role`` and ``ChatMessage``: the rules, the named constructors,
value semantics, and the OpenAI wire pair ``to_wire()`` / ``from_dict()``."""

from __future__ import annotations

import dataclasses
import enum
import json
import pickle
import types
from typing import Any

import pytest
from hypothesis import given

from tests.property import strategies as s
from toolturns import (
    ChatMessage,
    InvalidArguments,
    InvalidMessage,
    InvalidToolCall,
    MessageError,
    Role,
    TextPart,
    ToolCall,
)

ROLE_RULE = "must be one of 'system', 'developer', 'user', 'assistant', 'tool'"
CONTENT_NONE_RULE = "must be a string or a list of content parts (None only beside tool calls: use ChatMessage.assistant_tool_calls)"


def call(call_id: str = "call_1", name: str = "get_weather", arguments: Any = None) -> ToolCall:
    """A valid tool call, for tests that need one."""
    return ToolCall(call_id, name, arguments)


def wire_call(call_id: str = "call_1", name: str = "get_weather", arguments: Any = "{}") -> dict[str, Any]:
    """A tool call in the OpenAI wire form."""
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def assistant_dict(*calls: Any, **fields: Any) -> dict[str, Any]:
    """An assistant message dict carrying ``calls`` (content null, as OpenAI sends)."""
    return {"role": "assistant", "content": None, "tool_calls": list(calls), **fields}


def deep_dict(depth: int) -> dict[str, Any]:
    """``{"a": {"a": ...}}`` nested ``depth`` levels, built without recursion."""
    root: dict[str, Any] = {}
    node = root
    for _ in range(depth):
        child: dict[str, Any] = {}
        node["a"] = child
        node = child
    return root


# -- Role -----------------------------------------------------------------------


def test_role_values_are_the_lowercase_wire_strings() -> None:
    """Role has exactly the five wire roles, in order, as lowercase strings."""
    assert [role.value for role in Role] == ["system", "developer", "user", "assistant", "tool"]
    assert [role.name for role in Role] == ["SYSTEM", "DEVELOPER", "USER", "ASSISTANT", "TOOL"]


def test_role_is_a_str_enum() -> None:
    """Role members are StrEnum members that behave as their wire strings."""
    assert issubclass(Role, enum.StrEnum)
    wire: str = "user"
    assert wire == Role.USER
    assert str(Role.TOOL) == "tool"
    assert f"{Role.ASSISTANT}" == "assistant"
    assert json.dumps(Role.SYSTEM) == '"system"'
    assert hash(Role.DEVELOPER) == hash("developer")
    assert Role("tool") is Role.TOOL


def test_role_lookup_rejects_other_spellings() -> None:
    """Role() itself accepts only the exact lowercase value."""
    with pytest.raises(ValueError, match="'USER' is not a valid Role"):
        Role("USER")


@pytest.mark.parametrize("role", list(Role))
@pytest.mark.parametrize("as_string", [False, True])
def test_accepts_every_role_as_enum_or_exact_string(role: Role, as_string: bool) -> None:
    """A Role member or its exact wire string is accepted and stored as the Role member."""
    given: Role | str = role.value if as_string else role
    tool_call_id = "call_1" if role is Role.TOOL else None
    message = ChatMessage(given, "hi", tool_call_id=tool_call_id)
    assert message.role is role
    assert type(message.role) is Role


@pytest.mark.parametrize(
    ("role", "shown"),
    [
        ("USER", "'USER'"),
        ("user ", "'user '"),
        ("", "''"),
        (None, "None"),
        (5, "5"),
        ("moderator", "'moderator'"),
        ([], "list"),
        (b"user", "bytes"),
    ],
)
def test_rejects_a_role_that_is_not_an_exact_wire_string(role: Any, shown: str) -> None:
    """A wrong role raises InvalidMessage at path role, listing every valid role."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage(role, "hi")
    assert str(caught.value) == f"role: {ROLE_RULE}, got {shown}"
    assert caught.value.path == "role"
    assert caught.value.rule == ROLE_RULE
    assert caught.value.got == shown
    for valid in Role:
        assert repr(valid.value) in str(caught.value)


def test_errors_are_message_errors_and_value_errors() -> None:
    """InvalidMessage is a MessageError, which is a ValueError."""
    with pytest.raises(MessageError) as caught:
        ChatMessage("moderator", "hi")
    assert isinstance(caught.value, InvalidMessage)
    assert isinstance(caught.value, ValueError)


# -- content --------------------------------------------------------------------


@pytest.mark.parametrize("content", ["", "hi", "  spaced \n", "héllo 🌍 \u0000"])
def test_accepts_any_string_content_verbatim(content: str) -> None:
    """Any str is valid content and is stored byte-for-byte."""
    assert ChatMessage.user(content).content == content


def test_rejects_none_content_on_a_user_message() -> None:
    """content None on a user message is rejected and points to assistant_tool_calls."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage("user", None)  # type: ignore[arg-type]
    assert str(caught.value) == f"content: {CONTENT_NONE_RULE}, got None"
    assert caught.value.path == "content"


def test_rejects_none_content_in_the_constructor_even_beside_tool_calls() -> None:
    """The constructor takes no None content; only assistant_tool_calls/from_dict map it to ''."""
    with pytest.raises(
        InvalidMessage, match=r"^content: must be a string or a list of content parts \(None only"
    ):
        ChatMessage("assistant", None, tool_calls=[call()])  # type: ignore[arg-type]


def test_rejects_non_string_content() -> None:
    """content 5 is rejected with the plain string rule."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage("user", 5)  # type: ignore[arg-type]
    assert str(caught.value) == "content: must be a string or a list of content parts, got 5"


@pytest.mark.parametrize(
    ("content", "shown"),
    [
        ([{"type": "text", "text": "hi"}], "content[0]: must be a content part"),
        ((TextPart("a"), {"type": "text", "text": "hi"}), "content[1]: must be a content part"),
        ([], "content: must not be an empty list of parts"),
    ],
)
def test_the_constructor_takes_parts_not_wire_dicts(content: Any, shown: str) -> None:
    """Parts are built as parts: a wire dict is read by from_dict, and an empty list says nothing."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage("user", content)
    assert str(caught.value).startswith(shown)


def test_rejects_a_single_content_part_dict() -> None:
    """A content part dict is not a string either."""
    with pytest.raises(
        InvalidMessage, match=r"^content: must be a string or a list of content parts, got dict$"
    ):
        ChatMessage("user", {"type": "text", "text": "hi"})  # type: ignore[arg-type]


# -- tool_calls -----------------------------------------------------------------


def test_tool_calls_list_is_stored_as_a_tuple() -> None:
    """A list of calls is accepted and stored as a tuple; later changes to the list change nothing."""
    calls = [call("call_1"), call("call_2", "get_time")]
    message = ChatMessage("assistant", "", tool_calls=calls)
    calls.append(call("call_3"))
    calls[0] = call("call_9")
    assert type(message.tool_calls) is tuple
    assert message.tool_calls == (call("call_1"), call("call_2", "get_time"))


def test_tool_calls_tuple_is_accepted() -> None:
    """A tuple of calls is accepted as is."""
    calls = (call("call_1"),)
    assert ChatMessage("assistant", "", tool_calls=calls).tool_calls == calls


def test_tool_calls_default_to_none() -> None:
    """A message built without tool calls has tool_calls None."""
    assert ChatMessage.assistant("done").tool_calls is None
    assert ChatMessage("assistant", "done", tool_calls=None).tool_calls is None


@pytest.mark.parametrize("role", ["user", "system", "developer"])
def test_rejects_tool_calls_on_a_non_assistant_message(role: str) -> None:
    """tool_calls are only allowed on assistant messages."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage(role, "hi", tool_calls=[call()])
    assert (
        str(caught.value)
        == f"tool_calls: are only allowed on assistant messages, got list with role '{role}'"
    )


def test_rejects_tool_calls_on_a_tool_message() -> None:
    """A tool result cannot carry tool calls."""
    with pytest.raises(InvalidMessage, match=r"^tool_calls: are only allowed on assistant messages"):
        ChatMessage("tool", "x", tool_call_id="call_1", tool_calls=(call(),))


@pytest.mark.parametrize("empty", [[], ()])
def test_rejects_empty_tool_calls_in_the_constructor(empty: Any) -> None:
    """tool_calls=[] is a constructor error: use None for a turn without calls."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage("assistant", "", tool_calls=empty)
    assert str(caught.value) == "tool_calls: must not be empty (use None for a turn without calls), got []"


def test_rejects_empty_tool_calls_in_assistant_tool_calls() -> None:
    """assistant_tool_calls([]) is rejected like the constructor."""
    with pytest.raises(InvalidMessage, match=r"^tool_calls: must not be empty"):
        ChatMessage.assistant_tool_calls([])


@pytest.mark.parametrize("index", [0, 1])
def test_rejects_a_dict_instead_of_a_tool_call(index: int) -> None:
    """A wire dict among the calls is rejected at its index, pointing to ToolCall.from_dict."""
    calls: list[Any] = [call("call_1"), call("call_2")]
    calls[index] = wire_call("call_x")
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage("assistant", "", tool_calls=calls)
    assert str(caught.value) == (
        f"tool_calls[{index}]: must be a ToolCall (read dicts with ToolCall.from_dict), got dict"
    )
    assert caught.value.path == f"tool_calls[{index}]"


@pytest.mark.parametrize(
    ("value", "shown"),
    [("call_1", "'call_1'"), (5, "5"), ({"id": "call_1"}, "dict"), ({call()}, "set")],
)
def test_rejects_tool_calls_that_are_not_a_list_or_tuple(value: Any, shown: str) -> None:
    """A str, number, dict or set as tool_calls is rejected."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage("assistant", "", tool_calls=value)
    assert str(caught.value) == f"tool_calls: must be a list or tuple of ToolCall, got {shown}"


def test_rejects_a_single_tool_call_not_in_a_list() -> None:
    """A bare ToolCall is not a sequence of calls."""
    with pytest.raises(
        InvalidMessage, match=r"^tool_calls: must be a list or tuple of ToolCall, got ToolCall$"
    ):
        ChatMessage("assistant", "", tool_calls=call())  # type: ignore[arg-type]


def test_rejects_duplicate_call_ids_in_one_turn() -> None:
    """Call ids are unique within a message; the error names the later index and the first."""
    calls = [call("call_1"), call("call_2", "get_time"), call("call_1", "other")]
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage.assistant_tool_calls(calls)
    assert str(caught.value) == (
        "tool_calls[2].id: must be unique within the message (tool_calls[0] has it too), got 'call_1'"
    )
    assert caught.value.path == "tool_calls[2].id"


@pytest.mark.parametrize(
    ("count", "first", "later"),
    [(count, first, later) for count in range(2, 6) for later in range(count) for first in range(later)],
)
def test_every_repeated_call_id_is_refused_at_the_later_call(count: int, first: int, later: int) -> None:
    """Whichever two calls of a turn share an id (two, three and more calls are tested in
    different ways before a turn is built), reading or building it names the later one."""
    ids = [f"call_{number}" for number in range(count)]
    ids[later] = ids[first]
    wire = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": call_id, "type": "function", "function": {"name": "f", "arguments": "{}"}}
            for call_id in ids
        ],
    }
    expected = (
        f"tool_calls[{later}].id: must be unique within the message (tool_calls[{first}] has it too), "
        f"got {ids[first]!r}"
    )
    with pytest.raises(InvalidMessage) as read:
        ChatMessage.from_dict(wire)
    with pytest.raises(InvalidMessage) as built:
        ChatMessage.assistant_tool_calls([call(call_id, "f") for call_id in ids])
    assert str(read.value) == str(built.value) == expected


def test_accepts_distinct_call_ids_with_the_same_tool() -> None:
    """Two calls of the same tool with different ids are fine."""
    message = ChatMessage.assistant_tool_calls([call("call_1"), call("call_2")])
    assert message.tool_calls is not None
    assert [c.id for c in message.tool_calls] == ["call_1", "call_2"]


# -- tool_call_id ---------------------------------------------------------------


def test_tool_message_keeps_its_tool_call_id() -> None:
    """A tool message carries the id of the call it answers."""
    message = ChatMessage("tool", "18 degrees", tool_call_id="call_1")
    assert message.tool_call_id == "call_1"
    assert ChatMessage.user("hi").tool_call_id is None


@pytest.mark.parametrize("role", ["user", "assistant", "system", "developer"])
def test_rejects_tool_call_id_on_a_non_tool_message(role: str) -> None:
    """tool_call_id is only allowed on tool messages."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage(role, "hi", tool_call_id="call_1")
    assert (
        str(caught.value)
        == f"tool_call_id: is only allowed on tool messages, got 'call_1' with role '{role}'"
    )


def test_rejects_a_tool_message_without_an_id() -> None:
    """A tool message must say which call it answers."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage("tool", "18 degrees")
    assert str(caught.value) == "tool_call_id: is required on tool messages"
    assert caught.value.got is None


@pytest.mark.parametrize(("value", "shown"), [("", "''"), (5, "5"), (["call_1"], "list")])
def test_rejects_an_empty_or_non_string_tool_call_id(value: Any, shown: str) -> None:
    """tool_call_id must be a non-empty str."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage.tool_result(value, "18 degrees")
    assert str(caught.value) == f"tool_call_id: must be a non-empty string, got {shown}"


# -- name -----------------------------------------------------------------------


@pytest.mark.parametrize("role", ["system", "developer", "user", "assistant"])
def test_accepts_a_name_on_non_tool_messages(role: str) -> None:
    """name is optional, and kept when set on a non-tool message."""
    message = ChatMessage(role, "hi", name="alice")
    assert message.name == "alice"
    assert message.to_wire() == {"role": role, "content": "hi", "name": "alice"}


@pytest.mark.parametrize(("value", "shown"), [("", "''"), (5, "5")])
def test_rejects_an_empty_or_non_string_name(value: Any, shown: str) -> None:
    """name, when set, must be a non-empty str."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage("user", "hi", name=value)
    assert str(caught.value) == f"name: must be a non-empty string, got {shown}"


def test_a_name_on_a_tool_message_is_kept_and_sent_back() -> None:
    """Older OpenAI examples name the function on a tool message: read, kept and re-emitted, not refused."""
    data = {"role": "tool", "content": "x", "name": "get_weather", "tool_call_id": "call_1"}
    message = ChatMessage.from_dict(data)
    assert message.name == "get_weather"
    assert message.to_wire() == data
    assert ChatMessage("tool", "x", tool_call_id="call_1", name="get_weather") == message
    with pytest.raises(InvalidMessage, match=r"^name: must be a non-empty string, got ''$"):
        ChatMessage("tool", "x", tool_call_id="call_1", name="")


# -- is_error -------------------------------------------------------------------


def test_is_error_is_false_by_default_and_true_on_a_failed_tool_result() -> None:
    """is_error defaults to False and is kept when True on a tool message."""
    assert ChatMessage.user("hi").is_error is False
    assert ChatMessage.tool_result("call_1", "ok").is_error is False
    assert ChatMessage.tool_result("call_1", "boom", is_error=True).is_error is True
    assert ChatMessage("tool", "boom", tool_call_id="call_1", is_error=True).is_error is True


@pytest.mark.parametrize(("value", "shown"), [(1, "1"), (0, "0"), ("yes", "'yes'"), (None, "None")])
def test_rejects_a_non_bool_is_error(value: Any, shown: str) -> None:
    """is_error must be a real bool, not a truthy value."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage.tool_result("call_1", "boom", is_error=value)
    assert str(caught.value) == f"is_error: must be a boolean, got {shown}"


@pytest.mark.parametrize("role", ["user", "assistant", "system", "developer"])
def test_rejects_is_error_true_on_a_non_tool_message(role: str) -> None:
    """is_error=True is only allowed on tool messages; False is fine everywhere."""
    assert ChatMessage(role, "hi", is_error=False).is_error is False
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage(role, "hi", is_error=True)
    assert str(caught.value) == f"is_error: is only allowed on tool messages, got True with role '{role}'"


# -- extra ----------------------------------------------------------------------


def test_extra_defaults_to_empty() -> None:
    """A message without extra keys has an empty extra mapping."""
    message = ChatMessage.user("hi")
    assert dict(message.extra) == {}
    assert len(message.extra) == 0


@pytest.mark.parametrize("key", ["role", "content", "name", "tool_calls", "tool_call_id", "is_error"])
def test_rejects_modelled_keys_in_extra(key: str) -> None:
    """A key ChatMessage models cannot be smuggled in through extra."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage.user("hi", extra={key: "x"})
    assert str(caught.value) == f"extra.{key}: is a modelled field, not an extra key, got 'x'"
    assert caught.value.path == f"extra.{key}"


def test_extra_drops_null_and_empty_values_and_keeps_zero_and_false() -> None:
    """None, '', [] and {} carry nothing and are dropped; 0, 0.0 and False are kept."""
    message = ChatMessage.user(
        "hi",
        extra={"a": None, "b": "", "c": [], "d": {}, "weight": 0, "score": 0.0, "flag": False},
    )
    assert dict(message.extra) == {"weight": 0, "score": 0.0, "flag": False}
    assert message.extra["flag"] is False
    assert message.to_wire() == {"role": "user", "content": "hi", "weight": 0, "score": 0.0, "flag": False}


def test_extra_only_with_empty_values_is_empty() -> None:
    """An extra of only null/empty values leaves a plain message."""
    message = ChatMessage.user("hi", extra={"a": None, "b": []})
    assert message == ChatMessage.user("hi")
    assert message.to_wire() == {"role": "user", "content": "hi"}


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (["weight", 0], "extra: must be a mapping of str to JSON, got list"),
        ({1: "x"}, "extra: keys must be strings, got 1"),
        ({"x": float("nan")}, "extra.x: must be a finite number, got nan"),
        (
            {"x": {1, 2}},
            "extra.x: must be JSON (a str-keyed mapping, list, tuple, str, int, finite float, bool or None), got set",
        ),
    ],
)
def test_rejects_extra_that_is_not_a_mapping_of_json(extra: Any, expected: str) -> None:
    """extra must be a str-keyed mapping of JSON values."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage.user("hi", extra=extra)
    assert str(caught.value) == expected


def test_extra_cannot_be_changed_after_construction() -> None:
    """Changing the dict passed in, or a value read back, leaves the message unchanged."""
    given: dict[str, Any] = {"meta": {"tags": ["a"]}}
    message = ChatMessage.user("hi", extra=given)
    given["meta"]["tags"].append("b")
    given["other"] = 1
    read = message.extra["meta"]
    read["tags"].append("c")
    assert dict(message.extra) == {"meta": {"tags": ["a"]}}
    with pytest.raises(TypeError):
        message.extra["x"] = 1  # type: ignore[index]


# -- named constructors ---------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "role"),
    [
        (ChatMessage.system, Role.SYSTEM),
        (ChatMessage.developer, Role.DEVELOPER),
        (ChatMessage.user, Role.USER),
        (ChatMessage.assistant, Role.ASSISTANT),
    ],
)
def test_text_constructors_build_their_role(build: Any, role: Role) -> None:
    """system, developer, user and assistant build a plain text turn of their role."""
    message = build("hello")
    assert message == ChatMessage(role, "hello")
    assert (message.role, message.content, message.tool_calls, message.tool_call_id, message.name) == (
        role,
        "hello",
        None,
        None,
        None,
    )
    assert message.to_wire() == {"role": role.value, "content": "hello"}
    assert build("hello", name="bob").name == "bob"


@pytest.mark.parametrize(
    "build", [ChatMessage.system, ChatMessage.developer, ChatMessage.user, ChatMessage.assistant]
)
def test_text_constructors_validate(build: Any) -> None:
    """The named constructors apply the same rules as the constructor."""
    with pytest.raises(
        InvalidMessage, match=r"^content: must be a string or a list of content parts, got 5$"
    ):
        build(5)


def test_assistant_tool_calls_stores_none_content_as_empty() -> None:
    """assistant_tool_calls with content None (the default) stores ''."""
    message = ChatMessage.assistant_tool_calls([call()])
    assert message.role is Role.ASSISTANT
    assert message.content == ""
    assert message.tool_calls == (call(),)
    assert ChatMessage.assistant_tool_calls([call()], None).content == ""
    assert message == ChatMessage("assistant", "", tool_calls=[call()])


def test_assistant_tool_calls_keeps_text_and_name() -> None:
    """assistant_tool_calls keeps text beside the calls, and a name."""
    message = ChatMessage.assistant_tool_calls([call()], "Let me check.", name="bot")
    assert (message.content, message.name) == ("Let me check.", "bot")


def test_tool_result_builds_a_tool_turn() -> None:
    """tool_result builds a tool message answering one call, optionally flagged as an error."""
    message = ChatMessage.tool_result("call_1", "18 degrees")
    assert message == ChatMessage("tool", "18 degrees", tool_call_id="call_1")
    failed = ChatMessage.tool_result("call_1", "KeyError: 'city'", is_error=True)
    assert (failed.role, failed.tool_call_id, failed.is_error) == (Role.TOOL, "call_1", True)
    assert failed != ChatMessage.tool_result("call_1", "KeyError: 'city'")


# -- value semantics ------------------------------------------------------------


MESSAGES = [
    ChatMessage.system("Answer in French."),
    ChatMessage.developer("Be brief."),
    ChatMessage.user("hi", name="alice", extra={"weight": 0}),
    ChatMessage.assistant("It is 18 degrees."),
    ChatMessage.assistant_tool_calls(
        [call("call_1", "get_weather", {"city": "Paris"}), call("call_2", "get_time", '{"tz": "Eur')],
        "Checking.",
    ),
    ChatMessage.tool_result("call_1", "18 degrees"),
    ChatMessage.tool_result("call_2", "bad arguments", is_error=True),
]


@pytest.mark.parametrize(
    "field", ["role", "content", "tool_calls", "tool_call_id", "name", "is_error", "extra"]
)
def test_fields_cannot_be_assigned_or_deleted(field: str) -> None:
    """The message is frozen: assigning or deleting any field raises FrozenInstanceError."""
    message = ChatMessage.user("hi")
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(message, field, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(message, field)
    assert message == ChatMessage.user("hi")


def test_nested_tool_calls_cannot_be_changed() -> None:
    """The tool calls inside a message are frozen too, and .arguments returns a copy."""
    message = MESSAGES[4]
    assert message.tool_calls is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        message.tool_calls[0].id = "call_9"  # type: ignore[misc]  # the point: refused at run time too
    message.tool_calls[0].arguments["city"] = "Lyon"
    assert message.tool_calls[0].arguments == {"city": "Paris"}


def test_messages_have_no_instance_dict() -> None:
    """ChatMessage is slotted: no attribute can be added."""
    message = ChatMessage.user("hi")
    assert not hasattr(message, "__dict__")
    with pytest.raises((AttributeError, TypeError)):
        message.other = 1  # type: ignore[attr-defined]


def test_equal_by_value_and_equal_hash() -> None:
    """Messages compare by value (argument key order and layout do not matter); equal means equal hash."""
    a = ChatMessage.assistant_tool_calls([ToolCall("call_1", "f", '{"a": 1, "b": [2]}')])
    b = ChatMessage.assistant_tool_calls([ToolCall("call_1", "f", {"b": [2], "a": 1})])
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b}) == 1
    assert ChatMessage.user("hi", extra={"x": 1, "y": 2}) == ChatMessage.user("hi", extra={"y": 2, "x": 1})
    assert hash(ChatMessage.user("hi", extra={"x": 1, "y": 2})) == hash(
        ChatMessage.user("hi", extra={"y": 2, "x": 1})
    )
    assert ChatMessage("user", "hi") == ChatMessage(Role.USER, "hi")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (ChatMessage.user("hi"), ChatMessage.user("hi!")),
        (ChatMessage.user("hi"), ChatMessage.assistant("hi")),
        (ChatMessage.user("hi"), ChatMessage.user("hi", name="bob")),
        (ChatMessage.user("hi"), ChatMessage.user("hi", extra={"weight": 1})),
        (ChatMessage.user("hi", extra={"weight": 1}), ChatMessage.user("hi", extra={"weight": True})),
        (ChatMessage.tool_result("call_1", "x"), ChatMessage.tool_result("call_2", "x")),
        (ChatMessage.tool_result("call_1", "x"), ChatMessage.tool_result("call_1", "x", is_error=True)),
        (
            ChatMessage.assistant_tool_calls([call(arguments={"x": 1})]),
            ChatMessage.assistant_tool_calls([call(arguments={"x": 2})]),
        ),
    ],
)
def test_different_messages_are_unequal(a: ChatMessage, b: ChatMessage) -> None:
    """Any difference in a field makes messages unequal; JSON true and 1 differ."""
    assert a != b
    assert b != a


def test_not_equal_to_its_wire_dict() -> None:
    """A message does not compare equal to a dict or a string."""
    message = ChatMessage.user("hi")
    others: list[object] = [message.to_wire(), "hi", None]
    for other in others:
        assert message != other


def test_all_sample_messages_are_distinct() -> None:
    """Hashing the sample messages gives one set entry each."""
    assert len(set(MESSAGES)) == len(MESSAGES)


@pytest.mark.parametrize("message", MESSAGES, ids=repr)
def test_pickle_round_trips(message: ChatMessage) -> None:
    """A message survives pickling, equal and with the same hash."""
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        copy = pickle.loads(pickle.dumps(message, protocol=protocol))
        assert copy == message
        assert hash(copy) == hash(message)
        assert copy.is_error == message.is_error


@pytest.mark.parametrize("message", MESSAGES, ids=repr)
def test_repr_evaluates_to_an_equal_message(message: ChatMessage) -> None:
    """repr(message) is Python that rebuilds an equal message."""
    rebuilt = eval(repr(message), {"ChatMessage": ChatMessage, "ToolCall": ToolCall})
    assert rebuilt == message
    assert repr(rebuilt) == repr(message)


def test_repr_shows_only_set_fields() -> None:
    """repr leaves out fields at their default."""
    assert repr(ChatMessage.user("hi")) == "ChatMessage(role='user', content='hi')"
    assert repr(ChatMessage.tool_result("call_1", "boom", is_error=True)) == (
        "ChatMessage(role='tool', content='boom', tool_call_id='call_1', is_error=True)"
    )


def test_replace_revalidates() -> None:
    """dataclasses.replace builds through the rules: a tool message replaced to role user fails."""
    tool = ChatMessage.tool_result("call_1", "18 degrees")
    bad: list[tuple[ChatMessage, dict[str, Any], str]] = [
        (tool, {"role": "user"}, r"^tool_call_id: is only allowed on tool messages"),
        (tool, {"role": Role.USER}, r"^tool_call_id: is only allowed on tool messages"),
        (tool, {"content": 5}, r"^content: must be a string or a list of content parts, got 5$"),
        (tool, {"tool_call_id": ""}, r"^tool_call_id: must be a non-empty string, got ''$"),
        (MESSAGES[4], {"tool_calls": []}, r"^tool_calls: must not be empty"),
        (ChatMessage.user("hi"), {"is_error": True}, r"^is_error: is only allowed on tool messages"),
    ]
    for message, changes, pattern in bad:
        with pytest.raises(InvalidMessage, match=pattern):
            dataclasses.replace(message, **changes)


def test_replace_keeps_other_fields() -> None:
    """dataclasses.replace changes one field and keeps the rest, extra included."""
    message = ChatMessage.user("hi", name="alice", extra={"weight": 0})
    changed = dataclasses.replace(message, content="bye")
    assert changed == ChatMessage.user("bye", name="alice", extra={"weight": 0})
    assert dataclasses.replace(MESSAGES[4], content="") == ChatMessage.assistant_tool_calls(
        MESSAGES[4].tool_calls or ()
    )


@given(s.chat_messages(with_provider_data=True))
def test_replace_without_changes_gives_an_equal_message(message: ChatMessage) -> None:
    """dataclasses.replace passes every field back to the constructor, which takes each as it is."""
    replaced = dataclasses.replace(message)
    assert replaced == message
    assert repr(replaced) == repr(message)


# -- to_wire --------------------------------------------------------------------


@pytest.mark.parametrize(
    "message", [ChatMessage.system("s"), ChatMessage.user(""), ChatMessage.assistant("a")], ids=repr
)
def test_to_wire_plain_message_is_role_and_content_only(message: ChatMessage) -> None:
    """A plain message is exactly {"role", "content"}, in that order."""
    wire = message.to_wire()
    assert wire == {"role": message.role.value, "content": message.content}
    assert list(wire) == ["role", "content"]
    assert type(wire["role"]) is str


def test_to_wire_tool_call_turn_exact() -> None:
    """A tool-call turn emits its calls in the wire form with arguments as text, in key order."""
    message = ChatMessage.assistant_tool_calls(
        [call("call_1", "get_weather", {"city": "Paris"}), call("call_2", "get_time")], name="bot"
    )
    wire = message.to_wire()
    assert wire == {
        "role": "assistant",
        "content": "",
        "name": "bot",
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
            },
            {"id": "call_2", "type": "function", "function": {"name": "get_time", "arguments": "{}"}},
        ],
    }
    assert list(wire) == ["role", "content", "name", "tool_calls"]
    assert list(wire["tool_calls"][0]) == ["id", "type", "function"]
    assert list(wire["tool_calls"][0]["function"]) == ["name", "arguments"]


def test_to_wire_tool_result_exact() -> None:
    """A tool result emits role, content, tool_call_id in that order."""
    wire = ChatMessage.tool_result("call_1", "18 degrees").to_wire()
    assert wire == {"role": "tool", "content": "18 degrees", "tool_call_id": "call_1"}
    assert list(wire) == ["role", "content", "tool_call_id"]


def test_to_wire_key_order_puts_extra_last() -> None:
    """Keys come as role, content, name, tool_calls, tool_call_id, then extra in the given order."""
    message = ChatMessage(
        "assistant", "x", name="bot", tool_calls=[call()], extra={"zeta": 1, "alpha": {"k": [1, "é"]}}
    )
    wire = message.to_wire()
    assert list(wire) == ["role", "content", "name", "tool_calls", "zeta", "alpha"]
    assert wire["alpha"] == {"k": [1, "é"]}
    tool = ChatMessage("tool", "r", tool_call_id="call_1", extra={"weight": 1})
    assert list(tool.to_wire()) == ["role", "content", "tool_call_id", "weight"]


def test_to_wire_null_content_on_a_tool_call_turn() -> None:
    """A tool-call turn without text emits content '' by default and null with null_content=True."""
    message = ChatMessage.assistant_tool_calls([call()])
    assert message.to_wire()["content"] == ""
    wire = message.to_wire(null_content=True)
    assert wire["content"] is None
    assert list(wire) == ["role", "content", "tool_calls"]


@pytest.mark.parametrize(
    "message",
    [
        ChatMessage.assistant_tool_calls([call()], "Let me check."),
        ChatMessage.assistant(""),
        ChatMessage.user(""),
        ChatMessage.tool_result("call_1", ""),
    ],
    ids=repr,
)
def test_null_content_only_nulls_an_empty_tool_call_turn(message: ChatMessage) -> None:
    """null_content does not null text beside calls, nor the '' of a message without calls."""
    assert message.to_wire(null_content=True) == message.to_wire()
    assert message.to_wire(null_content=True)["content"] == message.content


def test_to_wire_does_not_emit_is_error() -> None:
    """is_error has no OpenAI wire field and is not emitted."""
    wire = ChatMessage.tool_result("call_1", "boom", is_error=True).to_wire()
    assert wire == {"role": "tool", "content": "boom", "tool_call_id": "call_1"}


def test_to_wire_returns_a_fresh_dict() -> None:
    """Changing a returned wire dict does not change the message or the next dict."""
    message = MESSAGES[4]
    first = message.to_wire()
    first["content"] = "changed"
    first["tool_calls"][0]["function"]["name"] = "changed"
    assert message.to_wire() == MESSAGES[4].to_wire()
    assert message.to_wire()["tool_calls"][0]["function"]["name"] == "get_weather"


def test_to_wire_keeps_malformed_arguments_byte_for_byte() -> None:
    """Raw argument text that is not JSON is emitted exactly as given."""
    message = ChatMessage.assistant_tool_calls([call("call_1", "f", '{"city": "Par')])
    assert message.to_wire()["tool_calls"][0]["function"]["arguments"] == '{"city": "Par'


# -- from_dict: accepted --------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"role": "system", "content": "s"}, ChatMessage.system("s")),
        ({"role": "developer", "content": "d"}, ChatMessage.developer("d")),
        ({"role": "user", "content": "hi", "name": "alice"}, ChatMessage.user("hi", name="alice")),
        ({"role": "assistant", "content": "a"}, ChatMessage.assistant("a")),
        ({"role": "tool", "content": "r", "tool_call_id": "call_1"}, ChatMessage.tool_result("call_1", "r")),
        (
            assistant_dict(wire_call("call_1", "f", '{"x": 1}')),
            ChatMessage.assistant_tool_calls([ToolCall("call_1", "f", '{"x": 1}')]),
        ),
    ],
)
def test_from_dict_reads_request_messages(data: dict[str, Any], expected: ChatMessage) -> None:
    """Request message dicts of every role parse into the equal message."""
    assert ChatMessage.from_dict(data) == expected


def test_from_dict_reads_a_response_message() -> None:
    """A response message with refusal null, annotations [] and audio null parses without extras."""
    data: dict[str, Any] = {
        "role": "assistant",
        "content": "It is 18 degrees.",
        "refusal": None,
        "annotations": [],
        "audio": None,
        "function_call": None,
    }
    message = ChatMessage.from_dict(data)
    assert message == ChatMessage.assistant("It is 18 degrees.")
    assert dict(message.extra) == {}
    assert message.to_wire() == {"role": "assistant", "content": "It is 18 degrees."}


def test_from_dict_reads_a_non_dict_mapping() -> None:
    """Any Mapping is read, not only dict."""
    data = types.MappingProxyType({"role": "user", "content": "hi"})
    assert ChatMessage.from_dict(data) == ChatMessage.user("hi")


@pytest.mark.parametrize("with_content_key", [True, False])
def test_from_dict_null_or_missing_content_beside_tool_calls_is_empty(with_content_key: bool) -> None:
    """content null or missing on a tool-call turn is read as ''."""
    data = assistant_dict(wire_call())
    if not with_content_key:
        del data["content"]
    message = ChatMessage.from_dict(data)
    assert message.content == ""
    assert message == ChatMessage.assistant_tool_calls([call()])


@pytest.mark.parametrize(
    "data",
    [
        {"role": "assistant", "content": None},
        {"role": "assistant"},
        {"role": "assistant", "content": None, "tool_calls": []},
        {"role": "assistant", "content": None, "tool_calls": None},
        {"role": "assistant", "content": None, "refusal": None},
        {"role": "assistant", "content": None, "refusal": ""},
        {"role": "user", "content": None},
    ],
)
def test_from_dict_rejects_null_or_missing_content_without_tool_calls(data: dict[str, Any]) -> None:
    """content null or missing without tool calls (or a refusal) is an error."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage.from_dict(data)
    assert str(caught.value) == f"content: {CONTENT_NONE_RULE}, got None"


def test_from_dict_refusal_with_null_content_is_kept() -> None:
    """A refusal (non-empty string) with content null reads as content '' and keeps refusal in extra."""
    data: dict[str, Any] = {
        "role": "assistant",
        "content": None,
        "refusal": "I can't help with that.",
        "annotations": [],
    }
    message = ChatMessage.from_dict(data)
    assert message.content == ""
    assert dict(message.extra) == {"refusal": "I can't help with that."}
    assert message.to_wire() == {"role": "assistant", "content": "", "refusal": "I can't help with that."}
    assert ChatMessage.from_dict(message.to_wire()) == message


@pytest.mark.parametrize("refusal", [5, True, ["no"], {"text": "no"}])
def test_from_dict_non_string_refusal_does_not_excuse_null_content(refusal: Any) -> None:
    """Only a non-empty refusal *string* excuses content null; any other refusal value does not."""
    with pytest.raises(InvalidMessage, match=r"^content: must be a string"):
        ChatMessage.from_dict({"role": "assistant", "content": None, "refusal": refusal})


@pytest.mark.parametrize("calls", [[], None])
def test_from_dict_empty_or_null_tool_calls_mean_no_calls(calls: Any) -> None:
    """tool_calls [] or null when reading means no tool calls, and is not re-emitted."""
    message = ChatMessage.from_dict({"role": "assistant", "content": "done", "tool_calls": calls})
    assert message.tool_calls is None
    assert message.to_wire() == {"role": "assistant", "content": "done"}


@pytest.mark.parametrize("arguments", ["", "   ", " \n\t\r ", "null", " null\n", None, {}])
def test_from_dict_empty_arguments_become_an_empty_object(arguments: Any) -> None:
    """Arguments '', whitespace, 'null', None and {} all read as the text '{}'."""
    message = ChatMessage.from_dict(assistant_dict(wire_call(arguments=arguments)))
    assert message.tool_calls is not None
    assert message.tool_calls[0].arguments_json == "{}"
    assert message.tool_calls[0].arguments == {}
    assert message.to_wire()["tool_calls"][0]["function"]["arguments"] == "{}"


def test_from_dict_missing_arguments_become_an_empty_object() -> None:
    """A function without an arguments key has the arguments '{}'."""
    data = assistant_dict({"id": "call_1", "type": "function", "function": {"name": "get_time"}})
    message = ChatMessage.from_dict(data)
    assert message.tool_calls == (ToolCall("call_1", "get_time", "{}"),)


def test_from_dict_object_arguments_become_json_text() -> None:
    """Arguments given as an object (Ollama style) are stored and emitted as JSON text."""
    arguments = {"city": "Zürich", "days": 3, "opts": {"units": ["c"]}}
    data = assistant_dict({"id": "call_1", "function": {"name": "get_weather", "arguments": arguments}})
    message = ChatMessage.from_dict(data)
    assert message.tool_calls is not None
    emitted = message.to_wire()["tool_calls"][0]["function"]["arguments"]
    assert isinstance(emitted, str)
    assert emitted == '{"city":"Zürich","days":3,"opts":{"units":["c"]}}'
    assert json.loads(emitted) == arguments
    assert message.tool_calls[0].arguments == arguments


@pytest.mark.parametrize("raw", ['{\n"location": "Boston, MA"\n}', '{"city": "Par', "[1]", '"x"', "42"])
def test_from_dict_keeps_argument_text_byte_for_byte(raw: str) -> None:
    """Argument text, valid JSON or not, is kept and re-emitted exactly."""
    message = ChatMessage.from_dict(assistant_dict(wire_call(arguments=raw)))
    assert message.to_wire()["tool_calls"][0]["function"]["arguments"] == raw


@pytest.mark.parametrize(
    ("raw", "kind"), [('{"city": "Par', None), ("[1]", "array"), ('"x"', "string"), ("42", "number")]
)
def test_from_dict_malformed_arguments_raise_only_when_read(raw: str, kind: str | None) -> None:
    """Malformed arguments parse; .arguments raises InvalidArguments carrying call_id, name and raw."""
    message = ChatMessage.from_dict(assistant_dict(wire_call("call_7", "get_weather", raw)))
    assert message.tool_calls is not None
    with pytest.raises(InvalidArguments) as caught:
        _ = message.tool_calls[0].arguments
    assert (caught.value.call_id, caught.value.name, caught.value.raw) == ("call_7", "get_weather", raw)
    assert caught.value.path == "arguments"
    if kind is not None:
        assert str(caught.value) == f"arguments: must be a JSON object, got {kind}"


def test_from_dict_keeps_unknown_keys_in_extra() -> None:
    """Unknown non-empty keys (weight: 0, reasoning_content) go to extra and are re-emitted last, in order."""
    data = {
        "role": "assistant",
        "reasoning_content": "Think first.",
        "content": "Paris.",
        "weight": 0,
        "refusal": None,
        "audio": {},
    }
    message = ChatMessage.from_dict(data)
    assert dict(message.extra) == {"reasoning_content": "Think first.", "weight": 0}
    wire = message.to_wire()
    assert wire == {
        "role": "assistant",
        "content": "Paris.",
        "reasoning_content": "Think first.",
        "weight": 0,
    }
    assert list(wire) == ["role", "content", "reasoning_content", "weight"]


def test_from_dict_keeps_unknown_keys_of_a_call() -> None:
    """Unknown keys on a tool call are kept and re-emitted with the call."""
    raw_call = {**wire_call(), "seq": 0}
    message = ChatMessage.from_dict(assistant_dict(raw_call))
    assert message.to_wire()["tool_calls"] == [raw_call]


@pytest.mark.parametrize("place", ["call", "function"])
def test_from_dict_reads_each_calls_index_as_its_position_and_does_not_send_it(place: str) -> None:
    """index on each call (the openai SDK's stream accumulator leaves it) or in function (Ollama's
    function.index): the call's position, which the order of tool_calls keeps; read, never sent again."""

    def at(position: int, call_id: str) -> dict[str, Any]:
        raw = wire_call(call_id)
        if place == "call":
            return {**raw, "index": position}
        return {**raw, "function": {**raw["function"], "index": position}}

    message = ChatMessage.from_dict(assistant_dict(at(0, "call_1"), at(1, "call_2")))
    assert message == ChatMessage.from_dict(assistant_dict(wire_call("call_1"), wire_call("call_2")))
    assert message.to_wire()["tool_calls"] == [wire_call("call_1"), wire_call("call_2")]


@pytest.mark.parametrize(
    ("indices", "path", "got"),
    [
        ((1, 0), "tool_calls[0].index", "1"),
        ((0, 2), "tool_calls[1].index", "2"),
        ((0, 0), "tool_calls[1].index", "0"),
        ((0, True), "tool_calls[1].index", "True"),
        ((0, -1), "tool_calls[1].index", "-1"),
    ],
)
def test_from_dict_refuses_an_index_that_is_not_the_calls_position(
    indices: tuple[Any, ...], path: str, got: str
) -> None:
    """An index that is not the call's position would say the calls are in another order: refused, located."""
    calls = [{**wire_call(f"call_{n}"), "index": index} for n, index in enumerate(indices)]
    with pytest.raises(InvalidToolCall) as caught:
        ChatMessage.from_dict(assistant_dict(*calls))
    assert caught.value.path == path
    assert caught.value.got == got
    position = path[len("tool_calls[") : path.index("]")]
    assert caught.value.rule == (
        f"must be {position}, the call's position in tool_calls (the calls are read in list order)"
    )


def test_from_dict_refuses_a_function_index_that_is_not_the_calls_position() -> None:
    """function.index follows the same rule as index: the call's position, or refused where it is."""
    second = wire_call("call_2")
    second["function"]["index"] = 0
    with pytest.raises(InvalidToolCall, match=r"^tool_calls\[1\]\.function\.index: must be 1, "):
        ChatMessage.from_dict(assistant_dict(wire_call("call_1"), second))


def test_from_dict_reads_is_error() -> None:
    """is_error in a dict is read into the field (and, having no OpenAI field, not re-emitted)."""
    data = {"role": "tool", "content": "boom", "tool_call_id": "call_1", "is_error": True}
    message = ChatMessage.from_dict(data)
    assert message.is_error is True
    assert dict(message.extra) == {}
    assert message.to_wire() == {"role": "tool", "content": "boom", "tool_call_id": "call_1"}
    assert ChatMessage.from_dict({**data, "is_error": None}).is_error is False
    assert ChatMessage.from_dict({**data, "is_error": False}).is_error is False


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            {"role": "tool", "content": "x", "tool_call_id": "c", "is_error": "yes"},
            "is_error: must be a boolean, got 'yes'",
        ),
        (
            {"role": "assistant", "content": "x", "is_error": True},
            "is_error: is only allowed on tool messages, got True with role 'assistant'",
        ),
    ],
)
def test_from_dict_rejects_a_bad_is_error(data: dict[str, Any], expected: str) -> None:
    """is_error read from a dict obeys the same rules as in the constructor."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage.from_dict(data)
    assert str(caught.value) == expected


@pytest.mark.parametrize("message", MESSAGES[:6], ids=repr)
def test_from_dict_of_to_wire_round_trips(message: ChatMessage) -> None:
    """from_dict(m.to_wire()) == m, also through json.dumps/json.loads and with null_content."""
    assert ChatMessage.from_dict(message.to_wire()) == message
    assert ChatMessage.from_dict(json.loads(json.dumps(message.to_wire()))) == message
    assert ChatMessage.from_dict(message.to_wire(null_content=True)) == message


def test_from_dict_does_not_keep_a_reference_to_the_input() -> None:
    """Changing the dict after parsing changes nothing in the message."""
    data = assistant_dict(wire_call(arguments={"city": "Paris"}), meta={"tags": ["a"]})
    message = ChatMessage.from_dict(data)
    data["tool_calls"][0]["function"]["arguments"]["city"] = "Lyon"
    data["meta"]["tags"].append("b")
    data["tool_calls"].append(wire_call("call_2"))
    assert message.tool_calls is not None
    assert len(message.tool_calls) == 1
    assert message.tool_calls[0].arguments == {"city": "Paris"}
    assert dict(message.extra) == {"meta": {"tags": ["a"]}}


# -- from_dict: rejected --------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "shown"),
    [
        ([{"role": "user", "content": "hi"}], "list"),
        ('{"role": "user"}', '\'{"role": "user"}\''),
        (None, "None"),
        (5, "5"),
    ],
)
def test_from_dict_rejects_a_non_object(data: Any, shown: str) -> None:
    """A list, a string, None or a number is not a message dict."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage.from_dict(data)
    assert str(caught.value) == f"must be an object (a dict), got {shown}"
    assert caught.value.path == ""


def test_from_dict_rejects_a_dict_without_role() -> None:
    """A dict without role is an error naming the missing key."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage.from_dict({"content": "hi"})
    assert str(caught.value) == "role: is required"
    assert caught.value.path == "role"


@pytest.mark.parametrize(("role", "shown"), [(None, "None"), ("USER", "'USER'"), (["user"], "list")])
def test_from_dict_rejects_a_bad_role(role: Any, shown: str) -> None:
    """role read from a dict obeys the constructor's rule."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage.from_dict({"role": role, "content": "hi"})
    assert str(caught.value) == f"role: {ROLE_RULE}, got {shown}"


@pytest.mark.parametrize(
    ("data", "error", "expected"),
    [
        (
            {"role": "assistant", "content": None, "tool_calls": "x"},
            InvalidMessage,
            "tool_calls: must be an array of tool calls, got 'x'",
        ),
        (
            {"role": "assistant", "content": None, "tool_calls": {"id": "call_1"}},
            InvalidMessage,
            "tool_calls: must be an array of tool calls, got dict",
        ),
        (assistant_dict(5), InvalidToolCall, "tool_calls[0]: must be an object, got 5"),
        (
            assistant_dict(wire_call(), "call_2"),
            InvalidToolCall,
            "tool_calls[1]: must be an object, got 'call_2'",
        ),
        (
            assistant_dict({"id": "call_1", "type": "function"}),
            InvalidToolCall,
            "tool_calls[0].function: is required",
        ),
        (
            assistant_dict({"id": "call_1", "type": "function", "function": []}),
            InvalidToolCall,
            "tool_calls[0].function: must be an object, got list",
        ),
        (
            assistant_dict(wire_call(arguments=5)),
            InvalidToolCall,
            "tool_calls[0].function.arguments: must be JSON text (a string) or an object, got 5",
        ),
        (
            assistant_dict(wire_call(arguments=[])),
            InvalidToolCall,
            "tool_calls[0].function.arguments: must be JSON text (a string) or an object, got list",
        ),
        (
            assistant_dict({**wire_call(), "type": "custom"}),
            InvalidToolCall,
            "tool_calls[0].type: must be 'function' (only function tool calls are supported), got 'custom'",
        ),
        (
            assistant_dict(wire_call("call_1"), wire_call("call_2", "")),
            InvalidToolCall,
            "tool_calls[1].function.name: must be a non-empty string, got ''",
        ),
        (
            assistant_dict({"type": "function", "function": {"name": "f", "arguments": "{}"}}),
            InvalidToolCall,
            "tool_calls[0].id: must be a non-empty string, got None",
        ),
        (
            assistant_dict(wire_call("call_1"), wire_call("call_1")),
            InvalidMessage,
            "tool_calls[1].id: must be unique within the message (tool_calls[0] has it too), got 'call_1'",
        ),
        (
            assistant_dict(wire_call(arguments={"x": float("nan")})),
            InvalidArguments,
            "tool_calls[0].function.arguments.x: must be a finite number, got nan",
        ),
        (
            {"role": "user", "content": "hi", "tool_calls": [wire_call()]},
            InvalidMessage,
            "tool_calls: are only allowed on assistant messages, got tuple with role 'user'",
        ),
        (
            {"role": "user", "content": 5},
            InvalidMessage,
            "content: must be a string or a list of content parts, got 5",
        ),
        (
            {"role": "user", "content": [{"type": "text", "text": 5}]},
            InvalidMessage,
            "content[0].text: must be a string, got 5",
        ),
        (
            {"role": "tool", "content": "r"},
            InvalidMessage,
            "tool_call_id: is required on tool messages",
        ),
        (
            {"role": "tool", "content": "r", "tool_call_id": 7},
            InvalidMessage,
            "tool_call_id: must be a non-empty string, got 7",
        ),
        (
            {"role": "user", "content": "hi", "weight": float("inf")},
            InvalidMessage,
            "weight: must be a finite number, got inf",
        ),
    ],
)
def test_from_dict_rejects_wrong_shapes_with_a_path(
    data: dict[str, Any], error: type[MessageError], expected: str
) -> None:
    """Wrong JSON types anywhere raise the right MessageError with a path, rule and value."""
    with pytest.raises(MessageError) as caught:
        ChatMessage.from_dict(data)
    assert type(caught.value) is error
    assert str(caught.value) == expected


def test_from_dict_errors_in_arguments_carry_the_call() -> None:
    """InvalidArguments raised while reading a call carries its call_id and name."""
    with pytest.raises(InvalidArguments) as caught:
        ChatMessage.from_dict(assistant_dict(wire_call("call_3", "f", {"when": {1, 2}})))
    assert (caught.value.call_id, caught.value.name) == ("call_3", "f")
    assert caught.value.path == "tool_calls[0].function.arguments.when"


def test_from_dict_rejects_arguments_nested_100000_deep_as_an_object() -> None:
    """Arguments as a dict nested 100,000 levels deep raise InvalidArguments, not RecursionError."""
    data = assistant_dict(wire_call("call_1", "f", deep_dict(100_000)))
    with pytest.raises(InvalidArguments) as caught:
        ChatMessage.from_dict(data)
    assert caught.value.path == "tool_calls[0].function.arguments"
    assert str(caught.value).startswith("tool_calls[0].function.arguments: must nest at most ")
    assert (caught.value.call_id, caught.value.name) == ("call_1", "f")


def test_from_dict_keeps_arguments_text_nested_100000_deep_raw() -> None:
    """Argument text nested 100,000 deep is kept raw; .arguments raises InvalidArguments."""
    depth = 100_000
    raw = '{"a":' * depth + "1" + "}" * depth
    message = ChatMessage.from_dict(assistant_dict(wire_call("call_1", "f", raw)))
    assert message.tool_calls is not None
    assert message.to_wire()["tool_calls"][0]["function"]["arguments"] == raw
    assert message == ChatMessage.from_dict(assistant_dict(wire_call("call_1", "f", raw)))
    assert hash(message) == hash(ChatMessage.from_dict(message.to_wire()))
    with pytest.raises(InvalidArguments) as caught:
        _ = message.tool_calls[0].arguments
    assert caught.value.raw == raw
    assert caught.value.call_id == "call_1"
    array_raw = "[" * depth + "]" * depth
    arrays = ChatMessage.from_dict(assistant_dict(wire_call("call_1", "f", array_raw)))
    assert arrays.tool_calls is not None
    with pytest.raises(InvalidArguments):
        _ = arrays.tool_calls[0].arguments


@pytest.mark.parametrize(
    "data",
    [
        {"role": "user", "content": deep_dict(100_000)},
        {"role": "user", "content": "hi", "meta": deep_dict(100_000)},
        {"role": "assistant", "content": None, "tool_calls": deep_dict(100_000)},
        {"role": deep_dict(100_000), "content": "hi"},
        assistant_dict(
            {"id": "call_1", "function": {"name": "f", "arguments": "{}", "nested": deep_dict(10)}}
        ),
        assistant_dict({"id": 5, "function": {"name": "f"}}),
        assistant_dict({"id": "call_1", "function": {"name": ["f"]}}),
        {"role": "user", "content": "hi", 5: "x"},
        {"role": "tool", "content": "hi", "tool_call_id": "c", "name": ""},
    ],
)
def test_from_dict_raises_only_message_errors(data: dict[Any, Any]) -> None:
    """Odd input raises a MessageError subclass, never KeyError, TypeError or RecursionError."""
    with pytest.raises(MessageError):
        ChatMessage.from_dict(data)


@pytest.mark.parametrize("role", ["user", "system", "developer"])
def test_from_dict_refusal_excuses_null_content_only_on_assistant(role: str) -> None:
    """A refusal beside content null is an assistant-turn shape; on other roles null content is an error."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage.from_dict({"role": role, "content": None, "refusal": "no"})
    assert caught.value.path == "content"


class _Text(str):
    """A str subclass, as some libraries hand out."""


class _OtherRole(enum.StrEnum):
    """Another library's role enum with the same wire values."""

    USER = "user"


@pytest.mark.parametrize("role", [_Text("user"), _OtherRole.USER])
def test_a_str_subclass_with_a_role_value_is_that_role(role: str) -> None:
    """A str subclass spelling a role exactly (another StrEnum's member too) becomes the Role."""
    assert ChatMessage(role, "hi").role is Role.USER


def test_a_str_subclass_as_content_is_accepted() -> None:
    """Content may be a str subclass; it is text."""
    message = ChatMessage.user(_Text("hi"))
    assert message.content == "hi"
    assert message.to_wire() == {"role": "user", "content": "hi"}


def test_a_calls_extra_cannot_smuggle_a_modelled_key_into_a_message() -> None:
    """An Extra from a ToolCall that holds 'content' is rejected as a message's extra."""
    call = ToolCall.from_dict({"id": "c1", "function": {"name": "f"}, "content": "sneaky"})
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage("user", "hi", extra=call.extra)
    assert caught.value.path == "extra.content"


@pytest.mark.parametrize("name", ["content", "not_a_field"])
def test_every_assignment_and_deletion_raises_frozen_instance_error(name: str) -> None:
    """Setting or deleting any attribute, field or not, raises FrozenInstanceError (not TypeError)."""
    message = ChatMessage.user("hi")
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(message, name, "x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(message, name)
    assert message == ChatMessage.user("hi")


def test_provider_data_is_kept_compared_and_never_emitted_on_the_openai_wire() -> None:
    """provider_data holds one provider's replay data: part of the value, absent from to_wire()."""
    blocks: dict[str, Any] = {
        "anthropic": {"items": [[0, {"type": "thinking", "thinking": "hm", "signature": "sig"}]]}
    }
    message = ChatMessage("assistant", "Paris.", provider_data=blocks)
    assert message.provider_data == blocks
    assert message.to_wire() == {"role": "assistant", "content": "Paris."}
    assert message != ChatMessage.assistant("Paris.")
    assert hash(message) == hash(ChatMessage("assistant", "Paris.", provider_data=blocks))
    assert pickle.loads(pickle.dumps(message)) == message
    assert eval(repr(message), {"ChatMessage": ChatMessage}) == message
    assert dataclasses.replace(message, content="Rome.").provider_data == blocks


def test_provider_data_must_be_json() -> None:
    """provider_data values are checked like extra values, under their own path."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage("assistant", "x", provider_data={"gemini": {1, 2}})
    assert str(caught.value).startswith("provider_data.gemini: must be JSON")


@pytest.mark.parametrize("value", [{"temp": 18}, {}])
def test_a_tool_value_as_content_suggests_sending_text(value: object) -> None:
    """tool_result(id, {"temp": 18}) says the content must be text and how to make it so."""
    with pytest.raises(
        InvalidMessage,
        match=r"^content: must be a string or a list of content parts: send a tool's value as text, e\.g\. json\.dumps\(value\)",
    ):
        ChatMessage.tool_result("call_1", value)  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["function_call", "function_call_output", "message", "reasoning"])
def test_a_responses_api_item_is_named_as_such(kind: str) -> None:
    """A Responses API item handed to the Chat Completions reader is named, not just 'role is required'."""
    with pytest.raises(
        InvalidMessage, match=rf"^role: is required: this is an OpenAI Responses API item \(type '{kind}'\)"
    ):
        ChatMessage.from_dict({"type": kind, "call_id": "call_1"})
    with pytest.raises(InvalidMessage, match=r"^role: is required$"):
        ChatMessage.from_dict({"type": "other"})


def test_the_legacy_function_shapes_are_named_with_what_replaced_them() -> None:
    """A call turn of only a function_call, and role 'function', say they are the legacy shape and what to send."""
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage.from_dict(
            {
                "role": "assistant",
                "content": None,
                "function_call": {"name": "get_weather", "arguments": "{}"},
            }
        )
    assert caught.value.path == "function_call"
    assert "legacy shape of a call" in caught.value.rule
    assert "tool_calls=" in caught.value.rule
    with pytest.raises(InvalidMessage) as caught:
        ChatMessage.from_dict({"role": "function", "name": "get_weather", "content": "18 C"})
    assert caught.value.path == "role"
    assert "'function' is the legacy role" in caught.value.rule
    assert "role 'tool'" in caught.value.rule
    # Beside text, a function_call is a key like any other: kept, and sent back.
    kept = ChatMessage.from_dict({"role": "assistant", "content": "Hi", "function_call": {"name": "f"}})
    assert kept.to_wire()["function_call"] == {"name": "f"}
