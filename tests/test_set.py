"""Set functions (minarray/_set.py): the unique_* family against NumPy 2's
Array API functions, and NumPy's set routines (intersect1d, union1d,
setdiff1d, setxor1d, isin)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy_oracle import both, same
from reduction_helpers import INTS, REAL, array_pairs, assert_matches, values

import minarray as ma

SETTINGS = settings(max_examples=80, deadline=None)


@SETTINGS
@given(pair=array_pairs(dtypes=REAL, kind="special"))
def test_unique_all_matches_numpy(pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, x = pair
    if a.dtype.kind not in "f":  # small value range so values repeat
        a = (a % 7).astype(a.dtype) if a.dtype != np.bool_ else a
        x = ma.asarray(a.copy())
    expected = np.unique_all(a)
    got = ma.unique_all(x)
    assert_matches(got.values, expected.values, ulps=0)
    assert_matches(got.counts, expected.counts.astype(np.int64))
    assert_matches(got.inverse_indices, expected.inverse_indices.astype(np.int64))
    # NumPy's indices are one first-occurrence per value; minarray's too.
    assert_matches(got.indices, expected.indices.astype(np.int64))
    assert got.values.shape == got.counts.shape == got.indices.shape
    # values[inverse] rebuilds x (NaN-aware)
    rebuilt = np.asarray(got.values)[np.asarray(got.inverse_indices)]
    np.testing.assert_array_equal(rebuilt, a)


@SETTINGS
@given(pair=array_pairs(dtypes=REAL, kind="special"))
def test_unique_variants_agree(pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, x = pair
    v = ma.unique_values(x)
    # NumPy 2.3+ returns unique_values in hash order; minarray's are sorted.
    assert_matches(v, np.sort(np.unique_values(a)), ulps=0)
    c = ma.unique_counts(x)
    assert_matches(c.values, np.unique_counts(a).values, ulps=0)
    assert_matches(c.counts, np.unique_counts(a).counts.astype(np.int64))
    i = ma.unique_inverse(x)
    expected = np.unique_inverse(a).inverse_indices.astype(np.int64)
    # NumPy's unique_inverse sorts unstably, so which NaN group each NaN
    # lands in is arbitrary there; compare the rest, and check the groups.
    nan = np.isnan(a) if a.dtype.kind == "f" else np.zeros(a.shape, bool)
    got = np.asarray(i.inverse_indices)
    np.testing.assert_array_equal(got[~nan], expected[~nan])
    assert sorted(got[nan].tolist()) == sorted(expected[nan].tolist())
    assert i._fields == ("values", "inverse_indices") and c._fields == ("values", "counts")


def test_nan_distinct_signed_zero_equal() -> None:
    a = np.array([np.nan, 0.0, np.nan, -0.0, 1.0])
    r = ma.unique_all(ma.asarray(a))
    assert r.counts.tolist() == [2, 1, 1, 1]
    assert r.indices.tolist() == [1, 4, 0, 2]
    assert r.inverse_indices.tolist() == [2, 0, 3, 0, 1]


def test_unique_0d_and_empty() -> None:
    r = ma.unique_all(ma.asarray(5))
    assert r.values.tolist() == [5] and r.inverse_indices.shape == ()
    e = ma.unique_inverse(ma.zeros((0, 3)))
    assert e.values.shape == (0,) and e.inverse_indices.shape == (0, 3)
    # complex input is allowed (the standard's unique_* take any numeric dtype)
    assert ma.unique_values(ma.asarray(np.array([1j, 1j]))).tolist() == [1j]


# ---- complex input (the standard allows it; NumPy orders lexicographically) ----------

@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.complex128, hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=6),
                  elements=st.sampled_from([0j, -0.0 + 0j, 1 + 1j, 1 - 1j, -1 + 0j, 2j, 1 + 1j,
                                            complex(np.nan, 0), complex(0, np.nan), complex(np.inf, 1)])))
def test_unique_all_of_complex_matches_numpy(a: np.ndarray) -> None:
    r = ma.unique_all(ma.asarray(a))
    v, i, inv, c = np.unique(a, return_index=True, return_inverse=True, return_counts=True, equal_nan=False)
    np.testing.assert_array_equal(np.asarray(r.values), v)
    np.testing.assert_array_equal(np.asarray(r.indices), i)
    np.testing.assert_array_equal(np.asarray(r.inverse_indices), inv.reshape(a.shape))
    np.testing.assert_array_equal(np.asarray(r.counts), c)
    test = a.reshape(-1)[::2]
    np.testing.assert_array_equal(np.asarray(ma.isin(ma.asarray(a), ma.asarray(test))), np.isin(a, test))
    np.testing.assert_array_equal(np.asarray(ma.isin(ma.asarray(a), ma.asarray(test), invert=True)),
                                  np.isin(a, test, invert=True))


# ---- NumPy's set routines ----------------------------------------------------------------

@SETTINGS
@given(pair=array_pairs(dtypes=["int8", "int64", "uint32", "float32", "float64"], max_dims=2, max_side=8,
                        kind="special"), data=st.data())
def test_sets_match_numpy(pair: tuple[np.ndarray, ma.NDArray], data: Any) -> None:
    a, _x = pair
    if a.dtype.kind != "f":  # few distinct values, so they repeat
        a = (a % 5).astype(a.dtype)
    got, expected = both("unique", a, return_index=True, return_inverse=True, return_counts=True)
    same(got[0], expected[0])
    same(got[3], expected[3].astype(np.int64))
    same(got[2], expected[2].astype(np.int64))
    np.testing.assert_array_equal(np.asarray(got[0])[np.asarray(got[2])], a)
    other = values(np.random.default_rng(data.draw(st.integers(0, 99))), str(a.dtype), (5,), "special")
    if a.dtype.kind != "f":
        other = (other % 5).astype(a.dtype)
    for fn in ("intersect1d", "union1d", "setdiff1d", "setxor1d"):
        got, expected = both(fn, a, other)
        same(got, expected)
    for invert in (False, True):
        got, expected = both("isin", a, other, invert=invert)
        same(got, expected)


# ---- unique's values alone (np.unique(x), unique_values) for every real dtype ----------
# These take a C pass over keys only, without the positions the other
# results need (a bitmap over a narrow key range, a hash set of few distinct
# keys, else the radix sort); NumPy is the oracle for values and dtype, over
# every integer and float dtype, few and many distinct values, empty, 0-d and
# strided inputs, NaN, -0.0 and infinities, and the radix sort's split over
# 1, 2 and 4 threads.  The results with index, inverse or counts still come
# from the full pass.

FLOATS = ["float16", "float32", "float64"]

def _unique_data(dtype: str, n: int, distinct: int, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    info = np.iinfo(dtype)
    lo, hi = int(info.min), int(info.max)
    picks = rng.integers(lo, hi, size=max(distinct, 1), dtype=np.int64 if lo < 0 else np.uint64, endpoint=True)
    return picks.astype(dtype)[rng.integers(0, len(picks), n)]


@pytest.mark.parametrize("dtype", INTS)
@pytest.mark.parametrize("distinct", [1, 7, 5000, 10**6])
def test_values_match_numpy(dtype: str, distinct: int) -> None:
    a = _unique_data(dtype, 20_000, distinct)
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
    a = _unique_data("int64", 60_000, 300).reshape(200, 300)
    x = ma.asarray(a)
    for key in (np.s_[::2, ::-3], np.s_[:, 5], np.s_[::7]):
        np.testing.assert_array_equal(np.asarray(ma.unique(x[key])), np.unique(a[key]))
    np.testing.assert_array_equal(np.asarray(ma.unique(x.T)), np.unique(a.T))


def test_other_results_still_come_with_the_values() -> None:
    a = _unique_data("int16", 5000, 40)
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


# The values-only pass and sort of values go through a vectorised quicksort
# (csrc/core/vsort.c): register-sized leaves sorted by a network (up to 256
# keys with AVX-512, 32 with AVX2), partitions out of place, the top levels
# over the pool from 131 072 keys.  The sizes straddle each of those edges;
# NaN, -0.0/0.0 and infinities are mixed into distinct values.
VSORT_CHECK = """
import numpy as np
import minarray as ma

def check(threads):
    rng = np.random.default_rng(threads)
    special = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 5e-324, -5e-324, 1.0, -1.0])
    for n in (2, 17, 31, 32, 33, 127, 128, 129, 255, 256, 257, 1000, 131_071, 131_073, 300_001):
        for dtype in ("float64", "float32"):
            a = rng.standard_normal(n).astype(dtype)
            a[rng.integers(0, n, max(n // 16, 1))] = rng.choice(special, max(n // 16, 1))
            for b in (a, a[::-1].copy(), np.sort(a)):
                x = ma.asarray(b)
                np.testing.assert_array_equal(np.asarray(ma.unique(x)), np.unique(b))
                np.testing.assert_array_equal(np.asarray(ma.unique(x, equal_nan=False)),
                                              np.unique(b, equal_nan=False))
                np.testing.assert_array_equal(np.asarray(ma.sort(x)), np.sort(b))
                # without a -0.0 (whose sign a sort must keep) sort takes the vector sort too
                c = np.where(b == 0, np.zeros_like(b), b)
                np.testing.assert_array_equal(np.asarray(ma.sort(ma.asarray(c))), np.sort(c))
                zeros = b[b == 0]
                if zeros.size:  # the zeros' value takes its first occurrence's sign
                    v = np.asarray(ma.unique_values(x))
                    assert np.signbit(v[v == 0][0]) == np.signbit(zeros[0]), (n, dtype)
        i = rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64, endpoint=True)
        i[:: 7] = i[0]
        np.testing.assert_array_equal(np.asarray(ma.unique(ma.asarray(i))), np.unique(i))
        np.testing.assert_array_equal(np.asarray(ma.sort(ma.asarray(i))), np.sort(i))
"""


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_vector_sort_edges_match_numpy(threads: int) -> None:
    n0 = ma.get_num_threads()
    scope: dict[str, Any] = {}
    exec(VSORT_CHECK, scope)
    try:
        ma.set_num_threads(threads)
        scope["check"](threads)
    finally:
        ma.set_num_threads(n0)


def test_vector_sort_avx2_path_matches_numpy() -> None:
    """MINARRAY_NO_AVX512=1 (read once per process, hence the child) keeps
    the AVX2 kernels: the path of CPUs without AVX-512 (on one without
    AVX2 either, the radix sort, which the full pass tests already)."""
    env = dict(os.environ, MINARRAY_NO_AVX512="1")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join([root, env.get("PYTHONPATH", "")])
    code = VSORT_CHECK + textwrap.dedent("""
        for threads in (1, 2, 4):
            ma.set_num_threads(threads)
            check(threads)
        print("checked")
    """)
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "checked"


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
    for a in (edge, np.concatenate([edge, _unique_data(dtype, 5000, 5000) if dtype in INTS else
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
        many = _unique_data(dtype, 400_000, 400_000, threads)
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


@pytest.mark.parametrize("invert", [False, True])
@pytest.mark.parametrize("test_set", [{1, 2, 4, 8}, frozenset({0}), set()], ids=["set", "frozenset", "empty"])
def test_isin_of_a_python_set_is_as_numpys(test_set: Any, invert: bool) -> None:
    # NumPy reads a set as one object, which no element equals (the
    # docstring's example): an all-False result, all True inverted
    element = 2 * np.arange(4).reshape((2, 2))
    expected = np.isin(element, test_set, invert=invert)
    got = ma.isin(ma.asarray(element), test_set, invert=invert)
    assert got.dtype == ma.bool
    np.testing.assert_array_equal(np.asarray(got), expected)


UNIQUE_AXIS_SAMPLES = {
    "rows": np.array([[1, 0, 0], [1, 0, 0], [2, 3, 4]]),
    "3-d": (np.arange(48).reshape((2, 4, 6)) % 3).astype(np.int16),
    "floats": np.array([[1.5, -0.0], [np.nan, 2.0], [1.5, 0.0], [np.nan, 2.0], [-1.0, 9.0]]),
    "bools": np.array([[True, False], [False, True], [True, False]]),
    "complex": np.array([[1 + 2j, 3], [1 + 2j, 3], [1 - 2j, 3]]),
    "empty": np.zeros((0, 3)),
    "1-d": np.array([3, 1, 3, 2]),
}


@pytest.mark.parametrize("name", list(UNIQUE_AXIS_SAMPLES))
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_unique_along_an_axis_matches_numpy(name: str, axis: int) -> None:
    a = UNIQUE_AXIS_SAMPLES[name]
    kw = {"return_index": True, "return_inverse": True, "return_counts": True}
    try:
        expected = np.unique(a, axis=axis, **kw)
    except np.exceptions.AxisError:
        with pytest.raises(ma.exceptions.AxisError):
            ma.unique(ma.asarray(a), axis=axis, **kw)
        return
    got = ma.unique(ma.asarray(a), axis=axis, **kw)
    assert len(got) == len(expected) == 4
    for g, e in zip(got, expected, strict=True):
        same(g, e)
    same(ma.unique(ma.asarray(a), axis=axis), np.unique(a, axis=axis))
