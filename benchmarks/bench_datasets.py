"""Speed of ``check_batch`` under Hugging Face ``datasets`` against ``toolturns check`` on the same rows.

The dataset is bench_check.py's ``bundled`` one (``examples/transcripts.jsonl``
repeated, built by its ``write_dataset``), written once to a temporary file.
Each contender is a whole process, as a user runs it (the interpreter's start
and the imports included):

- ``toolturns check --quiet FILE``: one core;
- ``datasets``: ``load_dataset("json", data_files=FILE)`` into a fresh cache
  (the file read into Arrow), then ``map(check_batch, batched=True,
  num_proc=N)`` for N = 1 and 2; and, for scale, a ``map`` of a function that
  reads the two columns and adds nothing (the engine's own part: each batch
  decoded and handed over as Python values). The process prints the time of the ``map`` alone, shown as its own
  column: the load happens once per dataset, the map each time a check is run.

Both are first checked to agree that the rows are clean (the command exits 0,
every row's ``clean`` is true). Each round runs the contenders one after the
other, interleaved; the table shows the best and the median round.

Run from the repository root, with the test extra installed (it brings ``datasets``)::

    python benchmarks/bench_datasets.py              # 100,000 lines, 3 rounds: about 12 minutes on 2 cores
    python benchmarks/bench_datasets.py --quick      # 10,000 lines: about 2 minutes
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_check import write_dataset  # the same rows as bench_check's bundled dataset

import toolturns

#: One process: load the file with datasets, map check_batch with N processes; prints the map's
#: seconds and whether every row is clean.
_DATASETS = """
import sys, time
import datasets
from toolturns.datasets import check_batch

datasets.disable_progress_bars()
path, cache, processes, function = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
dataset = datasets.load_dataset("json", data_files=path, split="train", cache_dir=cache)
start = time.perf_counter()

def read_only(batch):
    # A batch's columns are decoded when read: what any function of them pays, then nothing added.
    batch["messages"], batch.get("tools")
    return {}


if function == "none":  # the engine's own part: batches handed over as Python values
    checked = dataset.map(read_only, batched=True)
    clean = True
else:
    checked = dataset.map(check_batch, batched=True, num_proc=processes if processes > 1 else None)
    clean = all(checked["clean"])
seconds = time.perf_counter() - start
print(seconds, clean, len(checked))
"""


def run(command: list[str]) -> tuple[float, str, int]:
    """One process, timed from its start to its end: (seconds, its output, exit status)."""
    start = time.perf_counter()
    done = subprocess.run(command, check=False, capture_output=True, text=True)
    return time.perf_counter() - start, done.stdout, done.returncode


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="10,000 lines instead of 100,000")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    options = parser.parse_args(argv)
    lines = 10_000 if options.quick else 100_000
    print(
        f"toolturns {toolturns.__version__}, Python {platform.python_version()} "
        f"({platform.python_implementation()}), {platform.machine()}, {os.cpu_count()} CPUs"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bundled.jsonl"
        size = write_dataset(path, lines)
        print(f"bundled: {lines:,} lines, {size / 1e6:.1f} MB; {options.rounds} interleaved rounds")
        _table(path, Path(folder), lines, options.rounds)
    return 0


def _table(path: Path, folder: Path, lines: int, rounds: int) -> None:
    caches = iter(range(10**6))

    def engine(processes: int, function: str = "check_batch") -> list[str]:
        # A fresh cache for every run: the file is read into Arrow each time, as on first use.
        cache = folder / f"cache{next(caches)}"
        return [sys.executable, "-c", _DATASETS, str(path), str(cache), str(processes), function]

    contenders: dict[str, Callable[[], list[str]]] = {
        "toolturns check": lambda: [sys.executable, "-m", "toolturns", "check", "--quiet", str(path)],
        "datasets map(reading the columns), num_proc=1": lambda: engine(1, "none"),
        "datasets map(check_batch), num_proc=1": lambda: engine(1),
        "datasets map(check_batch), num_proc=2": lambda: engine(2),
    }
    for name, command in contenders.items():
        _, output, status = run(command())
        if status != 0 or (name != "toolturns check" and output.split()[1:] != ["True", str(lines)]):
            sys.exit(f"bench_datasets: {name}: the rows must check clean before they are timed")
    times: dict[str, list[float]] = {name: [] for name in contenders}
    maps: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, command in contenders.items():
            seconds, output, _ = run(command())
            times[name].append(seconds)
            if name != "toolturns check":
                maps[name].append(float(output.split()[0]))
    print()
    header = f"{'contender':<50}{'best s':>9}{'median s':>10}{'µs/line':>9}{'map s':>8}{'map µs/line':>13}"
    print(header)
    print("-" * len(header))
    for name, samples in times.items():
        mapped = f"{min(maps[name]):>8.2f}{min(maps[name]) / lines * 1e6:>13.1f}" if maps[name] else ""
        print(
            f"{name:<50}{min(samples):>9.2f}{statistics.median(samples):>10.2f}"
            f"{min(samples) / lines * 1e6:>9.1f}{mapped}"
        )
    print()
    print("best s, median s: the whole process; map s: the map alone (best round), inside it.")


if __name__ == "__main__":
    sys.exit(main())
