"""Manipulation functions against NumPy: the copying ones (concat, stack,
unstack, repeat, roll, tile, take, take_along_axis) over every dtype,
0-d and empty inputs and non-contiguous views, and the Array API's error
rules for them and for the view functions (whose layouts test_views.py
checks in depth)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from array_strategies import (
    assert_result,
    distinct_values,
    shapes,
    to_ma,
    values_of,
    viewed,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_errors import raises_as_numpy
from numpy_oracle import both, same
from reduction_helpers import array_pairs

import minarray as ma

SETTINGS = settings(max_examples=40, deadline=None)

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


# ---- NumPy's editing routines ------------------------------------------------------------

PAD_MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]


@SETTINGS
@given(pair=array_pairs(dtypes=["int32", "float64", "uint8"], min_dims=1, max_dims=3, max_side=4),
       mode=st.sampled_from(PAD_MODES), data=st.data())
def test_pad_matches_numpy(pair: tuple[np.ndarray, ma.NDArray], mode: str, data: Any) -> None:
    a, x = pair
    widths = [tuple(data.draw(st.integers(0, 6)) for _ in range(2)) for _ in range(a.ndim)]
    kw = {"constant_values": data.draw(st.sampled_from([0, 7, ((1, 2),) * a.ndim]))} if mode == "constant" else {}
    try:
        expected = np.pad(a, widths, mode=mode, **kw)
    except ValueError:
        with pytest.raises(ValueError):
            ma.pad(x, widths, mode=mode, **kw)
        return
    same(ma.pad(x, widths, mode=mode, **kw), expected)


@SETTINGS
@given(pair=array_pairs(dtypes=["int64", "float32"], min_dims=1, max_dims=2, max_side=6), data=st.data())
def test_insert_delete_append_match_numpy(pair: tuple[np.ndarray, ma.NDArray], data: Any) -> None:
    a, _x = pair
    axis = data.draw(st.sampled_from([None, *range(a.ndim)]))
    n = a.size if axis is None else a.shape[axis]
    obj = data.draw(st.one_of(st.integers(-n, n), st.lists(st.integers(-n, n), max_size=3)))
    got, expected = both("insert", a, obj, 5, axis=axis)
    same(got, expected)
    if n:
        drop = data.draw(st.one_of(st.integers(-n, n - 1), st.lists(st.integers(-n, n - 1), max_size=3),
                                   st.just(slice(0, None, 2))))
        got, expected = both("delete", a, drop, axis=axis)
        same(got, expected)
    got, expected = both("append", a, a, axis=axis)
    same(got, expected)
