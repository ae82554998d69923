"""The OpenAI codec: request and response bodies around ChatMessage.to_wire/from_dict."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import wire_examples
from toolturns import (
    ChatMessage,
    InvalidMessage,
    InvalidTool,
    InvalidToolCall,
    MessageError,
    Tool,
    ToolCall,
    openai,
)

CALL = ToolCall("call_1", "get_weather", {"city": "Paris"})
LOOP = [
    ChatMessage.system("Be brief."),
    ChatMessage.user("Weather in Paris?"),
    ChatMessage.assistant_tool_calls([CALL]),
    ChatMessage.tool_result("call_1", "18 degrees"),
    ChatMessage.assistant("It is 18 degrees."),
]


def test_to_request_is_the_wire_form_of_each_message() -> None:
    """to_request gives {"messages": [m.to_wire() ...]} and no tools key without tools."""
    assert openai.to_request(LOOP) == {"messages": [m.to_wire() for m in LOOP]}


def test_to_request_adds_tools_in_openai_shape() -> None:
    """Tools become {"type": "function", "function": {name, description?, parameters}}."""
    body = openai.to_request(LOOP[:2], tools=[Tool("get_time"), Tool("get_weather", "Weather")])
    assert body["tools"] == [
        {
            "type": "function",
            "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}},
        },
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Weather",
                "parameters": {"type": "object", "properties": {}},
            },
        },
    ]


def test_to_request_null_content_is_passed_on() -> None:
    """null_content=True sends content null on tool-call turns without text."""
    assert openai.to_request(LOOP, null_content=True)["messages"][2]["content"] is None


@pytest.mark.parametrize(
    ("messages", "tools", "message"),
    [
        ("hi", None, "messages: must be a list or tuple of ChatMessage, got 'hi'"),
        ([{"role": "user", "content": "hi"}], None, "messages[0]: must be a ChatMessage (read dicts with"),
        (LOOP, "x", "tools: must be a list or tuple of Tool, got 'x'"),
        (LOOP, [{"name": "f"}], "tools[0]: must be a Tool (read dicts with Tool.from_dict), got dict"),
        (LOOP, [Tool("f"), Tool("f", "again")], "tools[1].name: must be unique among the tools, got 'f'"),
    ],
)
def test_to_request_rejects_what_is_not_messages_and_tools(messages: Any, tools: Any, message: str) -> None:
    """Dicts where messages or tools belong, and duplicate tool names, are refused with a path."""
    # A mistake in the tools is InvalidTool, as tool_definition raises it; in the messages InvalidMessage.
    error = InvalidTool if message.startswith("tools") else InvalidMessage
    with pytest.raises(error) as caught:
        openai.to_request(messages, tools=tools)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize("shape", ["body", "list"])
def test_from_request_reads_a_body_or_a_bare_list(shape: str) -> None:
    """from_request reads {"messages": [...]} and a bare list alike, and round-trips to_request."""
    body = openai.to_request(LOOP)
    assert openai.from_request(body if shape == "body" else body["messages"]) == LOOP


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"model": "x"}, "messages: must be an array of messages, got None"),
        ("messages", "messages: must be an array of messages, got 'messages'"),
        (
            [{"role": "user", "content": "hi"}, {"role": "tool", "content": "x"}],
            "messages[1].tool_call_id: is required",
        ),
        (
            [{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": ""}}]}],
            "messages[0].tool_calls[0].function.name: must be a non-empty string, got ''",
        ),
    ],
)
def test_from_request_names_the_message_in_errors(body: Any, message: str) -> None:
    """An unreadable message is reported with its index in the path."""
    with pytest.raises(MessageError) as caught:
        openai.from_request(body)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize("example", wire_examples("openai", "response_message"), ids=lambda e: e["id"])
def test_from_response_reads_choice_zero_of_every_recorded_response(example: dict[str, Any]) -> None:
    """Every recorded chat.completion reads into the message of its first choice."""
    message = openai.from_response(example["data"])
    assert message == ChatMessage.from_dict(example["data"]["choices"][0]["message"])
    assert message.tool_calls


@pytest.mark.parametrize("example", wire_examples("openai", "request_messages")[:2], ids=lambda e: e["id"])
def test_from_request_reads_the_recorded_requests(example: dict[str, Any]) -> None:
    """The recorded request bodies and message lists read, and re-emit the same roles in order."""
    data = example["data"]
    messages = openai.from_request(data)
    raw = data["messages"] if isinstance(data, dict) else data
    assert [m.role.value for m in messages] == [m["role"] for m in raw]


def test_from_response_picks_another_choice() -> None:
    """choice=1 reads the second choice of an n=2 response."""
    body = {
        "choices": [
            {"message": {"role": "assistant", "content": "first"}},
            {"message": {"role": "assistant", "content": "second"}},
        ]
    }
    assert openai.from_response(body, choice=1) == ChatMessage.assistant("second")


def test_from_response_reads_a_bare_message() -> None:
    """A bare assistant message dict is read as it is."""
    assert openai.from_response({"role": "assistant", "content": "hi"}) == ChatMessage.assistant("hi")


@pytest.mark.parametrize(
    ("body", "error", "message"),
    [
        ({"choices": []}, InvalidMessage, "choices: must be an array with an item at index 0, got list"),
        ({"choices": "x"}, InvalidMessage, "choices: must be an array with an item at index 0, got 'x'"),
        ({"choices": [5]}, InvalidMessage, "choices[0]: must be an object, got 5"),
        ({"choices": [{}]}, InvalidMessage, "choices[0].message: must be an object (a dict), got None"),
        (
            {"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "c", "type": "custom"}]}}]},
            InvalidToolCall,
            "choices[0].message.tool_calls[0].type: must be 'function'",
        ),
        (None, InvalidMessage, "must be an object (a dict), got None"),
    ],
)
def test_from_response_errors_say_where(body: Any, error: type[MessageError], message: str) -> None:
    """A response without a readable choice is refused with the path of the problem."""
    with pytest.raises(error) as caught:
        openai.from_response(body)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize("choice", ["0", 0.0, None, True])
def test_from_response_refuses_a_choice_that_is_not_an_int(choice: Any) -> None:
    """A choice that is not an int is an InvalidMessage, not a TypeError (regression)."""
    body = {"choices": [{"message": {"role": "assistant", "content": "hi"}}]}
    with pytest.raises(InvalidMessage) as caught:
        openai.from_response(body, choice=choice)
    assert str(caught.value) == f"choices: must be an array with an item at index {choice!r}, got list"


def test_tool_definition_refuses_what_is_not_a_tool() -> None:
    """A dict given to tool_definition is an InvalidTool, not an AttributeError (regression)."""
    with pytest.raises(InvalidTool) as caught:
        openai.tool_definition({"name": "f"})  # type: ignore[arg-type]
    assert str(caught.value) == "must be a Tool (read dicts with Tool.from_dict), got dict"


def test_a_response_with_null_content_and_no_calls_is_an_empty_turn() -> None:
    """A real response may say nothing (content null, no tool calls): it reads as an empty assistant turn."""
    body = {
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": None, "refusal": None, "annotations": []},
            }
        ],
    }
    assert openai.from_response(body) == ChatMessage.assistant("")
    assert openai.from_response({"role": "assistant", "content": None}) == ChatMessage.assistant("")
    # In a request it is still the caller's mistake.
    with pytest.raises(InvalidMessage, match=r"^messages\[0\]\.content: must be a string"):
        openai.from_request([{"role": "assistant", "content": None}])


def test_the_sdks_parsed_copies_are_read_and_not_sent_back() -> None:
    """chat.completions.parse() adds message.parsed and function.parsed_arguments: derived copies of
    content and arguments, read without error and never sent again."""
    message = {
        "role": "assistant",
        "content": None,
        "parsed": None,
        "refusal": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "arguments": '{"city":"Paris"}',
                    "parsed_arguments": {"city": "Paris"},
                },
            }
        ],
    }
    turn = openai.from_response(
        {"choices": [{"index": 0, "finish_reason": "tool_calls", "message": message}]}
    )
    assert turn.tool_calls is not None
    assert turn.tool_calls[0].arguments == {"city": "Paris"}
    assert "parsed_arguments" not in turn.to_wire()["tool_calls"][0]["function"]
    answer = openai.from_response({"role": "assistant", "content": '{"temp": 18}', "parsed": {"temp": 18}})
    assert answer.to_wire() == {"role": "assistant", "content": '{"temp": 18}'}


def test_a_response_from_a_compatible_server_with_positions_and_a_missing_id() -> None:
    """Calls as an OpenAI-compatible server sends them (each with its index, one without an id): the
    call without an id gets a made-up one, marked; the one with an id keeps it, unmarked; no index
    is sent back."""
    calls = [
        {"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        {"index": 1, "type": "function", "function": {"name": "g", "arguments": "{}"}},
    ]
    body = {
        "id": "chatcmpl-1",
        "choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": calls}}],
    }
    turn = openai.from_response(body)
    assert turn.tool_calls is not None
    kept, made_up = turn.tool_calls
    assert (kept.id, kept.provider_data) == ("call_1", {})
    assert made_up.id.startswith("call_")
    assert made_up.provider_data == {"openai": {"generated_id": True}}
    sent = openai.to_request([turn])["messages"][0]["tool_calls"]
    assert [call["id"] for call in sent] == ["call_1", made_up.id]
    assert all("index" not in call for call in sent)
