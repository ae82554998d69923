"""What a StreamAssembler keeps is its own: changing the fed items afterwards changes nothing.

An assembler keeps parts of what it was fed (a block's start, a part, a call,
usage, a message key it does not model) and reads them again when asked for
the message or a snapshot. A caller that reuses or edits its dicts after
feeding them must not change, or break, what was assembled.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.conftest import wire_examples
from toolturns import InvalidStream, MessageError, anthropic, gemini, ollama, openai
from toolturns.providers._stream import Assembler

_OPENAI = [
    {
        "id": "chatcmpl-1",
        "choices": [
            {
                "index": 0,
                "delta": {
                    "role": "assistant",
                    "content": "",
                    "annotations": [{"type": "url_citation", "url_citation": {"url": "https://a.example"}}],
                    "audio": {"id": "audio_1", "transcript": ["one"]},
                },
                "finish_reason": None,
            }
        ],
    },
    {
        "id": "chatcmpl-1",
        "choices": [
            {
                "index": 0,
                "delta": {
                    "content": "Hi",
                    "annotations": [{"type": "url_citation", "url_citation": {"url": "https://b.example"}}],
                    "audio": {"id": "audio_1", "transcript": ["one"]},
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": '{"city": '},
                            "thought_signature": {"signed": ["yes"]},
                        }
                    ],
                },
                "finish_reason": None,
            }
        ],
    },
    {
        "choices": [
            {"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": '"Paris"}'}}]}}
        ]
    },
    {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    {"choices": [], "usage": {"total_tokens": 9, "completion_tokens_details": {"reasoning_tokens": 2}}},
]

_ANTHROPIC = [
    {
        "type": "message_start",
        "message": {
            "type": "message",
            "role": "assistant",
            "content": [],
            "usage": {"input_tokens": 3, "cache_creation": {"ephemeral_5m_input_tokens": 0}},
        },
    },
    {
        "type": "content_block_start",
        "index": 0,
        "content_block": {"type": "thinking", "thinking": "", "signature": ""},
    },
    {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Hm."}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "c2ln"}},
    {"type": "content_block_stop", "index": 0},
    {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": "Let "}},
    {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "me."}},
    {"type": "content_block_stop", "index": 1},
    {
        "type": "content_block_start",
        "index": 2,
        "content_block": {
            "type": "tool_use",
            "id": "toolu_1",
            "name": "get_weather",
            "input": {},
            "caller": {"type": "direct"},
        },
    },
    {
        "type": "content_block_delta",
        "index": 2,
        "delta": {"type": "input_json_delta", "partial_json": '{"city": "Pa'},
    },
    {
        "type": "content_block_delta",
        "index": 2,
        "delta": {"type": "input_json_delta", "partial_json": 'ris"}'},
    },
    {"type": "content_block_stop", "index": 2},
    {
        "type": "content_block_start",
        "index": 3,
        "content_block": {"type": "tool_use", "id": "toolu_2", "name": "ping", "input": {"host": "a"}},
    },
    {"type": "content_block_stop", "index": 3},
    {
        "type": "content_block_start",
        "index": 4,
        "content_block": {"type": "compaction", "summary": {"kept": [1]}},
    },
    {
        "type": "content_block_delta",
        "index": 4,
        "delta": {"type": "compaction_delta", "content": {"more": [2]}},
    },
    {"type": "content_block_stop", "index": 4},
    {
        "type": "message_delta",
        "delta": {"stop_reason": "tool_use"},
        "usage": {"output_tokens": 20, "server_tool_use": {"web_search_requests": 0}},
    },
    {"type": "message_stop"},
]

_GEMINI = [
    {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"text": "Let me "}, {"text": "see.", "thoughtSignature": "c2ln"}],
                }
            }
        ],
        "responseId": "r1",
    },
    {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [
                        {"executableCode": {"language": "PYTHON", "code": "print(1)"}},
                        {
                            "functionCall": {
                                "name": "get_weather",
                                "args": {"city": "Paris", "days": [1, 2]},
                            },
                            "thoughtSignature": "c2lnMg==",
                        },
                        {
                            "functionCall": {
                                "name": "get_time",
                                "id": "fc_1",
                                "args": {"zone": {"name": "CET"}},
                            }
                        },
                    ],
                },
                "finishReason": "STOP",
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 3,
            "totalTokenCount": 9,
            "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 3}],
        },
        "responseId": "r1",
    },
]

_OLLAMA = [
    {
        "model": "m",
        "created_at": "2025-07-07T20:22:19Z",
        "message": {"role": "assistant", "content": "Let ", "thinking": "Hm"},
        "done": False,
    },
    {
        "model": "m",
        "created_at": "2025-07-07T20:22:20Z",
        "message": {
            "role": "assistant",
            "content": "me.",
            "tool_calls": [
                {"function": {"name": "get_weather", "arguments": {"city": "Paris", "days": [1, 2]}}},
                {"id": "call_2", "function": {"name": "get_time", "arguments": {"zone": {"name": "CET"}}}},
            ],
        },
        "done": False,
    },
    {
        "model": "m",
        "created_at": "2025-07-07T20:22:21Z",
        "message": {"role": "assistant", "content": ""},
        "done": True,
        "done_reason": "stop",
        "eval_count": 7,
    },
]


def _golden(provider: str) -> list[list[Any]]:
    streams = []
    for example in wire_examples(provider, "stream_chunks"):
        if example.get("vertex_only"):
            continue
        items = [item for item in example["data"] if item != "[DONE]"]
        streams.append([item["data"] if "event" in item else item for item in items])
    return streams


_STREAMS = [
    pytest.param(openai.StreamAssembler, _OPENAI, id="openai"),
    pytest.param(anthropic.StreamAssembler, _ANTHROPIC, id="anthropic"),
    pytest.param(gemini.StreamAssembler, _GEMINI, id="gemini"),
    pytest.param(ollama.StreamAssembler, _OLLAMA, id="ollama"),
    *(
        pytest.param(make, items, id=f"{make.__module__.split('.')[2]}-golden-{number}")
        for make in (openai.StreamAssembler, anthropic.StreamAssembler, ollama.StreamAssembler)
        for number, items in enumerate(_golden(make.__module__.split(".")[2]))
    ),
]


def _containers(value: Any) -> Iterator[dict[Any, Any] | list[Any]]:
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _containers(item)
    elif isinstance(value, list):
        yield value
        for item in value:
            yield from _containers(item)


def wreck(items: list[Any]) -> None:
    """Change every dict and list of ``items`` in place: each value a wrong one, each list emptied."""
    for container in list(_containers(items)):
        if isinstance(container, dict):
            for key in container:
                container[key] = 5
        else:
            container.clear()


def outcome(read: Callable[[], object]) -> object:
    try:
        return read()
    except MessageError as error:
        return type(error), str(error)


def assembled(stream: Assembler) -> tuple[object, ...]:
    """Everything an assembler tells: message, snapshot, finish reason, usage, end."""
    return (
        outcome(stream.message),
        outcome(stream.snapshot),
        stream.finish_reason,
        stream.usage,
        stream.ended,
    )


@pytest.mark.parametrize(("make", "items"), _STREAMS)
def test_changing_what_was_fed_changes_nothing_assembled(
    make: Callable[[], Assembler], items: list[Any]
) -> None:
    """Every dict and list of the fed items changed afterwards: message, snapshot and usage are as before."""
    fed = copy.deepcopy(items)
    stream, twin = make(), make()
    for item, same in zip(fed, copy.deepcopy(items), strict=True):
        stream.feed(item)
        twin.feed(same)
    before = assembled(stream)
    assert before[0] == twin.message()
    wreck(fed)
    assert assembled(stream) == before == assembled(twin)


def test_a_changed_block_start_does_not_break_the_anthropic_message() -> None:
    """The text block's start changed after feeding: message() still joins the text it was fed."""
    start: dict[str, Any] = {"type": "text", "text": "Hel"}
    stream = anthropic.StreamAssembler()
    stream.feed({"type": "message_start", "message": {"role": "assistant", "content": []}})
    stream.feed({"type": "content_block_start", "index": 0, "content_block": start})
    stream.feed({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "lo"}})
    start["text"] = 5
    assert stream.message().content == "Hello"
    start["type"] = "tool_use"
    assert stream.snapshot().content == "Hello"


def test_changed_gemini_arguments_stay_as_they_came() -> None:
    """A functionCall's args changed after feeding: the call keeps the arguments it came with."""
    args: dict[str, Any] = {"city": "Paris"}
    stream = gemini.StreamAssembler()
    stream.feed(
        {
            "candidates": [
                {"content": {"role": "model", "parts": [{"functionCall": {"name": "f", "args": args}}]}}
            ]
        }
    )
    args["city"] = "Rome"
    args["extra"] = [1]
    assert stream.message().tool_calls[0].arguments == {"city": "Paris"}  # type: ignore[index]
    assert stream.snapshot().tool_calls[0].arguments_json == '{"city":"Paris"}'


def test_usage_is_a_copy() -> None:
    """The usage an assembler reports is its own: the fed usage changed later does not change it."""
    usage: dict[str, Any] = {"total_tokens": 9, "details": {"cached": 1}}
    stream = openai.StreamAssembler()
    stream.feed({"choices": [], "usage": usage})
    usage["details"]["cached"] = 2
    assert stream.usage == {"total_tokens": 9, "details": {"cached": 1}}


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"k": [value]}
    return value


def test_a_kept_value_too_deep_to_copy_is_refused_with_its_path() -> None:
    """A kept value nested past toolturns' JSON depth limit (or circular) is refused where it came, not copied forever."""
    circular: dict[str, Any] = {}
    circular["self"] = circular
    for value in (_nested(400), circular):
        stream = openai.StreamAssembler()
        with pytest.raises(InvalidStream) as caught:
            stream.feed({"choices": [], "usage": {"details": value}})
        assert caught.value.path == "item[0].usage"
        assert caught.value.rule.startswith("must nest at most 500 levels")
    stream = openai.StreamAssembler()
    stream.feed({"choices": [], "usage": {"details": _nested(200)}})
    assert stream.usage == {"details": _nested(200)}


def test_tuples_are_copied_too() -> None:
    """A dict inside a tuple (inside a tuple) is copied, and the tuples stay tuples."""
    inner: dict[str, Any] = {"cached": 1}
    usage: dict[str, Any] = {"details": (inner, ((inner,), 2))}
    stream = openai.StreamAssembler()
    stream.feed({"choices": [], "usage": usage})
    inner["cached"] = 2
    assert stream.usage == {"details": ({"cached": 1}, (({"cached": 1},), 2))}
    assert stream.usage is not None
    assert type(stream.usage["details"][1][0]) is tuple
