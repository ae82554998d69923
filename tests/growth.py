"""How a cost grows with its input: the one way the suite judges speed.

A test never asserts an absolute time (the machine running CI is small and
noisy); it asserts that four times the input costs well under eight times the
time. Linear work costs about 4x, quadratic work 16x: a bound of 6x tells them
apart with room for noise on both sides.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

#: Four times the input: linear work costs about 4x the time, quadratic 16x.
FACTOR = 4
#: Well under the 8x of n log n at these sizes, far under quadratic's 16x.
BOUND = 6.0


def growth(prepare: Callable[[int], Callable[[], object]], size: int, *, runs: int = 5) -> float:
    """How many times longer the work on ``FACTOR * size`` takes than on ``size``.

    ``prepare(n)`` builds the input of size ``n`` (not timed) and returns the
    work to time. Each size is timed ``runs`` times, interleaved, with the
    garbage collector off, in CPU time, and the best run of each counts: noise
    only ever adds time, so the minimum is the closest to the cost itself.
    """
    small, large = prepare(size), prepare(FACTOR * size)
    best_small = best_large = float("inf")
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            best_small = min(best_small, _seconds(small))
            best_large = min(best_large, _seconds(large))
    finally:
        if enabled:
            gc.enable()
    return best_large / best_small


def assert_linear(prepare: Callable[[int], Callable[[], object]], size: int, *, attempts: int = 5) -> None:
    """``FACTOR`` times the input costs under ``BOUND`` times the time.

    A busy machine can slow one size's every run; the measurement is taken
    again (up to ``attempts`` times) before failing: quadratic work never gets
    under the bound, however quiet the machine. Five, not three: on a noisy
    day (2026-12-02, the suite on both cores) a linear check measured 7.9x,
    6.3x and 6.2x in a row, its cost per call flat from 500 to 8,000 calls.
    """
    ratios = []
    for _ in range(attempts):
        ratios.append(growth(prepare, size))
        if ratios[-1] < BOUND:
            return
    raise AssertionError(
        f"{FACTOR}x the input ({size} -> {FACTOR * size}) cost "
        f"{', '.join(f'{ratio:.1f}x' for ratio in ratios)} the time; linear work costs about "
        f"{FACTOR}x, quadratic {FACTOR * FACTOR}x (bound: {BOUND}x)"
    )


def _seconds(work: Callable[[], object]) -> float:
    # CPU time, not wall time: on a busy machine a run longer than the
    # scheduler's time slice waits while others run, one shorter does not.
    start = time.process_time()
    work()
    return time.process_time() - start
