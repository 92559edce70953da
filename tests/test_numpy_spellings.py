"""NumPy's spellings of what the Array API also offers: the signatures and
objects day-one NumPy code uses, each checked against NumPy."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy_oracle import np_function

import minarray as ma


def same(got: Any, want: Any) -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)


def test_axis_error_is_a_value_error_and_an_index_error() -> None:
    assert issubclass(ma.AxisError, ValueError) and issubclass(ma.AxisError, IndexError)
    assert ma.exceptions.AxisError is ma.AxisError
    for catch in (ma.AxisError, ValueError, IndexError):
        with pytest.raises(catch, match="axis 2 is out of bounds for an array of dimension 2"):
            ma.sum(ma.ones((2, 3)), axis=2)
    with pytest.raises(ma.AxisError):
        ma.flip(ma.ones(3), axis=-2)


@pytest.mark.parametrize("name", ["bool", "int8", "uint16", "int64", "float16", "float32", "float64",
                                  "complex64", "complex128"])
def test_dtypes_are_callable_like_numpys_scalar_types(name: str) -> None:
    dt = getattr(ma, name)
    for value in (0, 3, 1.5, True):
        if name != "bool" and dt.kind in "iu" and isinstance(value, float):
            continue
        got = dt(value)
        assert got.dtype is dt and got.shape == ()
        same(got, getattr(np, name)(value))
    same(ma.float32([1, 2]), np.float32([1, 2]))


@pytest.mark.parametrize("spelling", ["f4", "<f4", "=f4", "f8", "<i8", "i4", "u1", "|u1", "b1", "|b1", "c8",
                                      "<c16", "f2", "?", "b", "B", "h", "H", "i", "I", "l", "q", "L", "Q",
                                      "e", "f", "d", "F", "D", "float32", "int", "float", "double"])
def test_dtype_strings(spelling: str) -> None:
    assert ma.asarray([1], dtype=spelling).dtype.name == np.dtype(spelling).name
    assert ma.zeros(2, dtype=spelling).dtype.name == np.dtype(spelling).name


def test_dtype_strings_minarray_cannot_hold() -> None:
    with pytest.raises(TypeError, match="big-endian"):
        ma.zeros(1, dtype=">f4")
    assert ma.zeros(1, dtype=">u1").dtype is ma.uint8  # one byte: no order to speak of
    with pytest.raises(TypeError, match="unknown dtype 'f3'"):
        ma.zeros(1, dtype="f3")


def test_ndarray_is_the_class_and_dir_is_the_public_api() -> None:
    assert ma.ndarray is ma.NDArray
    assert isinstance(ma.ones(2), ma.ndarray)
    names = dir(ma)
    assert "add" in names and "ndarray" in names and "errstate" in names and "linalg" in names
    for private in ("creation", "elementwise", "views", "_core", "annotations", "core"):
        assert private not in names
    assert all(hasattr(ma, n) for n in names)


@pytest.mark.parametrize("num,endpoint", [(5, True), (5, False), (1, True), (1, False), (0, True), (50, True)])
def test_linspace_numpy_signature(num: int, endpoint: bool) -> None:
    got, step = ma.linspace(2.0, 3.0, num, endpoint, retstep=True)
    want, wstep = np.linspace(2.0, 3.0, num, endpoint, retstep=True)
    same(got, want)
    assert (step == wstep) or (np.isnan(step) and np.isnan(wstep))
    same(ma.linspace(0, 1), np.linspace(0, 1))  # num defaults to 50


def test_where_with_the_condition_alone_is_nonzero() -> None:
    c = np.array([[0, 3], [4, 0]])
    got, want = ma.where(ma.asarray(c)), np.where(c)
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        same(g, w)
    with pytest.raises(ValueError, match="both x1 and x2"):
        ma.where(ma.asarray(c), 1)


@pytest.mark.parametrize("kind", [None, "quicksort", "mergesort", "heapsort", "stable"])
def test_sort_numpy_arguments(kind: str | None) -> None:
    a = np.array([[3, 1, 2], [9, 0, 5]])
    same(ma.sort(ma.asarray(a), axis=None, kind=kind), np.sort(a, axis=None, kind=kind))
    same(ma.argsort(ma.asarray(a), axis=None, kind=kind), np.argsort(a, axis=None, kind="stable"))
    same(ma.sort(ma.asarray(a), 0, kind), np.sort(a, 0, kind))
    with pytest.raises(ValueError, match="kind must be"):
        ma.sort(ma.asarray(a), kind="bogo")
    with pytest.raises(ValueError, match="structured"):
        ma.sort(ma.asarray(a), order="x")


@settings(max_examples=60, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(["float32", "float64", "int64", "int16", "uint8", "complex128"]),
       decimals=st.integers(-3, 3))
def test_round_decimals_is_numpys(data: st.DataObject, dtype: str, decimals: int) -> None:
    if np.dtype(dtype).kind == "f":
        elements = st.floats(-1e6, 1e6, width=np.dtype(dtype).itemsize * 8)
    elif np.dtype(dtype).kind == "c":
        elements = st.complex_numbers(max_magnitude=1e6, allow_nan=False, allow_infinity=False)
    else:
        info = np.iinfo(dtype)
        elements = st.integers(max(info.min, -10**6), min(info.max, 10**6))
    a = data.draw(hnp.arrays(dtype, data.draw(hnp.array_shapes(max_dims=2, max_side=6)), elements=elements))
    same(ma.round(ma.asarray(a), decimals), np.round(a, decimals))


@pytest.mark.parametrize("order", ["C", "F", "A"])
@pytest.mark.parametrize("layout", ["c", "f", "strided"])
def test_reshape_order_is_numpys(order: str, layout: str) -> None:
    base = np.arange(24.0).reshape(4, 6)
    a = {"c": base, "f": np.asfortranarray(base), "strided": base[:, ::2]}[layout]
    x = {"c": ma.asarray(base), "f": ma.asarray(base).T.copy().T, "strided": ma.asarray(base)[:, ::2]}[layout]
    for shape in ((a.size,), (2, -1), (a.shape[1], a.shape[0])):
        same(x.reshape(shape, order=order), a.reshape(shape, order=order))  # type: ignore[call-overload]
        same(ma.reshape(x, shape, order=order), np.reshape(a, shape, order=order))  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="order must be"):
        ma.reshape(x, (a.size,), order="K")


def test_matmul_out() -> None:
    a, b = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
    out = ma.zeros((2, 4))
    assert ma.matmul(ma.asarray(a), ma.asarray(b), out=out) is out
    same(out, a @ b)
    out32 = ma.zeros((2, 4), dtype=ma.float32)
    same(ma.matmul(ma.asarray(a), ma.asarray(b), out=out32), (a @ b).astype(np.float32))
    with pytest.raises(ValueError, match="cannot hold"):
        ma.matmul(ma.asarray(a), ma.asarray(b), out=ma.zeros((4, 2)))
    with pytest.raises(TypeError, match="same_kind"):
        ma.matmul(ma.asarray(a), ma.asarray(b), out=ma.zeros((2, 4), dtype=ma.int64))


SCALARS = [0, 4, -2, 2.5, True, 1 + 1j]


@pytest.mark.parametrize("name", ["sqrt", "exp", "abs", "negative", "sin", "isnan", "floor"])
def test_unary_functions_take_python_scalars(name: str) -> None:
    for v in SCALARS:
        with np.errstate(all="ignore"):
            try:
                want = np_function(name)(v)
            except TypeError:
                with pytest.raises(TypeError):
                    getattr(ma, name)(v)
                continue
        with ma.errstate(all="ignore"):
            got = getattr(ma, name)(v)
        assert got.shape == ()
        np.testing.assert_allclose(np.asarray(got), want)
        assert np.asarray(got).dtype == np.asarray(want).dtype, (name, v)


def test_binary_functions_take_python_scalars() -> None:
    for a, b in itertools.product([1, 2.5, True], repeat=2):
        for name in ("add", "multiply", "maximum", "less"):
            want = getattr(np, name)(a, b)
            got = getattr(ma, name)(a, b)
            same(got, want)
