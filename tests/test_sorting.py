"""Sorting (minarray/_sorting.py): sort and argsort against NumPy's stable
sort, and NumPy's partition."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_oracle import same
from reduction_helpers import FLOATS, INTS, REAL, array_pairs, assert_matches, values

import minarray as ma

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
    with pytest.raises(TypeError, match="complex"):
        ma.sort(ma.asarray(np.array([1j, 2j])))


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
