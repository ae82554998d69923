"""check_transcript and Problem: the tool-exchange checks, each target's rules, argument validation."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Frozen
from toolturns import (
    ChatMessage,
    InvalidTranscript,
    MessageError,
    Problem,
    Tool,
    ToolCall,
    anthropic,
    check_transcript,
    gemini,
    ollama,
    openai,
    responses,
)

# (index, path, code) of each problem, in the order check_transcript gives them
Problems = list[tuple[int | None, str, str]]

WEATHER = ToolCall("call_1", "get_weather", {"city": "Paris"})
TIME = ToolCall("call_2", "get_time")
SYSTEM = ChatMessage.system("Be brief.")
ASK = ChatMessage.user("Weather and time in Paris?")
CALLS = ChatMessage.assistant_tool_calls([WEATHER, TIME], "Let me look.")
CALL_WEATHER = ChatMessage.assistant_tool_calls([WEATHER])
R1 = ChatMessage.tool_result("call_1", "18 C")
R2 = ChatMessage.tool_result("call_2", "noon")
ANSWER = ChatMessage.assistant("18 C at noon.")
AGAIN = ChatMessage.user("And tomorrow?")
LOOP = [SYSTEM, ASK, CALLS, R1, R2, ANSWER, AGAIN]

WEATHER_TOOL = Tool("get_weather", "Current weather", {"type": "object"})
TIME_TOOL = Tool("get_time")
CODECS = {"openai": openai, "anthropic": anthropic, "gemini": gemini, "ollama": ollama}


def call(call_id: str = "call_1", name: str = "get_weather", arguments: Any = None) -> ChatMessage:
    """An assistant turn with one call."""
    return ChatMessage.assistant_tool_calls([ToolCall(call_id, name, arguments)])


def result(call_id: str = "call_1", content: str = "18 C") -> ChatMessage:
    """A tool result."""
    return ChatMessage.tool_result(call_id, content)


def found(messages: Any, **options: Any) -> Problems:
    """(index, path, code) of every problem check_transcript reports, in its order."""
    return [(p.index, p.path, p.code) for p in check_transcript(messages, **options)]


def codes(messages: Any, **options: Any) -> list[str]:
    """The codes check_transcript reports, in its order."""
    return [p.code for p in check_transcript(messages, **options)]


# -- every code: a transcript that triggers it, and a near-identical one that does not ------

# Output items of Responses API responses, for the rules of that wire.
REASONING = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAAB"}
REPLY = {
    "type": "message",
    "id": "msg_1",
    "role": "assistant",
    "status": "completed",
    "content": [{"type": "output_text", "text": "Sunny.", "annotations": []}],
}
WEB_SEARCH = {"type": "web_search_call", "id": "ws_1", "status": "completed"}
CALL_ITEM = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "call_1",
    "name": "get_weather",
    "arguments": "{}",
    "status": "completed",
}
TIME_ITEM = {**CALL_ITEM, "id": "fc_3", "call_id": "call_2", "name": "get_time"}

NAME_65 = "a" * 65
ID_41 = "c" * 41


def _tagging(tags: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI tool definition whose one property, ``tags``, has this schema."""
    parameters = {"type": "object", "properties": {"tags": tags}}
    return {"type": "function", "function": {"name": "add_tags", "parameters": parameters}}


def _choosing(top: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI tool definition with these keywords at the top of its parameters."""
    parameters = {"type": "object", "properties": {"tags": {"type": "array", "items": {}}}, **top}
    return {"type": "function", "function": {"name": "add_tags", "parameters": parameters}}


def _strict(parameters: dict[str, Any]) -> dict[str, Any]:
    """A strict OpenAI tool definition with these parameters."""
    return {"type": "function", "function": {"name": "add_tags", "strict": True, "parameters": parameters}}


def case(
    code: str,
    bad: list[Any],
    good: list[Any],
    problems: Problems,
    options: dict[str, Any] | None = None,
    good_options: dict[str, Any] | None = None,
) -> Any:
    """One row: ``bad`` reports exactly ``problems`` (among them ``code``); ``good`` reports nothing.

    Both are checked with ``options``; ``good_options``, when given, replaces them for ``good``.
    """
    options = options or {}
    good_options = options if good_options is None else good_options
    return pytest.param(code, bad, options, problems, good, good_options, id=code)


CASES = [
    case(
        "invalid_message",
        [ASK, {"role": "assistant", "content": 5}],
        [ASK, {"role": "assistant", "content": "5"}],
        [(1, "messages[1].content", "invalid_message")],
    ),
    case(
        "invalid_message",
        [ASK, ["assistant", "Sunny."]],
        [ASK, {"role": "assistant", "content": "Sunny."}],
        [(1, "messages[1]", "invalid_message")],
    ),
    case(
        "invalid_message",
        [ASK, {"role": "assistant", "content": None, "tool_calls": [WEATHER.to_wire(), WEATHER.to_wire()]}],
        [ASK, {"role": "assistant", "content": None, "tool_calls": [WEATHER.to_wire(), TIME.to_wire()]}],
        [(1, "messages[1].tool_calls[1].id", "invalid_message")],
    ),
    case(
        "legacy_function_call",
        [
            ASK,
            {
                "role": "assistant",
                "content": None,
                "function_call": {"name": "get_weather", "arguments": "{}"},
            },
        ],
        [ASK, {"role": "assistant", "content": None, "tool_calls": [WEATHER.to_wire()]}, R1],
        [(1, "messages[1].function_call", "legacy_function_call")],
    ),
    case(
        "legacy_function_call",
        [ASK, {"role": "function", "name": "get_weather", "content": "18 C"}],
        [ASK, {"role": "assistant", "content": "18 C"}],
        [(1, "messages[1].role", "legacy_function_call")],
    ),
    case(
        "result_name_mismatch",
        [ASK, CALLS, {**R1.to_wire(), "name": "get_time"}, R2],
        [ASK, CALLS, {**R1.to_wire(), "name": WEATHER.name}, R2],
        [(2, "messages[2].name", "result_name_mismatch")],
    ),
    case(
        "unanswered_call",
        [ASK, CALLS, R1, AGAIN],
        [ASK, CALLS, R1, R2, AGAIN],
        [(1, "messages[1].tool_calls[1]", "unanswered_call")],
    ),
    case(
        "unanswered_call",
        [ASK, CALLS, R1],
        [ASK, CALLS, R1, R2],
        [(1, "messages[1].tool_calls[1]", "unanswered_call")],
    ),
    case(
        "unanswered_call",
        [ASK, CALL_WEATHER],
        [ASK, CALL_WEATHER, R1],
        [(1, "messages[1].tool_calls[0]", "unanswered_call")],
        {"allow_pending": False},
    ),
    case(
        "duplicate_result",
        [ASK, CALLS, R1, R2, R1],
        [ASK, CALLS, R1, R2],
        [(4, "messages[4].tool_call_id", "duplicate_result")],
    ),
    case(
        "duplicate_result",
        [ASK, CALLS, R1, R2, AGAIN, R1],
        [ASK, CALLS, R1, R2, AGAIN],
        [(5, "messages[5].tool_call_id", "duplicate_result")],
    ),
    case(
        "late_result",
        [ASK, CALL_WEATHER, AGAIN, R1],
        [ASK, CALL_WEATHER, R1, AGAIN],
        [(1, "messages[1].tool_calls[0]", "unanswered_call"), (3, "messages[3].tool_call_id", "late_result")],
    ),
    case(
        "result_before_call",
        [ASK, R1, ANSWER],
        [ASK, CALL_WEATHER, R1, ANSWER],
        [(1, "messages[1].tool_call_id", "result_before_call")],
    ),
    case(
        "orphan_result",
        [ASK, CALL_WEATHER, R1, result("call_9")],
        [ASK, CALL_WEATHER, R1],
        [(3, "messages[3].tool_call_id", "orphan_result")],
    ),
    case(
        "orphan_result",
        [ASK, CALL_WEATHER, R1, ANSWER, result("call_9")],
        [ASK, CALL_WEATHER, R1, ANSWER],
        [(4, "messages[4].tool_call_id", "orphan_result")],
    ),
    case(
        "duplicate_call_id",
        [ASK, CALL_WEATHER, R1, AGAIN, call("call_1"), R1],
        [ASK, CALL_WEATHER, R1, AGAIN, call("call_3"), result("call_3")],
        [(4, "messages[4].tool_calls[0].id", "duplicate_call_id")],
    ),
    case(
        "invalid_tool",
        [ASK],
        [ASK],
        [(None, "tools[0].function.name", "invalid_tool")],
        {"tools": [{"type": "function", "function": {"name": "get weather"}}]},
        {"tools": [{"type": "function", "function": {"name": "get_weather"}}]},
    ),
    case(
        "invalid_tool",
        [ASK],
        [ASK],
        [(None, "tools[1]", "invalid_tool")],
        {"tools": [TIME_TOOL, 5]},
        {"tools": [TIME_TOOL, {"name": "5"}]},
    ),
    case(
        "invalid_tool",
        [ASK],
        [ASK],
        [(None, "tools[0].function.parameters.required", "invalid_tool")],
        {
            "tools": [
                {
                    "type": "function",
                    "function": {"name": "f", "parameters": {"type": "object", "required": None}},
                }
            ]
        },
        {
            "tools": [
                {
                    "type": "function",
                    "function": {"name": "f", "parameters": {"type": "object", "required": []}},
                }
            ]
        },
    ),
    case(
        "duplicate_tool",
        [ASK],
        [ASK],
        [(None, "tools[1].function.name", "duplicate_tool")],
        {"tools": [WEATHER_TOOL, {"type": "function", "function": {"name": "get_weather"}}]},
        {"tools": [WEATHER_TOOL, {"type": "function", "function": {"name": "get_time"}}]},
    ),
    case(
        "duplicate_tool",
        [ASK],
        [ASK],
        [(None, "tools[1].name", "duplicate_tool")],
        {"tools": [{"name": "get_time"}, TIME_TOOL]},
        {"tools": [{"name": "get_weather"}, TIME_TOOL]},
    ),
    case(
        "unknown_tool",
        [ASK, CALL_WEATHER, R1],
        [ASK, CALL_WEATHER, R1],
        [(1, "messages[1].tool_calls[0].function.name", "unknown_tool")],
        {"tools": [TIME_TOOL]},
        {"tools": [TIME_TOOL, WEATHER_TOOL]},
    ),
    case(
        "unsupported_part",
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}},
                ],
            }
        ],
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                ],
            }
        ],
        [(0, "messages[0].content[1]", "unsupported_part")],
        {"target": "anthropic"},
    ),
    case(
        "unsupported_media_type",
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "image_url", "image_url": {"url": "data:image/bmp;base64,Qk0+AAAA"}},
                ],
            }
        ],
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                ],
            }
        ],
        [(0, "messages[0].content[1]", "unsupported_media_type")],
        {"target": "openai"},
    ),
    case(
        "media_type_mismatch",
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,iVBORw0KGgo="}},
                ],
            }
        ],
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                ],
            }
        ],
        [(0, "messages[0].content[1]", "media_type_mismatch")],
        {"target": "anthropic"},
    ),
    case(
        "missing_media_type",
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}},
                ],
            }
        ],
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                ],
            }
        ],
        [(0, "messages[0].content[1]", "missing_media_type")],
        {"target": "gemini"},
    ),
    case(
        "unsupported_source",
        [
            {
                "role": "user",
                "content": [
                    {"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}},
                    {"type": "text", "text": "What is this?"},
                ],
            }
        ],
        [
            {
                "role": "user",
                "content": [
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                    {"type": "text", "text": "What is this?"},
                ],
            }
        ],
        [(0, "messages[0].content[0]", "unsupported_source")],
        {"target": "ollama"},
    ),
    case(
        "unsupported_field",
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {
                        "type": "image_url",
                        "image_url": {"url": "data:image/png;base64,iVBORw0KGgo=", "detail": "low"},
                    },
                ],
            }
        ],
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                ],
            }
        ],
        [(0, "messages[0].content[1]", "unsupported_field")],
        {"target": "gemini"},
    ),
    case(
        "invalid_detail",
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {
                        "type": "image_url",
                        "image_url": {"url": "data:image/png;base64,iVBORw0KGgo=", "detail": "LOW"},
                    },
                ],
            }
        ],
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {
                        "type": "image_url",
                        "image_url": {"url": "data:image/png;base64,iVBORw0KGgo=", "detail": "low"},
                    },
                ],
            }
        ],
        [(0, "messages[0].content[1]", "invalid_detail")],
        {"target": "openai"},
    ),
    case(
        "missing_filename",
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "file", "file": {"file_data": "data:application/pdf;base64,JVBERi0="}},
                ],
            }
        ],
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {
                        "type": "file",
                        "file": {"file_data": "data:application/pdf;base64,JVBERi0=", "filename": "a.pdf"},
                    },
                ],
            }
        ],
        [(0, "messages[0].content[1]", "missing_filename")],
        {"target": "openai"},
    ),
    case(
        "part_order",
        [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                ],
            }
        ],
        [
            {
                "role": "user",
                "content": [
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                    {"type": "text", "text": "What is this?"},
                ],
            }
        ],
        [(0, "messages[0].content[1]", "part_order")],
        {"target": "ollama"},
    ),
    case("empty_transcript", [], [ASK], [(None, "messages", "empty_transcript")], {"target": "openai"}),
    case("empty_transcript", [], [ASK], [(None, "messages", "empty_transcript")], {"target": "ollama"}),
    case(
        "no_conversation",
        [SYSTEM],
        [SYSTEM, ASK],
        [(None, "messages", "no_conversation")],
        {"target": "anthropic"},
    ),
    case(
        "no_conversation",
        [SYSTEM, ChatMessage.developer("Use metric.")],
        [SYSTEM, ChatMessage.developer("Use metric."), ASK],
        [(None, "messages", "no_conversation")],
        {"target": "gemini"},
    ),
    case(
        "invalid_tool_name",
        [ASK, call(name="get.weather"), R1],
        [ASK, call(name="get_weather"), R1],
        [(1, "messages[1].tool_calls[0].function.name", "invalid_tool_name")],
        {"target": "openai"},
    ),
    case(
        "invalid_tool_name",
        [ASK, call(name=NAME_65), R1],
        [ASK, call(name=NAME_65[:64]), R1],
        [(1, "messages[1].tool_calls[0].function.name", "invalid_tool_name")],
        {"target": "openai"},
    ),
    case(
        "invalid_tool_name",
        [ASK, call(name="get weather"), R1],
        [ASK, call(name="get-weather"), R1],
        [(1, "messages[1].tool_calls[0].function.name", "invalid_tool_name")],
        {"target": "anthropic"},
    ),
    case(
        "invalid_tool_name",
        [ASK, call(name="1weather"), R1],
        [ASK, call(name="_weather.v1:now"), R1],
        [(1, "messages[1].tool_calls[0].function.name", "invalid_tool_name")],
        {"target": "gemini"},
    ),
    case(
        "invalid_tool_name",
        [ASK, call(name=NAME_65), R1],
        [ASK, call(name=NAME_65[:64]), R1],
        [(1, "messages[1].tool_calls[0].function.name", "invalid_tool_name")],
        {"target": "gemini"},
    ),
    case(
        "invalid_tool_name",
        [ASK],
        [ASK],
        [(None, "tools[0].name", "invalid_tool_name")],
        {"target": "gemini", "tools": [Tool("1weather")]},
        {"target": "gemini", "tools": [Tool("weather1")]},
    ),
    case(
        "invalid_tool_name",
        [ASK],
        [ASK],
        [(None, "tools[0].function.name", "invalid_tool_name")],
        {"target": "gemini", "tools": [{"type": "function", "function": {"name": "-weather"}}]},
        {"target": "gemini", "tools": [{"type": "function", "function": {"name": "_weather"}}]},
    ),
    case(
        "id_too_long",
        [ASK, call(ID_41), result(ID_41)],
        [ASK, call(ID_41[:40]), result(ID_41[:40])],
        [(1, "messages[1].tool_calls[0].id", "id_too_long")],
        {"target": "openai"},
    ),
    case(
        "invalid_name",
        [ChatMessage.user("Weather?", name="Jean Dupont")],
        [ChatMessage.user("Weather?", name="Jean_Dupont")],
        [(0, "messages[0].name", "invalid_name")],
        {"target": "openai"},
    ),
    case(
        "too_many_tools",
        [ASK],
        [ASK],
        [(None, "tools", "too_many_tools")],
        {"target": "openai", "tools": [Tool(f"tool_{n}") for n in range(129)]},
        {"target": "openai", "tools": [Tool(f"tool_{n}") for n in range(128)]},
    ),
    case(
        "array_without_items",
        [ASK],
        [ASK],
        [(None, "tools[0].function.parameters.properties.tags", "array_without_items")],
        {"target": "openai", "tools": [_tagging({"type": "array"})]},
        {"target": "openai", "tools": [_tagging({"type": "array", "items": {}})]},
    ),
    case(
        "array_without_items",
        [ASK],
        [ASK],
        [(None, "tools[0].function.parameters.properties.tags", "array_without_items")],
        {"target": "responses", "tools": [_tagging({"type": ["array", "null"]})]},
        {
            "target": "responses",
            "tools": [_tagging({"type": ["array", "null"], "items": {"type": "string"}})],
        },
    ),
    case(
        "schema_top_level",
        [ASK],
        [ASK],
        [(None, "tools[0].function.parameters.anyOf", "schema_top_level")],
        {"target": "anthropic", "tools": [_choosing({"anyOf": [{"required": ["tags"]}]})]},
        {"target": "anthropic", "tools": [_choosing({"required": ["tags"]})]},
    ),
    case(
        "schema_top_level",
        [ASK],
        [ASK],
        [(None, "tools[0].function.parameters.not", "schema_top_level")],
        {"target": "openai", "tools": [_choosing({"not": {"required": ["tags"]}})]},
        {"target": "openai", "tools": [_choosing({})]},
    ),
    case(
        "strict_schema",
        [ASK],
        [ASK],
        [(None, "tools[0].function.parameters.additionalProperties", "strict_schema")],
        {"target": "openai", "tools": [_strict({"type": "object", "properties": {}})]},
        {
            "target": "openai",
            "tools": [_strict({"type": "object", "properties": {}, "additionalProperties": False})],
        },
    ),
    case(
        "invalid_call_id",
        [ASK, call("call.1"), result("call.1")],
        [ASK, call("call-1_A"), result("call-1_A")],
        [(1, "messages[1].tool_calls[0].id", "invalid_call_id")],
        {"target": "anthropic"},
    ),
    case(
        "invalid_arguments",
        [ASK, call(arguments="[1]"), R1],
        [ASK, call(arguments='{"a": [1]}'), R1],
        [(1, "messages[1].tool_calls[0].function.arguments", "invalid_arguments")],
        {"target": "anthropic"},
    ),
    case(
        "invalid_arguments",
        [ASK, call(arguments='{"city": "Paris"'), R1],
        [ASK, call(arguments='{"city": "Paris"}'), R1],
        [(1, "messages[1].tool_calls[0].function.arguments", "invalid_arguments")],
        {"target": "gemini"},
    ),
    case(
        "invalid_arguments",
        [ASK, call(arguments='"Paris"'), R1],
        [ASK, call(arguments=""), R1],
        [(1, "messages[1].tool_calls[0].function.arguments", "invalid_arguments")],
        {"target": "ollama"},
    ),
    case(
        "inexact_arguments",
        [ASK, call(arguments='{"city": "Paris", "city": "Rome"}'), R1],
        [ASK, call(arguments='{"city": "Paris", "town": "Rome"}'), R1],
        [(1, "messages[1].tool_calls[0].function.arguments", "inexact_arguments")],
        {"target": "anthropic"},
    ),
    case(
        "inexact_arguments",
        [ASK, call(arguments='{"where": {"lat": 1e-400}}'), R1],
        [ASK, call(arguments='{"where": {"lat": 1e-300}}'), R1],
        [(1, "messages[1].tool_calls[0].function.arguments.where.lat", "inexact_arguments")],
        {"target": "gemini"},
    ),
    case(
        "inexact_arguments",
        [ASK, call(arguments='{"x": [0.10000000000000000001]}'), R1],
        [ASK, call(arguments='{"x": [0.10000000000000000000]}'), R1],
        [(1, "messages[1].tool_calls[0].function.arguments.x[0]", "inexact_arguments")],
        {"target": "ollama"},
    ),
    case(
        "empty_text",
        [ChatMessage.user(""), ANSWER],
        [ChatMessage.user("?"), ANSWER],
        [(0, "messages[0].content", "empty_text")],
        {"target": "anthropic"},
    ),
    case(
        "empty_text",
        [ASK, ChatMessage.assistant(""), AGAIN],
        [ASK, ChatMessage.assistant("."), AGAIN],
        [(1, "messages[1].content", "empty_text")],
        {"target": "anthropic"},
    ),
    case(
        "empty_text",
        [ASK, ChatMessage.assistant_tool_calls([WEATHER], " "), R1],
        [ASK, ChatMessage.assistant_tool_calls([WEATHER], ""), R1],
        [(1, "messages[1].content", "empty_text")],
        {"target": "anthropic"},
    ),
    case(
        "empty_text",
        [ChatMessage.system(" \n"), ASK],
        [ChatMessage.system(""), ASK],
        [(0, "messages[0].content", "empty_text")],
        {"target": "anthropic"},
    ),
    case(
        "trailing_whitespace",
        [ASK, ChatMessage.assistant("It is sunny. ")],
        [ASK, ChatMessage.assistant("It is sunny.")],
        [(1, "messages[1].content", "trailing_whitespace")],
        {"target": "anthropic"},
    ),
    case(
        "result_count_mismatch",
        [ASK, CALLS, R1, AGAIN],
        [ASK, CALLS, R1, R2, AGAIN],
        [(1, "messages[1].tool_calls[1]", "unanswered_call"), (1, "messages[1]", "result_count_mismatch")],
        {"target": "gemini"},
    ),
    case(
        "result_count_mismatch",
        [ASK, CALL_WEATHER, R1, R1],
        [ASK, CALL_WEATHER, R1],
        [(1, "messages[1]", "result_count_mismatch"), (3, "messages[3].tool_call_id", "duplicate_result")],
        {"target": "gemini"},
    ),
    case(
        "misplaced_call_turn",
        [ASK, ChatMessage.assistant("Let me look."), CALL_WEATHER, R1],
        [ASK, ChatMessage.assistant("Let me look."), AGAIN, CALL_WEATHER, R1],
        [(2, "messages[2]", "misplaced_call_turn")],
        {"target": "gemini"},
    ),
    case(
        "misplaced_call_turn",
        [SYSTEM, CALL_WEATHER, R1],
        [SYSTEM, ASK, CALL_WEATHER, R1],
        [(1, "messages[1]", "misplaced_call_turn")],
        {"target": "gemini"},
    ),
    case(
        "unsupported",
        [{**ASK.to_wire(), "weight": 0}, ChatMessage.assistant("Sunny.")],
        [ASK, ChatMessage.assistant("Sunny.")],
        [(0, "messages[0].weight", "unsupported")],
        {"target": "anthropic"},
    ),
    case(
        "unsupported",
        [ASK, ChatMessage.assistant("Sunny.", name="bot")],
        [ASK, ChatMessage.assistant("Sunny.")],
        [(1, "messages[1].name", "unsupported")],
        {"target": "ollama"},
    ),
    case(
        "unsupported",
        [ASK, responses.from_response({"output": [WEB_SEARCH, REPLY]})],
        [ASK, responses.from_response({"output": [REPLY]})],
        [(1, "messages[1].provider_data.responses.items[0]", "unsupported")],
        {"target": "openai"},
    ),
    case(
        "reasoning_without_following",
        # A response cut (max_output_tokens) right after its reasoning.
        [ASK, responses.from_response({"status": "incomplete", "output": [REASONING]})],
        [ASK, responses.from_response({"output": [REASONING, REPLY]})],
        [(1, "messages[1].provider_data.responses.items[0]", "reasoning_without_following")],
        {"target": "responses"},
    ),
    case(
        "call_without_reasoning",
        [ASK, responses.from_response({"output": [CALL_ITEM, REASONING, TIME_ITEM]}), R1, R2],
        [ASK, responses.from_response({"output": [REASONING, CALL_ITEM, TIME_ITEM]}), R1, R2],
        [(1, "messages[1].tool_calls[0]", "call_without_reasoning")],
        {"target": "responses"},
    ),
    case(
        "duplicate_item",
        # The same fc_ id on a call of a later turn (a turn pasted in twice, its call id changed).
        [
            ASK,
            responses.from_response({"output": [CALL_ITEM]}),
            R1,
            AGAIN,
            responses.from_response({"output": [{**CALL_ITEM, "call_id": "call_2"}]}),
            R2,
        ],
        [
            ASK,
            responses.from_response({"output": [CALL_ITEM]}),
            R1,
            AGAIN,
            responses.from_response({"output": [{**CALL_ITEM, "id": "fc_2", "call_id": "call_2"}]}),
            R2,
        ],
        [(4, "messages[4]", "duplicate_item")],
        {"target": "responses"},
    ),
    case(
        "not_convertible",
        [ASK, ChatMessage("assistant", "Sunny.", provider_data={"anthropic": 5})],
        [ASK, ChatMessage("assistant", "Sunny.", provider_data={"anthropic": {}})],
        [(1, "messages[1].provider_data.anthropic", "not_convertible")],
        {"target": "anthropic"},
    ),
    case(
        "not_convertible",
        [ASK, ChatMessage.assistant_tool_calls([ToolCall("call_1", "f", provider_data={"gemini": 5})]), R1],
        [ASK, ChatMessage.assistant_tool_calls([ToolCall("call_1", "f", provider_data={"openai": 5})]), R1],
        [(1, "messages[1].tool_calls[0].provider_data.gemini", "not_convertible")],
        {"target": "gemini"},
    ),
]


@pytest.mark.parametrize(("code", "bad", "options", "problems", "good", "good_options"), CASES)
def test_each_code_has_a_transcript_that_triggers_it_and_a_near_identical_one_that_does_not(
    code: str,
    bad: list[Any],
    options: dict[str, Any],
    problems: Problems,
    good: list[Any],
    good_options: dict[str, Any],
) -> None:
    """The bad transcript reports exactly these problems (one of them the code); the good one none at all."""
    assert code in [problem[2] for problem in problems]
    assert found(bad, **options) == problems
    assert found(good, **good_options) == []


def test_every_documented_code_is_in_the_table() -> None:
    """The table above covers each code docs/transcripts.md lists (its tables' first column)."""
    docs = (Path(__file__).parent.parent / "docs" / "transcripts.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", docs, flags=re.MULTILINE))
    assert "unanswered_call" in documented
    assert {case.values[0] for case in CASES} == documented


# -- the doc example and the messages -----------------------------------------------------


def test_doc_example_one_result_missing_before_the_next_user_turn() -> None:
    """user, two calls, one result, user: the second call is unanswered, said in full."""
    history = [
        ChatMessage.user("Weather in Paris and Rome?"),
        ChatMessage.assistant_tool_calls(
            [
                ToolCall("call_1", "get_weather", {"city": "Paris"}),
                ToolCall("call_2", "get_weather", {"city": "Rome"}),
            ]
        ),
        ChatMessage.tool_result("call_1", "18 C"),
        ChatMessage.user("And tomorrow?"),
    ]
    problems = check_transcript(history)
    assert [str(problem) for problem in problems] == [
        "messages[1].tool_calls[1]: unanswered_call: call 'call_2' (get_weather) has no tool result before "
        "messages[3] (user); every call must be answered right after its assistant turn"
    ]
    assert problems == [Problem(1, "messages[1].tool_calls[1]", "unanswered_call", problems[0].message)]


def test_a_clean_loop_has_no_problem_with_any_target() -> None:
    """A whole loop (system, user, two calls answered out of order, answer, user) is fine everywhere."""
    loop = [SYSTEM, ASK, CALLS, R2, R1, ANSWER, AGAIN]
    assert check_transcript(loop) == []
    for target in CODECS:
        assert check_transcript(loop, target=target, tools=[WEATHER_TOOL, TIME_TOOL]) == []


@pytest.mark.parametrize(
    ("messages", "options", "code", "parts"),
    [
        ([ASK, CALLS, R1, AGAIN], {}, "unanswered_call", ["'call_2'", "get_time", "messages[3]", "(user)"]),
        ([ASK, CALLS, R1], {}, "unanswered_call", ["'call_2'", "by the end of the transcript"]),
        ([ASK, CALLS, R1, R2, R1], {}, "duplicate_result", ["'call_1'", "messages[2]"]),
        ([ASK, CALL_WEATHER, AGAIN, R1], {}, "late_result", ["'call_1'", "messages[1]"]),
        ([ASK, R1], {}, "result_before_call", ["'call_1'"]),
        ([ASK, CALL_WEATHER, R1, result("call_9")], {}, "orphan_result", ["'call_9'"]),
        (
            [ASK, CALL_WEATHER, R1, call("call_1"), R1],
            {},
            "duplicate_call_id",
            ["'call_1'", "messages[1].tool_calls[0]"],
        ),
        ([ASK, CALL_WEATHER, R1], {"tools": [TIME_TOOL]}, "unknown_tool", ["'get_weather'"]),
        ([ASK], {"tools": [TIME_TOOL, TIME_TOOL]}, "duplicate_tool", ["'get_time'"]),
        ([ASK], {"tools": [{"name": ""}]}, "invalid_tool", ["must match", "''"]),
        ([ASK, call(ID_41), result(ID_41)], {"target": "openai"}, "id_too_long", ["41", "40"]),
        ([ASK, call("call.1"), result("call.1")], {"target": "anthropic"}, "invalid_call_id", ["'call.1'"]),
        ([ASK, call(name="a b"), result()], {"target": "anthropic"}, "invalid_tool_name", ["'a b'"]),
        (
            [ASK, call(arguments="[1]"), R1],
            {"target": "ollama"},
            "invalid_arguments",
            ["JSON object", "array"],
        ),
        ([ChatMessage.user(" ")], {"target": "anthropic"}, "empty_text", ["user", "' '"]),
        (
            [ASK, CALLS, R1, AGAIN],
            {"target": "gemini"},
            "result_count_mismatch",
            ["2 calls", "1 tool result "],
        ),
        (
            [ASK, CALL_WEATHER, AGAIN],
            {"target": "gemini"},
            "result_count_mismatch",
            ["1 call ", "0 tool results"],
        ),
        ([SYSTEM, CALL_WEATHER, R1], {"target": "gemini"}, "misplaced_call_turn", ["first turn"]),
        (
            [ASK, ANSWER, CALL_WEATHER, R1],
            {"target": "gemini"},
            "misplaced_call_turn",
            ["after an assistant turn"],
        ),
        ([], {"target": "ollama"}, "empty_transcript", ["ollama"]),
        ([SYSTEM], {"target": "gemini"}, "no_conversation", ["gemini"]),
        (
            [ASK, ChatMessage("assistant", "x", provider_data={"ollama": 5})],
            {"target": "ollama"},
            "not_convertible",
            ["toolturns.ollama.to_request", "5"],
        ),
    ],
)
def test_problem_messages_name_the_ids_names_and_counts(
    messages: list[Any], options: dict[str, Any], code: str, parts: list[str]
) -> None:
    """The sentence of a problem names what is wrong: the id, the tool, the counts, the other index."""
    problem = next(problem for problem in check_transcript(messages, **options) if problem.code == code)
    for part in parts:
        assert part in problem.message


def test_an_unanswered_call_before_a_message_that_does_not_read_says_so() -> None:
    """A dict with an unreadable role still closes the exchange; the sentence says what came."""
    problems = check_transcript([ASK, CALL_WEATHER, {"role": 5, "content": "x"}])
    assert [(p.index, p.code) for p in problems] == [(1, "unanswered_call"), (2, "invalid_message")]
    assert "before messages[2] (a message that does not read)" in problems[0].message


# -- the tool exchanges in detail ---------------------------------------------------------


@pytest.mark.parametrize(
    "closer",
    [
        ChatMessage.user("Hello?"),
        ChatMessage.assistant("Still looking."),
        ChatMessage.system("Be brief."),
        ChatMessage.developer("Be brief."),
        ChatMessage.assistant_tool_calls([ToolCall("call_3", "get_time")]),
    ],
    ids=["user", "assistant", "system", "developer", "call turn"],
)
def test_any_non_tool_message_closes_the_exchange(closer: ChatMessage) -> None:
    """A result after any other message, system included, is late and its call unanswered."""
    problems = found([ASK, CALL_WEATHER, closer, R1, *([result("call_3")] if closer.tool_calls else [])])
    assert problems == [
        (1, "messages[1].tool_calls[0]", "unanswered_call"),
        (3, "messages[3].tool_call_id", "late_result"),
    ]


def test_results_in_any_order_answer_their_calls() -> None:
    """Results may come in any order after their turn."""
    assert check_transcript([ASK, CALLS, R2, R1, ANSWER]) == []


def test_pending_call_turn_at_the_end_is_fine_unless_refused() -> None:
    """A transcript ending on its call turn is fine by default; allow_pending=False reports every call."""
    asked = [SYSTEM, ASK, CALLS]
    assert check_transcript(asked) == []
    assert check_transcript(asked, allow_pending=True) == []
    assert found(asked, allow_pending=False) == [
        (2, "messages[2].tool_calls[0]", "unanswered_call"),
        (2, "messages[2].tool_calls[1]", "unanswered_call"),
    ]


def test_a_transcript_ending_with_some_results_reports_the_missing_ones_either_way() -> None:
    """Results started coming: the transcript no longer ends on the call turn, so the rest are unanswered."""
    for allow_pending in (True, False):
        assert found([ASK, CALLS, R2], allow_pending=allow_pending) == [
            (1, "messages[1].tool_calls[0]", "unanswered_call")
        ]


def test_a_call_turn_not_at_the_end_is_never_pending() -> None:
    """An unanswered call turn followed by a system message at the end is not the pending turn."""
    assert found([ASK, CALL_WEATHER, SYSTEM]) == [(1, "messages[1].tool_calls[0]", "unanswered_call")]


def test_pending_rule_is_about_the_last_turn_only() -> None:
    """An earlier unanswered turn is reported even when the transcript ends on a pending one."""
    assert found([ASK, CALL_WEATHER, AGAIN, call("call_3")]) == [
        (1, "messages[1].tool_calls[0]", "unanswered_call")
    ]


def test_late_result_then_a_second_one_is_a_duplicate() -> None:
    """The late result counts as the answer: a further result for the call is a duplicate."""
    assert found([ASK, CALL_WEATHER, AGAIN, R1, R1]) == [
        (1, "messages[1].tool_calls[0]", "unanswered_call"),
        (3, "messages[3].tool_call_id", "late_result"),
        (4, "messages[4].tool_call_id", "duplicate_result"),
    ]


def test_result_for_a_call_of_the_previous_turn_inside_the_next_exchange_is_late() -> None:
    """Call turn, another call turn right after it, then a result of the first: unanswered and late."""
    assert found([ASK, CALL_WEATHER, call("call_3"), result("call_3"), R1]) == [
        (1, "messages[1].tool_calls[0]", "unanswered_call"),
        (4, "messages[4].tool_call_id", "late_result"),
    ]


def test_result_for_a_call_made_later_is_not_an_answer() -> None:
    """A result before the turn that makes its call answers nothing; the later call is then unanswered."""
    assert found([ASK, call("call_3"), result("call_3"), R1, call("call_1"), AGAIN]) == [
        (3, "messages[3].tool_call_id", "orphan_result"),
        (4, "messages[4].tool_calls[0]", "unanswered_call"),
    ]


def test_a_reused_call_id_is_answered_by_the_results_of_its_own_turn() -> None:
    """The second turn reusing an id gets duplicate_call_id once; its own result answers it."""
    assert found([ASK, CALL_WEATHER, R1, call("call_1"), R1, call("call_1")]) == [
        (3, "messages[3].tool_calls[0].id", "duplicate_call_id"),
        (5, "messages[5].tool_calls[0].id", "duplicate_call_id"),
    ]


def test_an_unreadable_tool_result_still_answers_its_call() -> None:
    """A result dict with a bad content but a string id is invalid_message only, not also unanswered_call."""
    transcript = [ASK, CALL_WEATHER, {"role": "tool", "tool_call_id": "call_1", "content": 18}, ANSWER]
    assert found(transcript) == [(2, "messages[2].content", "invalid_message")]
    assert found(transcript, target="gemini") == [(2, "messages[2].content", "invalid_message")]


def test_an_unreadable_tool_result_without_a_string_id_answers_nothing() -> None:
    """Without a string tool_call_id the result cannot answer: its call is unanswered (and Gemini counts it)."""
    transcript = [ASK, CALL_WEATHER, {"role": "tool", "tool_call_id": 1, "content": "18 C"}, ANSWER]
    assert found(transcript) == [
        (1, "messages[1].tool_calls[0]", "unanswered_call"),
        (2, "messages[2].tool_call_id", "invalid_message"),
    ]
    assert "result_count_mismatch" not in codes(transcript, target="gemini")


def test_an_unreadable_result_with_an_empty_id_answers_nothing_and_is_not_judged() -> None:
    """A result dict whose tool_call_id is "" is invalid_message alone: "" is no id to look up."""
    transcript = [ASK, CALL_WEATHER, R1, {"role": "tool", "tool_call_id": "", "content": "x"}, ANSWER]
    assert found(transcript) == [(3, "messages[3].tool_call_id", "invalid_message")]


def test_results_after_an_unreadable_call_turn_are_not_judged() -> None:
    """The calls of a turn that does not read are unknown: its results are neither orphans nor early."""
    bad_turn = {
        "role": "assistant",
        "content": None,
        "tool_calls": [ToolCall("call_1", "get_weather").to_wire()] * 2,
    }
    assert found([ASK, bad_turn, R1, ANSWER]) == [(1, "messages[1].tool_calls[1].id", "invalid_message")]
    # Judging resumes at the next turn: a result after it is an orphan again.
    assert found([ASK, CALL_WEATHER, R1, bad_turn, R1, ANSWER, result("call_9")]) == [
        (3, "messages[3].tool_calls[1].id", "invalid_message"),
        (6, "messages[6].tool_call_id", "orphan_result"),
    ]


def test_an_item_that_is_not_a_mapping_is_a_problem_and_checking_continues() -> None:
    """None, a list, a string, a number: each an invalid_message at its index; the rest is still checked."""
    transcript = [None, ASK, "hello", CALL_WEATHER, R1, 5, R1, [1]]
    assert found(transcript) == [
        (0, "messages[0]", "invalid_message"),
        (2, "messages[2]", "invalid_message"),
        (5, "messages[5]", "invalid_message"),
        (6, "messages[6].tool_call_id", "duplicate_result"),
        (7, "messages[7]", "invalid_message"),
    ]


def test_message_dicts_and_chat_messages_mix() -> None:
    """Raw wire dicts (a Mapping that is not a dict too) read like the ChatMessages they describe."""
    mixed: list[Any] = [SYSTEM.to_wire(), ASK, Frozen(**CALLS.to_wire()), R1.to_wire(), R2, ANSWER.to_wire()]
    assert check_transcript(mixed) == []
    assert check_transcript(mixed, target="gemini") == []
    assert found([*mixed[:4], AGAIN.to_wire()]) == [(2, "messages[2].tool_calls[1]", "unanswered_call")]


def test_response_shaped_dicts_read() -> None:
    """A response message with refusal/annotations and null content beside its calls reads fine."""
    response = {
        "role": "assistant",
        "content": None,
        "refusal": None,
        "annotations": [],
        "tool_calls": [WEATHER.to_wire()],
    }
    assert check_transcript([ASK.to_wire(), response, R1.to_wire()], target="openai") == []


def test_problems_come_sorted_by_index_with_none_first_and_stable_within_an_index() -> None:
    """Tool problems first; an unanswered call found at its close still comes before a later orphan."""
    problems = found(
        [{"role": "user"}, ASK, CALLS, result("call_9"), AGAIN],
        tools=[{"name": "get weather"}, TIME_TOOL, TIME_TOOL],
        target="gemini",
    )
    assert problems == [
        (None, "tools[0].name", "invalid_tool"),
        (None, "tools[2].name", "duplicate_tool"),
        (0, "messages[0].content", "invalid_message"),
        (2, "messages[2].tool_calls[0]", "unanswered_call"),
        (2, "messages[2].tool_calls[1]", "unanswered_call"),
        (2, "messages[2]", "result_count_mismatch"),
        (2, "messages[2].tool_calls[0].function.name", "unknown_tool"),
        (3, "messages[3].tool_call_id", "orphan_result"),
    ]


def test_invalid_tools_and_unknown_calls_together() -> None:
    """A tool that does not read defines no name: calls to it are unknown too."""
    assert found(
        [ASK, CALL_WEATHER, R1],
        tools=[{"type": "function", "function": {"name": "get_weather", "parameters": []}}],
    ) == [
        (None, "tools[0].function.parameters", "invalid_tool"),
        (1, "messages[1].tool_calls[0].function.name", "unknown_tool"),
    ]


def test_tools_as_a_tuple_and_empty() -> None:
    """tools may be a tuple; an empty list defines no tool, so every call is unknown; None checks nothing."""
    assert check_transcript([ASK, CALL_WEATHER, R1], tools=(WEATHER_TOOL,)) == []
    assert codes([ASK, CALL_WEATHER, R1], tools=[]) == ["unknown_tool"]
    assert check_transcript([ASK, CALL_WEATHER, R1], tools=None) == []


# -- target rules in detail ----------------------------------------------------------------


def test_empty_transcript_only_with_a_target() -> None:
    """No messages: fine without a target, empty_transcript (index None, path messages) with each."""
    assert check_transcript([]) == []
    assert check_transcript(()) == []
    for target in CODECS:
        assert found([], target=target) == [(None, "messages", "empty_transcript")]


@pytest.mark.parametrize("target", ["openai", "ollama"])
def test_only_system_messages_is_fine_for_openai_and_ollama(target: str) -> None:
    """OpenAI and Ollama send system messages as messages: no no_conversation for them."""
    assert check_transcript([SYSTEM, ChatMessage.developer("Be kind.")], target=target) == []


def test_no_conversation_is_not_reported_beside_an_unreadable_message() -> None:
    """A message that does not read may be the conversation: only invalid_message is reported."""
    assert found([SYSTEM, {"role": "usr", "content": "hi"}], target="anthropic") == [
        (1, "messages[1].role", "invalid_message")
    ]


@pytest.mark.parametrize(
    ("messages", "target"),
    [
        ([ASK, call(ID_41), result(ID_41)], "anthropic"),
        ([ASK, call(ID_41), result(ID_41)], "gemini"),
        ([ASK, call(ID_41), result(ID_41)], "ollama"),
        ([ASK, call("call.1"), result("call.1")], "openai"),
        ([ASK, call("call.1"), result("call.1")], "gemini"),
        ([ASK, call(arguments="[1]"), R1], "openai"),
        ([ASK, call(arguments='{"a": 1, "a": 1e-400}'), R1], "openai"),
        ([ASK, call(arguments='{"a": 1, "a": 1e-400}'), R1], None),
        ([ASK, call(name="get.weather"), R1], "gemini"),
        ([ASK, call(name="get weather"), R1], "ollama"),
        ([ASK, call(name="1weather"), R1], "openai"),
        ([ChatMessage.user(" "), ANSWER], "openai"),
        ([ChatMessage.user(""), ANSWER], "gemini"),
        ([ASK, ChatMessage.assistant("Sunny. ")], "openai"),
        ([ASK, CALLS, R1, AGAIN], None),
        ([ASK, ANSWER, CALL_WEATHER, R1], "openai"),
        ([SYSTEM], "ollama"),
    ],
)
def test_a_target_rule_applies_to_its_targets_only(messages: list[Any], target: str | None) -> None:
    """Each provider rule is reported for the providers that have it, not for the others."""
    target_codes = {
        "id_too_long",
        "invalid_call_id",
        "invalid_arguments",
        "inexact_arguments",
        "invalid_tool_name",
        "empty_text",
        "trailing_whitespace",
        "result_count_mismatch",
        "misplaced_call_turn",
        "no_conversation",
    }
    assert not target_codes & set(codes(messages, target=target))


def test_openai_ids_of_exactly_40_characters_pass_and_41_do_not() -> None:
    """The limit is 40 characters inclusive."""
    assert check_transcript([ASK, call("x" * 40), result("x" * 40)], target="openai") == []
    assert codes([ASK, call("x" * 41), result("x" * 41)], target="openai") == ["id_too_long"]


def test_names_at_the_edges_of_the_patterns() -> None:
    """64 characters pass, 65 do not (Anthropic: 128 and 129); Gemini allows dots and colons, not a leading digit or dash."""
    for target in ("openai", "anthropic", "gemini"):
        assert check_transcript([ASK, call(name="a" * 64), R1], target=target) == []
    assert codes([ASK, call(name="get_weather:v1.2"), R1], target="gemini") == []
    assert codes([ASK, call(name="get_weather:v1.2"), R1], target="openai") == ["invalid_tool_name"]
    assert codes([ASK, call(name="9lives"), R1], target="openai") == []
    assert codes([ASK, call(name="-dash"), R1], target="gemini") == ["invalid_tool_name"]
    assert codes([ASK, call(name="ü"), R1], target="openai") == ["invalid_tool_name"]
    assert codes([ASK, call(name="a\n"), R1], target="openai") == ["invalid_tool_name"]
    assert codes([ASK, call(name="a" * 65), R1], target="ollama") == []
    # Anthropic has taken names up to 128 characters since mid 2025.
    assert codes([ASK, call(name="a" * 65), R1], target="openai") == ["invalid_tool_name"]
    assert codes([ASK, call(name="a" * 128), R1], target="anthropic") == []
    assert codes([ASK, call(name="a" * 129), R1], target="anthropic") == ["invalid_tool_name"]


def test_tool_definition_names_are_checked_against_the_target() -> None:
    """Tool definitions readable by Tool but outside Gemini's pattern are invalid_tool_name for gemini only."""
    tools: list[Any] = [Tool("1weather"), {"type": "function", "function": {"name": "2time"}}]
    messages = [ASK, call(name="1weather"), R1]
    assert found(messages, tools=tools, target="gemini") == [
        (None, "tools[0].name", "invalid_tool_name"),
        (None, "tools[1].function.name", "invalid_tool_name"),
        (1, "messages[1].tool_calls[0].function.name", "invalid_tool_name"),
    ]
    assert check_transcript(messages, tools=tools, target="openai") == []
    assert check_transcript(messages, tools=tools) == []


@pytest.mark.parametrize("target", ["anthropic", "gemini", "ollama"])
@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ('{"a": 1, "a": 2}', "", "repeated key 'a'"),
        ('{"x": {"a": 1, "\\u0061": 2}}', ".x", "repeated key 'a'"),
        ('{"x": 1e-400}', ".x", "the number 1e-400 would be sent as 0.0"),
        (
            '{"x": 12345678901234567890.5}',
            ".x",
            "the number 12345678901234567890.5 would be sent as 1.2345678901234567e+19",
        ),
    ],
)
def test_inexact_arguments_say_what_an_object_would_change(
    target: str, text: str, where: str, what: str
) -> None:
    """Each object wire reports the key or number, where it is, and how to send the text exactly;
    a dict message reads the same; the codec refuses what the check reports."""
    messages: list[Any] = [ASK, call(arguments=text), R1]
    path = f"messages[1].tool_calls[0].function.arguments{where}"
    problems = check_transcript(messages, target=target)
    assert [str(problem) for problem in problems] == [
        f"{path}: inexact_arguments: {what}: {target} carries arguments as an object, which holds one value "
        "per key and numbers as doubles, so this text cannot be sent as it is "
        "(keep_invalid_arguments=True sends it exactly, wrapped)"
    ]
    assert check_transcript([m.to_wire() for m in messages], target=target) == problems
    assert check_transcript(messages) == []
    assert check_transcript(messages, target="openai") == []
    with pytest.raises(MessageError):
        CODECS[target].to_request(messages)


def test_a_huge_integer_is_exact_for_every_target() -> None:
    """Integers of any size travel as they are: no inexact_arguments."""
    messages = [ASK, call(arguments='{"id": 123456789012345678901234567890}'), R1]
    for target in CODECS:
        assert check_transcript(messages, target=target) == []


def test_empty_argument_spellings_are_an_object_for_object_wires() -> None:
    """Empty, whitespace-only and null argument text mean {}: no invalid_arguments."""
    for text in ("", "  ", "null", "{}"):
        for target in ("anthropic", "gemini", "ollama"):
            assert check_transcript([ASK, call(arguments=text), R1], target=target) == []


@pytest.mark.parametrize(
    ("messages", "problems"),
    [
        ([ChatMessage.user(""), ANSWER], [0]),
        ([ChatMessage.user(" \t\n"), ANSWER], [0]),
        ([ASK, ChatMessage.assistant(""), AGAIN], [1]),
        ([ASK, ChatMessage.assistant("  "), AGAIN], [1]),
        ([ASK, ChatMessage.assistant("")], []),
        ([ASK, ChatMessage.assistant(" ")], [1]),
        ([ASK, ChatMessage.assistant("\n\n")], [1]),
        ([ASK, ChatMessage.assistant_tool_calls([WEATHER], ""), R1], []),
        ([ASK, ChatMessage.assistant_tool_calls([WEATHER], "\n"), R1], [1]),
        ([ASK, ChatMessage.assistant_tool_calls([WEATHER], " ")], [1]),
        ([ASK, ChatMessage.assistant_tool_calls([WEATHER])], []),
        ([ChatMessage.system(""), ASK], []),
        ([ChatMessage.system(" "), ASK], [0]),
        ([ChatMessage.developer(""), ASK], []),
        ([ChatMessage.developer("\t"), ASK], [0]),
        ([ASK, CALL_WEATHER, result(content=""), ANSWER], []),
        ([ASK, CALL_WEATHER, result(content=" "), ANSWER], []),
        ([ChatMessage.user(" x "), ChatMessage.assistant(" y\n"), ChatMessage.user("z ")], []),
        ([ChatMessage.user(""), ChatMessage.assistant(""), ChatMessage.system(" "), ASK], [0, 1, 2]),
    ],
)
def test_anthropic_empty_text(messages: list[ChatMessage], problems: list[int]) -> None:
    """Anthropic: empty or blank user text, non-final empty assistant text, blank call-turn and system text."""
    assert found(messages, target="anthropic") == [
        (index, f"messages[{index}].content", "empty_text") for index in problems
    ]


@pytest.mark.parametrize(
    ("last", "flagged"),
    [
        (ChatMessage.assistant("Sunny. "), True),
        (ChatMessage.assistant("Sunny.\n"), True),
        (ChatMessage.assistant("Sunny.\t "), True),
        (ChatMessage.assistant(" Sunny."), False),
        (ChatMessage.assistant("Sunny."), False),
        (ChatMessage.user("Sunny? "), False),
        (ChatMessage.assistant_tool_calls([WEATHER], "Let me look. "), False),
    ],
)
def test_anthropic_trailing_whitespace_on_the_final_assistant_text(last: ChatMessage, flagged: bool) -> None:
    """Only a final assistant text turn without calls may not end in whitespace."""
    expected = [(1, "messages[1].content", "trailing_whitespace")] if flagged else []
    assert found([ASK, last], target="anthropic") == expected


def test_anthropic_trailing_whitespace_only_on_the_final_message() -> None:
    """An earlier assistant text ending in whitespace is fine."""
    assert check_transcript([ASK, ChatMessage.assistant("Sunny. "), AGAIN], target="anthropic") == []


AFTER_SYSTEM = pytest.mark.parametrize(
    "after", [SYSTEM, ChatMessage.developer("Be kind.")], ids=["system", "developer"]
)


@AFTER_SYSTEM
def test_anthropic_empty_final_assistant_text_before_trailing_system_messages(after: ChatMessage) -> None:
    """System messages go to the top-level system: an empty assistant text before them is the final
    message Anthropic gets, allowed as when it is last."""
    empty_last = [ASK, ChatMessage.assistant(""), after]
    assert anthropic.to_request(empty_last)["messages"][-1] == {"role": "assistant", "content": ""}
    assert check_transcript(empty_last, target="anthropic") == []


@AFTER_SYSTEM
def test_anthropic_trailing_whitespace_before_trailing_system_messages(after: ChatMessage) -> None:
    """System messages go to the top-level system: assistant text ending in whitespace before them is
    the final message Anthropic gets, refused as when it is last."""
    spaced = [ASK, ChatMessage.assistant("Sunny. "), after]
    assert anthropic.to_request(spaced)["messages"][-1] == {"role": "assistant", "content": "Sunny. "}
    assert found(spaced, target="anthropic") == [(1, "messages[1].content", "trailing_whitespace")]


def test_gemini_a_call_turn_after_a_message_that_does_not_read_is_not_misplaced() -> None:
    """The unreadable message may be the user turn: only invalid_message, as no_conversation is not
    reported beside one either."""
    assert found([{"role": "user", "content": 5}, CALL_WEATHER, R1], target="gemini") == [
        (0, "messages[0].content", "invalid_message")
    ]


def test_gemini_result_count_not_checked_on_a_pending_call_turn() -> None:
    """The final call turn without results is pending: no result_count_mismatch, unless refused."""
    assert check_transcript([ASK, CALLS], target="gemini") == []
    assert found([ASK, CALLS], target="gemini", allow_pending=False) == [
        (1, "messages[1].tool_calls[0]", "unanswered_call"),
        (1, "messages[1].tool_calls[1]", "unanswered_call"),
        (1, "messages[1]", "result_count_mismatch"),
    ]


def test_gemini_counts_results_that_answer_nothing() -> None:
    """Two calls, two results of which one is an orphan: the count matches, the call is unanswered."""
    assert found([ASK, CALLS, R1, result("call_9"), AGAIN], target="gemini") == [
        (1, "messages[1].tool_calls[1]", "unanswered_call"),
        (3, "messages[3].tool_call_id", "orphan_result"),
    ]


@pytest.mark.parametrize(
    ("messages", "misplaced"),
    [
        ([ASK, CALL_WEATHER, R1, call("call_3"), result("call_3")], []),
        ([SYSTEM, ASK, SYSTEM, CALL_WEATHER, R1], []),
        ([ASK, CALL_WEATHER, R1, ANSWER, call("call_3"), result("call_3")], [4]),
        ([CALL_WEATHER, R1, ANSWER], [0]),
        ([ChatMessage.developer("x"), CALL_WEATHER, R1], [1]),
    ],
)
def test_gemini_call_turn_placement(messages: list[ChatMessage], misplaced: list[int]) -> None:
    """After a user turn or results (system messages between do not count); never first or after the model."""
    assert found(messages, target="gemini") == [
        (index, f"messages[{index}]", "misplaced_call_turn") for index in misplaced
    ]


def test_not_convertible_only_when_nothing_else_was_found() -> None:
    """The codec is asked last: with another problem present, its refusal is not reported."""
    odd = ChatMessage("assistant", "Sunny.", provider_data={"anthropic": 5})
    assert codes([ASK, odd], target="anthropic") == ["not_convertible"]
    assert codes([ChatMessage.user(""), odd], target="anthropic") == ["empty_text"]
    assert codes([ASK, odd, R1], target="anthropic") == ["result_before_call"]
    assert check_transcript([ASK, odd], target="openai") == []
    assert check_transcript([ASK, odd]) == []


def test_not_convertible_sees_the_tools_given() -> None:
    """A clean transcript with clean tools is clean for every target, its codec's last word included."""
    messages = [ASK, CALLS, R1, R2]
    for target in CODECS:
        assert check_transcript(messages, target=target, tools=[WEATHER_TOOL, TIME_TOOL]) == []


# -- argument validation -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "options", "path"),
    [
        ("hello", {}, "messages"),
        (None, {}, "messages"),
        (iter([ASK]), {}, "messages"),
        ({"role": "user", "content": "hi"}, {}, "messages"),
        (ASK, {}, "messages"),
        ([ASK], {"target": "OpenAI"}, "target"),
        ([ASK], {"target": "claude"}, "target"),
        ([ASK], {"target": ""}, "target"),
        ([ASK], {"target": 5}, "target"),
        ([ASK], {"target": ["openai"]}, "target"),
        ([ASK], {"tools": WEATHER_TOOL}, "tools"),
        ([ASK], {"tools": {"name": "f"}}, "tools"),
        ([ASK], {"tools": "get_weather"}, "tools"),
        ([ASK], {"allow_pending": 1}, "allow_pending"),
        ([ASK], {"allow_pending": None}, "allow_pending"),
        ([ASK], {"allow_pending": "yes"}, "allow_pending"),
    ],
)
def test_called_wrongly_raises_invalid_transcript_naming_the_argument(
    arguments: Any, options: dict[str, Any], path: str
) -> None:
    """A non-list messages, unknown target, tools not a list, allow_pending not a bool: InvalidTranscript."""
    with pytest.raises(InvalidTranscript) as caught:
        check_transcript(arguments, **options)
    assert caught.value.path == path
    assert isinstance(caught.value, MessageError)
    assert str(caught.value).startswith(f"{path}: must be ")


def test_invalid_transcript_message_lists_the_targets() -> None:
    """An unknown target's error names the valid ones and the value given."""
    with pytest.raises(InvalidTranscript) as caught:
        check_transcript([ASK], target="claude")
    for name in ("'openai'", "'anthropic'", "'gemini'", "'ollama'", "'claude'"):
        assert name in str(caught.value)


# -- the caller's data ----------------------------------------------------------------------


def test_input_is_never_mutated() -> None:
    """Messages, dicts and tool dicts are the same before and after, whatever is found."""
    messages: list[Any] = [
        SYSTEM.to_wire(),
        {"role": "user", "content": ""},
        CALLS.to_wire(),
        {"role": "tool", "tool_call_id": "call_1", "content": 18},
        {"role": "assistant", "content": None, "tool_calls": [], "weight": 0},
        R2,
        5,
        ChatMessage("assistant", "x", provider_data={"anthropic": {"items": []}}),
    ]
    tools: list[Any] = [{"type": "function", "function": {"name": "get_weather"}}, {"name": "x y"}]
    before = copy.deepcopy((messages, tools))
    for target in (None, *CODECS):
        check_transcript(messages, target=target, tools=tools)
        assert (messages, tools) == before


def test_a_tuple_of_messages_is_accepted() -> None:
    """messages may be a tuple."""
    assert check_transcript(tuple(LOOP)) == []
    assert found((ASK, CALLS, R1)) == [(1, "messages[1].tool_calls[1]", "unanswered_call")]


def test_returns_a_fresh_list_each_time() -> None:
    """The result is a new list the caller may change."""
    first = check_transcript([ASK, R1])
    first.clear()
    assert codes([ASK, R1]) == ["result_before_call"]


# -- Problem -----------------------------------------------------------------------------------


def test_problem_str_is_path_code_message() -> None:
    """str(p) == f"{p.path}: {p.code}: {p.message}"."""
    problem = Problem(2, "messages[2].tool_call_id", "orphan_result", "answers no call")
    assert str(problem) == "messages[2].tool_call_id: orphan_result: answers no call"
    assert str(Problem(None, "messages", "empty_transcript", "x")) == "messages: empty_transcript: x"


def test_problem_is_a_value() -> None:
    """Problems compare and hash by value, and differ when any field differs."""
    problem = Problem(2, "messages[2].tool_call_id", "orphan_result", "answers no call")
    same = Problem(2, "messages[2].tool_call_id", "orphan_result", "answers no call")
    assert problem == same
    assert hash(problem) == hash(same)
    assert len({problem, same}) == 1
    for changed in (
        dataclasses.replace(problem, index=3),
        dataclasses.replace(problem, index=None),
        dataclasses.replace(problem, path="messages[2]"),
        dataclasses.replace(problem, code="late_result"),
        dataclasses.replace(problem, message="another sentence"),
    ):
        assert changed != problem
    text: object = str(problem)
    assert problem != text
    assert (problem.index, problem.path, problem.code, problem.message) == (
        2,
        "messages[2].tool_call_id",
        "orphan_result",
        "answers no call",
    )


def test_problem_is_frozen_and_slotted() -> None:
    """Assigning or deleting any attribute raises FrozenInstanceError; there is no __dict__."""
    problem = Problem(0, "messages[0]", "invalid_message", "x")
    for name in ("index", "path", "code", "message", "other"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(problem, name, 1)
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(problem, name)
    assert not hasattr(problem, "__dict__")
    assert set(Problem.__slots__) == {"index", "path", "code", "message"}


def test_problem_pickles_and_shows_its_public_name() -> None:
    """A Problem pickles to an equal one; its repr shows every field."""
    problem = check_transcript([ASK, R1])[0]
    assert pickle.loads(pickle.dumps(problem)) == problem
    assert repr(problem).startswith(
        "Problem(index=1, path='messages[1].tool_call_id', code='result_before_call'"
    )
    assert Problem.__module__ == "toolturns"


# -- the tool list read once for equal lists ------------------------------------------------


def test_an_equal_tool_list_gives_the_same_problems_again() -> None:
    """Checking many transcripts with the same tools (as a dataset's lines) reports the tools' problems each time."""
    tools: list[Any] = [{"type": "function", "function": {"name": "get_weather"}}, {"function": {"name": ""}}]
    runs = [
        check_transcript([ASK, CALL_WEATHER, R1], tools=copy.deepcopy(tools), target="openai")
        for _ in range(4)
    ]
    assert all(run == runs[0] for run in runs)
    assert [p.code for p in runs[0]] == ["invalid_tool"]
    assert check_transcript([ASK, CALL_WEATHER, R1], tools=copy.deepcopy(tools)) == runs[0]  # another target


def test_a_tool_list_changed_after_a_check_is_read_again() -> None:
    """The remembered list is a copy: changing the caller's list in place is seen by the next check."""
    tools: list[Any] = [{"type": "function", "function": {"name": "get_weather"}}]
    assert check_transcript([ASK, CALL_WEATHER, R1], tools=tools) == []
    tools[0]["function"]["name"] = "get_time"
    assert codes([ASK, CALL_WEATHER, R1], tools=tools) == ["unknown_tool"]
    assert codes([ASK, CALL_WEATHER, R1], tools=tools, target="gemini") == ["unknown_tool"]


def _bounded(minimum: object) -> list[dict[str, Any]]:
    parameters = {"type": "object", "properties": {"n": {"type": "number", "minimum": minimum}}}
    return [{"type": "function", "function": {"name": "get_weather", "parameters": parameters}}]


def test_a_tool_list_equal_only_by_pythons_equality_is_read_again() -> None:
    """True == 1 in Python, but "minimum": true is no number: the list remembered for 1 is not taken
    for the one with true, and 1.0 is shown as written."""
    for _ in range(3):  # remembered from the second time on
        assert check_transcript([ASK, CALL_WEATHER, R1], tools=_bounded(1)) == []
    problem = check_transcript([ASK, CALL_WEATHER, R1], tools=_bounded(True))[
        0
    ]  # and the call to a tool that did not read
    assert (problem.path, problem.code) == (
        "tools[0].function.parameters.properties.n.minimum",
        "invalid_tool",
    )
    assert check_transcript([ASK, CALL_WEATHER, R1], tools=_bounded(1.0)) == []


class _Uncomparable(dict[str, Any]):
    """A tool dict whose comparison fails."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no comparing")

    __hash__ = None


class _Uncopyable(dict[str, Any]):
    """A tool dict that refuses to be copied."""

    def __deepcopy__(self, memo: object) -> Any:
        raise RuntimeError("no copying")


def test_tool_values_that_cannot_be_compared_or_copied_are_read_each_time() -> None:
    """A tool list that fails to compare or to copy is simply read again; only Problems come out."""
    for _ in range(3):  # a fresh, equal list each time: the second would be remembered
        uncopyable = [_Uncopyable({"type": "function", "function": {"name": "get_time"}})]
        assert codes([ASK, CALL_WEATHER, R1], tools=uncopyable) == ["unknown_tool"]
    for _ in range(3):
        uncomparable = [_Uncomparable({"type": "function", "function": {"name": "get_time"}})]
        assert codes([ASK, CALL_WEATHER, R1], tools=uncomparable) == ["unknown_tool"]
