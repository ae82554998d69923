"""Speed of toolturns' tool runner against calling the functions by hand.

Row L1: W1's assistant turn (3 tool calls, arguments of 4-6 keys, nested,
non-ASCII; see bench_wire.py) answered with one result per call.

- toolturns: ``run_calls(turn, toolbox)``, the toolbox built once from three
  typed functions (``Toolbox(search_flights, get_weather, translate)``): each
  call's tool looked up, its arguments decoded, checked against the schema
  ``Tool.from_function`` gave (nested TypedDicts, lists, numbers) and bound,
  the function called, its return value turned into a tool result
  ``ChatMessage``.
- baseline: the loop people write by hand: a dict of functions,
  ``json.loads`` of each call's argument text, ``function(**arguments)``,
  ``json.dumps`` of a non-str return value, a tool message dict. It checks
  nothing and catches nothing.

The functions return prebuilt values, so that both sides time the runner and
not the tools. Both sides are first checked to give the same results (ids and
contents); the run stops if not. Timing is bench_wire.py's: interleaved
samples, GC off, the ratio as the median of the per-round ratios.

Run from the repository root::

    python benchmarks/bench_loop.py            # about 5 s
    python benchmarks/bench_loop.py --quick    # about 1 s, for a smoke test
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypedDict

import bench_wire

import toolturns
from toolturns import ChatMessage, Toolbox, ToolCall, openai, run_calls

# -- the tools: W1's three, typed as a user would type them --------------------------


class Passenger(TypedDict):
    name: str
    age: int


class Filters(TypedDict):
    max_stops: int
    airlines: list[str]
    refundable: bool


class Location(TypedDict):
    lat: float
    lon: float


_FLIGHTS = json.loads(bench_wire.RESULTS[0][1])
_WEATHER = bench_wire.RESULTS[1][1]
_TRANSLATION = bench_wire.RESULTS[2][1]


def search_flights(
    origin: str, destination: str, date: str, passengers: list[Passenger], cabin: str, filters: Filters
) -> list[dict[str, Any]]:
    """Search flights between two cities."""
    return _FLIGHTS  # type: ignore[no-any-return]


def get_weather(city: str, units: str, days: int, fields: list[str], location: Location) -> str:
    """The weather forecast for a city."""
    return _WEATHER


def translate(text: str, source: str, target: str, glossary: dict[str, Any]) -> str:
    """Translate a text."""
    return _TRANSLATION


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "search_flights": search_flights,
    "get_weather": get_weather,
    "translate": translate,
}

# -- the contenders ---------------------------------------------------------------------


def make_turn() -> ChatMessage:
    """W1's assistant turn, its arguments as the model's JSON text."""
    return ChatMessage.assistant_tool_calls(
        [ToolCall(id, name, bench_wire.model_json(arguments)) for id, name, arguments in bench_wire.CALLS]
    )


def tt_l1(turn: ChatMessage, toolbox: Toolbox) -> list[ChatMessage]:
    return run_calls(turn, toolbox)


def base_l1(calls: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """By hand: look the function up, decode, call, encode, answer."""
    results = []
    for call in calls:
        function = call["function"]
        value = FUNCTIONS[function["name"]](**json.loads(function["arguments"]))
        content = (
            value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        )
        results.append({"role": "tool", "content": content, "tool_call_id": call["id"]})
    return results


def check_same_output(turn: ChatMessage, toolbox: Toolbox, calls: Sequence[dict[str, Any]]) -> None:
    """Stop the run unless both sides give the same results, none of them an error."""
    ours = tt_l1(turn, toolbox)
    if any(result.is_error for result in ours):
        raise SystemExit(f"L1: toolturns answered with an error: {[r.content for r in ours if r.is_error]}")
    if [result.to_wire() for result in ours] != base_l1(calls):
        raise SystemExit("L1: toolturns and the baseline give different results")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a short run (fewer, shorter samples)")
    parser.add_argument("--repeat", type=int, help="samples per contender (default 41, quick 7)")
    options = parser.parse_args(argv)
    repeat = options.repeat or (7 if options.quick else 41)
    seconds = 0.01 if options.quick else 0.05

    turn = make_turn()
    toolbox = Toolbox(search_flights, get_weather, translate)
    calls = turn.to_wire()["tool_calls"]
    check_same_output(turn, toolbox, calls)
    row = bench_wire.Row(
        "L1 3 calls -> run_calls -> 3 results", lambda: tt_l1(turn, toolbox), lambda: base_l1(calls)
    )

    print(
        f"toolturns {toolturns.__version__}, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.machine()}, {os.cpu_count()} CPUs"
    )
    print(f"{repeat} interleaved samples of ~{seconds * 1000:.0f} ms per contender; GC off while timing")
    print()
    result = bench_wire.measure(row, repeat=repeat, seconds=seconds)
    header = f"{'row':<42}{'toolturns µs':>14}{'(median)':>10}{'baseline µs':>13}{'(median)':>10}{'ratio':>8}"
    print(header)
    print("-" * len(header))
    print(
        f"{row.name:<42}{min(result.toolturns) * 1e6:>14.1f}{statistics.median(result.toolturns) * 1e6:>10.1f}"
        f"{min(result.baseline) * 1e6:>13.1f}{statistics.median(result.baseline) * 1e6:>10.1f}"
        f"{statistics.median(result.ratios()):>7.2f}x"
    )
    # For scale: what the codec costs on the same turn, the step before run_calls in a loop.
    response = {"choices": [{"index": 0, "message": turn.to_wire(null_content=True)}]}
    read = bench_wire.Row("", lambda: openai.from_response(response), lambda: None)
    codec = bench_wire.measure(read, repeat=repeat, seconds=seconds)
    print()
    print(
        f"For scale, openai.from_response of this turn: {statistics.median(codec.toolturns) * 1e6:.1f} µs "
        "(median)."
    )
    print("µs per operation: best sample (min), then the median; ratio: the median of the per-round ratios.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
