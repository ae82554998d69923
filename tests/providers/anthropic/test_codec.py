"""The Anthropic Messages codec: every rule of issue #3 for Anthropic, both sides, and the golden examples.

``normalised()`` applies exactly the documented normalisations to a native
message list, so that ``to_request(from_request(W))["messages"] == normalised(W)``
states the round trip of every example.
"""

from __future__ import annotations

import copy
import json
import math
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
    TextPart,
    Tool,
    ToolCall,
    anthropic,
    check_transcript,
    openai,
)

EXAMPLES = [e for e in wire_examples("anthropic") if e["kind"] != "stream_chunks"]
BY_ID = {e["id"]: e for e in EXAMPLES}
REQUESTS = [e for e in EXAMPLES if e["kind"] == "request_messages" and "expect_status" not in e]
ACCEPTED = [e for e in EXAMPLES if e.get("expect_status") == 200]
RESPONSES = [e for e in EXAMPLES if e["kind"] == "response_message"]

THINKING = {
    "type": "thinking",
    "thinking": "The user wants the weather.",
    "signature": "EqQBCgIYAhIM1gbcDa9GJwZA",
}
REDACTED = {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4a"}


# -- helpers ------------------------------------------------------------------------------


def carries_nothing(value: object) -> bool:
    """null and empty values carry nothing (the core's rule for unknown keys)."""
    return value is None or (isinstance(value, (str, list, dict)) and not value)


def kept(block: dict[str, Any], modelled: set[str]) -> dict[str, Any]:
    """The unmodelled keys of a native block that carry something."""
    return {k: v for k, v in block.items() if k not in modelled and not carries_nothing(v)}


def normalised_result(block: dict[str, Any]) -> dict[str, Any]:
    """A tool_result as to_request writes it: content as one string, omitted when empty; is_error only when true."""
    content = block.get("content")
    if isinstance(content, list):
        content = "".join(part["text"] for part in content)
    out: dict[str, Any] = {"type": "tool_result", "tool_use_id": block["tool_use_id"]}
    if content:
        out["content"] = content
    if block.get("is_error"):
        out["is_error"] = True
    out.update(kept(block, {"type", "tool_use_id", "content", "is_error"}))
    return out


def normalised_assistant(content: str | list[dict[str, Any]]) -> dict[str, Any]:
    """An assistant turn as to_request writes it: text blocks joined into one in front, then tool_use blocks, other blocks at their positions."""
    if isinstance(content, str):
        return {"role": "assistant", "content": content}
    text = "".join(block["text"] for block in content if block["type"] == "text")
    uses = [
        {
            "type": "tool_use",
            **{k: b[k] for k in ("id", "name", "input")},
            **kept(b, {"type", "id", "name", "input"}),
        }
        for b in content
        if b["type"] == "tool_use"
    ]
    others = [(n, b) for n, b in enumerate(content) if b["type"] not in ("text", "tool_use")]
    if not uses and not others:
        return {"role": "assistant", "content": text}
    blocks: list[dict[str, Any]] = ([{"type": "text", "text": text}] if text else []) + uses
    for position, block in others:
        blocks.insert(position, block)
    return {"role": "assistant", "content": blocks}


def normalised(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Native messages as to_request re-emits what from_request read.

    - user turns: tool_result blocks first (content one string, omitted when
      empty, ``is_error`` only when true), then the text blocks joined into
      one text block; a user turn of text blocks only becomes a string;
    - assistant turns: see ``normalised_assistant``;
    - unknown block keys with null or empty values are dropped.
    """
    out = []
    for message in messages:
        content = message["content"]
        if message["role"] == "assistant":
            out.append(normalised_assistant(content))
            continue
        if isinstance(content, str):
            out.append({"role": "user", "content": content})
            continue
        results = [normalised_result(b) for b in content if b["type"] == "tool_result"]
        text = "".join(b["text"] for b in content if b["type"] == "text")
        if not results:
            out.append({"role": "user", "content": text})
        else:
            out.append(
                {"role": "user", "content": results + ([{"type": "text", "text": text}] if text else [])}
            )
    return out


def error_of(call: Any, *args: Any, **kwargs: Any) -> MessageError:
    """The MessageError ``call`` raises."""
    with pytest.raises(MessageError) as caught:
        call(*args, **kwargs)
    return caught.value


def weather_call(call_id: str = "toolu_1", **arguments: Any) -> ToolCall:
    """A get_weather call."""
    return ToolCall(call_id, "get_weather", arguments or {"city": "Paris"})


# -- the golden examples -------------------------------------------------------------------


def test_every_non_stream_example_is_covered() -> None:
    """Every Anthropic example but the streams is a request, a response, the accepted one or a 400 below."""
    assert {e["id"] for e in EXAMPLES} == {
        "anthropic-tool-use-response",
        "anthropic-tool-result-is-error-request",
        "anthropic-text-plus-tool-use-response",
        "anthropic-text-plus-tool-use-history",
        "anthropic-400-orphan-tool-result",
        "anthropic-consecutive-user-messages-accepted",
        "anthropic-docstring-tool-use-and-result",
        "anthropic-400-text-before-tool-result",
    }
    assert len(REQUESTS) == 3
    assert len(RESPONSES) == 2
    assert len(ACCEPTED) == 1


@pytest.mark.parametrize("example", REQUESTS + ACCEPTED, ids=lambda e: e["id"])
def test_request_example_round_trips(example: dict[str, Any]) -> None:
    """from_request reads the example and to_request gives back its messages but for the documented normalisations."""
    data = example["data"]
    messages = anthropic.from_request(data)
    assert anthropic.to_request(messages)["messages"] == normalised(data)
    assert normalised(data) == data  # these examples are already in normal form: exact round trip


@pytest.mark.parametrize("example", RESPONSES, ids=lambda e: e["id"])
def test_response_example_round_trips(example: dict[str, Any]) -> None:
    """from_response reads the example and to_request replays its content exactly, caller key included."""
    body = example["data"]
    turn = anthropic.from_response(body)
    assert turn.role is Role.ASSISTANT
    assert turn.tool_calls is not None
    assert anthropic.to_request([turn])["messages"] == [{"role": "assistant", "content": body["content"]}]


def test_tool_use_response_reads_the_call() -> None:
    """A response with only a tool_use block is an assistant turn with content '' and the decoded call."""
    turn = anthropic.from_response(BY_ID["anthropic-tool-use-response"]["data"])
    assert turn.content == ""
    assert turn.tool_calls is not None
    (call,) = turn.tool_calls
    assert (call.id, call.name, call.arguments) == (
        "toolu_01A9HHF5Ezy3oBrKmSgfASm9",
        "get_weather",
        {"location": "San Francisco, CA", "units": "f"},
    )
    assert call.provider_data == {"anthropic": {"keys": {"caller": {"type": "direct"}}}}


def test_text_plus_tool_use_response_keeps_text_first() -> None:
    """The text block before a tool_use is the turn's content and is written back before the tool_use."""
    body = BY_ID["anthropic-text-plus-tool-use-response"]["data"]
    turn = anthropic.from_response(body)
    assert turn.content == body["content"][0]["text"]
    written = anthropic.to_request([turn])["messages"][0]["content"]
    assert [block["type"] for block in written] == ["text", "tool_use"]


def test_is_error_example_reads_a_failed_tool() -> None:
    """tool_result is_error true becomes is_error=True on the tool message."""
    messages = anthropic.from_request(BY_ID["anthropic-tool-result-is-error-request"]["data"])
    assert [m.role for m in messages] == [Role.USER, Role.ASSISTANT, Role.TOOL]
    assert messages[2].is_error
    assert messages[2].content == "RuntimeError('Unexpected error, try again')"


def test_orphan_tool_result_example_is_refused_by_to_request() -> None:
    """The recorded 400 (a tool_result with no tool_use before it) is read, but to_request refuses to produce it."""
    data = BY_ID["anthropic-400-orphan-tool-result"]["data"]
    messages = anthropic.from_request(data["messages"])
    assert [m.role for m in messages] == [Role.USER, Role.TOOL]
    error = error_of(anthropic.to_request, messages)
    assert isinstance(error, InvalidMessage)
    assert str(error) == (
        "messages[1].tool_call_id: must follow an assistant turn with tool calls (Anthropic answers 400: "
        "'Each tool_result block must have a corresponding tool_use block in the previous message'), "
        "got 'toolu_01GHndag5wQmbzNihYmV2UBj'"
    )


def test_text_before_tool_result_example_is_written_results_first() -> None:
    """The 400 shape (text before tool_result) reads, and to_request writes the valid shape: tool_result first."""
    data = BY_ID["anthropic-400-text-before-tool-result"]["data"]
    call_turn = {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "toolu_01", "name": "f", "input": {}}],
    }
    messages = anthropic.from_request([call_turn, data["invalid"]])
    assert [m.role for m in messages] == [Role.ASSISTANT, Role.TOOL, Role.USER]
    written = anthropic.to_request(messages)["messages"][1]
    valid = copy.deepcopy(data["valid"])
    valid["content"][1]["text"] = "Here are the results:"  # the example elides it as "..."
    assert written == valid
    assert [block["type"] for block in written["content"]] == ["tool_result", "text"]


def test_consecutive_user_messages_stay_two_messages() -> None:
    """Two consecutive user messages (accepted by Anthropic) are read and written as two messages."""
    data = BY_ID["anthropic-consecutive-user-messages-accepted"]["data"]
    messages = anthropic.from_request(data)
    assert [m.role for m in messages] == [Role.USER, Role.USER]
    assert anthropic.to_request(messages)["messages"] == data


# -- to_request: system --------------------------------------------------------------------


def test_every_system_and_developer_message_goes_to_system_in_order() -> None:
    """All system and developer messages become top-level system text blocks, in order, not only the last."""
    body = anthropic.to_request(
        [
            ChatMessage.system("one"),
            ChatMessage.user("hi"),
            ChatMessage.developer("two"),
            ChatMessage.assistant("hello"),
            ChatMessage.system("three"),
        ]
    )
    assert body == {
        "system": [
            {"type": "text", "text": "one"},
            {"type": "text", "text": "two"},
            {"type": "text", "text": "three"},
        ],
        "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}],
    }


def test_system_is_omitted_without_system_messages() -> None:
    """No system or developer message: no system key at all."""
    assert anthropic.to_request([ChatMessage.user("hi")]) == {"messages": [{"role": "user", "content": "hi"}]}


def test_empty_system_message_is_not_sent() -> None:
    """An empty system message (an empty text block is a 400) is dropped."""
    body = anthropic.to_request(
        [ChatMessage.system(""), ChatMessage.developer("be brief"), ChatMessage.user("hi")]
    )
    assert body["system"] == [{"type": "text", "text": "be brief"}]
    assert "system" not in anthropic.to_request([ChatMessage.system(""), ChatMessage.user("hi")])


def test_system_reads_back_moved_first_and_developer_as_system() -> None:
    """Reading back: system messages come first, a developer message is a system message."""
    messages = [ChatMessage.user("hi"), ChatMessage.developer("dev"), ChatMessage.system("sys")]
    assert anthropic.from_request(anthropic.to_request(messages)) == [
        ChatMessage.system("dev"),
        ChatMessage.system("sys"),
        ChatMessage.user("hi"),
    ]


def test_system_between_call_and_result_does_not_separate_them() -> None:
    """A system message between a tool-call turn and its result moves to system; the result still follows the call."""
    body = anthropic.to_request(
        [
            ChatMessage.user("weather?"),
            ChatMessage.assistant_tool_calls([weather_call()]),
            ChatMessage.system("note"),
            ChatMessage.tool_result("toolu_1", "18C"),
        ]
    )
    assert body["system"] == [{"type": "text", "text": "note"}]
    assert body["messages"][2] == {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "18C"}],
    }


def test_system_text_block_keys_round_trip() -> None:
    """Keys of a system text block beyond type/text (cache_control) are kept on the system message and sent again."""
    body = {
        "system": [
            {"type": "text", "text": "Long prompt", "cache_control": {"type": "ephemeral"}},
            {"type": "text", "text": "Short", "citations": None},
        ],
        "messages": [{"role": "user", "content": "hi"}],
    }
    messages = anthropic.from_request(body)
    assert messages[0].provider_data == {"anthropic": {"keys": {"cache_control": {"type": "ephemeral"}}}}
    assert messages[1] == ChatMessage.system("Short")
    assert anthropic.to_request(messages) == {
        "system": [
            {"type": "text", "text": "Long prompt", "cache_control": {"type": "ephemeral"}},
            {"type": "text", "text": "Short"},
        ],
        "messages": [{"role": "user", "content": "hi"}],
    }


# -- to_request: text turns ------------------------------------------------------------------


def test_text_turns_use_the_string_form() -> None:
    """User text and assistant text-only turns are sent with content as a string."""
    body = anthropic.to_request(
        [ChatMessage.user("hi"), ChatMessage.assistant("hello"), ChatMessage.user("")]
    )
    assert body["messages"] == [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello"},
        {"role": "user", "content": ""},
    ]


def test_name_and_extra_are_refused_unless_dropped() -> None:
    """name and extra (OpenAI-wire keys) are refused, located, and left out under drop_unsupported."""
    message = ChatMessage("user", "hi", name="alice", extra={"weight": 1})
    call = ToolCall("toolu_1", "f", {}, extra={"seq": 0})
    messages = [message, ChatMessage("assistant", "", tool_calls=[call], name="bot")]
    with pytest.raises(
        InvalidMessage, match=r"^messages\[0\]\.name: Anthropic cannot carry the name 'alice'"
    ):
        anthropic.to_request(messages)
    with pytest.raises(InvalidMessage, match=r"^messages\[0\]\.tool_calls\[0\]\.seq: Anthropic cannot carry"):
        anthropic.to_request([ChatMessage("assistant", "", tool_calls=[call])])
    body = anthropic.to_request(messages, drop_unsupported=True)
    assert body["messages"] == [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]},
    ]


def test_other_providers_data_is_not_sent() -> None:
    """provider_data of another provider (a Gemini signature) never reaches an Anthropic request."""
    call = ToolCall("toolu_1", "f", {}, provider_data={"gemini": {"keys": {"thoughtSignature": "sig"}}})
    turn = ChatMessage(
        "assistant", "ok", tool_calls=[call], provider_data={"gemini": {"items": [[0, {"x": 1}]]}}
    )
    assert anthropic.to_request([turn])["messages"] == [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "ok"},
                {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
            ],
        }
    ]


# -- to_request: tool calls ------------------------------------------------------------------


def test_tool_call_turn_is_text_block_then_tool_use_blocks() -> None:
    """A tool-call turn with text: a text block, then one tool_use block per call with input as an object."""
    turn = ChatMessage.assistant_tool_calls(
        [weather_call("toolu_1"), ToolCall("toolu_2", "get_time", '{"tz": "UTC"}')], "Checking."
    )
    assert anthropic.to_request([turn])["messages"] == [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Checking."},
                {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
                {"type": "tool_use", "id": "toolu_2", "name": "get_time", "input": {"tz": "UTC"}},
            ],
        }
    ]


def test_tool_call_turn_without_text_has_no_text_block() -> None:
    """An empty text is no text block at all (an empty text block is a 400)."""
    turn = ChatMessage.assistant_tool_calls([ToolCall("toolu_1", "get_time")])
    content = anthropic.to_request([turn])["messages"][0]["content"]
    assert content == [{"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": {}}]


def test_invalid_arguments_raise_naming_message_and_call() -> None:
    """Arguments that are not a JSON object raise InvalidArguments with the message index, call id and raw text; never {}."""
    turn = ChatMessage.assistant_tool_calls(
        [ToolCall("toolu_1", "f"), ToolCall("toolu_2", "get_weather", '{"city": "Par')]
    )
    error = error_of(anthropic.to_request, [ChatMessage.user("hi"), turn])
    assert isinstance(error, InvalidArguments)
    assert (error.path, error.call_id, error.name, error.raw) == (
        "messages[1].tool_calls[1].arguments",
        "toolu_2",
        "get_weather",
        '{"city": "Par',
    )
    assert str(error).startswith(
        "messages[1].tool_calls[1].arguments: must be valid JSON (Unterminated string starting at: line 1 column 10 "
        "(char 9)), to be sent as anthropic's arguments object (keep_invalid_arguments=True sends the text wrapped "
        "as {'_toolturns_raw_arguments': text})"
    )


@pytest.mark.parametrize("raw", ['{"city": "Par', "[1, 2]", '"text"', "42", "{'a': 1}"])
def test_keep_invalid_arguments_wraps_and_restores_raw_text(raw: str) -> None:
    """keep_invalid_arguments=True sends {'_toolturns_raw_arguments': text}; reading back restores the exact text."""
    turn = ChatMessage.assistant_tool_calls([ToolCall("toolu_1", "f", raw)])
    body = anthropic.to_request([turn], keep_invalid_arguments=True)
    assert body["messages"][0]["content"][0]["input"] == {"_toolturns_raw_arguments": raw}
    (read,) = anthropic.from_request(body)
    assert read == turn
    assert read.tool_calls is not None
    assert read.tool_calls[0].arguments_json == raw


# Argument text an object would not carry as it is: (text, where, what).
INEXACT = [
    ('{"a": 1, "a": 2}', "arguments", "repeated key 'a'"),
    ('{"x": {"a": 1, "a": 2}}', "arguments.x", "repeated key 'a'"),
    ('{"x": 1e-400}', "arguments.x", "the number 1e-400 would be sent as 0.0"),
    ('{"x": [12345678901234567890.5]}', "arguments.x[0]", "would be sent as 1.2345678901234567e+19"),
    (
        '{"x": 0.10000000000000000001}',
        "arguments.x",
        "the number 0.10000000000000000001 would be sent as 0.1",
    ),
]


@pytest.mark.parametrize(("raw", "where", "what"), INEXACT)
def test_arguments_an_object_would_change_are_refused_or_sent_wrapped(
    raw: str, where: str, what: str
) -> None:
    """A repeated key or a number a double changes is refused, located; keep_invalid_arguments=True
    sends the text wrapped, and it reads back exactly."""
    messages = [
        ChatMessage.user("hi"),
        ChatMessage.assistant_tool_calls([ToolCall("toolu_1", "f", raw)]),
        ChatMessage.tool_result("toolu_1", "ok"),
    ]
    error = error_of(anthropic.to_request, messages)
    assert isinstance(error, InvalidArguments)
    path = f"messages[1].tool_calls[0].{where}"
    assert (error.path, error.call_id, error.name, error.raw) == (path, "toolu_1", "f", raw)
    assert str(error).startswith(f"{path}: ")
    assert what in str(error)
    assert "anthropic carries arguments as an object" in str(error)
    assert "keep_invalid_arguments=True" in str(error)
    body = anthropic.to_request(messages, keep_invalid_arguments=True)
    assert body["messages"][1]["content"][0]["input"] == {"_toolturns_raw_arguments": raw}
    read = anthropic.from_request(json.loads(json.dumps(body)))
    assert read == messages
    assert read[1].tool_calls is not None
    assert read[1].tool_calls[0].arguments_json == raw


def test_numbers_an_object_carries_exactly_are_sent_as_they_are() -> None:
    """Any integer, and floats spelled with trailing zeros or E, go as the numbers they are."""
    raw = '{"n": 123456789012345678901234567890, "x": 1.50, "y": 1E2, "z": -0.0}'
    turn = ChatMessage.assistant_tool_calls([ToolCall("toolu_1", "f", raw)])
    body = anthropic.to_request([ChatMessage.user("hi"), turn])
    sent = body["messages"][1]["content"][0]["input"]
    assert sent == {"n": 123456789012345678901234567890, "x": 1.5, "y": 100.0, "z": -0.0}
    assert json.dumps(sent) == '{"n": 123456789012345678901234567890, "x": 1.5, "y": 100.0, "z": -0.0}'


# -- to_request: tool results ----------------------------------------------------------------


def parallel_turn() -> ChatMessage:
    """An assistant turn asking for three calls."""
    return ChatMessage.assistant_tool_calls(
        [weather_call("toolu_a"), weather_call("toolu_b"), weather_call("toolu_c")]
    )


def test_consecutive_results_are_one_user_turn_in_call_order() -> None:
    """Results given out of order become tool_result blocks of one user turn, in the order of the calls."""
    messages = [
        ChatMessage.user("weather?"),
        parallel_turn(),
        ChatMessage.tool_result("toolu_c", "C"),
        ChatMessage.tool_result("toolu_a", "A"),
        ChatMessage.tool_result("toolu_b", "B", is_error=True),
    ]
    body = anthropic.to_request(messages)
    assert body["messages"][2] == {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_a", "content": "A"},
            {"type": "tool_result", "tool_use_id": "toolu_b", "content": "B", "is_error": True},
            {"type": "tool_result", "tool_use_id": "toolu_c", "content": "C"},
        ],
    }
    assert len(body["messages"]) == 3
    assert [m.tool_call_id for m in anthropic.from_request(body)[2:]] == ["toolu_a", "toolu_b", "toolu_c"]


def test_user_text_after_results_is_merged_after_them() -> None:
    """A user message right after the results is a text block after the tool_result blocks; reading splits it again."""
    messages = [
        ChatMessage.user("weather?"),
        ChatMessage.assistant_tool_calls([weather_call()]),
        ChatMessage.tool_result("toolu_1", "18C"),
        ChatMessage.user("And tomorrow?"),
        ChatMessage.user("Also Lyon."),
    ]
    body = anthropic.to_request(messages)
    assert body["messages"][2:] == [
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "18C"},
                {"type": "text", "text": "And tomorrow?"},
            ],
        },
        {"role": "user", "content": "Also Lyon."},
    ]
    assert anthropic.from_request(body) == messages


def test_empty_user_text_after_results_stays_its_own_message() -> None:
    """An empty user message after results is not an (invalid) empty text block: it stays a message, content ''."""
    messages = [
        ChatMessage.assistant_tool_calls([weather_call()]),
        ChatMessage.tool_result("toolu_1", "18C"),
        ChatMessage.user(""),
    ]
    body = anthropic.to_request(messages)
    assert body["messages"][1:] == [
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "18C"}]},
        {"role": "user", "content": ""},
    ]
    assert anthropic.from_request(body) == messages


def test_result_without_text_has_no_content_and_is_error_only_when_true() -> None:
    """An empty result sends no content key; is_error is sent only when true."""
    body = anthropic.to_request(
        [ChatMessage.assistant_tool_calls([weather_call()]), ChatMessage.tool_result("toolu_1", "")]
    )
    assert body["messages"][1]["content"] == [{"type": "tool_result", "tool_use_id": "toolu_1"}]
    failed = ChatMessage.tool_result("toolu_1", "", is_error=True)
    body = anthropic.to_request([ChatMessage.assistant_tool_calls([weather_call()]), failed])
    assert body["messages"][1]["content"] == [
        {"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True}
    ]
    assert anthropic.from_request(body)[1] == failed


def test_result_after_a_user_turn_is_refused() -> None:
    """A tool result after a user message answers nothing Anthropic can see: InvalidMessage."""
    messages = [
        ChatMessage.assistant_tool_calls([weather_call()]),
        ChatMessage.user("hm"),
        ChatMessage.tool_result("toolu_1", "x"),
    ]
    error = error_of(anthropic.to_request, messages)
    assert isinstance(error, InvalidMessage)
    assert error.path == "messages[2].tool_call_id"


def test_result_with_unknown_id_is_refused() -> None:
    """A result whose id matches no call of the turn just before is a clear InvalidMessage."""
    messages = [ChatMessage.user("hi"), parallel_turn(), ChatMessage.tool_result("toolu_x", "x")]
    assert str(error_of(anthropic.to_request, messages)) == (
        "messages[2].tool_call_id: must be the id of a call of messages[1], the assistant turn just before "
        "(Anthropic answers 400: 'Each tool_result block must have a corresponding tool_use block in the "
        "previous message'), got 'toolu_x'"
    )


def test_result_answering_a_call_twice_is_refused() -> None:
    """Two results for one call are refused (Anthropic wants one tool_result per tool_use)."""
    messages = [
        parallel_turn(),
        ChatMessage.tool_result("toolu_a", "1"),
        ChatMessage.tool_result("toolu_a", "2"),
    ]
    assert str(error_of(anthropic.to_request, messages)) == (
        "messages[2].tool_call_id: must answer a call once (messages[1] answers it already), got 'toolu_a'"
    )


def test_result_after_a_text_only_assistant_turn_is_refused() -> None:
    """A result after an assistant turn without calls is an orphan."""
    messages = [ChatMessage.assistant("hello"), ChatMessage.tool_result("toolu_1", "x")]
    assert error_of(anthropic.to_request, messages).rule.startswith(
        "must follow an assistant turn with tool calls"
    )


# -- ids ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call_id", "wire_id"),
    [
        ("toolu_01A9HHF5Ezy3oBrKmSgfASm9", "toolu_01A9HHF5Ezy3oBrKmSgfASm9"),
        ("call_abc-123", "call_abc-123"),
        ("functions.get_weather:0", "tt-functions-2e_get-5f_weather-3a_0"),
        ("a.b", "tt-a-2e_b"),
        ("a_b.", "tt-a-5f_b-2e_"),
        ("tt-x", "tt-tt-2d_x"),
        ("caf\u00e9 \U0001f600", "tt-caf-e9_-20_-1f600_"),
    ],
)
def test_ids_are_encoded_identically_on_tool_use_and_tool_result(call_id: str, wire_id: str) -> None:
    """Valid ids pass unchanged; others (and valid ones starting 'tt-') are escaped, the same on both blocks, and decoded back."""
    messages = [
        ChatMessage.assistant_tool_calls([ToolCall(call_id, "f")]),
        ChatMessage.tool_result(call_id, "ok"),
    ]
    body = anthropic.to_request(messages)
    assert body["messages"][0]["content"][0]["id"] == wire_id
    assert body["messages"][1]["content"][0]["tool_use_id"] == wire_id
    assert anthropic.from_request(body) == messages


def test_ids_that_would_collide_under_replacement_stay_distinct() -> None:
    """'a.b', 'a:b' and 'a_b' (one replacement character would merge them) get three distinct wire ids."""
    turn = ChatMessage.assistant_tool_calls(
        [ToolCall("a.b", "f"), ToolCall("a:b", "f"), ToolCall("a_b", "f")]
    )
    content = anthropic.to_request([turn])["messages"][0]["content"]
    assert [block["id"] for block in content] == ["tt-a-2e_b", "tt-a-3a_b", "a_b"]
    assert anthropic.from_request(anthropic.to_request([turn])) == [turn]


@pytest.mark.parametrize(
    "wire_id", ["tt-", "tt-a", "tt--61_", "tt--02e_", "tt--2E_", "tt--2e", "tt--110000_", "tt-a.b"]
)
def test_malformed_encoded_ids_are_refused_with_the_native_path(wire_id: str) -> None:
    """An id starting 'tt-' that to_request would not write is an error naming the native path, on both block kinds."""
    body = [
        {"role": "assistant", "content": [{"type": "tool_use", "id": wire_id, "name": "f", "input": {}}]},
    ]
    error = error_of(anthropic.from_request, body)
    assert isinstance(error, InvalidToolCall)
    assert str(error) == (
        "messages[0].content[0].id: must be an id as to_request encodes it ('tt-', then letters, digits and "
        f"'-<hex>_' escapes), got {wire_id!r}"
    )
    result = [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": wire_id}]}]
    assert error_of(anthropic.from_request, result).path == "messages[0].content[0].tool_use_id"


# -- thinking and other kept blocks ----------------------------------------------------------


def thinking_response() -> dict[str, Any]:
    """A response with thinking, text and a tool_use."""
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": [
            copy.deepcopy(THINKING),
            {"type": "text", "text": "Let me check."},
            {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
        ],
        "stop_reason": "tool_use",
    }


def test_thinking_blocks_are_replayed_unchanged_at_their_positions() -> None:
    """Thinking blocks (with signature) survive from_response -> to_request unchanged and in place."""
    body = thinking_response()
    turn = anthropic.from_response(body)
    assert turn.provider_data == {"anthropic": {"items": [[0, THINKING]]}}
    request = anthropic.to_request(
        [ChatMessage.user("weather?"), turn, ChatMessage.tool_result("toolu_1", "18C")]
    )
    assert request["messages"][1] == {"role": "assistant", "content": body["content"]}


def test_redacted_and_server_blocks_are_kept_in_place() -> None:
    """redacted_thinking, server_tool_use and web_search_tool_result blocks are kept and re-inserted where they were."""
    content = [
        copy.deepcopy(REDACTED),
        {"type": "text", "text": "Searching."},
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "paris"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
        {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
    ]
    turn = anthropic.from_response({"type": "message", "role": "assistant", "content": content})
    assert turn.content == "Searching."
    assert len(turn.tool_calls or ()) == 1
    assert anthropic.to_request([turn])["messages"][0]["content"] == content


def test_thinking_only_text_turn_uses_block_form() -> None:
    """A text answer with a thinking block is written in block form so the block is replayed."""
    turn = anthropic.from_response(
        {"type": "message", "content": [THINKING, {"type": "text", "text": "18C."}]}
    )
    assert anthropic.to_request([turn])["messages"][0]["content"] == [
        THINKING,
        {"type": "text", "text": "18C."},
    ]


def test_thinking_never_leaks_into_other_providers() -> None:
    """Kept Anthropic blocks are not on the OpenAI wire (to_wire, openai.to_request)."""
    turn = anthropic.from_response(thinking_response())
    text = json.dumps(openai.to_request([turn]))
    assert "signature" not in text
    assert "thinking" not in text
    assert turn.to_wire() == {
        "role": "assistant",
        "content": "Let me check.",
        "tool_calls": [
            {
                "id": "toolu_1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
            }
        ],
    }


def test_text_blocks_are_joined_and_their_other_keys_dropped() -> None:
    """Several text blocks read as one content (joined with ''); citations are a documented loss."""
    content = [
        {"type": "text", "text": "Paris is ", "citations": [{"type": "char_location", "cited_text": "x"}]},
        {"type": "text", "text": "sunny."},
    ]
    turn = anthropic.from_response({"type": "message", "content": content})
    assert turn == ChatMessage.assistant("Paris is sunny.")
    assert anthropic.to_request([turn])["messages"] == [{"role": "assistant", "content": "Paris is sunny."}]


def test_kept_blocks_go_back_at_their_positions_in_any_order() -> None:
    """Kept blocks listed out of order go back at their own positions, the text in the place left."""
    turn = ChatMessage(
        "assistant", "hi", provider_data={"anthropic": {"items": [[2, THINKING], [0, REDACTED]]}}
    )
    assert anthropic.to_request([turn])["messages"][0]["content"] == [
        REDACTED,
        {"type": "text", "text": "hi"},
        THINKING,
    ]


@pytest.mark.parametrize(
    ("items", "error"),
    [
        (
            [[7, THINKING], [0, REDACTED]],
            "messages[0].provider_data.anthropic.items[0][0]: must be a free position below 3 "
            "(the items kept plus those toolturns writes), got 7",
        ),
        (
            [[0, THINKING], [0, REDACTED]],
            "messages[0].provider_data.anthropic.items[1][0]: must be a free position below 3 "
            "(the items kept plus those toolturns writes), got 0",
        ),
    ],
)
def test_kept_blocks_past_the_end_or_on_a_taken_position_are_refused(items: Any, error: str) -> None:
    """A kept block's position must be free and below the count of blocks written (it was appended before)."""
    turn = ChatMessage("assistant", "hi", provider_data={"anthropic": {"items": items}})
    with pytest.raises(InvalidMessage) as caught:
        anthropic.to_request([turn])
    assert str(caught.value) == error


def test_kept_block_positions_count_the_joined_text_once() -> None:
    """Text blocks join into one, so a kept block's position counts them once (and empty ones not at all):
    what was read can always be written, the kept blocks in the same order around the text."""
    content = [
        {"type": "text", "text": ""},
        {"type": "text", "text": "Paris "},
        {"type": "text", "text": "is sunny."},
        copy.deepcopy(REDACTED),
        {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
        copy.deepcopy(THINKING),
    ]
    turn = anthropic.from_response({"type": "message", "content": content})
    assert turn.provider_data == {"anthropic": {"items": [[1, REDACTED], [3, THINKING]]}}
    assert anthropic.to_request([turn])["messages"][0]["content"] == [
        {"type": "text", "text": "Paris is sunny."},
        REDACTED,
        {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
        THINKING,
    ]


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ("x", "messages[0].provider_data.anthropic"),
        ({"items": "x"}, "messages[0].provider_data.anthropic.items"),
        ({"items": [[0]]}, "messages[0].provider_data.anthropic.items[0]"),
        ({"items": [[-1, THINKING]]}, "messages[0].provider_data.anthropic.items[0]"),
        ({"items": [[True, THINKING]]}, "messages[0].provider_data.anthropic.items[0]"),
        ({"items": [[0, {"thinking": "x"}]]}, "messages[0].provider_data.anthropic.items[0][1].type"),
        ({"items": [[0, THINKING], [1, "x"]]}, "messages[0].provider_data.anthropic.items[1]"),
        ({"blocks": [[0, THINKING]]}, "messages[0].provider_data.anthropic.blocks"),
        ({"keys": {"x": 1}}, "messages[0].provider_data.anthropic.keys"),
    ],
)
def test_malformed_kept_blocks_are_refused(data: Any, path: str) -> None:
    """provider_data['anthropic'] of an assistant turn that is not {'items': [[position, block]...]} is an InvalidMessage."""
    turn = ChatMessage("assistant", "hi", provider_data={"anthropic": data})
    error = error_of(anthropic.to_request, [turn])
    assert isinstance(error, InvalidMessage)
    assert error.path == path


def test_kept_block_keys_must_not_replace_modelled_ones() -> None:
    """Kept block keys that toolturns writes itself (id, tool_use_id, text) are refused, naming the key."""
    call = ToolCall("toolu_1", "f", provider_data={"anthropic": {"keys": {"id": "other"}}})
    error = error_of(anthropic.to_request, [ChatMessage.assistant_tool_calls([call])])
    assert isinstance(error, InvalidToolCall)
    assert str(error) == (
        "messages[0].tool_calls[0].provider_data.anthropic.keys.id: "
        "is a key the Anthropic codec writes itself, not a kept key, got 'other'"
    )
    result = ChatMessage(Role.TOOL, "x", tool_call_id="toolu_1", provider_data={"anthropic": {"keys": "x"}})
    error = error_of(anthropic.to_request, [ChatMessage.assistant_tool_calls([weather_call()]), result])
    assert error.path == "messages[1].provider_data.anthropic.keys"
    system = ChatMessage(Role.SYSTEM, "x", provider_data={"anthropic": {"keys": {"text": "y"}}})
    assert error_of(anthropic.to_request, [system]).path == "messages[0].provider_data.anthropic.keys.text"


@pytest.mark.parametrize(
    ("messages", "kind", "error"),
    [
        (
            [ChatMessage("user", "hi", provider_data={"anthropic": {"keys": {"cache_control": {}}}})],
            InvalidMessage,
            "messages[0].provider_data.anthropic.keys: is not data the Anthropic codec writes (it writes items),"
            " got dict",
        ),
        (
            [
                ChatMessage.assistant_tool_calls([ToolCall("toolu_1", "f")]),
                ChatMessage.tool_result("toolu_1", "x"),
                ChatMessage("user", "hi", provider_data={"anthropic": {"keys": {}}}),
            ],
            InvalidMessage,
            "messages[2].provider_data.anthropic.keys: is not data the Anthropic codec writes (it writes items),"
            " got dict",
        ),
        (
            [
                ChatMessage.assistant_tool_calls(
                    [ToolCall("toolu_1", "f", provider_data={"anthropic": {"generated_id": True}})]
                )
            ],
            InvalidToolCall,
            "messages[0].tool_calls[0].provider_data.anthropic.generated_id: is not data the Anthropic codec writes"
            " (it writes keys), got True",
        ),
        (
            [ChatMessage("system", "", provider_data={"anthropic": {"block": {}}})],
            InvalidMessage,
            "messages[0].provider_data.anthropic.block: is not data the Anthropic codec writes (it writes keys),"
            " got dict",
        ),
    ],
)
def test_provider_data_reading_never_writes_is_refused(
    messages: list[ChatMessage], kind: type[MessageError], error: str
) -> None:
    """An entry key reading never writes for that value (anything on a user turn, a generated_id on a call,
    the old 'block') is an error, not data silently dropped: also on an empty system message, which is not sent."""
    with pytest.raises(kind) as caught:
        anthropic.to_request(messages)
    assert str(caught.value) == error


def test_tool_result_block_keys_round_trip() -> None:
    """Keys of a tool_result block beyond the modelled ones (cache_control) are kept and sent again."""
    body = [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]},
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_1",
                    "content": "x",
                    "cache_control": {"type": "ephemeral"},
                },
            ],
        },
    ]
    messages = anthropic.from_request(body)
    assert messages[1].provider_data == {"anthropic": {"keys": {"cache_control": {"type": "ephemeral"}}}}
    assert anthropic.to_request(messages)["messages"] == body


# -- tools ----------------------------------------------------------------------------------


def test_tools_become_anthropic_tool_definitions() -> None:
    """Tools are {name, description?, input_schema}; a tool without parameters sends an empty object schema."""
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    body = anthropic.to_request(
        [ChatMessage.user("hi")], tools=[Tool("get_weather", "Current weather", schema), Tool("get_time")]
    )
    assert body["tools"] == [
        {"name": "get_weather", "description": "Current weather", "input_schema": schema},
        {"name": "get_time", "input_schema": {"type": "object", "properties": {}}},
    ]
    assert "tools" not in anthropic.to_request([ChatMessage.user("hi")], tools=[])


def test_tool_definition_refuses_what_is_not_a_tool() -> None:
    """tool_definition of a dict is an InvalidTool, not an AttributeError."""
    error = error_of(anthropic.tool_definition, {"name": "f"})
    assert isinstance(error, InvalidTool)
    assert str(error) == "must be a Tool (read dicts with Tool.from_dict), got dict"


def test_to_request_checks_its_arguments() -> None:
    """Messages that are not ChatMessages and duplicate tool names are refused with a path."""
    assert str(error_of(anthropic.to_request, [{"role": "user"}])) == (
        "messages[0]: must be a ChatMessage (read dicts with ChatMessage.from_dict), got dict"
    )
    assert error_of(anthropic.to_request, [], tools=[Tool("f"), Tool("f")]).path == "tools[1].name"


# -- from_request ---------------------------------------------------------------------------


def test_system_string_is_one_system_message_and_blocks_one_each() -> None:
    """A system string is one system message; a list of text blocks is one system message per block."""
    assert anthropic.from_request({"system": "Be brief.", "messages": []}) == [
        ChatMessage.system("Be brief.")
    ]
    blocks = {"system": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "messages": []}
    assert anthropic.from_request(blocks) == [ChatMessage.system("a"), ChatMessage.system("b")]


def test_bare_message_list_and_tuple_are_read() -> None:
    """A bare list (or tuple) of native messages is read like the messages of a body."""
    assert anthropic.from_request(({"role": "user", "content": "hi"},)) == [ChatMessage.user("hi")]


def test_user_turn_splits_into_results_then_text() -> None:
    """A user turn of tool_result and text blocks reads as tool messages in order, then one user message of
    the other blocks, as parts; a result's blocks are parts too."""
    body = [
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": f"t{n}", "name": "f", "input": {}} for n in (1, 2)],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "t1",
                    "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
                },
                {"type": "text", "text": "x"},
                {"type": "tool_result", "tool_use_id": "t2", "is_error": False},
                {"type": "text", "text": "y"},
            ],
        },
    ]
    assert anthropic.from_request(body)[1:] == [
        ChatMessage.tool_result("t1", [TextPart("a"), TextPart("b")]),
        ChatMessage.tool_result("t2", ""),
        ChatMessage.user([TextPart("x"), TextPart("y")]),
    ]


def test_user_text_blocks_read_as_text_parts() -> None:
    """A user turn of text blocks is one user message of text parts; an empty block list is an empty user message."""
    body = [
        {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
        {"role": "user", "content": []},
    ]
    assert anthropic.from_request(body) == [
        ChatMessage.user([TextPart("a"), TextPart("b")]),
        ChatMessage.user(""),
    ]


def test_tool_use_without_id_is_an_invalid_tool_call() -> None:
    """A tool_use block without id: InvalidToolCall at the native path."""
    body = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "tool_use", "name": "f", "input": {}}]},
    ]
    error = error_of(anthropic.from_request, body)
    assert isinstance(error, InvalidToolCall)
    assert str(error) == "messages[1].content[0].id: must be a non-empty string, got None"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("x", "messages: must be an array of messages, got 'x'"),
        ({"system": "x"}, "messages: must be an array of messages, got None"),
        ({"system": 5, "messages": []}, "system: must be a string or an array of text blocks, got 5"),
        ({"system": ["x"], "messages": []}, "system[0]: must be an object (a text block), got 'x'"),
        (
            {"system": [{"type": "image"}], "messages": []},
            "system[0].type: must be 'text': the system prompt is text blocks, got 'image'",
        ),
        (
            {"system": [{"type": "text", "text": 1}], "messages": []},
            "system[0].text: must be a string, got 1",
        ),
        ([[{"role": "user"}]], "messages[0]: must be an object (a message), got list"),
        (
            [{"role": "system", "content": "x"}],
            "messages[0].role: must be 'user' or 'assistant' (system prompts are the top-level system), got 'system'",
        ),
        (
            [{"role": "user", "content": 5}],
            "messages[0].content: must be a string or an array of content blocks, got 5",
        ),
        ([{"role": "user"}], "messages[0].content: must be a string or an array of content blocks, got None"),
        (
            [{"role": "user", "content": [["text"]]}],
            "messages[0].content[0]: must be an object (a content block), got list",
        ),
        (
            [{"role": "user", "content": [{"text": "x"}]}],
            "messages[0].content[0].type: must be a string (the block type), got None",
        ),
        (
            [{"role": "user", "content": [{"type": "text"}]}],
            "messages[0].content[0].text: must be a string, got None",
        ),
        (
            [{"role": "user", "content": [{"type": "image", "source": {}}]}],
            "messages[0].content[0].source.type: must be a string (the source type), got None",
        ),
        (
            [{"role": "user", "content": "x", "id": "msg_1"}],
            "messages[0].id: is not a key of an Anthropic message (role, content), got 'msg_1'",
        ),
        (
            [{"role": "user", "content": "x", "a b": 1}],
            'messages[0]["a b"]: is not a key of an Anthropic message (role, content), got 1',
        ),
        (
            [{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f", "input": [1]}]}],
            "messages[0].content[0].input: must be an object (the arguments), got list",
        ),
        (
            [{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "f"}]}],
            "messages[0].content[0].input: must be an object (the arguments), got None",
        ),
        (
            [{"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "", "input": {}}]}],
            "messages[0].content[0].name: must be a non-empty string, got ''",
        ),
        (
            [
                {
                    "role": "assistant",
                    "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {}}] * 2,
                }
            ],
            "messages[0].content[1].id: must be unique within the message (content[0] has it too), got 't'",
        ),
        (
            [{"role": "assistant", "content": [{"type": "tool_result", "tool_use_id": "t"}]}],
            "messages[0].content[0].type: must not be 'tool_result' in an assistant turn (results go in a user turn), got 'tool_result'",
        ),
        (
            [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": 7}]}],
            "messages[0].content[0].tool_use_id: must be a non-empty string, got 7",
        ),
        (
            [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "is_error": "yes"}]}],
            "messages[0].content[0].is_error: must be a boolean, got 'yes'",
        ),
        (
            [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": 5}]}],
            "messages[0].content[0].content: must be a string or an array of content blocks, got 5",
        ),
        (
            [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": ["x"]}]}],
            "messages[0].content[0].content[0]: must be an object (a content block), got 'x'",
        ),
        (
            [
                {
                    "role": "user",
                    "content": [
                        {
                            "type": "tool_result",
                            "tool_use_id": "t",
                            "content": [{"type": "image", "source": {"type": "base64", "data": "aGk="}}],
                        }
                    ],
                }
            ],
            "messages[0].content[0].content[0].source.media_type: is required in a base64 source",
        ),
    ],
)
def test_malformed_native_bodies_are_message_errors_with_the_native_path(body: Any, message: str) -> None:
    """Wrong shapes anywhere raise a MessageError whose text names the native path, the rule and the value."""
    assert str(error_of(anthropic.from_request, body)) == message


def test_message_keys_must_be_strings() -> None:
    """A message dict with a non-string key (from Python, not JSON) is an InvalidMessage, not a TypeError."""
    assert str(error_of(anthropic.from_request, [{"role": "user", "content": "x", 1: 2}])) == (
        "messages[0]: keys must be strings, got 1"
    )


def test_null_message_keys_are_ignored() -> None:
    """Unknown keys with null values carry nothing and are not refused."""
    assert anthropic.from_request([{"role": "user", "content": "x", "cache_control": None}]) == [
        ChatMessage.user("x")
    ]


def test_input_holding_non_json_is_invalid_arguments_at_input() -> None:
    """An input object holding NaN (built in Python) is InvalidArguments at the native input path."""
    body = [
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {"x": math.nan}}],
        }
    ]
    error = error_of(anthropic.from_request, body)
    assert isinstance(error, InvalidArguments)
    assert (error.path, error.call_id, error.name) == ("messages[0].content[0].input.x", "t", "f")


def test_assistant_string_content_is_read() -> None:
    """An assistant turn with string content is a text-only assistant message."""
    assert anthropic.from_request([{"role": "assistant", "content": "hi"}]) == [ChatMessage.assistant("hi")]


# -- from_response --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (None, "must be an object (an Anthropic Message), got None"),
        ({"type": "message", "role": "assistant"}, "content: is required: an array of content blocks"),
        (
            {"type": "message", "role": "assistant", "content": None},
            "content: is required: an array of content blocks",
        ),
        (
            {"type": "error", "error": {"type": "invalid_request_error", "message": "x"}},
            "type: must be 'message' (an error body or stream event is not a turn), got 'error'",
        ),
        ({"type": "message", "role": "user", "content": []}, "role: must be 'assistant', got 'user'"),
        (
            {"content": [{"type": "tool_use", "id": "t", "name": "f", "input": "{}"}]},
            "content[0].input: must be an object (the arguments), got '{}'",
        ),
        ({"content": 3}, "content: must be a string or an array of content blocks, got 3"),
    ],
)
def test_malformed_responses_are_message_errors(body: Any, message: str) -> None:
    """A response that is not a message, or has a malformed block, is a MessageError with a response-relative path."""
    assert str(error_of(anthropic.from_response, body)) == message


def test_response_metadata_is_not_read() -> None:
    """id, model, stop_reason and usage are response metadata, not part of the turn."""
    turn = anthropic.from_response(
        {
            "id": "msg_1",
            "model": "m",
            "type": "message",
            "role": "assistant",
            "content": [],
            "usage": {"input_tokens": 1},
        }
    )
    assert turn == ChatMessage.assistant("")


@pytest.mark.parametrize("signature", ["", None])
def test_a_thinking_block_without_its_signature_is_refused(signature: str | None) -> None:
    """A thinking block a cut stream left unsigned is refused with a located error (Anthropic answers 400),
    and check_transcript reports it as not_convertible."""
    block: dict[str, Any] = {"type": "thinking", "thinking": "Let me see."}
    if signature is not None:
        block["signature"] = signature
    turn = ChatMessage(
        "assistant",
        "",
        tool_calls=[ToolCall("toolu_1", "get_time")],
        provider_data={"anthropic": {"items": [[0, block]]}},
    )
    history = [ChatMessage.user("Time?"), turn]
    with pytest.raises(InvalidMessage) as caught:
        anthropic.to_request(history)
    assert caught.value.path == "messages[1].provider_data.anthropic.items[0][1].signature"
    assert "Invalid `signature` in `thinking` block" in caught.value.rule
    [problem] = check_transcript(history, target="anthropic")
    assert (problem.code, problem.path) == ("not_convertible", caught.value.path)
    signed = ChatMessage(
        "assistant",
        "",
        tool_calls=[ToolCall("toolu_1", "get_time")],
        provider_data={"anthropic": {"items": [[0, {**block, "signature": "c2ln"}]]}},
    )
    assert (
        anthropic.to_request([ChatMessage.user("Time?"), signed])["messages"][1]["content"][0]["signature"]
        == "c2ln"
    )
