"""Hypothesis strategies and NumPy-oracle helpers shared by the foundation
tests (views, indexing, creation, manipulation, joining, casts, interop).

Arrays are built from NumPy values so that every test can do the same thing
to a NumPy array and to a minarray array and compare shapes, byte strides,
element values and which memory they use.
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np
from hypothesis import settings
from hypothesis import strategies as st

import minarray as ma

try:  # bfloat16 exists in NumPy only through ml_dtypes
    import ml_dtypes

    NP_BFLOAT16: Any = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover - optional dependency
    NP_BFLOAT16 = None

ALL_DTYPES: list[ma.DType] = [
    ma.bool, ma.int8, ma.int16, ma.int32, ma.int64, ma.uint8, ma.uint16, ma.uint32, ma.uint64,
    ma.float16, ma.bfloat16, ma.float32, ma.float64, ma.complex64, ma.complex128,
]
# dtypes NumPy itself has (no ml_dtypes needed)
NP_DTYPES: list[ma.DType] = [d for d in ALL_DTYPES if d is not ma.bfloat16]


# MINARRAY_FUZZ=N runs N times as many examples (for a long local run); the
# default keeps the suite quick on a small machine.
_FUZZ = max(1, int(os.environ.get("MINARRAY_FUZZ", "1")))


def examples(n: int) -> settings:
    """Hypothesis settings with ``n`` examples (times MINARRAY_FUZZ), no deadline."""
    return settings(max_examples=n * _FUZZ, deadline=None)


def np_dtype(d: ma.DType) -> Any:
    """The NumPy dtype equal to ``d`` (bfloat16 through ml_dtypes)."""
    if d is ma.bfloat16:
        if NP_BFLOAT16 is None:  # pragma: no cover
            raise RuntimeError("ml_dtypes is needed for bfloat16")
        return NP_BFLOAT16
    return np.dtype(d.name)


def dtypes(numpy_only: bool = False) -> st.SearchStrategy[ma.DType]:
    pool = NP_DTYPES if numpy_only or NP_BFLOAT16 is None else ALL_DTYPES
    return st.sampled_from(pool)


def shapes(min_dims: int = 0, max_dims: int = 6, min_side: int = 0, max_side: int = 5,
           max_size: int = 2000) -> st.SearchStrategy[tuple[int, ...]]:
    """Shapes from 0-d to ``max_dims``-d, zero-size ones included."""
    return st.lists(st.integers(min_side, max_side), min_size=min_dims, max_size=max_dims).map(
        tuple).filter(lambda s: math.prod(s) <= max_size)


def distinct_values(shape: tuple[int, ...], dtype: ma.DType) -> np.ndarray:
    """A C-contiguous NumPy array whose elements differ from their
    neighbours, so any layout mistake shows up as a value mismatch."""
    n = math.prod(shape)
    base = np.arange(n, dtype=np.int64)
    if dtype is ma.bool:
        vals = (base % 3 == 1)
    elif dtype.kind in "iu":
        vals = (base * 7 + 3) % (127 if dtype.bits == 8 else 1000)
        if dtype.kind == "i":
            vals = vals - (vals % 5 == 0) * vals * 2  # some negatives
    elif dtype.kind == "f":
        vals = (base % 200) * 0.5 - 20.25
    else:
        vals = (base % 200) * 0.5 + 1j * ((base % 7) - 3.0)
    out = np.empty(shape, dtype=np_dtype(dtype))  # canonical C strides, even for size 0
    out[...] = np.asarray(vals).astype(np_dtype(dtype)).reshape(shape)
    return out


def view_key(key: Any) -> Any:
    """``key`` with ``...`` appended when it has none: the same view, but
    never a scalar.  A key of integers alone reads one element as a scalar,
    a copy (NumPy's rule, minarray's too); with ``...`` it is a 0-d view."""
    k = key if isinstance(key, tuple) else (key,)
    return k if any(e is Ellipsis for e in k) else (*k, Ellipsis)


def np_view(arr: np.ndarray, key: Any) -> np.ndarray:
    """``arr[key]`` as NumPy computes it, but always an array (view_key)."""
    return arr[view_key(key)]


def to_ma(arr: np.ndarray) -> ma.NDArray:
    """A minarray array with its own (owned, C-contiguous) copy of ``arr``."""
    return ma.asarray(arr, copy=True)


def values_of(x: ma.NDArray) -> np.ndarray:
    """The elements of ``x`` as a NumPy array, read through tolist (so this
    does not depend on the array interface under test)."""
    return np.array(x.tolist(), dtype=np_dtype(x.dtype)).reshape(x.shape)


def assert_equal_values(actual: np.ndarray, expected: np.ndarray) -> None:
    assert actual.shape == expected.shape
    if actual.dtype.kind in "fc" or actual.dtype == NP_BFLOAT16:
        a = actual.astype(np.complex128)
        e = expected.astype(np.complex128)
        same = (a == e) | (np.isnan(a) & np.isnan(e))
        assert same.all(), f"values differ:\n{actual!r}\n{expected!r}"
    else:
        assert np.array_equal(actual, expected), f"values differ:\n{actual!r}\n{expected!r}"


def offset_in(x: ma.NDArray, owner: ma.NDArray) -> int:
    """Byte offset of x's element 0 from ``owner``'s element 0."""
    return x.data_ptr - owner.data_ptr


def np_offset(v: np.ndarray, owner: np.ndarray) -> int:
    return int(v.__array_interface__["data"][0] - owner.__array_interface__["data"][0])


def assert_like_numpy(x: ma.NDArray, expected: np.ndarray, *, check_strides: bool = True) -> None:
    """``x`` has NumPy's shape, dtype, byte strides and values."""
    assert isinstance(x, ma.NDArray)
    assert x.shape == expected.shape
    assert x.dtype == np_dtype(x.dtype)
    assert np_dtype(x.dtype) == expected.dtype, (x.dtype, expected.dtype)
    assert x.ndim == expected.ndim
    assert x.size == expected.size
    assert x.nbytes == expected.nbytes
    # Strides of an empty array, or of a length-1 axis, address nothing:
    # NumPy versions disagree on the first (2.4 reports zeros for fresh empty
    # arrays) and slicing keeps the second (basic_key in csrc/py/views.c).  Compare
    # the strides that move to another element.
    if check_strides and expected.size:
        got = [s for s, n in zip(x.strides, x.shape, strict=True) if n > 1]
        want = [s for s, n in zip(expected.strides, expected.shape, strict=True) if n > 1]
        assert got == want, (x.strides, expected.strides)
    assert_equal_values(values_of(x), expected)


def assert_view_like_numpy(x: ma.NDArray, owner: ma.NDArray, expected: np.ndarray, np_owner: np.ndarray) -> None:
    """Like assert_like_numpy, plus: x shares owner's memory at the same
    byte offset NumPy's view has from its owner."""
    assert_like_numpy(x, expected)
    if expected.size:
        assert offset_in(x, owner) == np_offset(expected, np_owner)
    assert x.base is owner or x.base is owner.base


@st.composite
def basic_index(draw: st.DrawFn, shape: tuple[int, ...]) -> Any:
    """A basic index for ``shape``: integers (negative too), slices with any
    start/stop/step (out of range too), ``...`` and ``None``."""
    entries: list[Any] = []
    dim = 0
    used_ellipsis = False
    limit = draw(st.integers(0, len(shape)))
    n_none = 0
    while dim < limit:
        choice = draw(st.integers(0, 9))
        if choice == 0 and n_none < 2:
            n_none += 1
            entries.append(None)
            continue
        if choice == 1 and not used_ellipsis:
            used_ellipsis = True
            entries.append(Ellipsis)
            # the ellipsis eats the axes between; the entries after it index
            # the last `remaining` axes
            remaining = draw(st.integers(0, limit - dim))
            dim, limit = len(shape) - remaining, len(shape)
            continue
        n = shape[dim]
        if choice <= 3 and n > 0:
            entries.append(draw(st.integers(-n, n - 1)))
        else:
            start = draw(st.none() | st.integers(-n - 2, n + 2))
            stop = draw(st.none() | st.integers(-n - 2, n + 2))
            step = draw(st.none() | st.integers(-3, 3).filter(lambda s: s != 0))
            entries.append(slice(start, stop, step))
        dim += 1
    if draw(st.booleans()):
        entries.append(None)
    if len(entries) == 1 and draw(st.booleans()):
        return entries[0]
    return tuple(entries)


@st.composite
def array_and_slice_chain(draw: st.DrawFn, max_steps: int = 3, numpy_only: bool = False) -> tuple[
        np.ndarray, list[Any]]:
    """A NumPy array and 1..max_steps basic indices applied one after another."""
    dtype = draw(dtypes(numpy_only=numpy_only))
    shape = draw(shapes())
    arr = distinct_values(shape, dtype)
    keys: list[Any] = []
    cur = arr
    for _ in range(draw(st.integers(1, max_steps))):
        key = draw(basic_index(cur.shape))
        keys.append(key)
        cur = np_view(cur, key)
    return arr, keys


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
