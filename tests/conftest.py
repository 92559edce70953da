"""Shared fixtures: every test checks that the C allocator ends where it
started, so a leaked buffer fails the test that leaked it."""

from __future__ import annotations

import gc
import re
import sys
from collections.abc import Generator, Iterator

import pytest

import minarray as ma


def live(collect: bool = True) -> tuple[int, int]:
    # pytest keeps the last failure's traceback (and so its frames' arrays)
    # in sys.last_*; drop it so an earlier failure does not count here.
    for name in ("last_type", "last_value", "last_traceback", "last_exc"):
        if hasattr(sys, name):
            setattr(sys, name, None)
    if collect:
        gc.collect()
    s = ma.allocator_stats()
    return s["live_buffers"], s["live_bytes"]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, None, None]:
    # Remember whether the test body failed: its traceback keeps the failing
    # frame's arrays alive, so the leak check would only add noise (and
    # shift the count of the next test).
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.stash[_failed] = report.failed


_failed = pytest.StashKey[bool]()
_after_failure = False


@pytest.fixture(autouse=True)
def no_leaks(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test whose arrays are still alive after it returns."""
    if request.node.get_closest_marker("allows_live_buffers"):
        yield
        return
    # A full collection costs ~50 ms with NumPy and Hypothesis loaded, so it
    # only runs when the counts differ (an earlier test's cycles cannot be
    # pending then: its own check would have collected them).
    global _after_failure
    before = live(collect=_after_failure)
    _after_failure = False
    yield
    if request.node.stash.get(_failed, False):
        _after_failure = True  # its frames die later: collect before the next test
        return
    after = live(collect=False)
    if after != before:
        after = live()
    assert after == before, f"allocator not back to its start: {before} -> {after} (live buffers, bytes)"


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what collection created (test modules, and PyTorch or JAX if a
    module imported them: ~10^6 objects) out of the cyclic GC's reach, so
    the two gc.collect() of every test scan only the test's own objects
    (0.45 s -> microseconds each with both loaded)."""
    gc.collect()
    gc.freeze()


_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Refuse a test id that holds a memory address: ids must be the same in
    every process, or pytest-xdist's workers collect different suites."""
    bad = [item.nodeid for item in items if _ADDRESS.search(item.nodeid)]
    if bad:
        raise pytest.UsageError(f"test ids must not hold addresses (give the parametrization ids): {bad[:5]}")
