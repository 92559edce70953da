"""Timing two callables against each other.

Both sides get their own inner loop count, chosen so one block of calls
lasts at least ``min_time`` (as ``timeit.Timer.autorange`` does), then the
blocks alternate: minarray, reference, reference, minarray, ... so neither
side always runs first.  The result per side is the median of the per-call
times of the blocks and the spread is the interquartile range over that
median.

Nothing global is changed: the garbage collector stays as the caller left
it (allocation cases must pay for what they free, on both sides).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

Call = Callable[[], object]

_LOOP_STEPS = (1, 2, 5)


@dataclass
class Timing:
    """Per-call times, in seconds, of one side of a case."""

    loops: int
    samples: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def spread(self) -> float:
        """Interquartile range over the median (0.05 = 5%)."""
        if len(self.samples) < 2:
            return 0.0
        q1, _, q3 = statistics.quantiles(self.samples, n=4, method="inclusive")
        med = self.median
        return (q3 - q1) / med if med > 0 else 0.0


def _block(fn: Call, loops: int) -> float:
    """Seconds per call over `loops` back-to-back calls."""
    t0 = time.perf_counter()
    for _ in range(loops):
        fn()
    return (time.perf_counter() - t0) / loops


def calibrate(fn: Call, min_time: float) -> int:
    """The smallest loop count from 1, 2, 5, 10, 20, ... whose block lasts at
    least `min_time` seconds (one warm-up call first)."""
    fn()
    scale = 1
    while True:
        for step in _LOOP_STEPS:
            loops = step * scale
            if _block(fn, loops) * loops >= min_time:
                return loops
        scale *= 10


def _rested_block(fn: Call, loops: int, rest: float, settle: float = 0.0) -> float:
    """A pause of `settle` seconds, a block, then a sleep of `rest` times its
    length (see compare)."""
    if settle > 0:
        time.sleep(settle)
    per_call = _block(fn, loops)
    if rest > 0:
        time.sleep(per_call * loops * rest)
    return per_call


def compare(fa: Call, fb: Call, repeats: int, min_time: float, rest: float = 0.0,
            settle: float = 0.0) -> tuple[Timing, Timing]:
    """Two sides: see compare_many."""
    ta, tb = compare_many([fa, fb], repeats, min_time, rest, settle)
    return ta, tb


def compare_many(fns: list[Call], repeats: int, min_time: float, rest: float = 0.0,
                 settle: float = 0.0) -> list[Timing]:
    """Time the callables in alternating blocks; `repeats` blocks each.

    `rest` > 0 sleeps that fraction of each block's length after it: a run
    given real-time priority must stay under the kernel's real-time budget
    (95% of each second by default), or the throttled blocks come out slow.

    `settle` > 0 pauses that many seconds before each block, so the worker
    threads of the side that ran last have gone to sleep: OpenBLAS's keep
    spinning for about 0.1 s after a call, and on a 2-core machine they
    would take a core from the other side's threads."""
    timings = [Timing(calibrate(fn, min_time)) for fn in fns]
    sides = list(zip(fns, timings, strict=True))
    for r in range(repeats):
        # each round starts from another side, and every other round runs
        # backwards, so no side always follows the same one
        k = r % len(sides)
        order = sides[k:] + sides[:k]
        if (r // len(sides)) % 2:
            order.reverse()
        for fn, t in order:
            t.samples.append(_rested_block(fn, t.loops, rest, settle))
    return timings


def measure(fn: Call, repeats: int, min_time: float, rest: float = 0.0, settle: float = 0.0) -> Timing:
    """Time one callable alone (a case whose other side is unavailable)."""
    t = Timing(calibrate(fn, min_time))
    for _ in range(repeats):
        t.samples.append(_rested_block(fn, t.loops, rest, settle))
    return t
