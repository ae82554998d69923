"""A character outside the BMP that a stream split between two chunks ("\\ud83d" then "\\ude00") is one character."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolturns import anthropic, gemini, ollama, openai
from toolturns.providers._stream import Assembler

HIGH, LOW = json.loads('"\\ud83d"'), json.loads('"\\ude00"')  # as json.loads reads each chunk
FACE = "\U0001f600"


def _openai(text: list[str], arguments: list[str]) -> tuple[Assembler, list[dict[str, Any]]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    start = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "f", "arguments": ""}}
    items = [chunk({"role": "assistant", "content": piece}) for piece in text]
    items.append(chunk({"tool_calls": [start]}))
    items += [chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]}) for piece in arguments]
    items.append(chunk({}, "tool_calls"))
    return openai.StreamAssembler(), items


def _anthropic(text: list[str], arguments: list[str]) -> tuple[Assembler, list[dict[str, Any]]]:
    items: list[dict[str, Any]] = [
        {"type": "message_start", "message": {"role": "assistant", "content": []}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    ]
    items += [
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece}}
        for piece in text
    ]
    items.append({"type": "content_block_stop", "index": 0})
    tool_use = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}
    items.append({"type": "content_block_start", "index": 1, "content_block": tool_use})
    items += [
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": piece},
        }
        for piece in arguments
    ]
    items += [{"type": "content_block_stop", "index": 1}, {"type": "message_stop"}]
    return anthropic.StreamAssembler(), items


def _gemini(text: list[str], arguments: list[str]) -> tuple[Assembler, list[dict[str, Any]]]:
    # Gemini sends each call whole: only text streams in pieces.
    items: list[dict[str, Any]] = [
        {"candidates": [{"content": {"role": "model", "parts": [{"text": piece}]}}]} for piece in text
    ]
    items.append({"candidates": [{"content": {"role": "model", "parts": []}, "finishReason": "STOP"}]})
    return gemini.StreamAssembler(), items


def _ollama(text: list[str], arguments: list[str]) -> tuple[Assembler, list[dict[str, Any]]]:
    items: list[dict[str, Any]] = [
        {"message": {"role": "assistant", "content": piece}, "done": False} for piece in text
    ]
    items.append({"message": {"role": "assistant", "content": ""}, "done": True, "done_reason": "stop"})
    return ollama.StreamAssembler(), items


@pytest.mark.parametrize("build", [_openai, _anthropic, _gemini, _ollama], ids=lambda b: b.__name__[1:])
def test_a_surrogate_pair_split_between_chunks_is_one_character(build: Any) -> None:
    """In the text (every assembler) and in argument text (where arguments stream), live and assembled."""
    assembler, items = build(["Look ", HIGH, LOW + "!"], ['{"mood": "', HIGH, LOW + '"}'])
    for item in items:
        assembler.feed(item)
    turn = assembler.message()
    assert turn.content == f"Look {FACE}!"
    assert assembler.snapshot().content == f"Look {FACE}!"
    if turn.tool_calls:
        assert turn.tool_calls[0].arguments == {"mood": FACE}
        assert assembler.snapshot().tool_calls[0].arguments_json == '{"mood": "' + FACE + '"}'


def test_a_lone_surrogate_stays_as_it_came() -> None:
    """Only a pair becomes a character: a lone half (a stream cut between them) is kept, not dropped."""
    assembler, items = _ollama(["Look ", HIGH], [])
    for item in items:
        assembler.feed(item)
    assert assembler.message().content == "Look " + HIGH
