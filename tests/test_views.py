"""Views: basic indexing and the view-making functions against NumPy.

Every view must have NumPy's shape, byte strides and values, and start at
the same byte offset into the shared buffer as NumPy's view does.
"""

from __future__ import annotations

import math
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
        view, nview = view[key], np_view(nview, key)
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
        view = view[key]
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
    assert x.flags["C_CONTIGUOUS"] and x.flags["writeable"]
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
    text = repr(x.flags)
    assert "C_CONTIGUOUS : True" in text and "WRITEABLE : True" in text


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


# ---- reshape ----------------------------------------------------------------

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
    v, nv = x[key], np_view(arr, key)
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
        v, nv = v[key], np_view(nv, key)
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


# ---- other view functions ------------------------------------------------------

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
    with pytest.raises(ValueError, match="its size is 2"):
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
        v, nv = v[key], np_view(nv, key)
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
        v, nv = v[key], np_view(nv, key)
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
