"""The C allocator: alignment, zero-byte buffers, statistics, size
overflow, allocation failure, foreign buffers' release callbacks, huge
pages, and atomic reference counts under threads."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import minarray as ma
from minarray._native import core, lib

ALIGN = 64


def stats() -> dict[str, int]:
    gc.collect()
    return ma.allocator_stats()


@pytest.fixture
def fail_after() -> Iterator[Callable[[int], None]]:
    """Arm the allocation-failure hook; always disarmed afterwards."""
    try:
        yield lambda n: lib.ma_fail_allocation_after(n)
    finally:
        lib.ma_fail_allocation_after(0)


def test_stats_keys() -> None:
    s = ma.allocator_stats()
    for key in ("live_buffers", "live_bytes", "total_allocations", "live_foreign", "total_foreign",
                "failed_allocations", "cached_bytes"):
        assert isinstance(s[key], int) and s[key] >= 0


@pytest.mark.parametrize("nbytes", [0, 1, 3, 63, 64, 65, 1000, 4095, 4 << 20, (4 << 20) + 3, 5 << 20])
def test_fresh_buffers_are_aligned_and_counted(nbytes: int) -> None:
    before = stats()
    x = ma.empty(nbytes, dtype=ma.uint8)
    after = ma.allocator_stats()
    assert x.data_ptr % ALIGN == 0 and x.data_ptr != 0
    assert after["live_buffers"] == before["live_buffers"] + 1
    assert after["live_bytes"] == before["live_bytes"] + nbytes
    assert after["total_allocations"] == before["total_allocations"] + 1
    del x
    end = stats()
    assert (end["live_buffers"], end["live_bytes"]) == (before["live_buffers"], before["live_bytes"])


@pytest.mark.parametrize("dtype", [ma.bool, ma.int16, ma.float32, ma.complex128, ma.bfloat16], ids=str)
def test_alignment_of_every_creation_path(dtype: ma.DType) -> None:
    arrays = [ma.zeros((3, 5), dtype=dtype), ma.ones(7, dtype=dtype), ma.full((2, 2), 1, dtype=dtype),
              ma.asarray([1, 0, 1], dtype=dtype), ma.arange(5).astype(dtype), ma.zeros((4, 4), dtype=dtype).T.copy(),
              ma.zeros(0, dtype=dtype), ma.zeros((), dtype=dtype), ma.eye(3, dtype=dtype)]
    for a in arrays:
        assert a.data_ptr % ALIGN == 0


def test_views_allocate_nothing() -> None:
    x = ma.zeros((10, 10))
    before = ma.allocator_stats()
    views = [x[1:], x.T, x[::-1, 2], x.reshape(100), ma.expand_dims(x, 0), ma.broadcast_to(x, (3, 10, 10)), x[None]]
    after = ma.allocator_stats()
    assert after["total_allocations"] == before["total_allocations"]
    assert after["live_buffers"] == before["live_buffers"]
    assert all(v.base is x for v in views)


def test_zero_byte_buffers() -> None:
    before = stats()
    xs = [ma.empty(0), ma.zeros((3, 0)), ma.ones((0, 0, 4), dtype=ma.int8), ma.asarray([])]
    s = ma.allocator_stats()
    assert s["live_buffers"] == before["live_buffers"] + 4 and s["live_bytes"] == before["live_bytes"]
    for x in xs:
        assert x.data_ptr % ALIGN == 0 and x.data_ptr != 0 and x.nbytes == 0
        assert x.copy().size == 0 and x.tolist() in ([], [[], [], []], [[]] * 0)


@pytest.mark.parametrize(
    ("shape", "dtype"),
    [((2**62, 4), ma.uint8), ((2**31, 2**31, 2**31), ma.int8), ((2**61,), ma.float64), ((2**60,), ma.float64),
     ((2**32, 2**32), ma.complex128), ((0, 2**62), ma.int64), ((2**62, 0, 2**3), ma.int8)],
)
def test_size_overflow_raises_value_error(shape: tuple[int, ...], dtype: ma.DType) -> None:
    before = stats()
    with pytest.raises(ValueError, match="too large"):
        ma.empty(shape, dtype=dtype)
    with pytest.raises(ValueError, match="too large"):
        ma.zeros(shape, dtype=dtype)
    assert stats()["live_buffers"] == before["live_buffers"]


def test_shape_entries_beyond_64_bits() -> None:
    with pytest.raises(ValueError, match="64 bits"):
        ma.empty((2**63,))
    with pytest.raises(ValueError, match="64 bits"):
        ma.empty((1, 2**64 + 5))
    with pytest.raises(ValueError, match=r"shape \(1099511627776, 1099511627776\) and 8-byte items is too large"):
        ma.broadcast_to(ma.zeros(1), (2**40, 2**40))


def test_unallocatable_size_raises_memory_error() -> None:
    before = stats()
    with pytest.raises(MemoryError, match="unable to allocate"):
        ma.empty(2**58, dtype=ma.uint8)  # fits the size arithmetic, not any machine
    after = stats()
    assert after["live_buffers"] == before["live_buffers"]
    assert after["failed_allocations"] == before["failed_allocations"] + 1


def test_allocation_failure_hook(fail_after: Callable[[int], None]) -> None:
    before = stats()
    fail_after(1)
    with pytest.raises(MemoryError):
        ma.empty(10)
    assert ma.empty(10).shape == (10,)  # the hook fires once
    fail_after(3)
    a = ma.empty(1)
    b = ma.empty(1)
    with pytest.raises(MemoryError):
        ma.empty(1)
    del a, b
    after = stats()
    assert after["live_buffers"] == before["live_buffers"]
    assert after["failed_allocations"] == before["failed_allocations"] + 2


def _operations() -> list[tuple[str, Callable[[], Any]]]:
    x = np.arange(24, dtype=np.float64).reshape(4, 6)
    return [
        ("empty", lambda: ma.empty((3, 4))),
        ("copy", lambda: ma.asarray(x).T.copy()),
        ("astype", lambda: ma.asarray(x).astype(ma.int16)),
        ("asarray list", lambda: ma.asarray([[1, 2], [3, 4]])),
        ("asarray mixed", lambda: ma.asarray([np.arange(3), ma.zeros(3)])),
        ("asarray numpy copy", lambda: ma.asarray(x, copy=True)),
        ("arange", lambda: ma.arange(10)),
        ("linspace", lambda: ma.linspace(0, 1, 5, dtype=ma.float32)),
        ("eye", lambda: ma.eye(3)),
        ("tril", lambda: ma.tril(ma.asarray(x))),
        ("meshgrid", lambda: ma.meshgrid(ma.arange(3), ma.arange(2))),
        ("reshape copy", lambda: ma.asarray(x).T.reshape(24)),
        ("flatten", lambda: ma.asarray(x)[:, ::2].flatten()),
        ("int index", lambda: ma.asarray(x)[[0, 2], 1:]),
        ("mask index", lambda: ma.asarray(x)[ma.asarray(x).astype(ma.bool)]),
        ("mixed index", lambda: ma.asarray(x)[1, [0, 1]]),
        ("setitem advanced", lambda: ma.zeros((4, 6)).__setitem__(([0, 1], slice(None)), ma.ones(6))),
        ("setitem overlap", lambda: (lambda a: a.__setitem__(slice(1, None), a[:-1]))(ma.arange(10))),
        ("fill", lambda: ma.full((3, 3), 2.5)),
        ("repr summarised", lambda: repr(ma.zeros((50, 50)))),
    ]


@pytest.mark.parametrize(("name", "op"), _operations(), ids=[n for n, _ in _operations()])
def test_every_allocation_can_fail_cleanly(name: str, op: Callable[[], Any],
                                          fail_after: Callable[[int], None]) -> None:
    """Fail the 1st, 2nd, ... allocation of an operation: each time it
    raises MemoryError (or succeeds, past its last allocation) and leaks
    nothing."""
    base = stats()
    for n in range(1, 40):
        fail_after(n)
        try:
            result = op()
        except MemoryError:
            fail_after(0)
            result = None
        else:
            assert n > 1, f"{name} did not fail when its first allocation did"
            fail_after(0)
            del result
            s = stats()
            assert (s["live_buffers"], s["live_bytes"]) == (base["live_buffers"], base["live_bytes"]), n
            return
        s = stats()
        assert (s["live_buffers"], s["live_bytes"]) == (base["live_buffers"], base["live_bytes"]), (name, n)
    pytest.fail(f"{name} still failed after 40 allocations")


def test_foreign_release_runs_once_when_the_last_view_goes() -> None:
    owner = np.arange(100, dtype=np.int32)
    refs = sys.getrefcount(owner)
    before = stats()
    x = ma.asarray(owner)
    views = [x[i:] for i in range(10)] + [x.T, x.reshape(10, 10), ma.broadcast_to(x, (2, 100))]
    s = ma.allocator_stats()
    assert s["live_foreign"] == before["live_foreign"] + 1
    assert s["total_foreign"] == before["total_foreign"] + 1
    assert sys.getrefcount(owner) > refs
    del x
    views = views[5:]
    assert sys.getrefcount(owner) > refs
    del views
    gc.collect()
    assert sys.getrefcount(owner) == refs
    assert ma.allocator_stats()["live_foreign"] == before["live_foreign"]


def test_foreign_release_from_another_thread() -> None:
    owner = bytearray(64)
    x = ma.asarray(owner)
    holder = [x[8:]]
    del x
    t = threading.Thread(target=holder.clear)  # the last reference dies in that thread
    t.start()
    t.join()
    gc.collect()
    owner.extend(b"x")  # the buffer export was released
    assert len(owner) == 65


@pytest.mark.skipif(not Path("/sys/kernel/mm/transparent_hugepage").exists() or not sys.platform.startswith("linux"),
                    reason="transparent huge pages are a Linux feature")
def test_large_buffers_ask_for_huge_pages() -> None:
    x = ma.empty(8 << 20, dtype=ma.uint8)
    small = ma.empty(1000, dtype=ma.uint8)

    def vmflags(ptr: int) -> list[str]:
        inside = False
        for line in Path("/proc/self/smaps").read_text().splitlines():
            head = line.split()[0]
            if "-" in head and not head.endswith(":"):
                lo, hi = (int(v, 16) for v in head.split("-"))
                inside = lo <= ptr < hi
            elif inside and line.startswith("VmFlags:"):
                return line.split()[1:]
        return []

    # The advice covers the whole pages inside the block (madvise needs a
    # page-aligned start), so look in the middle of the buffer.
    assert "hg" in vmflags(x.data_ptr + (4 << 20))
    assert small.data_ptr % ALIGN == 0


def test_atomic_refcount_under_os_threads() -> None:
    x = ma.zeros(16)
    v = x[1:]  # two references to one buffer
    count = core.stress_refcount(x._h, 8, 200_000)
    assert count == 2
    assert v.tolist() == [0.0] * 15


def test_python_threads_creating_and_dropping_views() -> None:
    x = ma.arange(10_000, dtype=ma.float32)
    before = stats()
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        try:
            for i in range(300):
                v = x[(seed + i) % 100:][::3].reshape(-1)
                w = v.copy()  # copies release the GIL
                assert w.shape == v.shape
                n = np.asarray(v[:5])
                assert n[0] == v[0].item()
                del v, w, n
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    after = stats()
    assert (after["live_buffers"], after["live_bytes"]) == (before["live_buffers"], before["live_bytes"])
    assert x[9999].item() == 9999.0


MiB = 1 << 20


def test_freed_large_blocks_are_reused_with_their_pages() -> None:
    # 32 MiB and more: freed blocks wait in a bounded cache for the next
    # large empty() of a similar size (csrc/core/buffer.c), counted apart from
    # live memory
    before = stats()
    x = ma.empty(100 * MiB, dtype=ma.uint8)
    x[::4096] = 7  # touch every page
    ptr = x.data_ptr
    del x
    s = stats()
    assert (s["live_buffers"], s["live_bytes"]) == (before["live_buffers"], before["live_bytes"])
    assert s["cached_bytes"] >= 100 * MiB
    y = ma.empty(90 * MiB, dtype=ma.uint8)  # within 5/4 of the block: reused
    assert y.data_ptr == ptr and y.data_ptr % ALIGN == 0
    assert stats()["cached_bytes"] == s["cached_bytes"] - (100 * MiB + 2 * ALIGN)  # the block, header room included
    assert ma.allocator_stats()["live_bytes"] == before["live_bytes"] + 90 * MiB
    del y
    small = ma.empty(40 * MiB, dtype=ma.uint8)  # far smaller: a fresh block
    assert small.data_ptr != ptr
    del small


def test_zeros_never_takes_a_dirty_cached_block() -> None:
    x = ma.full(64 * MiB // 8, 1.5)
    del x
    assert stats()["cached_bytes"] >= 64 * MiB
    z = ma.zeros(64 * MiB // 8)
    assert float(ma.max(ma.abs(z))) == 0.0
    e = ma.empty(64 * MiB // 8)  # empty() may reuse it, and says nothing of its contents
    assert e.shape == (8 * MiB,)


def test_the_cache_is_bounded() -> None:
    blocks = [ma.empty(120 * MiB, dtype=ma.uint8) for _ in range(3)]
    del blocks
    assert 0 < stats()["cached_bytes"] <= 256 * MiB


def test_the_cache_can_be_turned_off() -> None:
    code = ("import minarray as ma; x = ma.empty(64 << 20, dtype=ma.uint8); del x; "
            "print(ma.allocator_stats()['cached_bytes'])")
    for setting, expected in (("0", "0"), ("1000", str((64 << 20) + 128))):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**os.environ, "MINARRAY_BUFFER_CACHE_MB": setting},
                             cwd=Path(__file__).resolve().parent.parent)
        assert out.stdout.strip() == expected, out.stderr
