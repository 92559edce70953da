"""Manipulation functions (minarray/_manipulation.py) against NumPy: the
view functions (reshape, permute_dims, expand_dims, squeeze, flip,
broadcast_to, ravel...) with NumPy's shapes, byte strides and values; the
copying ones (repeat, roll, tile) over every dtype, 0-d and empty inputs
and non-contiguous views; the Array API's error rules for them; and
NumPy's editing routines (pad, insert, delete, append).  Joining and
splitting are test_joining.py's, take is test_indexing.py's."""

from __future__ import annotations

import gc
import math
import re
import threading
import warnings
from typing import Any

import numpy as np
import pytest
from array_strategies import (
    array_and_slice_chain,
    assert_like_numpy,
    assert_result,
    assert_view_like_numpy,
    distinct_values,
    dtypes,
    examples,
    np_view,
    shapes,
    to_ma,
    values_of,
    view_key,
    viewed,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy_errors import raises_as_numpy
from numpy_oracle import both, same
from reduction_helpers import array_pairs

import minarray as ma

SETTINGS = examples(80)


# ---- reshape -----------------------------------------------------------------------------

def _reshape_cases() -> list[tuple[tuple[int, ...], Any, tuple[int, ...]]]:
    """(base shape, index into it, new shape) triples covering contiguous,
    strided, transposed and size-0/size-1 layouts."""
    return [
        ((6,), slice(None), (2, 3)),
        ((6,), slice(None, None, 2), (3, 1)),
        ((6,), slice(None, None, 2), (1, 3)),
        ((6,), slice(None, None, 2), (3, 1, 1)),
        ((4, 6), (slice(None), slice(None, None, 2)), (4, 3, 1)),
        ((4, 6), (slice(None), slice(None, None, 2)), (2, 2, 3)),
        ((4, 6), (slice(None), slice(None, None, 2)), (12,)),
        ((4, 6), (slice(None, None, 2), slice(None)), (2, 2, 3)),
        ((4, 6), (slice(None, None, 2), slice(None)), (12,)),
        ((4, 6), (slice(None, None, -1), slice(None)), (24,)),
        ((4, 6), (slice(None, None, -1), slice(None)), (4, 2, 3)),
        ((2, 3, 4), (slice(None), slice(None, 2)), (2, 8)),
        ((2, 3, 4), (slice(None), slice(None, 2)), (4, 4)),
        ((2, 3, 4), (slice(None), 0), (8,)),
        ((2, 3, 4), (None, slice(None), None, slice(None, None, 2)), (4, 4)),
        ((2, 1, 3), (slice(None), slice(None), slice(None, None, 2)), (2, 2)),
        ((5, 1), (slice(None, None, 2),), (3,)),
        ((3, 4), (slice(0, 0),), (0, 4)),
        ((3, 4), (slice(None), slice(None, None, 3)), (3, 2, 1, 1)),
        ((1,), (slice(None),), ()),
        ((), (), (1, 1)),
    ]


@pytest.mark.parametrize(("shape", "key", "new"), _reshape_cases())
def test_reshape_views_and_copies_like_numpy(shape: tuple[int, ...], key: Any, new: tuple[int, ...]) -> None:
    arr = distinct_values(shape, ma.int32)
    x = to_ma(arr)
    v, nv = x[view_key(key)], np_view(arr, key)
    r, nr = v.reshape(new), nv.reshape(new)
    assert_like_numpy(r, nr)
    if nr.size:
        assert (r.base is x) == np.shares_memory(nr, arr)
    tr, ntr = v.T.reshape(new), nv.T.reshape(new)
    assert_like_numpy(tr, ntr)
    if ntr.size:
        assert (tr.base is x) == np.shares_memory(ntr, arr)


@SETTINGS
@given(array_and_slice_chain(max_steps=2), st.data())
def test_reshape_random_like_numpy(case: tuple[np.ndarray, list[Any]], data: st.DataObject) -> None:
    arr, keys = case
    x = to_ma(arr)
    v, nv = x, arr
    for key in keys:
        v, nv = v[view_key(key)], np_view(nv, key)
    # a random factorisation of the size into a new shape
    size = nv.size
    dims: list[int] = []
    rest = size
    for _ in range(data.draw(st.integers(0, 4))):
        divisors = [d for d in range(1, min(rest, 12) + 1) if rest % d == 0] if rest else [0, 1, 2]
        d = data.draw(st.sampled_from(divisors))
        dims.append(d)
        rest = rest // d if d else rest
    if math.prod(dims) != size:
        dims.append(size // math.prod(dims) if math.prod(dims) else 0)
        if math.prod(dims) != size:
            dims = [size]
    dims = data.draw(st.permutations(dims))
    nr = nv.reshape(dims)
    r = v.reshape(dims)
    assert_like_numpy(r, nr)
    if size:
        assert (r.base is x) == np.shares_memory(nr, arr)
    if dims and size and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(dims) - 1))
        if dims[i] != 0:
            inferred = list(dims)
            inferred[i] = -1
            assert v.reshape(inferred).shape == nv.reshape(inferred).shape


def test_reshape_errors_and_copy_flag() -> None:
    x = ma.arange(12)
    with pytest.raises(ValueError, match="size 12"):
        x.reshape(5, 3)
    with pytest.raises(ValueError, match="one unknown"):
        x.reshape(-1, -1)
    with pytest.raises(ValueError, match="size 12"):
        x.reshape(-1, 5)
    with pytest.raises(ValueError, match="negative"):
        x.reshape(-2, -6)
    with pytest.raises(TypeError):
        x.reshape(2.0, 6)
    with pytest.raises(ValueError, match="size 0"):
        ma.zeros(0).reshape(-1, 0)
    s = x.reshape(3, 4)[:, :2]
    with pytest.raises(ValueError, match="without copying"):
        s.reshape((6,), copy=False)
    flat = s.reshape(6)
    assert flat.base is not x and flat.tolist() == [0, 1, 4, 5, 8, 9]
    evens = x.reshape(3, 4)[:, ::2].reshape((6,), copy=False)  # evenly spaced: a view
    assert evens.base is x and evens.strides == (16,)
    c = x.reshape((3, 4), copy=True)
    assert c.tolist() == np.arange(12).reshape(3, 4).tolist()
    assert not np.shares_memory(np.asarray(c), np.asarray(x))
    c[0, 0] = 99
    assert x[0].item() == 0
    v = x.reshape((3, 4), copy=False)
    assert v.base is x
    assert ma.reshape(x, (2, 6)).shape == (2, 6)
    assert ma.reshape(x, 12).shape == (12,)


# ---- the other view functions ------------------------------------------------------------

@SETTINGS
@given(dtypes(), shapes(max_dims=5), st.data())
def test_permute_swap_move_like_numpy(dtype: ma.DType, shape: tuple[int, ...], data: st.DataObject) -> None:
    arr = distinct_values(shape, dtype)
    x = to_ma(arr)
    nd = arr.ndim
    perm = data.draw(st.permutations(range(nd)))
    assert_view_like_numpy(ma.permute_dims(x, tuple(perm)), x, np.transpose(arr, perm), arr)
    assert_view_like_numpy(x.transpose(perm), x, arr.transpose(perm), arr)
    assert_view_like_numpy(x.transpose(), x, arr.transpose(), arr)
    assert_view_like_numpy(x.T, x, arr.T, arr)
    if nd:
        a1 = data.draw(st.integers(-nd, nd - 1))
        a2 = data.draw(st.integers(-nd, nd - 1))
        assert_view_like_numpy(ma.swapaxes(x, a1, a2), x, np.swapaxes(arr, a1, a2), arr)
        k = data.draw(st.integers(0, nd))
        src = data.draw(st.lists(st.integers(0, nd - 1), min_size=k, max_size=k, unique=True))
        dst = data.draw(st.lists(st.integers(-nd, nd - 1), min_size=k, max_size=k,
                                 unique_by=lambda a: a % nd))
        assert_view_like_numpy(ma.moveaxis(x, tuple(src), tuple(dst)), x,
                               np.moveaxis(arr, src, dst), arr)
    if nd >= 2:
        assert_view_like_numpy(x.mT, x, np.swapaxes(arr, -1, -2), arr)
        assert_view_like_numpy(ma.matrix_transpose(x), x, np.swapaxes(arr, -1, -2), arr)


@SETTINGS
@given(dtypes(), shapes(max_dims=4), st.data())
def test_expand_squeeze_flip_like_numpy(dtype: ma.DType, shape: tuple[int, ...], data: st.DataObject) -> None:
    arr = distinct_values(shape, dtype)
    x = to_ma(arr)
    nd = arr.ndim
    ax = data.draw(st.integers(-nd - 1, nd))
    assert_view_like_numpy(ma.expand_dims(x, axis=ax), x, np.expand_dims(arr, ax), arr)
    k = data.draw(st.integers(1, 2))
    axes = data.draw(st.lists(st.integers(0, nd + k - 1), min_size=k, max_size=k, unique=True))
    assert_view_like_numpy(ma.expand_dims(x, axis=tuple(axes)), x, np.expand_dims(arr, tuple(axes)), arr)
    if nd:  # and of a non-contiguous view
        t, nt = x[..., ::-2], arr[..., ::-2]
        assert_view_like_numpy(ma.expand_dims(t, axis=ax), x, np.expand_dims(nt, ax), arr)
    assert_view_like_numpy(ma.squeeze(x), x, np.squeeze(arr), arr)
    ones = [i for i, n in enumerate(shape) if n == 1]
    if ones:
        sub = data.draw(st.lists(st.sampled_from(ones), min_size=1, unique=True))
        assert_view_like_numpy(ma.squeeze(x, axis=tuple(sub)), x, np.squeeze(arr, axis=tuple(sub)), arr)
    if nd:
        assert_view_like_numpy(ma.flip(x), x, np.flip(arr), arr)
    else:  # NumPy returns a scalar here; minarray a 0-d view
        assert ma.flip(x).base is x and ma.flip(x).item() == arr.item()
    if nd:
        fa = data.draw(st.integers(-nd, nd - 1))
        assert_view_like_numpy(ma.flip(x, axis=fa), x, np.flip(arr, axis=fa), arr)


def test_expand_dims_strides_are_numpy_compatible() -> None:
    # The stride of an inserted size-1 axis does not matter for addressing;
    # it must still be a valid stride (NumPy puts the next axis' extent there).
    x = ma.zeros((2, 3), dtype=ma.float32)
    e = ma.expand_dims(x, axis=1)
    assert e.shape == (2, 1, 3)
    assert e.flags.c_contiguous
    np.testing.assert_array_equal(np.asarray(e), np.zeros((2, 1, 3), np.float32))


def test_view_function_errors() -> None:
    x = ma.zeros((2, 3))
    with pytest.raises(ValueError, match="permutation"):
        ma.permute_dims(x, (0, 0))
    with pytest.raises(ValueError, match="permutation"):
        ma.permute_dims(x, (0,))
    with pytest.raises(IndexError, match="out of bounds"):
        ma.permute_dims(x, (0, 2))
    with pytest.raises(IndexError, match="out of bounds"):
        ma.swapaxes(x, 0, 2)
    with pytest.raises(ValueError, match="size not equal to one"):
        ma.squeeze(x, axis=0)
    with pytest.raises(ValueError, match="repeated"):
        ma.expand_dims(x, axis=(0, 0))
    with pytest.raises(IndexError):
        ma.expand_dims(x, axis=3)
    with pytest.raises(ValueError, match="same number"):
        ma.moveaxis(x, (0, 1), (0,))
    with pytest.raises(ValueError, match="repeated"):
        ma.moveaxis(x, (0, 0), (0, 1))
    with pytest.raises(IndexError):
        ma.flip(x, axis=2)
    with pytest.raises(TypeError):
        ma.flip(x, axis=1.5)  # type: ignore[arg-type]


@SETTINGS
@given(dtypes(), shapes(max_dims=3, max_side=3), st.data())
def test_broadcast_to_like_numpy(dtype: ma.DType, shape: tuple[int, ...], data: st.DataObject) -> None:
    arr = distinct_values(shape, dtype)
    x = to_ma(arr)
    lead = data.draw(st.lists(st.integers(0, 3), max_size=2))
    target = [*lead, *[data.draw(st.sampled_from([n, 3])) if n == 1 else n for n in shape]]
    b = ma.broadcast_to(x, tuple(target))
    nb = np.broadcast_to(arr, tuple(target))
    assert_view_like_numpy(b, x, nb, arr)
    assert not b.flags.writeable
    if b.size:
        with pytest.raises(ValueError, match="read-only"):
            b[...] = 0
    with pytest.raises(ValueError, match="read-only"):
        b.fill(0)


def test_broadcast_errors_and_helpers() -> None:
    x = ma.zeros((2, 3))
    with pytest.raises(ValueError, match=r"cannot broadcast.*\(2, 3\).*\(3, 3\)"):
        ma.broadcast_to(x, (3, 3))
    with pytest.raises(ValueError, match="cannot broadcast"):
        ma.broadcast_to(x, (3,))
    with pytest.raises(ValueError, match="negative"):
        ma.broadcast_to(x, (-1, 3))
    assert ma.broadcast_shapes((2, 1), (1, 3), (3,)) == (2, 3)
    assert ma.broadcast_shapes() == ()
    assert ma.broadcast_shapes((0,), (1,)) == (0,)
    with pytest.raises(ValueError, match="cannot be broadcast"):
        ma.broadcast_shapes((2,), (3,))
    a, b = ma.broadcast_arrays(ma.zeros((2, 1)), ma.zeros(3))
    assert a.shape == b.shape == (2, 3)


@SETTINGS
@given(array_and_slice_chain(max_steps=2))
def test_ravel_flatten_copy_like_numpy(case: tuple[np.ndarray, list[Any]]) -> None:
    arr, keys = case
    x = to_ma(arr)
    v, nv = x, arr
    for key in keys:
        v, nv = v[view_key(key)], np_view(nv, key)
    r = v.ravel()
    assert_like_numpy(r, nv.ravel())
    if nv.size:
        assert (r.base is x) == np.shares_memory(nv.ravel(), arr)
    f = v.flatten()
    assert_like_numpy(f, nv.flatten())
    assert f.base is None and f.flags.owndata
    c = v.copy()
    assert_like_numpy(c, nv.copy())
    assert c.base is None and c.flags.c_contiguous and c.flags.writeable
    if c.size:
        assert c.data_ptr != v.data_ptr


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


def _pad_keywords(mode: str, ndim: int, data: Any) -> dict[str, Any]:
    """A draw of the keywords NumPy's ``mode`` takes: none, a scalar, a
    pair or a pair per axis."""
    values = {"linear_ramp": ("end_values", st.integers(-9, 9)), "maximum": ("stat_length", st.integers(1, 4)),
              "minimum": ("stat_length", st.integers(1, 4)), "mean": ("stat_length", st.integers(0, 4)),
              "median": ("stat_length", st.integers(1, 4))}
    if mode in ("reflect", "symmetric"):
        return {"reflect_type": data.draw(st.sampled_from(["even", "odd"]))}
    name, v = values[mode]
    form = data.draw(st.sampled_from(["none", "scalar", "pair", "per-axis"]))
    if form == "none":
        return {}
    if form == "scalar":
        return {name: data.draw(v)}
    if form == "pair":
        return {name: (data.draw(v), data.draw(v))}
    return {name: tuple((data.draw(v), data.draw(v)) for _ in range(ndim))}


@SETTINGS
@given(pair=array_pairs(dtypes=["int32", "float64", "uint8", "float32"], min_dims=1, max_dims=3, max_side=4),
       mode=st.sampled_from(["linear_ramp", "maximum", "minimum", "mean", "median", "reflect", "symmetric"]),
       data=st.data())
def test_pad_modes_with_keywords_match_numpy(pair: tuple[np.ndarray, ma.NDArray], mode: str, data: Any) -> None:
    a, x = pair
    widths = [tuple(data.draw(st.integers(0, 9)) for _ in range(2)) for _ in range(a.ndim)]
    kw = _pad_keywords(mode, a.ndim, data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the mean of 0 values (stat_length=0) is NaN
        try:
            expected = np.pad(a, widths, mode=mode, **kw)
        except ValueError as e:
            with pytest.raises(ValueError, match=re.escape(str(e))):
                ma.pad(x, widths, mode=mode, **kw)
            return
        got = ma.pad(x, widths, mode=mode, **kw)
    same(got, expected)


def _pad_with(vector: Any, pad_width: tuple[int, int], iaxis: int, kwargs: dict[str, Any]) -> None:
    # NumPy's docstring's function: writes the pads of one vector in place
    pad_value = kwargs.get("padder", 10)
    vector[: pad_width[0]] = pad_value
    vector[-pad_width[1]:] = pad_value


@pytest.mark.parametrize(("width", "mode", "kw"), [
    ((2, 3), "linear_ramp", {"end_values": (5, -4)}), (2, "maximum", {}), (2, "mean", {}), (2, "median", {}),
    (((3, 2), (2, 3)), "minimum", {}), ((2, 3), "reflect", {"reflect_type": "odd"}),
    ((12, 13), "symmetric", {"reflect_type": "odd"}), (2, _pad_with, {}), (2, _pad_with, {"padder": 100}),
    ({1: (1, 2)}, "constant", {}), ({-1: 2}, "constant", {}), ({0: (3, 0), 1: 2}, "edge", {}),
], ids=["linear_ramp", "maximum", "mean", "median", "minimum", "reflect-odd", "symmetric-odd-long",
        "function", "function-kwargs", "dict", "dict-negative-axis", "dict-pairs"])
def test_pad_docstring_forms_match_numpy(width: Any, mode: Any, kw: dict[str, Any]) -> None:
    a = np.arange(1, 6) if isinstance(mode, str) and mode in ("linear_ramp", "reflect", "symmetric") \
        else np.array([[1, 2], [3, 4]]) if mode in ("maximum", "minimum", "mean", "median") \
        else np.arange(6).reshape((2, 3))
    same(ma.pad(ma.asarray(a), width, mode, **kw), np.pad(a, width, mode, **kw))


def test_pad_empty_mode_keeps_the_array() -> None:
    a = np.arange(6).reshape((2, 3))
    got = ma.pad(ma.asarray(a), ((1, 2), (0, 1)), "empty")
    assert got.shape == np.pad(a, ((1, 2), (0, 1)), "empty").shape
    np.testing.assert_array_equal(np.asarray(got)[1:3, 0:3], a)


@pytest.mark.parametrize(("mode", "kw", "match"), [
    ("nonsense", {}, "mode 'nonsense' is not supported"),
    ("mean", {"foo": 1}, "unsupported keyword arguments for mode 'mean'"),
    ("edge", {"constant_values": 1}, "unsupported keyword arguments for mode 'edge'"),
    ("maximum", {"stat_length": 0}, "stat_length of 0 yields no value for padding"),
])
def test_pad_refuses_as_numpy(mode: str, kw: dict[str, Any], match: str) -> None:
    raises_as_numpy(lambda xp: xp.pad(xp.arange(4), 1, mode, **kw), match)


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


# ---- fill_diagonal ---------------------------------------------------------------------

FILL_DIAGONAL_CASES = [
    ((3, 3), 5, False), ((5, 3), [1, 2], True), ((5, 3), 7, False), ((7, 3), [1, 2, 3, 4, 5], True),
    ((8, 3), 1, True), ((4, 4), 4, True), ((3, 5), 9, True), ((3, 3, 3), [1, 2], False), ((2, 2, 2, 2), 3, True),
    ((4, 4), 2.7, False), ((3, 3), [1, 2, 3, 4, 5], False), ((0, 3), 1, False), ((3, 3), [], False),
]


@pytest.mark.parametrize(("shape", "val", "wrap"), FILL_DIAGONAL_CASES,
                         ids=[f"{s}-{v}-{w}" for s, v, w in FILL_DIAGONAL_CASES])
@pytest.mark.parametrize("dtype", ["int64", "float32", "complex128"])
def test_fill_diagonal_matches_numpy(shape: tuple[int, ...], val: Any, wrap: bool, dtype: str) -> None:
    expected = np.arange(math.prod(shape)).reshape(shape).astype(dtype)
    got = ma.asarray(expected.copy())
    assert ma.fill_diagonal(got, val, wrap=wrap) is None
    np.fill_diagonal(expected, val, wrap=wrap)
    same(got, expected)


def test_fill_diagonal_writes_through_strided_views() -> None:
    base, expected = ma.ones((4, 6)), np.ones((4, 6))
    ma.fill_diagonal(base.T[::2, ::-1], [4, 5, 6])
    np.fill_diagonal(expected.T[::2, ::-1], [4, 5, 6])
    same(base, expected)


def test_fill_diagonal_reads_an_aliased_value_first() -> None:
    x, expected = ma.asarray(np.arange(9.0).reshape(3, 3)), np.arange(9.0).reshape(3, 3)
    ma.fill_diagonal(x, x[:, 0])
    np.fill_diagonal(expected, expected[:, 0].copy())
    same(x, expected)


def test_fill_diagonal_refuses_as_numpy() -> None:
    raises_as_numpy(lambda m: m.fill_diagonal(m.zeros(3), 1), "at least 2-d")
    raises_as_numpy(lambda m: m.fill_diagonal(m.zeros((2, 3, 3)), 1), "equal length")
    ro = ma.broadcast_to(ma.zeros(3), (3, 3))
    with pytest.raises(ValueError, match="read-only"):
        ma.fill_diagonal(ro, 1)
    same(ro, np.zeros((3, 3)))


# ---- trim_zeros of n-d arrays (NumPy 2.2's axis=) ------------------------------------

TRIM_SAMPLES = {
    "2-d": np.array([[0, 0, 2, 3, 0, 0], [0, 1, 0, 3, 0, 0], [0, 0, 0, 0, 0, 0]]),
    "3-d": np.pad(np.arange(1, 9).reshape((2, 2, 2)), ((1, 0), (0, 2), (3, 1))),
    "zeros": np.zeros((3, 4)),
    "1-d": np.array([0, 0, 1, 0, 2, 0]),
    "1-d zeros": np.zeros(3),
    "0-d": np.array(5),
}


@pytest.mark.parametrize("name", list(TRIM_SAMPLES))
@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF"])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1)], ids=["all", "0", "last", "pair"])
def test_trim_zeros_matches_numpy(name: str, trim: str, axis: Any) -> None:
    a = TRIM_SAMPLES[name]
    try:
        expected = np.trim_zeros(a, trim, axis=axis)
    except np.exceptions.AxisError:  # an axis the array does not have: the same error
        with pytest.raises(ma.exceptions.AxisError):
            ma.trim_zeros(ma.asarray(a), trim, axis=axis)
        return
    x = ma.asarray(a)
    got = ma.trim_zeros(x, trim, axis=axis)
    same(got, expected)
    if got.size:
        assert ma.shares_memory(got, x)  # a view, as NumPy's


def test_trim_zeros_slices_a_list_as_numpy() -> None:
    assert ma.trim_zeros([0, 1, 2, 0]) == np.trim_zeros([0, 1, 2, 0]) == [1, 2]
    assert ma.trim_zeros((0, 3, 0), "f") == np.trim_zeros((0, 3, 0), "f") == (3, 0)


@pytest.mark.parametrize("trim", ["x", "fbf", ""])
def test_trim_zeros_refuses_what_numpy_refuses(trim: str) -> None:
    raises_as_numpy(lambda xp: xp.trim_zeros(xp.asarray([0, 1, 0]), trim), "unexpected character")


RAVEL_VIEWS = {
    "C": lambda b: b, "transposed": lambda b: b.T, "sliced": lambda b: b[:, ::2, 1:],
    "reversed": lambda b: b[::-1, :, ::-1], "permuted": lambda b: b.transpose(1, 0, 2),
    "fortran": np.asfortranarray, "permuted-reversed": lambda b: b.transpose(2, 0, 1)[::-1],
}


@pytest.mark.parametrize("layout", list(RAVEL_VIEWS))
@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_ravel_orders_match_numpy(layout: str, order: str) -> None:
    # NumPy's ravel, function and method: the values, and whether it is a view
    n = RAVEL_VIEWS[layout](np.arange(24).reshape(2, 3, 4))
    x = ma.asarray(n)
    expected = np.ravel(n, order=order)
    for got in (ma.ravel(x, order=order), x.ravel(order), x.ravel(order=order)):
        same(got, expected)
        assert ma.shares_memory(got, x) == np.shares_memory(expected, n)


def test_ravel_bad_order_raises_as_numpy() -> None:
    raises_as_numpy(lambda xp: xp.ravel(xp.arange(3), order="X"), "order must be one of")
# ---- NumPy's call signatures: positional axis, ravel's order ------------------

_A3 = np.arange(24).reshape(2, 3, 4)

MANIPULATION_CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("flip", (_A3, 0), {}), ("flip", (_A3, (0, 2)), {}), ("flip", (_A3, -1), {}),
    ("repeat", (_A3, 2, 1), {}), ("roll", (_A3, 2, 0), {}), ("roll", (_A3, (1, -1), (0, 2)), {}),
    ("squeeze", (_A3[:, :1], 1), {}), ("expand_dims", (_A3, 1), {}), ("moveaxis", (_A3, 0, -1), {}),
    ("ravel", (_A3, "F"), {}), ("ravel", (_A3.transpose(2, 0, 1), "A"), {}), ("ravel", (_A3.T, "A"), {}),
    ("ravel", (_A3.swapaxes(1, 2), "K"), {}), ("ravel", (_A3[:, ::-1], "K"), {}), ("ravel", (_A3.T, "K"), {}),
    ("ravel", (_A3[::2, :, 1:3],), {"order": "F"}),
]


@pytest.mark.parametrize(("fn", "args", "kwargs"), MANIPULATION_CALLS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(MANIPULATION_CALLS)])
def test_numpy_manipulation_signatures(fn: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    got, expected = both(fn, *args, **kwargs)
    same(got, expected)


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_ravel_method_order_and_views(order: str) -> None:
    for a in (_A3, _A3.T, np.asfortranarray(_A3)):
        x = ma.asarray(a)
        same(x.ravel(order=order), a.ravel(order=order))
        # a view exactly where NumPy gives one
        r, e = ma.ravel(x, order), np.ravel(a, order)
        assert (x.data_ptr <= r.data_ptr < x.data_ptr + x.nbytes) == np.shares_memory(e, a)
    raises_as_numpy(lambda m: m.ravel(m.asarray(_A3), order="Z"), "order")


# ---- rollaxis -----------------------------------------------------------------------------

ROLLAXIS = [(3, 0), (0, 3), (1, 0), (2, 1), (-1, 0), (0, -1), (1, 1), (1, 2), (2, 3), (-3, 4), (0, -4)]


@pytest.mark.parametrize(("axis", "start"), ROLLAXIS, ids=[f"axis{a}-start{s}" for a, s in ROLLAXIS])
def test_rollaxis_as_numpy(axis: int, start: int) -> None:
    n = np.arange(120.0).reshape(2, 3, 4, 5)
    got = ma.rollaxis(ma.asarray(n), axis, start)
    same(got, np.rollaxis(n, axis, start))
    assert got.base is not None  # a view, as NumPy's


def test_rollaxis_takes_a_list_as_numpy() -> None:
    same(ma.rollaxis([[1, 2, 3]], 1), np.rollaxis(np.array([[1, 2, 3]]), 1))


def test_rollaxis_errors_as_numpy() -> None:
    raises_as_numpy(lambda m: m.rollaxis(m.ones((2, 3, 4)), 3), "out of bounds")
    raises_as_numpy(lambda m: m.rollaxis(m.ones((2, 3, 4)), 1, 5), "start")
    raises_as_numpy(lambda m: m.rollaxis(m.ones((2, 3, 4)), 1, -5), "start")


# ---- x.shape = ... ---------------------------------------------------------------------


def _shape_set(lib: Any, make: Any, value: Any) -> Any:
    a = make(lib)
    a.shape = value
    return a


SHAPE_SETS = [
    (lambda L: L.arange(6), (3, 2)), (lambda L: L.arange(6), 6), (lambda L: L.arange(6), [2, -1]),
    (lambda L: L.arange(6), (4,)), (lambda L: L.arange(6), (-1, -1)), (lambda L: L.arange(6), (2, 0)),
    (lambda L: L.arange(12).reshape(3, 4).T, (12,)), (lambda L: L.arange(12).reshape(3, 4).T, (4, 3)),
    (lambda L: L.arange(12).reshape(3, 4)[:, ::2], (3, 2, 1)), (lambda L: L.zeros((0, 3)), (3, 0, 5)),
    (lambda L: L.arange(24.0).reshape(2, 3, 4)[::-1], (2, 12)), (lambda L: L.ones(()), (1, 1)),
]


@pytest.mark.parametrize(("make", "value"), SHAPE_SETS, ids=[f"case{i}" for i in range(len(SHAPE_SETS))])
def test_setting_shape_as_numpy(make: Any, value: Any) -> None:
    """x.shape = s reshapes in place where NumPy allows it (a view of the
    memory as it lies, strides as NumPy's); AttributeError where only a
    copy could, ValueError for a size that does not match."""
    try:
        want = _shape_set(np, make, value)
    except (ValueError, AttributeError) as e:
        with pytest.raises(type(e)):
            _shape_set(ma, make, value)
        return
    got = _shape_set(ma, make, value)
    assert got.shape == want.shape and got.strides == want.strides
    np.testing.assert_array_equal(np.asarray(got), want)


def test_setting_shape_keeps_views_and_writes_through() -> None:
    a = ma.arange(6)
    v = a[1:]
    a.shape = (2, 3)
    assert v.shape == (5,) and a.shape == (2, 3) and a.ndim == 2 and a.strides == (24, 8)
    a[1, 2] = 50
    assert v[4] == 50 and a.base is None
    with pytest.raises(AttributeError, match="Cannot delete array shape"):
        del a.shape
    with pytest.raises(AttributeError):
        ma.float64(1.0).shape = (1,)  # a scalar's shape is not writable, as NumPy's


def test_earlier_shapes_are_freed_with_the_array() -> None:
    """Each assignment keeps the earlier handle until the array dies (a
    kernel on another thread may read it): then all of it goes."""
    def live() -> tuple[int, int]:
        gc.collect()
        st = ma.allocator_stats()
        return st["live_buffers"], st["live_bytes"]

    before = live()
    a = ma.arange(1000.0)
    for _ in range(100):
        a.shape = (10, 100)
        a.shape = (1000,)
    assert float(ma.sum(a)) == 499500.0
    del a
    assert live() == before


def test_setting_shape_while_another_thread_computes() -> None:
    """A kernel another thread runs on x (GIL released) reads the metadata
    it started with, whatever shape x takes meanwhile: no crash, no wrong
    sum."""
    x = ma.arange(1_000_000.0)
    expected = float(np.arange(1_000_000.0).sum())
    stop = threading.Event()
    errors: list[str] = []

    def compute() -> None:
        while not stop.is_set():
            s = float(ma.sum(x))
            if s != expected:
                errors.append(f"sum {s}")
            y = x + 1.0
            if y.size != 1_000_000:
                errors.append(f"size {y.size}")

    t = threading.Thread(target=compute)
    t.start()
    try:
        for _ in range(300):
            x.shape = (1000, 1000)
            x.shape = (1_000_000,)
            x.shape = (100, 100, 100)
    finally:
        stop.set()
        t.join()
    assert errors == []


# ---- x.resize(...) --------------------------------------------------------------------------


def _resized(lib: Any, make: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    a = make(lib)
    r = a.resize(*args, **kwargs)
    return r, a


RESIZES = [
    (lambda L: L.arange(6), ((2, 4),), {}), (lambda L: L.arange(6), (2, 2), {}), (lambda L: L.arange(6), ([3],), {}),
    (lambda L: L.arange(4.0), ((),), {}), (lambda L: L.arange(4.0), (), {}), (lambda L: L.arange(3), (-1,), {}),
    (lambda L: L.arange(6).reshape(2, 3).T.copy(), (7,), {}), (lambda L: L.zeros((2, 0)), (3,), {}),
    (lambda L: L.arange(6)[::2], (2,), {}), (lambda L: L.arange(6)[1:], (8,), {}),
    (lambda L: L.arange(6, dtype="int8"), (np.int64(3),), {}), (lambda L: L.ones(3, dtype=bool), (5,), {}),
    (lambda L: L.arange(6.0), (0,), {"refcheck": False}),
]


@pytest.mark.parametrize(("make", "args", "kwargs"), RESIZES, ids=[f"case{i}" for i in range(len(RESIZES))])
def test_resize_in_place_as_numpy(make: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """a.resize(...) changes the array itself as NumPy's does: its
    elements in C order, cut short or followed by zeros; NumPy's
    ValueErrors for a view, a strided array or a negative size."""
    try:
        want = _resized(np, make, args, kwargs)
    except ValueError as e:
        with pytest.raises(ValueError, match=re.escape(str(e).split("\n")[0])):
            _resized(ma, make, args, kwargs)
        return
    got = _resized(ma, make, args, kwargs)
    assert got[0] is None and want[0] is None
    assert got[1].shape == want[1].shape and got[1].dtype == want[1].dtype
    np.testing.assert_array_equal(np.asarray(got[1]), want[1])


def test_resize_refuses_memory_others_hold_and_keeps_it_for_them() -> None:
    msg = "cannot resize an array that references or is referenced"
    a = ma.arange(6)
    v = a[1:]
    with pytest.raises(ValueError, match=msg):
        a.resize(8)
    m = memoryview(a)
    with pytest.raises(ValueError, match=msg):
        a.resize(8)
    m.release()
    # refcheck=False: the view keeps the old memory (NumPy's would read freed memory)
    a.resize(3, refcheck=False)
    assert a.tolist() == [0, 1, 2] and v.tolist() == [1, 2, 3, 4, 5]
    # after a shape change the array's own earlier handles do not count as others
    b = ma.arange(6.0)
    b.shape = (2, 3)
    b.resize(2, 4)
    assert b.tolist() == [[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 0.0, 0.0]]
    with pytest.raises(ValueError, match="scalar"):
        ma.float64(1.0).resize(2)
    ro = ma.arange(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        ro.resize(4)


def test_resized_memory_is_freed_with_the_array() -> None:
    def live() -> tuple[int, int]:
        gc.collect()
        st = ma.allocator_stats()
        return st["live_buffers"], st["live_bytes"]

    before = live()
    a = ma.arange(100.0)
    for n in (1000, 10, 5000, 1):
        a.resize(n)
    assert a.tolist() == [0.0]
    del a
    assert live() == before


def test_resize_while_another_thread_computes() -> None:
    """A kernel another thread runs on x keeps reading the memory it
    started with, whatever x is resized to meanwhile: it sees ones, and the
    zeros a resize adds until they are filled (a sum between the two
    sizes), never freed or foreign memory."""
    x = ma.ones(1_000_000)
    stop = threading.Event()
    errors: list[str] = []

    def compute() -> None:
        while not stop.is_set():
            s = float(ma.sum(x))
            if not (s.is_integer() and 500_000.0 <= s <= 1_000_000.0):
                errors.append(f"sum {s}")

    t = threading.Thread(target=compute)
    t.start()
    try:
        for _ in range(100):
            x.resize(500_000)
            x[...] = 1.0
            x.resize(1_000_000)
            x[...] = 1.0
    finally:
        stop.set()
        t.join()
    assert errors == []
