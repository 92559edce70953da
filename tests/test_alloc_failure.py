"""Allocation failure: MemoryError, nothing leaked, and the process keeps
working.

The C allocator's test hook ``lib.ma_fail_allocation_after(n)`` makes the
n-th next owned allocation fail.  Every operation below is run once to
learn its result, then again with its 1st, 2nd, ... allocation failing,
until a run needs fewer allocations than the one that fails: each failing
run must raise MemoryError (nothing else: no crash, no ValueError from a
half-built result) and leave the allocator's statistics where they were;
the run after it must give the same result as the first.  A request
beyond any machine's memory must fail the same way.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import minarray as ma
from minarray._native import lib


@pytest.fixture(autouse=True)
def hook_off() -> Iterator[None]:
    """Never leave the hook armed for the next test, whatever happens."""
    yield
    lib.ma_fail_allocation_after(0)


def live() -> tuple[int, int]:
    gc.collect()
    s = ma.allocator_stats()
    return s["live_buffers"], s["live_bytes"]


def _a() -> ma.NDArray:
    return ma.asarray(np.arange(12.0).reshape(3, 4))


def _i() -> ma.NDArray:
    return ma.asarray(np.array([[3, 1, 2], [9, 7, 8]], dtype=np.int32))


# Operations that allocate (in C, through the owned-buffer allocator) at
# least once; each builds its inputs itself, so input allocations fail too.
OPERATIONS: dict[str, Callable[[], Any]] = {
    "zeros": lambda: ma.zeros((3, 4)),
    "full": lambda: ma.full((2, 2), 7, dtype=ma.int16),
    "asarray list": lambda: ma.asarray([[1, 2], [3, 4]]),
    "asarray mixed list": lambda: ma.asarray([np.float32(1), 2.5, np.int8(3)]),
    "arange": lambda: ma.arange(0, 5, 0.5),
    "linspace int": lambda: ma.linspace(0, 10, 7, dtype=ma.int32),
    "eye": lambda: ma.eye(3, 4, k=1),
    "tril": lambda: ma.tril(_a()),
    "copy non-contiguous": lambda: _a().T.copy(),
    "astype": lambda: _a().astype(ma.float16),
    "reshape needing a copy": lambda: _a().T.reshape(12),
    "add with promotion": lambda: _a() + _i().reshape(3, 2)[:, :1].astype(ma.uint8),
    "scalar multiply": lambda: _a() * 2.5,
    "in-place add": lambda: _iadd(),
    "sqrt": lambda: ma.sqrt(_a()),
    "where": lambda: ma.where(_a() > 3, _a(), -1.0),
    "sum axis": lambda: ma.sum(_a(), axis=0),
    "mean all": lambda: ma.mean(_a()),
    "std": lambda: ma.std(_a(), axis=1, correction=1),
    "cumulative_sum": lambda: ma.cumulative_sum(_i(), axis=1),
    "argmax": lambda: ma.argmax(_a(), axis=1),
    "advanced getitem": lambda: _a()[[0, 2], 1:],
    "mask getitem": lambda: _a()[_a() > 4.5],
    "advanced setitem": lambda: _setitem(),
    "index list getitem": lambda: _a()[[2, 0, 2]],
    "int8 index getitem": lambda: _a()[_a()[:, 0].astype(ma.int8) % 3],
    "leading mask getitem": lambda: _a()[_a()[:, 0] > 1.0],
    "one index in a tuple": lambda: _a()[:, [3, 0]],
    "2-d index getitem": lambda: _a()[_i() % 3],
    "index list setitem": lambda: _setitem_list(),
    "mask setitem": lambda: _setitem_mask(),
    "matmul": lambda: ma.matmul(_a(), _a().T),
    "sort": lambda: ma.sort(_i(), axis=1, descending=True),
    "argsort": lambda: ma.argsort(_i()),
    "unique_counts": lambda: ma.unique_counts(ma.asarray([3, 1, 3, 2, 1])),
    "concat": lambda: ma.concat([_a(), _a()], axis=1),
    "stack": lambda: ma.stack([_i(), _i()]),
    "nonzero": lambda: ma.nonzero(_i() > 2),
    "repr": lambda: repr(_a() / 3),
    "dlpack export copy=True": lambda: np.from_dlpack(_DLPackCopy(_a())),
    "from_dlpack copy=True": lambda: ma.from_dlpack(_OldProducer(np.arange(6.0)), copy=True),
    "from_numpy copy=True": lambda: ma.from_numpy(np.arange(6, dtype=">i4"), copy=True),
}


def _iadd() -> ma.NDArray:
    a = ma.arange(12.0).reshape(3, 4)
    a += ma.ones(4, dtype=ma.float32)
    return a


def _setitem() -> ma.NDArray:
    a = _a()
    a[[0, 2], [1, 3]] = ma.asarray([-1.0, -2.0])
    return a


def _setitem_list() -> ma.NDArray:
    a = _a()
    a[[2, 0]] = ma.asarray([[-1.0], [-2.0]])  # broadcast along the rows
    return a


def _setitem_mask() -> ma.NDArray:
    a = _a()
    a[a > 5.5] = _a()[0, :1]
    a[a < 1.5] = 9
    return a


class _DLPackCopy:
    """Asks the array for a copying export whatever copy the consumer asks,
    in the capsule kind it asks for (NumPy 2.0 takes legacy ones only)."""

    def __init__(self, a: ma.NDArray) -> None:
        self.a = a

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.a.__dlpack__(max_version=kwargs.get("max_version"), copy=True)

    def __dlpack_device__(self) -> Any:
        return self.a.__dlpack_device__()


class _OldProducer:
    """A producer without the copy keyword: minarray makes the copy itself."""

    def __init__(self, a: Any) -> None:
        self.a = a

    def __dlpack__(self, stream: Any = None) -> Any:
        return self.a.__dlpack__()

    def __dlpack_device__(self) -> Any:
        return self.a.__dlpack_device__()


def _value(r: Any) -> Any:
    """A comparable copy of a result (arrays as (dtype, shape, list))."""
    if isinstance(r, (tuple, list)):
        return [_value(x) for x in r]
    if isinstance(r, ma.NDArray):
        return (str(r.dtype), r.shape, r.tolist())
    if isinstance(r, np.ndarray):
        return (str(r.dtype), r.shape, r.tolist())
    if hasattr(r, "_fields"):  # unique_counts' named tuple
        return [_value(x) for x in r]
    return r


FAILED = object()


@pytest.mark.parametrize("op", OPERATIONS.values(), ids=OPERATIONS.keys())
def test_every_allocation_may_fail(op: Callable[[], Any]) -> None:
    expected = _value(op())
    start = live()
    n = 1
    while True:
        lib.ma_fail_allocation_after(n)
        try:
            result = op()
        except MemoryError:
            result = FAILED  # checked below, outside the except block, so its frames are gone
        finally:
            lib.ma_fail_allocation_after(0)
        if result is not FAILED:
            # the hook was never reached: every allocation point has been tried
            assert _value(result) == expected
            del result
            break
        assert live() == start, f"allocation {n} failed and leaked: {start} -> {live()}"
        assert _value(op()) == expected, f"wrong result after allocation {n} failed"
        n += 1
    assert n > 1, "the operation never allocated: it tests nothing here"
    assert live() == start


def test_failed_allocations_are_counted() -> None:
    before = ma.allocator_stats()["failed_allocations"]
    lib.ma_fail_allocation_after(1)
    with pytest.raises(MemoryError, match=r"unable to allocate 7\.81 KiB for an array of shape \(1000,\)"):
        ma.empty(1000)
    assert ma.allocator_stats()["failed_allocations"] == before + 1
    a = ma.ones(1000)  # the hook fires once: the next allocation works
    assert float(ma.sum(a)) == 1000.0


@pytest.mark.parametrize("make", [
    lambda: ma.empty(2**57),  # 2**60 bytes: beyond any address space
    lambda: ma.zeros((2**29, 2**29), dtype=ma.int32),
    lambda: ma.ones((2**30, 2**28)),  # filled: the fill must never start
    lambda: ma.full(2**59, 1, dtype=ma.int16),
    lambda: ma.arange(2**58, dtype=ma.float32),
    lambda: ma.broadcast_to(ma.asarray(1.0), (2**28, 2**29)).copy(),
], ids=["empty", "zeros", "ones", "full", "arange", "copy of a broadcast"])
def test_request_beyond_memory(make: Callable[[], Any]) -> None:
    start = live()
    with pytest.raises(MemoryError, match="unable to allocate"):
        make()
    assert live() == start
    # and the process keeps working
    a = ma.arange(6.0).reshape(2, 3)
    assert (a @ a.T).tolist() == [[5.0, 14.0], [14.0, 50.0]]


@pytest.mark.parametrize("make", [
    lambda: ma.empty(2**62),
    lambda: ma.zeros((2**32, 2**32)),
    lambda: ma.empty((0, 2**40, 2**40)),
], ids=["2**62 float64", "2**64 elements", "empty with huge dims"])
def test_size_beyond_64_bits_is_value_error(make: Callable[[], Any]) -> None:
    """Sizes whose bytes do not fit in 2**62 are not a memory problem but an
    impossible shape: ValueError (NumPy: "array is too big")."""
    with pytest.raises(ValueError, match="too large"):
        make()
