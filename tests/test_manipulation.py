"""Manipulation functions against NumPy: the copying ones (concat, stack,
unstack, repeat, roll, tile, take, take_along_axis) over every dtype,
0-d and empty inputs and non-contiguous views, and the Array API's error
rules for them and for the view functions (whose layouts test_views.py
checks in depth)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from array_strategies import (
    distinct_values,
    dtypes,
    np_dtype,
    shapes,
    to_ma,
    values_of,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_errors import raises_as_numpy
from numpy_oracle import unstack

import minarray as ma


def assert_result(x: ma.NDArray, expected: np.ndarray, dtype: ma.DType | None = None) -> None:
    """``x`` is a fresh C-contiguous array equal to NumPy's ``expected``."""
    assert isinstance(x, ma.NDArray)
    assert x.shape == expected.shape
    if dtype is not None:
        assert x.dtype == dtype
    got = values_of(x)
    if got.dtype.kind in "fcV":
        got = got.astype(np.complex128)
        expected = expected.astype(np.complex128)
    np.testing.assert_array_equal(got, expected.astype(got.dtype))
    assert x.flags.c_contiguous


@st.composite
def viewed(draw: st.DrawFn, shape_strategy: Any = None, dtype: ma.DType | None = None
           ) -> tuple[np.ndarray, ma.NDArray]:
    """A NumPy array of the drawn shape and the equal minarray array, often a
    non-contiguous view (every other element, reversed, transposed) of a
    larger or differently laid out one."""
    d = dtype if dtype is not None else draw(dtypes())
    shape = draw(shape_strategy if shape_strategy is not None else shapes(max_dims=4))
    layout = draw(st.sampled_from(["c", "strided", "reversed", "transposed", "sliced"]))
    if layout == "strided" and shape:
        base = distinct_values((*shape[:-1], 2 * shape[-1]), d)
        return base[..., ::2], to_ma(base)[..., ::2]
    if layout == "reversed" and shape:
        base = distinct_values(shape, d)
        return base[::-1], to_ma(base)[::-1]
    if layout == "transposed" and len(shape) >= 2:
        base = distinct_values(shape[::-1], d)
        return base.T, to_ma(base).T
    if layout == "sliced" and shape:
        base = distinct_values((shape[0] + 2, *shape[1:]), d)
        return base[1:-1], to_ma(base)[1:-1]
    base = distinct_values(shape, d)
    return base, to_ma(base)


# ---- concat -----------------------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(data=st.data(), n=st.integers(1, 4), d1=dtypes(numpy_only=True), d2=dtypes(numpy_only=True))
def test_concat_matches_numpy(data: st.DataObject, n: int, d1: ma.DType, d2: ma.DType) -> None:
    nd = data.draw(st.integers(1, 4))
    shape = list(data.draw(shapes(min_dims=nd, max_dims=nd)))
    axis = data.draw(st.integers(-nd, nd - 1))
    nps, mas = [], []
    for i in range(n):
        s = list(shape)
        s[axis] = data.draw(st.integers(0, 3))
        a_np, a = data.draw(viewed(st.just(tuple(s)), d1 if i % 2 == 0 else d2))
        nps.append(a_np)
        mas.append(a)
    got = ma.concat(mas, axis=axis)
    assert_result(got, np.concatenate(nps, axis=axis), ma.result_type(*mas))
    assert_result(ma.concatenate(tuple(mas), axis), np.concatenate(nps, axis=axis))


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_concat_axis_none_flattens(data: st.DataObject) -> None:
    pairs = [data.draw(viewed()) for _ in range(data.draw(st.integers(1, 3)))]
    mas = [m for _, m in pairs]
    target = np_dtype(ma.result_type(*mas))  # NumPy cannot promote bfloat16 with integers
    assert_result(ma.concat(mas, axis=None), np.concatenate([a.ravel().astype(target) for a, _ in pairs]))


def test_concat_errors() -> None:
    with pytest.raises(ValueError, match="zero-dimensional"):
        ma.concat([ma.ones(()), ma.ones(())])
    with pytest.raises(ValueError, match="same number of dimensions"):
        ma.concat([ma.ones((2, 2)), ma.ones(2)])
    with pytest.raises(ValueError, match="must match"):
        ma.concat([ma.ones((2, 2)), ma.ones((2, 3))], axis=0)
    with pytest.raises(IndexError):
        ma.concat([ma.ones((2, 2)), ma.ones((2, 2))], axis=2)
    with pytest.raises(ValueError, match="at least one"):
        ma.concat([])
    with pytest.raises(TypeError):
        ma.concat(ma.ones(3))  # an array is not a sequence of arrays here


# ---- stack / unstack -------------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(data=st.data(), n=st.integers(1, 4), d1=dtypes(numpy_only=True), d2=dtypes(numpy_only=True))
def test_stack_matches_numpy(data: st.DataObject, n: int, d1: ma.DType, d2: ma.DType) -> None:
    shape = data.draw(shapes(max_dims=3))
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    pairs = [data.draw(viewed(st.just(shape), d1 if i % 2 == 0 else d2)) for i in range(n)]
    mas = [m for _, m in pairs]
    assert_result(ma.stack(mas, axis=axis), np.stack([a for a, _ in pairs], axis=axis), ma.result_type(*mas))


def test_stack_errors() -> None:
    with pytest.raises(ValueError, match="same shape"):
        ma.stack([ma.ones(2), ma.ones(3)])
    with pytest.raises(IndexError):
        ma.stack([ma.ones(2), ma.ones(2)], axis=2)
    with pytest.raises(ValueError):
        ma.stack([])


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_unstack_matches_numpy(data: st.DataObject) -> None:
    a_np, a = data.draw(viewed(shapes(min_dims=1, max_dims=4)))
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    parts = ma.unstack(a, axis=axis)
    expected = unstack(a_np, axis=axis)
    assert isinstance(parts, tuple) and len(parts) == len(expected)
    for p, e in zip(parts, expected, strict=True):
        assert p.shape == e.shape
        np.testing.assert_array_equal(values_of(p).astype(np.complex128), e.astype(np.complex128))
        assert p.base is not None  # views, as NumPy's
    if a.size and all(p.size for p in parts):
        restacked = ma.stack(parts, axis=axis)
        np.testing.assert_array_equal(values_of(restacked).astype(np.complex128), a_np.astype(np.complex128))


def test_unstack_errors() -> None:
    with pytest.raises(ValueError, match="0-dimensional"):
        ma.unstack(ma.ones(()))
    with pytest.raises(IndexError):
        ma.unstack(ma.ones((2, 3)), axis=2)


# ---- repeat ----------------------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_repeat_matches_numpy(data: st.DataObject) -> None:
    a_np, a = data.draw(viewed(shapes(max_dims=3)))
    axis = data.draw(st.none() | st.integers(-max(a.ndim, 1), max(a.ndim, 1) - 1)) if a.ndim else None
    n = a.size if axis is None else a.shape[axis]
    kind = data.draw(st.sampled_from(["int", "array", "array1"]))
    if kind == "int":
        r: Any = data.draw(st.integers(0, 3))
        rm: Any = r
    elif kind == "array1":
        r = np.array([data.draw(st.integers(0, 3))])
        rm = to_ma(r)
    else:
        r = np.array(data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)), dtype=np.int64)
        rm = to_ma(r.astype(data.draw(st.sampled_from(["int64", "int32", "uint8"]))))
    assert_result(ma.repeat(a, rm, axis=axis), np.repeat(a_np, r, axis=axis), a.dtype)


def test_repeat_large_counts_array() -> None:
    x = ma.arange(1000)
    counts = np.arange(1000) % 3
    assert_result(ma.repeat(x, to_ma(counts)), np.repeat(np.arange(1000), counts))


def test_repeat_errors() -> None:
    x = ma.ones((2, 3))
    with pytest.raises(ValueError, match="non-negative"):
        ma.repeat(x, -1)
    with pytest.raises(ValueError, match="non-negative"):
        ma.repeat(x, ma.asarray([1, -1, 2]), axis=1)
    with pytest.raises(ValueError, match="do not match"):
        ma.repeat(x, ma.asarray([1, 2]), axis=1)
    with pytest.raises(TypeError):
        ma.repeat(x, ma.asarray([1.0, 2.0, 3.0]), axis=1)
    with pytest.raises(TypeError):
        ma.repeat(x, 1.5)
    with pytest.raises(IndexError):
        ma.repeat(x, 2, axis=2)


# ---- tile --------------------------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_tile_matches_numpy(data: st.DataObject) -> None:
    a_np, a = data.draw(viewed(shapes(max_dims=3, max_side=3)))
    reps = tuple(data.draw(st.lists(st.integers(0, 3), max_size=4)))
    assert_result(ma.tile(a, reps), np.tile(a_np, reps), a.dtype)


def test_tile_many_dimensions() -> None:
    # 64 dimensions, two of them repeated: more split dimensions than the
    # C iterator's 64
    a = distinct_values((1,) * 61 + (2, 1, 2), ma.int16)
    reps = (1,) * 61 + (2, 1, 3)
    assert_result(ma.tile(to_ma(a), reps), np.tile(a, reps))


def test_tile_errors() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        ma.tile(ma.ones(2), (-1,))
    with pytest.raises(TypeError):
        ma.tile(ma.ones(2), (1.5,))


# ---- roll --------------------------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_roll_matches_numpy(data: st.DataObject) -> None:
    a_np, a = data.draw(viewed(shapes(max_dims=4)))
    if a.ndim == 0 or data.draw(st.booleans()):
        shift: Any = data.draw(st.integers(-10, 10))
        axis: Any = None
    else:
        k = data.draw(st.integers(1, 3))
        axis = tuple(data.draw(st.lists(st.integers(-a.ndim, a.ndim - 1), min_size=k, max_size=k)))
        shift = tuple(data.draw(st.lists(st.integers(-10, 10), min_size=k, max_size=k)))
        if k == 1 and data.draw(st.booleans()):
            axis, shift = axis[0], shift[0]
    assert_result(ma.roll(a, shift, axis=axis), np.roll(a_np, shift, axis=axis), a.dtype)


def test_roll_broadcasts_scalar_shift_and_errors() -> None:
    a = np.arange(12).reshape(3, 4)
    assert_result(ma.roll(to_ma(a), 1, axis=(0, 1)), np.roll(a, 1, axis=(0, 1)))
    with pytest.raises(ValueError, match="same length"):
        ma.roll(to_ma(a), (1, 2, 3), axis=(0, 1))
    with pytest.raises(IndexError):
        ma.roll(to_ma(a), 1, axis=2)
    with pytest.raises(TypeError):
        ma.roll(to_ma(a), 1.5)


# ---- take / take_along_axis ---------------------------------------------------------------

@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_take_matches_numpy(data: st.DataObject) -> None:
    a_np, a = data.draw(viewed(shapes(max_dims=3)))
    axis = None if a.ndim == 0 or data.draw(st.booleans()) else data.draw(st.integers(-a.ndim, a.ndim - 1))
    n = a.size if axis is None else a.shape[axis]
    ishape = data.draw(shapes(max_dims=2, max_side=4))
    if n == 0:
        ishape = (0,)
    idx = np.array(data.draw(st.lists(st.integers(-n, n - 1), min_size=math.prod(ishape),
                                      max_size=math.prod(ishape))) if n else [], dtype=np.int64).reshape(ishape)
    idt = data.draw(st.sampled_from(["int64", "int32", "int8"]))
    got = ma.take(a, to_ma(idx.astype(idt)), axis=axis)
    assert_result(got, np.take(a_np, idx, axis=axis), a.dtype)


def test_take_errors() -> None:
    x = ma.ones((2, 3))
    with pytest.raises(IndexError, match="out of bounds"):
        ma.take(x, ma.asarray([3]), axis=1)
    with pytest.raises(IndexError, match="out of bounds"):
        ma.take(x, ma.asarray([-4]), axis=1)
    with pytest.raises(TypeError, match="integer"):
        ma.take(x, ma.asarray([0.0]), axis=1)
    with pytest.raises(IndexError):
        ma.take(x, ma.asarray([0]), axis=2)


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_take_along_axis_matches_numpy(data: st.DataObject) -> None:
    a_np, a = data.draw(viewed(shapes(min_dims=1, max_dims=3)))
    axis = data.draw(st.integers(-a.ndim, a.ndim - 1))
    n = a.shape[axis]
    ishape = [data.draw(st.sampled_from([s, 1])) for s in a.shape]
    ishape[axis] = data.draw(st.integers(0, 4)) if n else 0
    size = math.prod(ishape)
    idx = np.array(data.draw(st.lists(st.integers(-n, n - 1), min_size=size, max_size=size)) if n else [],
                   dtype=np.int64).reshape(ishape)
    got = ma.take_along_axis(a, to_ma(idx), axis=axis)
    assert_result(got, np.take_along_axis(a_np, idx, axis=axis), a.dtype)


def test_take_along_axis_with_argsort_and_errors() -> None:
    a = np.array([[3, 1, 2], [0, 5, 4]])
    order = np.argsort(a, axis=1)
    assert_result(ma.take_along_axis(to_ma(a), to_ma(order), axis=1), np.sort(a, axis=1))
    with pytest.raises(ValueError, match="same number of dimensions"):
        ma.take_along_axis(to_ma(a), ma.asarray([0]), axis=1)
    with pytest.raises(IndexError, match="out of bounds"):
        ma.take_along_axis(to_ma(a), ma.asarray([[3]]), axis=1)
    with pytest.raises(ValueError, match="broadcast"):
        ma.take_along_axis(to_ma(a), ma.zeros((3, 1), dtype=ma.int64), axis=1)
    with pytest.raises(IndexError):
        ma.take_along_axis(to_ma(a), ma.zeros((2, 1), dtype=ma.int64), axis=2)
    with pytest.raises(ValueError):
        ma.take_along_axis(ma.ones(()), ma.zeros((), dtype=ma.int64), axis=0)


# ---- the view functions, against the standard's rules --------------------------------------

def test_view_functions_follow_the_standard() -> None:
    a_np = distinct_values((2, 3, 4), ma.int32)
    a = to_ma(a_np)
    # broadcast_arrays returns a tuple (2025.12) of arrays of one shape
    out = ma.broadcast_arrays(a, ma.ones((3, 1)))
    assert isinstance(out, tuple) and [o.shape for o in out] == [(2, 3, 4), (2, 3, 4)]
    with pytest.raises(ValueError):
        ma.broadcast_arrays(a, ma.ones((5,)))
    with pytest.raises(ValueError):
        ma.broadcast_to(a, (3, 4))
    # expand_dims: IndexError outside [-ndim - 1, ndim]
    assert ma.expand_dims(a, axis=-1).shape == (2, 3, 4, 1)
    assert ma.expand_dims(a, axis=3).shape == (2, 3, 4, 1)
    with pytest.raises(IndexError):
        ma.expand_dims(a, axis=4)
    with pytest.raises(IndexError):
        ma.expand_dims(a, axis=-5)
    # squeeze: ValueError for an axis whose size is not 1
    with pytest.raises(ValueError):
        ma.squeeze(a, axis=0)
    assert ma.squeeze(ma.ones((1, 3, 1)), axis=(0, 2)).shape == (3,)
    # permute_dims: ValueError for a non-permutation
    with pytest.raises(ValueError):
        ma.permute_dims(a, (0, 1))
    with pytest.raises(ValueError):
        ma.permute_dims(a, (0, 0, 1))
    # moveaxis with tuples
    assert_view = ma.moveaxis(a, (0, 1), (-1, -2))
    np.testing.assert_array_equal(values_of(assert_view), np.moveaxis(a_np, (0, 1), (-1, -2)))
    with pytest.raises(ValueError):
        ma.moveaxis(a, (0, 1), (0,))
    # flip over a tuple of axes and over all axes
    np.testing.assert_array_equal(values_of(ma.flip(a, axis=(0, 2))), np.flip(a_np, axis=(0, 2)))
    np.testing.assert_array_equal(values_of(ma.flip(a)), np.flip(a_np))
    # reshape: copy=False must not copy
    with pytest.raises(ValueError):
        ma.reshape(ma.permute_dims(a, (2, 1, 0)), (24,), copy=False)
    with pytest.raises(ValueError):
        ma.reshape(a, (5, 5))


# ---- sizes past int64: refused before any allocation, as NumPy ------------------------

SIZES_TOO_LARGE = {
    "tile 2**62": (lambda m: m.tile(m.ones(2), 2**62), "does not fit in 64 bits"),
    "tile (2**62, 2)": (lambda m: m.tile(m.ones(2), (2**62, 2)), "too large"),
    "tile reps past int64": (lambda m: m.tile(m.ones(2), 2**63), "does not fit in a 64-bit integer"),
    "tile empty, huge reps": (lambda m: m.tile(m.ones((2, 0)), (2**62, 1)), "does not fit in 64 bits"),
    "repeat 2**62": (lambda m: m.repeat(m.ones(2), 2**62), "does not fit in 64 bits"),
    "repeat counts summing past int64": (lambda m: m.repeat(m.ones(2), m.asarray([2**62, 2**62])), "overflows"),
    "repeat three counts of 2**62": (lambda m: m.repeat(m.ones(3), m.asarray([2**62] * 3)), "overflows"),
    "repeat count past int64": (lambda m: m.repeat(m.ones(2), 2**63), "does not fit in a 64-bit integer"),
    "repeat empty, count past int64": (lambda m: m.repeat(m.ones(0), 2**63), "does not fit in a 64-bit integer"),
    "resize 2**40 x 2**40": (lambda m: m.resize(m.ones(2), (2**40, 2**40)), "more than a 64-bit integer holds"),
    "resize empty but huge": (lambda m: m.resize(m.ones(2), (2**40, 2**40, 0)), "too large"),
    "pad 2**62": (lambda m: m.pad(m.ones(2), 2**62), "does not fit in 64 bits"),
    "pad empty, huge widths": (lambda m: m.pad(m.ones((0, 2)), ((0, 0), (2**62, 2**62))), "does not fit in 64 bits"),
    "broadcast_to empty but huge": (lambda m: m.broadcast_to(m.ones(0), (2**40, 2**40, 0)), "too large"),
    "reshape empty but huge": (lambda m: m.ones(0).reshape((2**40, 2**40, 0)), "too large"),
    "concatenate past int64": (lambda m: m.concatenate([m.ones((2**62, 0)), m.ones((2**62, 0))]), "too large"),
    "stack past int64": (lambda m: m.stack([m.ones((2**61, 0))] * 4), "too large"),
}


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")  # NumPy's pad adds its widths in int64
@pytest.mark.parametrize("case", SIZES_TOO_LARGE.values(), ids=SIZES_TOO_LARGE.keys())
def test_sizes_past_int64_raise_as_numpy(case: tuple[Any, str]) -> None:
    call, match = case
    raises_as_numpy(call, match)


def test_tile_past_int64_bytes_is_value_error() -> None:
    """tile((2,), (2**40, 2**40)) would hold 2**81 elements: ValueError,
    where NumPy's MemoryError comes from its first step, a 16 TiB array of
    shape (2**40, 2)."""
    with pytest.raises(ValueError, match=r"shape \(1099511627776, 2199023255552\).*too large"):
        ma.tile(ma.ones(2), (2**40, 2**40))
