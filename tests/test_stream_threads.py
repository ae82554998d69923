"""snapshot() from another thread while one thread feeds: nothing fed is ever lost.

A UI thread takes snapshots while the network thread feeds. docs/streaming.md
says what is thread-safe: one thread feeds; snapshot() may be called from any
thread at any time.
"""

from __future__ import annotations

import importlib
import json
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.conftest import DATA
from toolturns import StreamSnapshot, anthropic, gemini, ollama, openai, responses
from toolturns.providers import PROVIDERS, _stream
from toolturns.providers._stream import Assembler


def _openai_text(text: str) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]}


def _openai_arguments(text: str) -> dict[str, Any]:
    delta = {"tool_calls": [{"index": 0, "function": {"arguments": text}}]}
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]}


def _anthropic_text(text: str) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}


def _anthropic_arguments(text: str) -> dict[str, Any]:
    return {
        "type": "content_block_delta",
        "index": 1,
        "delta": {"type": "input_json_delta", "partial_json": text},
    }


def _gemini_text(text: str) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}}]}


def _ollama_text(text: str) -> dict[str, Any]:
    return {"message": {"role": "assistant", "content": text}, "done": False}


def _recorded_responses(name: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = json.loads((DATA / "responses" / f"{name}.json").read_text("utf-8"))[
        "events"
    ]
    return events


# The Responses API streams typed events: each case opens as a recorded stream opens, up to its
# first delta, and is then fed that delta event again and again with other text in it.
_RESPONSES_TEXT = _recorded_responses("stream_text")
_RESPONSES_CALL = _recorded_responses("stream_function_call")
_RESPONSES_TEXT_OPENING = _RESPONSES_TEXT[:4]  # created, in_progress, the message item, its output_text part
_RESPONSES_CALL_OPENING = _RESPONSES_CALL[:3]  # created, in_progress, the function_call item


def _responses_delta(recorded: dict[str, Any]) -> Callable[[str], dict[str, Any]]:
    return lambda text: {**recorded, "delta": text}


@dataclass
class Case:
    """A stream opened by ``opening``, then fed fragments by ``fragment``; ``shown`` reads them back."""

    make: Callable[[], Assembler]
    opening: list[dict[str, Any]]
    fragment: Callable[[str], dict[str, Any]]
    shown: Callable[[StreamSnapshot], str]

    def opened(self) -> Assembler:
        stream = self.make()
        for item in self.opening:
            stream.feed(item)
        return stream


def _content(snapshot: StreamSnapshot) -> str:
    return snapshot.content


def _arguments(snapshot: StreamSnapshot) -> str:
    return snapshot.tool_calls[0].arguments_json


_OPENAI_CALL: dict[str, Any] = {
    "choices": [
        {
            "index": 0,
            "delta": {
                "role": "assistant",
                "tool_calls": [
                    {"index": 0, "id": "c", "type": "function", "function": {"name": "f", "arguments": ""}}
                ],
            },
            "finish_reason": None,
        }
    ]
}
_ANTHROPIC_OPENING: list[dict[str, Any]] = [
    {"type": "message_start", "message": {"role": "assistant", "content": []}},
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {
        "type": "content_block_start",
        "index": 1,
        "content_block": {"type": "tool_use", "id": "t", "name": "f", "input": {}},
    },
]

CASES = [
    pytest.param(Case(openai.StreamAssembler, [], _openai_text, _content), id="openai-text"),
    pytest.param(
        Case(openai.StreamAssembler, [_OPENAI_CALL], _openai_arguments, _arguments), id="openai-arguments"
    ),
    pytest.param(
        Case(anthropic.StreamAssembler, _ANTHROPIC_OPENING, _anthropic_text, _content), id="anthropic-text"
    ),
    pytest.param(
        Case(anthropic.StreamAssembler, _ANTHROPIC_OPENING, _anthropic_arguments, _arguments),
        id="anthropic-arguments",
    ),
    pytest.param(Case(gemini.StreamAssembler, [], _gemini_text, _content), id="gemini-text"),
    pytest.param(Case(ollama.StreamAssembler, [], _ollama_text, _content), id="ollama-text"),
    pytest.param(
        Case(
            responses.StreamAssembler, _RESPONSES_TEXT_OPENING, _responses_delta(_RESPONSES_TEXT[4]), _content
        ),
        id="responses-text",
    ),
    pytest.param(
        Case(
            responses.StreamAssembler,
            _RESPONSES_CALL_OPENING,
            _responses_delta(_RESPONSES_CALL[3]),
            _arguments,
        ),
        id="responses-arguments",
    ),
]


def test_every_wire_has_a_case() -> None:
    """A wire added to the registry is not left out of these tests."""
    assert {str(param.id).split("-")[0] for param in CASES} == set(PROVIDERS)


def _joins(monkeypatch: pytest.MonkeyPatch, meanwhile: Callable[[], None]) -> list[object]:
    """Make every join of fragments run ``meanwhile`` on another thread, once, right after joining.

    That is the moment a snapshot that joins fragments and stores the result
    back would overwrite what the other thread fed in between.
    """
    calls: list[object] = []
    real = _stream.joined

    def joined_then_feed(fragments: Any) -> str:
        text = real(fragments)
        calls.append(fragments)
        if len(calls) == 1:
            other = threading.Thread(target=meanwhile)
            other.start()
            other.join()
        return text

    for module in [
        _stream,
        *(importlib.import_module(f"toolturns.providers.{name}.stream") for name in PROVIDERS),
    ]:
        if getattr(module, "joined", None) is real:
            monkeypatch.setattr(module, "joined", joined_then_feed)
    return calls


@pytest.mark.parametrize("case", CASES)
def test_a_fragment_fed_while_a_snapshot_joins_is_kept(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    """The feeding thread appends a fragment while a snapshot joins the ones before: it is never lost."""
    stream = case.opened()
    for text in ("a", "b"):
        stream.feed(case.fragment(text))
    joins = _joins(monkeypatch, lambda: stream.feed(case.fragment("c")))
    first = case.shown(stream.snapshot())
    assert joins, "the snapshot joined no fragments: the test did not reach the moment it is about"
    assert first in ("ab", "abc")
    assert case.shown(stream.snapshot()) == "abc"
    stream.feed(case.fragment("d"))
    assert case.shown(stream.snapshot()) == "abcd"


@pytest.mark.parametrize("case", CASES)
def test_snapshots_from_another_thread_while_feeding(case: Case) -> None:
    """One thread feeds thousands of fragments while another snapshots without pause, the
    interpreter switching threads as often as it can: every snapshot shows a prefix of the
    stream, and in the end every fragment is there, in order."""
    stream = case.opened()
    fragments = [f"{number % 10}" for number in range(3000)]
    done = threading.Event()

    def feed() -> None:
        try:
            for text in fragments:
                stream.feed(case.fragment(text))
        finally:
            done.set()  # even if feeding failed: the snapshots stop, and the checks below say so

    seen: list[str] = []
    feeder = threading.Thread(target=feed)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        feeder.start()
        while not done.is_set():
            seen.append(case.shown(stream.snapshot()))
        feeder.join()
    finally:
        sys.setswitchinterval(interval)
    whole = "".join(fragments)
    assert case.shown(stream.snapshot()) == whole
    assert all(whole.startswith(text) for text in seen)
    assert [len(text) for text in seen] == sorted(len(text) for text in seen)
