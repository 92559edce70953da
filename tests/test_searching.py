"""Searching functions (minarray/_searching.py): argmin, argmax,
count_nonzero, nonzero and searchsorted against NumPy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reduction_helpers import ALL, FLOATS, REAL, array_pairs, assert_matches, axes_for, values

import minarray as ma

SETTINGS = settings(max_examples=60, deadline=None)


@SETTINGS
@given(data=st.data(), pair=array_pairs(dtypes=REAL, kind="special"))
def test_argmin_argmax_match_numpy(data: st.DataObject, pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, x = pair
    axis = data.draw(axes_for(a.ndim, allow_tuple=False))
    keepdims = data.draw(st.booleans())
    for name in ("argmin", "argmax"):
        empty = a.size == 0 if axis is None else a.shape[axis] == 0
        if empty:
            with pytest.raises(ValueError):
                getattr(np, name)(a, axis=axis)
            with pytest.raises(ValueError, match="empty"):
                getattr(ma, name)(x, axis=axis, keepdims=keepdims)
            continue
        expected = getattr(np, name)(a, axis=axis, keepdims=keepdims)
        assert_matches(getattr(ma, name)(x, axis=axis, keepdims=keepdims), np.asarray(expected, dtype=np.int64))


def test_arg_first_occurrence_and_nan() -> None:
    a = np.array([3.0, 1.0, 1.0, np.nan, 5.0, np.nan, 5.0])
    x = ma.asarray(a)
    assert ma.argmin(x).item() == 3 == np.argmin(a)
    assert ma.argmax(x).item() == 3
    b = np.array([2, 7, 7, 0, 0], dtype=np.uint8)
    assert ma.argmax(ma.asarray(b)).item() == 1
    assert ma.argmin(ma.asarray(b)).item() == 3
    big = np.zeros(1000)
    big[[10, 600]] = 9.0
    assert ma.argmax(ma.asarray(big)).item() == 10


def test_arg_errors() -> None:
    x = ma.ones((2, 3))
    with pytest.raises(IndexError):
        ma.argmax(x, axis=2)
    with pytest.raises(ValueError, match="empty"):
        ma.argmax(ma.zeros((0, 3)))
    assert ma.argmax(ma.asarray(4.0)).item() == 0
    assert ma.argmax(ma.ones((2, 3)), keepdims=True).shape == (1, 1)


@SETTINGS
@given(pair=array_pairs(min_dims=1, kind="special"))
def test_nonzero_matches_numpy(pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, x = pair
    got = ma.nonzero(x)
    expected = np.nonzero(a)
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert_matches(g, e.astype(np.int64))


def test_nonzero_0d_raises() -> None:
    with pytest.raises(ValueError):
        ma.nonzero(ma.asarray(1.0))


@SETTINGS
@given(data=st.data(), pair=array_pairs(dtypes=REAL, min_dims=1, max_dims=1, max_side=30, kind="special"))
def test_searchsorted_matches_numpy(data: st.DataObject, pair: tuple[np.ndarray, ma.NDArray]) -> None:
    a, _ = pair
    a = np.sort(a)
    x = ma.asarray(a)
    side = data.draw(st.sampled_from(["left", "right"]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    shape = tuple(data.draw(st.lists(st.integers(0, 4), max_size=3)))
    v = values(rng, str(a.dtype), shape, "special")
    if a.size:  # also probe exact hits
        v.reshape(-1)[: min(v.size, a.size)] = a[: min(v.size, a.size)]
    expected = np.searchsorted(a, v, side=side)
    assert_matches(ma.searchsorted(x, ma.asarray(v), side=side), expected.astype(np.int64))


def test_searchsorted_sorter_and_errors() -> None:
    a = np.array([5, 1, 4, 2, 3], dtype=np.int32)
    order = np.argsort(a)
    v = np.array([0, 3, 3.5, 9])
    got = ma.searchsorted(ma.asarray(a), ma.asarray(v), sorter=ma.asarray(order))
    assert_matches(got, np.searchsorted(a, v, sorter=order).astype(np.int64))
    assert ma.searchsorted(ma.asarray(np.sort(a)), 3).item() == 2
    with pytest.raises(ValueError, match="1-d"):
        ma.searchsorted(ma.ones((2, 2)), ma.ones(2))
    with pytest.raises(ValueError, match="side"):
        ma.searchsorted(ma.ones(2), ma.ones(2), side="middle")
    with pytest.raises(ValueError, match="sorter"):
        ma.searchsorted(ma.ones(3), ma.ones(2), sorter=ma.asarray([0, 1]))
    with pytest.raises(TypeError, match="complex"):
        ma.searchsorted(ma.asarray(np.array([1j])), ma.ones(1))


@pytest.mark.parametrize("dtype", FLOATS)
def test_searchsorted_signed_zero_and_nan(dtype: str) -> None:
    a = np.array([-1.0, -0.0, 0.0, 2.0, np.nan], dtype=dtype)
    v = np.array([0.0, -0.0, np.nan, np.inf], dtype=dtype)
    for side in ("left", "right"):
        got = ma.searchsorted(ma.asarray(a), ma.asarray(v), side=side)
        assert_matches(got, np.searchsorted(a, v, side=side).astype(np.int64))


def test_count_nonzero_is_exported() -> None:
    assert "count_nonzero" in ma.__all__ and set(ALL) >= {"bool"}


def test_searchsorted_kernel_refuses_an_out_it_would_overrun() -> None:
    """The C entry point writes one index per element of x2 into out: an out
    of another shape, layout or a read-only one is refused, not overrun."""
    from minarray._native import core

    x1, x2 = ma.arange(8.0), ma.asarray([1.5, 2.5, 3.5, 4.5])
    ok = ma.empty(4, dtype=ma.int64)
    core.searchsorted(x1._h, x2._h, ok._h, False)
    assert ok.tolist() == [2, 3, 4, 5]
    for out in (ma.empty(2, dtype=ma.int64), ma.empty(8, dtype=ma.int64)[::2], ma.empty(4, dtype=ma.int32)):
        with pytest.raises(ValueError, match="C-contiguous int64 array of x2's shape"):
            core.searchsorted(x1._h, x2._h, out._h, False)
    frozen = np.zeros(4, np.int64)
    frozen.flags.writeable = False
    readonly = ma.from_numpy(frozen)
    with pytest.raises(ValueError, match="read-only"):
        core.searchsorted(x1._h, x2._h, readonly._h, False)


# ---- NumPy's call signatures: positional axis, out=, searchsorted's side -----

def test_numpy_searching_signatures() -> None:
    a = np.array([[1, 5, 2], [7, 2, 9]])
    x = ma.asarray(a)
    assert ma.argmax(x, 1).tolist() == np.argmax(a, 1).tolist()
    assert ma.argmin(x, 0).tolist() == np.argmin(a, 0).tolist()
    assert ma.count_nonzero(ma.asarray([[1, 0], [7, 2]]), 0).tolist() == np.count_nonzero([[1, 0], [7, 2]], 0).tolist()
    out = ma.zeros(2, dtype=ma.int64)
    assert ma.argmax(x, 1, out) is out and out.tolist() == np.argmax(a, 1).tolist()
    assert ma.argmin(x, None, None, keepdims=True).shape == np.argmin(a, None, None, keepdims=True).shape
    s = np.array([1, 2, 3, 3, 5])
    assert ma.searchsorted(ma.asarray(s), 3, "right").tolist() == np.searchsorted(s, 3, "right").tolist()
    order = np.array([4, 0, 1, 2, 3])
    assert (ma.searchsorted(ma.asarray(s[order]), [3], "left", ma.asarray(order)).tolist()
            == np.searchsorted(s[order], [3], "left", order).tolist())


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("axis", [0, 1, None], ids=lambda a: f"axis={a}")
def test_complex_argmax_argmin_as_numpys(seed: int, axis: int | None) -> None:
    # NumPy's order of complex numbers; the first value with a NaN part wins
    rng = np.random.default_rng(seed)
    a = (rng.integers(0, 3, (4, 6)) + 1j * rng.integers(0, 3, (4, 6))).astype(complex)
    if seed % 2:
        a[rng.random((4, 6)) < 0.1] = complex(1, np.nan)
    x = ma.asarray(a)
    for name in ("argmax", "argmin"):
        np.testing.assert_array_equal(np.asarray(getattr(ma, name)(x, axis=axis)), getattr(np, name)(a, axis=axis))
    np.testing.assert_array_equal(np.asarray(x.argmax()), a.argmax())


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "uint16", "bool", "float16"])
def test_argmax_method_fast_path_as_numpys(dtype: str) -> None:
    # x.argmax() of a contiguous array is one C call; every layout answers as NumPy's
    a = (np.random.default_rng(3).standard_normal((7, 9)) * 5).astype(dtype)
    if a.dtype.kind == "f":
        a[2, 3] = np.nan
    x = ma.asarray(a)
    for b, y in ((a, x), (a.T, x.T), (a[:, ::2], x[:, ::2]), (a.ravel(), x.reshape(-1)), (a[:1, :1], x[:1, :1])):
        for name in ("argmax", "argmin"):
            got, want = getattr(y, name)(), getattr(b, name)()
            assert int(got) == int(want) and got.dtype == ma.int64 and got.shape == ()
    with pytest.raises(ValueError, match="empty"):
        ma.zeros(0).argmax()


@pytest.mark.parametrize(("cond", "x1", "x2"), [
    (True, 1, 2), (False, 1.5, 2), (np.bool_(True), np.float32(1), 2), ("array", 1, 2.5), (True, "array", 0),
], ids=["python", "mixed", "numpy-scalars", "0-d-cond", "0-d-value"])
def test_where_of_0d_operands_is_a_0d_array(cond: object, x1: object, x2: object) -> None:
    """NumPy's where is a function, not a ufunc: 0-d operands give a 0-d
    array (writeable, printed as array(1)), not a scalar."""
    def lib_args(lib: object) -> list[object]:
        return [lib.asarray(True) if v == "array" else v for v in (cond, x1, x2)]

    want = np.where(*lib_args(np))
    got = ma.where(*lib_args(ma))
    assert type(got) is ma.NDArray and got.shape == () and got.dtype == want.dtype
    assert repr(got) == repr(want) and got.item() == want.item()
    got[...] = 0
    assert got.item() == 0
    o = ma.zeros(())
    assert ma.where(True, 3.0, 4.0, out=o) is o and o.item() == 3.0
