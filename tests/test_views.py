"""Views against NumPy: chains of basic indices, the attributes, flags and
base of a view, read-only views, copy orders, and the C paths of .T,
transpose, permute_dims and reshape.  (The view functions themselves are
tested with their chapter, test_manipulation.py.)

Every view must have NumPy's shape, byte strides and values, and start at
the same byte offset into the shared buffer as NumPy's view does.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from array_strategies import (
    array_and_slice_chain,
    assert_like_numpy,
    assert_view_like_numpy,
    distinct_values,
    dtypes,
    examples,
    np_dtype,
    np_view,
    shapes,
    to_ma,
    values_of,
    view_key,
)
from hypothesis import given
from hypothesis import strategies as st

import minarray as ma

SETTINGS = examples(80)


@SETTINGS
@given(array_and_slice_chain())
def test_slice_chains_match_numpy(case: tuple[np.ndarray, list[Any]]) -> None:
    arr, keys = case
    x = to_ma(arr)
    view, nview = x, arr
    for key in keys:
        view, nview = view[view_key(key)], np_view(nview, key)
    assert_view_like_numpy(view, x, nview, arr)


@SETTINGS
@given(array_and_slice_chain(numpy_only=True))
def test_views_share_memory_with_numpy(case: tuple[np.ndarray, list[Any]]) -> None:
    """A view seen through NumPy is the same memory: a write through it
    shows in the minarray owner."""
    arr, keys = case
    x = to_ma(arr)
    view = x
    for key in keys:
        view = view[view_key(key)]
    owner = np.asarray(x)
    seen = np.asarray(view)
    assert np.shares_memory(owner, seen) or seen.size == 0
    if seen.size:
        seen[...] = arr.flat[0] if arr.dtype != bool else True
        expected = arr.copy()
        ev = expected
        for key in keys:
            ev = np_view(ev, key)
        ev[...] = seen.flat[0]
        np.testing.assert_array_equal(np.asarray(x), expected)


def test_view_attributes() -> None:
    x = ma.arange(24, dtype=ma.int16).reshape(2, 3, 4)
    assert x.dtype == ma.int16
    assert x.shape == (2, 3, 4)
    assert x.strides == (24, 8, 2)
    assert x.ndim == 3 and x.size == 24 and x.itemsize == 2 and x.nbytes == 48
    assert x.device == "cpu"
    v = x[1, ::2, ::-1]
    assert v.shape == (2, 4) and v.strides == (16, -2)
    assert v.base is x.base or v.base is x
    assert x.T.shape == (4, 3, 2) and x.T.strides == (2, 8, 24)
    assert x.mT.shape == (2, 4, 3) and x.mT.strides == (24, 2, 8)
    with pytest.raises(ValueError, match="2 dimensions"):
        _ = ma.arange(3).mT


def test_flags() -> None:
    x = ma.zeros((3, 4))
    assert x.flags.c_contiguous and not x.flags.f_contiguous
    assert x.flags["C_CONTIGUOUS"] and x.flags["WRITEABLE"]
    assert x.flags.owndata
    t = x.T
    assert t.flags.f_contiguous and not t.flags.c_contiguous and not t.flags.owndata
    s = x[:, ::2]
    assert not s.flags.c_contiguous and not s.flags.f_contiguous
    col = ma.zeros((3, 1))
    assert col.flags.c_contiguous and col.flags.f_contiguous
    b = ma.broadcast_to(ma.zeros(3), (2, 3))
    assert not b.flags.writeable
    with pytest.raises(KeyError):
        x.flags["NOPE"]
    for make in (lambda m: m.zeros((2, 3)), lambda m: m.zeros((2, 3))[:, ::2], lambda m: m.zeros((2, 3)).T,
                 lambda m: m.broadcast_to(m.zeros(3), (2, 3))):
        assert repr(make(ma).flags) == repr(make(np).flags)  # NumPy's six lines, word for word


@SETTINGS
@given(dtypes(), shapes(max_dims=4))
def test_flags_match_numpy(dtype: ma.DType, shape: tuple[int, ...]) -> None:
    arr = distinct_values(shape, dtype)
    x = to_ma(arr)
    pairs = [(x, arr), (x.T, arr.T)]
    if arr.ndim:
        pairs += [(x[..., ::2], arr[..., ::2]), (x[::-1], arr[::-1])]
    for xs, ns in pairs:
        assert xs.flags.c_contiguous == ns.flags.c_contiguous, (xs.shape, xs.strides)
        assert xs.flags.f_contiguous == ns.flags.f_contiguous, (xs.shape, xs.strides)


def test_base_semantics() -> None:
    x = ma.arange(10)
    assert x.base is None
    v = x[2:]
    assert v.base is x
    vv = v[::2]
    assert vv.base is x  # as NumPy: the base is the array owning the memory
    c = v.copy()
    assert c.base is None
    n = np.arange(4)
    w = ma.asarray(n)
    assert w.base is n
    assert w[1:].base is w  # NumPy stops collapsing at a foreign owner
    assert w[1:][::2].T.base is w
    nb = np.frombuffer(b"abcd", np.uint8)  # NumPy does the same
    assert nb[1:].base is nb


# ---- read-only views, values and copy orders ----------------------------------

def test_readonly_propagates_to_views() -> None:
    b = ma.broadcast_to(ma.arange(3), (2, 3))
    assert not b[0].flags.writeable
    assert not b.T.flags.writeable
    r = b.reshape(6)  # stride-0 axis: not a view, so a fresh writeable copy
    assert r.flags.writeable and r.base is not b.base
    assert not b[None].reshape(2, 3).flags.writeable  # a view stays read-only
    with pytest.raises(ValueError, match="read-only"):
        b[0][1] = 5
    # a copy of a read-only array is writeable
    c = b.copy()
    c[0, 0] = 7
    assert c[0, 0].item() == 7


def test_values_of_views_through_numpy_dtype() -> None:
    for d in (ma.int8, ma.float16, ma.complex64):
        arr = distinct_values((3, 4), d)
        x = to_ma(arr)
        np.testing.assert_array_equal(values_of(x[::-1, 1::2]), arr[::-1, 1::2])
        assert np_dtype(x.dtype) == arr.dtype


@SETTINGS
@given(array_and_slice_chain(max_steps=2), st.sampled_from(["C", "F", "A", "K"]))
def test_copy_orders_like_numpy(case: tuple[np.ndarray, list[Any]], order: str) -> None:
    arr, keys = case
    x = to_ma(arr)
    v, nv = x, arr
    for key in keys:
        v, nv = v[view_key(key)], np_view(nv, key)
    c, nc = v.copy(order=order), nv.copy(order=order)
    assert_like_numpy(c, nc)
    assert c.base is None and c.flags.owndata
    assert c.flags.c_contiguous == nc.flags.c_contiguous and c.flags.f_contiguous == nc.flags.f_contiguous
    with pytest.raises(ValueError, match="order"):
        v.copy(order="X")


# ---- .T, transpose, permute_dims and reshape ----------------------------------
# One implementation each, in C (csrc/py/views.c); every spelling of the axes
# or of the dims (tuples, lists, NumPy integers) must give the same view.

def _same_view(a: ma.NDArray, b: ma.NDArray) -> None:
    assert type(a) is type(b) is ma.NDArray
    assert a.shape == b.shape and a._strides == b._strides  # length-1 axes included
    assert a.dtype is b.dtype and a.data_ptr == b.data_ptr
    assert a.base is b.base and a.flags.writeable == b.flags.writeable


def _layouts() -> list[np.ndarray]:
    base = np.arange(120, dtype=np.float32).reshape(2, 3, 4, 5)
    return [base, base[:, ::-1, 1:3], base[1:2, :, :1], base.transpose(3, 1, 0, 2)[::2],
            np.zeros((0, 3, 1), np.int16), np.arange(6, dtype=np.uint8)]


@pytest.mark.parametrize("arr", _layouts(), ids=lambda a: f"{a.shape}{a.strides}")
@pytest.mark.parametrize("readonly", [False, True])
def test_permute_matches_numpy(arr: np.ndarray, readonly: bool) -> None:
    src = arr.view()  # imported as it is: any strides, base the NumPy array
    src.setflags(write=not readonly)
    owner = ma.asarray(src)
    x = owner[...]  # a view of the import: its views' base is still the import
    n = x.ndim
    perms = [tuple(range(n - 1, -1, -1)), tuple(range(n)), tuple((i + 1) % n for i in range(n)),
             tuple(i - n for i in range(n))]
    for axes in perms:
        v = ma.permute_dims(x, axes)
        _same_view(v, ma.permute_dims(x, list(axes)))  # a list
        _same_view(x.transpose(*axes), v)
        _same_view(x.transpose(axes), v)
        assert_like_numpy(v, src.transpose(axes))
        assert v.base is owner and v.flags.writeable == (not readonly)
    _same_view(x.T, ma.permute_dims(x, list(range(n - 1, -1, -1))))
    _same_view(x.T, x.transpose())
    assert_like_numpy(x.T, src.T)


@pytest.mark.parametrize("arr", _layouts(), ids=lambda a: f"{a.shape}{a.strides}")
@pytest.mark.parametrize("readonly", [False, True])
def test_reshape_matches_numpy(arr: np.ndarray, readonly: bool) -> None:
    src = arr.view()  # imported as it is: any strides, base the NumPy array
    src.setflags(write=not readonly)
    x = ma.asarray(src)
    assert x.base is src
    size = x.size
    news = [x.shape, (size,), (-1,), (1, size), (size, 1, 1), (-1, 1), (1, -1, 1)]
    if size % 2 == 0 and size:
        news += [(2, -1), (-1, 2, 1)]
    for new in news:
        r, nr = x.reshape(new), src.reshape(new)
        assert_like_numpy(r, nr)
        if not np.shares_memory(nr, src) and size:
            assert r.base is not x and r.flags.writeable  # a copy, as in NumPy
            continue
        _same_view(r, x.reshape(*new))
        _same_view(r, ma.reshape(x, new))
        _same_view(r, ma.reshape(x, list(new)))  # a list
        assert r.base is x and r.flags.writeable == (not readonly)
        rr = r.reshape(r.shape)  # a view of a view: same strides, same base
        assert rr._strides == r._strides
        _same_view(rr, ma.reshape(r, list(r.shape)))
        assert rr.base is x
