"""Floating-point errors: which warnings an operation gives (NumPy as the
oracle), the errstate modes, and that the state is thread- and
context-local.  The other elementwise tests silence these warnings; here
they are the subject."""

from __future__ import annotations

import io
import threading
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import minarray as ma
from minarray import threads as ma_threads

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
    """The RuntimeWarnings `fn` gives, with the operation's name as NumPy spells it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    out = set()
    for w in caught:
        assert w.category is RuntimeWarning, w
        text = str(w.message)
        head, _, op = text.rpartition(" in ")
        out.add(f"{head} in {NP_NAME.get(op, op)}")
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
    calls: list[tuple[str, int]] = []
    with ma.errstate(divide="call", call=lambda msg, flag: calls.append((msg, flag))):
        ma.log(x)
    assert calls == [("divide by zero encountered in log", 1)]
    log = io.StringIO()
    with ma.errstate(all="log", call=log):
        ma.log(x)
    assert log.getvalue() == "warning: divide by zero encountered in log\n"
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
    old_min = ma_threads._get_parallel_min()
    old_n = ma_threads.get_num_threads()
    try:
        ma_threads.set_num_threads(2)
        ma_threads._set_parallel_min(1024)
        for where in (0, -1):
            a = np.ones(1 << 16)
            a[where] = 0.0
            x = ma.asarray(a)
            before = ma_threads._pool_jobs()
            assert messages(lambda x=x: ma.log(x)) == {"divide by zero encountered in log"}
            assert ma_threads._pool_jobs() > before
            assert messages(lambda: ma.sum(ma.asarray(np.full(1 << 17, 1e308)))) == \
                {"overflow encountered in reduce"}
    finally:
        ma_threads._set_parallel_min(old_min)
        ma_threads.set_num_threads(old_n)


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
# (csrc/py/elementwise.c); larger results and out= clear the flags first.
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
