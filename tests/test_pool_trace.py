"""The thread pool's opt-in trace (csrc/core/threads.h, ma_pool_last_trace).

What a measurement reads to see where a threaded call spends its time:
per thread of the last traced job, the chunks it ran and when, the CPUs
it ran them on and how often it was preempted.  Checked for consistency
only (no timing is asserted): every chunk is counted once, each thread's
busy time fits between its first start and its last end, its CPUs are
ones the process may run on, and jobs run with the trace off leave the
last trace as it was.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import numpy as np
import pytest

import minarray as ma
from minarray import _threads as threads
from minarray._native import ffi, lib


@pytest.fixture(autouse=True)
def restore() -> Iterator[None]:
    n, pmin = ma.get_num_threads(), threads._get_parallel_min()
    yield
    lib.ma_pool_set_trace(0)
    ma.set_num_threads(n)
    threads._set_parallel_min(pmin)


def last_trace() -> list[tuple[int, ...]]:
    k = lib.MA_TRACE_FIELDS
    buf = ffi.new("int64_t[]", k * 256)
    n = lib.ma_pool_last_trace(buf, 256)
    return [tuple(buf[k * i + f] for f in range(k)) for i in range(n)]


@pytest.mark.parametrize("nthreads", [2, 3])
def test_trace_counts_every_chunk_once(nthreads: int) -> None:
    ma.set_num_threads(nthreads)
    threads._set_parallel_min(1024)
    a = np.arange(200_000, dtype=np.float64)
    x = ma.asarray(a)
    out = ma.empty_like(x)
    lib.ma_pool_set_trace(1)
    jobs = lib.ma_pool_jobs()
    ma.add(x, x, out=out)
    lib.ma_pool_set_trace(0)
    np.testing.assert_array_equal(np.asarray(out), a + a)
    if lib.ma_pool_jobs() == jobs:
        pytest.skip("the pool was busy with another thread's job: the call ran serially")
    trace = last_trace()
    assert 1 <= len(trace) <= nthreads
    # the iterator's split: about MA_CHUNKS_PER_THREAD (4) chunks per thread
    assert sum(t[0] for t in trace) == 4 * nthreads
    cpus = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set(range(os.cpu_count() or 1))
    for chunks, first, busy, last, cpu_first, cpu_last, preempted in trace:
        assert chunks >= 0 and busy >= 0 and preempted >= 0
        if chunks:
            assert 0 <= first <= last and busy <= last - first
            # the CPUs a thread ran on are ones the process may run on
            # (-1 only where the system cannot say)
            assert cpu_first in cpus or cpu_first == -1
            assert cpu_last in cpus or cpu_last == -1


def test_untraced_jobs_leave_the_last_trace() -> None:
    ma.set_num_threads(2)
    threads._set_parallel_min(1024)
    x = ma.asarray(np.ones(100_000))
    lib.ma_pool_set_trace(1)
    ma.add(x, x)
    lib.ma_pool_set_trace(0)
    before = last_trace()
    for _ in range(3):
        ma.multiply(x, x)
    assert last_trace() == before
