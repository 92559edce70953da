"""Statistical functions (minarray/_statistical.py) against NumPy: every
dtype, axis form, keepdims, empty and 0-d inputs and non-contiguous views;
and NumPy's statistics beside the standard's (quantiles, medians, the nan*
reductions, cumsum/cumprod, ptp, average)."""

from __future__ import annotations

import itertools
import math
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_errors import raises_as_numpy
from numpy_oracle import both, cumulative_prod, cumulative_sum, np_function, same, sum_bits
from reduction_helpers import ALL, FLOATS, INTS, REAL, array_pairs, assert_matches, axes_for, to_numpy, values

import minarray as ma

# Special values are the point of these tests; which warnings they give is
# test_errstate.py's subject (NumPy as the oracle).
pytestmark = [pytest.mark.filterwarnings("ignore:.* encountered in :RuntimeWarning"),
              pytest.mark.filterwarnings("ignore:Mean of empty slice:RuntimeWarning"),
              pytest.mark.filterwarnings("ignore:Degrees of freedom <= 0:RuntimeWarning")]

SETTINGS = settings(max_examples=60, deadline=None)


@SETTINGS
@given(data=st.data(), pair=array_pairs())
def test_sum_matches_numpy(data: st.DataObject, pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, x = pair
    axis = data.draw(axes_for(a.ndim))
    keepdims = data.draw(st.booleans())
    expected = np.sum(a, axis=axis, keepdims=keepdims)
    scale = np.sum(np.abs(a.astype(np.complex128)), axis=axis, keepdims=keepdims) if a.dtype.kind in "fc" else None
    assert_matches(ma.sum(x, axis=axis, keepdims=keepdims), expected, scale=scale)


@SETTINGS
@given(data=st.data(), pair=array_pairs(kind="prod"))
def test_prod_matches_numpy(data: st.DataObject, pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, x = pair
    axis = data.draw(axes_for(a.ndim))
    keepdims = data.draw(st.booleans())
    expected = np.prod(a, axis=axis, keepdims=keepdims)
    assert_matches(ma.prod(x, axis=axis, keepdims=keepdims), expected, ulps=64)


@SETTINGS
@given(data=st.data(), pair=array_pairs(dtypes=REAL, kind="special"))
def test_min_max_match_numpy(data: st.DataObject, pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, x = pair
    axis = data.draw(axes_for(a.ndim))
    keepdims = data.draw(st.booleans())
    for name in ("min", "max"):
        reduced = range(a.ndim) if axis is None else np.atleast_1d(np.asarray(axis, dtype=int))
        if math.prod(a.shape[i] for i in reduced) == 0:
            with pytest.raises(ValueError):
                getattr(np, name)(a, axis=axis)
            with pytest.raises(ValueError, match="identity"):
                getattr(ma, name)(x, axis=axis, keepdims=keepdims)
            continue
        expected = getattr(np, name)(a, axis=axis, keepdims=keepdims)
        assert_matches(getattr(ma, name)(x, axis=axis, keepdims=keepdims), expected, ulps=0)


@SETTINGS
@given(data=st.data(), pair=array_pairs(dtypes=[*REAL, *ALL[-2:]]))
def test_mean_matches_numpy(data: st.DataObject, pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, x = pair
    axis = data.draw(axes_for(a.ndim))
    keepdims = data.draw(st.booleans())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # mean of empty slice
        expected = np.mean(a, axis=axis, keepdims=keepdims)
    scale = np.mean(np.abs(a.astype(np.complex128)), axis=axis, keepdims=keepdims) if a.size else None
    # NumPy rounds float16 partial sums to float16; minarray keeps float32.
    ulps = 16 if a.dtype == np.float16 else 8
    assert_matches(ma.mean(x, axis=axis, keepdims=keepdims), expected, scale=scale, ulps=ulps)


@SETTINGS
@given(data=st.data(), pair=array_pairs(dtypes=REAL))
def test_var_std_match_numpy(data: st.DataObject, pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, x = pair
    axis = data.draw(axes_for(a.ndim))
    keepdims = data.draw(st.booleans())
    correction = data.draw(st.sampled_from([0, 1, 0.5, 2]))
    wide = a.astype(np.float64)
    for name in ("var", "std"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # degrees of freedom <= 0
            if a.dtype == np.float16:
                # minarray computes float16 statistics in float32 and rounds
                # once; NumPy's float16 steps overflow where the result does
                # not (a sum of squares past 65504): compare with float32
                src = a.astype(np.float32)
                expected = getattr(np, name)(src, axis=axis, ddof=correction, keepdims=keepdims)
                expected = np.asarray(expected).astype(np.float16)
            else:
                expected = getattr(np, name)(a, axis=axis, ddof=correction, keepdims=keepdims)
            scale = np.mean(wide * wide, axis=axis, keepdims=keepdims) if a.size else None
        if name == "std" and scale is not None:
            scale = np.sqrt(scale)
        ulps = 16
        got = getattr(ma, name)(x, axis=axis, correction=correction, keepdims=keepdims)
        assert_matches(got, expected, scale=scale, ulps=ulps)


@SETTINGS
@given(data=st.data(), pair=array_pairs(min_dims=1, max_side=8))
def test_cumulative_sum_prod(data: st.DataObject, pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, x = pair
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    include = data.draw(st.booleans())
    if a.dtype.kind in "fc":
        a = a / 8  # keep float16 running sums exact enough to compare
        x = ma.asarray(a)
    expected = cumulative_sum(a, axis=axis, include_initial=include)
    scale = cumulative_sum(np.abs(a.astype(np.complex128)), axis=axis, include_initial=include)
    assert_matches(ma.cumulative_sum(x, axis=axis, include_initial=include), expected, scale=scale)
    ones = np.ones_like(a)
    expected = cumulative_prod(ones, axis=axis, include_initial=include)
    assert_matches(ma.cumulative_prod(ma.asarray(ones), axis=axis, include_initial=include), expected)


@SETTINGS
@given(pair=array_pairs(min_dims=1, max_dims=1, max_side=20, kind="prod"))
def test_cumulative_prod_1d(pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, x = pair
    expected = cumulative_prod(a)
    scale = cumulative_prod(np.abs(a.astype(np.complex128)))
    assert_matches(ma.cumulative_prod(x), expected, scale=scale, ulps=64)


# ---- dtype rules -----------------------------------------------------------

@pytest.mark.parametrize("dtype", [*REAL, "complex64", "complex128"])
def test_default_result_dtypes(dtype: str) -> None:
    a = values(np.random.default_rng(0), dtype, (5,), "prod")
    x = ma.asarray(a)
    assert str(ma.sum(x).dtype) == str(np.sum(a).dtype)
    assert str(ma.prod(x).dtype) == str(np.prod(a).dtype)
    assert str(ma.cumulative_sum(x).dtype) == str(cumulative_sum(a).dtype)
    assert str(ma.mean(x).dtype) == str(np.mean(a).dtype)


@pytest.mark.parametrize("src", ["bool", "int8", "uint8", "int32", "float32", "float64"])
@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "int64", "uint64", "float32", "float64", "bool"])
def test_sum_prod_with_dtype(src: str, dtype: str) -> None:
    a = values(np.random.default_rng(1), src, (4, 7), "prod") * (3 if src != "bool" else 1)
    a = a.astype(src)
    x = ma.asarray(a)
    for name in ("sum", "prod"):
        expected = getattr(np, name)(a, axis=1, dtype=dtype)
        assert_matches(getattr(ma, name)(x, axis=1, dtype=dtype), expected, ulps=64)
        expected = cumulative_sum(a, axis=1, dtype=dtype) if name == "sum" else cumulative_prod(
            a, axis=1, dtype=dtype)
        fn = ma.cumulative_sum if name == "sum" else ma.cumulative_prod
        assert_matches(fn(x, axis=1, dtype=dtype), expected, ulps=64)


def test_integer_sums_wrap_like_numpy() -> None:
    a = np.array([2**62, 2**62, 2**62], dtype=np.int64)
    assert ma.sum(ma.asarray(a)).item() == int(np.sum(a))
    u = np.array([2**63, 2**63 + 5], dtype=np.uint64)
    assert ma.sum(ma.asarray(u)).item() == int(np.sum(u))
    assert ma.sum(ma.asarray(np.array([100, 100], np.int8)), dtype=ma.int8).item() == -56


# ---- accuracy --------------------------------------------------------------

def test_float32_ones_sum_exact() -> None:
    x = ma.ones((10**7,), dtype=ma.float32)
    assert ma.sum(x).item() == 1e7 == float(np.sum(np.ones(10**7, np.float32)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pairwise_error_within_numpy(dtype: str) -> None:
    rng = np.random.default_rng(5)
    for n in (1000, 123_457, 2_000_003):
        a = (rng.random(n) + 0.5).astype(dtype)
        exact = math.fsum(a.astype(np.float64).tolist())
        np_err = abs(float(sum_bits(a)) - exact)  # NumPy's error, in the order minarray keeps
        ma_err = abs(ma.sum(ma.asarray(a)).item() - exact)
        ulp = float(np.spacing(np.asarray(exact, dtype)))
        assert ma_err <= max(np_err, ulp), (n, ma_err, np_err)


def test_contiguous_float_sum_bitwise_equal_to_numpy() -> None:
    rng = np.random.default_rng(7)
    for n in (7, 8, 129, 1000, 77_777):
        for dtype in ("float32", "float64"):
            a = rng.standard_normal(n).astype(dtype)
            assert ma.sum(ma.asarray(a)).item() == float(sum_bits(a))


def test_sum_along_each_axis_of_large_2d() -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal((300, 257))
    x = ma.asarray(a)
    for axis in (0, 1, None):
        np.testing.assert_allclose(to_numpy(ma.sum(x, axis=axis)), np.sum(a, axis=axis), rtol=1e-12, atol=1e-10)
        np.testing.assert_allclose(to_numpy(ma.sum(x.T, axis=axis)), np.sum(a.T, axis=axis), rtol=1e-12, atol=1e-10)


# ---- empty, 0-d, NaN -------------------------------------------------------

def test_empty_reductions_follow_the_standard() -> None:
    e = ma.zeros((0,), dtype=ma.float32)
    assert ma.sum(e).item() == 0.0 and ma.sum(e).dtype == ma.float32
    assert ma.prod(e).item() == 1.0
    assert math.isnan(ma.mean(e).item())
    assert math.isnan(ma.var(e).item())
    assert ma.all(e).item() is True and ma.any(e).item() is False
    assert ma.count_nonzero(e).item() == 0
    for fn in (ma.min, ma.max):
        with pytest.raises(ValueError, match="identity"):
            fn(e)
    z = ma.zeros((3, 0))
    assert ma.sum(z, axis=1).shape == (3,)
    assert ma.max(ma.zeros((0, 3)), axis=1).shape == (0,)
    with pytest.raises(ValueError):
        ma.min(z, axis=1)


@pytest.mark.parametrize("dtype", ["int16", "float64", "bool"])
def test_zero_d_inputs(dtype: str) -> None:
    a = np.asarray(values(np.random.default_rng(2), dtype, ()))
    x = ma.asarray(a)
    for name in ("sum", "prod", "min", "max", "all", "any"):
        for axis in (None, ()):
            assert_matches(getattr(ma, name)(x, axis=axis), getattr(np, name)(a, axis=axis))
    assert_matches(ma.mean(x), np.mean(a))
    assert_matches(ma.cumulative_sum(x), cumulative_sum(a))
    with pytest.raises(IndexError):
        ma.sum(x, axis=0)


@pytest.mark.parametrize("dtype", FLOATS)
def test_nan_propagates(dtype: str) -> None:
    a = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]], dtype=dtype)
    x = ma.asarray(a)
    for name in ("sum", "prod", "min", "max", "mean", "var", "std"):
        assert_matches(getattr(ma, name)(x, axis=1), getattr(np, name)(a, axis=1), ulps=16)
    big = np.full(1000, 2.0, dtype=dtype)
    big[517] = np.nan
    for name in ("min", "max"):
        assert math.isnan(getattr(ma, name)(ma.asarray(big)).item())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_contiguous_min_max_at_every_position(dtype: str) -> None:
    """The contiguous kernel (four vector accumulators, then a tail) against
    NumPy for runs around its block lengths, with the extreme, a NaN or an
    infinity at each position, and the same bits as a strided copy gives
    (a different loop) wherever no two zeros of different signs tie."""
    rng = np.random.default_rng(12)
    for n in (1, 5, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100):
        base = rng.uniform(-1.0, 1.0, n).astype(dtype)
        for at in range(n):
            for special in (5.0, -5.0, np.nan, np.inf, -np.inf):
                a = base.copy()
                a[at] = special
                wide = np.repeat(a, 2)  # a[::2] of it is the same run, strided
                for name in ("min", "max"):
                    got = getattr(ma, name)(ma.asarray(a)).item()
                    want = getattr(np, name)(a)
                    assert got == want or (math.isnan(got) and math.isnan(want)), (n, at, special, name)
                    strided = getattr(ma, name)(ma.asarray(wide)[::2]).item()
                    assert np.float64(got).tobytes() == np.float64(strided).tobytes()


def test_keepdims_shapes() -> None:
    x = ma.ones((2, 3, 4))
    assert ma.sum(x, axis=(0, 2), keepdims=True).shape == (1, 3, 1)
    assert ma.sum(x, keepdims=True).shape == (1, 1, 1)
    assert ma.sum(x, axis=(), keepdims=True).shape == (2, 3, 4)
    assert ma.mean(x, axis=-1).shape == (2, 3)


# ---- errors ----------------------------------------------------------------

def test_bad_axes() -> None:
    x = ma.ones((2, 3))
    for fn in (ma.sum, ma.prod, ma.min, ma.max, ma.mean, ma.var, ma.std, ma.all, ma.any, ma.count_nonzero):
        with pytest.raises(IndexError):
            fn(x, axis=2)
        with pytest.raises(IndexError):
            fn(x, axis=(0, -3))
        with pytest.raises(ValueError, match="repeated"):
            fn(x, axis=(1, -1))
        with pytest.raises(TypeError):
            fn(x, axis=1.0)
    with pytest.raises(IndexError):
        ma.cumulative_sum(x, axis=2)
    with pytest.raises(ValueError, match="axis"):
        ma.cumulative_sum(x)


def test_bad_dtypes() -> None:
    with pytest.raises(TypeError):
        ma.sum(ma.ones(3), dtype="not a dtype")
    with pytest.raises(TypeError):
        ma.var(ma.ones(3), correction="1")


def test_integer_inputs_to_statistics_give_float64() -> None:
    a = np.arange(10, dtype=np.int16).reshape(2, 5)
    x = ma.asarray(a)
    assert_matches(ma.mean(x, axis=1), np.mean(a, axis=1))
    assert_matches(ma.var(x, axis=1, correction=1), np.var(a, axis=1, ddof=1))
    assert_matches(ma.std(x), np.std(a))


@pytest.mark.parametrize("dtype", INTS)
def test_min_max_integer_extremes(dtype: str) -> None:
    info = np.iinfo(dtype)
    a = np.array([info.max, info.min, 0, info.max], dtype=dtype)
    x = ma.asarray(a)
    assert ma.min(x).item() == info.min and ma.max(x).item() == info.max


# ---- bfloat16 (NumPy needs ml_dtypes for it) ----------------------------------

def test_bfloat16_reductions_follow_float32() -> None:
    ml_dtypes = pytest.importorskip("ml_dtypes", reason="NumPy has no bfloat16 without ml_dtypes")
    rng = np.random.default_rng(4)
    a32 = rng.standard_normal((6, 50)).astype(np.float32)
    a = a32.astype(ml_dtypes.bfloat16)
    wide = a.astype(np.float32)
    x = ma.asarray(a)

    def back(r: ma.NDArray) -> np.ndarray:
        assert r.dtype == ma.bfloat16
        return np.asarray(r.astype(ma.float32))  # exact: bfloat16 is a truncated float32

    for axis in (None, 0, 1):
        # bfloat16 sums accumulate in float32 and round once, as float16's
        for name in ("sum", "mean", "max", "min", "var", "std"):
            expected = getattr(np, name)(wide, axis=axis)
            tol = 2.0**-7 * (np.max(np.abs(wide)) * (a.size if name == "sum" else 4))
            np.testing.assert_allclose(back(getattr(ma, name)(x, axis=axis)), expected, rtol=2.0**-7, atol=tol)
    np.testing.assert_array_equal(np.asarray(ma.argmax(x, axis=1)), np.argmax(wide, axis=1))
    np.testing.assert_array_equal(back(ma.sort(x, axis=1)), np.sort(wide, axis=1))
    np.testing.assert_array_equal(np.asarray(ma.argsort(x, axis=0)), np.argsort(wide, axis=0, stable=True))
    np.testing.assert_array_equal(back(ma.unique_values(x)), np.unique(wide))


@pytest.mark.parametrize("dtype", ["float16", "float32", "int8", "uint16", "complex64", "bool"])
@pytest.mark.parametrize("include", [False, True])
def test_scans_along_strided_axes(dtype: str, include: bool) -> None:
    # Along axis 0 of a C array the scans are stepped side by side across
    # axis 1; the result must be the one of scanning each column alone,
    # bit for bit (float16 rounds after every step either way).
    rng = np.random.default_rng(9)
    a = values(rng, dtype, (40, 3, 33), "prod")
    x = ma.asarray(a)
    for fn, ref in ((ma.cumulative_sum, cumulative_sum), (ma.cumulative_prod, cumulative_prod)):
        got = np.asarray(fn(x, axis=0, include_initial=include))
        alone = np.asarray(fn(ma.asarray(np.ascontiguousarray(np.moveaxis(a, 0, -1))), axis=-1,
                              include_initial=include))
        np.testing.assert_array_equal(got, np.moveaxis(alone, -1, 0))
        expected = ref(a, axis=0, include_initial=include)
        assert_matches(fn(x, axis=0, include_initial=include), expected, ulps=64,
                       scale=ref(np.abs(a.astype(np.complex128)), axis=0, include_initial=include))


# ---- NumPy's statistics beside the standard's ------------------------------------

ORDER_DTYPES = ["int8", "int32", "int64", "uint16", "float16", "float32", "float64"]


@SETTINGS
@given(pair=array_pairs(dtypes=ORDER_DTYPES, min_dims=1, max_dims=3, max_side=7, kind="special"),
       method=st.sampled_from(["linear", "lower", "higher", "nearest", "midpoint"]),
       q=st.sampled_from([0.0, 0.3, 0.5, 1.0, [0.25, 0.75], [[0.1], [0.9]]]), data=st.data())
def test_quantile_matches_numpy(pair: tuple[np.ndarray, ma.NDArray], method: str, q: Any, data: Any) -> None:
    a, x = pair
    axis = data.draw(st.sampled_from([None, *range(-a.ndim, a.ndim)]))
    if a.size == 0 or (axis is not None and a.shape[axis] == 0):
        return
    if a.dtype == np.int8:  # NumPy interpolates int8 in int8, where b - a can wrap; minarray in float64
        a = a // 3
        x = ma.asarray(a)
    with warnings.catch_warnings():  # inf - inf between neighbours: both warn
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = np.quantile(a, q, axis=axis, method=method)
        got = ma.quantile(x, q, axis=axis, method=method)
    # float64 is computed as NumPy does it, bit for bit; narrower floats
    # go through float64 (NumPy computes in them), a rounding apart
    same(got, expected, ulps=0 if a.dtype != np.float16 and a.dtype != np.float32 else 2)
    p = np.multiply(q, 100).tolist() if isinstance(q, list) else q * 100
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = np.percentile(a, p, axis=axis, method=method)
        got = ma.percentile(x, p, axis=axis, method=method)
    same(got, expected, ulps=4 if a.dtype.kind == "f" else 0)


@SETTINGS
@given(pair=array_pairs(dtypes=ORDER_DTYPES, min_dims=1, max_dims=3, max_side=7, kind="special"), data=st.data())
def test_median_matches_numpy(pair: tuple[np.ndarray, ma.NDArray], data: Any) -> None:
    a, _x = pair
    axis = data.draw(st.sampled_from([None, *range(-a.ndim, a.ndim)]))
    keepdims = data.draw(st.booleans())
    got, expected = both("median", a, axis=axis, keepdims=keepdims)
    same(got, expected)


@SETTINGS
@given(pair=array_pairs(dtypes=["float32", "float64"], min_dims=1, max_dims=3, max_side=6, kind="special"),
       data=st.data())
def test_nan_reductions_match_numpy(pair: tuple[np.ndarray, ma.NDArray], data: Any) -> None:
    a, _x = pair
    if a.size == 0:
        return
    axis = data.draw(st.sampled_from([None, *range(a.ndim)]))
    for fn in ("nansum", "nanprod", "nanmean", "nanmin", "nanmax", "nanmedian", "nanvar", "nanstd"):
        got, expected = both(fn, a, axis=axis)
        same(got, expected, ulps=64)
    got, expected = both("nanquantile", a, [0.2, 0.5], axis=axis)
    if expected.dtype == a.dtype != np.float64:
        # NumPy's result dtype depends on the data here: a slice of NaNs only
        # met first keeps the input's dtype (np.apply_along_axis takes the
        # first slice's); minarray promotes as for any array q
        got = np.asarray(got).astype(a.dtype)
    same(got, expected, ulps=8)
    for fn in ("nancumsum", "nancumprod"):
        got, expected = both(fn, a, axis=axis)
        same(got, expected, ulps=64)


def test_nanarg_and_all_nan_slices() -> None:
    f = np.array([[np.nan, 2.0, -1.0], [3.0, np.nan, 7.0]])
    for fn in ("nanargmin", "nanargmax"):
        for axis in (None, 0, 1):
            got, expected = both(fn, f, axis=axis)
            same(got, expected.astype(np.int64))
    with pytest.raises(ValueError, match="All-NaN"):
        ma.nanargmax(ma.asarray([np.nan, np.nan]))
    got, expected = both("nanmax", np.array([[np.nan, np.nan], [1.0, np.nan]]), axis=1)
    same(got, expected)


def test_var_std_take_ddof_and_correction() -> None:
    a = np.arange(12.0).reshape(3, 4) ** 1.5
    x = ma.asarray(a)
    for kw in ({"ddof": 1}, {"correction": 1}, {"ddof": 0, "correction": 2}, {}):
        for fn in ("var", "std"):
            same(getattr(ma, fn)(x, axis=0, **kw), getattr(np, fn)(a, axis=0, **kw), ulps=4)
    same(x.var(correction=1), a.var(ddof=1), ulps=4)
    same(x.std(ddof=1, axis=1), a.std(ddof=1, axis=1), ulps=4)
    with pytest.raises(ValueError, match="ddof and correction"):
        ma.var(x, ddof=1, correction=1)
    with pytest.raises(ValueError, match="ddof and correction"):
        np.var(a, ddof=1, correction=1)


@SETTINGS
@given(pair=array_pairs(dtypes=REAL, min_dims=0, max_dims=3, max_side=5), data=st.data())
def test_cumsum_cumprod_ptp_match_numpy(pair: tuple[np.ndarray, ma.NDArray], data: Any) -> None:
    a, _x = pair
    axis = data.draw(st.sampled_from([None, *range(a.ndim)]))
    for fn in ("cumsum", "cumprod"):
        got, expected = both(fn, a, axis=axis)
        same(got, expected, ulps=16)
    if a.size and a.dtype != np.bool_:
        got, expected = both("ptp", a, axis=axis)
        same(got, expected)


def test_average_matches_numpy() -> None:
    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 4))
    for kw in ({}, {"axis": 0}, {"axis": 1, "weights": np.arange(1.0, 5.0)}, {"weights": rng.random((3, 4))},
               {"axis": 0, "weights": np.array([1, 2, 3]), "returned": True}, {"returned": True}):
        got, expected = both("average", a, **kw)
        same(got, expected, ulps=8)
    got, expected = both("average", np.arange(6, dtype=np.int32), weights=np.arange(6, dtype=np.int8))
    same(got, expected)
    with pytest.raises(ZeroDivisionError):
        ma.average(ma.ones(3), weights=ma.zeros(3))
    with pytest.raises(TypeError, match="Axis must be specified"):
        ma.average(ma.ones((2, 3)), weights=ma.ones(3))


# ---- NumPy's call signatures: positional axis/dtype/out, where=, initial= ----

_M = np.array([[1.5, -2.0, 3.0], [4.0, np.nan, 6.5]])
_I = np.array([[3, 1, 4], [1, 5, 9]], dtype=np.int32)
_MASK = [[True, False, True], [False, True, True]]
_F32 = np.array([[0.1, 2.5, -3.25], [7.0, 1e3, 0.3]], dtype=np.float32)
_C = np.array([[1 + 2j, -3j, 0.5], [2 - 1j, 4 + 4j, -1.5j]])
_CM = np.array([[1 + 2j, np.nan, 0.5], [2 - 1j, 4 + 4j, complex(np.nan, 1)]])

# (function, positional and keyword arguments) as NumPy code writes them
NUMPY_CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("sum", (_I, 0), {}), ("sum", (_I, 1, np.float32), {}), ("sum", (_I, None, None, None, True), {}),
    ("prod", (_I, 1, np.int64), {}), ("min", (_I, 0), {}), ("max", (_I, 1, None, True), {}),
    ("amax", (_I, 0), {}), ("amin", (_I, 1), {}), ("mean", (_I, 1), {}), ("mean", (_I, 0, np.float32), {}),
    ("var", (_I, 1), {}), ("var", (_I, 0, None, None, 1), {}), ("std", (_I, 0, np.float32, None, 1, True), {}),
    ("argmax", (_I, 1), {}), ("argmin", (_I, 0), {}), ("count_nonzero", (_I, 0), {}),
    ("all", (_I, 0), {}), ("any", (_I, 1, None, True), {}), ("cumsum", (_I, 0, np.float64), {}),
    ("cumprod", (_I, 1), {}), ("ptp", (_I, 1, None, True), {}), ("trace", (_I, 0, 0, 1, np.float64), {}),
    ("median", (_I, 0), {}), ("median", (_I, 1, None, False, True), {}),
    ("quantile", (_I, 0.25, 1, None, False, "lower", True), {}), ("percentile", (_I, 50, 0), {}),
    ("nansum", (_M, 0, None, None, True), {}), ("nanprod", (_M, 1), {}), ("nanmean", (_M, 0, np.float32), {}),
    ("nanvar", (_M, 1, None, None, 1), {}), ("nanstd", (_M, 0, None, None, 0, True), {}),
    ("nanmin", (_M, 1, None, True), {}), ("nanmax", (_M, 0), {}), ("nanargmin", (_M, 1), {}),
    ("nanargmax", (_M, 0), {}), ("nancumsum", (_M, 1), {}), ("nancumprod", (_M, 0), {}),
    ("nanmedian", (_M, 1), {}), ("nanquantile", (_M, 0.5, 0), {}), ("nanpercentile", (_M, 75, 1), {}),
    # where= and initial=, NumPy's docstring examples among them
    ("sum", ([[0, 1], [np.nan, 5]],), {"where": [False, True], "axis": 1}), ("sum", ([10],), {"initial": 5}),
    ("sum", (_M,), {"where": _MASK}), ("sum", (_I, 0), {"where": [[1], [0]]}), ("sum", (_I,), {"initial": 2.5}),
    ("prod", ([1.0, np.nan, 3.0],), {"where": [True, False, True]}), ("prod", ([1, 2],), {"initial": 5}),
    ("max", ([[-50], [10]],), {"axis": -1, "initial": 0}), ("max", ([5],), {"initial": 6}),
    ("min", ([6],), {"initial": 5}), ("max", (_M,), {"where": ~np.isnan(_M), "initial": -1}),
    ("min", (_I, 1), {"where": _MASK, "initial": 10, "keepdims": True}),
    ("min", (np.zeros((0, 3)), 0), {"initial": 7.0}), ("max", (np.zeros((2, 0)),), {"initial": 1.0}),
    ("all", ([[True, True], [False, True]],), {"where": [[True], [False]]}),
    ("any", ([[True, False], [False, False]],), {"where": [[False], [True]]}),
    ("any", (_I, 0), {"where": _MASK, "keepdims": True}),
    ("mean", (_I,), {"where": [[True], [False]]}), ("mean", (_M, 1), {"where": ~np.isnan(_M)}),
    ("mean", (_I.astype(np.float32),), {"dtype": np.float64}), ("mean", (_I, 0), {"dtype": np.int64}),
    ("var", (_I,), {"where": _MASK}), ("std", (_M, 1), {"where": ~np.isnan(_M), "ddof": 1}),
    ("std", (_I.astype(np.float32),), {"dtype": np.float64}), ("var", (_I, 1), {"dtype": np.float32}),
    ("nansum", (_M, 1), {"initial": 1.0, "where": _MASK}), ("nanprod", (_M,), {"initial": 2.0}),
    ("nanmin", (_M, 1), {"initial": 0.5}), ("nanmax", (_M, 0), {"where": [[True, True, False]], "initial": -1}),
    ("nanmin", (_I, 1), {"where": _MASK, "initial": 9}), ("nanmean", (_M, 1), {"where": _MASK}),
    ("nanmean", (_I, 0), {"where": [[True], [False]]}), ("nanvar", (_M, 1), {"where": _MASK}),
    ("nanstd", (_M, 1, None, None, 1), {"where": [[True, True, True], [True, False, True]]}),
    ("nanvar", (_I, 1), {"where": _MASK}),
    # mean=: the mean already computed, of keepdims shape
    ("std", (_I, 1), {"mean": np.mean(_I, 1, keepdims=True)}), ("var", (_I, 0, None, None, 1), {"mean": 2.0}),
    ("var", (_I, 1), {"where": _MASK, "mean": np.ones((2, 1))}),
    ("nanstd", (_M, 1), {"mean": np.array([[4.0], [4.0]])}),
    ("var", (_F32, 0), {"mean": np.mean(_F32, 0, keepdims=True)}), ("std", (_F32,), {"mean": np.mean(_F32)}),
    ("var", (_F32, 1), {"mean": np.mean(_F32, 1, keepdims=True).astype(np.float64)}),
    ("std", (_I, 0), {"mean": np.mean(_I, 0)}), ("var", (_I, 1), {"mean": np.mean(_I)}),
    # complex: the mean squared magnitude of the deviations, real (NumPy's)
    ("var", (_C,), {}), ("std", (_C, 0), {"ddof": 1}), ("var", (_C, 1), {"mean": np.mean(_C, 1, keepdims=True)}),
    ("std", (_C.astype(np.complex64), 1), {"where": _MASK}), ("nanvar", (_CM, 1), {}), ("nanstd", (_CM,), {}),
]


@pytest.mark.parametrize(("fn", "args", "kwargs"), NUMPY_CALLS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(NUMPY_CALLS)])
def test_numpy_call_signatures(fn: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    got, expected = both(fn, *args, **kwargs)
    same(got, expected, ulps=4)


@pytest.mark.parametrize(("fn", "args", "kwargs"), [
    ("sum", (_I, 0), {}), ("mean", (_I, 1), {}), ("var", (_M,), {"where": ~np.isnan(_M)}),
    ("max", (_I,), {"axis": 1, "initial": 4}), ("all", (_I, 0), {}), ("argmax", (_I, 1), {}),
    ("cumsum", (_I, 1), {}), ("median", (_I, 0), {}), ("quantile", (_I, 0.5, 1), {}), ("nansum", (_M, 0), {}),
    ("nanmean", (_M, 1), {}), ("nanargmin", (_M, 0), {}), ("ptp", (_I, 0), {}), ("trace", (_I,), {}),
], ids=lambda v: v if isinstance(v, str) else None)
def test_out_receives_the_result(fn: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    expected = np_function(fn)(*args, **kwargs)
    out = ma.zeros(np.shape(expected), dtype=ma.asarray(expected).dtype)
    got = getattr(ma, fn)(ma.asarray(args[0]), *args[1:], **kwargs, out=out)
    assert got is out
    same(out, expected, ulps=4)
    # NumPy's out= with minarray's function: written through a zero-copy view
    np_out = np.zeros(np.shape(expected), dtype=np.asarray(expected).dtype)
    assert getattr(ma, fn)(ma.asarray(args[0]), *args[1:], **kwargs, out=np_out) is np_out
    same(np_out, expected, ulps=4)


@pytest.mark.parametrize(("fn", "args", "kwargs"), [
    ("min", (_I,), {"where": _MASK}),  # no identity: where= needs initial=
    ("max", (_I, 0), {"where": [True, False, True]}),
    ("sum", (_I,), {"where": [True, False]}),  # the mask does not broadcast
    ("sum", (_I, 0), {"out": np.zeros(2)}),  # out of the wrong shape
    ("mean", (_I, 0), {"out": np.zeros((1, 3))}),
    ("min", (np.zeros((0, 2)), 0), {}),
], ids=lambda v: v if isinstance(v, str) else None)
def test_numpy_call_errors(fn: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    with pytest.raises(Exception) as numpy_error:
        np_function(fn)(*args, **kwargs)
    conv = {k: ma.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
    with pytest.raises(numpy_error.type):
        getattr(ma, fn)(ma.asarray(args[0]), *args[1:], **conv)


def test_plain_calls_keep_the_standard_spelling() -> None:
    x = ma.asarray(_I)
    same(ma.sum(x, axis=0, dtype=ma.float64, keepdims=True), np.sum(_I, axis=0, dtype=np.float64, keepdims=True))
    same(ma.var(x, axis=1, correction=1), np.var(_I, axis=1, ddof=1))
    with pytest.raises(ValueError, match="ddof and correction"):
        ma.std(x, 0, None, None, 1, correction=0.5)


@pytest.mark.parametrize(("method", "args", "kwargs"), [
    ("sum", (0,), {"where": [[True, False, True], [False, True, True]]}), ("prod", (1, np.float64), {}),
    ("max", (1,), {"initial": 4}), ("min", (None, None, True), {"where": _MASK, "initial": 9}),
    ("mean", (0,), {"where": [[True], [False]]}), ("std", (1, None, None, 1), {}),
    ("var", (0,), {"mean": 2.5}), ("all", (1,), {"where": _MASK}),
    ("any", (0, None), {"keepdims": True}), ("cumsum", (1, np.float32), {}), ("cumprod", (), {}), ("argmax", (0,), {}),
], ids=lambda v: v if isinstance(v, str) else None)
def test_reduction_methods_numpy_signatures(method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    expected = getattr(_I, method)(*args, **kwargs)
    same(getattr(ma.asarray(_I), method)(*args, **kwargs), expected, ulps=4)
    # np.<function> on a minarray array stays in minarray with these options
    got = getattr(np, method)(ma.asarray(_I), *args, **kwargs)
    assert isinstance(got, ma.NDArray)
    same(got, expected, ulps=4)
    out = ma.zeros(np.shape(expected), dtype=ma.asarray(expected).dtype)
    at = 1 if method in ("max", "min", "all", "any", "argmax") else 2  # out='s place in NumPy's order
    if len(args) > at:  # out= by position
        got = getattr(ma.asarray(_I), method)(*args[:at], out, *args[at + 1:], **kwargs)
    else:
        got = getattr(ma.asarray(_I), method)(*args, **kwargs, out=out)
    assert got is out
    same(out, expected, ulps=4)


@pytest.mark.parametrize(("a", "axis", "weights"), [
    (np.arange(1, 5).reshape(2, 2), (0, 1), [[1 / 4, 3 / 4], [1.0, 1 / 2]]),  # NumPy's docstring example
    (np.arange(24.0).reshape(2, 3, 4), (2, 0), np.arange(8.0).reshape(4, 2) + 1),
    (np.arange(24.0).reshape(2, 3, 4), 1, [1, 2, 3]), (np.arange(24).reshape(2, 3, 4), (-1,), np.arange(4)),
], ids=["docstring", "axes-reversed", "one-axis", "int"])
def test_average_weights_along_axes(a: np.ndarray, axis: Any, weights: Any) -> None:
    got, expected = both("average", a, axis, weights)
    same(got, expected, ulps=2)
    raises_as_numpy(lambda m: m.average(m.asarray(a), axis=axis, weights=[1.0] * 5), "consistent")


@pytest.mark.parametrize("fn", ["median", "percentile", "quantile"])
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("dtype", [np.int64, np.float64])
def test_overwrite_input(fn: str, axis: int | None, dtype: Any) -> None:
    # NumPy's docstring examples: the result is unchanged, and the input may
    # be left partially sorted (it holds the same values)
    a = np.array([[10, 7, 4], [3, 2, 1], [8, 9, 5]], dtype=dtype)
    args = () if fn == "median" else ((50,) if fn == "percentile" else (0.5,))
    b = ma.asarray(a.copy())
    got = getattr(ma, fn)(b, *args, axis, None, True)
    same(got, getattr(np, fn)(a, *args, axis=axis))
    assert sorted(b.tolist()[0] + b.tolist()[1] + b.tolist()[2]) == sorted(a.ravel().tolist())
    assert not ma.all(ma.asarray(a) == b)  # partitioned in place, as NumPy's
    c = ma.asarray(a.copy())
    getattr(ma, fn)(c, *args, axis)  # without overwrite_input the input is untouched
    assert c.tolist() == a.tolist()


_OBS = np.arange(12.0).reshape(3, 4) ** 1.5


@pytest.mark.parametrize(("args", "kwargs"), [
    ((_OBS,), {"fweights": [1, 2, 1, 3]}), ((_OBS,), {"aweights": [0.5, 2, 1, 3]}),
    ((_OBS, None, True, False, None, [1, 2, 1, 3], [0.5, 2, 1, 3]), {}),
    ((_OBS,), {"ddof": 0, "aweights": [0.5, 2, 1, 3]}), ((_OBS,), {"ddof": 2, "fweights": [2, 2, 1, 3]}),
    ((_OBS.T,), {"rowvar": False, "bias": True, "fweights": [1, 2, 1, 3]}),
    (([1.0, 2.0, 4.0], [2.0, 1.0, 0.5]), {"aweights": [1, 3, 2]}),
], ids=["fweights", "aweights", "both-positional", "ddof0-aweights", "ddof2-fweights", "columns-bias", "with-y"])
def test_cov_weights(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    got, expected = both("cov", *args, **kwargs)
    same(got, expected, ulps=8)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"fweights": [1.5, 1, 1]}, "integer"), ({"fweights": [1, -1, 1]}, "negative"),
    ({"aweights": [[1, 1, 1]]}, "multidimensional"), ({"aweights": [1, 1]}, "incompatible"),
    ({"aweights": [1, -2, 1]}, "negative"),
], ids=["fractional", "negative", "2-d", "length", "negative-aweights"])
def test_cov_weights_errors(kwargs: dict[str, Any], match: str) -> None:
    raises_as_numpy(lambda m: m.cov([1.0, 2.0, 4.0], **kwargs), match)


@pytest.mark.parametrize("fn", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_out(fn: str) -> None:
    x = ma.arange(1, 5)
    out = ma.zeros(5, dtype=ma.int64)
    assert getattr(ma, fn)(x, include_initial=True, out=out) is out
    assert out.tolist() == getattr(ma, fn)(x, include_initial=True).tolist()


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2)])
def test_var_with_given_mean_is_numpys_bits(dtype: str, axis: Any) -> None:
    # mean= skips the first pass: the result is the one var computes itself
    # and NumPy's, bit for bit
    a = (np.random.default_rng(7).standard_normal((6, 40, 5)) * 50).astype(dtype)
    x = ma.asarray(a)
    for name in ("var", "std"):
        mu = np.mean(a, axis=axis, keepdims=True)
        got = getattr(ma, name)(x, axis=axis, mean=ma.asarray(mu))
        same(got, getattr(np, name)(a, axis=axis, mean=mu))
        same(got, getattr(ma, name)(x, axis=axis))


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_complex_mean_divides_as_numpy(dtype: str, axis: Any) -> None:
    # NumPy divides a complex total by count + 0j: a multiplication by the
    # reciprocal, which rounds differently from a division
    rng = np.random.default_rng(3)
    a = ((rng.standard_normal((30, 70)) + 1j * rng.standard_normal((30, 70))) * 1000).astype(dtype)
    same(ma.mean(ma.asarray(a), axis=axis), np.mean(a, axis=axis))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("shape", [(8, 3), (200, 7), (100, 2), (6, 40, 5), (3, 4, 5, 6), (7, 1, 9)],
                         ids=lambda s: "x".join(map(str, s)))
def test_sums_over_outer_axes_add_in_numpys_order(dtype: str, shape: tuple[int, ...]) -> None:
    # A kept axis denser than the reduced ones, however short: NumPy adds
    # whole rows into the result one after another (no pairwise tree along
    # the reduced axis), so the bits depend on it
    a = np.random.default_rng(0).standard_normal(shape).astype(dtype)
    for b, y in ((a, ma.asarray(a)), (a.T, ma.asarray(a).T)):
        for axes in itertools.chain.from_iterable(itertools.combinations(range(b.ndim), r) for r in range(1, b.ndim)):
            same(ma.sum(y, axis=axes), np.sum(b, axis=axes))
            same(ma.mean(y, axis=axes), np.mean(b, axis=axes))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("axis", [None, 0, 2, (0, 2), (1, 2)], ids=lambda a: f"axis={a}")
def test_complex_max_min_as_numpys(seed: int, axis: Any) -> None:
    rng = np.random.default_rng(seed)
    a = (rng.integers(0, 3, (4, 5, 3)) + 1j * rng.integers(0, 3, (4, 5, 3))).astype(complex)
    if seed % 2:
        a[rng.random(a.shape) < 0.05] = complex(np.nan, 1)
    x = ma.asarray(a)
    for name in ("max", "min"):
        for keepdims in (False, True):
            same(getattr(ma, name)(x, axis=axis, keepdims=keepdims), getattr(np, name)(a, axis=axis, keepdims=keepdims))
    same(ma.max(x, initial=2 + 5j), np.max(a, initial=2 + 5j))


def _reports(f: Any) -> tuple[str, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = f()
    return repr(r), [f"{w.category.__name__}: {w.message}" for w in caught]


@pytest.mark.parametrize("call", [
    "m.mean(m.zeros(0))", "m.mean(m.zeros(0, m.float32))", "m.mean(m.zeros(0, m.int8))",
    "m.mean(m.zeros((0, 3)), axis=0)", "m.mean(m.zeros((3, 0)), axis=0)", "m.mean(m.zeros((0, 0)), axis=0)",
    "m.mean(m.zeros((2, 0)), axis=1, keepdims=True)", "m.var(m.zeros(0))", "m.std(m.zeros(0, m.int8))",
    "m.var(m.asarray([1.0, 2.0]), ddof=2)", "m.std(m.asarray([1.0, 2.0]), ddof=3, keepdims=True)",
    "m.std(m.asarray([1.0], m.float32), ddof=1)", "m.var(m.asarray([1.0, 2.0], m.float16), ddof=2)",
    "m.var(m.zeros((2, 1)), axis=1, ddof=1)", "m.var(m.zeros((0, 0)), axis=0)",
    "m.median(m.zeros(0))", "m.median(m.zeros((0, 3)), axis=0)", "m.median(m.zeros((3, 0)), axis=1)",
    "m.median(m.zeros(0, m.float32))", "m.median(m.zeros((0, 2)), axis=0, keepdims=True)",
])
def test_mean_and_var_over_nothing_report_as_numpy(call: str) -> None:
    """A slice with no degrees of freedom (a median's too): NumPy's value, its RuntimeWarning
    ("Mean of empty slice", "Degrees of freedom <= 0 for slice") and the
    division's own report, "scalar divide" for a float64 scalar."""
    want = _reports(lambda: eval(call, {"m": np}))
    assert _reports(lambda: eval(call, {"m": ma})) == want
    outcomes = []
    for m in (np, ma):  # under errstate "raise" the division raises, after the warning
        with m.errstate(all="raise"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                outcomes.append(repr(eval(call, {"m": m})))
            except FloatingPointError as exc:
                outcomes.append(str(exc))
    assert outcomes[1] == outcomes[0]


def test_max_of_nothing_from_initial_is_a_scalar() -> None:
    for m in (np, ma):
        assert repr(m.max(m.zeros(0), initial=-1.0)) == "np.float64(-1.0)"
        assert repr(m.min(m.zeros((0, 2)), axis=0, initial=3)) == "array([3., 3.])"
