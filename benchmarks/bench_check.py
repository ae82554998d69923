"""Speed of ``toolturns check`` on a JSONL dataset against a pass that only decodes each line.

Two datasets, each written to a temporary file:

- ``bundled``: ``examples/transcripts.jsonl`` (40 realistic tool-calling
  transcripts in the fine-tuning format, each with its 5 tool definitions)
  repeated to 100,000 lines;
- ``short``: 100,000 short lines, where the fixed cost of a line dominates:
  40% two-message chats (a question, an answer), the rest 4-8 message tool
  exchanges (a question, a turn of one or two calls with their results, an
  answer, sometimes a follow-up), each with the one tool it calls.

Each contender is a whole process, as a user runs it (the interpreter's
start and the imports included), reading the file line by line in binary:

- baseline: ``json.loads`` of every line, nothing else: the floor of any
  checker that reads the data at all;
- toolturns: ``python -m toolturns check --quiet FILE`` (reading, decoding,
  ``check_transcript`` with the line's tools, and the exit status), then
  again with ``--target anthropic`` (the structure plus Anthropic's rules and
  the codec's own acceptance).

- toolturns in worker processes: ``check --quiet --jobs 2 FILE`` (issue #17: at
  least 1.6x faster than the same command in one process, on 2 cores); the
  table adds its speed-up over ``toolturns check`` (``--jobs 1``), the best
  rounds and the median of the per-round ratios.

Both are first checked to agree that the file is clean (the command exits 0
and every line decodes). Each round runs the contenders one after the other,
interleaved; the ratio is toolturns / baseline per round, and the table shows
the best and median round.

Run from the repository root::

    python benchmarks/bench_check.py              # about 2 minutes
    python benchmarks/bench_check.py --rounds 5   # the figures in docs/performance.md, about 3 minutes
    python benchmarks/bench_check.py --quick      # 10,000 lines each, about 15 s
    python benchmarks/bench_check.py --memory     # peak memory of --jobs 1 and 2 on a 200 MB file

``--memory`` (Linux: it reads ``/proc``) writes about 200 MB of the bundled data
and runs ``check --jobs 1`` and ``--jobs 2`` over it, sampling the resident
memory of the command and of its worker processes every 10 ms: the peak of the
sum (issue #17's target: under 200 MB with ``--jobs 2``) and of the largest
single process.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import toolturns

SAMPLE = Path(__file__).resolve().parent.parent / "examples" / "transcripts.jsonl"


def write_dataset(path: Path, lines: int) -> int:
    """``lines`` lines cycling through the bundled sample; returns the file's size in bytes."""
    sample = SAMPLE.read_bytes().splitlines(keepends=True)
    with path.open("wb") as out:
        for number in range(lines):
            out.write(sample[number % len(sample)])
    return path.stat().st_size


def write_short_dataset(path: Path, lines: int, seed: int = 7) -> int:
    """``lines`` short lines (see the module's docstring); returns the file's size in bytes."""
    rng = random.Random(seed)
    tool = {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "The weather in a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
    cities = ["Lagos", "Reykjavík", "Zürich", "São Paulo", "Kyoto", "Oslo"]
    with path.open("w", encoding="utf-8") as out:
        for number in range(lines):
            question = {"role": "user", "content": f"How warm is {rng.choice(cities)} today?"}
            if rng.random() < 0.4:
                line: dict[str, Any] = {
                    "messages": [question, {"role": "assistant", "content": "About 20 degrees."}]
                }
            else:
                chosen = rng.sample(cities, rng.choice((1, 1, 2)))
                calls = [
                    {
                        "id": f"call_{number}_{k}",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": json.dumps({"city": city})},
                    }
                    for k, city in enumerate(chosen)
                ]
                messages = [question, {"role": "assistant", "content": None, "tool_calls": calls}]
                messages += [
                    {"role": "tool", "tool_call_id": call["id"], "content": '{"celsius": 21}'}
                    for call in calls
                ]
                messages.append({"role": "assistant", "content": "It is 21 degrees."})
                if rng.random() < 0.5:
                    messages += [
                        {"role": "user", "content": "Thanks!"},
                        {"role": "assistant", "content": "Welcome."},
                    ]
                line = {"messages": messages, "tools": [tool]}
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return path.stat().st_size


def baseline(path: Path) -> int:
    """In process (bench_peers.py's row): decode every line, keep nothing; how many lines decoded."""
    count = 0
    with path.open("rb") as lines:
        for line in lines:
            json.loads(line)
            count += 1
    return count


def check(path: Path, *options: str) -> int:
    """In process (bench_peers.py's row): the real command, its exit status."""
    from toolturns._cli import main as toolturns_main

    return toolturns_main(["check", "--quiet", *options, str(path)])


#: The baseline process: decode every line and keep nothing.
_BASELINE = """
import json, sys
with open(sys.argv[1], "rb") as lines:
    for line in lines:
        json.loads(line)
"""


def run(command: list[str]) -> tuple[float, int]:
    """One process, timed from its start to its end: (seconds, exit status)."""
    start = time.perf_counter()
    status = subprocess.run(command, check=False).returncode
    return time.perf_counter() - start, status


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="10,000 lines each instead of 100,000")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--memory", action="store_true", help="peak memory of --jobs 1 and 2 on 200 MB")
    options = parser.parse_args(argv)
    lines = 10_000 if options.quick else 100_000
    if options.memory:
        return memory()

    print(
        f"toolturns {toolturns.__version__}, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.machine()}, {os.cpu_count()} CPUs"
    )
    print(f"{options.rounds} interleaved rounds; each contender a whole process")
    with tempfile.TemporaryDirectory() as folder:
        for name, write in (("bundled", write_dataset), ("short", write_short_dataset)):
            path = Path(folder) / f"{name}.jsonl"
            size = write(path, lines)
            _table(name, path, lines, size, options.rounds)
    print()
    print("ratio = toolturns / baseline: of the best rounds, then the median of the per-round ratios.")
    return 0


def _table(name: str, path: Path, lines: int, size: int, rounds: int) -> None:
    contenders = {
        "json.loads only": [sys.executable, "-c", _BASELINE, str(path)],
        "toolturns check": [sys.executable, "-m", "toolturns", "check", "--quiet", str(path)],
        "toolturns check --target anthropic": [
            *(sys.executable, "-m", "toolturns", "check", "--quiet", "--target", "anthropic", str(path))
        ],
        "toolturns check --jobs 2": [
            *(sys.executable, "-m", "toolturns", "check", "--quiet", "--jobs", "2", str(path))
        ],
    }
    if any(run(command)[1] != 0 for command in contenders.values()):
        sys.exit(f"bench_check: {name}: the dataset must decode and check clean before it is timed")
    times: dict[str, list[float]] = {contender: [] for contender in contenders}
    for _ in range(rounds):
        for contender, command in contenders.items():
            times[contender].append(run(command)[0])
    print()
    print(f"{name}: {lines:,} lines, {size / 1e6:.1f} MB")
    header = f"{'contender':<36}{'best s':>9}{'median s':>10}{'µs/line':>9}{'ratio':>8}{'(median)':>10}"
    print(header)
    print("-" * len(header))
    base = times["json.loads only"]
    for contender, samples in times.items():
        ratios = [mine / theirs for mine, theirs in zip(samples, base, strict=True)]
        print(
            f"{contender:<36}{min(samples):>9.2f}{statistics.median(samples):>10.2f}"
            f"{min(samples) / lines * 1e6:>9.1f}{min(samples) / min(base):>7.2f}x"
            f"{statistics.median(ratios):>9.2f}x"
        )
    print("   (targets, issue #15: toolturns check <= 1.8x on the bundled data, <= 3x on short lines)")
    alone, together = times["toolturns check"], times["toolturns check --jobs 2"]
    speedups = [one / two for one, two in zip(alone, together, strict=True)]
    print(
        f"--jobs 2 against --jobs 1: {min(alone) / min(together):.2f}x (best), "
        f"{statistics.median(speedups):.2f}x (median), {min(speedups):.2f}-{max(speedups):.2f}x (rounds)"
        "   (target, issue #17: >= 1.6x on 2 cores)"
    )


def memory() -> int:
    """Peak resident memory of check --jobs 1 and 2 over about 200 MB (see the module's docstring)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bundled.jsonl"
        size = write_dataset(path, 95_000)
        print(f"bundled: 95,000 lines, {size / 1e6:.1f} MB; resident memory sampled every 10 ms")
        for jobs in ("1", "2"):
            command = [sys.executable, "-m", "toolturns", "check", "--quiet", "--jobs", jobs, str(path)]
            total, largest, status = peak_memory(command)
            print(
                f"check --jobs {jobs}: peak of the sum {total / 1024:.1f} MB, of one process "
                f"{largest / 1024:.1f} MB (exit status {status})"
            )
    return 0


def peak_memory(command: list[str]) -> tuple[int, int, int]:
    """Run ``command``; the peak KiB of its process and its children's summed, of one of them, and its status."""
    process = subprocess.Popen(command)
    total = largest = 0
    while process.poll() is None:
        sizes = [_resident(pid) for pid in [process.pid, *_children(process.pid)]]
        total, largest = max(total, sum(sizes)), max(largest, *sizes)
        time.sleep(0.01)
    return total, largest, process.returncode


def _children(pid: int) -> list[int]:
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _resident(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
