"""Indexing (minarray/_indexing.py) against NumPy: integer-array and
boolean-mask ("advanced") indexing return copies with NumPy's values and
shapes (broadcast axes placed by NumPy's rule for adjacent and
non-adjacent advanced indices); ``__setitem__`` takes scalars and arrays,
broadcasting and casting; errors are NumPy's types with clear messages.
take and take_along_axis, and NumPy's indexing routines (unravel_index,
put, place, select, compress...), are here too."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
from array_strategies import (
    array_and_slice_chain,
    assert_equal_values,
    assert_like_numpy,
    assert_result,
    distinct_values,
    dtypes,
    examples,
    np_dtype,
    np_view,
    shapes,
    to_ma,
    values_of,
    view_key,
    viewed,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from index_routes import answered_in_c
from numpy_errors import raises_as_numpy
from numpy_oracle import both, same

import minarray as ma
from minarray._native import core

SETTINGS = examples(100)


@st.composite
def advanced_index(draw: st.DrawFn, shape: tuple[int, ...]) -> Any:
    """A NumPy index for ``shape`` mixing integer arrays (broadcasting
    against each other), boolean masks over one or more axes, integers,
    slices, None and ``...``, with at least one array."""
    bshape = draw(shapes(max_dims=2, max_side=3))
    entries: list[Any] = []
    dim = 0
    nd = len(shape)
    limit = draw(st.integers(1, nd))
    used_ellipsis = False
    n_none = 0
    while dim < limit:
        c = draw(st.integers(0, 11))
        if c == 0 and n_none < 2:
            n_none += 1
            entries.append(None)
            continue
        if c == 1 and not used_ellipsis:
            used_ellipsis = True
            entries.append(Ellipsis)
            remaining = draw(st.integers(0, limit - dim))
            dim, limit = nd - remaining, nd
            continue
        n = shape[dim]
        if 2 <= c <= 5 and n > 0:
            # an integer array whose shape broadcasts to bshape
            k = draw(st.integers(0, len(bshape)))
            sub = tuple(draw(st.sampled_from([1, b])) for b in bshape[len(bshape) - k:])
            vals = draw(st.lists(st.integers(-n, n - 1), min_size=math.prod(sub), max_size=math.prod(sub)))
            entries.append(np.array(vals, dtype=draw(st.sampled_from([np.int64, np.int32, np.uint8])) if all(
                v >= 0 for v in vals) else np.int64).reshape(sub))
            dim += 1
        elif c <= 7:
            m = draw(st.integers(1, min(2, limit - dim)))
            mshape = shape[dim:dim + m]
            bits = draw(st.lists(st.booleans(), min_size=math.prod(mshape), max_size=math.prod(mshape)))
            entries.append(np.array(bits, dtype=bool).reshape(mshape))
            dim += m
        elif c == 8 and n > 0:
            entries.append(draw(st.integers(-n, n - 1)))
            dim += 1
        else:
            entries.append(slice(draw(st.none() | st.integers(-n, n)), draw(st.none() | st.integers(-n, n)),
                                 draw(st.sampled_from([None, 1, 2, -1]))))
            dim += 1
    if not any(isinstance(e, np.ndarray) for e in entries):
        n = shape[0]
        if n == 0:
            entries = [np.zeros(0, dtype=np.int64)]
        else:
            entries = [np.array([n - 1, 0, -n], dtype=np.int64)]
    return tuple(entries)


def _as_ma_key(key: Any, kind: str) -> Any:
    """The same index with its NumPy arrays as lists, NDArrays or left as NumPy arrays."""
    def conv(e: Any) -> Any:
        if isinstance(e, np.ndarray):
            if kind == "list" and e.ndim > 0 and e.size > 0:
                return e.tolist()
            if kind == "ma":
                return to_ma(e)
        return e
    return tuple(conv(e) for e in key)


@SETTINGS
@given(dtypes(), shapes(min_dims=1, max_dims=4, max_side=4), st.data())
def test_advanced_getitem_matches_numpy(dtype: ma.DType, shape: tuple[int, ...], data: st.DataObject) -> None:
    arr = distinct_values(shape, dtype)
    x = to_ma(arr)
    key = data.draw(advanced_index(shape))
    kind = data.draw(st.sampled_from(["numpy", "list", "ma"]))
    mkey = _as_ma_key(key, kind)
    try:
        expected = arr[key]
    except IndexError:
        with pytest.raises(IndexError):
            x[mkey]
        return
    got = x[mkey]
    assert_like_numpy(got, np.asarray(expected), check_strides=False)
    # a copy (its memory is not x's), unless every array is a 0-d integer
    # array: those are plain integers, so the result is a view
    arrays = [e for e in key if isinstance(e, np.ndarray)]
    if got.size and any(e.ndim or e.dtype == bool for e in arrays):
        assert got.data_ptr < x.data_ptr or got.data_ptr >= x.data_ptr + x.nbytes


@SETTINGS
@given(dtypes(numpy_only=True), shapes(min_dims=1, max_dims=4, max_side=4), st.data())
def test_advanced_setitem_matches_numpy(dtype: ma.DType, shape: tuple[int, ...], data: st.DataObject) -> None:
    arr = distinct_values(shape, dtype)
    x = to_ma(arr)
    key = data.draw(advanced_index(shape))
    try:
        target = arr[key]
    except IndexError:
        with pytest.raises(IndexError):
            x[_as_ma_key(key, "ma")] = 0
        return
    # NumPy leaves the order of repeated writes to one element open: use
    # one value when the index hits an element twice.
    hits = np.zeros(shape, dtype=np.int64)
    np.add.at(hits, key, 1)
    if hits.max(initial=0) > 1 or data.draw(st.booleans()):
        value: Any = distinct_values((), dtype).item() if dtype is not ma.bool else True
    else:
        tshape = target.shape
        k = data.draw(st.integers(0, len(tshape)))
        vshape = tuple(data.draw(st.sampled_from([1, n])) for n in tshape[len(tshape) - k:])
        value = distinct_values(vshape, dtype)[::-1] if vshape else distinct_values(vshape, dtype)
        if data.draw(st.booleans()):
            value = to_ma(value.copy())
    expected = arr.copy()
    expected[key] = np.asarray(value) if isinstance(value, ma.NDArray) else value
    x[_as_ma_key(key, data.draw(st.sampled_from(["numpy", "list", "ma"])))] = value
    assert_equal_values(values_of(x), expected)


@SETTINGS
@given(dtypes(), shapes(min_dims=1, max_dims=3, max_side=4), st.data())
def test_basic_setitem_broadcasts_and_casts_like_numpy(dtype: ma.DType, shape: tuple[int, ...],
                                                       data: st.DataObject) -> None:
    from array_strategies import basic_index

    arr = distinct_values(shape, dtype)
    x = to_ma(arr)
    key = data.draw(basic_index(shape))
    target = np_view(arr, key)
    src_dtype = data.draw(dtypes())
    k = data.draw(st.integers(0, target.ndim))
    vshape = tuple(data.draw(st.sampled_from([1, n])) for n in target.shape[target.ndim - k:])
    if data.draw(st.booleans()):
        vshape = (1, *vshape)  # NumPy accepts extra leading axes of size 1
    value = distinct_values(vshape, src_dtype)
    expected = arr.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np_view(expected, key)[...] = value.astype(np_dtype(dtype))
    x[key] = to_ma(value)
    mask = np.ones(arr.shape, dtype=bool)
    if dtype.kind in "iu" and src_dtype.kind in "fc":
        return  # float -> int of out-of-range values is platform behaviour
    assert_equal_values(values_of(x)[mask], expected[mask])


def test_integer_indices_with_arrays_count_as_advanced() -> None:
    arr = np.arange(60).reshape(3, 4, 5)
    x = to_ma(arr)
    for key in [(0, slice(None), [1, 2]), (slice(None), 0, [1, 2]), ([0, 1], slice(None), 0),
                (1, [0, 2], slice(None)), (None, [0, 1], [0, 1]), ([0], None, [0]),
                ([[0], [1]], slice(None), [0, 1, 2]), (Ellipsis, [0, 1], None),
                ([0, 1], Ellipsis, [0, 1]), (slice(None), [[0, 1]], [[1], [2]])]:
        assert_like_numpy(x[key], arr[key], check_strides=False)


def test_advanced_result_layout_like_numpy() -> None:
    arr = np.zeros((3, 4, 5))
    x = ma.zeros((3, 4, 5))
    for key in [(slice(None), [0, 1]), ([0, 1],), (slice(None), slice(None), [0, 1]), ([0, 1], slice(None), [0, 1])]:
        assert x[key].strides == arr[key].strides


def test_bool_masks() -> None:
    arr = np.arange(24).reshape(2, 3, 4)
    x = to_ma(arr)
    m = arr % 3 == 0
    assert_like_numpy(x[to_ma(m)], arr[m])
    assert_like_numpy(x[m], arr[m])
    m2 = m[0]
    assert_like_numpy(x[:, m2], arr[:, m2])
    assert_like_numpy(x[1, m2], arr[1, m2])
    m1 = np.array([True, False, True])
    assert_like_numpy(x[:, m1, 1:], arr[:, m1, 1:])
    assert_like_numpy(x[True], arr[True])
    assert_like_numpy(x[False], arr[False])
    assert_like_numpy(x[np.True_], arr[np.True_])
    assert_like_numpy(x[ma.asarray(True)], arr[np.array(True)])
    s = ma.asarray(5)
    assert s[True].tolist() == [5] and s[False].shape == (0,)
    x[to_ma(m)] = -1
    arr[m] = -1
    assert values_of(x).tolist() == arr.tolist()
    x[to_ma(arr < 0)] = ma.asarray([7, 8, 9, 10, 11, 12, 13, 14])
    arr[arr < 0] = [7, 8, 9, 10, 11, 12, 13, 14]
    assert values_of(x).tolist() == arr.tolist()


def test_index_arrays_of_every_integer_dtype() -> None:
    arr = np.arange(10) * 10
    x = to_ma(arr)
    for d in (ma.int8, ma.int16, ma.int32, ma.int64, ma.uint8, ma.uint16, ma.uint32, ma.uint64):
        idx = ma.asarray([3, 0, 9], dtype=d)
        assert x[idx].tolist() == [30, 0, 90]
    assert x[ma.asarray([-1, -10])].tolist() == [90, 0]
    assert x[[]].shape == (0,) and x[[]].dtype is ma.int64
    assert x[np.array([], dtype=np.int64)].shape == (0,)
    assert x[[[]]].shape == (1, 0)


def test_zero_d_and_scalar_indices_are_integers() -> None:
    x = ma.arange(12).reshape(3, 4)
    for k in (1, np.int64(1), np.uint8(1), ma.asarray(1), ma.asarray(1, dtype=ma.uint16), np.array(1)):
        v = x[k]
        assert v.shape == (4,) and v.base is x.base  # a view, not a copy
        assert v.tolist() == [4, 5, 6, 7]
    assert x[np.int32(-1), np.int8(3)].item() == 11


def test_index_errors() -> None:
    x = ma.arange(12).reshape(3, 4)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        x[3]
    with pytest.raises(IndexError, match="index -5 is out of bounds for axis 1 with size 4"):
        x[0, -5]
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 3"):
        x[[0, 3]]
    with pytest.raises(IndexError, match="out of bounds for axis 1 with size 4"):
        x[:, [4]]
    with pytest.raises(IndexError, match="out of bounds for axis 1 with size 4"):
        x[[0], [-5]]
    with pytest.raises(IndexError, match="too many indices"):
        x[0, 0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        x[..., ...]
    with pytest.raises(IndexError, match="only integers, slices"):
        x[1.5]
    with pytest.raises(IndexError, match="only integers, slices"):
        x["a"]
    with pytest.raises(IndexError, match="only integers, slices"):
        x[object()]
    with pytest.raises(IndexError, match=r"^arrays used as indices must be of integer \(or boolean\) type$"):
        x[ma.asarray([0.5])]
    with pytest.raises(IndexError, match=r"^arrays used as indices must be of integer \(or boolean\) type$"):
        x[np.array([1.0])]
    with pytest.raises(IndexError, match="only integers, slices"):
        x[[0.5]]  # a sequence of floats is no index at all (NumPy)
    with pytest.raises(IndexError, match="shape mismatch"):
        x[[0, 1], [0, 1, 2]]
    with pytest.raises(IndexError, match=r"boolean index did not match indexed array along axis 1; size of axis is 4"):
        x[:, np.ones(3, dtype=bool)]
    with pytest.raises(IndexError, match="boolean index did not match"):
        x[np.ones((3, 3), dtype=bool)]
    with pytest.raises(IndexError, match="too many indices"):
        x[np.ones((3, 4, 1), dtype=bool)]
    with pytest.raises(IndexError, match="too many indices"):
        ma.asarray(1)[0]
    with pytest.raises(IndexError, match="only integers, slices"):
        x[[0, "a"]]


def test_setitem_basic_values() -> None:
    x = ma.zeros((3, 4), dtype=ma.int32)
    x[0] = 5
    x[1, 1:3] = [7, 8]
    x[2] = np.arange(4)
    x[:, 3] = ma.asarray([1.9, 2.9, 3.9])  # cast (truncation toward zero), as NumPy
    x[..., 0] = True
    x[()] = x  # same memory: no change
    assert x.tolist() == [[1, 5, 5, 1], [1, 7, 8, 2], [1, 1, 2, 3]]
    x[1:, :2] = x[:2, 2:]  # overlapping source and destination
    assert x.tolist() == [[1, 5, 5, 1], [5, 1, 8, 2], [8, 2, 2, 3]]
    x[np.int64(0), 0] = np.float32(9.5)
    assert x[0, 0].item() == 9
    f = ma.zeros(3)
    f[1] = np.float16(1.5)
    f[2] = ma.asarray(2.5, dtype=ma.bfloat16)
    assert f.tolist() == [0.0, 1.5, 2.5]
    c = ma.zeros(2, dtype=ma.complex64)
    c[0] = 1 + 2j
    c[1:] = [3j]
    assert c.tolist() == [1 + 2j, 3j]
    b = ma.zeros(3, dtype=ma.bool)
    b[0] = 5
    b[1] = 0.5
    b[2] = 1j
    assert b.tolist() == [True, True, True]


def test_setitem_scalar_rules_like_numpy() -> None:
    x = ma.zeros(3, dtype=ma.int32)
    n = np.zeros(3, dtype=np.int32)
    for v in (1.5, -2.7, True, 2**31 - 1):
        x[0] = v
        n[0] = v
        assert x[0].item() == n[0]
    with pytest.raises(OverflowError, match="out of bounds for int32"):
        x[0] = 2**31
    with pytest.raises(OverflowError, match="out of bounds for int32"):
        x[0] = 3e9
    with pytest.raises(ValueError, match="NaN"):
        x[0] = math.nan
    with pytest.raises(ValueError, match="NaN"):
        x[:] = math.nan
    with pytest.raises(OverflowError, match="infinity"):
        x[0] = -math.inf
    with pytest.raises(TypeError, match="complex"):
        ma.zeros(2)[0] = 1j
    with pytest.raises(TypeError, match="complex"):
        ma.zeros(2, dtype=ma.uint8)[:] = 1j
    with pytest.raises(OverflowError, match="out of bounds for uint8"):
        ma.zeros(2, dtype=ma.uint8)[0] = -1
    with pytest.raises(TypeError):
        x[0] = "5"
    with pytest.raises(TypeError):
        x[0] = None
    assert x.tolist() == [2**31 - 1, 0, 0]


def test_setitem_errors() -> None:
    x = ma.zeros((3, 4))
    with pytest.raises(ValueError, match=r"could not broadcast input array from shape \(3,\) into shape \(3, 4\)"):
        x[...] = ma.zeros(3)
    with pytest.raises(ValueError, match=r"from shape \(2, 4\) into shape \(4,\)"):
        x[0] = ma.zeros((2, 4))
    with pytest.raises(ValueError, match="could not broadcast"):
        x[[0, 1]] = ma.zeros((3, 4))
    with pytest.raises(IndexError, match="out of bounds"):
        x[5] = 1
    with pytest.raises(IndexError, match="out of bounds"):
        x[[5]] = 1
    r = ma.broadcast_to(ma.zeros(4), (3, 4))
    with pytest.raises(ValueError, match="read-only"):
        r[0, 0] = 1
    with pytest.raises(ValueError, match="read-only"):
        r[[0]] = 1
    with pytest.raises(ValueError, match="read-only"):
        r[...] = ma.ones(4)
    n = np.zeros(3)
    n.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        ma.asarray(n)[0] = 1


def test_getitem_views_do_not_copy() -> None:
    x = ma.arange(24).reshape(2, 3, 4)
    for key in (0, (1, 2), slice(None, None, -1), (Ellipsis, 1), (None, 0, None), (slice(1, 2), 0, slice(None, 1))):
        v = x[key]
        assert v.base is x.base
        assert x.data_ptr <= v.data_ptr < x.data_ptr + x.nbytes
    assert x[0, 1, 2, ...].shape == () and x[0, 1, 2, ...].base is x.base


def test_integer_keys_read_scalars() -> None:
    """A key of integers alone reads NumPy's scalar: a read-only copy, which
    a later write to the array does not change (so a swap through a
    temporary works); with ``...`` the same key is a 0-d view, as in NumPy."""
    arr = np.arange(24.0).reshape(2, 3, 4)
    x = to_ma(arr)
    for key in ((0, 1, 2), (-1, -1, -1), (1, np.int64(2), 3), (0, 1, ma.asarray(2))):
        s = x[key]
        nkey = tuple(np.asarray(k) if isinstance(k, ma.NDArray) else k for k in key)
        assert type(s) is not ma.NDArray and isinstance(s, ma.NDArray) and s.shape == ()
        assert repr(s) == repr(arr[nkey]) and s == arr[nkey] and s.base is None
        assert not s.flags.writeable and s.data_ptr != x[(*key, Ellipsis)].data_ptr
    t = x[0, 0, 0]
    x[0, 0, 0] = x[0, 0, 1]
    x[0, 0, 1] = t
    assert x[0, 0, :2].tolist() == [1.0, 0.0]
    z = ma.asarray(7.5)
    assert type(z[()]) is type(x[0, 0, 0]) and z[()] == 7.5 and z[()].base is None
    assert [repr(v) for v in ma.asarray([1, 2])] == [repr(v) for v in np.array([1, 2])]


@SETTINGS
@given(array_and_slice_chain(max_steps=2), st.data())
def test_advanced_indexing_of_views_matches_numpy(case: tuple[np.ndarray, list[Any]], data: st.DataObject) -> None:
    """Advanced indices into strided, reversed and broadcast views (negative
    byte offsets from element 0 included), read and written."""
    arr, keys = case
    x = to_ma(arr)
    v, nv = x, arr
    for key in keys:
        v, nv = v[view_key(key)], np_view(nv, key)
    if nv.ndim == 0:
        return
    key = data.draw(advanced_index(nv.shape))
    mkey = _as_ma_key(key, data.draw(st.sampled_from(["numpy", "list", "ma"])))
    try:
        expected = nv[key]
    except IndexError:
        with pytest.raises(IndexError):
            v[mkey]
        return
    assert_like_numpy(v[mkey], np.asarray(expected), check_strides=False)
    if arr.dtype != np_dtype(ma.bfloat16):
        fill = distinct_values((), x.dtype)
        nv[key] = fill
        v[mkey] = to_ma(fill)
        assert_equal_values(values_of(x), arr)


def test_slicing_a_length_one_axis_keeps_its_stride() -> None:
    # NumPy doubles the stride each time until it wraps; minarray keeps it,
    # so the view still crosses to libraries that check strides.
    x = ma.arange(6, dtype=ma.float64).reshape(3, 2)[1:2]
    for _ in range(70):
        x = x[::2]
    assert x.shape == (1, 2) and x.strides == (16, 8)
    assert x.tolist() == [[2.0, 3.0]]
    assert np.from_dlpack(x).tolist() == [[2.0, 3.0]]
    assert x[::-3].strides == (16, 8)


# ---- the C path for basic keys ----------------------------------------------
# ints, slices, None and ... (alone or in a tuple) are answered in C; the
# general route (indexing.getitem, handed the parsed key) builds its views
# through the same C builder.  Both must agree on everything a view is made of.

def _same_view(a: ma.NDArray, b: ma.NDArray) -> None:
    assert type(a) is type(b) is ma.NDArray
    assert a.shape == b.shape and a._strides == b._strides  # length-1 axes included
    assert a.dtype is b.dtype
    assert a.data_ptr == b.data_ptr
    assert a.base is b.base
    assert a.flags.writeable == b.flags.writeable


@SETTINGS
@given(array_and_slice_chain())
def test_c_getitem_matches_the_python_path(case: tuple[np.ndarray, list[Any]]) -> None:
    from minarray import _indexing

    arr, keys = case
    v = to_ma(arr)
    for key in keys:
        key = view_key(key)  # (integers alone read a scalar, a copy: test_integer_keys_read_scalars)
        fast = v[key]
        assert answered_in_c(v, key)  # the C path answered
        _same_view(fast, _indexing.getitem(v, core.parse_index(v, key)))
        v = fast


@pytest.mark.parametrize("key", [
    0, -1, 2, slice(None), slice(None, None, -1), slice(5, 1, -2), slice(10, 20), slice(-100, 100, 3),
    slice(1, 1), (1, 2), (-1, slice(None, None, -1)), (Ellipsis, 0), (None,), None, Ellipsis, (),
    (None, Ellipsis, None), (0, None, slice(1, 3), Ellipsis), (slice(0, 1), slice(0, 0)),
    (slice(2**70), -3), (slice(-(2**70), None, 2**70),), (Ellipsis, slice(None, None, -(2**65))),
])
def test_basic_keys_like_numpy_on_views_and_read_only_imports(key: Any) -> None:
    base = np.arange(60, dtype=np.int32).reshape(3, 4, 5)
    for arr in (base, base[:, ::-2, 1:], base.transpose(2, 0, 1)[::2]):
        ro = arr.view()
        ro.setflags(write=False)
        # an owned copy, and an import of the read-only strided NumPy view
        for x, src in ((to_ma(arr), np.ascontiguousarray(arr)), (ma.asarray(ro), ro)):
            try:
                nv = np_view(src, key)
            except IndexError as exc:
                with pytest.raises(IndexError, match=str(exc)):
                    x[key]
                continue
            v = x[key]
            assert_like_numpy(v, nv)
            assert v.data_ptr - x.data_ptr == np_offset_from(nv, src)
            assert v.base is x  # x owns its memory or wraps the foreign owner
            assert v.flags.writeable == (src is not ro)
            if src is ro and v.size:
                with pytest.raises(ValueError, match="read-only"):
                    v[...] = 0
            w = v[...]  # a view of a view: the base stays the first array
            assert w.base is x and w.flags.writeable == v.flags.writeable


def np_offset_from(v: np.ndarray, owner: np.ndarray) -> int:
    return int(v.__array_interface__["data"][0] - owner.__array_interface__["data"][0])


def test_c_getitem_on_zero_d_arrays() -> None:
    x = ma.asarray(7.5)
    for key in (Ellipsis, None, (None, Ellipsis)):  # (x[()] is a scalar: test_integer_keys_read_scalars)
        assert_like_numpy(x[key], np.asarray(7.5)[key])
        assert x[key].base is x
    with pytest.raises(IndexError, match="too many indices"):
        x[0]
    with pytest.raises(IndexError, match="too many indices"):
        x[0:1]


@pytest.mark.parametrize("key", [
    True, False, np.int64(1), np.intp(-1), np.True_, [True, False, True], [[0]], (0, [1]), np.array([1, 0]),
    (ma.asarray([[2]]), slice(None)), ma.asarray(1),
    (True, 0), (np.int32(0), slice(None)), (slice(None), [[0]]), (ma.asarray([0, 1]), ma.asarray([1])),
    (slice(None), ma.asarray([[1]])), (slice(None), [True, False, True, True]), (0, ma.asarray([1])),
])
def test_keys_of_every_spelling_like_numpy(key: Any) -> None:
    """bool is an int subclass (NumPy treats it as a mask), NumPy integers
    are ints, lists and NumPy arrays are index arrays: whichever route
    answers, the answer is NumPy's."""
    arr = np.arange(12, dtype=np.float64).reshape(3, 4)
    x = to_ma(arr)
    nkey = tuple(np.asarray(k) if isinstance(k, ma.NDArray) else k for k in key) if isinstance(key, tuple) \
        else (np.asarray(key) if isinstance(key, ma.NDArray) else key)
    assert_like_numpy(x[key], np.asarray(arr[nkey]), check_strides=False)


def test_c_getitem_errors_are_the_python_path_errors() -> None:
    from minarray import _indexing

    x = ma.arange(12).reshape(3, 4)
    for key in ((slice(None), 2**70), (None, 1, ..., -(2**64)), ([0], 2**64)):  # no intp holds them (NumPy)
        with pytest.raises(IndexError, match="only integers, slices"):
            x[key]
    for key in (3, -4, (0, 4), (0, -5), (..., 9)):
        with pytest.raises(IndexError) as fast:
            x[key]
        with pytest.raises(IndexError) as slow:
            _indexing.getitem(x, core.parse_index(x, key))
        assert str(fast.value) == str(slow.value)
        assert "is out of bounds for axis" in str(fast.value)
    # errors of the key itself, raised by the one parse
    for key, exc, match in (((0, 0, 0), IndexError, "too many indices"), ((..., ...), IndexError, "single ellipsis"),
                            (slice(None, None, 0), ValueError, "slice step cannot be zero"),
                            (slice(1.5), TypeError, "slice indices must be integers")):
        with pytest.raises(exc, match=match):
            x[key]
        with pytest.raises(exc, match=match):
            core.parse_index(x, key) if exc is IndexError else core.basic_view(x, key)


def test_strides_beyond_the_address_space_are_refused_at_every_door() -> None:
    """Strides near 2**63 over a one-byte buffer (as_strided can make
    them): no door lets such an array in, since even a copy would read
    beyond memory (NumPy's own copy of it crashes).  Each raises a clear
    BufferError instead, and so asarray does not try to copy it."""
    arr = np.lib.stride_tricks.as_strided(np.zeros(1, np.int8), shape=(3,), strides=(2**62,))
    for door in (ma.asarray, ma.from_numpy, ma.from_dlpack):
        with pytest.raises(BufferError, match="address space"):
            door(arr)
    with pytest.raises(BufferError, match="address space"):
        ma._native.core.numpy_asarray(arr)


@pytest.mark.parametrize("xs,ks", [((2, 3), (2, 0)), ((2, 3), (0, 3)), ((2, 3), (0, 0)), ((2, 3, 4), (0, 3)),
                                   ((0, 1), (0, 0)), ((2, 3), (0,))])
def test_a_mask_axis_of_length_zero_fits_any_axis(xs: tuple[int, ...], ks: tuple[int, ...]) -> None:
    """A mask with an axis of length 0 selects nothing, whatever the indexed
    axis' length (NumPy's rule; the standard's tests ask for it)."""
    a = np.arange(float(np.prod(xs))).reshape(xs)
    x = ma.asarray(a)
    assert x[ma.zeros(ks, dtype=ma.bool)].shape == a[np.zeros(ks, bool)].shape
    x[ma.zeros(ks, dtype=ma.bool)] = -1.0
    np.testing.assert_array_equal(np.asarray(x), a)
    with pytest.raises(IndexError, match="did not match"):
        x[ma.zeros((1, *xs[1:]), dtype=ma.bool)] if xs[0] != 1 else x[ma.zeros((3,), dtype=ma.bool)]


# ---- flat indices: dims whose size does not fit in int64 ------------------------------

FLAT_DIMS_TOO_LARGE = {
    "2**40 x 2**40": (2**40, 2**40),
    "just past int64": (4, 2**62 + 1),
    "2**32 x 2**31": (2**32, 2**31),
    "entry past int64": (2**63, 1),
}


@pytest.mark.parametrize("dims", FLAT_DIMS_TOO_LARGE.values(), ids=FLAT_DIMS_TOO_LARGE.keys())
def test_ravel_multi_index_refuses_dims_beyond_int64(dims: tuple[int, int]) -> None:
    """The flat index was computed in int64 and wrapped: (2**40 - 1,
    2**40 - 1) in (2**40, 2**40) gave -1, (3, 2**62) in (4, 2**62 + 1) gave
    3.  NumPy's ValueError instead."""
    coords = (dims[0] - 1, min(dims[1], 2**62) - 1)
    raises_as_numpy(lambda m: m.ravel_multi_index(coords, dims), r"invalid dims .*larger than the maximum possible")


@pytest.mark.parametrize("dims", FLAT_DIMS_TOO_LARGE.values(), ids=FLAT_DIMS_TOO_LARGE.keys())
def test_unravel_index_refuses_dims_beyond_int64(dims: tuple[int, int]) -> None:
    raises_as_numpy(lambda m: m.unravel_index(5, dims), r"invalid dims .*larger than the maximum possible")


def test_flat_index_dims_at_the_int64_limit() -> None:
    """The largest size there is, 2**63 - 1, still works (NumPy's too), and
    an empty but huge shape is refused as an allocation of it would be."""
    dims = (2**63 - 1, 1)
    assert int(ma.ravel_multi_index((2**63 - 2, 0), dims)) == int(np.ravel_multi_index((2**63 - 2, 0), dims))
    got = ma.unravel_index(2**63 - 2, (2**63 - 1,))
    assert [int(g) for g in got] == [int(e) for e in np.unravel_index(2**63 - 2, (2**63 - 1,))]
    raises_as_numpy(lambda m: m.unravel_index(m.asarray([], dtype=m.int64), (2**40, 2**40, 0)), "invalid dims")


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_ravel_multi_index_into_empty_dims(mode: str) -> None:
    """No coordinate fits dims with a zero entry: wrap (a remainder by 0)
    gave 0 and clip -1.  NumPy's ValueError; no coordinates, no error."""
    coords = (np.array([1]), np.array([0]))
    raises_as_numpy(lambda m: m.ravel_multi_index(tuple(m.asarray(c) for c in coords), (2, 0), mode=mode),
                    "zero entries|invalid entry")
    empty = (ma.asarray([], dtype=ma.int64), ma.asarray([], dtype=ma.int64))
    assert ma.ravel_multi_index(empty, (2, 0), mode=mode).shape == (0,)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_put_into_an_empty_array(mode: str) -> None:
    """wrap and clip took the index modulo (or clipped it to) the size 0,
    with a divide-by-zero warning, then raised ValueError: NumPy's
    IndexError instead; no indices, nothing to do."""
    raises_as_numpy(lambda m: m.put(m.zeros(0), m.asarray([1]), 5.0, mode=mode), "empty array|out of bounds")
    ma.put(ma.zeros(0), ma.asarray([], dtype=ma.int64), 5.0, mode=mode)


# ---- NumPy's indexing routines -----------------------------------------------------------

def test_index_routines_match_numpy() -> None:
    same(ma.unravel_index(ma.asarray([0, 7, 23]), (2, 3, 4)), np.unravel_index([0, 7, 23], (2, 3, 4)))
    for mode in ("raise", "wrap", "clip"):
        idx = ([1, 0], [2, 5]) if mode != "raise" else ([1, 0], [2, 3])
        same(ma.ravel_multi_index(idx, (2, 4), mode=mode), np.ravel_multi_index(idx, (2, 4), mode=mode))
    for fn in ("tril_indices", "triu_indices"):
        for n, k, m in ((3, 0, None), (4, -1, 2), (2, 3, 5)):
            got, expected = both(fn, n, k, m)
            same(got, expected)
    a = np.arange(20.0).reshape(4, 5)
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
        ("put", ([0, 7, -1], [9.0, 8.0]), {}), ("put", ([3, 3], [1.0, 2.0]), {}),
        ("put", ([25, -30], [5.0]), {"mode": "wrap"}), ("put", ([25, -30], [5.0]), {"mode": "clip"}),
        ("place", (a > 12, [0.5, 1.5]), {}), ("put_along_axis", (np.array([[0], [4], [2], [1]]), -1.0, 1), {}),
        ("copyto", (np.arange(5.0),), {}), ("copyto", (np.arange(5),), {"where": a > 4}),
    ]
    for fn, args, kw in calls:
        y, x = a.copy(), ma.asarray(a.copy())
        getattr(np, fn)(y, *args, **kw)
        getattr(ma, fn)(x, *[ma.asarray(v) if isinstance(v, np.ndarray) else v for v in args],
                        **{k: ma.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()})
        same(x, y)
    with pytest.raises(TypeError, match="same_kind"):
        ma.copyto(ma.zeros(3, dtype=ma.int32), ma.ones(3))
    mask = [True, False, True, False, False]
    same(ma.asarray(a)[ma.ix_([0, 3], mask)], a[np.ix_([0, 3], mask)])
    got, expected = both("select", [a < 3, a > 15], [a, -a], 0.5)
    same(got, expected)
    got, expected = both("compress", [0, 1, 1, 0, 1], a, 1)
    same(got, expected)


# ---- take and take_along_axis ------------------------------------------------------------

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


# ---- every key spelling, and every bad key, against NumPy --------------------
# The key is parsed once (csrc/py/views.c); whichever route then answers,
# the result or the error is NumPy's.  Array entries are spelled as NumPy
# arrays here and given to minarray both as they are and as NDArrays.

KEY_SPELLINGS: dict[str, Any] = {
    "int": 1, "negative int": -1, "numpy int64": np.int64(2), "numpy uint8": np.uint8(1), "0-d int array": np.array(1),
    "slice": slice(1, None), "negative step": slice(None, None, -2), "ellipsis": Ellipsis, "newaxis": None,
    "empty tuple": (), "tuple of ints": (1, 2), "ellipsis first": (Ellipsis, 1), "newaxis and slice": (None, slice(1)),
    "bool True": True, "bool False": False, "numpy bool": np.True_, "tuple with bool": (0, True),
    "list of ints": [0, 2], "list of bools": [True, False, True], "nested list": [[0], [2]], "empty list": [],
    "tuple entry": ((0, 1),), "int array": np.array([2, 0]), "uint16 array": np.array([1], dtype=np.uint16),
    "2-d int array": np.array([[0, 1], [2, 0]]), "mask": np.array([True, False, True]),
    "full mask": np.arange(12).reshape(3, 4) > 4, "rows and cols": ([0, 2], [1, 3]),
    "broadcast entries": (np.array([[0], [2]]), [1, 3]), "int beside array": (1, [0, 3]),
    "slice beside array": (slice(None), [3, 0]), "arrays apart": ([0, 1], Ellipsis, [1, 2]),
    "mask and array": (np.array([True, False, True]), [0, 1]), "empty ellipsis between arrays": ([0], Ellipsis, [1]),
    "namedtuple-like tuple subclass": type("T", (tuple,), {})((0, 1)),
}

BAD_KEYS: dict[str, Any] = {
    "float": 1.0, "str": "a", "object": object(), "dict": {}, "float list": [1.5], "str list": [0, "a"],
    "None in list": [0, None], "huge int list": [2**70], "ragged list": [[0], [1, 2]], "float array": np.array([1.0]),
    "0-d float array": np.array(1.0), "numpy float": np.float64(1.0), "complex": 1j, "too many": (0, 0, 0),
    "two ellipses": (Ellipsis, Ellipsis), "out of bounds": 3, "out of bounds negative": (0, -5),
    "array out of bounds": np.array([3]), "mask too long": np.ones(4, bool),
    "mask wrong axis": (slice(None), np.ones(3, bool)),
    "entries that do not broadcast": ([0, 1], [0, 1, 2]), "zero step": slice(None, None, 0), "float slice": slice(1.5),
    "int past 64 bits": 2**70,
}


def _ma_key(key: Any) -> Any:
    if isinstance(key, np.ndarray):
        return ma.asarray(key)
    if type(key) is tuple:
        return tuple(_ma_key(k) for k in key)
    return key


def _outcome_of(f: Any) -> Any:
    try:
        return f(), None
    except (IndexError, ValueError, TypeError) as e:
        return None, e


@pytest.mark.parametrize("name", sorted(KEY_SPELLINGS) + sorted(BAD_KEYS))
def test_key_spellings_like_numpy(name: str) -> None:
    key = KEY_SPELLINGS.get(name, BAD_KEYS.get(name))
    arr = np.arange(12.0).reshape(3, 4)
    want, want_exc = _outcome_of(lambda: arr[key])
    for k in (key, _ma_key(key)):
        x = to_ma(arr)
        got, exc = _outcome_of(lambda: x[k])  # noqa: B023
        if want_exc is not None:
            assert type(exc) is type(want_exc), (exc, want_exc)
            if isinstance(want_exc, IndexError) and "out of bounds" not in str(want_exc):
                assert str(exc) == str(want_exc)  # NumPy's words for a key that is no index
            continue
        assert exc is None, exc
        assert_like_numpy(got, np.asarray(want), check_strides=False)
        # and through assignment: the same elements written, nothing else
        n = arr.copy()
        n[key] = -1.0
        x[k] = -1.0
        np.testing.assert_array_equal(np.from_dlpack(x), n)


def _view_of_shape(w: Any, t: tuple[int, ...]) -> Any:
    """A view of ``w`` (3 x 4) with shape ``t``, or None."""
    if len(t) == 2 and t[0] <= w.shape[0] and t[1] <= w.shape[1]:
        return w[:t[0], :t[1]]
    if len(t) == 1 and t[0] <= w.shape[1]:
        return w[0, :t[0]]
    return None


@pytest.mark.parametrize("name", ["slice", "negative step", "list of ints", "int array", "mask", "rows and cols",
                                  "broadcast entries", "slice beside array", "arrays apart", "full mask"])
def test_setitem_value_that_views_the_target(name: str) -> None:
    """x[key] = (a view of x): every element is read before any is written,
    as NumPy does, whatever the key and the overlap."""
    key = KEY_SPELLINGS[name]
    for make in (lambda a: a[::-1], lambda a: a[:, ::-1], lambda a: a.T[::-1].T, lambda a: a):
        arr = np.arange(12.0).reshape(3, 4)
        x = to_ma(arr)
        t = arr[key].shape
        nv, v = _view_of_shape(make(arr), t), _view_of_shape(make(x), t)
        if nv is None:
            continue
        assert np.shares_memory(nv, arr) and v.base is x  # the value views the target
        arr[key] = nv
        x[_ma_key(key)] = v
        np.testing.assert_array_equal(np.from_dlpack(x), arr)
    # basic keys whose value is a view overlapping the target, shifted by one
    for dst, src in ((np.s_[1:], np.s_[:-1]), (np.s_[:-1], np.s_[1:]), (np.s_[:, 1:], np.s_[:, :-1]),
                     (np.s_[::-1], np.s_[:]), (np.s_[[2, 0, 1]], np.s_[:])):
        arr = np.arange(12.0).reshape(3, 4)
        x = to_ma(arr)
        arr[dst] = arr[src]
        x[dst] = x[src]
        np.testing.assert_array_equal(np.from_dlpack(x), arr)


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dims", [(7, 6), (2, 3, 4), (5,)])
def test_unravel_and_ravel_multi_index_orders_match_numpy(order: str, dims: tuple[int, ...]) -> None:
    flat = np.arange(int(np.prod(dims)))[::3]
    coords = np.unravel_index(flat, dims, order=order)
    got = ma.unravel_index(ma.asarray(flat), dims, order=order)
    assert len(got) == len(coords)
    for g, e in zip(got, coords, strict=True):
        same(g, e)
    same(ma.ravel_multi_index(tuple(ma.asarray(c) for c in coords), dims, order=order),
         np.ravel_multi_index(coords, dims, order=order))


@pytest.mark.parametrize("mode", [("clip", "wrap"), ("raise", "clip"), ["wrap", "wrap"]])
def test_ravel_multi_index_mode_per_axis_matches_numpy(mode: Any) -> None:
    arr = np.array([[3, 6, 6], [4, 5, 1]])
    if "raise" in mode:
        arr = np.array([[3, 1, 0], [4, 5, -1]])
    same(ma.ravel_multi_index(ma.asarray(arr), (4, 4), mode=mode), np.ravel_multi_index(arr, (4, 4), mode=mode))


@pytest.mark.parametrize(("kw", "match"), [({"mode": ("clip",)}, "wrong length"),
                                           ({"mode": ("clip", "x")}, "clipmode must be one of"),
                                           ({"order": "X"}, "order must be one of")])
def test_ravel_multi_index_bad_modes_raise_as_numpy(kw: dict[str, Any], match: str) -> None:
    raises_as_numpy(lambda xp: xp.ravel_multi_index(xp.asarray([[3, 6], [4, 5]]), (7, 6), **kw), match)
# ---- NumPy's call signatures: take's axis and out, order='F' of flat indices --

def test_take_positional_axis_and_out() -> None:
    a = np.arange(12).reshape(3, 4)
    got, expected = both("take", a, [2, 0], 1)
    same(got, expected)
    out = ma.zeros((3, 2), dtype=ma.int64)
    assert ma.take(ma.asarray(a), [2, 0], 1, out) is out
    same(out, expected)
    raises_as_numpy(lambda m: m.take(m.asarray(a), [1], 0, m.zeros((2, 4), dtype=m.int64)), "shape")


@pytest.mark.parametrize(("fn", "args", "kwargs"), [
    ("ravel_multi_index", (np.array([[3, 6, 6], [4, 5, 1]]), (7, 6)), {"order": "F"}),
    ("ravel_multi_index", (np.array([[3, 6, 6], [4, 5, 1]]), (4, 4)), {"mode": ("clip", "wrap")}),
    ("ravel_multi_index", ((3, 1, 4, 1), (6, 7, 8, 9), "raise", "F"), {}),
    ("ravel_multi_index", (np.array([[3, 6, 6], [4, 5, 1]]), (4, 4), ("wrap", "clip"), "F"), {}),
    ("unravel_index", ([31, 41, 13], (7, 6)), {"order": "F"}),
    ("unravel_index", (1621, (6, 7, 8, 9), "F"), {}),
    ("unravel_index", (np.array([[0, 5], [7, 11]]), (3, 4), "F"), {}),
], ids=lambda v: v if isinstance(v, str) else None)
def test_flat_index_fortran_order(fn: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    got, expected = both(fn, *args, **kwargs)
    same(got, expected)


@pytest.mark.parametrize(("call", "match"), [
    (lambda m: m.unravel_index([1], (2, 2), order="K"), "order"),
    (lambda m: m.ravel_multi_index(([1], [1]), (2, 2), order="A"), "order"),
    (lambda m: m.ravel_multi_index(([1], [1]), (2, 2), mode=("clip",)), "mode"),
    (lambda m: m.ravel_multi_index(([1], [1]), (2, 2), mode=("clip", "bounce")), "clip"),
], ids=["unravel-K", "ravel-A", "mode-short", "mode-unknown"])
def test_flat_index_order_errors(call: Any, match: str) -> None:
    raises_as_numpy(call, match)


@pytest.mark.parametrize("mode", ["wrap", "clip"])
@pytest.mark.parametrize(("shape", "indices", "axis"), [
    ((6,), [0, 1, 4, 9, -8, -1], None), ((2, 3), [[0, 5], [-4, 2]], 1), ((2, 3), [7, -7], None), ((3, 2), [3], 0),
], ids=["1d", "axis-1", "flat", "axis-0"])
def test_take_mode(mode: str, shape: tuple[int, ...], indices: Any, axis: int | None) -> None:
    a = np.arange(math.prod(shape)).reshape(shape) * 10
    got, expected = both("take", a, indices, axis, None, mode)
    same(got, expected)


def test_take_mode_errors() -> None:
    raises_as_numpy(lambda m: m.take(m.asarray([4, 3]), [3], mode="bounce"), "clipmode")
    raises_as_numpy(lambda m: m.take(m.zeros((0,)), [3], mode="wrap"), "empty")


def test_take_along_axis_positional_axis() -> None:
    a = np.array([[10, 30, 20], [60, 40, 50]])
    idx = np.argsort(a, 1)
    got, expected = both("take_along_axis", a, idx, 1)
    same(got, expected)


def test_choose_and_compress_out() -> None:
    # NumPy's order: choose(a, choices, out, mode), compress(condition, a, axis, out)
    choices = [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]]
    got, expected = both("choose", [2, 4, 1, 0], choices, None, "wrap")
    same(got, expected)
    out = ma.zeros(4, dtype=ma.int64)
    assert ma.choose([2, 3, 1, 0], choices, out) is out
    same(out, np.choose([2, 3, 1, 0], choices))
    a = np.array([[1, 2], [3, 4], [5, 6]])
    out = ma.zeros((2, 2), dtype=ma.int64)
    assert ma.compress([0, 1, 1], ma.asarray(a), 0, out) is out
    same(out, np.compress([0, 1, 1], a, 0))


# ---- putmask, diag_indices_from, mask_indices ------------------------------------------------

PUTMASK: dict[str, tuple[Any, Any, Any]] = {
    # a, mask (a function of a), values
    "cycled-by-position": (np.arange(6), lambda a: a > 2, [10, 20]),
    "one-value": (np.arange(6.0).reshape(2, 3), lambda a: a % 2 == 0, -1.5),
    "values-as-long": (np.arange(4), lambda a: a != 1, [9, 8, 7, 6]),
    "longer-values": (np.arange(4), lambda a: a > 1, np.arange(100, 110)),
    "empty-values": (np.arange(4), lambda a: a > 1, []),
    "float-into-int": (np.arange(5), lambda a: a < 3, [1.7, -2.2]),
    "no-true": (np.arange(3.0), lambda a: a > 9, [1.0]),
    "mask-other-shape": (np.arange(6).reshape(2, 3), lambda a: (a > 3).ravel(), [0]),
    "0-d": (np.array(5), lambda a: np.array(True), 3),
    "complex": (np.zeros(3, complex), lambda a: np.array([True, False, True]), [1 + 2j]),
}


@pytest.mark.parametrize("case", PUTMASK)
def test_putmask_as_numpy(case: str) -> None:
    a, mask, values = PUTMASK[case]
    want = np.array(a, copy=True)
    got = ma.asarray(a.copy())
    m = mask(want)
    np.putmask(want, m, values)
    ma.putmask(got, m.tolist() if m.ndim else bool(m), values)
    same(got, want)


def test_putmask_strided_in_place_as_numpy() -> None:
    want = np.arange(12.0).reshape(3, 4)
    got = ma.arange(12.0).reshape(3, 4)
    np.putmask(want[:, ::2], want[:, ::2] > 3, [-1.0, -2.0])
    ma.putmask(got[:, ::2], got[:, ::2] > 3, [-1.0, -2.0])
    same(got, want)


def test_putmask_reads_values_before_writing() -> None:
    want = np.arange(6)
    np.putmask(want, want > 1, want[::-1].copy())
    got = ma.arange(6)
    ma.putmask(got, got > 1, got[::-1])  # the values are a view of the array written
    same(got, want)


def test_putmask_writes_through_a_numpy_array() -> None:
    n = np.arange(4.0)
    ma.putmask(n, n > 1, 0.0)
    np.testing.assert_array_equal(n, [0.0, 1.0, 0.0, 0.0])


def test_putmask_errors_as_numpy() -> None:
    raises_as_numpy(lambda m: m.putmask([1, 2], [True, False], 3), "array")
    raises_as_numpy(lambda m: m.putmask(m.arange(6), [True, False], 1), "mask and data must be the same size")


@pytest.mark.parametrize("shape", [(3, 3), (4, 4, 4), (1, 1), (0, 0), (2, 2, 2, 2)], ids=str)
def test_diag_indices_from_as_numpy(shape: tuple[int, ...]) -> None:
    n = np.zeros(shape)
    same(ma.diag_indices_from(ma.asarray(n)), np.diag_indices_from(n))
    same(ma.diag_indices_from(n.tolist()) if n.size else ma.diag_indices_from(n), np.diag_indices_from(n))


def test_diag_indices_from_errors_as_numpy() -> None:
    raises_as_numpy(lambda m: m.diag_indices_from(m.ones(3)), "at least 2-d")
    raises_as_numpy(lambda m: m.diag_indices_from(m.ones((3, 4))), "equal length")


@pytest.mark.parametrize("func", ["triu", "tril"])
@pytest.mark.parametrize("k", [-2, 0, 1, 5])
@pytest.mark.parametrize("n", [0, 1, 4])
def test_mask_indices_as_numpy(n: int, func: str, k: int) -> None:
    same(ma.mask_indices(n, getattr(ma, func), k), np.mask_indices(n, getattr(np, func), k))


def test_mask_indices_with_a_function_of_ones() -> None:
    def odd_sum(m: Any, k: int) -> Any:
        return m * ((ma.arange(m.shape[0])[:, None] + ma.arange(m.shape[1])) % 2 == k)

    def odd_sum_np(m: Any, k: int) -> Any:
        return m * ((np.arange(m.shape[0])[:, None] + np.arange(m.shape[1])) % 2 == k)

    same(ma.mask_indices(4, odd_sum, 1), np.mask_indices(4, odd_sum_np, 1))
