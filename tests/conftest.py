"""Shared fixtures: every test checks that the C allocator ends where it
started, so a leaked buffer fails the test that leaked it."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

import minarray as ma


def live() -> tuple[int, int]:
    gc.collect()
    s = ma.allocator_stats()
    return s["live_buffers"], s["live_bytes"]


@pytest.fixture(autouse=True)
def no_leaks(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test whose arrays are still alive after it returns."""
    if request.node.get_closest_marker("allows_live_buffers"):
        yield
        return
    before = live()
    yield
    after = live()
    assert after == before, f"allocator not back to its start: {before} -> {after} (live buffers, bytes)"


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what collection created (test modules, and PyTorch or JAX if a
    module imported them: ~10^6 objects) out of the cyclic GC's reach, so
    the two gc.collect() of every test scan only the test's own objects
    (0.45 s -> microseconds each with both loaded)."""
    gc.collect()
    gc.freeze()
