"""NDArray's Python protocol: tolist, item, len, iter, bool/int/float/
complex/index conversions, fill, copy, device, against NumPy."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np
import pytest
from array_strategies import (
    ALL_DTYPES,
    assert_equal_values,
    distinct_values,
    dtypes,
    examples,
    np_dtype,
    shapes,
    to_ma,
    values_of,
)
from hypothesis import given
from hypothesis import strategies as st
from numpy_errors import raises_as_numpy

import minarray as ma


@examples(80)
@given(dtypes(numpy_only=True), shapes())
def test_tolist_matches_numpy(dtype: ma.DType, shape: tuple[int, ...]) -> None:
    arr = distinct_values(shape, dtype)
    x = to_ma(arr)
    assert x.tolist() == arr.tolist()
    assert x.T.tolist() == arr.T.tolist()
    if arr.ndim:
        assert x[::-1].tolist() == arr[::-1].tolist()


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_item_types(dtype: ma.DType) -> None:
    x = ma.asarray([1, 0], dtype=dtype)
    v = x[0].item()
    expected_type = {"b": bool, "i": int, "u": int, "f": float, "c": complex}[dtype.kind]
    assert type(v) is expected_type and v == 1
    assert type(x.tolist()[1]) is expected_type


def test_item_with_arguments_like_numpy() -> None:
    arr = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    x = to_ma(arr)
    for args in [(0,), (5,), (23,), (-1,), (-24,), ((1, 2, 3),), (1, 2, 3), ((-1, 0, -2),)]:
        assert x.item(*args) == arr.item(*args)
    for bad in [(24,), (-25,)]:
        with pytest.raises(IndexError):
            x.item(*bad)
    with pytest.raises(ValueError, match="size 1"):
        x.item()
    assert ma.asarray([[5]]).item() == 5
    assert ma.asarray(2.5).item() == 2.5
    with pytest.raises(TypeError):
        x.item(1.5)


def test_len_and_iter() -> None:
    arr = np.arange(6).reshape(3, 2)
    x = to_ma(arr)
    assert len(x) == 3 and len(x.T) == 2 and len(ma.zeros((0, 4))) == 0
    rows = list(x)
    assert [r.tolist() for r in rows] == arr.tolist()
    assert all(r.base is x for r in rows)
    assert [e.item() for e in x[0]] == [0, 1]
    with pytest.raises(TypeError, match="0-d"):
        len(ma.asarray(1))
    with pytest.raises(TypeError, match="0-d"):
        iter(ma.asarray(1))
    assert list(ma.zeros(0)) == []


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_scalar_conversions(dtype: ma.DType) -> None:
    one = ma.asarray(1, dtype=dtype)
    zero = ma.asarray([[0]], dtype=dtype)
    assert bool(one) is True and bool(zero) is False
    if dtype.kind != "c":
        assert int(one) == 1 and float(one) == 1.0
        assert int(zero[0, 0]) == 0
        with pytest.raises(TypeError, match="only 0-dimensional arrays"):  # NumPy 2's rule
            int(zero)
    else:
        with pytest.raises(TypeError, match="complex"):
            int(one)
        with pytest.raises(TypeError, match="complex"):
            float(one)
    assert complex(one) == 1 + 0j
    if dtype.kind in "iu":
        assert operator.index(one) == 1
        assert [10, 20][one] == 20
        with pytest.raises(TypeError, match="only integer scalar arrays"):
            operator.index(ma.asarray([1], dtype=dtype))
    else:
        with pytest.raises(TypeError, match="integer"):
            operator.index(one)


def test_scalar_conversion_errors_and_values() -> None:
    x = ma.asarray([1, 2])
    with pytest.raises(ValueError, match="ambiguous"):
        bool(x)
    with pytest.raises(ValueError, match="ambiguous"):
        bool(ma.zeros(0))
    for conv in (int, float, complex):
        with pytest.raises(TypeError, match="only 0-dimensional arrays can be converted to Python scalars"):
            conv(x)
    assert float(ma.asarray(2.5, dtype=ma.bfloat16)) == 2.5
    assert int(ma.asarray(-2.7)) == -2
    assert math.isnan(float(ma.asarray(math.nan, dtype=ma.float16)))
    assert int(ma.asarray(2**64 - 1, dtype=ma.uint64)) == 2**64 - 1
    assert complex(ma.asarray(1 + 2j, dtype=ma.complex64)) == 1 + 2j


@examples(60)
@given(dtypes(), shapes(max_dims=3), st.data())
def test_fill_like_numpy(dtype: ma.DType, shape: tuple[int, ...], data: st.DataObject) -> None:
    arr = distinct_values(shape, dtype)
    x = to_ma(arr)
    value: Any = data.draw(st.sampled_from([0, 1, True, 2.5, -3]))
    if dtype.kind == "u" and value == -3:
        with pytest.raises(OverflowError):
            x.fill(value)
        return
    if dtype.kind in "iub" and isinstance(value, float) and dtype.kind != "b":
        value = 2  # NumPy's fill truncates silently; minarray follows setitem rules
    x.fill(value)
    expected = np.empty_like(arr)
    expected.fill(value)
    assert_equal_values(values_of(x), expected)
    v = to_ma(arr)
    if arr.ndim:
        v[::2].fill(value)
        exp2 = arr.copy()
        exp2[::2] = value
        assert_equal_values(values_of(v), exp2)


def test_copy_and_device() -> None:
    x = ma.arange(6).reshape(2, 3).T
    c = x.copy()
    assert c.flags.c_contiguous and c.tolist() == x.tolist() and c.base is None
    assert x.device == "cpu" and x.to_device("cpu") is x
    with pytest.raises(ValueError, match="device"):
        x.to_device("cuda")
    assert x.__array_namespace__() is ma
    with pytest.raises(ValueError, match="version"):
        x.__array_namespace__(api_version="1999.01")
    with pytest.raises(TypeError):
        hash(x)
    with pytest.raises(TypeError, match="shape"):  # NumPy's ndarray() needs a shape too
        ma.NDArray()


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_every_dtype_round_trips_values(dtype: ma.DType) -> None:
    arr = distinct_values((2, 3, 4), dtype)
    x = to_ma(arr)
    assert x.dtype is dtype and x.itemsize == np_dtype(dtype).itemsize
    assert_equal_values(values_of(x), arr)
    assert_equal_values(values_of(x.copy()), arr)


# ---- setting .real, .imag and flags.writeable, as NumPy does --------------------


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128", "complex64", "int32"])
@pytest.mark.parametrize("value", [9, [1.5, 2.5], [[7], [8]]], ids=["scalar", "row", "column"])
def test_setting_real_writes_into_the_array(dtype: str, value: Any) -> None:
    n = np.arange(6, dtype=dtype).reshape(2, 3) * (1 + 1j if dtype.startswith("complex") else 1)
    x = ma.asarray(n.copy())
    view = x[:, ::2]
    n[:, ::2].real = value
    view.real = value  # through a strided view, into x's memory
    np.testing.assert_array_equal(np.asarray(x), n)


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_setting_imag_writes_into_a_complex_array(dtype: str) -> None:
    n = np.arange(3, dtype=dtype)
    x = ma.asarray(n.copy())
    n.imag = np.array([8, 10, 12])
    x.imag = ma.asarray([8, 10, 12])
    np.testing.assert_array_equal(np.asarray(x), n)
    assert x.dtype == ma.asarray(n).dtype


def test_setting_imag_of_a_real_array_raises_as_numpy() -> None:
    def call(xp: Any) -> None:
        a = xp.arange(3.0)
        a.imag = 1

    raises_as_numpy(call, "does not have imaginary part")


def test_setting_real_of_a_read_only_array_raises_as_numpy() -> None:
    def call(xp: Any) -> None:
        a = xp.zeros(3, dtype=xp.complex128)
        a.flags.writeable = False
        a.real = 1

    raises_as_numpy(call, "read-only")


def test_setting_real_checks_the_shape_and_writes_nothing() -> None:
    x = ma.arange(3.0)
    with pytest.raises(ValueError, match="broadcast"):
        x.real = [1.0, 2.0]
    assert x.tolist() == [0.0, 1.0, 2.0]


@pytest.mark.parametrize("spelling", ["attribute", "WRITEABLE", "W"])
def test_flags_writeable_can_be_turned_off_and_on(spelling: str) -> None:
    for xp in (np, ma):
        a = xp.arange(3.0)
        if spelling == "attribute":
            a.flags.writeable = False
        else:
            a.flags[spelling] = False
        assert not a.flags.writeable and not a.flags["WRITEABLE"]
        with pytest.raises(ValueError, match="read-only"):
            a[0] = 5
        a.flags.writeable = True
        a[0] = 5
        assert a.tolist() == [5.0, 1.0, 2.0]


def _writeable_after(xp: Any, steps: str) -> bool | str:
    """NumPy's rule for turning writes back on, step by step: the result,
    or the exception's type name."""
    a = xp.arange(4.0)
    v = a[1:]
    w = v[:]
    try:
        if steps == "view of a read-only owner":
            a.flags.writeable = False
            v.flags.writeable = True
        elif steps == "view of a read-only view":
            v.flags.writeable = False
            w.flags.writeable = True
        elif steps == "owner back on":
            a.flags.writeable = False
            v.flags.writeable = False
            a.flags.writeable = True
            v.flags.writeable = True
        return bool(v.flags.writeable and w.flags.writeable)
    except ValueError as e:
        return f"{type(e).__name__}: {e}"


@pytest.mark.parametrize("steps", ["view of a read-only owner", "view of a read-only view", "owner back on"])
def test_writeable_back_on_follows_numpys_rule(steps: str) -> None:
    assert _writeable_after(ma, steps) == _writeable_after(np, steps)


def test_read_only_foreign_memory_stays_read_only() -> None:
    src = np.frombuffer(b"abcd", dtype=np.uint8)
    x = ma.asarray(src)
    with pytest.raises(ValueError, match="cannot set WRITEABLE flag to True"):
        x.flags.writeable = True
    with pytest.raises(ValueError, match="cannot set WRITEABLE flag to True"):
        src.flags.writeable = True
    writable = np.arange(3.0)
    y = ma.asarray(writable)
    y.flags.writeable = False
    y.flags.writeable = True
    y[0] = 7
    assert writable[0] == 7


@pytest.mark.parametrize("key", ["C_CONTIGUOUS", "OWNDATA", "nonsense"])
def test_other_flags_cannot_be_set(key: str) -> None:
    def call(xp: Any) -> None:
        xp.arange(3).flags[key] = False

    raises_as_numpy(call, "Unknown flag")


def test_astype_none_is_float64_as_numpy() -> None:
    n = np.arange(3, dtype=np.int32)
    got = ma.asarray(n).astype(None)
    assert str(got.dtype) == str(n.astype(None).dtype) == "float64"
    np.testing.assert_array_equal(np.asarray(got), n.astype(None))


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_real_and_imag_of_complex_are_views_as_numpy(dtype: str) -> None:
    n = (np.arange(6) - 2.5 + 1j * np.arange(6)).astype(dtype).reshape(2, 3)
    x = ma.asarray(n.copy())
    for part in ("real", "imag"):
        got, expected = getattr(x, part), getattr(n, part)
        assert str(got.dtype) == str(expected.dtype) and got.shape == expected.shape
        np.testing.assert_array_equal(np.asarray(got), expected)
        assert ma.shares_memory(got, x)
    # the usual NumPy idiom writes through the view
    n.real[n.real < 0] = 0
    x.real[x.real < 0] = 0
    n[:, ::2].imag[...] = -1
    x[:, ::2].imag[...] = -1
    np.testing.assert_array_equal(np.asarray(x), n)


def test_real_and_imag_of_a_real_array_as_numpy() -> None:
    for xp in (np, ma):
        a = xp.arange(3.0)
        assert a.real is a
        i = a.imag
        assert not i.flags.writeable and i.tolist() == [0.0, 0.0, 0.0]
        with pytest.raises(ValueError, match="read-only"):
            i[0] = 1


@pytest.mark.parametrize("value", [3, 7, 2.0, [0, 1], [0, 2], [9, 9], [[0, 1], [2, 3]], np.nan])
@pytest.mark.parametrize("shape", [(4,), (2, 2), (0,), ()])
def test_in_compares_with_broadcasting_as_numpy(shape: tuple[int, ...], value: Any) -> None:
    """``v in x`` is NumPy's ``(x == v).any()``: a row of a 2-d array is
    found, and a shape that does not broadcast raises as NumPy's."""
    n = np.arange(max(math.prod(shape), 1))[:math.prod(shape)].reshape(shape)
    a = ma.asarray(n)
    try:
        want: Any = value in n
    except ValueError:
        with pytest.raises(ValueError):
            value in a  # noqa: B015 - the membership test is what raises
        return
    assert (value in a) is want
