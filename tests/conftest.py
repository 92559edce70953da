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
