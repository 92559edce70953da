"""The selection kernel (csrc/core/sort.c) beyond one position per row.

Median and quantile select several positions of a row at once (the middle
ones and the last); each selection starts from the narrowest bracket the
earlier ones left, and a position at either end of its bracket is found in
one pass.  8-byte values are selected inside the output row itself when
it shares no memory with the input, or walks it exactly (an in-place
``x.partition``).  NumPy is the oracle: the selected positions hold what
its sort puts there, the rest is a permutation split around them.
"""

from __future__ import annotations

import numpy as np
import pytest

import minarray as ma
from minarray._native import core

PATTERNS = ["random", "sorted", "reversed", "equal", "few", "nan"]


def _data(pattern: str, n: int, dtype: str, seed: int = 11) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = {"random": rng.integers(-10**6, 10**6, n), "sorted": np.arange(n), "reversed": np.arange(n)[::-1],
            "equal": np.zeros(n, np.int64), "few": rng.integers(0, 3, n),
            "nan": rng.integers(-50, 50, n)}[pattern]
    if dtype.startswith("uint"):
        base = np.abs(base)
    a = base.astype(dtype)
    if pattern == "nan" and dtype.startswith("float"):
        a[rng.integers(0, n, n // 50)] = np.nan
        a[rng.integers(0, n, n // 50)] = -0.0
    return a


def _check(got: np.ndarray, a: np.ndarray, kth: list[int]) -> None:
    srt = np.sort(a)
    np.testing.assert_array_equal(got[kth], srt[kth])
    np.testing.assert_array_equal(np.sort(got), srt)  # a permutation of the input
    with np.errstate(invalid="ignore"):
        for k in kth:
            assert not np.any(got[:k] > got[k]) and not np.any(got[k + 1:] < got[k]), k


KTH_SETS = {
    "median even": lambda n: [n // 2 - 1, n // 2, n - 1],
    "ends": lambda n: [0, 1, n - 2, n - 1],
    "neighbours": lambda n: list(range(n // 3, n // 3 + 40)),
    "many": lambda n: list(range(0, n, max(1, n // 300))),  # more than the bracket list holds
}


@pytest.mark.parametrize("dtype", ["float64", "int64", "uint64", "float32", "int16"])
@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("kset", sorted(KTH_SETS))
def test_several_positions_of_a_row(dtype: str, pattern: str, kset: str) -> None:
    n = 5001
    a = _data(pattern, n, dtype)
    kth = KTH_SETS[kset](n)
    _check(np.asarray(ma.partition(ma.asarray(a), kth)), a, kth)
    # in place: the output walks the input's bytes
    x = ma.asarray(a, copy=True)
    x.partition(kth)
    _check(np.asarray(x), a, kth)
    idx = np.asarray(ma.argpartition(ma.asarray(a), kth))
    np.testing.assert_array_equal(np.sort(idx), np.arange(n))
    np.testing.assert_array_equal(a[idx][kth], np.sort(a)[kth])


@pytest.mark.parametrize("dtype", ["float64", "int64"])
def test_rows_of_a_strided_input(dtype: str) -> None:
    """Rows read through a transpose, selected into a fresh contiguous output."""
    a = _data("random", 300 * 257, dtype).reshape(300, 257)
    kth = [0, 100, 150, 299]
    got = np.asarray(ma.partition(ma.asarray(a).T, kth, axis=-1))
    for r in range(0, a.shape[1], 37):
        _check(got[r], a[:, r], kth)
    got0 = np.asarray(ma.partition(ma.asarray(a), kth, axis=0))
    for c in range(0, a.shape[1], 37):
        _check(got0[:, c], a[:, c], kth)


def _core_partition(x: ma.NDArray, out: ma.NDArray, kth: list[int]) -> None:
    """The C entry point itself, so that the output may be the input."""
    core.partition(x._h, out._h, ma.asarray(kth, dtype=ma.int64)._h, False)


@pytest.mark.parametrize("dtype", ["float64", "uint64"])
def test_output_that_is_the_input(dtype: str) -> None:
    a = _data("random", 6000, dtype).reshape(2, 3000)
    x = ma.asarray(a, copy=True)
    kth = [0, 1499, 1500, 2999]
    _core_partition(x, x, kth)
    for r in range(2):
        _check(np.asarray(x)[r], a[r], kth)


def test_output_overlapping_the_input_reads_it_first() -> None:
    """Output rows shifted by one element over the input: the in-place
    path must not be taken (it would read keys for values)."""
    a = _data("random", 4001, "float64")
    buf = ma.asarray(a, copy=True)
    x, out = buf[:4000], buf[1:]
    kth = [0, 2000, 3999]
    _core_partition(x, out, kth)
    _check(np.asarray(buf)[1:], a[:4000], kth)


def test_in_place_partition_of_a_strided_view() -> None:
    """x[::2].partition: the output is the input itself, not contiguous."""
    a = _data("random", 4001, "float64")
    x = ma.asarray(a, copy=True)
    v = x[::2]
    kth = [0, 1000, 2000]
    v.partition(kth)
    _check(np.asarray(v), a[::2], kth)
    np.testing.assert_array_equal(np.asarray(x)[1::2], a[1::2])  # the other elements untouched


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("n", [1, 2, 17, 1000, 1001])
def test_median_and_percentile_match_numpy(pattern: str, n: int) -> None:
    a = _data(pattern, n, "float64")
    x = ma.asarray(a)
    np.testing.assert_array_equal(np.asarray(ma.median(x)), np.median(a))
    for q in (0, 1, 30, 50, 99.9, 100):
        np.testing.assert_array_equal(np.asarray(ma.percentile(x, q)), np.percentile(a, q))
