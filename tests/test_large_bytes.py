"""Large arrays to bytes and back: tobytes and pickles of tens of MB.

tobytes fills a fresh bytes object with the copy kernel, split over the
thread pool, after asking for huge pages over its storage; unpickling a
protocol 2-4 pickle copies the block with the same kernel.  NumPy is the
oracle for the bytes; every thread count gives the same ones.
"""

from __future__ import annotations

import ctypes
import pickle
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import minarray as ma

N = (6 << 20) // 8  # 6 MiB of float64: past the huge-page threshold (4 MiB)


@pytest.fixture(autouse=True)
def restore_threads() -> Iterator[None]:
    n = ma.get_num_threads()
    yield
    ma.set_num_threads(n)


def _data() -> np.ndarray:
    return np.random.default_rng(5).standard_normal(N)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_tobytes_of_a_large_array(threads: int, layout: str) -> None:
    ma.set_num_threads(threads)
    a = _data().reshape(768, 1024)
    if layout == "F":
        a = np.asfortranarray(a)
    x = ma.asarray(a, copy=True) if layout != "F" else ma.asarray(a).T.copy().T
    if layout == "strided":
        a, x = a[::-1, ::3], x[::-1, ::3]
    for order in ("C", "F"):
        assert x.tobytes(order) == a.tobytes(order)


@pytest.mark.skipif(not Path("/sys/kernel/mm/transparent_hugepage").exists() or not sys.platform.startswith("linux"),
                    reason="transparent huge pages are a Linux feature")
def test_tobytes_asks_for_huge_pages() -> None:
    b = ma.asarray(_data()).tobytes()
    ptr = ctypes.cast(ctypes.c_char_p(b), ctypes.c_void_p).value
    assert ptr is not None
    middle = ptr + len(b) // 2

    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = line.split()[0]
        if "-" in head and not head.endswith(":"):
            lo, hi = (int(v, 16) for v in head.split("-"))
            inside = lo <= middle < hi
        elif line.startswith("VmFlags:") and inside:
            assert "hg" in line.split()[1:]
            return
    pytest.fail("the bytes object's storage is not in /proc/self/smaps")


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("protocol", [2, 4, 5])
@pytest.mark.parametrize("fortran", [False, True])
def test_pickle_round_trip_of_a_large_array(threads: int, protocol: int, fortran: bool) -> None:
    ma.set_num_threads(threads)
    a = _data().reshape(1024, 768)
    x = ma.asarray(a, copy=True)
    if fortran:
        a, x = a.T, x.T
    y = pickle.loads(pickle.dumps(x, protocol=protocol))
    np.testing.assert_array_equal(np.asarray(y), a)
    assert y.flags.f_contiguous == fortran and y.flags.c_contiguous == (not fortran)
    y[0, 0] = 1.5  # writable, and its own memory
    assert float(x[0, 0]) == a[0, 0]


def test_read_only_array_comes_back_read_only() -> None:
    a = _data()
    r = ma.frombuffer(a.tobytes())  # over an immutable bytes object: read-only
    assert not r.flags.writeable
    y = pickle.loads(pickle.dumps(r, protocol=4))
    assert not y.flags.writeable
    np.testing.assert_array_equal(np.asarray(y), a)
