"""Speed of ``toolturns check`` on a JSONL dataset against a pass that only decodes each line.

The dataset is the bundled ``examples/transcripts.jsonl`` (40 realistic
tool-calling transcripts in the fine-tuning format, each with its 5 tool
definitions) repeated to 100,000 lines, written to a temporary file. Both
contenders read that file line by line in binary, as the command does:

- baseline: ``json.loads`` of every line, nothing else: the floor of any
  checker that reads the data at all;
- toolturns: the real command, in process: ``toolturns check --quiet FILE``
  (reading, decoding, ``check_transcript`` with the line's tools, and the exit
  status), then again with ``--target anthropic`` (the structure plus
  Anthropic's rules and the codec's own acceptance).

Both are first checked to agree that the file is clean (the command exits 0
and every line decodes). Each round times the contenders one after the other,
interleaved, with the garbage collector on (as the command runs); the ratio is
toolturns / baseline per round, and the table shows the best and median round.

Run from the repository root::

    python benchmarks/bench_check.py              # about 2 minutes
    python benchmarks/bench_check.py --rounds 5   # the figures in docs/performance.md, about 3 minutes
    python benchmarks/bench_check.py --quick      # 10,000 lines, about 10 s
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import toolturns
from toolturns._cli import main as toolturns_main

SAMPLE = Path(__file__).resolve().parent.parent / "examples" / "transcripts.jsonl"


def write_dataset(path: Path, lines: int) -> int:
    """``lines`` lines cycling through the bundled sample; returns the file's size in bytes."""
    sample = SAMPLE.read_bytes().splitlines(keepends=True)
    with path.open("wb") as out:
        for number in range(lines):
            out.write(sample[number % len(sample)])
    return path.stat().st_size


def baseline(path: Path) -> int:
    """Decode every line and keep nothing: returns how many lines decoded."""
    count = 0
    with path.open("rb") as lines:
        for line in lines:
            json.loads(line)
            count += 1
    return count


def check(path: Path, *options: str) -> int:
    """The real command in process: its exit status."""
    return toolturns_main(["check", "--quiet", *options, str(path)])


def timed(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="10,000 lines instead of 100,000")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    options = parser.parse_args(argv)
    lines = 10_000 if options.quick else 100_000
    rounds = options.rounds

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "dataset.jsonl"
        size = write_dataset(path, lines)
        if baseline(path) != lines or check(path) != 0 or check(path, "--target", "anthropic") != 0:
            sys.exit("bench_check: the dataset must decode and check clean before it is timed")

        print(
            f"toolturns {toolturns.__version__}, Python {platform.python_version()} "
            f"({platform.python_implementation()}), {platform.machine()}, {os.cpu_count()} CPUs"
        )
        print(f"{lines:,} transcripts, {size / 1e6:.1f} MB; {rounds} interleaved rounds, GC on")
        print()
        contenders: dict[str, Callable[[], object]] = {
            "json.loads only": lambda: baseline(path),
            "toolturns check": lambda: check(path),
            "toolturns check --target anthropic": lambda: check(path, "--target", "anthropic"),
        }
        times: dict[str, list[float]] = {name: [] for name in contenders}
        for _ in range(rounds):
            for name, function in contenders.items():
                times[name].append(timed(function))

    base = times["json.loads only"]
    header = f"{'contender':<36}{'best s':>9}{'median s':>10}{'µs/line':>9}{'ratio':>8}{'(median)':>10}"
    print(header)
    print("-" * len(header))
    for name, samples in times.items():
        ratios = [mine / theirs for mine, theirs in zip(samples, base, strict=True)]
        print(
            f"{name:<36}{min(samples):>9.2f}{statistics.median(samples):>10.2f}"
            f"{min(samples) / lines * 1e6:>9.1f}{min(samples) / min(base):>7.2f}x"
            f"{statistics.median(ratios):>9.2f}x"
        )
    print("   (target: toolturns check <= 3x the json.loads pass)")
    print()
    print("ratio = toolturns / baseline: of the best rounds, then the median of the per-round ratios.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
