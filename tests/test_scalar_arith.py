"""Scalar arithmetic against NumPy's: every operator on every pair of a
Scalar and a Scalar or Python number (csrc/py/scalar_math.c).

For each operand pair and value pair: the result's type and its bits
(NaNs equal whatever their payload), and what is reported, warnings by
default and the exception under ``errstate(all="raise")``: NumPy's scalar
math names its flags "in scalar add" and checks integer overflow, which its
arrays (and minarray's) wrap silently.
"""

from __future__ import annotations

import math
import operator
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import minarray as ma
from minarray._scalar import Scalar

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
          "float32", "float64", "complex64", "complex128"]
PYTHON = ["py_bool", "py_int", "py_float", "py_complex"]


def _values(kind: str) -> list[Any]:
    """Values that reach each edge: zero (division), -1 (MIN // -1), the
    extremes (overflow), NaN."""
    if kind == "py_bool":
        return [False, True]
    if kind == "py_int":
        return [0, -1, 100, 300, 2**64]
    if kind == "py_float":
        return [0.0, -0.5, 1e300, math.nan]
    if kind == "py_complex":
        return [0j, 2 - 1j]
    dt = np.dtype(kind)
    if dt.kind == "b":
        return [np.False_, np.True_]
    if dt.kind in "iu":
        info = np.iinfo(dt)
        vals = [0, 1, int(info.max)] if dt.kind == "u" else [0, -1, int(info.min), int(info.max)]
        return [dt.type(v) for v in vals]
    if dt.kind == "f":
        return [dt.type(v) for v in (0.0, -2.5, np.finfo(dt).max, math.nan)]
    big = np.finfo(np.float32 if dt == np.complex64 else np.float64).max
    return [dt.type(v) for v in (0, 1 - 2j, complex(big, 1))]


def _ma(v: Any) -> Any:
    """NumPy scalar -> minarray Scalar with the same bits; Python numbers
    stay themselves."""
    if isinstance(v, np.generic):
        s = ma.asarray(np.asarray([v]))[0]
        assert type(s) is Scalar
        return s
    return v


BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
    "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow,
    "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge, "eq": operator.eq,
    "ne": operator.ne, "and": operator.and_, "or": operator.or_, "xor": operator.xor,
    "lshift": operator.lshift, "rshift": operator.rshift,
}
UNARY: dict[str, Callable[[Any], Any]] = {
    "neg": operator.neg, "pos": operator.pos, "abs": abs, "invert": operator.invert,
    "float": float, "int": int, "bool": bool,
}


def _builtin(cls: type) -> type:
    """The first built-in class an exception is: NumPy's _UFuncNoLoopError
    is a TypeError."""
    return next(c for c in cls.__mro__ if c.__module__ == "builtins")


def _outcome(fn: Callable[[], Any], raise_all: bool, errstate: Any) -> tuple[Any, Any, list[str]]:
    """(result, (exception class, message) or None, warnings as "Class: message")."""
    with warnings.catch_warnings(record=True) as caught, errstate(all="raise" if raise_all else "warn"):
        warnings.simplefilter("always")
        try:
            r, err = fn(), None
        except Exception as e:
            r, err = None, (_builtin(type(e)), str(e))
    return r, err, [f"{w.category.__name__}: {w.message}" for w in caught]


def _bits(x: Any) -> Any:
    """What must agree of a result: its type name and bits (every NaN the
    same); a Python scalar as itself (NaN as a marker)."""
    if isinstance(x, (np.generic, ma.NDArray)):
        a = np.asarray(x)
        parts = [a.real, a.imag] if a.dtype.kind == "c" else [a]
        return a.dtype.name, tuple("nan" if p.dtype.kind == "f" and np.isnan(p) else p.tobytes() for p in parts)
    if isinstance(x, float) and math.isnan(x):
        return type(x).__name__, "nan"
    return type(x).__name__, x


def _same(label: str, want: tuple[Any, Any, list[str]], got: tuple[Any, Any, list[str]]) -> None:
    wr, werr, ww = want
    gr, gerr, gw = got
    if werr is not None or gerr is not None:
        assert gerr is not None and werr is not None, (label, want, got)
        assert gerr[0] is werr[0], (label, werr, gerr)
        # NumPy's TypeErrors name its ufunc loops, minarray's its own operands
        # (tests/test_elementwise.py checks those); NumPy words an int beyond
        # 64 bits as C's long conversion does
        if werr[0] is not TypeError and "C long" not in werr[1]:
            assert gerr[1] == werr[1], (label, werr, gerr)
    else:
        if isinstance(wr, np.generic):
            assert type(gr) is Scalar, (label, type(gr))
        assert _bits(gr) == _bits(wr), (label, wr, gr)
    assert gw == ww, (label, ww, gw)


def _kinds_right(left: str) -> list[str]:
    # two Python numbers are Python's own arithmetic; and NumPy's float64
    # and complex128 subclass Python's float and complex, whose operators
    # take them first: 0j + np.float64(0) is Python's complex, where
    # minarray's scalars (0-d arrays, not floats) give a complex128 scalar
    kinds = DTYPES if left in DTYPES else [d for d in DTYPES if left != "py_complex" or d != "float64"]
    return kinds + (PYTHON if left in DTYPES else [])


def _numpy_quirk(op: str, x: Any, y: Any) -> bool:
    """Cases where minarray keeps a documented rule of its own:

    - floor division by or of an infinity follows the Array API's special
      cases (csrc/core/ew_math.h), where NumPy's divmod gives NaN or -1;
    - NumPy's bool scalar compares a Python int beyond 64 bits by
      converting it to C's long (OverflowError); minarray compares the
      values, as NumPy does for every other integer scalar."""
    if op == "floordiv":
        try:
            with np.errstate(all="ignore"):
                r = np.floor_divide(x, y)
                v = [np.asarray(x).astype(r.dtype), np.asarray(y).astype(r.dtype)] if r.dtype.kind == "f" else []
        except (TypeError, OverflowError):
            return False  # no floor division of these: the errors are compared
        return any(bool(np.isinf(a)) for a in v)
    if op in ("lt", "le", "gt", "ge", "eq", "ne"):
        big = [v for v in (x, y) if type(v) is int and v >= 2**63]
        return bool(big) and any(isinstance(v, np.bool_) for v in (x, y))
    return False


@pytest.mark.parametrize("op", list(BINARY))
@pytest.mark.parametrize("left", DTYPES + PYTHON)
def test_binary_operators_are_numpys(op: str, left: str) -> None:
    fn = BINARY[op]
    checked = 0
    for right in _kinds_right(left):
        for x in _values(left):
            for y in _values(right):
                if _numpy_quirk(op, x, y):
                    continue
                mx, my = _ma(x), _ma(y)
                for raise_all in (False, True):
                    want = _outcome(lambda x=x, y=y: fn(x, y), raise_all, np.errstate)
                    got = _outcome(lambda x=mx, y=my: fn(x, y), raise_all, ma.errstate)
                    _same(f"{left} {op} {right}: {x!r}, {y!r}, raise={raise_all}", want, got)
                    checked += 1
    assert checked >= 2 * 2 * 14


@pytest.mark.parametrize("op", list(UNARY))
@pytest.mark.parametrize("dtype", DTYPES)
def test_unary_operators_and_conversions_are_numpys(op: str, dtype: str) -> None:
    fn = UNARY[op]
    for x in _values(dtype):
        mx = _ma(x)
        for raise_all in (False, True):
            want = _outcome(lambda x=x: fn(x), raise_all, np.errstate)
            got = _outcome(lambda x=mx: fn(x), raise_all, ma.errstate)
            _same(f"{op} {dtype}: {x!r}, raise={raise_all}", want, got)


def test_the_overflow_checks_are_the_scalars_own() -> None:
    """Arrays and 0-d arrays wrap silently, as NumPy's do; only scalars check."""
    big = ma.int8(100)
    with ma.errstate(all="raise"):
        with pytest.raises(FloatingPointError, match="overflow encountered in scalar add"):
            big + big
        assert int((ma.asarray([100], dtype=ma.int8) + big)[0]) == -56
        assert int(ma.asarray(100, dtype=ma.int8) + ma.asarray(100, dtype=ma.int8)) == -56
        # NumPy's bool scalar has no scalar math: np.True_ + np.int8(127) wraps
        assert int(ma.bool_(True) + ma.int8(127)) == -128
        with pytest.raises(FloatingPointError, match="overflow encountered in scalar add"):
            ma.int8(127) + ma.bool_(True)
    with ma.errstate(over="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        assert int(big * 3) == 44


def test_errstate_call_and_seterr_reach_the_scalar_checks() -> None:
    seen: list[tuple[str, int]] = []
    with ma.errstate(over="call", call=lambda kind, flag: seen.append((kind, flag))):
        r = ma.uint8(0) - ma.uint8(1)
    assert seen == [("overflow", 2)] and int(r) == 255
    old = ma.seterr(divide="raise")
    try:
        with pytest.raises(FloatingPointError, match="divide by zero encountered in scalar floor_divide"):
            ma.int16(7) // 0
    finally:
        ma.seterr(**old)


def test_in_place_operators_make_new_scalars() -> None:
    s = ma.float64(1.5)
    t = s
    t += 2
    assert float(s) == 1.5 and float(t) == 3.5 and type(t) is Scalar
    total = ma.float64(0)
    x = ma.asarray([0.5, 1.5, 2.5])
    for i in range(3):
        total += x[i] * 2
    assert float(total) == 9.0 and float(x[0]) == 0.5


def test_results_are_independent_of_their_operands() -> None:
    """Scalars are reused once nobody holds them: a result held, viewed or
    exported keeps its value while others are computed."""
    a = ma.float64(2.0)
    r1 = a * 3
    v = r1[...]
    mv = memoryview(r1)
    r2 = a * 5
    del r1
    r3 = a * 7
    assert float(v) == 6.0 and mv.tobytes() == np.float64(6.0).tobytes()
    assert float(r2) == 10.0 and float(r3) == 14.0
    mv.release()


def test_comparisons_return_numpys_two_bools() -> None:
    assert (ma.int8(1) < 2) is (ma.float64(0.5) == 0.5)
    assert (ma.int8(1) > 2) is (ma.float64(0.5) != 0.5)
    with pytest.raises(ValueError, match="WRITEABLE"):
        (ma.int8(1) < 2).flags.writeable = True
    with pytest.raises(ValueError, match="WRITEABLE"):
        ma.float64(1).flags.writeable = True


def test_operands_it_does_not_take_go_to_the_array_operators() -> None:
    s = ma.float64(2.0)
    arr = ma.asarray([1.0, 2.0])
    assert (s + arr).tolist() == [3.0, 4.0] and (arr + s).tolist() == [3.0, 4.0]
    assert (s < arr).tolist() == [False, False] and (arr < s).tolist() == [True, False]
    assert (s + [1, 2]).tolist() == [3.0, 4.0] and ([1, 2] - s).tolist() == [-1.0, 0.0]  # noqa: RUF005
    assert (s == "a") is False and (s != None) is True  # noqa: E711
    with pytest.raises(TypeError):
        s + "a"
    bf = ma.asarray([1.5], dtype=ma.float8_e4m3fn)[0]
    assert float(bf + 1) == 2.5


def test_operator_methods_called_by_name_take_the_scalar_path() -> None:
    """s.__add__(1) is s + 1: the same result and the same reports."""
    s = ma.int8(100)
    with ma.errstate(all="raise"):
        with pytest.raises(FloatingPointError, match="overflow encountered in scalar add"):
            s.__add__(100)
        with pytest.raises(FloatingPointError, match="overflow encountered in scalar add"):
            s.__radd__(100)
        with pytest.raises(FloatingPointError, match="overflow encountered in scalar negative"):
            ma.int8(-128).__neg__()
        with pytest.raises(FloatingPointError, match="divide by zero encountered in scalar divide"):
            ma.float64(1).__truediv__(0)
    assert s.__lt__(101) is (s < 101) and type(s.__mul__(1)) is Scalar
    assert s.__add__("a") is NotImplemented
    arr = ma.asarray([1, 2], dtype=ma.int8)
    assert arr.__add__(s).tolist() == [101, 102] and s.__add__(arr).tolist() == [101, 102]


@pytest.mark.parametrize("name", ["float64", "float32", "float16", "complex128", "int64", "int8", "uint16", "bool"])
@pytest.mark.parametrize("seq", [[1, 2], (1, 2), [], [[1], [2]]], ids=["list", "tuple", "empty", "nested"])
def test_a_scalar_times_a_sequence_is_pythons_product(name: str, seq: Any) -> None:
    """NumPy's scalars multiply a list or tuple as Python's numbers do: an
    integer scalar repeats it, any other raises TypeError (an array, 0-d
    too, multiplies elementwise).  Other operators stay elementwise."""
    def make(lib: Any) -> Any:
        return (lib.bool_ if lib is np and name == "bool" else getattr(lib, name))(2)

    for args in ((0, 1), (1, 0)):
        outcomes = []
        for lib in (np, ma):
            pair = (make(lib), seq)
            try:
                outcomes.append(repr(operator.mul(pair[args[0]], pair[args[1]])))
            except TypeError:
                outcomes.append("TypeError")
        assert outcomes[0] == outcomes[1], (args, outcomes)
    got, want = ma.asarray(make(ma)) * seq, np.asarray(make(np)) * seq
    assert np.asarray(got).tolist() == want.tolist()
    got, want = make(ma) + seq, make(np) + seq
    assert np.asarray(got).tolist() == want.tolist()
