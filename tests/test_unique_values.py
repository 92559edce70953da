"""unique's values alone (np.unique(x), unique_values) for every real dtype.

These take a C pass over keys only, without the positions the other
results need (a bitmap over a narrow key range, a hash set of few distinct
keys, else the radix sort); NumPy is the oracle for values and dtype, over
every integer and float dtype, few and many distinct values, empty, 0-d and
strided inputs, NaN, -0.0 and infinities, and the radix sort's split over
1, 2 and 4 threads.  The results with index, inverse or counts still come
from the full pass.
"""

from __future__ import annotations

import numpy as np
import pytest

import minarray as ma

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]


def _data(dtype: str, n: int, distinct: int, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    info = np.iinfo(dtype)
    lo, hi = int(info.min), int(info.max)
    picks = rng.integers(lo, hi, size=max(distinct, 1), dtype=np.int64 if lo < 0 else np.uint64, endpoint=True)
    return picks.astype(dtype)[rng.integers(0, len(picks), n)]


@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("distinct", [1, 7, 5000, 10**6])
def test_values_match_numpy(dtype: str, distinct: int) -> None:
    a = _data(dtype, 20_000, distinct)
    for got in (ma.unique(ma.asarray(a)), ma.unique_values(ma.asarray(a))):
        expected = np.unique(a)
        assert got.dtype == ma.asarray(expected).dtype
        np.testing.assert_array_equal(np.asarray(got), expected)


def test_extremes_and_bool() -> None:
    for dtype in INTS:
        info = np.iinfo(dtype)
        a = np.array([info.max, info.min, 0, info.max, 1, info.min], dtype=dtype)
        np.testing.assert_array_equal(np.asarray(ma.unique(ma.asarray(a))), np.unique(a))
    b = np.array([True, False, True, True])
    np.testing.assert_array_equal(np.asarray(ma.unique(ma.asarray(b))), np.unique(b))
    np.testing.assert_array_equal(np.asarray(ma.unique(ma.asarray(b[:1]))), np.unique(b[:1]))


@pytest.mark.parametrize("shape", [(0,), (), (3, 0), (1,)])
def test_empty_and_0d(shape: tuple[int, ...]) -> None:
    a = np.full(shape, 5, dtype=np.int32)
    got = ma.unique(ma.asarray(a))
    np.testing.assert_array_equal(np.asarray(got), np.unique(a))
    assert got.dtype == ma.int32 and got.shape == np.unique(a).shape


def test_strided_and_nd_inputs() -> None:
    a = _data("int64", 60_000, 300).reshape(200, 300)
    x = ma.asarray(a)
    for key in (np.s_[::2, ::-3], np.s_[:, 5], np.s_[::7]):
        np.testing.assert_array_equal(np.asarray(ma.unique(x[key])), np.unique(a[key]))
    np.testing.assert_array_equal(np.asarray(ma.unique(x.T)), np.unique(a.T))


def test_other_results_still_come_with_the_values() -> None:
    a = _data("int16", 5000, 40)
    got = ma.unique(ma.asarray(a), return_index=True, return_inverse=True, return_counts=True)
    expected = np.unique(a, return_index=True, return_inverse=True, return_counts=True)
    for g, e in zip(got, expected, strict=True):
        np.testing.assert_array_equal(np.asarray(g), e)
    f = np.array([0.5, -0.0, 0.0, np.nan, 0.5, np.nan])
    got = ma.unique(ma.asarray(f), return_counts=True)
    np.testing.assert_array_equal(np.asarray(got[0]), np.unique(f))
    np.testing.assert_array_equal(np.asarray(got[1]), np.unique(f, return_counts=True)[1])


def _float_data(dtype: str, n: int, pattern: str, seed: int = 5) -> np.ndarray:
    """n floats: `distinct` random ones, few values repeated, with NaN,
    +-0.0 and +-inf sprinkled in, or sorted, reverse-sorted, all equal."""
    rng = np.random.default_rng(seed)
    if pattern == "distinct":
        a = rng.standard_normal(n) * 1e3
    elif pattern == "few":
        a = rng.integers(-50, 50, n).astype(np.float64) / 4
    elif pattern == "special":
        a = rng.choice(np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1.5, -2.25, 1e-30]), n)
    elif pattern == "sorted":
        a = np.sort(rng.standard_normal(n))
    elif pattern == "reversed":
        a = np.sort(rng.standard_normal(n))[::-1].copy()
    else:  # all equal
        a = np.full(n, 3.5)
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("pattern", ["distinct", "few", "special", "sorted", "reversed", "equal"])
@pytest.mark.parametrize("n", [0, 1, 2000, 150_000])
def test_float_values_match_numpy(dtype: str, pattern: str, n: int) -> None:
    a = _float_data(dtype, n, pattern)
    x = ma.asarray(a)
    got = ma.unique(x)
    assert got.dtype == ma.asarray(a).dtype
    np.testing.assert_array_equal(np.asarray(got), np.unique(a))
    # unique_values and equal_nan=False: each NaN its own value, last
    nans = int(np.isnan(a).sum())
    expected = np.concatenate([np.unique(a[~np.isnan(a)]), np.full(nans, np.nan, dtype=dtype)])
    for each in (ma.unique_values(x), ma.unique(x, equal_nan=False)):
        np.testing.assert_array_equal(np.asarray(each), expected)
    # the full pass agrees with the values-only one
    np.testing.assert_array_equal(np.asarray(ma.unique(x, return_index=True)[0]), np.asarray(got))


def test_signed_zero_keeps_its_first_sign() -> None:
    """-0.0 and 0.0 are one value (NumPy groups them: they compare equal);
    its sign is the first occurrence's, in the values-only pass as in the
    full one (NumPy's unstable sort picks either)."""
    for a in ([-0.0, 0.0, 1.0], [0.0, -0.0, 1.0], [2.0, -0.0, -0.0], [np.nan, -0.0, np.nan, 0.0]):
        f = np.array(a)
        for dtype in FLOATS:
            x = ma.asarray(f.astype(dtype))
            v = np.asarray(ma.unique(x))
            full = np.asarray(ma.unique(x, return_counts=True)[0])
            first_zero = f[f == 0][0]
            zero = v[v == 0]
            assert zero.size == 1 and np.signbit(zero[0]) == np.signbit(first_zero), (a, dtype)
            np.testing.assert_array_equal(np.signbit(v), np.signbit(full))


@pytest.mark.parametrize("dtype", [*INTS, *FLOATS])
def test_extreme_keys(dtype: str) -> None:
    """The smallest and largest keys of each dtype (a key range as wide as
    it gets: neither the bitmap nor, with many values, the hash set)."""
    if dtype in FLOATS:
        info = np.finfo(dtype)
        edge = np.array([info.max, info.min, info.tiny, -info.tiny, np.inf, -np.inf, 0.0], dtype=dtype)
    else:
        i = np.iinfo(dtype)
        edge = np.array([i.max, i.min, i.max - 1, i.min + 1, 0], dtype=dtype)
    rng = np.random.default_rng(8)
    for a in (edge, np.concatenate([edge, _data(dtype, 5000, 5000) if dtype in INTS else
                                    rng.standard_normal(5000).astype(dtype)])[rng.permutation(5000 + len(edge))]):
        np.testing.assert_array_equal(np.asarray(ma.unique(ma.asarray(a))), np.unique(a))


@pytest.mark.parametrize("threads", [1, 2, 4])
@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "uint64", "float16", "float32", "float64"])
def test_large_inputs_over_thread_counts(dtype: str, threads: int) -> None:
    """400 000 elements, many distinct (the radix sort, its first split's
    buckets over the pool) and few (bitmap or hash set): NumPy's values,
    and the sort and argsort that share the radix sort."""
    n0 = ma.get_num_threads()
    rng = np.random.default_rng(threads)
    if dtype in FLOATS:
        many = _float_data(dtype, 400_000, "distinct", threads)
        many[::997] = np.nan
    else:
        many = _data(dtype, 400_000, 400_000, threads)
    few = many[rng.integers(0, 60, many.size)]
    try:
        ma.set_num_threads(threads)
        for a in (many, few):
            x = ma.asarray(a)
            np.testing.assert_array_equal(np.asarray(ma.unique(x)), np.unique(a))
        x = ma.asarray(many)
        np.testing.assert_array_equal(np.asarray(ma.sort(x)), np.sort(many, stable=True))
        np.testing.assert_array_equal(np.asarray(ma.argsort(x)), np.argsort(many, stable=True))
    finally:
        ma.set_num_threads(n0)
