"""minarray's scalars (minarray/_scalar.py), against NumPy's.

Where NumPy returns a scalar (``np.float64(6.0)``), minarray returns a
Scalar: a read-only 0-d NDArray of its own memory that prints, hashes,
compares and behaves in place as NumPy's scalar; everywhere NumPy returns a
0-d array, minarray returns an NDArray.
"""

from __future__ import annotations

import collections
import copy
import numbers
import pickle
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from numpy_errors import raises_as_numpy

import minarray as ma
from minarray._scalar import Scalar

NUMPY_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                "float32", "float64", "complex64", "complex128"]
VALUES = [0, 1, -1, 2.5, -0.0, 1e20, 1e-20, 1 / 3, float("nan"), float("inf"), -float("inf"), 1 + 2j, -1j,
          complex(float("nan"), 1), 127, 255, 32000]


def _np_value(dtype: str, v: Any) -> Any:
    """``v`` as NumPy's scalar of ``dtype``, or None where NumPy refuses or warns."""
    with np.errstate(all="raise"), warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            if np.dtype(dtype).kind != "c" and isinstance(v, complex):
                return None
            return np.array(v).astype(dtype)[()]
        except (OverflowError, ValueError, FloatingPointError, RuntimeWarning, DeprecationWarning, TypeError):
            return None


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_repr_and_str_are_numpys(dtype: str) -> None:
    checked = 0
    for v in VALUES:
        want = _np_value(dtype, v)
        if want is None:
            continue
        got = ma.asarray(np.asarray(want))[()]
        assert type(got) is Scalar
        assert repr(got) == repr(want), (dtype, v)
        assert str(got) == str(want), (dtype, v)
        checked += 1
    assert checked >= 5


def test_legacy_printing_shows_the_value_alone() -> None:
    s = ma.float64(0.5)
    with ma.printoptions(legacy="1.25"), np.printoptions(legacy="1.25"):
        assert repr(s) == repr(np.float64(0.5)) == "0.5"
    with ma.printoptions(precision=2), np.printoptions(precision=2):  # scalars ignore precision
        assert repr(ma.float64(1 / 3)) == repr(np.float64(1 / 3))


# Expressions run on both libraries: NumPy's result is a scalar exactly where
# minarray's is a Scalar, and the values agree.
EXPRESSIONS: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("x[1]", lambda m, x: x[1]),
    ("A[1, 2]", lambda m, x: x.reshape(3, 4)[1, 2]),
    ("A[-1][-1]", lambda m, x: x.reshape(3, 4)[-1][-1]),
    ("A[1, 2, ...]", lambda m, x: x.reshape(3, 4)[1, 2, ...]),
    ("A[...]", lambda m, x: x.reshape(3, 4)[0, ...]),
    ("x.sum()", lambda m, x: x.sum()),
    ("sum(x)", lambda m, x: m.sum(x)),
    ("sum(x, axis=0)", lambda m, x: m.sum(x, axis=0)),
    ("sum(A, axis=0)", lambda m, x: m.sum(x.reshape(3, 4), axis=0)),
    ("sum(x, keepdims)", lambda m, x: m.sum(x, keepdims=True)),
    ("mean(x)", lambda m, x: m.mean(x)),
    ("std(x)", lambda m, x: m.std(x)),
    ("max(x)", lambda m, x: m.max(x)),
    ("argmax(x)", lambda m, x: m.argmax(x)),
    ("argmin(A, axis=None)", lambda m, x: m.argmin(x.reshape(3, 4))),
    ("all(x)", lambda m, x: m.all(x)),
    ("median(x)", lambda m, x: m.median(x)),
    ("percentile(x, 30)", lambda m, x: m.percentile(x, 30)),
    ("quantile(x, [0.3])", lambda m, x: m.quantile(x, [0.3])),
    ("x[1] + 1", lambda m, x: x[1] + 1),
    ("x[1] * x[2]", lambda m, x: x[1] * x[2]),
    ("x[1] > 0", lambda m, x: x[1] > 0),
    ("sqrt(x[5])", lambda m, x: m.sqrt(x[5])),
    ("add(1, 2)", lambda m, x: m.add(1, 2)),
    ("0-d array + 1", lambda m, x: m.asarray(2.0) + 1),
    ("asarray(2.0)", lambda m, x: m.asarray(2.0)),
    ("zeros(())", lambda m, x: m.zeros(())),
    ("x.reshape(())", lambda m, x: x[:1].reshape(())),
    ("dot(x, x)", lambda m, x: m.dot(x, x)),
    ("x @ x", lambda m, x: x @ x),
    ("vdot(x, x)", lambda m, x: m.vdot(x, x)),
    ("inner(x, x)", lambda m, x: m.inner(x, x)),
    ("tensordot(x, x, axes=1)", lambda m, x: m.tensordot(x, x, axes=1)),
    ("det", lambda m, x: m.linalg.det(m.eye(3) * 2)),
    ("norm(x)", lambda m, x: m.linalg.norm(x)),
    ("searchsorted(x, 3)", lambda m, x: m.searchsorted(x, 3)),
    ("add.reduce(x)", lambda m, x: m.add.reduce(x)),
    ("maximum.reduce(x)", lambda m, x: m.maximum.reduce(x)),
    ("add.reduce(x, initial=5)", lambda m, x: m.add.reduce(x, initial=5)),
    ("float64(3)", lambda m, x: m.float64(3)),
    ("float32([1, 2])", lambda m, x: m.float32([1, 2])),
    ("x[1].copy()", lambda m, x: x[1].copy()),
    ("x[1].astype(float32)", lambda m, x: x[1].astype(m.float32)),
    ("x[1].reshape(1)", lambda m, x: x[1].reshape(1)),
]


@pytest.mark.parametrize("name,expr", EXPRESSIONS, ids=[e[0] for e in EXPRESSIONS])
def test_scalar_exactly_where_numpy_returns_one(name: str, expr: Callable[[Any, Any], Any]) -> None:
    data = np.arange(12.0) * 0.5 - 1.25
    want = expr(np, data)
    got = expr(ma, ma.asarray(data))
    assert isinstance(got, ma.NDArray)
    assert (type(got) is Scalar) == isinstance(want, np.generic), (got, want)
    assert got.dtype == ma.dtype(np.asarray(want).dtype)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-12)
    if isinstance(want, np.generic):
        assert repr(got) == repr(want)


def test_an_element_read_is_a_copy() -> None:
    """NumPy's scalars are copies: the classic swap through a temporary, and
    a value kept while the array changes, work as in NumPy (a 0-d view
    would follow the writes)."""
    for lib in (np, ma):
        x = lib.asarray([1.0, 2.0, 3.0])
        t = x[0]
        x[0] = x[2]
        x[2] = t
        assert x.tolist() == [3.0, 2.0, 1.0]
        kept = x[1]
        x[1] = 10.0
        assert float(kept) == 2.0
        x[1] += 1  # x.__setitem__(1, x[1] + 1)
        assert float(x[1]) == 11.0


def test_scalars_are_read_only_and_in_place_operators_make_new_ones() -> None:
    s = ma.arange(3.0).sum()
    t = s
    s += 1
    assert float(s) == 4.0 and float(t) == 3.0 and type(s) is Scalar
    s *= 2
    assert float(s) == 8.0
    assert not t.flags.writeable
    with pytest.raises(TypeError, match="does not support item assignment"):
        t[()] = 5
    with pytest.raises(ValueError, match="read-only"):
        ma.add(1.0, 2.0, out=t)
    assert float(t) == 3.0


def test_hashable_as_their_python_value() -> None:
    """Scalars key dicts and sets, and count, as NumPy's do (equal values
    hash equal across types: hash(x[0]) == hash(1.0) == hash(1))."""
    data = [3, 1, 3, 2, 3, 1]
    got = collections.Counter(ma.asarray(data))
    want = collections.Counter(np.asarray(data))
    assert got == want and repr(got) == repr(want)
    assert {ma.float64(1.0): "a"}[1] == "a" and ma.int64(2) in {2, 5}
    assert hash(ma.float32(0.5)) == hash(0.5) and hash(ma.complex128(1 + 2j)) == hash(1 + 2j)
    assert len(set(ma.asarray([1.0, 1.0, 2.0]))) == 2
    with pytest.raises(TypeError, match="unhashable"):
        hash(ma.asarray(1.0))  # a 0-d array is mutable: unhashable, as NumPy's


def test_scalars_sit_in_numpys_type_tree() -> None:
    f, i, b, c = ma.float32(1), ma.int8(1), ma.bool(True), ma.complex64(1j)
    assert isinstance(f, ma.floating) and isinstance(f, ma.inexact) and not isinstance(f, ma.integer)
    assert isinstance(i, ma.signedinteger) and isinstance(i, ma.number) and isinstance(i, ma.generic)
    assert isinstance(b, ma.generic) and not isinstance(b, ma.number)
    assert isinstance(c, ma.complexfloating)
    assert all(isinstance(v, numbers.Number) for v in (f, i, b, c))
    assert not isinstance(ma.asarray(1.0), ma.floating)  # an array is no scalar, as in NumPy


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float32", "float64", "complex128"])
def test_isinstance_of_a_concrete_type_as_numpys(dtype: str) -> None:
    # isinstance(v, np.float64), issubclass(x.dtype.type, np.float64): the
    # dtypes are the scalar types; the answers are NumPy's
    a = np.ones(2, dtype=dtype)
    x = ma.asarray(a)
    for other in ("bool", "int8", "int64", "float32", "float64", "complex128"):
        want = isinstance(a[0], getattr(np, other if other != "bool" else "bool_"))
        assert isinstance(x[0], getattr(ma, other)) == want
        assert isinstance(a[0], getattr(ma, other)) == want  # NumPy's scalar, asked of minarray's type
        assert issubclass(x.dtype.type, getattr(ma, other)) == want
        assert not isinstance(x, getattr(ma, other)) and not isinstance(x[:1].reshape(()), getattr(ma, other))
    assert not isinstance(1.0, ma.float64) and not isinstance(True, ma.bool)  # Python numbers are not, as in NumPy


def test_a_scalar_becomes_an_array_where_numpy_makes_one() -> None:
    s = ma.float64(2.0)
    a = ma.asarray(s)  # np.asarray of a scalar: a fresh writeable 0-d array
    assert type(a) is ma.NDArray and a.flags.writeable and a.data_ptr != s.data_ptr
    a[()] = 7.0
    assert float(s) == 2.0
    shared = ma.asarray(s, copy=False)  # sharing is possible, read-only
    assert not shared.flags.writeable and shared.data_ptr == s.data_ptr
    assert type(ma.array(s)) is ma.NDArray and type(ma.zeros_like(s)) is ma.NDArray
    assert type(s[...]) is ma.NDArray  # NumPy: scalar[...] is a 0-d array too


@pytest.mark.parametrize("dtype", ["float64", "int8", "bool", "complex64", "bfloat16", "float8_e4m3fn"])
def test_pickle_and_copy_keep_a_scalar(dtype: str) -> None:
    s = ma.asarray([1, 0, 1], dtype=dtype)[2]
    for made in (pickle.loads(pickle.dumps(s)), copy.copy(s), copy.deepcopy(s)):
        assert type(made) is Scalar and made.dtype == s.dtype and made == s
        assert not made.flags.writeable


def test_scalars_cross_dlpack_and_numpy() -> None:
    s = ma.arange(5, dtype=ma.int32)[4]
    n = np.from_dlpack(s)
    assert n.shape == () and int(n) == 4 and not n.flags.writeable
    assert np.asarray(s).dtype == np.int32
    torch = pytest.importorskip("torch", reason="PyTorch is optional")
    assert int(torch.from_dlpack(s)) == 4


def test_subclass_results_are_not_scalars_where_numpy_keeps_the_subclass() -> None:
    class Named(ma.NDArray):
        pass

    a = ma.arange(4.0).view(Named)
    assert type(a.sum()) is Named and a.sum().flags.writeable  # as NumPy's InfoArray.sum()
    assert type(a[1]) is Scalar  # an element read is NumPy's scalar whatever the class
    assert type(a[1] + a) is Named


def test_iteration_reads_elements_one_at_a_time_as_numpy() -> None:
    """A 1-d array's items are scalars, read as the loop reaches them (a
    write ahead of the loop shows); an N-d array's items are views."""
    arr = np.arange(10.0)[::-3]
    x = ma.asarray(np.arange(10.0))[::-3]
    assert [repr(v) for v in x] == [repr(v) for v in arr]
    for lib in (np, ma):
        y = lib.arange(4.0)
        seen = []
        for i, v in enumerate(y):
            seen.append(float(v))
            if i + 1 < 4:
                y[i + 1] = -1.0
        assert seen == [0.0, -1.0, -1.0, -1.0]
    a = ma.arange(6).reshape(2, 3)
    rows = list(a)
    assert all(type(r) is ma.NDArray for r in rows)
    rows[1][0] = 9
    assert int(a[1, 0]) == 9
    assert len(list(ma.zeros((0,)))) == 0
    with pytest.raises(TypeError, match="iteration over a 0-d array"):
        iter(ma.asarray(1.0))


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_calling_a_dtype_makes_numpys_scalar(dtype: str) -> None:
    """``ma.float32(3.0)`` stores a Python number by NumPy's rules (an int
    must fit, a float truncates into an integer type, NaN cannot), errors
    included; other values go through asarray as NumPy's do."""
    for v in [0, 3, -1, 300, 2**63, 3.7, -2.5, 1e40, float("nan"), True, 1 + 2j]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                want: Any = getattr(np, dtype)(v)
            except Exception as e:
                with pytest.raises(type(e)):
                    getattr(ma, dtype)(v)
                continue
            got = getattr(ma, dtype)(v)
        assert type(got) is Scalar and repr(got) == repr(want), (dtype, v)
    assert repr(getattr(ma, dtype)(np.asarray(1))) == repr(getattr(np, dtype)(np.asarray(1)))
    assert type(getattr(ma, dtype)([1, 0])) is ma.NDArray


def test_round_as_numpys() -> None:
    # round(s) is a Python int (half to even), round(s, n) a scalar of the
    # same dtype; NumPy's bool and complex scalars refuse
    for xp in (np, ma):
        x, i = xp.asarray([1.5, 2.5, 2.567]), xp.asarray([13, 25])
        got = [round(x[0]), round(x[1]), round(x[2], 2), round(i[0], -1), round(i[1]), round(xp.float32(2.567), 2)]
        assert [type(v) is int for v in got] == [True, True, False, False, True, False]
        assert [float(v) for v in got] == [2.0, 2.0, 2.57, 10.0, 25.0, float(np.float32(2.57))]
        assert [str(v.dtype) for v in got if not isinstance(v, int)] == ["float64", "int64", "float32"]
    raises_as_numpy(lambda m: round(m.asarray([True])[0]), "__round__")
    raises_as_numpy(lambda m: round(m.asarray([1j])[0]), "__round__")


def _outcome(call: Callable[[Any], Any], m: Any) -> str:
    try:
        return repr(call(m))
    except (ValueError, TypeError, OverflowError, AttributeError) as exc:
        return type(exc).__name__


@pytest.mark.parametrize("text", ["nan", " 1.5 ", "-inf", "12", "1.5", "300", "-5", "False", "", "1+2j", "1e10",
                                  "abc", "1_000", "0.1"])
@pytest.mark.parametrize("name", ["float64", "float32", "float16", "int64", "int8", "uint8", "bool_", "complex128"])
def test_scalar_type_reads_a_string_as_numpy(name: str, text: str) -> None:
    """np.float64("nan"), np.int64("12"): Python's parsing, then the value."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # float16("1e10") overflows to inf, warning in both
        assert _outcome(lambda m: getattr(m, name)(text), ma) == _outcome(lambda m: getattr(m, name)(text), np)


@pytest.mark.parametrize("method", ["is_integer", "as_integer_ratio", "hex", "bit_count"])
@pytest.mark.parametrize("value", [0.75, 3.0, -2.5, 1e300, 7, -12, True, 1 + 2j])
@pytest.mark.parametrize("name", ["float64", "float32", "float16", "int64", "uint8", "int8", "bool_", "complex128"])
def test_python_number_methods_as_numpy(name: str, value: Any, method: str) -> None:
    """The methods NumPy's scalar types inherit from Python's (float64's
    hex) or add (is_integer): present for the same types, same answers."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the casts of 1e300 and 1+2j
        try:
            want = getattr(getattr(np, name)(value), method)()
        except (AttributeError, OverflowError, TypeError) as exc:
            with pytest.raises(type(exc)):
                getattr(getattr(ma, name)(value), method)()
            return
        assert getattr(getattr(ma, name)(value), method)() == want
