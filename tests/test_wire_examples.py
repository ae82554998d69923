"""The golden OpenAI examples of ``tests/data/wire_examples.json`` against the wire pair.

Every message of every OpenAI request or response example parses with
``ChatMessage.from_dict`` and ``to_wire()`` re-emits it unchanged but for the
documented normalisations, which ``normalised()`` below applies. Stream
examples belong to the stream assembler and are filtered out here.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.conftest import wire_examples
from toolturns import ChatMessage, InvalidMessage, ToolCall

# Keys ChatMessage models, in the order to_wire() emits them; is_error is
# modelled too but has no OpenAI wire field.
MODELLED = ("role", "content", "name", "tool_calls", "tool_call_id")
CALL_KEYS = ("id", "type", "function")
# What a call carries that is derived, read and not kept: its position in
# tool_calls (the openai SDK's stream accumulator leaves it), checked, then dropped.
CALL_DERIVED = ("index",)
JSON_WHITESPACE = " \t\n\r"

OPENAI = wire_examples("openai")
# Streams are the later stream assembler's business; the 400 example holds
# error bodies, not messages, and has its own tests below.
MESSAGE_EXAMPLES = [e for e in OPENAI if e["kind"] != "stream_chunks" and "expect_status" not in e]
ERROR_EXAMPLE = next(e for e in OPENAI if e["id"] == "openai-400-errors")


def example_messages(example: dict[str, Any]) -> list[dict[str, Any]]:
    """The wire message dicts of one request or response example."""
    data = example["data"]
    if example["kind"] == "response_message":
        message: dict[str, Any] = data["choices"][0]["message"]
        return [message]
    assert example["kind"] == "request_messages"
    messages: list[dict[str, Any]] = data if isinstance(data, list) else data["messages"]
    return messages


LABELLED = [
    (f"{example['id']}[{index}]", message)
    for example in MESSAGE_EXAMPLES
    for index, message in enumerate(example_messages(example))
]
ALL_MESSAGES = [message for _, message in LABELLED]
CASES = [pytest.param(message, id=label) for label, message in LABELLED]
CALL_CASES = [pytest.param(message, id=label) for label, message in LABELLED if message.get("tool_calls")]


def carries_nothing(value: object) -> bool:
    """null and empty values carry nothing; 0 and false do."""
    return value is None or (isinstance(value, (str, list, dict)) and not value)


def normalised_arguments(arguments: object) -> object:
    """The empty-arguments rule: null, '', white space and 'null' are '{}'; an object becomes text."""
    if arguments is None:
        return "{}"
    if isinstance(arguments, str):
        return "{}" if arguments.strip(JSON_WHITESPACE) in ("", "null") else arguments
    if isinstance(arguments, dict):
        return json.dumps(arguments, ensure_ascii=False, separators=(",", ":")) if arguments else "{}"
    return arguments


def normalised_call(call: dict[str, Any]) -> dict[str, Any]:
    """A wire tool call as to_wire() re-emits it: type function, arguments text, its index (its
    position) and empty extras dropped."""
    function = call["function"]
    out: dict[str, Any] = {
        "id": call["id"],
        "type": call.get("type") or "function",
        "function": {"name": function["name"], "arguments": normalised_arguments(function.get("arguments"))},
    }
    out.update(
        (key, value)
        for key, value in call.items()
        if key not in CALL_KEYS and key not in CALL_DERIVED and not carries_nothing(value)
    )
    return out


def normalised(wire: dict[str, Any], *, null_content: bool = False) -> dict[str, Any]:
    """``wire`` with exactly the documented normalisations applied, keys in to_wire() order.

    - content null beside tool calls is "" (kept null with ``null_content``);
    - tool_calls [] or null mean no calls; arguments "", white space, "null",
      null and {} are "{}"; arguments as an object are JSON text;
    - unknown keys with null or empty values are dropped.
    """
    calls = [normalised_call(call) for call in wire.get("tool_calls") or []]
    content = wire.get("content")
    if calls and not content:
        content = None if null_content else ""
    out: dict[str, Any] = {"role": wire["role"], "content": content}
    if wire.get("name") is not None:
        out["name"] = wire["name"]
    if calls:
        out["tool_calls"] = calls
    if wire.get("tool_call_id") is not None:
        out["tool_call_id"] = wire["tool_call_id"]
    out.update(
        (key, value)
        for key, value in wire.items()
        if key not in MODELLED and key != "is_error" and not carries_nothing(value)
    )
    return out


# -- the selection --------------------------------------------------------------


def test_every_non_stream_openai_example_is_checked() -> None:
    """Only stream examples are filtered out; every other OpenAI example is a message source or the 400 one."""
    kinds = {e["kind"] for e in OPENAI}
    assert kinds == {"request_messages", "response_message", "stream_chunks"}
    for example in OPENAI:
        if example["kind"] != "stream_chunks":
            assert example in MESSAGE_EXAMPLES or example is ERROR_EXAMPLE, example["id"]
    assert {e["kind"] for e in MESSAGE_EXAMPLES} == {"request_messages", "response_message"}
    assert len(ALL_MESSAGES) >= 10


def test_normalised_applies_only_the_documented_changes() -> None:
    """The test helper itself: it changes exactly content null, empty arguments, a call's index and
    empty extras."""
    wire = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": " "}, "index": 0}
        ],
        "refusal": None,
        "annotations": [],
        "weight": 0,
    }
    assert normalised(wire) == {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
        "weight": 0,
    }
    assert normalised(wire, null_content=True)["content"] is None
    plain = {"role": "user", "content": "hi"}
    assert normalised(plain) == plain


# -- every message of every example ---------------------------------------------


@pytest.mark.parametrize("wire", CASES)
def test_example_message_re_emits_unchanged_but_for_normalisations(wire: dict[str, Any]) -> None:
    """Each example message parses and to_wire() gives it back, normalised, in canonical key order."""
    emitted = ChatMessage.from_dict(wire).to_wire()
    expected = normalised(wire)
    assert emitted == expected
    assert list(emitted) == list(expected)
    for emitted_call, expected_call in zip(
        emitted.get("tool_calls", []), expected.get("tool_calls", []), strict=True
    ):
        assert list(emitted_call) == list(expected_call)


@pytest.mark.parametrize("wire", CALL_CASES)
def test_example_message_with_the_sdks_call_positions_re_emits_without_them(wire: dict[str, Any]) -> None:
    """The same message as the openai SDK's stream accumulator leaves it (index on each call, its
    position) reads as the message without them, and to_wire() sends no index."""
    positioned = {**wire, "tool_calls": [{**call, "index": n} for n, call in enumerate(wire["tool_calls"])]}
    assert ChatMessage.from_dict(positioned) == ChatMessage.from_dict(wire)
    assert ChatMessage.from_dict(positioned).to_wire() == normalised(wire)


@pytest.mark.parametrize("wire", CASES)
def test_example_message_null_content_reproduces_null(wire: dict[str, Any]) -> None:
    """to_wire(null_content=True) gives content null back where the example had it beside tool calls."""
    emitted = ChatMessage.from_dict(wire).to_wire(null_content=True)
    assert emitted == normalised(wire, null_content=True)
    if wire.get("tool_calls") and wire.get("content") is None:
        assert emitted["content"] is None


@pytest.mark.parametrize("wire", CASES)
def test_example_message_round_trips(wire: dict[str, Any]) -> None:
    """The parsed message survives to_wire() -> JSON text -> from_dict unchanged."""
    message = ChatMessage.from_dict(wire)
    assert ChatMessage.from_dict(message.to_wire()) == message
    assert ChatMessage.from_dict(json.loads(json.dumps(message.to_wire()))) == message
    assert ChatMessage.from_dict(message.to_wire(null_content=True)) == message


@pytest.mark.parametrize("wire", CASES)
def test_example_arguments_decode_as_objects(wire: dict[str, Any]) -> None:
    """Every argument text the examples carry decodes to the object the raw text holds."""
    message = ChatMessage.from_dict(wire)
    for call, raw in zip(message.tool_calls or (), wire.get("tool_calls") or [], strict=True):
        text = raw["function"]["arguments"]
        assert call.arguments == (json.loads(text) if text.strip() else {})
        assert call.id == raw["id"]
        assert call.name == raw["function"]["name"]


def test_examples_include_the_documented_edge_cases() -> None:
    """The examples exercise content null beside calls, arguments '' and response-only keys."""
    assert any(m.get("tool_calls") and m.get("content") is None for m in ALL_MESSAGES)
    assert any(c["function"]["arguments"] == "" for m in ALL_MESSAGES for c in m.get("tool_calls") or [])
    assert any("refusal" in m for m in ALL_MESSAGES)


# -- the 400 example: error bodies, not messages ---------------------------------


def error_for(param_suffix: str) -> dict[str, Any]:
    """The one error body of the 400 example whose param ends with ``param_suffix``."""
    bodies: list[dict[str, Any]] = [ERROR_EXAMPLE["data"]["error"], *ERROR_EXAMPLE["data"]["more_errors"]]
    found = [body for body in bodies if body["param"].endswith(param_suffix)]
    assert len(found) == 1, param_suffix
    return found[0]


# The shapes of "more_errors" that one message can be checked for; the others
# (a tool message without a preceding call, an unanswered call) are transcript
# rules for check_transcript.
MESSAGE_LEVEL_PARAMS = (".tool_calls", ".function.arguments", ".content")


def test_400_example_holds_error_bodies_not_messages() -> None:
    """The 400 example is a set of OpenAI error bodies, each naming a param and an invalid request."""
    assert ERROR_EXAMPLE["expect_status"] == 400
    assert ERROR_EXAMPLE["kind"] == "request_messages"
    data = ERROR_EXAMPLE["data"]
    assert "messages" not in data
    for body in [data["error"], *data["more_errors"], data["companion_error"]]:
        assert body["type"] == "invalid_request_error"
        assert body["param"].startswith("messages")


def test_400_every_message_level_error_has_a_check() -> None:
    """Each more_errors body is one of the message-level shapes tested below."""
    for body in ERROR_EXAMPLE["data"]["more_errors"]:
        assert body["param"].endswith(MESSAGE_LEVEL_PARAMS), body["param"]


def test_400_empty_tool_calls_is_rejected_when_building() -> None:
    """OpenAI rejects tool_calls: []; toolturns refuses to build it, and reading [] never re-emits it."""
    body = error_for(".tool_calls")
    assert body["code"] == "empty_array"
    with pytest.raises(InvalidMessage, match=r"^tool_calls: must not be empty"):
        ChatMessage("assistant", "", tool_calls=[])
    with pytest.raises(InvalidMessage, match=r"^tool_calls: must not be empty"):
        ChatMessage.assistant_tool_calls([])
    read = ChatMessage.from_dict({"role": "assistant", "content": "ok", "tool_calls": []})
    assert "tool_calls" not in read.to_wire()


def test_400_object_arguments_are_read_but_emitted_as_text() -> None:
    """OpenAI rejects arguments sent as an object; from_dict accepts one and to_wire() emits text."""
    body = error_for(".function.arguments")
    assert "expected a string, but got an object" in body["message"]
    message = ChatMessage.from_dict(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": {"a": [1]}}}
            ],
        }
    )
    arguments = message.to_wire()["tool_calls"][0]["function"]["arguments"]
    assert isinstance(arguments, str)
    assert json.loads(arguments) == {"a": [1]}
    assert ToolCall("call_1", "f", {"a": [1]}).to_wire()["function"]["arguments"] == arguments


def test_400_null_content_without_tool_calls_is_rejected() -> None:
    """OpenAI rejects content null on a message without tool calls; so does from_dict."""
    body = error_for(".content")
    assert "got null" in body["message"]
    bad: list[dict[str, Any]] = [
        {"role": "assistant", "content": None},
        {"role": "assistant", "content": None, "tool_calls": []},
    ]
    for data in bad:
        with pytest.raises(InvalidMessage) as caught:
            ChatMessage.from_dict(data)
        assert caught.value.path == "content"
        assert caught.value.got == "None"
