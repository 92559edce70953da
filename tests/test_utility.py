"""Utility functions (minarray/_utility.py) against NumPy: all, any and
diff over every dtype, axis form and layout; and NumPy's comparisons
(allclose, array_equal, array_equiv) and calculus (gradient, trapezoid)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_errors import raises_as_numpy
from numpy_oracle import both, same
from reduction_helpers import array_pairs, assert_matches, axes_for

import minarray as ma

# Special values are the point of these tests; which warnings they give is
# test_errstate.py's subject (NumPy as the oracle).
pytestmark = pytest.mark.filterwarnings("ignore:.* encountered in :RuntimeWarning")

SETTINGS = settings(max_examples=60, deadline=None)


# ---- all, any and diff -------------------------------------------------------------------

@SETTINGS
@given(data=st.data(), pair=array_pairs(kind="special"))
def test_all_any_count_nonzero(data: st.DataObject, pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, x = pair
    axis = data.draw(axes_for(a.ndim))
    keepdims = data.draw(st.booleans())
    assert_matches(ma.all(x, axis=axis, keepdims=keepdims), np.all(a, axis=axis, keepdims=keepdims))
    assert_matches(ma.any(x, axis=axis, keepdims=keepdims), np.any(a, axis=axis, keepdims=keepdims))
    expected = np.asarray(np.count_nonzero(a, axis=axis, keepdims=keepdims), dtype=np.int64)
    assert_matches(ma.count_nonzero(x, axis=axis, keepdims=keepdims), expected)


@SETTINGS
@given(data=st.data(), pair=array_pairs(min_dims=1))
def test_diff_matches_numpy(data: st.DataObject, pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, x = pair
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    n = data.draw(st.integers(0, 3))
    expected = np.diff(a, axis=axis, n=n)
    got = ma.diff(x, axis=axis, n=n)
    assert_matches(got, expected, scale=np.max(np.abs(a)) * 2**n if a.size and a.dtype.kind in "fc" else None)


def test_diff_prepend_append() -> None:
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    x = ma.asarray(a)
    assert_matches(ma.diff(x, axis=0, prepend=ma.asarray(a[:1]), append=7), np.diff(a, axis=0, prepend=a[:1], append=7))
    assert_matches(ma.diff(x, prepend=0.5), np.diff(a, prepend=0.5))
    with pytest.raises(ValueError, match="prepend"):
        ma.diff(x, axis=0, prepend=ma.ones((1, 3)))
    with pytest.raises(ValueError, match="0-d"):
        ma.diff(ma.asarray(3))
    with pytest.raises(ValueError, match="non-negative"):
        ma.diff(x, n=-1)
    with pytest.raises(IndexError):
        ma.diff(x, axis=2)


# ---- NumPy's comparisons and calculus ----------------------------------------------------

@SETTINGS
@given(pair=array_pairs(dtypes=["float32", "float64", "int32"], max_dims=2, kind="special"))
def test_logic_matches_numpy(pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, x = pair
    b = a + (a.dtype.type(1e-6) if a.dtype.kind == "f" else 0)
    for kw in ({}, {"equal_nan": True}, {"rtol": 0.0, "atol": 1e-3}):
        got, expected = both("isclose", a, b, **kw)
        same(got, expected)
        assert ma.allclose(x, ma.asarray(b), **kw) == np.allclose(a, b, **kw)
    for eq in (False, True):
        assert ma.array_equal(x, ma.asarray(a.copy()), equal_nan=eq) == np.array_equal(a, a.copy(), equal_nan=eq)
    assert ma.array_equal(x, ma.ones((7,))) == np.array_equal(a, np.ones(7))
    assert ma.array_equiv(x, ma.asarray(a[None])) == np.array_equiv(a, a[None])
    if a.dtype.kind == "f":
        for fn in ("isposinf", "isneginf", "iscomplex", "isreal"):
            got, expected = both(fn, a)
            same(got, expected)


def test_gradient_trapezoid_interp_cov_match_numpy() -> None:
    rng = np.random.default_rng(6)
    a = rng.standard_normal((5, 6))
    for args, kw in (((), {}), ((0.5,), {}), ((2.0,), {"axis": 1}), ((1.0, 3.0), {"edge_order": 2}),
                     ((), {"axis": (1,)})):
        got, expected = both("gradient", a, *args, **kw)
        same(got, expected, ulps=64)
    same(ma.gradient(ma.arange(6) ** 2), np.gradient(np.arange(6) ** 2))
    for kw in ({}, {"dx": 0.5}, {"axis": 0}, {"x": np.cumsum(rng.random(6))}, {"x": np.cumsum(rng.random((5, 6)), 1)}):
        got, expected = both("trapezoid", a, **kw)
        same(got, expected, ulps=64)
    xp = np.cumsum(rng.random(8))
    fp = rng.standard_normal(8)
    xs = np.concatenate([[xp[0] - 1, xp[0], xp[-1], xp[-1] + 1, np.nan], rng.uniform(xp[0], xp[-1], 20)])
    for kw in ({}, {"left": -5.0, "right": 5.0}):
        got, expected = both("interp", xs, xp, fp, **kw)
        same(got, expected, ulps=64)
    for kw in ({}, {"rowvar": False}, {"bias": True}, {"ddof": 2}, {"y": rng.standard_normal((2, 6))}):
        got, expected = both("cov", a, **kw)
        same(got, expected, ulps=64)
        if "bias" not in kw and "ddof" not in kw:
            got, expected = both("corrcoef", a, **kw)
            same(got, expected, ulps=64)
    got, expected = both("ediff1d", a, to_end=[1, 2])
    same(got, expected)


# ---- gradient with coordinate arrays (uneven spacing) ------------------------------

_F1 = np.array([1, 2, 4, 7, 11, 16], dtype=float)
_F2 = np.array([[1, 2, 6], [3, 4, 5]], dtype=float)
_UNEVEN = np.array([0.0, 1.0, 1.5, 3.5, 4.0, 6.0])


@pytest.mark.parametrize(("f", "args", "kw"), [
    (_F1, (np.arange(6),), {}), (_F1, (_UNEVEN,), {}), (_F1, (_UNEVEN,), {"edge_order": 2}),
    (_F1, ([0, 1, 2, 4, 8, 16],), {}), (np.arange(6) ** 2, (_UNEVEN,), {}),
    (_F2, (2.0, [1.0, 1.5, 3.5]), {}), (_F2, ([0.0, 3.0], [1.0, 1.5, 3.5]), {}),
    (_F2, ([1.0, 1.5, 3.5],), {"axis": 1, "edge_order": 2}),
    (np.sin(_UNEVEN)[:, None] * np.ones((1, 4)), (_UNEVEN, 0.5), {"edge_order": 2}),
], ids=["even-coordinates", "uneven", "uneven-edge-2", "int-coordinates", "int-values", "2-d", "2-d-both",
        "axis", "2-d-edge-2"])
def test_gradient_with_coordinates_matches_numpy(f: np.ndarray, args: tuple[Any, ...], kw: dict[str, Any]) -> None:
    expected = np.gradient(f, *args, **kw)
    got = ma.gradient(ma.asarray(f), *args, **kw)
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected)
        for g, e in zip(got, expected, strict=True):
            np.testing.assert_allclose(np.asarray(g), e, rtol=1e-14, atol=1e-14)
    else:
        np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize(("args", "match"), [
    (([[0.0, 1.0], [2.0, 3.0]],), "distances must be either scalars or 1d"),
    (([0.0, 1.0],), "must match the length"),
    ((1.0, 2.0, 3.0), "invalid number of arguments"),
])
def test_gradient_spacing_errors_as_numpy(args: tuple[Any, ...], match: str) -> None:
    raises_as_numpy(lambda xp: xp.gradient(xp.asarray(_F1), *args), match)
# ---- NumPy's call signatures: positional axis/out, where=, diff's n ----------

_B = np.array([[True, False, True], [True, True, False]])


@pytest.mark.parametrize(("fn", "args", "kwargs"), [
    ("all", (_B, 0), {}), ("any", (_B, 1, None, True), {}), ("all", (np.arange(6).reshape(2, 3), 1), {}),
    ("all", ([[True, True], [False, True]],), {"where": [[True], [False]]}),
    ("any", ([[True, False], [False, False]],), {"where": [[False], [True]]}),
    ("all", ([1, 2],), {"where": [1, 0]}), ("any", (_B, 0), {"where": _B, "keepdims": True}),
    ("diff", (np.array([1, 2, 4, 7, 0]), 2), {}), ("diff", (np.array([[1, 3, 6, 10], [0, 5, 6, 8]]), 1, 0), {}),
    ("diff", (np.arange(6), 1, -1, 0, [9]), {}),
], ids=lambda v: v if isinstance(v, str) else None)
def test_numpy_utility_signatures(fn: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    got, expected = both(fn, *args, **kwargs)
    same(got, expected)


def test_all_any_out() -> None:
    # NumPy's docstring examples: out= is filled and returned
    o = ma.asarray(False)
    z = ma.any([-1, 4, 5], out=o)
    assert z is o and bool(o)
    out = ma.zeros(2, dtype=ma.bool)
    assert ma.all(ma.asarray(_B), 1, out) is out and out.tolist() == np.all(_B, 1).tolist()
    with pytest.raises(ValueError):
        ma.any(ma.asarray(_B), 0, ma.zeros(2, dtype=ma.bool))
