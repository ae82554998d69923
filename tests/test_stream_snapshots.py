"""snapshot() is incremental: a UI taking one after every item pays for what came since the last.

Asserted by how the cost grows, never by an absolute time: a stream of 4x the
items, with a snapshot after each, must cost well under 8x (16x is what a
snapshot that rebuilds everything costs). The best of several runs is taken,
with the garbage collector off, so that a noisy machine cannot fail it.
"""

from __future__ import annotations

import functools
import gc
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest

from toolturns import MessageError, anthropic, gemini, ollama, openai
from toolturns.providers._stream import Assembler

Items = list[dict[str, Any]]


def _openai(units: int) -> Items:
    """Per unit: a text fragment, a call opened, two argument fragments."""
    items: Items = [
        {"id": "chatcmpl-1", "choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]}
    ]
    for unit in range(units):
        for delta in (
            {"content": f"Step {unit}. "},
            {
                "tool_calls": [
                    {
                        "index": unit,
                        "id": f"call_{unit}",
                        "type": "function",
                        "function": {"name": "f", "arguments": ""},
                    }
                ]
            },
            {"tool_calls": [{"index": unit, "function": {"arguments": '{"n": '}}]},
            {"tool_calls": [{"index": unit, "function": {"arguments": f"{unit}}}"}}]},
        ):
            items.append(
                {"id": "chatcmpl-1", "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
            )
    return items


def _anthropic(units: int) -> Items:
    """Per unit: a text block and a tool_use block, each started, streamed and stopped."""
    items: Items = [{"type": "message_start", "message": {"role": "assistant", "content": []}}]
    for unit in range(units):
        text, call = 2 * unit, 2 * unit + 1
        items += [
            {"type": "content_block_start", "index": text, "content_block": {"type": "text", "text": ""}},
            {
                "type": "content_block_delta",
                "index": text,
                "delta": {"type": "text_delta", "text": f"Step {unit}. "},
            },
            {"type": "content_block_stop", "index": text},
            {
                "type": "content_block_start",
                "index": call,
                "content_block": {"type": "tool_use", "id": f"toolu_{unit}", "name": "f", "input": {}},
            },
            {
                "type": "content_block_delta",
                "index": call,
                "delta": {"type": "input_json_delta", "partial_json": '{"n": '},
            },
            {
                "type": "content_block_delta",
                "index": call,
                "delta": {"type": "input_json_delta", "partial_json": f"{unit}}}"},
            },
            {"type": "content_block_stop", "index": call},
        ]
    return items


def _gemini(units: int) -> Items:
    """Per unit: a text part, a signed text part, a signed call without id (each a chunk of its own)."""
    parts = []
    for unit in range(units):
        parts += [
            {"text": f"Step {unit}. "},
            {"text": "", "thoughtSignature": "c2ln"},
            {"functionCall": {"name": "f", "args": {"n": unit}}, "thoughtSignature": "c2lnMg=="},
        ]
    return [
        {"candidates": [{"content": {"role": "model", "parts": [part]}}], "responseId": "r1"}
        for part in parts
    ]


def _ollama(units: int) -> Items:
    """Per unit: a text fragment, and a call without id."""
    items: Items = []
    for unit in range(units):
        items += [
            {
                "created_at": "2025-07-07T20:22:19Z",
                "message": {"role": "assistant", "content": f"Step {unit}. "},
                "done": False,
            },
            {
                "created_at": "2025-07-07T20:22:19Z",
                "message": {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [{"function": {"name": "f", "arguments": {"n": unit}}}],
                },
                "done": False,
            },
        ]
    return items


STREAMS = [
    pytest.param(openai.StreamAssembler, _openai, 400, id="openai"),
    pytest.param(anthropic.StreamAssembler, _anthropic, 300, id="anthropic"),
    pytest.param(gemini.StreamAssembler, _gemini, 150, id="gemini"),
    pytest.param(ollama.StreamAssembler, _ollama, 400, id="ollama"),
]


def _cost(make: Callable[[], Assembler], items: Items) -> float:
    """Seconds to feed ``items`` with a snapshot after each, the collector off."""
    stream = make()
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        for item in items:
            stream.feed(item)
            stream.snapshot()
        return time.perf_counter() - start
    finally:
        gc.enable()


@pytest.mark.parametrize(("make", "stream", "units"), STREAMS)
def test_a_snapshot_after_every_item_costs_linear_time(
    make: Callable[[], Assembler], stream: Callable[[int], Items], units: int
) -> None:
    """4x the items, a snapshot after each: well under 8x the time (best of several runs)."""
    small, large = stream(units), stream(4 * units)
    assert make().snapshot() is not None  # warm up: imports and first calls are not timed
    _cost(make, small)
    best_small = min(_cost(make, small) for _ in range(5))
    best_large = float("inf")
    for _ in range(5):
        best_large = min(best_large, _cost(make, large))
        if best_large < 6 * best_small:
            break  # clearly linear: no need to wait for more runs
    assert best_large / best_small < 8, f"{best_large / best_small:.1f}x for 4x the items"


# -- what an incremental snapshot shows: what a snapshot from scratch shows ---------------------


def _outcome(act: Callable[[], object]) -> object:
    try:
        return act()
    except MessageError as error:
        return type(error), str(error)


def assert_snapshots_agree(
    make: Callable[[], Assembler], items: Sequence[Any], points: Iterable[int]
) -> None:
    """Fed ``items``, an assembler snapshotting after every item shows at each of ``points`` (counts of
    items fed, the last always among them) what one snapshotting only at those points shows, and what
    a fresh assembler fed the same items shows at its first snapshot; each item is taken or refused
    alike by all. The message at each point is the fresh one's too: built after a snapshot, a
    message joins what it joined and what came since."""
    every, some = make(), make()
    points = {*points, len(items)}
    for count, item in enumerate(items, 1):
        taken = _outcome(functools.partial(every.feed, item))
        assert _outcome(functools.partial(some.feed, item)) == taken
        shown = _outcome(every.snapshot)
        if count in points:
            fresh = make()
            for earlier in items[:count]:
                _outcome(functools.partial(fresh.feed, earlier))
            # some's last snapshot was at the point before: its message joins what came since.
            assert _outcome(some.message) == _outcome(fresh.message)
            assert shown == _outcome(some.snapshot) == _outcome(fresh.snapshot)


@pytest.mark.parametrize(
    ("make", "stream"), [pytest.param(*param.values[:2], id=param.id) for param in STREAMS]
)
def test_a_message_after_snapshots_holds_what_came_since_the_last(
    make: Callable[[], Assembler], stream: Callable[[int], Items]
) -> None:
    """A snapshot every other item, and the message at each: what a stream never snapshotted gives."""
    items = stream(3)
    assert_snapshots_agree(make, items, range(1, len(items), 2))
