"""Floating-point errors: which warnings an operation gives (NumPy as the
oracle), the errstate modes, and that the state is thread- and
context-local.  The other elementwise tests silence these warnings; here
they are the subject."""

from __future__ import annotations

import contextlib
import io
import threading
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from numpy_oracle import DOT_REPORTS_FP_ERRORS

import minarray as ma
from minarray import _threads

SPECIALS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 1e308, -1e308, 1e-308, 710.0, -750.0,
            float("inf"), float("-inf"), float("nan")]

UNARY = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp",
         "expm1", "floor", "isfinite", "isinf", "isnan", "log", "log1p", "log2", "log10", "negative",
         "positive", "reciprocal", "round", "sign", "signbit", "sin", "sinh", "sqrt", "square", "tan",
         "tanh", "trunc"]
BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow", "maximum",
          "minimum", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
          "atan2", "hypot", "copysign", "logaddexp"]
NP_NAME = {"acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh", "atan": "arctan",
           "atanh": "arctanh", "atan2": "arctan2", "pow": "power"}


def messages(fn: Callable[[], Any]) -> set[str]:
    """The RuntimeWarnings `fn` gives (they name NumPy's ufunc: "power",
    "arccos", for minarray's pow and acos too)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    out = set()
    for w in caught:
        assert w.category is RuntimeWarning, w
        out.add(str(w.message))
    return out


def values(dtype: str) -> np.ndarray:
    with np.errstate(over="ignore"):  # 1e308 is inf in float32
        return np.array(SPECIALS, dtype=dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", UNARY)
def test_unary_warnings_are_numpys(name: str, dtype: str) -> None:
    a = values(dtype)
    x = ma.asarray(a)
    f_np = getattr(np, NP_NAME.get(name, name))
    want = messages(lambda: f_np(a))
    got = messages(lambda: getattr(ma, name)(x))
    assert got == want


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", BINARY)
def test_binary_warnings_are_numpys(name: str, dtype: str) -> None:
    a = values(dtype)
    # every pair of special values
    a1, a2 = np.repeat(a, len(a)), np.tile(a, len(a))
    x1, x2 = ma.asarray(a1), ma.asarray(a2)
    f_np = getattr(np, NP_NAME.get(name, name))
    want = messages(lambda: f_np(a1, a2))
    got = messages(lambda: getattr(ma, name)(x1, x2))
    assert got == want


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint32"])
@pytest.mark.parametrize("name", ["floor_divide", "remainder"])
def test_integer_division_by_zero_warns(name: str, dtype: str) -> None:
    a, b = np.array([7, 0, 3], dtype=dtype), np.array([0, 0, 2], dtype=dtype)
    want = messages(lambda: getattr(np, name)(a, b))
    assert want  # NumPy does warn here
    assert messages(lambda: getattr(ma, name)(ma.asarray(a), ma.asarray(b))) == want
    # and nothing when no divisor is zero
    assert messages(lambda: getattr(ma, name)(ma.asarray(a), ma.asarray(b + 1))) == set()


# One element each, so that no other element's flag hides a difference.
SINGLE: dict[str, Callable[[Any], Any]] = {
    "nan // 1": lambda m: m.floor_divide(m.asarray([np.nan]), m.asarray([1.0])),
    "1 // nan": lambda m: m.floor_divide(m.asarray([1.0]), m.asarray([np.nan])),
    "nan % 1": lambda m: m.remainder(m.asarray([np.nan]), m.asarray([1.0])),
    "-2.5 % nan float32": lambda m: m.remainder(m.asarray([-2.5], dtype=m.float32),
                                                m.asarray([np.nan], dtype=m.float32)),
    "complex < nan": lambda m: m.less(m.asarray([0j]), m.asarray([complex(np.nan, 0)])),
    "complex64 >= nan": lambda m: m.greater_equal(m.asarray([1j], dtype=m.complex64), m.asarray([np.nan])),
    "complex == nan": lambda m: m.equal(m.asarray([0j]), m.asarray([complex(np.nan, 0)])),
    "0j ** -1": lambda m: m.pow(m.asarray([0j]), m.asarray([-1 + 0j])),
    "0j ** 1j": lambda m: m.pow(m.asarray([0j]), m.asarray([1j])),
    "0j ** (1-2j)": lambda m: m.pow(m.asarray([0j]), m.asarray([1 - 2j])),
    "(1-2j) ** 100": lambda m: m.pow(m.asarray([1 - 2j]), m.asarray([100 + 0j])),
    "(1-2j) ** -100": lambda m: m.pow(m.asarray([1 - 2j], dtype=m.complex64), m.asarray([-100], dtype=m.int8)),
    "(1-2j) ** 99": lambda m: m.pow(m.asarray([1 - 2j]), m.asarray([99])),
}


@pytest.mark.parametrize("case", list(SINGLE))
def test_single_element_flags_and_values_are_numpys(case: str) -> None:
    """NaN operands of floor division and remainder warn of nothing;
    ordered comparisons of complex NaNs warn; 0j to a power whose real
    part is not positive is NaN and invalid; integer powers of complex
    values are repeated products below 100 only (NumPy's nc_pow)."""
    fn = SINGLE[case]
    np_f = {"pow": np.power}
    want_holder: list[Any] = []
    want = messages(lambda: want_holder.append(fn(_NumpyAsMa(np_f))))
    got_holder: list[Any] = []
    got = messages(lambda: got_holder.append(fn(ma)))
    assert got == want, case
    w, g = np.asarray(want_holder[0]), np.asarray(got_holder[0])
    assert g.dtype == w.dtype, case
    assert g.tobytes() == w.tobytes() or (np.isnan(w).all() and np.isnan(g).all()), case


class _NumpyAsMa:
    """NumPy spelled as minarray for SINGLE's lambdas (ma.pow is NumPy's power)."""

    def __init__(self, renamed: dict[str, Any]) -> None:
        self._renamed = renamed

    def __getattr__(self, name: str) -> Any:
        return self._renamed.get(name) or getattr(np, name)


def test_reductions_warn_like_numpy() -> None:
    big = np.array([1e308, 1e308])
    assert messages(lambda: ma.sum(ma.asarray(big))) == messages(lambda: np.sum(big))
    nan = np.array([1.0, np.nan])
    assert messages(lambda: ma.max(ma.asarray(nan))) == messages(lambda: np.max(nan)) == set()
    assert messages(lambda: ma.min(ma.asarray(nan))) == set()
    assert messages(lambda: ma.any(ma.asarray(nan))) == set()


def test_operators_and_out_report_too() -> None:
    x = ma.asarray([1.0, 0.0])
    assert messages(lambda: x / 0.0) == {"divide by zero encountered in divide",
                                         "invalid value encountered in divide"}
    y = ma.ones(2)
    assert messages(lambda: ma.log(x, out=y)) == {"divide by zero encountered in log"}

    def iadd() -> None:
        z = ma.asarray([1e308])
        z += 1e308

    assert messages(iadd) == {"overflow encountered in add"}


def test_warnings_point_at_the_callers_line() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ma.log(ma.zeros(1))
        ma.zeros(1) / 0.0
    assert [w.filename for w in caught] == [__file__] * len(caught)


def test_modes() -> None:
    x = ma.zeros(2)
    with ma.errstate(divide="ignore"):
        assert messages(lambda: ma.log(x)) == set()
    with pytest.raises(FloatingPointError, match="divide by zero encountered in log"):
        with ma.errstate(divide="raise"):
            ma.log(x)
    # NumPy's callback gets the kind and its flag; its log, NumPy's warning line
    for lib, zero in ((ma, x), (np, np.zeros(2))):
        calls: list[tuple[str, int]] = []
        with lib.errstate(divide="call", call=lambda msg, flag, calls=calls: calls.append((msg, flag))):
            lib.log(zero)
        assert calls == [("divide by zero", 1)]
        log = io.StringIO()
        with lib.errstate(all="log", call=log):
            lib.log(zero)
        assert log.getvalue() == "Warning: divide by zero encountered in log\n"
    with ma.errstate(under="raise"):
        with pytest.raises(FloatingPointError, match="underflow encountered in multiply"):
            ma.asarray([1e-300]) * 1e-300
    with pytest.raises(ValueError, match="invalid floating-point error mode 'loud'"):
        ma.errstate(divide="loud").__enter__()  # type: ignore[arg-type]


def test_errstate_nests_restores_and_decorates() -> None:
    assert ma.geterr() == {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
    with ma.errstate(all="ignore"):
        with ma.errstate(divide="raise"):
            assert ma.geterr() == {"divide": "raise", "over": "ignore", "under": "ignore", "invalid": "ignore"}
        assert ma.geterr()["divide"] == "ignore"
    assert ma.geterr()["divide"] == "warn"

    @ma.errstate(divide="raise")
    def f() -> None:
        ma.log(ma.zeros(1))

    with pytest.raises(FloatingPointError):
        f()
    assert ma.geterr()["divide"] == "warn"
    old = ma.seterr(over="raise")
    try:
        assert old["over"] == "warn" and ma.geterr()["over"] == "raise"
    finally:
        ma.seterr(**old)  # type: ignore[arg-type]
    assert ma.geterr()["over"] == "warn"


def test_state_is_thread_local() -> None:
    seen: list[dict[str, str]] = []
    with ma.errstate(all="raise"):
        t = threading.Thread(target=lambda: seen.append(ma.geterr()))
        t.start()
        t.join()
    assert seen == [{"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}]


def test_pool_threads_report_their_flags() -> None:
    """A zero only in the last chunk is computed by a pool thread (or the
    caller): the warning comes either way, and only once."""
    old_min = _threads._get_parallel_min()
    old_n = _threads.get_num_threads()
    try:
        _threads.set_num_threads(2)
        _threads._set_parallel_min(1024)
        for where in (0, -1):
            a = np.ones(1 << 16)
            a[where] = 0.0
            x = ma.asarray(a)
            before = _threads._pool_jobs()
            assert messages(lambda x=x: ma.log(x)) == {"divide by zero encountered in log"}
            assert _threads._pool_jobs() > before
            assert messages(lambda: ma.sum(ma.asarray(np.full(1 << 17, 1e308)))) == \
                {"overflow encountered in reduce"}
    finally:
        _threads._set_parallel_min(old_min)
        _threads.set_num_threads(old_n)


@pytest.mark.parametrize("layout", ["contiguous", "strided", "in place", "one element", "reversed"])
@pytest.mark.parametrize("name", ["log", "exp", "sin", "sqrt", "divide"])
def test_flags_do_not_depend_on_layout(name: str, layout: str) -> None:
    """Vector math runs on padded tails and stack buffers; the flags it
    reports are those of the values, whatever the layout."""
    a = np.array([0.0, 1.0, 1000.0, -1.0, 2.0, 3.0, 4.0, 5.0, 6.0], dtype="float64")
    f_np = getattr(np, name)
    f_ma = getattr(ma, name)
    args_np: Callable[[np.ndarray], tuple[Any, ...]] = (lambda v: (v, 0.0)) if name == "divide" else (lambda v: (v,))
    if layout == "one element":
        for v in a:
            one = np.array([v])
            want = messages(lambda one=one: f_np(*args_np(one)))
            assert messages(lambda one=one: f_ma(*args_np(ma.asarray(one)))) == want, v  # type: ignore[arg-type]
        return
    view_np = {"contiguous": a, "strided": a[::2], "in place": a, "reversed": a[::-1]}[layout]
    want = messages(lambda: f_np(*args_np(view_np)))
    x = ma.asarray(a)
    view = {"contiguous": x, "strided": x[::2], "in place": x, "reversed": x[::-1]}[layout]
    out = view if layout == "in place" else None
    assert messages(lambda: f_ma(*args_np(view), out=out)) == want  # type: ignore[arg-type]


# ---- flags left by others, and read once ----------------------------------
#
# A fresh result of a few thousand elements or fewer has its flags read once,
# after the loop, and the loop runs again, exactly, only when a flag is set
# (csrc/py/elementwise_dispatch.c); larger results and out= clear the flags first.
# Either way the flags something else left must not be reported, and an
# operation's own must be, on every call.

SIZES = [1, 100, 4095, 4096, 100_000]


def _leave_overflow_flag() -> None:
    """Python's own float arithmetic sets the processor's overflow flag and
    leaves it set (it checks the result, not the flag)."""
    big = float(np.float64(1e308))
    assert big * 10.0 == float("inf")


@pytest.mark.parametrize("n", SIZES)
def test_flags_left_by_python_are_not_reported(n: int) -> None:
    x = ma.linspace(0.0, 1.0, n)
    with ma.errstate(all="raise"):
        for f in (lambda: ma.add(x, x), lambda: x * 2.0, lambda: ma.exp(x), lambda: ma.sin(x),
                  lambda: ma.pow(x, x)):
            _leave_overflow_flag()
            r = f()
            assert r.shape == (n,)


@pytest.mark.parametrize("n", SIZES)
def test_flags_left_by_numpy_are_not_reported(n: int) -> None:
    x = ma.linspace(1.0, 2.0, n)
    with ma.errstate(all="raise"):
        for _ in range(3):
            with np.errstate(all="ignore"):
                np.log(np.zeros(3))
                np.float64(1e308) * np.float64(10.0)
            assert ma.log(x).shape == (n,)


@pytest.mark.parametrize("n", SIZES)
def test_every_call_reports_its_own_flags(n: int) -> None:
    a = np.linspace(0.0, 1.0, n)  # a[0] == 0: log(0) divides by zero
    x = ma.asarray(a)
    for _ in range(3):
        assert messages(lambda: ma.log(x)) == {"divide by zero encountered in log"}
        assert messages(lambda: ma.log(x + 1.0)) == set()
        _leave_overflow_flag()
        assert messages(lambda: ma.log(x)) == {"divide by zero encountered in log"}
        assert messages(lambda: ma.divide(x, 0.0)) == messages(lambda: np.divide(a, 0.0))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_vector_math_flags_stay_exact_when_read_once(n: int, dtype: str) -> None:
    """libmvec raises invalid for exp(nan) and overflow in sin(1e30)'s
    reduction; neither is the function's, with the flags read once or not."""
    a = np.full(n, np.nan, dtype=dtype)
    a[::2] = 1e30
    x = ma.asarray(a)
    for name in ("exp", "sin", "cos", "log"):
        want = messages(lambda name=name: getattr(np, name)(a))
        for _ in range(2):
            assert messages(lambda name=name: getattr(ma, name)(x)) == want, name


# ---- the table: every class of floating-point error NumPy reports ----------
#
# Each row builds its inputs from NumPy arrays and runs one operation with
# NumPy and with minarray (`xp` is numpy or minarray, `mk` turns a NumPy
# array into one of xp's).  For each, under the default errstate, under
# errstate(all="raise") and under errstate(all="ignore"), the row records
# the RuntimeWarnings ("overflow encountered in add", "Degrees of freedom
# <= 0 for slice"), the FloatingPointError and the result; minarray's must
# be NumPy's, word for word.  "Large" rows have the offending value in the
# last element of an array long enough to be split over the thread pool,
# so a worker thread computes it.

LARGE = 1 << 17
Row = Callable[[Any, Callable[[np.ndarray], Any]], Any]


def _ends_with(n: int, fill: float, last: float, dtype: str) -> np.ndarray:
    a = np.full(n, fill, dtype=dtype)
    with np.errstate(all="ignore"):
        a[-1] = last
    return a


def _setitem(x: Any, key: Any, value: Any) -> Any:
    x[key] = value
    return x


def _iadd(x: Any, y: Any) -> Any:
    x += y
    return x


def _f16_rows() -> dict[str, Row]:
    rows: dict[str, Row] = {}
    for size, n in (("small", 4), ("large", LARGE)):
        def big(v: float, n: int = n) -> np.ndarray:
            return _ends_with(n, 1.0, v, "float16")

        rows |= {
            f"float16-add-overflow-{size}": lambda xp, mk, big=big: xp.add(mk(big(60000.0)), mk(big(60000.0))),
            f"float16-multiply-underflow-{size}": lambda xp, mk, big=big: xp.multiply(mk(big(1e-4)), mk(big(1e-4))),
            f"float16-exp-overflow-{size}": lambda xp, mk, big=big: xp.exp(mk(big(20.0))),
            f"float16-exp-underflow-{size}": lambda xp, mk, big=big: xp.exp(mk(big(-20.0))),
            f"float16-square-overflow-{size}": lambda xp, mk, big=big: xp.square(mk(big(300.0))),
            f"float16-divide-by-zero-{size}": lambda xp, mk, big=big: xp.divide(mk(big(1.0)), mk(big(0.0))),
            f"float16-sum-overflow-{size}": lambda xp, mk, n=n: xp.sum(mk(np.full(n, 30000.0, "float16"))),
            f"float16-iadd-overflow-{size}": lambda xp, mk, big=big: _iadd(mk(big(60000.0)), mk(big(60000.0))),
            f"float16-add-out-overflow-{size}": lambda xp, mk, big=big: xp.add(
                mk(big(60000.0)), mk(big(60000.0)), out=mk(np.zeros(len(big(0.0)), "float16"))),
        }
    # (scans run on the calling thread alone, whatever the length)
    rows["float16-cumsum-overflow-long"] = lambda xp, mk: xp.cumsum(
        mk(np.r_[np.ones(LARGE), 6e4, 6e4].astype("float16")))
    rows["float16-cumsum-overflow"] = lambda xp, mk: xp.cumsum(mk(np.array([60000.0, 60000.0], "float16")))
    rows["float16-nan-add-is-quiet"] = lambda xp, mk: xp.add(mk(np.array([np.nan, 1.0], "float16")), 1.0)
    rows["float16-inf-exp-is-quiet"] = lambda xp, mk: xp.exp(mk(np.array([np.inf, -np.inf], "float16")))
    rows["float16-sum-pairs-overflow"] = lambda xp, mk: xp.sum(mk(np.full(2, 60000, "float16")))
    rows["float16-0d-add-overflow"] = lambda xp, mk: xp.add(mk(np.array(60000, "float16")),
                                                          mk(np.array(60000, "float16")))
    rows["float16-times-python-float"] = lambda xp, mk: mk(np.ones(3, "float16")) * 1e10
    return rows


# Float -> integer: every integer type against values in and out of the
# range of the conversion x86-64 uses for it (see the rule in
# csrc/core/scalar.h).  The source is strided: NumPy's contiguous float ->
# uint32 loop gives other values in its vectorised body.
CAST_VALUES = [0.0, 2.5, -1.0, 300.0, -300.0, 70000.0, 3e9 + 1.0, -3e9, 5e9, 1e19, 2.0**63, 1e20, -1e20,
               float("inf"), float("-inf"), float("nan")]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


def _cast_rows() -> dict[str, Row]:
    rows: dict[str, Row] = {}
    for to in INTS:
        for v in CAST_VALUES:
            rows[f"cast-float64-{v!r}-to-{to}"] = (
                lambda xp, mk, v=v, to=to: mk(np.array([v, 0.0, v, 0.0]))[::2].astype(to))
        rows[f"cast-float32-to-{to}"] = lambda xp, mk, to=to: mk(
            np.repeat(np.array([np.nan, 1e20, -1.0, 300.0], "float32"), 2))[::2].astype(to)
        rows[f"cast-float16-to-{to}"] = lambda xp, mk, to=to: mk(
            np.array([np.inf, -np.inf, 300.0, -1.0], "float16")).astype(to)
    for to in ("int64", "int32", "int8"):
        rows[f"cast-float64-to-{to}-large"] = lambda xp, mk, to=to: mk(_ends_with(LARGE, 1.5, np.nan, "float64")
                                                                     ).astype(to)
    narrow = {"f64-f32-overflow": ("float64", 1e300, "float32"), "f64-f32-underflow": ("float64", 1e-300, "float32"),
              "f64-f16-overflow": ("float64", 1e10, "float16"), "f32-f16-overflow": ("float32", 1e10, "float16"),
              "f64-f16-underflow": ("float64", 1e-10, "float16"),
              "f32-f16-underflow": ("float32", 1e-10, "float16"),
              "f64-f16-nan": ("float64", np.nan, "float16"), "f32-f16-nan": ("float32", np.nan, "float16"),
              "f64-f16-inf": ("float64", np.inf, "float16"), "f64-f32-nan": ("float64", np.nan, "float32"),
              "c128-c64-overflow": ("complex128", 1e300, "complex64")}
    for name, (src, v, to) in narrow.items():
        rows[f"cast-{name}"] = lambda xp, mk, src=src, v=v, to=to: mk(np.array([v, 1.0], src)).astype(to)
        rows[f"cast-{name}-large"] = lambda xp, mk, src=src, v=v, to=to: mk(
            _ends_with(LARGE, 1.0, v, src)).astype(to)
    rows |= {
        "setitem-float32-python-float": lambda xp, mk: _setitem(mk(np.zeros(2, "float32")), 0, 1e300),
        "setitem-float32-slice-python-float": lambda xp, mk: _setitem(mk(np.zeros(2, "float32")),
                                                                      slice(None), 1e300),
        "setitem-float32-float64-array": lambda xp, mk: _setitem(mk(np.zeros(2, "float32")), slice(None),
                                                                 mk(np.array([1e300, 1.0]))),
        "setitem-float16-python-float": lambda xp, mk: _setitem(mk(np.zeros(2, "float16")), 1, 1e10),
        "setitem-float16-python-nan": lambda xp, mk: _setitem(mk(np.zeros(2, "float16")), 1, float("nan")),
        "cast-float64-nan-to-bool-is-quiet": lambda xp, mk: mk(np.array([np.nan, 0.0])).astype(bool),
        "setitem-int64-nan-array": lambda xp, mk: _setitem(mk(np.zeros(2, "int64")), slice(None),
                                                           mk(np.array([np.nan, 1.0]))),
        "float32-plus-python-float": lambda xp, mk: mk(np.ones(2, "float32")) + 1e300,
    }
    return rows


def _product_rows() -> dict[str, Row]:
    def mat(v: float, dtype: str, n: int = 2) -> np.ndarray:
        return np.full((n, n), v, dtype=dtype)

    return {
        "cumsum-float64-overflow": lambda xp, mk: xp.cumsum(mk(np.array([1e308, 1e308]))),
        "cumsum-float64-overflow-long": lambda xp, mk: xp.cumsum(mk(np.r_[np.ones(LARGE), 1e308, 1e308])),
        "cumprod-float64-overflow": lambda xp, mk: xp.cumprod(mk(np.array([1e200, 1e200]))),
        "cumsum-float32-invalid": lambda xp, mk: xp.cumsum(mk(np.array([np.inf, -np.inf], "float32"))),
        "matmul-float64-overflow": lambda xp, mk: xp.matmul(mk(mat(1e200, "float64")), mk(mat(1e200, "float64"))),
        "matmul-float32-overflow": lambda xp, mk: xp.matmul(mk(mat(1e30, "float32", 4)),
                                                            mk(mat(1e30, "float32", 4))),
        "matmul-float64-underflow": lambda xp, mk: xp.matmul(mk(mat(1e-200, "float64")),
                                                             mk(mat(1e-200, "float64"))),
        "matmul-float64-invalid": lambda xp, mk: xp.matmul(mk(mat(np.inf, "float64")), mk(mat(0.0, "float64"))),
        "matmul-complex128-overflow": lambda xp, mk: xp.matmul(mk(mat(1e200, "complex128")),
                                                               mk(mat(1e200, "complex128"))),
        "matmul-int64-wraps-silently": lambda xp, mk: xp.matmul(mk(mat(2**62, "int64")), mk(mat(4, "int64"))),
        "dot-vectors-overflow": lambda xp, mk: xp.dot(mk(np.full(10, 1e200)), mk(np.full(10, 1e200))),
        "dot-matrices-overflow": lambda xp, mk: xp.dot(mk(mat(1e200, "float64")), mk(mat(1e200, "float64"))),
        "matmul-vector-overflow": lambda xp, mk: xp.matmul(mk(mat(1e200, "float64")), mk(np.full(2, 1e200))),
    }


def _integer_rows() -> dict[str, Row]:
    rows: dict[str, Row] = {}
    for t in ("int8", "int16", "int32", "int64"):
        lo = np.iinfo(t).min
        rows[f"floor_divide-{t}-min-by-minus-one"] = lambda xp, mk, t=t, lo=lo: xp.floor_divide(
            mk(np.array([lo, 7, lo], t)), mk(np.array([-1, -1, 2], t)))
        rows[f"remainder-{t}-min-by-minus-one"] = lambda xp, mk, t=t, lo=lo: xp.remainder(
            mk(np.array([lo, 7], t)), mk(np.array([-1, -1], t)))
    rows["floor_divide-int64-min-by-minus-one-large"] = lambda xp, mk: xp.floor_divide(
        mk(_ends_with(LARGE, 5, np.iinfo("int64").min, "int64")), -1)
    rows["floor_divide-uint64-max"] = lambda xp, mk: xp.floor_divide(mk(np.array([2**64 - 1], "uint64")),
                                                                     mk(np.array([1], "uint64")))
    return rows


def _cov_rows() -> dict[str, Row]:
    return {
        "cov-one-sample": lambda xp, mk: xp.cov(mk(np.array([1.0]))),
        "cov-one-sample-three-variables": lambda xp, mk: xp.cov(mk(np.array([[1.0], [2.0], [3.0]]))),
        "cov-ddof-beyond": lambda xp, mk: xp.cov(mk(np.array([1.0, 2.0])), ddof=3),
        "cov-two-samples-fine": lambda xp, mk: xp.cov(mk(np.array([1.0, 2.0]))),
    }


TABLE: dict[str, Row] = {**_f16_rows(), **_cast_rows(), **_product_rows(), **_integer_rows(), **_cov_rows()}


def _observe(xp: Any, row: Row, mode: str | None) -> tuple[frozenset[str], str | None, Any]:
    """Run `row` with `xp` under errstate(all=mode) (None: the defaults):
    the RuntimeWarnings' words, the FloatingPointError's (or None) and the
    result as a NumPy array."""
    mk: Callable[[np.ndarray], Any] = (lambda a: a.copy()) if xp is np else ma.asarray
    state = contextlib.nullcontext() if mode is None else xp.errstate(all=mode)
    raised = None
    result: Any = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            with state:
                result = row(xp, mk)
        except FloatingPointError as e:
            raised = str(e)
    words = frozenset(str(w.message) for w in caught if issubclass(w.category, RuntimeWarning))
    return words, raised, None if result is None else np.asarray(result)


@pytest.fixture
def pool_threads() -> Iterator[None]:
    """Split large kernels over two threads, from small sizes on."""
    old_min, old_n = _threads._get_parallel_min(), _threads.get_num_threads()
    _threads.set_num_threads(2)
    _threads._set_parallel_min(1024)
    try:
        yield
    finally:
        _threads._set_parallel_min(old_min)
        _threads.set_num_threads(old_n)


@pytest.mark.usefixtures("pool_threads")
@pytest.mark.parametrize("mode", ["default", "raise", "ignore"])
@pytest.mark.parametrize("row", list(TABLE))
def test_errors_are_numpys(row: str, mode: str) -> None:
    if row.startswith("dot-") and mode != "ignore" and not DOT_REPORTS_FP_ERRORS:
        pytest.skip("NumPy 2.0's dot reports no floating-point errors; later NumPy does, as minarray")
    errstate_mode = None if mode == "default" else mode
    want_words, want_raised, want = _observe(np, TABLE[row], errstate_mode)
    jobs = _threads._pool_jobs()
    got_words, got_raised, got = _observe(ma, TABLE[row], errstate_mode)
    assert (got_words, got_raised) == (want_words, want_raised)
    if row.endswith("-large"):
        assert _threads._pool_jobs() > jobs  # the pool threads did take part
    if mode == "ignore":
        # none of the errstate's kinds (NumPy's other warnings stay)
        assert not any(" encountered in " in w for w in got_words)
    if want_raised is None:
        assert want is not None and got is not None
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


# ---- getbufsize / setbufsize ----------------------------------------------------------------


def test_bufsize_is_kept_and_returned_as_numpy() -> None:
    assert ma.getbufsize() == np.getbufsize() == 8192
    try:
        assert ma.setbufsize(4096) == np.setbufsize(4096) == 8192
        assert ma.getbufsize() == np.getbufsize() == 4096
        assert ma.setbufsize(16) == 4096
        assert ma.getbufsize() == 16
    finally:
        ma.setbufsize(8192)
        np.setbufsize(8192)
    assert ma.getbufsize() == 8192


def test_errstate_restores_the_bufsize_as_numpy() -> None:
    # NumPy's docstring example: the buffer size is part of the error state
    for xp in (np, ma):
        with xp.errstate():
            assert xp.setbufsize(4096) == 8192 and xp.getbufsize() == 4096
        assert xp.getbufsize() == 8192


def test_bufsize_is_per_context_as_numpy() -> None:
    seen: list[int] = []

    def other_thread() -> None:
        seen.append(ma.getbufsize())

    try:
        ma.setbufsize(1024)
        t = threading.Thread(target=other_thread)
        t.start()
        t.join()
    finally:
        ma.setbufsize(8192)
    assert seen == [8192]  # a new thread starts from the default, as NumPy's context variable


@pytest.mark.parametrize("size", [-16, 0, 8, 24, 16_000_008, 16_000_016, 2**40, 8.0, 32.5, "a"], ids=repr)
def test_setbufsize_refuses_as_numpy(size: Any) -> None:
    with pytest.raises(Exception) as expected:
        np.setbufsize(size)
    with pytest.raises(type(expected.value)) as got:
        ma.setbufsize(size)
    assert str(got.value) == str(expected.value) or type(size) is not int
    assert ma.getbufsize() == np.getbufsize() == 8192  # nothing changed
