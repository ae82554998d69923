"""Seed inputs for each fuzz target, made from what the repository already holds.

Nothing here is stored as a corpus: the recorded provider examples
(``tests/data/wire_examples.json``), the example datasets (``examples/*.jsonl``)
and one tool loop written by each codec give every target valid inputs of its
own shape to start from, so the fuzzer spends its time past the first checks.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

from toolturns import AudioPart, ChatMessage, FilePart, ImagePart, MessageError, TextPart, ToolCall
from toolturns.providers import PROVIDERS

__all__ = ["ROOT", "seeds", "vocabulary"]

ROOT = Path(__file__).resolve().parent.parent


def _loop() -> list[ChatMessage]:
    """One tool loop with every shape a codec writes: system prompts, names and extra keys, parallel
    calls with normal, empty and malformed arguments, an ok and a failed result, a closing answer."""
    calls = [
        ToolCall("call_1", "get_weather", {"city": "Paris", "days": [1, 2], "metric": True}),
        ToolCall("functions.get_time:1", "get_time"),
        ToolCall("call_3", "search", '{"query": "rain'),
    ]
    return [
        ChatMessage.system("Be brief."),
        ChatMessage.developer("Use tools."),
        ChatMessage.user("Weather and time in Paris?", name="ann", extra={"weight": 1}),
        ChatMessage.assistant_tool_calls(calls, "Checking."),
        ChatMessage.tool_result("call_1", '{"temperature": 18}'),
        ChatMessage.tool_result("functions.get_time:1", "12:00"),
        ChatMessage.tool_result("call_3", "bad arguments", is_error=True),
        ChatMessage.assistant("18 degrees at noon."),
    ]


# A PNG's first bytes, and a PDF's: the image sniffers and the media type rules have real data.
_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ"
_PDF = "JVBERi0xLjcK"


def _parts_loop() -> list[ChatMessage]:
    """A tool loop with content parts: a user turn with an image, a file and audio, a tool
    result with a screenshot, an answer."""
    image = ImagePart(data=_PNG, media_type="image/png")
    return [
        ChatMessage.user(
            [
                image,  # images first: Ollama's order
                ImagePart(url="https://example.com/chart.png", detail="low"),
                TextPart("What is in these?"),
                FilePart(data=_PDF, media_type="application/pdf", filename="report.pdf"),
                AudioPart(data="UklGRg==", format="wav"),
            ]
        ),
        ChatMessage.assistant_tool_calls([ToolCall("call_1", "screenshot")]),
        ChatMessage.tool_result("call_1", [image, TextPart("The page:")]),
        ChatMessage.assistant("A chart."),
    ]


def _written(name: str, messages: list[ChatMessage]) -> list[Any]:
    """``messages`` as ``name``'s request, less each part its wire refuses (where the error says)."""
    codec = PROVIDERS[name].codec
    messages = list(messages)
    for _ in range(20):
        try:
            return [codec.to_request(messages, drop_unsupported=True)]
        except MessageError as error:
            found = re.match(r"messages\[(\d+)\]\.content\[(\d+)\]", error.path)
            if found is None:
                return []
            index, position = int(found[1]), int(found[2])
            content = messages[index].content
            assert isinstance(content, tuple)  # the error is at one of its parts
            rest = tuple(part for number, part in enumerate(content) if number != position)
            messages[index] = dataclasses.replace(messages[index], content=rest or "")
    return []


def _examples() -> list[dict[str, Any]]:
    examples: list[dict[str, Any]] = json.loads((ROOT / "tests/data/wire_examples.json").read_text("utf-8"))
    return examples


def _recorded_files(name: str, prefix: str) -> list[Any]:
    """The goldens of ``tests/data/<name>/`` whose file name starts with ``prefix`` (the wires
    recorded there rather than in wire_examples.json: OpenAI Responses)."""
    folder = ROOT / "tests" / "data" / name
    return [json.loads(path.read_text("utf-8")) for path in sorted(folder.glob(f"{prefix}*.json"))]


def _stream_items(example: dict[str, Any]) -> list[Any]:
    """A recorded stream as the items to feed: SSE envelopes opened, ``[DONE]`` left out."""
    items = [item["data"] if isinstance(item, dict) and "event" in item else item for item in example["data"]]
    if example["provider"] == "gemini":  # recorded as contents: a chunk holds one candidate
        items = [{"candidates": [{"content": item}]} for item in items]
    return [item for item in items if item != "[DONE]"]


# How each wire answers and streams is written per provider, by name, in _responses and
# _streams: a registered provider without its branch there raises (_unknown) when its
# targets' seeds are asked for, so a new wire cannot be fuzzed without seeds of its own.


def _unknown(name: str) -> KeyError:
    return KeyError(f"fuzz/seeds.py writes no responses or streams for the provider {name!r}: add them")


def _responses(name: str, loop: list[ChatMessage]) -> list[Any]:
    """Native responses for the assistant turns of ``loop``, as that provider answers them."""
    turns = [m for m in loop if m.role.value == "assistant"]
    made: list[Any] = []
    for turn in turns:
        if name == "openai":
            made.append({"object": "chat.completion", "choices": [{"index": 0, "message": turn.to_wire()}]})
            continue
        body = PROVIDERS[name].codec.to_request([ChatMessage.user("?"), turn], keep_invalid_arguments=True)
        if name == "anthropic":
            content = body["messages"][-1]["content"]
            made.append({"type": "message", "role": "assistant", "content": content})
        elif name == "gemini":
            made.append({"candidates": [{"content": body["contents"][-1], "finishReason": "STOP"}]})
        elif name == "ollama":
            made.append({"message": body["messages"][-1], "done": True, "created_at": "2025-01-01T00:00:00Z"})
        elif name == "responses":
            made.append({"object": "response", "status": "completed", "output": _output(body["input"][1:])})
        else:
            raise _unknown(name)
    return made


def _output(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Request items as a response's output items: text content as one ``output_text``, ids given."""
    output = []
    for number, item in enumerate(items):
        if item["type"] == "message" and isinstance(item["content"], str):
            text = {"type": "output_text", "text": item["content"], "annotations": []}
            item = {**item, "id": f"msg_{number}", "status": "completed", "content": [text]}
        elif item["type"] == "function_call":
            item = {**item, "id": f"fc_{number}", "status": "completed"}
        output.append(item)
    return output


def _halves(text: str) -> list[str]:
    """``text`` in two fragments, as a stream cuts it anywhere (an empty text stays one)."""
    middle = len(text) // 2
    return [text[:middle], text[middle:]] if middle else [text]


def _streams(name: str, loop: list[ChatMessage]) -> list[list[Any]]:
    """For each assistant turn of ``loop``, the items ``name`` would stream for it, fragments cut in two."""
    made = []
    for turn, body in zip(
        [m for m in loop if m.role.value == "assistant"], _responses(name, loop), strict=True
    ):
        calls = turn.tool_calls or ()
        items: list[Any]
        if name == "openai":

            def chunk(delta: dict[str, Any], reason: str | None = None) -> dict[str, Any]:
                entry = {"index": 0, "delta": delta, "finish_reason": reason}
                return {"object": "chat.completion.chunk", "choices": [entry]}

            items = [chunk({"role": "assistant", "content": ""})]
            items += [chunk({"content": piece}) for piece in _halves(turn.text)]
            for index, call in enumerate(calls):
                function = {"name": call.name, "arguments": ""}
                items.append(
                    chunk(
                        {
                            "tool_calls": [
                                {"index": index, "id": call.id, "type": "function", "function": function}
                            ]
                        }
                    )
                )
                items += [
                    chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
                    for piece in _halves(call.arguments_json)
                ]
            items.append(chunk({}, "tool_calls" if calls else "stop"))
            items.append({"object": "chat.completion.chunk", "choices": [], "usage": {"total_tokens": 9}})
        elif name == "anthropic":
            blocks = (
                body["content"]
                if isinstance(body["content"], list)
                else [{"type": "text", "text": body["content"]}]
            )
            # A thinking block first, as extended thinking streams it.
            blocks = [{"type": "thinking", "thinking": "Let me see.", "signature": "c2ln"}, *blocks]
            items = [
                {
                    "type": "message_start",
                    "message": {
                        "type": "message",
                        "role": "assistant",
                        "content": [],
                        "usage": {"input_tokens": 5},
                    },
                }
            ]
            for index, block in enumerate(blocks):
                kind = block["type"]
                start: dict[str, Any]
                if kind == "text":
                    start, deltas = {"type": "text", "text": ""}, [("text_delta", "text", block["text"])]
                elif kind == "tool_use":
                    start = {**block, "input": {}}
                    deltas = [("input_json_delta", "partial_json", json.dumps(block["input"]))]
                else:
                    start = {"type": "thinking", "thinking": "", "signature": ""}
                    deltas = [
                        ("thinking_delta", "thinking", block["thinking"]),
                        ("signature_delta", "signature", block["signature"]),
                    ]
                items.append({"type": "content_block_start", "index": index, "content_block": start})
                for kind_of_delta, key, text in deltas:
                    items += [
                        {
                            "type": "content_block_delta",
                            "index": index,
                            "delta": {"type": kind_of_delta, key: piece},
                        }
                        for piece in _halves(text)
                    ]
                items.append({"type": "content_block_stop", "index": index})
            reason = "tool_use" if calls else "end_turn"
            items += [
                {"type": "message_delta", "delta": {"stop_reason": reason}, "usage": {"output_tokens": 9}},
                {"type": "ping"},
                {"type": "message_stop"},
            ]
        elif name == "gemini":
            parts = []
            for part in body["candidates"][0]["content"]["parts"]:
                if set(part) == {"text"}:
                    parts += [{"text": piece} for piece in _halves(part["text"])]
                else:
                    parts.append(part)
            items = [
                {
                    "candidates": [{"content": {"role": "model", "parts": [part]}, "index": 0}],
                    "responseId": "r1",
                }
                for part in parts
            ]
            items.append(
                {
                    "candidates": [{"finishReason": "STOP", "index": 0}],
                    "usageMetadata": {"totalTokenCount": 9},
                    "responseId": "r1",
                }
            )
        elif name == "ollama":
            message = body["message"]

            def line(message: dict[str, Any], done: bool = False) -> dict[str, Any]:
                return {"model": "m", "created_at": "2025-01-01T00:00:00Z", "message": message, "done": done}

            items = [line({"role": "assistant", "content": piece}) for piece in _halves(message["content"])]
            if "tool_calls" in message:
                items.append(line({"role": "assistant", "content": "", "tool_calls": message["tool_calls"]}))
            items.append(
                {**line({"role": "assistant", "content": ""}, True), "done_reason": "stop", "eval_count": 9}
            )
        elif name == "responses":
            items = _events(body)
        else:
            raise _unknown(name)
        made.append(items)
    return made


def _events(response: dict[str, Any]) -> list[dict[str, Any]]:
    """The events the Responses API streams for ``response``: each item added, its text or
    argument text in two deltas, done; then the whole response."""
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": {**response, "status": "in_progress", "output": []}}
    ]
    for index, item in enumerate(response["output"]):
        where = {"output_index": index, "item_id": item["id"]}
        if item["type"] == "message":
            events.append(
                {
                    "type": "response.output_item.added",
                    "output_index": index,
                    "item": {**item, "content": [], "status": "in_progress"},
                }
            )
            for number, part in enumerate(item["content"]):
                events.append(
                    {
                        "type": "response.content_part.added",
                        **where,
                        "content_index": number,
                        "part": {**part, "text": ""},
                    }
                )
                events += [
                    {"type": "response.output_text.delta", **where, "content_index": number, "delta": piece}
                    for piece in _halves(part["text"])
                ]
        else:
            events.append(
                {
                    "type": "response.output_item.added",
                    "output_index": index,
                    "item": {**item, "arguments": "", "status": "in_progress"},
                }
            )
            events += [
                {"type": "response.function_call_arguments.delta", **where, "delta": piece}
                for piece in _halves(item["arguments"])
            ]
        events.append({"type": "response.output_item.done", "output_index": index, "item": item})
    events.append({"type": "response.completed", "response": response})
    return events


def _jsonl(name: str) -> list[Any]:
    lines = (ROOT / "examples" / name).read_text("utf-8").splitlines()
    values: list[Any] = []
    for line in lines[:12]:  # a dozen transcripts show every shape; the rest only slow the start
        try:
            values.append(json.loads(line))
        except ValueError:
            values.append(line)  # broken.jsonl has lines that are not JSON on purpose
    return values


def seeds(target: str) -> list[Any]:
    """The seed values of ``target``: JSON values, or SSE text for ``sse``."""
    examples = _examples()
    loop = _loop()
    name, _, kind = target.partition("_")
    if kind == "request":
        recorded = [e["data"] for e in examples if e["provider"] == name and e["kind"] == "request_messages"]
        recorded += _recorded_files(name, "request_")
        written = PROVIDERS[name].codec.to_request(loop, keep_invalid_arguments=True, drop_unsupported=True)
        return [*recorded, written, *_written(name, _parts_loop())]
    if kind == "response":
        recorded = [e["data"] for e in examples if e["provider"] == name and e["kind"] == "response_message"]
        recorded += _recorded_files(name, "response_")
        return [*recorded, *_responses(name, loop)]
    if kind == "stream":
        recorded = [
            _stream_items(e) for e in examples if e["provider"] == name and e["kind"] == "stream_chunks"
        ]
        recorded += [recorded_stream["events"] for recorded_stream in _recorded_files(name, "stream_")]
        return [*recorded, *_streams(name, loop)]
    if target == "message":
        return [m.to_wire() for m in [*loop, *_parts_loop()]] + [
            e["data"] for e in examples if e["provider"] == "openai" and e["kind"] == "response_message"
        ]
    if target == "sse":
        texts = []
        for example in examples:
            if example["kind"] == "stream_chunks":
                events = [
                    (f"event: {item['event']}\n" if isinstance(item, dict) and "event" in item else "")
                    + f"data: {json.dumps(item['data'] if isinstance(item, dict) and 'event' in item else item)}"
                    for item in example["data"]
                    if item != "[DONE]"
                ]
                texts.append("\n\n".join([": keep-alive", *events, "data: [DONE]"]) + "\n\n")
        return texts
    if target in _TOOL_SEEDS:
        return _TOOL_SEEDS[target]()
    if target in ("transcript", "trim", "repair"):
        return [
            *_jsonl("transcripts.jsonl"),
            *_jsonl("broken.jsonl"),
            {"messages": [m.to_wire() for m in loop], "max_messages": 4},
        ]
    raise KeyError(target)


def _mcp_results() -> list[Any]:
    """CallToolResults of every block kind (the MCP schema's), an error and a structured one."""
    png = "iVBORw0KGgo="
    return [
        {"content": [{"type": "text", "text": "18 degrees"}]},
        {"content": [{"type": "text", "text": "no such city"}], "isError": True},
        {"content": [], "structuredContent": {"degrees": 18}, "_meta": {"k": 1}},
        {
            "content": [
                {"type": "image", "data": png, "mimeType": "image/png", "annotations": {"priority": 1}},
                {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
                {
                    "type": "resource",
                    "resource": {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "A"},
                },
                {
                    "type": "resource",
                    "resource": {"uri": "file:///r.pdf", "mimeType": "application/pdf", "blob": "JVBERg=="},
                },
                {"type": "resource_link", "uri": "file:///d.csv", "name": "d.csv", "mimeType": "text/csv"},
            ],
            "resultType": "complete",
        },
    ]


def _mcp_tools() -> list[Any]:
    return [
        {
            "name": "get_weather",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
        {
            "name": "search",
            "title": "Search",
            "description": "Search the web.",
            "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
            "outputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": True},
            "_meta": {"x": 1},
        },
    ]


def _schemas() -> list[Any]:
    """Schemas of every keyword validate checks, with arguments that pass and that do not."""
    nested = {
        "type": "object",
        "$defs": {"stop": {"type": "object", "properties": {"city": {"type": "string", "minLength": 1}}}},
        "properties": {
            "days": {
                "type": "array",
                "items": {"type": "integer", "minimum": 1, "maximum": 7},
                "maxItems": 3,
            },
            "unit": {"enum": ["c", "f"]},
            "at": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}]},
            "stops": {"type": "array", "items": {"$ref": "#/$defs/stop"}},
            "when": {"anyOf": [{"type": "string", "pattern": "^[0-9]{4}-"}, {"type": "null"}]},
            "kind": {"oneOf": [{"const": 1}, {"type": "string"}]},
            "more": {"type": "object", "additionalProperties": {"type": "boolean"}},
        },
        "required": ["days"],
        "additionalProperties": False,
    }
    return [
        {"schema": nested, "arguments": {"days": [1, 2.0], "unit": "c", "stops": [{"city": "Rome"}]}},
        {
            "schema": nested,
            "arguments": {"days": [True], "kind": 1.0, "when": "2026-12-02", "more": {"a": 1}},
        },
        {
            "schema": {
                "type": "object",
                "properties": {"n": {"exclusiveMinimum": 0, "type": ["integer", "null"]}},
            },
            "arguments": {"n": 0},
        },
    ]


def _call_turns() -> list[Any]:
    turns = [m.to_wire() for m in _loop() if m.tool_calls]
    turns.append(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_a",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": 7}'},
                },
                {"id": "call_b", "type": "function", "function": {"name": "get_time", "arguments": ""}},
                {
                    "id": "call_c",
                    "type": "function",
                    "function": {"name": "search", "arguments": '{"q": "x"}'},
                },
            ],
        }
    )
    return turns


_TOOL_SEEDS = {
    "mcp_result": _mcp_results,
    "mcp_tool": _mcp_tools,
    "validate": _schemas,
    "run_calls": _call_turns,
}


def vocabulary(values: list[Any]) -> list[Any]:
    """Every key and short string of ``values``, for the mutator to put in new places."""
    found: set[str] = set()
    pending = list(values)
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            found.update(key for key in node if isinstance(key, str))
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
        elif isinstance(node, str) and len(node) <= 40:
            found.add(node)
    return sorted(found)
