"""Creation functions (minarray/_creation.py) against NumPy:
empty/zeros/ones/full and their _like forms, arange, linspace, eye,
tril/triu, meshgrid and asarray; and NumPy's constructors (array, diag,
tri, logspace, geomspace, indices, mgrid/ogrid, vander...)."""

from __future__ import annotations

import array
import math
from typing import Any

import numpy as np
import pytest
from array_strategies import (
    ALL_DTYPES,
    NP_DTYPES,
    assert_equal_values,
    assert_like_numpy,
    distinct_values,
    dtypes,
    examples,
    np_dtype,
    shapes,
    to_ma,
    values_of,
)
from hypothesis import assume, given
from hypothesis import strategies as st
from numpy_errors import raises_as_numpy
from numpy_oracle import both, same

import minarray as ma

SETTINGS = examples(60)


# ---- empty / zeros / ones / full -----------------------------------------------

@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_fill_functions_every_dtype(dtype: ma.DType) -> None:
    for shape in [(), (0,), (3,), (2, 3), (2, 0, 4)]:
        z = ma.zeros(shape, dtype=dtype)
        o = ma.ones(shape, dtype=dtype)
        e = ma.empty(shape, dtype=dtype)
        f = ma.full(shape, 1, dtype=dtype)
        for a in (z, o, e, f):
            assert a.shape == shape and a.dtype is dtype and a.flags.c_contiguous and a.flags.writeable
            assert a.base is None and a.flags.owndata
        assert_equal_values(values_of(z), np.zeros(shape, np_dtype(dtype)))
        assert_equal_values(values_of(o), np.ones(shape, np_dtype(dtype)))
        assert_equal_values(values_of(f), np.ones(shape, np_dtype(dtype)))


def test_default_dtypes_and_full_inference() -> None:
    assert ma.zeros(3).dtype is ma.float64
    assert ma.ones(3).dtype is ma.float64
    assert ma.empty(3).dtype is ma.float64
    assert ma.full(3, 7).dtype is ma.int64
    assert ma.full(3, 7.5).dtype is ma.float64
    assert ma.full(3, True).dtype is ma.bool
    assert ma.full(3, 1 + 2j).dtype is ma.complex128
    assert ma.full((2, 2), 7.5, dtype=ma.float32).tolist() == [[7.5, 7.5], [7.5, 7.5]]
    assert ma.full(2, ma.asarray(3)).tolist() == [3, 3]
    assert ma.zeros(4).shape == (4,)
    assert ma.zeros([2, 3]).shape == (2, 3)
    assert ma.zeros(np.int64(3)).shape == (3,)
    assert ma.zeros((np.int32(2), 3)).shape == (2, 3)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_like_functions(dtype: ma.DType) -> None:
    x = ma.zeros((2, 3), dtype=ma.int16).T  # a Fortran-ordered source
    for fn in (ma.empty_like, ma.zeros_like, ma.ones_like):
        y = fn(x, dtype=dtype)
        # NumPy's default order="K" keeps the source's memory order
        assert y.shape == (3, 2) and y.dtype is dtype and y.flags.f_contiguous and not y.flags.c_contiguous
        assert fn(x, dtype=dtype, order="C").flags.c_contiguous
        assert fn(x).dtype is ma.int16
    assert ma.full_like(x, 5).tolist() == [[5, 5]] * 3
    assert ma.full_like(x, 2, dtype=dtype).dtype is dtype
    assert ma.ones_like(x).tolist() == [[1, 1]] * 3
    assert ma.zeros_like(x, device="cpu").tolist() == [[0, 0]] * 3


@pytest.mark.parametrize("fn", [ma.empty, ma.zeros, ma.ones])
def test_every_spelling_of_a_shape(fn: Any) -> None:
    # Plain ints and tuples of them take one C call; lists, NumPy integers,
    # dtype names and device="cpu" take the general path: same arrays.
    for shape, want in [(3, (3,)), ((2, 3), (2, 3)), ((), ()), ((0, 4), (0, 4)), ([2, 3], (2, 3)),
                        (np.int64(3), (3,)), ((np.int32(2), 3), (2, 3)), ((True, 2), (1, 2))]:
        for kwargs in [{}, {"dtype": ma.int16}, {"dtype": "int16"}, {"device": "cpu"}]:
            x = fn(shape, **kwargs)
            expected = np.empty(want, dtype=kwargs.get("dtype", "float64"))
            assert x.shape == want and type(x.shape) is tuple
            assert x.dtype == (ma.float64 if "dtype" not in kwargs else ma.int16)
            assert x.strides == expected.strides or x.size == 0
            if fn is not ma.empty:
                assert x.tolist() == np.full(want, 0 if fn is ma.zeros else 1).tolist()
    with pytest.raises(ValueError, match=r"shape \(4611686018427387904, 4\) and 8-byte items is too large"):
        fn((2**62, 4))


def test_creation_errors() -> None:
    with pytest.raises(ValueError, match="negative dimensions"):
        ma.zeros((2, -1))
    with pytest.raises(ValueError, match="negative dimensions"):
        ma.empty(-3)
    with pytest.raises(TypeError, match="shape entry must be an integer"):
        ma.zeros((2.5, 3))
    with pytest.raises(TypeError, match="shape entry must be an integer"):
        ma.ones("3")
    with pytest.raises(TypeError, match="unknown dtype 'float99'"):
        ma.zeros(3, dtype="float99")
    with pytest.raises(TypeError, match="no dtype 'float128' \\(extended precision\\)"):
        ma.zeros(3, dtype="float128")
    with pytest.raises(TypeError, match="cannot interpret"):
        ma.zeros(3, dtype=object())
    with pytest.raises(ValueError, match="device"):
        ma.zeros(3, device="cuda")
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        ma.full(3, 300, dtype=ma.int8)
    with pytest.raises(OverflowError, match="out of bounds for uint8"):
        ma.full(3, -1, dtype=ma.uint8)
    with pytest.raises(ValueError, match="NaN"):
        ma.full(3, math.nan, dtype=ma.int32)
    with pytest.raises(TypeError, match="complex"):
        ma.full(3, 1j, dtype=ma.float64)
    with pytest.raises(TypeError, match="str"):
        ma.full(3, "x")
    with pytest.raises(ValueError, match="64 bits"):
        ma.zeros(2**64)


# ---- arange / linspace ------------------------------------------------------------

def test_arange_basic() -> None:
    assert ma.arange(5).tolist() == [0, 1, 2, 3, 4]
    assert ma.arange(5).dtype is ma.int64
    assert ma.arange(2, 5).tolist() == [2, 3, 4]
    assert ma.arange(5, 0, -2).tolist() == [5, 3, 1]
    assert ma.arange(0.0, 1.0, 0.25).tolist() == [0.0, 0.25, 0.5, 0.75]
    assert ma.arange(0.0, 1.0, 0.25).dtype is ma.float64
    assert ma.arange(5, 2).shape == (0,)
    assert ma.arange(np.int64(3)).tolist() == [0, 1, 2]
    assert ma.arange(ma.asarray(3)).tolist() == [0, 1, 2]
    assert ma.arange(2, dtype=ma.bool).tolist() == [False, True]
    with pytest.raises(ValueError, match="zero"):
        ma.arange(0, 5, 0)
    with pytest.raises(TypeError, match="int or a float"):
        ma.arange(1j)
    with pytest.raises(TypeError, match="bool"):
        ma.arange(True)
    with pytest.raises(ValueError, match="finite"):
        ma.arange(0, math.inf)
    with pytest.raises(ValueError, match="bool"):
        ma.arange(3, dtype=ma.bool)


_numbers = st.one_of(st.integers(-50, 50), st.floats(-50, 50, allow_nan=False).map(lambda v: round(v, 3)))


@SETTINGS
@given(_numbers, _numbers, _numbers.filter(lambda v: abs(v) > 0.05),
       st.sampled_from([None, ma.int8, ma.int32, ma.int64, ma.uint16, ma.float16, ma.float32, ma.float64,
                        ma.complex64, ma.complex128]))
def test_arange_matches_numpy(start: Any, stop: Any, step: Any, dtype: ma.DType | None) -> None:
    try:
        expected = np.arange(start, stop, step, dtype=None if dtype is None else np_dtype(dtype))
    except OverflowError:  # e.g. a negative start for an unsigned dtype
        with pytest.raises(OverflowError):
            ma.arange(start, stop, step, dtype=dtype)
        return
    assume(expected.size < 5000)
    got = ma.arange(start, stop, step, dtype=dtype)
    assert_like_numpy(got, expected)


@SETTINGS
@given(_numbers, _numbers, st.integers(0, 40), st.booleans(),
       st.sampled_from([None, ma.int32, ma.int64, ma.float16, ma.float32, ma.float64, ma.complex128]))
def test_linspace_matches_numpy(start: Any, stop: Any, num: int, endpoint: bool, dtype: ma.DType | None) -> None:
    expected = np.linspace(start, stop, num, endpoint=endpoint, dtype=None if dtype is None else np_dtype(dtype))
    got = ma.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)
    assert_like_numpy(got, expected)


def test_linspace_complex_and_errors() -> None:
    got = ma.linspace(1j, 2 + 3j, 5)
    assert got.dtype is ma.complex128
    assert got.tolist() == np.linspace(1j, 2 + 3j, 5).tolist()
    assert ma.linspace(0, 1, 5, dtype=ma.complex64).tolist() == np.linspace(0, 1, 5, dtype=np.complex64).tolist()
    with pytest.raises(ValueError, match="non-negative"):
        ma.linspace(0, 1, -1)
    with pytest.raises(TypeError, match="complex dtype"):
        ma.linspace(0, 1j, 3, dtype=ma.float64)
    with pytest.raises(TypeError):
        ma.linspace(0, 1, 2.5)  # type: ignore[arg-type]
    assert ma.linspace(2, 5, 1).tolist() == [2.0]
    assert ma.linspace(2, 5, 0).tolist() == []


# ---- eye / tril / triu / meshgrid ---------------------------------------------------

@SETTINGS
@given(st.integers(0, 6), st.none() | st.integers(0, 6), st.integers(-7, 7), dtypes(numpy_only=True))
def test_eye_matches_numpy(n: int, m: int | None, k: int, dtype: ma.DType) -> None:
    assert_like_numpy(ma.eye(n, m, k=k, dtype=dtype), np.eye(n, m, k=k, dtype=np_dtype(dtype)))


def test_eye_default_dtype() -> None:
    assert ma.eye(3).dtype is ma.float64
    assert ma.eye(2).tolist() == [[1.0, 0.0], [0.0, 1.0]]


@SETTINGS
@given(dtypes(), shapes(min_dims=2, max_dims=4, max_side=5), st.integers(-6, 6), st.booleans())
def test_tril_triu_match_numpy(dtype: ma.DType, shape: tuple[int, ...], k: int, transpose: bool) -> None:
    arr = distinct_values(shape, dtype)
    x = to_ma(arr)
    if transpose:  # a non-contiguous input
        x, arr = ma.matrix_transpose(x), np.swapaxes(arr, -1, -2)
    assert_like_numpy(ma.tril(x, k=k), np.tril(arr, k=k), check_strides=False)
    assert_like_numpy(ma.triu(x, k=k), np.triu(arr, k=k), check_strides=False)
    # the input is untouched
    assert_equal_values(values_of(x), arr)


def test_tril_errors() -> None:
    with pytest.raises(ValueError, match="2 dimensions"):
        ma.tril(ma.zeros(3))
    with pytest.raises(ValueError, match="2 dimensions"):
        ma.triu(ma.zeros(()))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sizes", [(), (3,), (3, 4), (2, 3, 4), (0, 2)])
def test_meshgrid_matches_numpy(indexing: str, sizes: tuple[int, ...]) -> None:
    arrays = [np.arange(n, dtype=np.float32) * (i + 1) for i, n in enumerate(sizes)]
    got = ma.meshgrid(*[to_ma(a) for a in arrays], indexing=indexing)
    expected = np.meshgrid(*arrays, indexing=indexing)
    assert isinstance(got, tuple) and len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert_like_numpy(g, e, check_strides=False)


def test_meshgrid_errors() -> None:
    with pytest.raises(ValueError, match="'xy' or 'ij'"):
        ma.meshgrid(ma.zeros(2), indexing="yx")
    # inputs of other shapes are flattened, as NumPy's meshgrid does
    for got, want in zip(ma.meshgrid(ma.zeros((2, 2)), 3.0), np.meshgrid(np.zeros((2, 2)), 3.0), strict=True):
        np.testing.assert_array_equal(np.asarray(got), want)


# ---- asarray ----------------------------------------------------------------------

@pytest.mark.parametrize(
    "value",
    [0, -5, 2**62, 2**63, 2**64 - 1, 1.5, -0.0, math.inf, 1 + 2j, True, False,
     [], [[]], [[], []], [1, 2, 3], [True, False], [True, 2], [1, 2.5], [1, 2j], [[1, 2], [3, 4]],
     ((1, 2), (3, 4)), [(1, 2), [3, 4]], [[[1.5]]], [1, 2**63], [2**63, 2**63 + 1], [-1, 2**63],
     [math.nan, math.inf], [[1, 2]] * 3],
    ids=repr,
)
def test_asarray_python_values_match_numpy(value: Any) -> None:
    expected = np.asarray(value)
    got = ma.asarray(value)
    assert_like_numpy(got, expected)
    assert got.base is None and got.flags.writeable


@pytest.mark.parametrize("dtype", NP_DTYPES, ids=str)
def test_asarray_with_dtype_matches_numpy(dtype: ma.DType) -> None:
    for value in ([0, 1, 2], [[1, 0], [0, 1]], [True, False], 7, 0.0, [0.5, 2.0, 3.75], [-2.5]):
        try:
            expected = np.asarray(value, dtype=np_dtype(dtype))
        except OverflowError:
            with pytest.raises(OverflowError):
                ma.asarray(value, dtype=dtype)
            continue
        assert_like_numpy(ma.asarray(value, dtype=dtype), expected)
    assert ma.asarray([1, 2], dtype=dtype.name).dtype is dtype
    assert ma.asarray([1, 2], dtype=np_dtype(dtype)).dtype is dtype


def test_asarray_numpy_scalars_and_mixed_nesting() -> None:
    cases = [
        [np.float32(1.5), 2],
        [np.float32(1.5), np.float32(2.5)],
        [np.int8(1), 2],
        [np.int8(1), np.int8(2)],
        [np.float16(1), 1j],
        [np.bool_(True), np.bool_(False)],
        [np.arange(3), np.arange(3.0)],
        [[np.int16(1), np.int16(2)], [np.int16(3), np.int16(4)]],
        np.float32(3.5),
        np.int64(-7),
        np.bool_(True),
        np.uint64(2**64 - 1),
    ]
    for value in cases:
        assert_like_numpy(ma.asarray(value), np.asarray(value))
    got = ma.asarray([ma.arange(3, dtype=ma.int8), ma.zeros(3, dtype=ma.int8)])
    assert got.dtype is ma.int8 and got.tolist() == [[0, 1, 2], [0, 0, 0]]
    got = ma.asarray([ma.asarray(1.5, dtype=ma.float32), 2.5])
    assert got.dtype is ma.float64 and got.tolist() == [1.5, 2.5]
    got = ma.asarray([[ma.asarray([1, 2])], [np.array([3, 4])]])
    assert got.shape == (2, 1, 2) and got.tolist() == [[[1, 2]], [[3, 4]]]
    s = ma.asarray(np.float32(3.5))
    assert s.flags.writeable and s.base is None
    s[...] = 1.0
    assert s.item() == 1.0


# Nested sequences: every shape and leaf mix, compared with np.asarray (one
# C walk, csrc/py/nested.c, settles each of them).
NESTED: dict[str, Any] = {
    "flat ints": [1, 2, 3],
    "2-d": [[1, 2], [3, 4]],
    "tuples": ((1, 2), (3, 4)),
    "mixed list/tuple": [(1, 2), [3, 4]],
    "3-d": [[[1], [2]], [[3], [4]]],
    "empty": [],
    "empty rows": [[], []],
    "empty deep": [[[]]],
    "bool": [True, False],
    "bool+int": [True, 2],
    "int+float": [1, 2.5],
    "bool+float": [False, 2.5],
    "int+complex": [1, 2j],
    "float+complex nested": [[1.5], [2j]],
    "uint64 range": [2**63, 2**64 - 1],
    "int64 min": [-(2**63), 1],
    "int64 and uint64": [2**63, 1],
    "numpy float32": [np.float32(1), np.float32(2)],
    "numpy float32+float": [np.float32(1), 2.0],
    "numpy int8+int": [np.int8(1), 300],
    "numpy bool+bool": [np.True_, False],
    "arrays": [np.arange(2), np.arange(2)],
    "arrays int8+list": [np.arange(2, dtype=np.int8), [1, 2]],
    "0-d array+float": [np.array(1.5), 2],
    "arrays deep": [[np.ones(2)], [np.zeros(2)]],
    "array+nested list": [np.ones((2, 2)), [[1, 2], [3, 4]]],
    "ragged lengths": [[1, 2], [3]],
    "ragged depth": [1, [2]],
    "ragged deep": [[1, 2], [3, [4]]],
    "ragged empty first": [[], [1]],
    "ragged empty last": [[1], []],
    "ragged scalar after deep": [[[1]], [2]],
    "ragged list after scalar": [[1, 2], 3],
    "ragged arrays": [np.zeros(2), np.zeros(3)],
    "ragged tuple": (1, (2,)),
}


@pytest.mark.parametrize("name", sorted(NESTED))
def test_asarray_nested_like_numpy(name: str) -> None:
    obj = NESTED[name]
    try:
        want = np.asarray(obj)
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            ma.asarray(obj)
        assert str(got.value) == str(e)  # NumPy 2's inhomogeneous-shape message, word for word
        return
    assert_like_numpy(ma.asarray(obj), want)


@pytest.mark.parametrize("value", [2**64, -(2**63) - 1, [1, 2**64], [[2**70]]], ids=str)
def test_asarray_int_beyond_64_bits(value: Any) -> None:
    """NumPy makes an object array; minarray has none: OverflowError, as
    NumPy's for such an int stored in int64."""
    with pytest.raises(OverflowError, match="does not fit in 64 bits"):
        ma.asarray(value)
    with pytest.raises(OverflowError):
        np.asarray(value, dtype=np.int64)


def test_asarray_errors() -> None:
    with pytest.raises(TypeError, match="str"):
        ma.asarray("abc")
    with pytest.raises(TypeError, match="str"):
        ma.asarray([1, "a"])
    with pytest.raises(TypeError, match="NoneType"):
        ma.asarray([1, None])
    with pytest.raises(TypeError, match="NoneType"):
        ma.asarray(None)
    with pytest.raises(TypeError, match="object"):
        ma.asarray(object())
    with pytest.raises(TypeError, match="unknown dtype"):
        ma.asarray([1], dtype="nope")
    with pytest.raises(OverflowError, match="64 bits"):
        ma.asarray([2**64])
    with pytest.raises(OverflowError, match="64 bits"):
        ma.asarray(-(2**63) - 1)
    assert ma.asarray([2**64], dtype=ma.float64).tolist() == [2.0**64]
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        ma.asarray([1, 300], dtype=ma.int8)
    with pytest.raises(OverflowError, match="out of bounds for uint32"):
        ma.asarray([-1], dtype=ma.uint32)
    with pytest.raises(ValueError, match="NaN"):
        ma.asarray([math.nan], dtype=ma.int64)
    with pytest.raises(OverflowError, match="infinity"):
        ma.asarray([math.inf], dtype=ma.int64)
    with pytest.raises(OverflowError, match="out of bounds for int32"):
        ma.asarray([3e9], dtype=ma.int32)
    with pytest.raises(TypeError, match="complex"):
        ma.asarray([1j], dtype=ma.float32)
    assert ma.asarray([1j, 0], dtype=ma.bool).tolist() == [True, False]
    assert ma.asarray([2.9, -2.9], dtype=ma.int8).tolist() == [2, -2]
    deep: Any = 1
    for _ in range(70):
        deep = [deep]
    with pytest.raises(ValueError, match="deeper"):
        ma.asarray(deep)


def test_asarray_python_float_to_int_like_numpy() -> None:
    for v, d in [(1.5, np.uint8), (-1.5, np.int8), (2.9, np.int64), (127.9, np.int8)]:
        assert ma.asarray([v], dtype=d).tolist() == np.asarray([v], dtype=d).tolist()


def test_asarray_copy_semantics() -> None:
    x = ma.arange(6)
    assert ma.asarray(x) is x
    assert ma.asarray(x, copy=False) is x
    c = ma.asarray(x, copy=True)
    assert c is not x and c.tolist() == x.tolist() and c.base is None
    assert ma.asarray(x, dtype=ma.int64, copy=False) is x
    with pytest.raises(ValueError, match="copy=False"):
        ma.asarray(x, dtype=ma.float32, copy=False)
    f = ma.asarray(x, dtype=ma.float32)
    assert f.dtype is ma.float32 and f.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    with pytest.raises(ValueError, match="copy=False"):
        ma.asarray([1, 2], copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        ma.asarray(3, copy=False)
    assert ma.asarray([1, 2], copy=True).tolist() == [1, 2]


@pytest.mark.parametrize("layout", ["contiguous", "strided"])
def test_asarray_copies_unaligned_numpy_data(layout: str) -> None:
    # minarray's kernels need elements aligned to their size; an unaligned
    # NumPy array (a view at an odd byte offset) is copied, unless copy=False
    raw = np.zeros(8 * 10 + 1, dtype=np.uint8)
    u = raw[1:].view(np.float64)
    u[:] = np.arange(10)
    if layout == "strided":
        u = u[::2]
    assert not u.flags.aligned
    for copy in (None, True):
        x = ma.asarray(u, copy=copy)
        assert x.tolist() == u.tolist() and x.data_ptr % 8 == 0
        assert ma.asarray(u, dtype=ma.float32, copy=copy).tolist() == u.tolist()
    with pytest.raises(ValueError, match=r"not aligned to its 8-byte elements.*copy=False"):
        ma.asarray(u, copy=False)
    with pytest.raises(BufferError, match="not aligned"):
        ma.from_numpy(u)


def test_asarray_numpy_zero_copy() -> None:
    n = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = ma.asarray(n)
    assert x.data_ptr == n.ctypes.data and x.base is n
    assert x.strides == n.strides and x.dtype is ma.float32
    n[0, 0] = 42
    assert x[0, 0].item() == 42
    t = ma.asarray(n.T)
    assert t.data_ptr == n.ctypes.data and t.strides == n.T.strides
    s = ma.asarray(n[::2, ::-1])
    assert s.data_ptr == n[::2, ::-1].__array_interface__["data"][0]
    assert s.strides == n[::2, ::-1].strides and s.tolist() == n[::2, ::-1].tolist()
    # copy=False works exactly when no copy is needed
    assert ma.asarray(n, copy=False).data_ptr == n.ctypes.data
    with pytest.raises(ValueError, match="copy=False"):
        ma.asarray(n, dtype=ma.float64, copy=False)
    c = ma.asarray(n, copy=True)
    assert c.data_ptr != n.ctypes.data and c.tolist() == n.tolist()
    # read-only NumPy arrays stay read-only
    r = np.arange(3)
    r.flags.writeable = False
    xr = ma.asarray(r)
    assert not xr.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        xr[0] = 1
    # byte strides that are not whole elements: a copy (or an error with copy=False)
    packed = np.zeros(4, dtype=[("a", np.int8), ("b", np.int32)])["b"]
    assert ma.asarray(packed).tolist() == [0, 0, 0, 0]
    with pytest.raises(ValueError, match="copy=False"):
        ma.asarray(packed, copy=False)


def test_asarray_keeps_numpy_source_alive() -> None:
    n = np.arange(1000, dtype=np.int64)
    before = ma.allocator_stats()["live_foreign"]
    x = ma.asarray(n)
    assert ma.allocator_stats()["live_foreign"] == before + 1
    del n
    assert x[999].item() == 999 and x.base is not None
    del x
    assert ma.allocator_stats()["live_foreign"] == before


def test_asarray_buffer_protocol() -> None:
    b = bytearray(b"\x01\x02\x03\x04")
    x = ma.asarray(b)
    assert x.dtype is ma.uint8 and x.tolist() == [1, 2, 3, 4] and x.flags.writeable
    x[0] = 9
    assert b[0] == 9
    assert x.base is b
    ro = ma.asarray(b"\x05\x06")
    assert not ro.flags.writeable and ro.tolist() == [5, 6]
    arr = array.array("d", [1.5, 2.5])
    xa = ma.asarray(arr)
    assert xa.dtype is ma.float64 and xa.tolist() == [1.5, 2.5]
    assert xa.data_ptr == arr.buffer_info()[0]
    m = memoryview(bytearray(12)).cast("i", (3,))
    assert ma.asarray(m).dtype is ma.int32 and ma.asarray(m).shape == (3,)
    m2 = memoryview(bytearray(24)).cast("h", (3, 4))
    xm = ma.asarray(m2)
    assert xm.shape == (3, 4) and xm.strides == (8, 2)
    assert ma.asarray(b, dtype=ma.int16).tolist() == [9, 2, 3, 4]  # a cast, not a reinterpretation
    c = ma.asarray(bytearray(b"\x01"), copy=True)
    assert c.base is None


def test_buffer_export_released_when_views_die() -> None:
    b = bytearray(16)
    x = ma.asarray(b)
    v = x[2:]
    del x
    with pytest.raises(BufferError):
        b.append(1)  # still exported: the view holds the buffer
    del v
    b.append(1)  # released exactly when the last view went


@SETTINGS
@given(dtypes(numpy_only=True), shapes(max_dims=4))
def test_asarray_roundtrip_through_lists(dtype: ma.DType, shape: tuple[int, ...]) -> None:
    arr = distinct_values(shape, dtype)
    if arr.size:  # an empty array's list loses its inner dimensions
        assert_like_numpy(ma.asarray(arr.tolist(), dtype=dtype), arr)
    assert_like_numpy(ma.asarray(arr), arr)
    assert_like_numpy(ma.asarray(arr, copy=True), arr)


# ---- sizes past int64: refused before any allocation, as NumPy ------------------------

# call(module), and what minarray's message must say
SIZES_TOO_LARGE = {
    "indices 2**40 x 2**40": (lambda m: m.indices((2**40, 2**40)), "too large"),
    "indices empty but huge": (lambda m: m.indices((2**62, 0, 2**62)), "too large"),
    "indices entry past int64": (lambda m: m.indices((2**63,)), "does not fit in 64 bits"),
    "linspace num 2**62": (lambda m: m.linspace(0, 1, 2**62), "too large"),
    "linspace num 2**64": (lambda m: m.linspace(0, 1, 2**64), "does not fit in 64 bits"),
    "logspace num 2**62": (lambda m: m.logspace(0, 1, 2**62), "too large"),
    "geomspace num 2**62": (lambda m: m.geomspace(1, 2, 2**62), "too large"),
    "arange 2**62": (lambda m: m.arange(0, 2**62), "too large"),
    "arange span past int64": (lambda m: m.arange(-(2**63), 2**63 - 1, 1), "does not fit in 64 bits"),
    "arange float 1e30": (lambda m: m.arange(0.0, 1e30), "does not fit in 64 bits"),
    "eye 2**40": (lambda m: m.eye(2**40), "too large"),
    "eye 2**63": (lambda m: m.eye(2**63), "does not fit in 64 bits"),
    "identity 2**40": (lambda m: m.identity(2**40), "too large"),
    "vander N 2**62": (lambda m: m.vander(m.ones(2), 2**62), "too large"),
    "vander empty N 2**62": (lambda m: m.vander(m.ones(0), 2**62), "too large"),
    "diag k 2**62": (lambda m: m.diag(m.ones(2), k=2**62), "too large"),
    "full (2**62, 4)": (lambda m: m.full((2**62, 4), 1.0), "too large"),
    "tri k past int64": (lambda m: m.tri(3, k=2**70), "too big|too large"),
}


@pytest.mark.parametrize("case", SIZES_TOO_LARGE.values(), ids=SIZES_TOO_LARGE.keys())
def test_sizes_past_int64_raise_as_numpy(case: tuple[Any, str]) -> None:
    call, match = case
    raises_as_numpy(call, match)


# NumPy answers these by accident (an empty array for arange(2**63) and
# tri(2**63), IndexError from linspace's num 2**63): minarray refuses the
# shape, as NumPy does one dimension lower.
SIZES_NUMPY_MISREADS = {
    "arange 2**63": lambda: ma.arange(2**63),
    "linspace num 2**63": lambda: ma.linspace(0, 1, 2**63),
    "tri 2**63": lambda: ma.tri(2**63),
    "tril_indices 2**63": lambda: ma.tril_indices(2**63),
    "diag_indices 2**63": lambda: ma.diag_indices(2**63),
}


@pytest.mark.parametrize("call", SIZES_NUMPY_MISREADS.values(), ids=SIZES_NUMPY_MISREADS.keys())
def test_sizes_numpy_misreads_are_value_errors(call: Any) -> None:
    with pytest.raises(ValueError, match="does not fit in 64 bits"):
        call()


@pytest.mark.parametrize("k", [2**63 - 1, 2**62, -(2**62)], ids=["2**63-1", "2**62", "-2**62"])
def test_triangles_with_far_diagonals_match_numpy(k: int) -> None:
    """A diagonal offset near int64's limits overflowed i + k + 1 in the C
    kernel: tril(x, k=2**63 - 1) zeroed the whole matrix."""
    a = np.arange(1.0, 13.0).reshape(3, 4)
    np.testing.assert_array_equal(np.asarray(ma.tril(ma.asarray(a), k=k)), np.tril(a, k))
    np.testing.assert_array_equal(np.asarray(ma.triu(ma.asarray(a), k=k)), np.triu(a, k))
    np.testing.assert_array_equal(np.asarray(ma.tri(3, 4, k)), np.tri(3, 4, k))
    for got, want in ((ma.tril_indices(3, k, 4), np.tril_indices(3, k, 4)),
                      (ma.triu_indices(3, k, 4), np.triu_indices(3, k, 4))):
        np.testing.assert_array_equal(np.asarray(got[0]), want[0])
        np.testing.assert_array_equal(np.asarray(got[1]), want[1])


@pytest.mark.parametrize("k", [-(2**63), -(2**63) + 4], ids=["-2**63", "-2**63+4"])
def test_triangles_with_the_lowest_diagonals(k: int) -> None:
    """Below every row: tril keeps nothing, triu everything (NumPy raises
    OverflowError for -2**63 and, overflowing, drops a row of triu for
    -2**63 + 4)."""
    a = ma.asarray(np.arange(1.0, 13.0).reshape(3, 4))
    assert float(ma.sum(ma.tril(a, k=k))) == 0.0
    np.testing.assert_array_equal(np.asarray(ma.triu(a, k=k)), np.asarray(a))


# ---- NumPy's constructors ----------------------------------------------------------------

def test_constructors_match_numpy() -> None:
    same(ma.array([[1, 2], [3, 4]], ma.float32, ndmin=4), np.array([[1, 2], [3, 4]], np.float32, ndmin=4))
    x = ma.arange(3)
    assert ma.array(x) is not x and ma.array(x, copy=None) is x
    for k in (-2, 0, 1):
        for v in (np.arange(3), np.arange(12).reshape(3, 4), np.arange(12.0).reshape(4, 3)):
            got, expected = both("diag", v, k)
            same(got, expected)
        got, expected = both("tri", 3, 5, k, np.int8)
        same(got, expected)
        got, expected = both("diagflat", np.arange(4).reshape(2, 2), k)
        same(got, expected)
    for args in ((0, 2, 5), (-1, 1, 4, False), (2, 3, 3, True, 2.0)):
        got, expected = both("logspace", *args)
        same(got, expected, ulps=4)
    for args in ((1, 1000, 4), (-1, -1e4, 5), (2, 5, 7, False)):
        got, expected = both("geomspace", *args)
        same(got, expected, ulps=4)
    same(ma.identity(3, ma.int8), np.identity(3, np.int8))
    same(ma.indices((3, 1, 2), ma.int32), np.indices((3, 1, 2), np.int32))
    same(ma.fromfunction(lambda i, j: i - j, (3, 2), dtype=ma.int16),
         np.fromfunction(lambda i, j: i - j, (3, 2), dtype=np.int16))
    for key in (np.s_[0:4, 1:3], np.s_[-1:1:5j, 0:3], np.s_[0:2:0.5], np.s_[0:1:4j]):
        same(ma.mgrid[key], np.mgrid[key])
    same(ma.ogrid[0:3, 0:4:2], np.ogrid[0:3, 0:4:2])
    t = ma.asarray(np.arange(12.0).reshape(3, 4)).T
    same(ma.copy(t).strides, np.copy(np.arange(12.0).reshape(3, 4).T).strides)


@pytest.mark.parametrize("dtype", ["float32", "float16", "int8", "uint64", "bool", "complex64", "float64", "int64"])
def test_vander_dtype_as_numpy(dtype: str) -> None:
    x = np.array([1, 2, 3]).astype(dtype)
    got, expected = both("vander", x, 4)
    same(got, expected)


def test_more_constructors_and_editing_match_numpy() -> None:
    for x, kw in (([1, 2, 3], {}), (np.array([1.5, -2.0]), {"N": 4, "increasing": True}), (np.arange(4), {"N": 0})):
        got, expected = both("vander", x, **kw)
        same(got, expected)
    buf = np.arange(10, dtype=np.int32).tobytes()
    for kw in ({"dtype": np.int32}, {"dtype": np.int16, "count": 3, "offset": 4}, {"dtype": np.uint8}):
        ma_kw = {k: getattr(ma, np.dtype(v).name) if k == "dtype" else v for k, v in kw.items()}
        same(ma.frombuffer(buf, **ma_kw), np.frombuffer(buf, **kw))
    assert not ma.frombuffer(buf, dtype=ma.int32).flags.writeable
    same(ma.fromiter((i * i for i in range(6)), dtype=ma.int64, count=4),
         np.fromiter((i * i for i in range(6)), dtype=np.int64, count=4))
    for shape in ((2, 4), 7, (0,), (3, 0)):
        got, expected = both("resize", np.arange(5), shape)
        same(got, expected)
    for trim in ("fb", "f", "b"):
        got, expected = both("trim_zeros", np.array([0, 0, 1, 0, 2, 0]), trim)
        same(got, expected)
    same(ma.trim_zeros(ma.zeros(3)), np.trim_zeros(np.zeros(3)))
    choices = [np.arange(4), np.arange(4) * 10, -np.arange(4)]
    for mode, idx in (("raise", [2, 0, 1, 1]), ("wrap", [5, -1, 3, 0]), ("clip", [5, -1, 3, 0])):
        got, expected = both("choose", np.array(idx), choices, mode=mode)
        same(got, expected)
    got, expected = both("choose", np.array([[0], [1]]), choices)
    same(got, expected)


@pytest.mark.parametrize("fn", ["tril", "triu"])
@pytest.mark.parametrize("k", [-1, 0, 2])
def test_tril_triu_take_k_by_position_and_nested_lists(fn: str, k: int) -> None:
    nested = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]
    same(getattr(ma, fn)(nested, k), getattr(np, fn)(nested, k))
    same(getattr(ma, fn)(nested, k=k), getattr(np, fn)(nested, k=k))
# ---- NumPy's call signatures: positional dtype, order=, array fill values ----

CREATION_CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("zeros", (3, int), {}), ("ones", ((2, 2), int), {}), ("empty", ((0, 2), np.float32), {}),
    ("full", ((2, 2), [1, 2]), {}), ("full", ((2, 3), [[1], [2]], float), {}), ("full", (3, np.float32(1.5)), {}),
    ("full", (2, np.array(7, dtype=np.int8)), {}), ("full", ((2, 2), [1.5, 2]), {"dtype": np.int16}),
    ("zeros_like", (np.ones((2, 3)), int), {}), ("ones_like", (np.ones(3), None, "C", True, (2, 2)), {}),
    ("full_like", (np.zeros((2, 3), np.uint8), [0, 0, 255]), {}), ("full_like", (np.zeros(3), 7, int), {}),
    ("full_like", (np.zeros(3),), {"fill_value": 1.5, "shape": (2, 1)}),
    ("eye", (3, 4, 1, int), {}), ("eye", (2, None, -1), {}), ("eye", (3,), {"M": 4, "k": 1}),
    ("eye", (), {"N": 2, "dtype": int}), ("identity", (3, int), {}),
    ("linspace", (), {"start": -10, "stop": 10, "num": 5}), ("linspace", (0, 1, 4, False), {}),
    ("linspace", ([0.0, 1.0], [1.0, 3.0], 5), {}), ("linspace", ([0.0, 1.0], [1.0, 3.0], 5), {"axis": 1}),
    ("linspace", ([[0.0], [1.0]], [1.0, 3.0], 3), {"axis": -1}), ("linspace", ([0, 1], [10, 13], 4), {"dtype": int}),
    ("linspace", ([1.0, 1.0], [1.0, 2.0], 3), {}), ("linspace", ([0j, 1], [1j, 2], 3), {}),
    ("linspace", ([0.0, 1.0], 2.0, 4, False, True), {}), ("linspace", (0.0, 1.0, 5), {"axis": -1}),
    ("logspace", (2.0, 3.0), {"num": 4, "base": [2.0, 3.0], "axis": -1}),
    ("logspace", (2.0, 3.0, 4, True, [2.0, 3.0]), {}), ("logspace", ([1.0, 2.0], 3.0, 3), {}),
    ("logspace", (0.0, [1.0, 2.0], 3, False, 2.0, None, 1), {}), ("logspace", (1.0, 2.0, 3), {"axis": -1}),
    ("geomspace", (1j, 1000j), {"num": 4}), ("geomspace", (-1 + 0j, 1 + 0j), {"num": 5}),
    ("geomspace", (1 + 1j, 1000 + 1000j, 4), {}), ("geomspace", (1j, 10j, 3, False), {}),
    ("geomspace", (1, 1000, 4, True, None, 0), {}),
    ("indices", ((2, 3),), {"sparse": True}), ("indices", ((2, 1, 3), np.int32, True), {}),
    ("asarray", ([1, 2], float), {}), ("asarray", ([[1, 2]], np.float32, "F"), {}),
    ("asanyarray", ([1.5], int), {}), ("array", ([[1, 2], [3, 4]], np.int8), {"order": "F"}),
]


@pytest.mark.parametrize(("fn", "args", "kwargs"), CREATION_CALLS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CREATION_CALLS)])
def test_numpy_creation_signatures(fn: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    got, expected = both(fn, *args, **kwargs)
    if fn == "empty":
        got, expected = ma.zeros_like(got), np.zeros_like(expected)  # the contents are undefined
    same(got, expected, ulps=2)


@pytest.mark.parametrize("fn", ["zeros", "ones", "empty", "full", "eye", "asarray", "array"])
@pytest.mark.parametrize("order", ["C", "F"])
def test_order_gives_numpy_layout(fn: str, order: str) -> None:
    def make(m: Any) -> Any:
        if fn == "full":
            return m.full((2, 3), 4.0, None, order)
        if fn == "eye":
            return m.eye(2, 3, 0, None, order)
        if fn in ("asarray", "array"):
            return getattr(m, fn)([[1, 2, 3], [4, 5, 6]], order=order)
        return getattr(m, fn)((2, 3), float, order)
    got, expected = make(ma), make(np)
    assert (got.flags.c_contiguous, got.flags.f_contiguous) == (expected.flags.c_contiguous,
                                                                expected.flags.f_contiguous)
    assert got.strides == expected.strides
    if fn != "empty":
        same(got, expected)


@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
@pytest.mark.parametrize("fn", ["empty_like", "zeros_like", "ones_like"])
def test_like_order(fn: str, order: str) -> None:
    src = np.zeros((2, 3), np.int16).T
    got = getattr(ma, fn)(ma.asarray(src), order=order)
    expected = getattr(np, fn)(src, order=order)
    assert got.strides == expected.strides and got.dtype == expected.dtype


def test_ascontiguousarray_example() -> None:
    # NumPy's docstring example of ascontiguousarray
    x = ma.ones((2, 3), order="F")
    assert x.flags["F_CONTIGUOUS"]
    y = ma.ascontiguousarray(x)
    assert y.flags["C_CONTIGUOUS"] and y.tolist() == x.tolist()


def test_meshgrid_sparse_and_copy() -> None:
    x, y = np.linspace(0, 1, 3), np.linspace(0, 1, 2)
    for kwargs in ({"sparse": True}, {"sparse": True, "indexing": "ij"}, {"copy": False}, {"copy": False,
                                                                                            "sparse": True}):
        got, expected = both("meshgrid", x, y, **kwargs)
        same(list(got), list(expected))
    xv, _ = ma.meshgrid(ma.asarray(x), ma.asarray(y), copy=False)
    assert not xv.flags.writeable  # broadcast views, read-only as NumPy's
    z = ma.meshgrid(ma.asarray(x), ma.asarray(y), sparse=True)
    z[0][0, 0] = 9.0  # copies: the input is untouched
    assert float(x[0]) == 0.0


@pytest.mark.parametrize(("call", "match"), [
    (lambda m: m.zeros(3, order="K"), "order"),
    (lambda m: m.ones((2, 2), order="X"), "order"),
    (lambda m: m.asarray([1, 2], order="Q"), "order"),
    (lambda m: m.full((2, 2), [1, 2, 3]), "broadcast"),
    (lambda m: m.logspace(1.0, 2.0, 3, axis=1), "axis"),
    (lambda m: m.linspace(0.0, 1.0, 3, axis=1), "axis"), (lambda m: m.linspace([0.0], [1.0], -1), "negative"),
    (lambda m: m.logspace([1.0, 2.0], 2.0, 3, axis=3), "axis"),
    (lambda m: m.geomspace(0j, 1j, 3), "zero"),
    (lambda m: m.ndarray((4,), buffer=np.arange(3.0)), "too small"),
    (lambda m: m.ndarray((2,), buffer=np.arange(6.0), strides=(48,)), "strides"),
], ids=["zeros-K", "ones-X", "asarray-Q", "full-mismatch", "logspace-axis", "linspace-axis", "linspace-num",
        "logspace-array-axis",
        "geomspace-zero", "ndarray-small", "ndarray-strides"])
def test_numpy_creation_errors(call: Any, match: str) -> None:
    raises_as_numpy(call, match)


def test_ndarray_constructor() -> None:
    # NumPy's docstring examples of ndarray: an uninitialised Fortran array,
    # and a view of a buffer from a byte offset on
    u = ma.ndarray(shape=(2, 2), dtype=float, order="F")
    assert u.shape == (2, 2) and u.dtype is ma.float64 and u.flags.f_contiguous
    buf = np.array([1, 2, 3])
    got = ma.ndarray((2,), buffer=buf, offset=np.int_().itemsize, dtype=int)
    same(got, np.ndarray((2,), buffer=buf, offset=np.int_().itemsize, dtype=int))
    got[0] = 20  # a view: the buffer sees the write
    assert buf.tolist() == [1, 20, 3]
    strided = np.arange(8.0)
    same(ma.ndarray((2, 2), buffer=strided, strides=(32, 8)), np.ndarray((2, 2), buffer=strided, strides=(32, 8)))
    same(ma.ndarray((3,), np.uint8, bytearray(b"abc")), np.ndarray((3,), np.uint8, bytearray(b"abc")))
    assert not ma.ndarray((2,), np.uint8, b"ab").flags.writeable
    # strides= without a buffer: NumPy's allocation of prod(shape) elements
    assert ma.ndarray((2, 3), strides=(8, 16)).strides == np.ndarray((2, 3), strides=(8, 16)).strides
    raises_as_numpy(lambda m: m.ndarray((2,), strides=(16,)), "strides")


@pytest.mark.parametrize("fn", ["empty_like", "zeros_like", "ones_like", "full_like"])
@pytest.mark.parametrize("view", ["transposed", "permuted", "strided", "reversed", "fortran"])
def test_like_keeps_memory_order(fn: str, view: str) -> None:
    # NumPy's order="K": the new array's strides follow the prototype's order
    base = np.ones((2, 3, 4))
    src = {"transposed": base.transpose(1, 0, 2), "permuted": base.transpose(2, 0, 1), "strided": base[:, ::2],
           "reversed": base[::-1], "fortran": np.asfortranarray(base)}[view]
    args = (7,) if fn == "full_like" else ()
    got, expected = getattr(ma, fn)(ma.asarray(src), *args), getattr(np, fn)(src, *args)
    assert got.strides == expected.strides
    if fn != "empty_like":
        same(got, expected)
    row = list(range(1, src.shape[-1] + 1))  # an array fill, broadcast along the last axis
    same(ma.full_like(ma.asarray(src), row), np.full_like(src, row))


# ---- asfortranarray, asarray_chkfinite, require ----------------------------------------------

LAYOUTS: dict[str, Any] = {  # each made by either module, so both own (or view) memory alike
    "c-2d": lambda m: m.arange(12.0).reshape(3, 4),
    "owner": lambda m: m.ones((3, 4), dtype=m.int32),
    "f-2d": lambda m: m.asfortranarray(m.arange(12).reshape(3, 4)),
    "strided": lambda m: m.arange(24.0).reshape(4, 6)[::2, ::3],
    "1-d": lambda m: m.arange(5, dtype=m.int16),
    "0-d": lambda m: m.asarray(2.5),
    "3-d-transposed": lambda m: m.arange(24).reshape(2, 3, 4).transpose(2, 0, 1),
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [None, "float32"])
def test_asfortranarray_as_numpy(layout: str, dtype: Any) -> None:
    n, src = LAYOUTS[layout](np), LAYOUTS[layout](ma)
    want = np.asfortranarray(n, dtype=dtype)
    got = ma.asfortranarray(src, dtype=dtype)
    same(got, want)
    assert got.flags.f_contiguous and got.flags.c_contiguous == want.flags.c_contiguous
    # no copy when it already is one (NumPy's shares memory the same way)
    assert ma.shares_memory(got, src) == np.shares_memory(want, n)


def test_asfortranarray_takes_a_list_as_numpy() -> None:
    same(ma.asfortranarray([[1, 2], [3, 4]]), np.asfortranarray([[1, 2], [3, 4]]))
    same(ma.asfortranarray(7), np.asfortranarray(7))


CHKFINITE: dict[str, Any] = {
    "finite": [1.0, 2.5], "ints": [[1, 2], [3, 4]], "bools": [True, False], "complex": [1 + 2j],
    "empty": [], "float32": np.array([1, 2], np.float32),
}


@pytest.mark.parametrize("case", CHKFINITE)
def test_asarray_chkfinite_as_numpy(case: str) -> None:
    same(ma.asarray_chkfinite(CHKFINITE[case]), np.asarray_chkfinite(CHKFINITE[case]))


def test_asarray_chkfinite_dtype_and_order_as_numpy() -> None:
    n = np.arange(6).reshape(2, 3)
    got = ma.asarray_chkfinite(n, dtype="float32", order="F")
    same(got, np.asarray_chkfinite(n, dtype="float32", order="F"))
    assert got.flags.f_contiguous


@pytest.mark.parametrize("bad", [[1.0, np.nan], [np.inf], [[1.0], [-np.inf]], [1 + 1j * np.nan]], ids=str)
def test_asarray_chkfinite_refuses_as_numpy(bad: Any) -> None:
    raises_as_numpy(lambda m: m.asarray_chkfinite(bad), "must not contain infs or NaNs")


REQUIREMENTS = [None, "C", "F", "A", "W", "O", ["C", "W"], ["F", "O"], "E", ["ALIGNED", "WRITEABLE"],
                ["c_contiguous"], ["OWNDATA", "E"], "CA", ("FORTRAN",)]


@pytest.mark.parametrize("requirements", REQUIREMENTS, ids=str)
@pytest.mark.parametrize("layout", ["c-2d", "owner", "strided", "f-2d", "0-d"])
def test_require_as_numpy(layout: str, requirements: Any) -> None:
    n, src = LAYOUTS[layout](np), LAYOUTS[layout](ma)
    want = np.require(n, requirements=requirements)
    got = ma.require(src, requirements=requirements)
    same(got, want)
    for flag in "CFWO":
        assert got.flags[flag] == want.flags[flag], flag
    assert (got is src) == (want is n)


def test_require_dtype_and_lists_as_numpy() -> None:
    same(ma.require([[1, 2], [3, 4]], dtype="float32", requirements="F"),
         np.require([[1, 2], [3, 4]], dtype="float32", requirements="F"))


def test_require_read_only_array_copies_for_w() -> None:
    x = ma.arange(4.0)
    x.flags.writeable = False
    got = ma.require(x, requirements="W")
    assert got.flags.writeable and got is not x
    assert ma.require(x, requirements="C") is x


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # the matrix class's own warning
def test_require_ensurearray_drops_the_subclass() -> None:
    m = ma.asmatrix([[1.0, 2.0]])
    assert type(ma.require(m)) is ma.matrix
    assert type(ma.require(m, requirements="E")) is ma.NDArray
    assert type(np.require(np.asmatrix([[1.0, 2.0]]), requirements="E")) is np.ndarray


def test_require_errors_as_numpy() -> None:
    raises_as_numpy(lambda m: m.require(m.ones(3), requirements="CF"), 'both "C" and "F"')
    raises_as_numpy(lambda m: m.require(m.ones(3), requirements=["X"]), "X")


def test_arange_of_dates_refuses_the_dtype() -> None:
    # NumPy's arange of dates: the dtype is what minarray lacks, and says so
    with pytest.raises(TypeError, match=r"no dtype 'datetime64'.*use NumPy for datetime64"):
        ma.arange("1066-10-13", "1066-10-16", dtype=ma.datetime64)


NONE_DTYPES = ["float64", "float32", "float16", "complex128", "complex64", "bool", "int64", "uint8"]


def _none_outcome(fn: Any) -> tuple[str, Any]:
    """('ok', (dtype name, shape, bytes)) or (the error's type, its message)."""
    try:
        r = fn()
    except (TypeError, ValueError) as e:
        return type(e).__name__, str(e)
    a = np.asarray(r)
    return "ok", (str(a.dtype), a.shape, a.tobytes())


@pytest.mark.parametrize("dtype", NONE_DTYPES)
@pytest.mark.parametrize("value", [[1.0, None], [[None, 2], [3, None]], (None,), None, [None, [1, 2]]],
                         ids=["flat", "nested", "tuple", "bare", "ragged"])
def test_none_with_a_dtype_is_numpys_cast_of_none(value: Any, dtype: str) -> None:
    """With a dtype, NumPy casts its object None: NaN in a float type,
    NaN + NaN j in a complex one, False in bool, TypeError in an integer
    type; the same in asarray, full and full_like."""
    assert _none_outcome(lambda: ma.asarray(value, dtype=dtype)) == _none_outcome(
        lambda: np.asarray(value, dtype=dtype))
    assert _none_outcome(lambda: ma.full(3, None, dtype=dtype)) == _none_outcome(
        lambda: np.full(3, None, dtype=dtype))
    assert _none_outcome(lambda: ma.full_like(ma.zeros(2, dtype=dtype), None)) == _none_outcome(
        lambda: np.full_like(np.zeros(2, dtype=dtype), None))


@pytest.mark.parametrize("dtype", NONE_DTYPES)
def test_setting_none_is_numpys_cast_of_none(dtype: str) -> None:
    def put(lib: Any, key: Any) -> Any:
        arr = lib.zeros(5, dtype=dtype)
        arr[lib.asarray(key) if isinstance(key, list) else key] = None
        return arr

    keys: list[Any] = [0, slice(1, 3), [False, False, False, True, False], [4], Ellipsis]
    for key in keys:
        assert _none_outcome(lambda k=key: put(ma, k)) == _none_outcome(lambda k=key: put(np, k)), key


def test_none_without_a_dtype_is_refused() -> None:
    # NumPy makes an object array, which minarray does not hold
    for value in ([1.0, None], None, [None]):
        with pytest.raises(TypeError, match="object"):
            ma.asarray(value)
