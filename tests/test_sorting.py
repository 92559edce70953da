"""Sorting (minarray/_sorting.py): sort and argsort against NumPy's stable
sort, and NumPy's partition."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_errors import raises_as_numpy
from numpy_oracle import same
from reduction_helpers import FLOATS, INTS, REAL, array_pairs, assert_matches, values

import minarray as ma
from minarray._native import core

SETTINGS = settings(max_examples=80, deadline=None)


def descending_argsort(a: np.ndarray, axis: int) -> np.ndarray:
    """Stable descending order, as the Array API specifies it (and as
    array-api-strict computes it): the ascending stable sort of the reversed
    array, reversed back and re-indexed."""
    n = a.shape[axis]
    rev = np.flip(np.argsort(np.flip(a, axis), axis=axis, stable=True), axis)
    return n - 1 - rev


@SETTINGS
@given(data=st.data(), pair=array_pairs(dtypes=REAL, min_dims=1, max_side=12, kind="special"))
def test_sort_argsort_match_numpy(data: st.DataObject, pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, x = pair
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    descending = data.draw(st.booleans())
    if descending:
        idx = descending_argsort(a, axis)
    else:
        idx = np.argsort(a, axis=axis, stable=True)
    assert_matches(ma.argsort(x, axis=axis, descending=descending), idx.astype(np.int64))
    expected = np.take_along_axis(a, idx, axis=axis)
    got = ma.sort(x, axis=axis, descending=descending)
    assert_matches(got, expected, ulps=0)
    if a.dtype.kind == "f":  # -0.0 ties with 0.0 and keeps its place and sign
        np.testing.assert_array_equal(np.signbit(np.asarray(got)), np.signbit(expected))


@pytest.mark.parametrize("dtype", [*INTS, *FLOATS, "bool"])
def test_large_radix_paths(dtype: str) -> None:
    rng = np.random.default_rng(11)
    a = values(rng, dtype, (5000,), "special")
    x = ma.asarray(a)
    assert_matches(ma.argsort(x), np.argsort(a, stable=True).astype(np.int64))
    assert_matches(ma.sort(x), np.sort(a), ulps=0)
    if dtype in INTS:
        info = np.iinfo(dtype)
        wide = rng.integers(info.min, info.max, 3000, dtype=dtype, endpoint=True)
        assert_matches(ma.sort(ma.asarray(wide)), np.sort(wide))


def test_nan_order_and_stability() -> None:
    a = np.array([np.nan, 2.0, -np.inf, 2.0, np.nan, -0.0, 0.0, 1.0])
    x = ma.asarray(a)
    assert ma.argsort(x).tolist() == np.argsort(a, stable=True).tolist()
    assert ma.argsort(x, descending=True).tolist() == [0, 4, 1, 3, 7, 5, 6, 2]
    s = ma.sort(x).tolist()
    assert s[:6] == [-np.inf, -0.0, 0.0, 1.0, 2.0, 2.0] and all(v != v for v in s[6:])


def test_sort_errors() -> None:
    with pytest.raises(ValueError, match="0-d"):
        ma.sort(ma.asarray(1.0))
    with pytest.raises(IndexError):
        ma.argsort(ma.ones((2, 3)), axis=2)


COMPLEX_VALUES = np.array([complex(np.nan, 1), complex(2, np.nan), 1 + 1j, complex(np.nan, np.nan), 3 + 0j,
                           complex(np.nan, 0), complex(0, np.nan), 1 + 0j, -np.inf + 0j, 1 - 1j, 3 + 0j, 0j])


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize(("shape", "axis"), [((12,), -1), ((3, 4), 0), ((3, 4), 1), ((2, 2, 3), 1), ((12,), None)])
def test_sort_complex_values_as_numpy(dtype: str, shape: tuple[int, ...], axis: int | None) -> None:
    """NumPy orders complex values by real part, then imaginary part, with
    R + nanj, nan + Rj and nan + nanj after every other value."""
    a = COMPLEX_VALUES.astype(dtype).reshape(shape)
    for f in ("sort", "argsort"):
        got = getattr(ma, f)(ma.asarray(a), axis=axis)
        want = getattr(np, f)(a, axis=axis, kind="stable")
        assert got.dtype == ma.asarray(want).dtype
        np.testing.assert_array_equal(np.asarray(got), want)


def test_sort_empty_and_views() -> None:
    assert ma.sort(ma.zeros((0, 3)), axis=0).shape == (0, 3)
    assert ma.argsort(ma.zeros((2, 0))).shape == (2, 0)
    a = np.arange(24, dtype=np.float32)[::-1].reshape(4, 6)[:, ::2]
    x = ma.asarray(np.arange(24, dtype=np.float32))[::-1].reshape(4, 6)[:, ::2]
    assert_matches(ma.sort(x, axis=0), np.sort(a, axis=0))
    assert_matches(ma.argsort(x.T, axis=1), np.argsort(a.T, axis=1, stable=True).astype(np.int64))


def test_sorts_identical_over_thread_counts() -> None:
    from minarray import _threads

    n0, pmin = ma.get_num_threads(), _threads._get_parallel_min()
    rng = np.random.default_rng(12)
    a = values(rng, "float32", (37, 300), "special")
    x = ma.asarray(a)
    try:
        _threads._set_parallel_min(1)
        results = []
        for n in (1, 2, 3, 7):
            ma.set_num_threads(n)
            jobs = _threads._pool_jobs()
            r = (np.asarray(ma.sort(x, axis=1)).copy(), np.asarray(ma.argsort(x, axis=0, descending=True)).copy())
            if n > 1:
                assert _threads._pool_jobs() > jobs, "the rows were not spread over the pool"
            results.append(r)
    finally:
        ma.set_num_threads(n0)
        _threads._set_parallel_min(pmin)
    for s, i in results[1:]:
        assert s.tobytes() == results[0][0].tobytes() and i.tobytes() == results[0][1].tobytes()
    assert_matches(ma.argsort(x, axis=1), np.argsort(a, axis=1, stable=True).astype(np.int64))


# ---- NumPy's partition -------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [*INTS, *FLOATS, "bool"])
@pytest.mark.parametrize("pattern", ["random", "sorted", "reversed", "equal", "organ", "few"])
def test_partition_puts_kth_in_place(dtype: str, pattern: str) -> None:
    rng = np.random.default_rng(7)
    n = 3000  # past the insertion cut-off and the merge sort's, adversarial orders included
    base = {"random": rng.integers(0, 1000, n), "sorted": np.arange(n), "reversed": np.arange(n)[::-1],
            "equal": np.zeros(n, int), "organ": np.concatenate([np.arange(n // 2), np.arange(n // 2)[::-1]]),
            "few": rng.integers(0, 3, n)}[pattern]
    a = (base % 120).astype(dtype) if dtype != "bool" else base % 2 == 1
    if dtype in FLOATS and pattern == "random":
        a[rng.integers(0, n, 30)] = np.nan
    kth = [0, 17, n // 2, n - 1]
    got = np.asarray(ma.partition(ma.asarray(a), kth))
    srt = np.sort(a)
    np.testing.assert_array_equal(got[kth], srt[kth])
    np.testing.assert_array_equal(np.sort(got), srt)  # a permutation of the input
    for k in kth:  # everything before is not larger, everything after not smaller
        with np.errstate(invalid="ignore"):
            assert not np.any(got[:k] > got[k]) and not np.any(got[k + 1:] < got[k])
    idx = np.asarray(ma.argpartition(ma.asarray(a), kth))
    np.testing.assert_array_equal(np.sort(idx), np.arange(n))
    np.testing.assert_array_equal(a[idx][kth], srt[kth])


@SETTINGS
@given(pair=array_pairs(dtypes=REAL, min_dims=1, max_dims=3, max_side=9, kind="special"), data=st.data())
def test_partition_matches_numpy_at_kth(pair: tuple[np.ndarray, ma.NDArray], data: Any) -> None:
    a, x = pair
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    n = a.shape[axis]
    if n == 0:
        return
    kth = data.draw(st.lists(st.integers(-n, n - 1), min_size=1, max_size=3))
    got = np.asarray(ma.partition(x, kth, axis=axis))
    expected = np.partition(a, kth, axis=axis)
    sel = np.take(expected, kth, axis=axis)
    np.testing.assert_array_equal(np.take(got, kth, axis=axis), sel)


# ---- sort_complex ----------------------------------------------------------------------

SORT_COMPLEX_CASES = {
    "int64": np.array([3, 1, 2, -5]), "int8": np.array([[3, -1], [0, 2]], np.int8),
    "uint16": np.array([9, 2, 7], np.uint16), "bool": np.array([True, False, True]),
    "float32": np.array([1.5, -0.5, 2.0], np.float32), "float16": np.array([2.0, 1.0], np.float16),
    "float64-nan": np.array([np.nan, 1.0, -2.0]),
    "complex128": np.array([1 + 2j, 1 - 1j, np.nan + 0j, 0j, 1 + np.nan * 1j, -3 + 4j, np.nan + 1j]),
    "complex128-nan-parts": COMPLEX_VALUES,
    "complex64-2d": (np.arange(12).reshape(3, 4)[:, ::-1] * (1 - 1j)).astype(np.complex64),
    "empty": np.zeros((2, 0)),
}


@pytest.mark.parametrize("name", sorted(SORT_COMPLEX_CASES))
def test_sort_complex_matches_numpy(name: str) -> None:
    a = SORT_COMPLEX_CASES[name]
    got = ma.sort_complex(ma.asarray(a))
    expected = np.sort_complex(a)
    assert got.dtype == ma.asarray(expected).dtype
    np.testing.assert_array_equal(np.asarray(got), expected)


def test_sort_complex_takes_a_list_and_leaves_its_input() -> None:
    x = ma.asarray([2 + 0j, 1 + 0j])
    same(ma.sort_complex(x), np.sort_complex(np.array([2 + 0j, 1 + 0j])))
    same(x, np.array([2 + 0j, 1 + 0j]))
    same(ma.sort_complex([3, 1, 2]), np.sort_complex([3, 1, 2]))


# ---- the selection kernel beyond one position per row ----------------------------------
# (csrc/core/sort.c) Median and quantile select several positions of a row at
# once (the middle ones and the last); each selection starts from the
# narrowest bracket the earlier ones left, and a position at either end of
# its bracket is found in one pass.  8-byte values are selected inside the
# output row itself when it shares no memory with the input, or walks it
# exactly (an in-place ``x.partition``).  NumPy is the oracle: the selected
# positions hold what its sort puts there, the rest is a permutation split
# around them.

SELECT_PATTERNS = ["random", "sorted", "reversed", "equal", "few", "nan"]


def _select_data(pattern: str, n: int, dtype: str, seed: int = 11) -> np.ndarray:
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


def _select_check(got: np.ndarray, a: np.ndarray, kth: list[int]) -> None:
    srt = np.sort(a)
    np.testing.assert_array_equal(got[kth], srt[kth])
    np.testing.assert_array_equal(np.sort(got), srt)  # a permutation of the input
    with np.errstate(invalid="ignore"):
        for k in kth:
            assert not np.any(got[:k] > got[k]) and not np.any(got[k + 1:] < got[k]), k


SELECT_KTH_SETS = {
    "median even": lambda n: [n // 2 - 1, n // 2, n - 1],
    "ends": lambda n: [0, 1, n - 2, n - 1],
    "neighbours": lambda n: list(range(n // 3, n // 3 + 40)),
    "many": lambda n: list(range(0, n, max(1, n // 300))),  # more than the bracket list holds
}


@pytest.mark.parametrize("dtype", ["float64", "int64", "uint64", "float32", "int16"])
@pytest.mark.parametrize("pattern", SELECT_PATTERNS)
@pytest.mark.parametrize("kset", sorted(SELECT_KTH_SETS))
def test_several_positions_of_a_row(dtype: str, pattern: str, kset: str) -> None:
    n = 5001
    a = _select_data(pattern, n, dtype)
    kth = SELECT_KTH_SETS[kset](n)
    _select_check(np.asarray(ma.partition(ma.asarray(a), kth)), a, kth)
    # in place: the output walks the input's bytes
    x = ma.asarray(a, copy=True)
    x.partition(kth)
    _select_check(np.asarray(x), a, kth)
    idx = np.asarray(ma.argpartition(ma.asarray(a), kth))
    np.testing.assert_array_equal(np.sort(idx), np.arange(n))
    np.testing.assert_array_equal(a[idx][kth], np.sort(a)[kth])


@pytest.mark.parametrize("dtype", ["float64", "int64"])
def test_rows_of_a_strided_input(dtype: str) -> None:
    """Rows read through a transpose, selected into a fresh contiguous output."""
    a = _select_data("random", 300 * 257, dtype).reshape(300, 257)
    kth = [0, 100, 150, 299]
    got = np.asarray(ma.partition(ma.asarray(a).T, kth, axis=-1))
    for r in range(0, a.shape[1], 37):
        _select_check(got[r], a[:, r], kth)
    got0 = np.asarray(ma.partition(ma.asarray(a), kth, axis=0))
    for c in range(0, a.shape[1], 37):
        _select_check(got0[:, c], a[:, c], kth)


def _core_partition(x: ma.NDArray, out: ma.NDArray, kth: list[int]) -> None:
    """The C entry point itself, so that the output may be the input."""
    core.partition(x._h, out._h, ma.asarray(kth, dtype=ma.int64)._h, False)


@pytest.mark.parametrize("dtype", ["float64", "uint64"])
def test_output_that_is_the_input(dtype: str) -> None:
    a = _select_data("random", 6000, dtype).reshape(2, 3000)
    x = ma.asarray(a, copy=True)
    kth = [0, 1499, 1500, 2999]
    _core_partition(x, x, kth)
    for r in range(2):
        _select_check(np.asarray(x)[r], a[r], kth)


def test_output_overlapping_the_input_reads_it_first() -> None:
    """Output rows shifted by one element over the input: the in-place
    path must not be taken (it would read keys for values)."""
    a = _select_data("random", 4001, "float64")
    buf = ma.asarray(a, copy=True)
    x, out = buf[:4000], buf[1:]
    kth = [0, 2000, 3999]
    _core_partition(x, out, kth)
    _select_check(np.asarray(buf)[1:], a[:4000], kth)


def test_in_place_partition_of_a_strided_view() -> None:
    """x[::2].partition: the output is the input itself, not contiguous."""
    a = _select_data("random", 4001, "float64")
    x = ma.asarray(a, copy=True)
    v = x[::2]
    kth = [0, 1000, 2000]
    v.partition(kth)
    _select_check(np.asarray(v), a[::2], kth)
    np.testing.assert_array_equal(np.asarray(x)[1::2], a[1::2])  # the other elements untouched


@pytest.mark.parametrize("pattern", SELECT_PATTERNS)
@pytest.mark.parametrize("n", [1, 2, 17, 1000, 1001])
def test_median_and_percentile_match_numpy(pattern: str, n: int) -> None:
    a = _select_data(pattern, n, "float64")
    x = ma.asarray(a)
    np.testing.assert_array_equal(np.asarray(ma.median(x)), np.median(a))
    for q in (0, 1, 30, 50, 99.9, 100):
        np.testing.assert_array_equal(np.asarray(ma.percentile(x, q)), np.percentile(a, q))


@pytest.mark.parametrize("keys", [
    (("Heinrich", "Galileo", "Gustav"), ("Hertz", "Galilei", "Hertz")),
    ([b"b", b"a", b"b", b"a"], [2, 1, 1, 2]),
    (["\u00e9", "e", "E", "z", "e"], [0, 0, 0, 0, 0]),
    ([9, 4, 0, 4, 0, 2, 1], (1, 5, 1, 4, 3, 4, 4)),
], ids=["names", "bytes-and-ints", "code-points", "tuples-of-ints"])
def test_lexsort_of_sequences_matches_numpy(keys: Any) -> None:
    np.testing.assert_array_equal(np.asarray(ma.lexsort(keys)), np.lexsort(keys))

def test_partition_numpy_signature() -> None:
    a = np.array([[5, 1, 4, 2], [9, 7, 8, 6]])
    kth = np.sort(a, 1)[:, 2]
    got = ma.partition(ma.asarray(a), 2, 1, "introselect", None)
    assert got[:, 2].tolist() == np.partition(a, 2, 1, "introselect", None)[:, 2].tolist() == kth.tolist()
    idx = np.asarray(ma.argpartition(ma.asarray(a), 2, 1, "introselect", None))
    assert np.take_along_axis(a, idx, 1)[:, 2].tolist() == kth.tolist()
    for fn in ("partition", "argpartition"):
        raises_as_numpy(lambda m, f=fn: getattr(m, f)(m.asarray(a), 1, kind="quick"), "introselect")


def _complex_with_nans(seed: int, shape: tuple[int, ...]) -> np.ndarray:
    # small integer parts (ties), and each of NumPy's NaN groups: R + nanj, nan + Rj, nan + nanj
    rng = np.random.default_rng(seed)
    a = (rng.integers(0, 3, shape) + 1j * rng.integers(0, 3, shape)).astype(complex)
    u = rng.random(shape)
    a[u < 0.08] = complex(np.nan, 1)
    a[(u >= 0.08) & (u < 0.14)] = a[(u >= 0.08) & (u < 0.14)].real + 1j * np.nan
    a[u > 0.95] = complex(np.nan, np.nan)
    return a


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("axis", [0, 1, -1, None], ids=lambda a: f"axis={a}")
def test_complex_sort_in_numpys_order(seed: int, axis: int | None) -> None:
    # NumPy orders complex numbers by real part, then imaginary part, NaN
    # groups last: [R + Rj, R + nanj, nan + Rj, nan + nanj]
    a = _complex_with_nans(seed, (5, 7))
    x = ma.asarray(a)
    np.testing.assert_array_equal(np.asarray(ma.sort(x, axis=axis)), np.sort(a, axis=axis))
    np.testing.assert_array_equal(np.asarray(ma.argsort(x, axis=axis)), np.argsort(a, axis=axis, kind="stable"))
    np.testing.assert_array_equal(np.asarray(ma.sort_complex(x)), np.sort_complex(a))



@pytest.mark.parametrize("seed", range(4))
def test_complex_descending_sort_is_stable(seed: int) -> None:
    # descending: NumPy's order reversed, equal values in their order
    a = _complex_with_nans(seed, (4, 9))
    x = ma.asarray(a)
    np.testing.assert_array_equal(np.asarray(ma.sort(x, axis=1, descending=True)), np.sort(a, axis=1)[:, ::-1])
    idx = np.asarray(ma.argsort(x, axis=1, descending=True))
    for row, order in zip(a, idx, strict=True):
        got = row[order]
        ties = (got[1:] == got[:-1]) | (np.isnan(got[1:]) & np.isnan(got[:-1]) & (
            np.isnan(got[1:].real) == np.isnan(got[:-1].real)) & (np.isnan(got[1:].imag) == np.isnan(got[:-1].imag)))
        same_value = ties & ~np.isnan(got[1:])
        assert (order[1:][same_value] > order[:-1][same_value]).all()
