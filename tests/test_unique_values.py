"""unique's values alone (np.unique(x), unique_values) for bool and integers.

These take a C pass that sorts keys only, without the positions the other
results need; NumPy is the oracle for values and dtype, over every integer
dtype, few and many distinct values, empty, 0-d and strided inputs.  The
results with index, inverse or counts still come from the full pass.
"""

from __future__ import annotations

import numpy as np
import pytest

import minarray as ma

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


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
    np.testing.assert_array_equal(np.asarray(ma.unique(ma.asarray(f))), np.unique(f))  # floats: the full pass
