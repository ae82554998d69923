"""Role, ChatMessage, ToolCall, the OpenAI wire and the errors, as a type checker sees them.

Checked by ``mypy --strict`` and pyright (README.md in this folder). Every
example is a function, so importing this module (pytest's doctest collection
does) runs none of them; ``test_examples.py`` runs them on purpose.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import pickle
from collections.abc import Mapping
from dataclasses import FrozenInstanceError
from typing import Any, assert_type

from toolturns import (
    ChatMessage,
    ContentPart,
    InvalidArguments,
    InvalidMessage,
    InvalidStream,
    InvalidToolCall,
    MessageError,
    Role,
    ToolCall,
    __version__,
    ollama,
)

from ._cases import correct, gap, mistake

# A literal schema-like value: mypy infers dict[str, object], which arguments must accept.
ARGUMENTS = {"city": "Paris", "days": [1, 2], "units": {"temperature": "C"}}


def _weather_call() -> ToolCall:
    return ToolCall("call_1", "get_weather", {"city": "Paris"})


def _arguments_error() -> InvalidArguments:
    try:
        ToolCall("call_1", "get_weather", '{"city": ').arguments  # noqa: B018 - reading it raises
    except InvalidArguments as error:
        return error
    raise AssertionError("malformed argument text decoded")


def _ollama_stream_error() -> InvalidStream:
    # Ollama reports a failure mid-stream as {"error": "<text>"}: the provider error is a string.
    try:
        ollama.StreamAssembler().feed({"error": "model 'llama9' not found"})
    except InvalidStream as error:
        return error
    raise AssertionError("the error item was accepted")


# -- correct code ---------------------------------------------------------------------------------


@correct
def named_constructors_return_chat_messages() -> None:
    """Every named constructor, and the class itself, returns a ChatMessage."""
    call = _weather_call()
    assert_type(ChatMessage.system("Be brief."), ChatMessage)
    assert_type(ChatMessage.developer("Be brief.", name="ops"), ChatMessage)
    assert_type(ChatMessage.user("Weather in Paris?", name="ann", extra={"weight": 0}), ChatMessage)
    assert_type(ChatMessage.assistant("18 C."), ChatMessage)
    assert_type(ChatMessage.assistant_tool_calls([call]), ChatMessage)
    assert_type(ChatMessage.assistant_tool_calls((call,), "Checking.", name="bot"), ChatMessage)
    assert_type(ChatMessage.tool_result("call_1", "18 C"), ChatMessage)
    assert_type(ChatMessage.tool_result("call_1", "no such city", is_error=True), ChatMessage)
    assert_type(ChatMessage(Role.USER, "hi"), ChatMessage)
    assert_type(ChatMessage("assistant", "", tool_calls=[call]), ChatMessage)


@correct
def fields_have_precise_types() -> None:
    """Each field reads back with its declared type; optional fields say so."""
    message = ChatMessage.user("hi", name="ann", extra={"weight": 0})
    assert_type(message.role, Role)
    assert_type(message.content, str | tuple[ContentPart, ...])
    assert_type(message.text, str)
    assert_type(message.tool_calls, tuple[ToolCall, ...] | None)
    assert_type(message.tool_call_id, str | None)
    assert_type(message.name, str | None)
    assert_type(message.is_error, bool)
    assert_type(message.extra, Mapping[str, Any])
    assert_type(message.provider_data, Mapping[str, Any])


@correct
def role_is_a_str_enum() -> None:
    """Role members are Roles and compare equal to their wire strings."""
    role = Role("tool")
    assert_type(role, Role)
    value: str = role.value  # mypy says str, pyright the union of the five literals
    assert role == value == "tool"
    assert ChatMessage.user("hi").role is Role.USER


@correct
def tool_call_fields_and_arguments() -> None:
    """ToolCall takes a mapping, raw text or None; arguments decode to dict[str, Any]."""
    call = ToolCall("call_1", "get_weather", ARGUMENTS)
    assert_type(call.id, str)
    assert_type(call.name, str)
    assert_type(call.arguments_json, str)
    assert_type(call.arguments, dict[str, Any])
    assert_type(call.to_wire(), dict[str, Any])
    assert_type(ToolCall("call_2", "get_time"), ToolCall)
    assert_type(ToolCall("call_3", "get_weather", '{"city": "Par'), ToolCall)
    assert_type(ToolCall("call_4", "f", None, extra={"seq": 0}), ToolCall)
    city: str = call.arguments["city"]  # the decoded values are Any: the caller says what it expects
    assert city == "Paris"


@correct
def wire_round_trip() -> None:
    """to_wire gives dict[str, Any]; from_dict takes any object and gives the value back."""
    turn = ChatMessage.assistant_tool_calls([_weather_call()])
    wire = turn.to_wire()
    assert_type(wire, dict[str, Any])
    assert_type(turn.to_wire(null_content=True), dict[str, Any])
    assert_type(ChatMessage.from_dict(wire), ChatMessage)
    assert_type(ChatMessage.from_dict(json.loads(json.dumps(wire))), ChatMessage)
    assert_type(ToolCall.from_dict(wire["tool_calls"][0]), ToolCall)
    assert ChatMessage.from_dict(wire) == turn


@correct
def narrowing_optional_tool_calls() -> None:
    """tool_calls is Optional: after a None check, or with ``or ()``, the calls are ToolCalls."""
    reply = ChatMessage.from_dict(
        {"role": "assistant", "content": None, "tool_calls": [_weather_call().to_wire()]}
    )
    names: list[str] = []
    if reply.tool_calls is not None:
        first = reply.tool_calls[0]
        assert_type(first, ToolCall)
        names.append(first.name)
    for call in reply.tool_calls or ():
        assert_type(call, ToolCall)
        names.append(call.name)
    assert names == ["get_weather", "get_weather"]


@correct
def value_semantics() -> None:
    """Messages are hashable, picklable, and dataclasses.replace returns a checked ChatMessage."""
    message = ChatMessage.user("hi")
    edited = dataclasses.replace(message, content="hello")
    assert_type(edited, ChatMessage)
    assert {message: 1}[ChatMessage.user("hi")] == 1
    restored = pickle.loads(pickle.dumps(message))
    assert restored == message
    version: str = __version__  # pyright infers the literal itself
    assert version


@correct
def error_attributes() -> None:
    """Errors are ValueErrors with typed attributes; InvalidArguments says which call failed."""
    error = _arguments_error()
    assert_type(error.call_id, str | None)
    assert_type(error.name, str | None)
    assert_type(error.raw, str | None)
    assert_type(error.path, str)
    assert_type(error.rule, str)
    assert_type(error.got, str | None)
    assert_type(error.with_prefix("tool_calls[0]"), MessageError)
    base: ValueError = error  # a loop's `except ValueError` catches every toolturns error
    assert (base.args[0], error.call_id, error.raw) == ("arguments", "call_1", '{"city": ')


@correct
def provider_error_needs_narrowing() -> None:
    """InvalidStream.provider_error is whatever the provider sent: an object, narrowed before use."""
    detail = _ollama_stream_error().provider_error
    assert_type(detail, object)
    text = detail if isinstance(detail, str) else json.dumps(detail)
    assert text == "model 'llama9' not found"


# -- mistakes the checkers flag ---------------------------------------------------------------------
# Each line carries the exact codes that flag it. mypy --strict (warn_unused_ignores) and pyright
# (reportUnnecessaryTypeIgnoreComment, with mypy's comments invisible to it) fail on an ignore that
# silences nothing, so a mistake that stopped being flagged fails the check.


@mistake(InvalidMessage)
def tool_call_id_not_a_string() -> None:
    """The tool result's id must be the call's string id."""
    # Mistake: an int as tool_call_id.
    ChatMessage.tool_result(5, "x")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@mistake(InvalidMessage)
def tool_result_content_not_text() -> None:
    """A tool's output must be serialised to text first (json.dumps)."""
    # Mistake: the tool's return value (a dict) as content.
    ChatMessage.tool_result("call_1", {"temperature": 18})  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@mistake(InvalidMessage)
def assistant_content_none() -> None:
    """Plain assistant text cannot be None; None content belongs only beside tool calls."""
    # Mistake: an OpenAI response's null content passed on as the text.
    ChatMessage.assistant(None)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@mistake(TypeError)
def is_error_positional() -> None:
    """is_error is keyword-only."""
    # Mistake: is_error passed by position.
    ChatMessage.tool_result("call_1", "failed", True)  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]


@mistake(TypeError)
def name_positional() -> None:
    """Optional message fields are keyword-only."""
    # Mistake: the participant name passed by position.
    ChatMessage.user("hi", "ann")  # type: ignore[call-arg]  # pyright: ignore[reportCallIssue]


@mistake(InvalidMessage)
def one_call_not_a_list() -> None:
    """assistant_tool_calls takes a sequence of calls, even for one call."""
    call = _weather_call()
    # Mistake: a single ToolCall where a list of them is expected.
    ChatMessage.assistant_tool_calls(call)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@mistake(InvalidMessage)
def wire_dicts_as_calls() -> None:
    """Calls are ToolCall values; wire dicts are read with ToolCall.from_dict."""
    # Mistake: wire dicts where ToolCalls are expected.
    ChatMessage.assistant_tool_calls([{"id": "call_1", "type": "function"}])  # type: ignore[list-item]  # pyright: ignore[reportArgumentType]


@mistake(InvalidArguments)
def arguments_not_an_object() -> None:
    """Arguments are a JSON object (a mapping), raw text or None; never a list."""
    # Mistake: a list as arguments.
    ToolCall("id", "name", arguments=[1])  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]


@mistake(InvalidArguments)
def arguments_with_int_keys() -> None:
    """JSON object keys are strings."""
    # Mistake: an int key in the arguments.
    ToolCall("id", "name", {1: "x"})  # type: ignore[dict-item]  # pyright: ignore[reportArgumentType]


@mistake(FrozenInstanceError)
def assigning_a_field() -> None:
    """Messages are frozen; dataclasses.replace makes a changed copy."""
    message = ChatMessage.user("hi")
    # Mistake: assigning to a field of a message.
    message.content = "x"  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]


@mistake(FrozenInstanceError)
def assigning_a_tool_call_field() -> None:
    """A ToolCall's fields are read-only properties to type checkers, as they are at run time."""
    call = _weather_call()
    # Mistake: assigning to a field of a tool call.
    call.name = "get_time"  # type: ignore[misc]  # pyright: ignore[reportAttributeAccessIssue]


@mistake(FrozenInstanceError)
def deleting_a_field() -> None:
    """Pyright only: mypy does not check ``del`` on a frozen dataclass field."""
    message = ChatMessage.user("hi")
    # Mistake: deleting a field of a message.
    del message.content  # pyright: ignore[reportAttributeAccessIssue]


@mistake(InvalidMessage)
def replace_with_a_wrong_type() -> None:
    """mypy only: its dataclass plugin checks replace() against the fields; pyright does not."""
    message = ChatMessage.user("hi")
    # Mistake: replace() with content that is not a string.
    dataclasses.replace(message, content=5)  # type: ignore[arg-type]


@mistake(TypeError)
def changing_extra() -> None:
    """extra is a read-only Mapping."""
    message = ChatMessage.user("hi", extra={"weight": 0})
    # Mistake: item assignment into a message's extra keys.
    message.extra["weight"] = 1  # type: ignore[index]  # pyright: ignore[reportIndexIssue]


@mistake(TypeError)
def indexing_optional_tool_calls() -> object:
    """tool_calls is None on a turn without calls: check before indexing."""
    reply = ChatMessage.assistant("Hello!")
    # Mistake: indexing tool_calls without checking for None.
    return reply.tool_calls[0]  # type: ignore[index]  # pyright: ignore[reportOptionalSubscript]


@mistake(TypeError)
def iterating_optional_tool_calls() -> None:
    """tool_calls is None on a turn without calls: iterate ``tool_calls or ()``."""
    reply = ChatMessage.assistant("Hello!")
    # Mistake: iterating tool_calls without checking for None.
    for _call in reply.tool_calls:  # type: ignore[union-attr]  # pyright: ignore[reportOptionalIterable]
        pass


@mistake(TypeError)
def arguments_json_indexed() -> object:
    """arguments_json is the wire text; arguments is the decoded dict."""
    call = _weather_call()
    # Mistake: indexing the JSON text as if it were the decoded arguments.
    return call.arguments_json["city"]  # type: ignore[index]  # pyright: ignore[reportArgumentType]


@mistake(AttributeError)
def pydantic_style_dump() -> object:
    """There is no to_dict/model_dump: to_wire() is the OpenAI dict."""
    message = ChatMessage.user("hi")
    # Mistake: another library's serialisation method.
    return message.to_dict()  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]


@mistake(AttributeError)
def role_member_typo() -> object:
    """Role members are upper case; a misspelt member is flagged (a misspelt string is not)."""
    # Mistake: a misspelt Role member.
    return Role.User  # type: ignore[attr-defined]  # pyright: ignore[reportAttributeAccessIssue]


@mistake(TypeError)
def provider_error_indexed() -> object:
    """provider_error is any JSON the provider sent (Ollama sends a string): narrow it first."""
    error = _ollama_stream_error()
    # Mistake: indexing provider_error as if it were always an object.
    return error.provider_error["message"]  # type: ignore[index]  # pyright: ignore[reportIndexIssue]


# -- mistakes no checker flags today ----------------------------------------------------------------
# Run-time validation refuses each one. If a checker starts flagging one of these, the check fails
# with a real error here: move the example up to the flagged mistakes, with its codes.


@gap(InvalidMessage)
def role_string_typo() -> None:
    """The role parameter is ``Role | str``: any string type-checks; only the six exact ones run."""
    ChatMessage("usr", "hi")


@gap(InvalidArguments)
def arguments_not_json() -> None:
    """Argument values are typed Any (a recursive JSON type would refuse ordinary literals)."""
    ToolCall("call_1", "book", {"when": datetime.date(2025, 1, 1)})


@gap(InvalidMessage)
def from_dict_of_anything() -> None:
    """from_dict takes ``object`` by design: it reads untrusted data and raises MessageError."""
    ChatMessage.from_dict("role: user")


@gap(InvalidToolCall)
def empty_call_id() -> None:
    """Non-empty is a value rule, not a type."""
    ToolCall("", "get_weather")


@gap(InvalidMessage)
def no_calls() -> None:
    """A non-empty sequence is a value rule, not a type."""
    ChatMessage.assistant_tool_calls([])
