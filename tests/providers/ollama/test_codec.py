"""Unit tests for ``toolturns.ollama``: the Ollama ``/api/chat`` codec.

Writing (``to_request``, ``tool_definition``), reading (``from_request``,
``from_response``), the golden Ollama examples of ``wire_examples.json``, and
the exact errors for malformed input.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from tests.conftest import wire_examples
from toolturns import (
    ChatMessage,
    InvalidArguments,
    InvalidMessage,
    InvalidTool,
    InvalidToolCall,
    MessageError,
    Role,
    Tool,
    ToolCall,
    ollama,
    openai,
)
from toolturns.providers._native import is_generated_id, kept
from toolturns.providers._shared import RAW_ARGUMENTS_KEY

GENERATED = kept("ollama", generated_id=True)
WEATHER = Tool(
    "get_weather",
    "Get the weather in a given city",
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)

EXAMPLES = [e for e in wire_examples("ollama") if e["kind"] != "stream_chunks"]
REQUEST_EXAMPLES = [e for e in EXAMPLES if e["kind"] == "request_messages"]
RESPONSE_EXAMPLES = [e for e in EXAMPLES if e["kind"] == "response_message"]


def call(call_id: str = "call_1", name: str = "get_weather", arguments: Any = None, **more: Any) -> ToolCall:
    """A valid tool call."""
    return ToolCall(call_id, name, {"city": "Paris"} if arguments is None else arguments, **more)


def loop(*calls: ToolCall, results: tuple[str, ...] | None = None) -> list[ChatMessage]:
    """A user turn, an assistant turn with ``calls``, and one result per call in call order."""
    answers = results or tuple(f"result {index}" for index in range(len(calls)))
    return [
        ChatMessage.user("Weather in Paris?"),
        ChatMessage.assistant_tool_calls(list(calls)),
        *(ChatMessage.tool_result(c.id, text) for c, text in zip(calls, answers, strict=True)),
    ]


def wire_messages(messages: list[ChatMessage], **options: Any) -> list[dict[str, Any]]:
    """The ``messages`` part of ``to_request``."""
    result: list[dict[str, Any]] = ollama.to_request(messages, **options)["messages"]
    return result


def raises(error: type[MessageError], text: str) -> Any:
    """``pytest.raises`` for an exact error message."""
    return pytest.raises(error, match="^" + re.escape(text) + "$")


def native_call(name: str = "get_weather", arguments: Any = None, **more: Any) -> dict[str, Any]:
    """A call as Ollama sends it."""
    return {
        "function": {"name": name, "arguments": {"city": "Paris"} if arguments is None else arguments},
        **more,
    }


def assistant(*calls: dict[str, Any], **more: Any) -> dict[str, Any]:
    """A native assistant message carrying ``calls``."""
    return {"role": "assistant", "content": "", "tool_calls": list(calls), **more}


def result(content: str = "18 degrees", **more: Any) -> dict[str, Any]:
    """A native tool message."""
    return {"role": "tool", "content": content, **more}


# -- to_request: roles and text -------------------------------------------------------------


def test_system_and_developer_are_sent_as_system() -> None:
    """System and developer messages both become role system, in order (developer reads back as system)."""
    messages = [ChatMessage.system("A"), ChatMessage.developer("B"), ChatMessage.user("C")]
    assert wire_messages(messages) == [
        {"role": "system", "content": "A"},
        {"role": "system", "content": "B"},
        {"role": "user", "content": "C"},
    ]
    assert [m.role for m in ollama.from_request(ollama.to_request(messages))] == [
        Role.SYSTEM,
        Role.SYSTEM,
        Role.USER,
    ]


def test_text_turns_are_role_and_content_only() -> None:
    """User and assistant text turns are exactly {role, content}."""
    assert wire_messages([ChatMessage.user("hi"), ChatMessage.assistant("")]) == [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": ""},
    ]


def test_name_and_extra_are_refused_unless_dropped_and_is_error_is_not_sent() -> None:
    """name and extra (message and call) have no Ollama field: refused unless drop_unsupported.
    is_error has none either; Ollama's result text says it."""
    messages = [
        ChatMessage("user", "hi", name="alice", extra={"weight": 0}),
        ChatMessage("assistant", "", tool_calls=[call(extra={"seq": 0})], name="bot"),
        ChatMessage.tool_result("call_1", "failed", is_error=True),
    ]
    with pytest.raises(InvalidMessage, match=r"^messages\[0\]\.name: Ollama cannot carry the name 'alice'"):
        ollama.to_request(messages)
    assert wire_messages(messages, drop_unsupported=True) == [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": "call_1", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}
            ],
        },
        {"role": "tool", "content": "failed", "tool_name": "get_weather", "tool_call_id": "call_1"},
    ]


def test_tools_key_only_when_tools_are_given() -> None:
    """'tools' holds each tool's definition, and is absent without tools (None or empty)."""
    messages = [ChatMessage.user("hi")]
    assert ollama.to_request(messages) == {"messages": [{"role": "user", "content": "hi"}]}
    assert "tools" not in ollama.to_request(messages, tools=[])
    assert ollama.to_request(messages, tools=[WEATHER, Tool("get_time")])["tools"] == [
        ollama.tool_definition(WEATHER),
        ollama.tool_definition(Tool("get_time")),
    ]


def test_messages_and_tools_are_checked() -> None:
    """Messages must be a list of ChatMessage and tools a list of Tool with unique names."""
    with raises(InvalidMessage, "messages: must be a list or tuple of ChatMessage, got dict"):
        ollama.to_request({"role": "user"})  # type: ignore[arg-type]
    with raises(
        InvalidMessage, "messages[0]: must be a ChatMessage (read dicts with ChatMessage.from_dict), got dict"
    ):
        ollama.to_request([{"role": "user", "content": "hi"}])  # type: ignore[list-item]
    with raises(InvalidTool, "tools[1].name: must be unique among the tools, got 'get_weather'"):
        ollama.to_request([], tools=[WEATHER, WEATHER])
    with raises(InvalidTool, "tools[0]: must be a Tool (read dicts with Tool.from_dict), got dict"):
        ollama.to_request([], tools=[{"name": "x"}])  # type: ignore[list-item]


# -- to_request: tool-call turns ------------------------------------------------------------


def test_tool_call_turn_without_text_sends_empty_content() -> None:
    """A tool-call turn with no text sends content "" (a string, never null or missing)."""
    [wire] = wire_messages([ChatMessage.assistant_tool_calls([call()])])
    assert wire == {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"id": "call_1", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}],
    }


def test_tool_call_turn_keeps_its_text() -> None:
    """The text of a tool-call turn is sent as its content."""
    [wire] = wire_messages([ChatMessage.assistant_tool_calls([call()], "Let me look.")])
    assert wire["content"] == "Let me look."


def test_arguments_are_an_object_never_text() -> None:
    """function.arguments is the decoded object (a string is a 400 on Ollama), whatever the text's layout."""
    turn = ChatMessage.assistant_tool_calls(
        [call("c1", arguments='{ "city" : "Paris", "days": [1, 2.5] }'), call("c2", arguments="")]
    )
    [wire] = wire_messages([turn])
    assert [c["function"]["arguments"] for c in wire["tool_calls"]] == [
        {"city": "Paris", "days": [1, 2.5]},
        {},
    ]


def test_no_argument_call_sends_an_empty_object() -> None:
    """A call without arguments sends arguments {} (never [] or "")."""
    [wire] = wire_messages([ChatMessage.assistant_tool_calls([ToolCall("c1", "get_time")])])
    assert wire["tool_calls"][0]["function"] == {"name": "get_time", "arguments": {}}


def test_call_has_no_type_and_no_index() -> None:
    """Calls are sent as {id, function: {name, arguments}}: Ollama needs neither type nor index."""
    [wire] = wire_messages([ChatMessage.assistant_tool_calls([call("a"), call("b")])])
    assert [list(c) for c in wire["tool_calls"]] == [["id", "function"], ["id", "function"]]
    assert [list(c["function"]) for c in wire["tool_calls"]] == [["name", "arguments"], ["name", "arguments"]]


def test_malformed_arguments_raise_naming_message_and_call() -> None:
    """Argument text that is not a JSON object raises InvalidArguments naming message index, call id and name."""
    messages = [
        ChatMessage.user("hi"),
        ChatMessage.assistant_tool_calls([call("c1"), call("c2", arguments='{"city": "Par')]),
    ]
    with pytest.raises(InvalidArguments) as caught:
        ollama.to_request(messages)
    error = caught.value
    assert error.path == "messages[1].tool_calls[1].arguments"
    assert (error.call_id, error.name, error.raw) == ("c2", "get_weather", '{"city": "Par')
    assert str(error) == (
        "messages[1].tool_calls[1].arguments: must be valid JSON (Unterminated string starting at: line 1 column 10"
        " (char 9)), to be sent as Ollama's arguments object (keep_invalid_arguments=True sends the text wrapped"
        " as {'_toolturns_raw_arguments': text}), got '{\"city\": \"Par'"
    )


def test_non_object_json_arguments_raise() -> None:
    """Valid JSON that is not an object ([1], "x", 42) cannot be sent as arguments either."""
    with raises(
        InvalidArguments,
        "messages[0].tool_calls[0].arguments: must be a JSON object, to be sent as Ollama's arguments object"
        " (keep_invalid_arguments=True sends the text wrapped as {'_toolturns_raw_arguments': text}), got array",
    ):
        ollama.to_request([ChatMessage.assistant_tool_calls([call(arguments="[1]")])])


def test_keep_invalid_arguments_wraps_the_raw_text_and_reads_it_back() -> None:
    """keep_invalid_arguments=True sends {'_toolturns_raw_arguments': text}, never {}; reading restores the text."""
    raw = '{"city": "Par'
    messages = loop(call("c1", arguments=raw), call("c2", arguments="[1]"))
    body = ollama.to_request(messages, keep_invalid_arguments=True)
    arguments = [c["function"]["arguments"] for c in body["messages"][1]["tool_calls"]]
    assert arguments == [{RAW_ARGUMENTS_KEY: raw}, {RAW_ARGUMENTS_KEY: "[1]"}]
    back = ollama.from_request(json.loads(json.dumps(body)))
    assert [c.arguments_json for c in back[1].tool_calls or ()] == [raw, "[1]"]
    assert back == messages


@pytest.mark.parametrize(
    ("raw", "where", "what"),
    [
        ('{"city": "Paris", "city": "Rome"}', "arguments", "repeated key 'city'"),
        ('{"x": {"a": 1, "\\u0061": 2}}', "arguments.x", "repeated key 'a'"),
        ('{"x": 1e-400}', "arguments.x", "the number 1e-400 would be sent as 0.0"),
        ('{"x": 12345678901234567890.5}', "arguments.x", "would be sent as 1.2345678901234567e+19"),
        ('{"x": 0.10000000000000000001}', "arguments.x", "would be sent as 0.1"),
    ],
)
def test_arguments_an_object_would_change_are_refused_or_sent_wrapped(
    raw: str, where: str, what: str
) -> None:
    """A repeated key or a number a double changes is refused, located; keep_invalid_arguments=True
    sends the text wrapped, and it reads back exactly."""
    messages = loop(call("c1", arguments=raw))
    with pytest.raises(InvalidArguments) as caught:
        ollama.to_request(messages)
    error = caught.value
    path = f"messages[1].tool_calls[0].{where}"
    assert (error.path, error.call_id, error.name, error.raw) == (path, "c1", "get_weather", raw)
    assert what in str(error)
    assert "Ollama carries arguments as an object" in str(error)
    body = ollama.to_request(messages, keep_invalid_arguments=True)
    assert body["messages"][1]["tool_calls"][0]["function"]["arguments"] == {RAW_ARGUMENTS_KEY: raw}
    back = ollama.from_request(json.loads(json.dumps(body)))
    assert back == messages
    assert back[1].tool_calls is not None
    assert back[1].tool_calls[0].arguments_json == raw


def test_generated_ids_are_never_sent() -> None:
    """A call whose id toolturns made up for Ollama is sent without id, and its result without tool_call_id."""
    generated = call("call_made_up", provider_data=GENERATED)
    messages = loop(generated, call("call_real"))
    wire = wire_messages(messages)
    assert wire[1]["tool_calls"][0] == {"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}
    assert wire[1]["tool_calls"][1]["id"] == "call_real"
    assert wire[2] == {"role": "tool", "content": "result 0", "tool_name": "get_weather"}
    assert wire[3] == {
        "role": "tool",
        "content": "result 1",
        "tool_name": "get_weather",
        "tool_call_id": "call_real",
    }


def test_other_providers_generated_ids_are_sent() -> None:
    """Only Ollama's own generated ids are withheld: an id another provider's codec made up is an id here."""
    other = call("call_gemini", provider_data=kept("gemini", generated_id=True))
    wire = wire_messages(loop(other))
    assert wire[1]["tool_calls"][0]["id"] == "call_gemini"
    assert wire[2]["tool_call_id"] == "call_gemini"


# -- to_request: tool results ---------------------------------------------------------------


def test_tool_result_carries_tool_name_looked_up_by_id() -> None:
    """A result carries the tool_name of the call it answers, and that call's tool_call_id."""
    messages = loop(call("c1", "get_weather"), call("c2", "get_time", {}))
    wire = wire_messages(messages)
    assert wire[2:] == [
        {"role": "tool", "content": "result 0", "tool_name": "get_weather", "tool_call_id": "c1"},
        {"role": "tool", "content": "result 1", "tool_name": "get_time", "tool_call_id": "c2"},
    ]


def test_tool_result_for_an_unknown_call_is_an_error() -> None:
    """A result whose id matches no earlier call raises InvalidMessage naming the message index."""
    messages = [*loop(call("c1")), ChatMessage.tool_result("c9", "?")]
    with raises(
        InvalidMessage,
        "messages[3].tool_call_id: must be the id of a call of an earlier assistant turn"
        " (Ollama's tool_name is looked up from it), got 'c9'",
    ):
        ollama.to_request(messages)


def test_tool_result_before_its_call_is_an_error() -> None:
    """Only calls of earlier turns count: a result placed before its call cannot be named."""
    messages = [ChatMessage.tool_result("c1", "?"), ChatMessage.assistant_tool_calls([call("c1")])]
    with pytest.raises(InvalidMessage, match=r"^messages\[0\]\.tool_call_id: "):
        ollama.to_request(messages)


def test_reused_id_names_the_latest_call() -> None:
    """When an id comes back in a later turn, a result answers the latest call with that id."""
    messages = [
        *loop(call("call_0", "get_weather")),
        ChatMessage.assistant_tool_calls([call("call_0", "get_time", {})]),
        ChatMessage.tool_result("call_0", "12:00"),
    ]
    wire = wire_messages(messages)
    assert [wire[2]["tool_name"], wire[4]["tool_name"]] == ["get_weather", "get_time"]


# -- to_request: Ollama's own keys ----------------------------------------------------------


def test_kept_keys_are_sent_back_only_to_ollama() -> None:
    """Keys read from Ollama (thinking, unknown message and call keys) go back to Ollama, never to OpenAI."""
    body = {
        "messages": [
            {"role": "user", "content": "look", "x_user": [1]},
            assistant(
                {"id": "c1", "x_call": 1, "function": {"name": "f", "arguments": {}, "x_fn": True}},
                thinking="Hmm.",
            ),
            result(tool_name="f", tool_call_id="c1", x_result="r"),
        ]
    }
    messages = ollama.from_request(body)
    assert ollama.to_request(messages) == {
        "messages": [
            {"role": "user", "content": "look", "x_user": [1]},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {"id": "c1", "function": {"name": "f", "arguments": {}, "x_fn": True}, "x_call": 1}
                ],
                "thinking": "Hmm.",
            },
            {
                "role": "tool",
                "content": "18 degrees",
                "tool_name": "f",
                "tool_call_id": "c1",
                "x_result": "r",
            },
        ]
    }
    assert openai.to_request(messages)["messages"] == [
        {"role": "user", "content": "look"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
        },
        {"role": "tool", "content": "18 degrees", "tool_call_id": "c1"},
    ]


def test_other_providers_data_is_not_sent() -> None:
    """provider_data of other providers never reaches the Ollama wire."""
    messages = [
        ChatMessage("assistant", "hi", provider_data={"anthropic": {"items": [[0, {"type": "thinking"}]]}}),
        ChatMessage(
            "assistant",
            "",
            tool_calls=[call(provider_data={"gemini": {"keys": {"thoughtSignature": "abc"}}})],
        ),
    ]
    assert wire_messages(messages) == [
        {"role": "assistant", "content": "hi"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": "call_1", "function": {"name": "get_weather", "arguments": {"city": "Paris"}}}
            ],
        },
    ]


@pytest.mark.parametrize(
    ("provider_data", "error"),
    [
        (
            {"ollama": "x"},
            "messages[0].provider_data.ollama: must be an object (the data the Ollama codec read), got 'x'",
        ),
        (
            {"ollama": {"thinking": "x"}},
            "messages[0].provider_data.ollama.thinking: is not data the Ollama codec writes (it writes keys), got 'x'",
        ),
        (
            {"ollama": {"keys": [1]}},
            "messages[0].provider_data.ollama.keys: must be an object of native keys, got list",
        ),
        (
            {"ollama": {"keys": {"role": "system"}}},
            "messages[0].provider_data.ollama.keys.role: is a key the Ollama codec writes itself, not a kept key,"
            " got 'system'",
        ),
    ],
)
def test_malformed_message_provider_data_is_an_error(provider_data: dict[str, Any], error: str) -> None:
    """provider_data['ollama'] on a message holds only the 'keys' this codec read; anything else is refused."""
    with raises(InvalidMessage, error):
        ollama.to_request([ChatMessage("user", "hi", provider_data=provider_data)])


def test_kept_key_cannot_overwrite_a_result_field() -> None:
    """On a tool result, tool_name and tool_call_id are written by the codec and cannot come from kept keys."""
    messages = [
        ChatMessage.assistant_tool_calls([call("c1")]),
        ChatMessage(
            "tool", "x", tool_call_id="c1", provider_data={"ollama": {"keys": {"tool_name": "other"}}}
        ),
    ]
    with raises(
        InvalidMessage,
        "messages[1].provider_data.ollama.keys.tool_name: is a key the Ollama codec writes itself, not a kept key,"
        " got 'other'",
    ):
        ollama.to_request(messages)


@pytest.mark.parametrize(
    ("provider_data", "error"),
    [
        (
            {"ollama": {"signature": "x"}},
            "messages[0].tool_calls[0].provider_data.ollama.signature: is not data the Ollama codec writes"
            " (it writes generated_id, keys, nested), got 'x'",
        ),
        (
            {"ollama": {"keys": {"function": {}}}},
            "messages[0].tool_calls[0].provider_data.ollama.keys.function: is a key the Ollama codec writes itself,"
            " not a kept key, got dict",
        ),
        (
            {"ollama": {"nested": {"function": {"index": 3}}}},
            "messages[0].tool_calls[0].provider_data.ollama.nested.function.index: is a key the Ollama codec"
            " writes itself, not a kept key, got 3",
        ),
        (
            {"ollama": {"nested": {"function": "x"}}},
            "messages[0].tool_calls[0].provider_data.ollama.nested.function: must be an object of native keys,"
            " got 'x'",
        ),
    ],
)
def test_malformed_call_provider_data_is_an_error(provider_data: dict[str, Any], error: str) -> None:
    """provider_data['ollama'] on a call holds only generated_id, keys and nested function keys."""
    with raises(InvalidToolCall, error):
        ollama.to_request([ChatMessage.assistant_tool_calls([call(provider_data=provider_data)])])


# -- tool_definition ------------------------------------------------------------------------


def test_tool_definition_shape() -> None:
    """A tool is {type: function, function: {name, description, parameters}}."""
    assert ollama.tool_definition(WEATHER) == {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the weather in a given city",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }


def test_tool_without_parameters_sends_an_empty_object_schema() -> None:
    """No parameters sends {type: object, properties: {}} (never [], a known 400), and no empty description."""
    for tool in (Tool("get_time"), Tool("get_time", "", {})):
        assert ollama.tool_definition(tool) == {
            "type": "function",
            "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}},
        }


def test_tool_definition_refuses_what_is_not_a_tool() -> None:
    """A dict given to tool_definition is an InvalidTool, not an AttributeError (regression)."""
    with raises(InvalidTool, "must be a Tool (read dicts with Tool.from_dict), got dict"):
        ollama.tool_definition({"name": "f"})  # type: ignore[arg-type]


def test_tool_schema_that_is_not_an_object_is_refused() -> None:
    """A tool whose parameters are [] is refused when built, so [] can never reach Ollama."""
    with raises(InvalidTool, "parameters: must be a JSON-schema object (a mapping) or None, got list"):
        Tool("get_time", "", [])  # type: ignore[arg-type]


# -- from_request: bodies and messages ------------------------------------------------------


def test_reads_a_request_body_or_a_bare_list() -> None:
    """from_request takes {messages: [...]} (other keys ignored) or the bare list."""
    messages = [{"role": "user", "content": "hi"}]
    expected = [ChatMessage.user("hi")]
    assert ollama.from_request({"model": "llama3.2", "stream": False, "messages": messages}) == expected
    assert ollama.from_request(messages) == expected
    assert ollama.from_request(tuple(messages)) == expected
    assert ollama.from_request([]) == []


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"model": "llama3.2"}, "messages: is required"),
        ({"messages": "hi"}, "messages: must be an array of messages, got 'hi'"),
        ("hi", "messages: must be an array of messages, got 'hi'"),
        (None, "messages: must be an array of messages, got None"),
        ([5], "messages[0]: must be an object, got 5"),
        ([{"content": "hi"}], "messages[0].role: is required"),
        (
            [{"role": "USER", "content": "hi"}],
            "messages[0].role: must be one of 'system', 'developer', 'user', 'assistant', 'tool', got 'USER'",
        ),
        (
            [{"role": "user", "content": 5}],
            "messages[0].content: must be a string (Ollama's content is text and its images go in 'images'), "
            "got 5",
        ),
        (
            [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
            "messages[0].content: must be a string: Ollama's content is text and its images go in 'images'; "
            "a list of parts is OpenAI's shape (read it with toolturns.openai or ChatMessage.from_dict), "
            "got list",
        ),
    ],
)
def test_malformed_bodies_and_messages_are_errors(body: Any, error: str) -> None:
    """Wrong shapes raise InvalidMessage with the native path."""
    with raises(InvalidMessage, error):
        ollama.from_request(body)


@pytest.mark.parametrize("role", ["assistant", "user", "system", "tool"])
def test_missing_or_null_content_is_empty_text(role: str) -> None:
    """Missing or null content reads as "" on every role: Go's zero value, and the Python client omits it."""
    calls = [assistant(native_call("f"))] if role == "tool" else []
    extra = {"tool_name": "f"} if role == "tool" else {}
    for message in ({"role": role, **extra}, {"role": role, "content": None, **extra}):
        assert ollama.from_request([*calls, message])[-1].content == ""


def test_developer_role_is_read() -> None:
    """A developer role on the Ollama wire reads as developer (it is sent back as system)."""
    assert ollama.from_request([{"role": "developer", "content": "Be brief."}]) == [
        ChatMessage.developer("Be brief.")
    ]


def test_unmodelled_message_keys_are_kept_for_ollama() -> None:
    """thinking, tool_name on a non-tool message, ... go to provider_data['ollama']['keys'] (images
    are content parts: tests/providers/ollama/test_parts.py)."""
    [user, turn] = ollama.from_request(
        [
            {"role": "user", "content": "look", "tool_name": "x", "name": "alice"},
            {"role": "assistant", "content": "It is.", "thinking": "Hmm."},
        ]
    )
    assert user.provider_data == {"ollama": {"keys": {"tool_name": "x", "name": "alice"}}}
    assert user.name is None
    assert not user.extra
    assert turn.provider_data == {"ollama": {"keys": {"thinking": "Hmm."}}}


def test_null_and_empty_unmodelled_keys_are_dropped() -> None:
    """Unmodelled keys that carry nothing (null, "", [], {}) are not kept; 0 and false are."""
    [message] = ollama.from_request(
        [
            {
                "role": "assistant",
                "content": "x",
                "thinking": "",
                "images": None,
                "a": [],
                "b": {},
                "c": 0,
                "d": False,
            }
        ]
    )
    assert message.provider_data == {"ollama": {"keys": {"c": 0, "d": False}}}


def test_unmodelled_values_that_are_not_json_are_errors() -> None:
    """An unmodelled key holding a value that is not JSON raises with the native path."""
    with raises(InvalidMessage, "messages[0].thinking: must be a finite number, got nan"):
        ollama.from_request([{"role": "assistant", "content": "", "thinking": float("nan")}])
    with raises(InvalidMessage, "messages[0]: keys must be strings, got 1"):
        ollama.from_request([{"role": "user", "content": "", 1: "x"}])


# -- from_request: tool calls ---------------------------------------------------------------


def test_tool_calls_read_with_object_arguments() -> None:
    """A call's object arguments become the call's arguments; type 'function' and index are accepted."""
    [turn] = ollama.from_request(
        [
            assistant(
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"index": 0, "name": "f", "arguments": {"a": [1, 2.5]}},
                },
                {"id": "c2", "function": {"index": 1, "name": "g"}},
            )
        ]
    )
    assert turn.tool_calls is not None
    assert turn.tool_calls == (ToolCall("c1", "f", {"a": [1, 2.5]}), ToolCall("c2", "g"))
    assert all(not c.provider_data for c in turn.tool_calls)


def test_null_or_empty_tool_calls_mean_no_calls() -> None:
    """tool_calls null or [] read as a turn without calls."""
    empties: list[list[Any] | None] = [None, []]
    for calls in empties:
        [turn] = ollama.from_request([{"role": "assistant", "content": "hi", "tool_calls": calls}])
        assert turn == ChatMessage.assistant("hi")


@pytest.mark.parametrize(("arguments", "text"), [(None, "{}"), ({}, "{}"), ("", "{}"), ("null", "{}")])
def test_empty_arguments_are_no_arguments(arguments: Any, text: str) -> None:
    """Missing, null, {}, "" and "null" arguments all mean no arguments."""
    function: dict[str, Any] = {"name": "f"} if arguments is None else {"name": "f", "arguments": arguments}
    [turn] = ollama.from_request([assistant({"id": "c1", "function": function})])
    assert turn.tool_calls is not None
    assert turn.tool_calls[0].arguments_json == text


def test_string_arguments_are_kept_as_raw_text() -> None:
    """Arguments sent as a string (some clients do) are kept byte-for-byte, even when malformed."""
    for text in ('{ "city" : "Paris" }', '{"city": "Par', "[1]"):
        [turn] = ollama.from_request([assistant({"id": "c1", "function": {"name": "f", "arguments": text}})])
        assert turn.tool_calls is not None
        assert turn.tool_calls[0].arguments_json == text


def test_wrapped_raw_arguments_read_back_as_text() -> None:
    """{'_toolturns_raw_arguments': text} (what keep_invalid_arguments sends) reads back as the text."""
    [turn] = ollama.from_request([assistant(native_call("f", {RAW_ARGUMENTS_KEY: '{"a": 1,}'}))])
    assert turn.tool_calls is not None
    assert turn.tool_calls[0].arguments_json == '{"a": 1,}'


@pytest.mark.parametrize(
    ("native", "error_type", "error"),
    [
        ("x", InvalidMessage, "messages[0].tool_calls: must be an array of tool calls, got 'x'"),
        ([5], InvalidToolCall, "messages[0].tool_calls[0]: must be an object, got 5"),
        (
            [{"type": "custom", "function": {"name": "f"}}],
            InvalidToolCall,
            "messages[0].tool_calls[0].type: must be 'function' (only function tool calls are supported), got 'custom'",
        ),
        ([{"id": "c1"}], InvalidToolCall, "messages[0].tool_calls[0].function: is required"),
        (
            [{"function": []}],
            InvalidToolCall,
            "messages[0].tool_calls[0].function: must be an object, got list",
        ),
        (
            [{"function": {"arguments": {}}}],
            InvalidToolCall,
            "messages[0].tool_calls[0].function.name: must be a non-empty string, got None",
        ),
        (
            [{"function": {"name": ""}}],
            InvalidToolCall,
            "messages[0].tool_calls[0].function.name: must be a non-empty string, got ''",
        ),
        (
            [{"function": {"name": "f", "index": "0"}}],
            InvalidToolCall,
            "messages[0].tool_calls[0].function.index: must be an integer (the call's position), got '0'",
        ),
        (
            [{"function": {"name": "f", "index": True}}],
            InvalidToolCall,
            "messages[0].tool_calls[0].function.index: must be an integer (the call's position), got True",
        ),
        (
            [{"function": {"name": "f", "arguments": 5}}],
            InvalidToolCall,
            "messages[0].tool_calls[0].function.arguments: must be an object (or JSON text), got 5",
        ),
        (
            [{"function": {"name": "f", "arguments": [1]}}],
            InvalidToolCall,
            "messages[0].tool_calls[0].function.arguments: must be an object (or JSON text), got list",
        ),
        (
            [{"id": 7, "function": {"name": "f"}}],
            InvalidToolCall,
            "messages[0].tool_calls[0].id: must be a string, got 7",
        ),
        (
            [{"id": "c1", "function": {"name": "f"}}, {"id": "c1", "function": {"name": "g"}}],
            InvalidMessage,
            "messages[0].tool_calls[1].id: must be unique within the message (tool_calls[0] has it too), got 'c1'",
        ),
    ],
)
def test_malformed_calls_are_errors_with_native_paths(
    native: Any, error_type: type[MessageError], error: str
) -> None:
    """A malformed call raises InvalidToolCall (or InvalidMessage) with the native path."""
    with raises(error_type, error):
        ollama.from_request([{"role": "assistant", "content": "", "tool_calls": native}])


def test_arguments_that_are_not_json_are_errors() -> None:
    """Arguments holding values that are not JSON raise InvalidArguments at the native path."""
    with pytest.raises(InvalidArguments) as caught:
        ollama.from_request(
            [assistant({"id": "c1", "function": {"name": "f", "arguments": {"x": float("inf")}}})]
        )
    assert (
        str(caught.value)
        == "messages[0].tool_calls[0].function.arguments.x: must be a finite number, got inf"
    )
    assert (caught.value.call_id, caught.value.name) == ("c1", "f")
    with pytest.raises(InvalidArguments) as caught:
        ollama.from_request([assistant(native_call("f", {"x": {1, 2}}))])
    assert caught.value.path == "messages[0].tool_calls[0].function.arguments.x"
    assert caught.value.call_id is None


def test_tool_calls_on_a_user_message_are_an_error() -> None:
    """tool_calls are only allowed on assistant messages."""
    with pytest.raises(
        InvalidMessage, match=r"^messages\[0\]\.tool_calls: are only allowed on assistant messages"
    ):
        ollama.from_request([{"role": "user", "content": "", "tool_calls": [native_call()]}])


def test_unmodelled_call_and_function_keys_are_kept() -> None:
    """Unknown keys of a call and of its function are kept for Ollama; index and type are not."""
    [turn] = ollama.from_request(
        [
            assistant(
                {
                    "id": "c1",
                    "type": "function",
                    "x": 1,
                    "function": {"index": 0, "name": "f", "y": "z", "n": None},
                }
            )
        ]
    )
    assert turn.tool_calls is not None
    [read] = turn.tool_calls
    assert read.provider_data == {"ollama": {"keys": {"x": 1}, "nested": {"function": {"y": "z"}}}}
    assert not read.extra


# -- from_request: ids ----------------------------------------------------------------------


def test_calls_without_id_get_deterministic_marked_ids() -> None:
    """Calls without id get generated ids, the same for the same body, marked as generated."""
    body = {
        "messages": [assistant(native_call("f"), native_call("f"), {"id": "", "function": {"name": "g"}})]
    }
    first = ollama.from_request(body)
    assert first == ollama.from_request(copy.deepcopy(body))
    calls = first[0].tool_calls or ()
    assert all(is_generated_id(c, "ollama") for c in calls)
    assert all(c.id.startswith("call_") for c in calls)
    assert len({c.id for c in calls}) == 3


def test_generated_ids_are_unique_within_a_transcript() -> None:
    """The same call in two turns gets two ids: the message index is in the seed."""
    body = [
        assistant(native_call("f")),
        result(tool_name="f"),
        assistant(native_call("f")),
        result(tool_name="f"),
    ]
    messages = ollama.from_request(body)
    ids = [c.id for m in messages for c in m.tool_calls or ()]
    assert len(set(ids)) == 2
    assert [messages[1].tool_call_id, messages[3].tool_call_id] == ids


def test_generated_ids_do_not_depend_on_argument_layout() -> None:
    """Arguments as an object or as text of the same value give the same generated id."""
    as_object = ollama.from_request([assistant(native_call("f", {"a": 1, "b": 2}))])
    as_text = ollama.from_request([assistant(native_call("f", '{ "b": 2, "a": 1 }'))])
    assert as_object[0].tool_calls is not None
    assert as_text[0].tool_calls is not None
    assert as_object[0].tool_calls[0].id == as_text[0].tool_calls[0].id


def test_real_ids_are_kept_and_not_marked() -> None:
    """A call's own id is kept as it is and not marked as generated."""
    [turn] = ollama.from_request([assistant(native_call("f", id="call_x1y2z3w4"))])
    assert turn.tool_calls is not None
    [read] = turn.tool_calls
    assert read.id == "call_x1y2z3w4"
    assert not is_generated_id(read, "ollama")


def test_reading_what_was_sent_gives_the_same_generated_ids() -> None:
    """Sending a transcript read from Ollama and reading it again gives the same messages."""
    body = {
        "messages": [
            {"role": "user", "content": "hi"},
            assistant(native_call("f"), native_call("g")),
            result("1", tool_name="g"),
            result("2", tool_name="f"),
        ]
    }
    messages = ollama.from_request(body)
    assert ollama.from_request(ollama.to_request(messages)) == messages


# -- from_request: matching tool results ----------------------------------------------------


def test_result_matched_by_tool_call_id() -> None:
    """A result with tool_call_id answers the call with that id, whatever its position."""
    messages = ollama.from_request(
        [
            assistant(native_call("f", id="a"), native_call("g", id="b")),
            result("2", tool_call_id="b", tool_name="g"),
            result("1", tool_call_id="a"),
        ]
    )
    assert [m.tool_call_id for m in messages[1:]] == ["b", "a"]


def test_results_matched_by_name_in_call_order() -> None:
    """Without tool_call_id, results answer the first unanswered call with their tool_name, in order."""
    messages = ollama.from_request(
        [
            assistant(
                native_call("t", id="a"),
                native_call("c", id="b"),
                native_call("t", id="d"),
                native_call("c", id="e"),
            ),
            result(tool_name="t"),
            result(tool_name="c"),
            result(tool_name="c"),
            result(tool_name="t"),
        ]
    )
    assert [m.tool_call_id for m in messages[1:]] == ["a", "b", "e", "d"]


def test_result_by_id_is_skipped_by_name_matching() -> None:
    """A call answered by tool_call_id is not matched again by name."""
    messages = ollama.from_request(
        [
            assistant(native_call("t", id="a"), native_call("t", id="b")),
            result(tool_call_id="a"),
            result(tool_name="t"),
        ]
    )
    assert [m.tool_call_id for m in messages[1:]] == ["a", "b"]


def test_empty_tool_call_id_means_none() -> None:
    """tool_call_id "" (Go's zero value) means no id: the result is matched by name."""
    messages = ollama.from_request(
        [assistant(native_call("t", id="a")), result(tool_call_id="", tool_name="t")]
    )
    assert messages[1].tool_call_id == "a"


def test_result_by_id_may_answer_an_older_turn() -> None:
    """tool_call_id may name a call of any earlier turn."""
    messages = ollama.from_request(
        [
            assistant(native_call("t", id="a")),
            {"role": "assistant", "content": "ok"},
            result(tool_call_id="a"),
        ]
    )
    assert messages[2].tool_call_id == "a"


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (
            [assistant(native_call("t", id="a")), result(tool_call_id="z")],
            "messages[1].tool_call_id: must be the id of a call of an earlier assistant turn, got 'z'",
        ),
        (
            [assistant(native_call("t", id="a")), result(tool_call_id="a", tool_name="u")],
            "messages[1].tool_name: must be the name of the call it answers ('t', by tool_call_id), got 'u'",
        ),
        (
            [assistant(native_call("t")), result(tool_name="u")],
            "messages[1].tool_name: must name a call of the preceding assistant turn that has no result yet"
            " (results without tool_call_id are matched by name, in call order), got 'u'",
        ),
        (
            [assistant(native_call("t")), result(tool_name="t"), result(tool_name="t")],
            "messages[2].tool_name: must name a call of the preceding assistant turn that has no result yet"
            " (results without tool_call_id are matched by name, in call order), got 't'",
        ),
        (
            [assistant(native_call("t")), {"role": "assistant", "content": "done"}, result(tool_name="t")],
            "messages[2].tool_name: must name a call of the preceding assistant turn that has no result yet"
            " (results without tool_call_id are matched by name, in call order), got 't'",
        ),
        (
            [assistant(native_call("t")), result()],
            "messages[1].tool_name: is required without a tool_call_id (it says which call this result answers)",
        ),
        (
            [assistant(native_call("t")), result(tool_name=5)],
            "messages[1].tool_name: must be a string, got 5",
        ),
        (
            [assistant(native_call("t")), result(tool_call_id=["a"])],
            "messages[1].tool_call_id: must be a string, got list",
        ),
    ],
)
def test_results_that_match_no_call_are_errors(body: list[dict[str, Any]], error: str) -> None:
    """A tool message that matches no call raises InvalidMessage with the native path."""
    with raises(InvalidMessage, error):
        ollama.from_request(body)


# -- from_response --------------------------------------------------------------------------


def test_response_reads_the_message() -> None:
    """from_response reads message; response-level keys (model, done, durations) are not message data."""
    body = {
        "model": "llama3.2",
        "created_at": "2025-07-07T20:32:53.844124Z",
        "message": {"role": "assistant", "content": "It is sunny.", "thinking": "Look it up."},
        "done_reason": "stop",
        "done": True,
        "eval_count": 18,
    }
    assert ollama.from_response(body) == ChatMessage(
        "assistant", "It is sunny.", provider_data={"ollama": {"keys": {"thinking": "Look it up."}}}
    )


def test_response_without_content_reads_as_empty_text() -> None:
    """A final message without content (as the last stream chunk has) reads as ""."""
    assert ollama.from_response({"message": {"role": "assistant"}, "done": True}) == ChatMessage.assistant("")


def test_response_ids_are_seeded_with_created_at() -> None:
    """Generated ids are deterministic per response, and differ between responses (created_at)."""

    def response(created_at: str | None) -> dict[str, Any]:
        body: dict[str, Any] = {"message": assistant(native_call("f")), "done": True}
        if created_at is not None:
            body["created_at"] = created_at
        return body

    first = ollama.from_response(response("2025-07-07T20:32:53Z"))
    again = ollama.from_response(response("2025-07-07T20:32:53Z"))
    later = ollama.from_response(response("2025-07-07T20:33:10Z"))
    bare = ollama.from_response(response(None))
    ids: list[str] = []
    for m in (first, again, later, bare):
        assert m.tool_calls is not None
        ids.append(m.tool_calls[0].id)
    assert ids[0] == ids[1]
    assert len({ids[0], ids[2], ids[3]}) == 3
    assert first == again


def test_response_created_at_of_another_type_is_ignored() -> None:
    """A created_at that is not a string does not seed ids (nor raise)."""
    body = {"created_at": {"x": 1}, "message": assistant(native_call("f"))}
    assert ollama.from_response(body) == ollama.from_response({"message": assistant(native_call("f"))})


@pytest.mark.parametrize(
    ("body", "error_type", "error"),
    [
        ([], InvalidMessage, "must be an object (an /api/chat response), got list"),
        ({"done": True}, InvalidMessage, "message: is required"),
        (
            {"error": "model 'x' not found"},
            InvalidMessage,
            "error: Ollama answered with an error, not a message, got \"model 'x' not found\"",
        ),
        ({"message": "hi"}, InvalidMessage, "message: must be an object, got 'hi'"),
        ({"message": {"content": "hi"}}, InvalidMessage, "message.role: is required"),
        (
            {"message": {"role": "user", "content": "hi"}},
            InvalidMessage,
            "message.role: must be 'assistant' (a response holds the model's turn), got 'user'",
        ),
        (
            {"message": assistant({"function": {"name": 5}})},
            InvalidToolCall,
            "message.tool_calls[0].function.name: must be a non-empty string, got 5",
        ),
    ],
)
def test_malformed_responses_are_errors(body: Any, error_type: type[MessageError], error: str) -> None:
    """A malformed response raises with the native path, and an error body says so."""
    with raises(error_type, error):
        ollama.from_response(body)


# -- the golden examples --------------------------------------------------------------------


def carries_nothing(value: object) -> bool:
    """null and empty values carry nothing."""
    return value is None or (isinstance(value, (str, list, dict)) and not value)


def normalised_call(native: dict[str, Any]) -> dict[str, Any]:
    """A native call as to_request sends it again: no type, no function.index, arguments an object."""
    function = {key: value for key, value in native["function"].items() if key != "index"}
    function.setdefault("arguments", {})
    out = {key: value for key, value in native.items() if key not in ("type", "function")}
    return {**out, "function": function}


def normalised(native: dict[str, Any]) -> dict[str, Any]:
    """A native message as to_request sends it again, but for the documented normalisations.

    content missing or null -> ""; tool_calls empty or null -> absent; calls
    lose type and function.index; null and empty unknown keys are dropped.
    """
    out = {key: value for key, value in native.items() if not carries_nothing(value) or key == "content"}
    out["content"] = native.get("content") or ""
    out["role"] = "system" if native["role"] == "developer" else native["role"]
    if out.get("tool_calls"):
        out["tool_calls"] = [normalised_call(c) for c in out["tool_calls"]]
    return out


@pytest.mark.parametrize("example", REQUEST_EXAMPLES, ids=[e["id"] for e in REQUEST_EXAMPLES])
def test_request_examples_read_and_send_back(example: dict[str, Any]) -> None:
    """Every Ollama request example is read, and to_request reproduces its messages but for normalisations."""
    messages = ollama.from_request(example["data"])
    native = example["data"]["messages"]
    assert len(messages) == len(native)
    assert ollama.to_request(messages)["messages"] == [normalised(m) for m in native]
    assert ollama.from_request(example["data"]["messages"]) == messages


@pytest.mark.parametrize("example", REQUEST_EXAMPLES, ids=[e["id"] for e in REQUEST_EXAMPLES])
def test_request_examples_results_answer_their_calls(example: dict[str, Any]) -> None:
    """In every request example, each tool result answers a call of its turn with the right name, once."""
    messages = ollama.from_request(example["data"])
    calls = {c.id: c for m in messages for c in m.tool_calls or ()}
    results = [m for m in messages if m.role is Role.TOOL]
    native_results = [m for m in example["data"]["messages"] if m["role"] == "tool"]
    assert [calls[m.tool_call_id or ""].name for m in results] == [m["tool_name"] for m in native_results]
    assert len({m.tool_call_id for m in results}) == len(results)


def test_parallel_results_answer_calls_in_order() -> None:
    """ollama-parallel-tool-results-request: the four results answer the four calls in call order."""
    example = next(e for e in REQUEST_EXAMPLES if e["id"] == "ollama-parallel-tool-results-request")
    messages = ollama.from_request(example["data"])
    call_ids = [c.id for c in messages[1].tool_calls or ()]
    assert [m.tool_call_id for m in messages[2:]] == call_ids
    assert [c.arguments for c in messages[1].tool_calls or ()] == [
        {"city": "New York"},
        {"city": "New York"},
        {"city": "London"},
        {"city": "London"},
    ]


def test_history_example_tools_are_emitted_unchanged() -> None:
    """The tools of ollama-history-with-tool-result-request read with Tool.from_dict are emitted unchanged."""
    example = next(e for e in REQUEST_EXAMPLES if e["id"] == "ollama-history-with-tool-result-request")
    native_tools = example["data"]["tools"]
    tools = [Tool.from_dict(t) for t in native_tools]
    assert [ollama.tool_definition(t) for t in tools] == native_tools
    body = ollama.to_request(ollama.from_request(example["data"]), tools=tools)
    assert body == {"messages": [normalised(m) for m in example["data"]["messages"]], "tools": native_tools}


@pytest.mark.parametrize("example", RESPONSE_EXAMPLES, ids=[e["id"] for e in RESPONSE_EXAMPLES])
def test_response_examples_read_and_send_back(example: dict[str, Any]) -> None:
    """Every Ollama response example is read, and sending it back reproduces its message."""
    turn = ollama.from_response(example["data"])
    assert turn.role is Role.ASSISTANT
    assert turn == ollama.from_response(copy.deepcopy(example["data"]))
    assert ollama.to_request([turn])["messages"] == [normalised(example["data"]["message"])]


def test_nonstream_response_example_fields() -> None:
    """ollama-nonstream-tool-call-response: one get_weather call for Tokyo, with a generated id."""
    example = next(e for e in RESPONSE_EXAMPLES if e["id"] == "ollama-nonstream-tool-call-response")
    turn = ollama.from_response(example["data"])
    assert turn.tool_calls is not None
    [read] = turn.tool_calls
    assert (turn.content, read.name, read.arguments) == ("", "get_weather", {"city": "Tokyo"})
    assert is_generated_id(read, "ollama")


def test_every_non_stream_example_is_covered() -> None:
    """The four non-stream Ollama examples are all exercised here."""
    assert sorted(e["id"] for e in EXAMPLES) == [
        "ollama-history-with-tool-result-request",
        "ollama-nonstream-tool-call-response",
        "ollama-parallel-tool-results-request",
        "ollama-single-tool-result-request",
    ]


# -- across providers -----------------------------------------------------------------------


def test_openai_loop_through_ollama_keeps_ids_names_arguments_and_results() -> None:
    """OpenAI -> Ollama -> OpenAI keeps every id, name, argument value and result text."""
    original = openai.from_request(
        [
            {"role": "developer", "content": "Be brief."},
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_a",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                    },
                    {
                        "id": "functions.get_time:1",
                        "type": "function",
                        "function": {"name": "get_time", "arguments": ""},
                    },
                ],
            },
            {"role": "tool", "tool_call_id": "functions.get_time:1", "content": "12:00"},
            {"role": "tool", "tool_call_id": "call_a", "content": "18 degrees"},
            {"role": "assistant", "content": "18 degrees at noon."},
        ]
    )
    back = ollama.from_request(json.loads(json.dumps(ollama.to_request(original))))
    expected = openai.to_request(original)["messages"]
    expected[0]["role"] = "system"
    assert openai.to_request(back)["messages"] == expected
