"""NumPy interop of the basic kind: np.asarray(minarray array) and
ma.asarray(NumPy array) share memory when they can, with NumPy 2's copy=
semantics, read-only flags and lifetimes kept."""

from __future__ import annotations

import gc
from typing import Any

import numpy as np
import pytest
from array_strategies import (
    ALL_DTYPES,
    NP_BFLOAT16,
    array_and_slice_chain,
    assert_equal_values,
    distinct_values,
    examples,
    np_dtype,
    to_ma,
    values_of,
)
from hypothesis import given

import minarray as ma


@examples(80)
@given(array_and_slice_chain())
def test_np_asarray_is_zero_copy(case: tuple[np.ndarray, list[Any]]) -> None:
    arr, keys = case
    x = to_ma(arr)
    v = x
    for key in keys:
        v = v[key]
    n = np.asarray(v)
    assert n.dtype == np_dtype(v.dtype)
    assert n.shape == v.shape
    if n.size:
        assert n.strides == v.strides
        assert n.__array_interface__["data"][0] == v.data_ptr
    assert_equal_values(n, values_of(v))
    assert n.flags.writeable == v.flags.writeable


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_np_asarray_every_dtype(dtype: ma.DType) -> None:
    if dtype is ma.bfloat16 and NP_BFLOAT16 is None:
        pytest.skip("bfloat16 arrays reach NumPy through ml_dtypes")
    arr = distinct_values((3, 4), dtype)
    x = to_ma(arr)
    n = np.asarray(x)
    assert n.dtype == arr.dtype and n.ctypes.data == x.data_ptr
    np.testing.assert_array_equal(n, arr)
    # writes through NumPy land in minarray's memory
    n[0, 0] = n[1, 1]
    assert values_of(x)[0, 0] == arr[1, 1]
    # np.array copies
    c = np.array(x)
    assert c.ctypes.data != x.data_ptr
    np.testing.assert_array_equal(c, n)
    t = np.asarray(x.T[::-1])
    assert t.strides == x.T[::-1].strides
    np.testing.assert_array_equal(t, n.T[::-1])
    z = np.asarray(x[0, 0, ...])  # (x[0, 0] is a scalar: a copy, as NumPy's)
    assert z.shape == () and z.ctypes.data == x.data_ptr
    e = np.asarray(x[:0])
    assert e.shape == (0, 4) and e.dtype == arr.dtype


def test_numpy_copy_keyword() -> None:
    x = ma.arange(6, dtype=ma.int32)
    assert np.asarray(x, copy=False).ctypes.data == x.data_ptr
    assert np.asarray(x, copy=True).ctypes.data != x.data_ptr
    assert np.asarray(x, dtype=np.int32, copy=False).ctypes.data == x.data_ptr
    with pytest.raises(ValueError, match="copy"):
        np.asarray(x, dtype=np.float64, copy=False)
    f = np.asarray(x, dtype=np.float64)
    assert f.dtype == np.float64 and f.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert x.__array__().ctypes.data == x.data_ptr
    assert x.__array__(copy=True).ctypes.data != x.data_ptr
    assert x.__array__(np.int64).dtype == np.int64
    with pytest.raises(ValueError, match="copy=False"):
        x.__array__(np.int64, copy=False)


def test_numpy_result_keeps_minarray_memory_alive() -> None:
    start = ma.allocator_stats()["live_buffers"]
    x = ma.arange(1000, dtype=ma.float64)
    n = np.asarray(x[10:])
    del x
    gc.collect()
    assert ma.allocator_stats()["live_buffers"] == start + 1
    assert n[0] == 10.0 and n[-1] == 999.0
    del n
    gc.collect()
    assert ma.allocator_stats()["live_buffers"] == start


def test_read_only_both_ways() -> None:
    b = ma.broadcast_to(ma.arange(3), (2, 3))
    n = np.asarray(b)
    assert not n.flags.writeable and n.strides == (0, 8)
    with pytest.raises(ValueError):
        n[0, 0] = 1
    r = np.arange(4)
    r.flags.writeable = False
    x = ma.asarray(r)
    assert not x.flags.writeable
    assert not np.asarray(x).flags.writeable


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_ma_asarray_of_numpy_every_dtype(dtype: ma.DType) -> None:
    if dtype is ma.bfloat16 and NP_BFLOAT16 is None:
        pytest.skip("bfloat16 NumPy arrays need ml_dtypes")
    arr = distinct_values((4, 5), dtype)
    for view in (arr, arr.T, arr[::-1, ::2], arr[1], arr[1:1], arr[2, 3, ...]):
        x = ma.asarray(view)
        assert x.dtype is dtype and x.shape == view.shape
        if view.size:
            assert x.data_ptr == view.__array_interface__["data"][0]
            assert x.strides == view.strides
        assert_equal_values(values_of(x), view)
        assert x.base is view or x.base is arr


def test_roundtrip_is_the_same_memory() -> None:
    x = ma.arange(12, dtype=ma.int16).reshape(3, 4)[:, 1:]
    y = ma.asarray(np.asarray(x))
    assert y.data_ptr == x.data_ptr and y.strides == x.strides and y.tolist() == x.tolist()
    y[0, 0] = 100
    assert x[0, 0].item() == 100


def test_byte_swapped_and_unsupported_numpy_arrays() -> None:
    be = np.arange(4, dtype=">i4")
    x = ma.asarray(be)
    assert x.dtype is ma.int32 and x.tolist() == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="byte order"):
        ma.asarray(be, copy=False)
    for bad in (np.array(["a", "b"]), np.array([object()]), np.array(["2020-01-01"], dtype="datetime64[D]")):
        with pytest.raises(TypeError, match=r"minarray has no dtype .* use NumPy"):
            ma.asarray(bad)


def test_numpy_scalars_and_zero_d() -> None:
    x = ma.asarray(np.float32(2.5))
    assert x.dtype is ma.float32 and x.shape == () and x.item() == 2.5
    z = ma.asarray(np.array(7, dtype=np.uint16))
    assert z.dtype is ma.uint16 and z.item() == 7
    w = ma.asarray(np.float64(1.5), copy=False)  # shares the scalar's (read-only) memory
    assert not w.flags.writeable and w.item() == 1.5


def test_numpy_ufuncs_accept_minarray_arrays() -> None:
    x = ma.arange(4, dtype=ma.float32)
    r = np.add(x, 1)  # NumPy or minarray's answer (minarray may take the ufunc over)
    assert np.asarray(r).tolist() == [1.0, 2.0, 3.0, 4.0]
    assert float(np.sum(x)) == 6.0
    assert np.shares_memory(np.asarray(x), np.asarray(x[1:]))


def test_bool_bytes_other_than_0_and_1_read_as_true() -> None:
    # Imported bool memory may hold any byte; NumPy (and minarray) read a
    # non-zero byte as True wherever the value is used.
    b = np.array([0, 2, 1, 255, 0, 7], dtype=np.uint8).view(np.bool_)
    c = np.array([1, 1, 2, 0, 0, 9], dtype=np.uint8).view(np.bool_)
    m, n = ma.asarray(b), ma.asarray(c)
    checks = [
        (m.astype(ma.int64), b.astype(np.int64)), (m.astype(ma.float32), b.astype(np.float32)),
        (ma.sum(m), np.sum(b)), (ma.prod(m), np.prod(b)), (ma.cumulative_sum(m), np.cumsum(b)),
        (ma.max(m), np.max(b)), (ma.min(m), np.min(b)), (ma.argmax(m), np.argmax(b)),
        (ma.count_nonzero(m), np.count_nonzero(b)), (ma.all(m[1:4]), np.all(b[1:4])),
        (m == n, b == c), (m != n, b != c), (m & n, b & c), (m ^ n, b ^ c), (m + n, b + c),
        (ma.logical_xor(m, n), np.logical_xor(b, c)), (ma.diff(m), np.diff(b)),
        (ma.where(m, 1, 0), np.where(b, 1, 0)), (ma.arange(6)[m], np.arange(6)[b]),
        (ma.nonzero(m)[0], np.nonzero(b)[0]),
    ]
    for got, expected in checks:
        assert np.asarray(got).tolist() == np.asarray(expected).tolist(), (got, expected)
