"""NumPy's ufunc interface (minarray/_ufunc.py, csrc/py/ufunc.c) against
NumPy as the oracle: the call's keywords (out=, where=, dtype=, casting=),
the methods reduce, accumulate, outer, at and reduceat, and the
attributes.  Cross-cutting: the elementwise chapter's objects
(tests/test_elementwise.py tests their values) with the reductions'
kernels (tests/test_statistical.py, tests/test_utility.py)."""

from __future__ import annotations

import inspect
import math
import pickle
import re
import sys
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minarray as ma

pytestmark = pytest.mark.filterwarnings("ignore:.* encountered in :RuntimeWarning")

# The ufuncs minarray has under NumPy's names.
NAMES = sorted(n for n in ma.__all__ if isinstance(getattr(np, n, None), np.ufunc) and getattr(np, n).signature is None)
BINARY = [n for n in NAMES if getattr(np, n).nin == 2]
DTYPES = ["bool", "int8", "uint8", "int32", "int64", "uint64", "float32", "float64", "complex128"]


def same(got: Any, want: Any, exact: bool = True) -> None:
    g = np.asarray(got)
    w = np.asarray(want)
    assert g.dtype == w.dtype, (g.dtype, w.dtype)
    assert g.shape == w.shape, (g.shape, w.shape)
    if exact or g.dtype.kind not in "fc":
        np.testing.assert_array_equal(g, w)
    else:
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-12)


def raises_like(fn_ma: Any, fn_np: Any) -> type[BaseException]:
    """Both raise, and minarray's error is an instance of every built-in
    class NumPy's is (its UFuncTypeError is a TypeError, its AxisError a
    ValueError and an IndexError)."""
    with pytest.raises(Exception) as want:
        fn_np()
    with pytest.raises(Exception) as got:
        fn_ma()
    builtin = tuple(c for c in type(want.value).__mro__
                    if c.__module__ == "builtins" and c not in (Exception, BaseException, object))
    assert all(isinstance(got.value, c) for c in builtin), (got.value, want.value)
    return type(got.value)


def sample(dtype: str, shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(1, 5, shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        return (rng.uniform(-2, 2, shape) + 1j * rng.uniform(-2, 2, shape)).astype(dtype)
    return rng.uniform(-2, 2, shape).astype(dtype)


# ---- the objects ----------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_attributes_are_numpys(name: str) -> None:
    f, g = getattr(ma, name), getattr(np, name)
    assert isinstance(f, ma.ufunc)
    assert (f.nin, f.nout, f.nargs) == (g.nin, g.nout, g.nargs)
    assert f.__name__ == g.__name__ or f is getattr(ma, f.__name__)  # ma.absolute is ma.abs
    assert repr(f) == f"<ufunc '{f.__name__}'>"
    assert f.signature is None
    if name not in ("divide", "true_divide"):  # NumPy 2 still gives divide no identity
        assert (f.identity is None) == (g.identity is None), (f.identity, g.identity)
        if g.identity is not None:
            assert f.identity == g.identity
    assert f.ntypes == len(f.types) > 0
    for t in f.types:
        ins, outs = t.split("->")
        assert (len(ins), len(outs)) == (f.nin, f.nout), t
    assert pickle.loads(pickle.dumps(f)) is f


def test_types_use_numpys_codes() -> None:
    assert {"??->?", "bb->b", "dd->d", "DD->D"} <= set(ma.add.types)
    assert set(ma.add.types) <= set(np.add.types) | {"ll->l", "LL->L"}


def test_signature_and_doc() -> None:
    assert inspect.signature(ma.add) == inspect.signature(np.add)
    assert str(inspect.signature(ma.exp)).startswith("(x, /, out=None, *, where=True")
    assert ma.add.__doc__ is not None and ma.add.__doc__.startswith("add(x1, x2, /, out=None")
    assert ma.gcd.__doc__ is not None and "greatest common divisor" in ma.gcd.__doc__
    assert ma.add.__module__ == "minarray"


def test_ufuncs_are_not_made_by_calling_the_type() -> None:
    with pytest.raises(TypeError):
        ma.ufunc()


def _python_calls(expr: Any) -> list[str]:
    names: list[str] = []
    sys.setprofile(lambda frame, event, arg: names.append(frame.f_code.co_name) if event == "call" else None)
    try:
        expr()
    finally:
        sys.setprofile(None)
    return names


def test_plain_calls_run_no_python() -> None:
    a, b, c = ma.ones(3), ma.arange(3.0), ma.empty(3)
    assert _python_calls(lambda: ma.add(a, b)) == ["<lambda>"]
    assert _python_calls(lambda: ma.add(a, b, out=c)) == ["<lambda>"]
    assert _python_calls(lambda: ma.exp(a)) == ["<lambda>"]
    assert "_call" in _python_calls(lambda: ma.add(a, b, where=ma.ones(3, dtype=ma.bool), out=c))
    assert "_call" in _python_calls(lambda: ma.add(a, [1.0, 2.0, 3.0]))


# ---- the call -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "less", "fmax", "gcd", "exp", "negative"])
def test_where_with_out_leaves_the_rest(name: str) -> None:
    """(exp: minarray's vector libm may differ from NumPy's in the last bit.)"""
    f, g = getattr(ma, name), getattr(np, name)
    dt = "int64" if name == "gcd" else "float64"
    xs = [sample(dt, (3, 4), seed=k) for k in range(g.nin)]
    mask = sample("bool", (4,), seed=9)
    want = np.full((3, 4), 7, dtype=g(*xs).dtype)
    got = ma.asarray(want.copy())
    r = f(*map(ma.asarray, xs), out=got, where=ma.asarray(mask))
    assert r is got
    g(*xs, out=want, where=mask)
    same(got, want, exact=name != "exp")


def test_where_without_out_gives_the_selected_elements() -> None:
    x, y = sample("float64", (5,)), sample("float64", (5,), seed=1)
    mask = np.array([True, False, True, True, False])
    with pytest.warns(UserWarning, match="where"):
        got = np.asarray(ma.add(ma.asarray(x), ma.asarray(y), where=ma.asarray(mask)))
    same(got[mask], (x + y)[mask])


def test_where_must_be_bool() -> None:
    raises_like(lambda: ma.add(ma.ones(3), 1, where=ma.asarray([1, 0, 1]), out=ma.ones(3)),
                lambda: np.add(np.ones(3), 1, where=np.array([1, 0, 1]), out=np.ones(3)))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int16"])
def test_dtype_keyword(dtype: str) -> None:
    x = sample("int8", (4,))
    same(ma.add(ma.asarray(x), ma.asarray(x), dtype=dtype), np.add(x, x, dtype=dtype))
    same(ma.multiply(ma.asarray(x), 3, dtype=dtype), np.multiply(x, 3, dtype=dtype))


def test_dtype_keyword_refusals() -> None:
    x = sample("float64", (3,))
    raises_like(lambda: ma.add(ma.asarray(x), ma.asarray(x), dtype="int32"),
                lambda: np.add(x, x, dtype="int32"))
    i = sample("int8", (3,))
    raises_like(lambda: ma.divide(ma.asarray(i), ma.asarray(i), dtype="int8"),
                lambda: np.divide(i, i, dtype="int8"))


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
@pytest.mark.parametrize("out_dtype", ["int64", "float32", "float64"])
def test_casting_of_out(casting: str, out_dtype: str) -> None:
    x = sample("float64", (4,))
    want = np.zeros(4, dtype=out_dtype)
    got = ma.asarray(want.copy())
    try:
        np.add(x, x, out=want, casting=casting)
    except TypeError as refused:
        with pytest.raises(TypeError, match=re.escape(str(refused))):  # NumPy's words exactly
            ma.add(ma.asarray(x), ma.asarray(x), out=got, casting=casting)
        return
    ma.add(ma.asarray(x), ma.asarray(x), out=got, casting=casting)
    same(got, want)


CAST_REFUSALS = {
    "ufunc out=": lambda m, a, b: m.add(a, b, out=m.zeros(3, dtype=m.int32)),
    "in-place operator": lambda m, a, b: a.__iadd__(b),
    "in-place matmul": lambda m, a, b: a.reshape(1, 3).__imatmul__(b.reshape(3, 1)),
    "input, casting='no'": lambda m, a, b: m.add(a, b, casting="no"),
    "dtype=, casting='safe'": lambda m, a, b: m.add(b, b, dtype=m.float32, casting="safe"),
}


@pytest.mark.parametrize("route", CAST_REFUSALS)
def test_cast_refusals_say_what_numpy_says(route: str) -> None:
    """Every route to a forbidden ufunc cast raises NumPy's message, word for word."""
    call = CAST_REFUSALS[route]
    a, b = np.arange(3, dtype=np.int64), np.linspace(0, 1, 3)
    with pytest.raises(TypeError) as want:
        call(np, a.copy(), b)
    with pytest.raises(TypeError, match=re.escape(str(want.value))):
        call(ma, ma.asarray(a.copy()), ma.asarray(b))


def test_casting_of_inputs_and_bad_rules() -> None:
    a, b = np.ones(3, dtype=np.int8), np.ones(3, dtype=np.float32)
    raises_like(lambda: ma.add(ma.asarray(a), ma.asarray(b), casting="no"), lambda: np.add(a, b, casting="no"))
    same(ma.add(ma.asarray(a), ma.asarray(b), casting="safe"), np.add(a, b, casting="safe"))
    raises_like(lambda: ma.add(ma.asarray(a), ma.asarray(b), casting="bogus"),
                lambda: np.add(a, b, casting="bogus"))
    raises_like(lambda: ma.add(ma.asarray(a), ma.asarray(b), order="Q"), lambda: np.add(a, b, order="Q"))


def test_positional_and_tuple_out() -> None:
    x = sample("float64", (3,))
    o = ma.zeros(3)
    assert ma.add(ma.asarray(x), 1.0, o) is o
    same(o, x + 1.0)
    assert ma.add(ma.asarray(x), 2.0, out=(o,)) is o
    same(o, x + 2.0)
    q, r = ma.zeros(3), ma.zeros(3)
    res = ma.divmod(ma.asarray(x), 0.5, out=(q, r))
    assert res[0] is q and res[1] is r
    wq, wr = np.divmod(x, 0.5)
    same(q, wq)
    same(r, wr)
    raises_like(lambda: ma.add(ma.asarray(x), 1.0, o, out=o), lambda: np.add(x, 1.0, x.copy(), out=x.copy()))
    raises_like(lambda: ma.add(ma.asarray(x)), lambda: np.add(x))
    raises_like(lambda: ma.add(ma.asarray(x), 1, 2, 3), lambda: np.add(x, 1, 2, 3))
    raises_like(lambda: ma.add(ma.asarray(x), 1.0, out=(o, o)), lambda: np.add(x, 1.0, out=(x, x)))
    raises_like(lambda: ma.add(ma.ones((2, 3)), 1.0, out=ma.zeros(2)), lambda: np.add(np.ones((2, 3)), 1.0,
                                                                                       out=np.zeros(2)))


def test_array_likes_go_through_asarray() -> None:
    same(ma.add([1, 2], [3, 4]), np.add([1, 2], [3, 4]))
    same(ma.multiply(np.arange(3.0), 2), np.multiply(np.arange(3.0), 2))
    same(ma.gcd([12, 18], 8), np.gcd([12, 18], 8))


@pytest.mark.parametrize("where", [True, False])
def test_out_aliasing_reads_the_inputs_first(where: bool) -> None:
    x = np.arange(6.0)
    a = ma.asarray(x.copy())
    ma.add(a, a[::-1], out=a, **({"where": ma.ones(6, dtype=ma.bool)} if where else {}))
    same(a, x + x[::-1])
    b = ma.asarray(x.copy())
    ma.subtract(b[1:], b[:-1], out=b[:-1], **({"where": ma.ones(5, dtype=ma.bool)} if where else {}))
    want = x.copy()
    np.subtract(want[1:], want[:-1], out=want[:-1])
    same(b, want)


# ---- reduce ---------------------------------------------------------------------


KERNEL_REDUCE = ["add", "multiply", "maximum", "minimum", "logical_and", "logical_or"]
GENERIC_REDUCE = ["bitwise_and", "bitwise_or", "bitwise_xor", "subtract", "fmax", "fmin", "logaddexp", "hypot",
                  "gcd", "lcm", "logical_xor", "floor_divide"]


def _reduce_dtypes(name: str) -> list[str]:
    g = getattr(np, name)
    return [d for d in DTYPES if any(t.startswith(np.dtype(d).char * 2) for t in g.types)]


@pytest.mark.parametrize("name", KERNEL_REDUCE + GENERIC_REDUCE)
@pytest.mark.parametrize("axis", [0, 1, -1, None, (0, 2)])
def test_reduce_over_dtypes(name: str, axis: Any) -> None:
    f, g = getattr(ma, name), getattr(np, name)
    for dt in _reduce_dtypes(name):
        x = sample(dt, (3, 4, 5))
        try:
            want = g.reduce(x, axis=axis)
        except (TypeError, ValueError):
            raises_like(lambda x=x: f.reduce(ma.asarray(x), axis=axis), lambda x=x: g.reduce(x, axis=axis))
            continue
        same(f.reduce(ma.asarray(x), axis=axis), want, exact=name in ("maximum", "minimum", "fmax", "fmin"))


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "bitwise_or", "subtract", "fmin"])
def test_reduce_keywords(name: str) -> None:
    f, g = getattr(ma, name), getattr(np, name)
    x = sample("int32", (3, 4))
    a = ma.asarray(x)
    same(f.reduce(a, axis=1, keepdims=True), g.reduce(x, axis=1, keepdims=True))
    same(f.reduce(a, axis=0, dtype="int64"), g.reduce(x, axis=0, dtype="int64"))
    same(f.reduce(a, axis=1, initial=3), g.reduce(x, axis=1, initial=3))
    o, w = ma.zeros(4, dtype=ma.int64), np.zeros(4, dtype=np.int64)
    assert f.reduce(a, axis=0, out=o) is o
    g.reduce(x, axis=0, out=w)
    same(o, w)
    mask = sample("bool", (3, 4), seed=3)
    kw: dict[str, Any] = {"where": mask, "axis": 0}
    if g.identity is None:
        kw["initial"] = 2
    same(f.reduce(a, **{**kw, "where": ma.asarray(mask)}), g.reduce(x, **kw))
    same(f.reduce(a, axis=1, where=ma.asarray(mask), initial=5), g.reduce(x, axis=1, where=mask, initial=5))


def test_reduce_nan_and_empty() -> None:
    x = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]])
    for name in ("maximum", "minimum", "fmax", "fmin", "add"):
        same(getattr(ma, name).reduce(ma.asarray(x), axis=1), getattr(np, name).reduce(x, axis=1))
    e = np.ones((0, 3))
    for name in ("add", "multiply", "logical_and", "logical_or", "bitwise_and", "logaddexp", "gcd"):
        dt = "int64" if name in ("bitwise_and", "gcd") else "float64"
        same(getattr(ma, name).reduce(ma.asarray(e.astype(dt)), axis=0),
             getattr(np, name).reduce(e.astype(dt), axis=0))
    same(ma.maximum.reduce(ma.asarray(e), axis=0, initial=-5.0), np.maximum.reduce(e, axis=0, initial=-5.0))
    raises_like(lambda: ma.maximum.reduce(ma.asarray(e), axis=0), lambda: np.maximum.reduce(e, axis=0))
    raises_like(lambda: ma.subtract.reduce(ma.asarray(e), axis=0), lambda: np.subtract.reduce(e, axis=0))


def test_reduce_refusals() -> None:
    x = np.ones((2, 3))
    a = ma.asarray(x)
    raises_like(lambda: ma.subtract.reduce(a, axis=(0, 1)), lambda: np.subtract.reduce(x, axis=(0, 1)))
    raises_like(lambda: ma.exp.reduce(a), lambda: np.exp.reduce(x))
    raises_like(lambda: ma.maximum.reduce(a, where=ma.ones((2, 3), dtype=ma.bool)),
                lambda: np.maximum.reduce(x, where=np.ones((2, 3), dtype=bool)))
    raises_like(lambda: ma.add.reduce(a, axis=2), lambda: np.add.reduce(x, axis=2))


def test_add_reduce_is_sum() -> None:
    x = sample("float32", (1000,))
    a = ma.asarray(x)
    assert float(ma.add.reduce(a)) == float(ma.sum(a))
    same(ma.add.reduce([1, 2, 3]), np.add.reduce([1, 2, 3]))


# ---- accumulate, outer ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "subtract", "logical_and", "fmax",
                                  "bitwise_xor"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "float64"])
def test_accumulate(name: str, dtype: str) -> None:
    f, g = getattr(ma, name), getattr(np, name)
    x = sample(dtype, (3, 4))
    for axis in (0, 1, -1):
        try:
            want = g.accumulate(x, axis=axis)
        except TypeError:
            raises_like(lambda axis=axis: f.accumulate(ma.asarray(x), axis=axis),
                        lambda axis=axis: g.accumulate(x, axis=axis))
            continue
        same(f.accumulate(ma.asarray(x), axis=axis), want, exact=False)


def test_accumulate_keywords() -> None:
    x = sample("int8", (5,))
    same(ma.add.accumulate(ma.asarray(x), dtype="int8"), np.add.accumulate(x, dtype="int8"))
    o, w = ma.zeros(5), np.zeros(5)
    assert ma.maximum.accumulate(ma.asarray(x), out=o) is o
    np.maximum.accumulate(x, out=w)
    same(o, w)
    raises_like(lambda: ma.add.accumulate(ma.asarray(3.0)), lambda: np.add.accumulate(np.asarray(3.0)))
    raises_like(lambda: ma.negative.accumulate(ma.asarray(x)), lambda: np.negative.accumulate(x))


@pytest.mark.parametrize("name", ["multiply", "add", "subtract", "less", "maximum", "gcd"])
def test_outer(name: str) -> None:
    f, g = getattr(ma, name), getattr(np, name)
    x, y = sample("int64", (2, 3)), sample("int64", (4,), seed=1)
    same(f.outer(ma.asarray(x), ma.asarray(y)), g.outer(x, y))
    same(f.outer([1, 2], 3), g.outer([1, 2], 3))


def test_outer_keywords_and_refusals() -> None:
    x, y = sample("float64", (3,)), sample("float64", (2,), seed=1)
    o, w = ma.zeros((3, 2)), np.zeros((3, 2))
    assert ma.multiply.outer(ma.asarray(x), ma.asarray(y), out=o) is o
    np.multiply.outer(x, y, out=w)
    same(o, w)
    same(ma.add.outer(ma.asarray(x), ma.asarray(y), dtype="float32"), np.add.outer(x, y, dtype="float32"))
    raises_like(lambda: ma.exp.outer(ma.asarray(x), ma.asarray(y)), lambda: np.exp.outer(x, y))


# ---- at ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "minimum", "bitwise_or", "divide",
                                  "gcd", "fmax", "logaddexp"])
def test_at_repeated_indices(name: str) -> None:
    g = getattr(np, name)
    dt = "int64" if name in ("bitwise_or", "gcd") else "float64"
    x = sample(dt, (6,))
    idx = [0, 1, 1, 5, 5, 5, -1, 2]
    b = sample(dt, (len(idx),), seed=4)
    want = x.copy()
    g.at(want, idx, b)
    got = ma.asarray(x.copy())
    assert getattr(ma, name).at(got, idx, ma.asarray(b)) is None
    same(got, want, exact=name not in ("logaddexp", "divide"))


@given(st.lists(st.integers(-10, 9), max_size=40), st.sampled_from(["int8", "uint8", "int64", "float32",
                                                                     "float64", "complex128"]))
@settings(max_examples=30, deadline=None)
def test_at_matches_numpy(idx: list[int], dtype: str) -> None:
    x = sample(dtype, (10,))
    b = sample(dtype, (len(idx),), seed=2)
    for name in ("add", "multiply", "subtract"):
        want = x.copy()
        getattr(np, name).at(want, idx, b)
        got = ma.asarray(x.copy())
        getattr(ma, name).at(got, idx, ma.asarray(b))
        same(got, want)


def test_at_index_forms() -> None:
    x = np.arange(12.0).reshape(3, 4)
    cases: list[tuple[Any, Any]] = [
        ((np.array([0, 0, 2]), np.array([1, 1, 3])), 1.5),   # a tuple of index arrays
        ((slice(None), [0, 0]), np.array([[1.0], [2.0], [3.0]])),  # a slice with repeats, b broadcast
        (x > 5, 10.0),                                          # a boolean mask
        (1, np.arange(4.0)),                                    # an integer: a row
        ([2, 0, 2], np.ones(4)),                                # repeated rows
        (slice(None, None, -1), 1.0),                           # a reversed slice
    ]
    for key, b in cases:
        want = x.copy()
        np.add.at(want, key, b)
        got = ma.asarray(x.copy())
        mkey = tuple(ma.asarray(k) if isinstance(k, np.ndarray) else k for k in key) if isinstance(key, tuple) \
            else ma.asarray(key) if isinstance(key, np.ndarray) else key
        ma.add.at(got, mkey, ma.asarray(b) if isinstance(b, np.ndarray) else b)
        same(got, want)


def test_at_strided_target_unary_and_mixed_types() -> None:
    x = np.arange(20.0)
    want, base = x.copy(), ma.asarray(x.copy())
    np.add.at(want[::3], [0, 0, 2], 1.0)
    ma.add.at(base[::3], [0, 0, 2], 1.0)
    same(base, want)
    want, got = x.copy(), ma.asarray(x.copy())
    np.negative.at(want, [1, 1, 3])
    ma.negative.at(got, [1, 1, 3])
    same(got, want)
    f = np.ones(4, dtype=np.float32)
    vals = np.array([0.1, 0.2, 0.3])
    np.add.at(f, [0, 0, 1], vals)
    g = ma.ones(4, dtype=ma.float32)
    ma.add.at(g, [0, 0, 1], ma.asarray(vals))
    same(g, f)
    c = np.zeros(5, dtype=np.int64)
    np.add.at(c, [0, 1, 1, 4, 4, 4], 1)
    d = ma.zeros(5, dtype=ma.int64)
    ma.add.at(d, [0, 1, 1, 4, 4, 4], 1)
    same(d, c)


@pytest.mark.parametrize(("dtype", "b"), [("int64", 1.5), ("int8", 300), ("int8", -1), ("uint8", 7.9),
                                          ("float32", 0.1), ("float16", 1.0), ("float32", 3)])
def test_at_casts_results_back_unsafely(dtype: str, b: Any) -> None:
    """NumPy's at runs the loop of the promoted type with b as an array (a
    Python scalar at its default dtype) and casts each result back."""
    x = np.arange(4).astype(dtype)
    for name in ("add", "multiply", "maximum"):
        want = x.copy()
        getattr(np, name).at(want, [0, 0, 2], b)
        got = ma.asarray(x.copy())
        getattr(ma, name).at(got, [0, 0, 2], b)
        same(got, want)


def test_at_aliasing_reads_b_first() -> None:
    x = np.arange(5.0)
    want = x.copy()
    np.add.at(want, [0, 0, 1, 4], want[:4])
    got = ma.asarray(x.copy())
    ma.add.at(got, [0, 0, 1, 4], got[:4])
    same(got, want)
    i = np.array([3, 1, 1, 0])
    want = i.copy()
    np.multiply.at(want, want, 2)
    got = ma.asarray(i.copy())
    ma.multiply.at(got, got, 2)
    same(got, want)


def test_at_refusals() -> None:
    x = np.ones(3)
    raises_like(lambda: ma.add.at(ma.ones(3), [0, 5], 1.0), lambda: np.add.at(x.copy(), [0, 5], 1.0))
    raises_like(lambda: ma.add.at(ma.ones(3), [0, 1]), lambda: np.add.at(x.copy(), [0, 1]))
    raises_like(lambda: ma.negative.at(ma.ones(3), [0], 1.0), lambda: np.negative.at(x.copy(), [0], 1.0))
    raises_like(lambda: ma.add.at(ma.ones(3), [0, 1], ma.ones(3)), lambda: np.add.at(x.copy(), [0, 1], np.ones(3)))
    ro = ma.broadcast_to(ma.ones(3), (3,))
    with pytest.raises(ValueError, match="read-only"):
        ma.add.at(ro, [0], 1.0)


@pytest.mark.parametrize(("name", "dtype"), [("add", "float64"), ("multiply", "int8"), ("maximum", "float32"),
                                           ("add", "float16")])
@pytest.mark.parametrize("bad", [3, -4, 100])
def test_at_bad_index_late_changes_nothing(name: str, dtype: str, bad: int) -> None:
    """Many good positions into a small array, then a bad one: the kernel
    applies positions as it checks them and puts a back, as NumPy leaves
    it (typed loops, the generic one, a strided target)."""
    idx = np.array([0, 1, 2, -1, -3] * 20 + [bad, 0])
    for view, length in ((slice(None), 3), (slice(None, None, 2), 6)):  # three elements either way
        x = np.arange(1, length + 1).astype(dtype)
        want, got = x.copy(), ma.asarray(x.copy())
        target, target_np = got[view], want[view]
        raises_like(lambda: getattr(ma, name).at(target, ma.asarray(idx), 2),  # noqa: B023 (called at once)
                    lambda: getattr(np, name).at(target_np, idx, 2))  # noqa: B023
        same(got, want)
    un = np.arange(1.0, 4.0)
    got = ma.asarray(un.copy())
    raises_like(lambda: ma.negative.at(got, ma.asarray(idx)), lambda: np.negative.at(un.copy(), idx))
    same(got, un)


# ---- reduceat -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "subtract", "bitwise_or"])
def test_reduceat(name: str) -> None:
    f, g = getattr(ma, name), getattr(np, name)
    x = np.arange(1, 9, dtype=np.int64)
    for idx in ([0, 4, 1, 5, 2, 6, 3, 7], [0, 3, 5], [5, 1, 3], [2], [7, 7, 0]):
        same(f.reduceat(ma.asarray(x), idx), g.reduceat(x, idx))
    y = np.arange(24, dtype=np.int64).reshape(4, 6)
    same(f.reduceat(ma.asarray(y), [0, 2, 2, 5], axis=1), g.reduceat(y, [0, 2, 2, 5], axis=1))


def test_reduceat_keywords_and_refusals() -> None:
    x = np.linspace(0, 1, 8)
    same(ma.add.reduceat(ma.asarray(x), [0, 4], dtype="float32"), np.add.reduceat(x, [0, 4], dtype="float32"),
         exact=False)
    o, w = ma.zeros(2), np.zeros(2)
    assert ma.add.reduceat(ma.asarray(x), [0, 4], out=o) is o
    np.add.reduceat(x, [0, 4], out=w)
    same(o, w, exact=False)
    raises_like(lambda: ma.add.reduceat(ma.asarray(x), [0, 8]), lambda: np.add.reduceat(x, [0, 8]))
    raises_like(lambda: ma.exp.reduceat(ma.asarray(x), [0]), lambda: np.exp.reduceat(x, [0]))


def test_corpus_forms() -> None:
    """The everyday spellings (tests/corpus/ufunc_methods.py)."""
    x = np.array([1, 2, 3, 4])
    a = ma.asarray(x)
    same(ma.add.reduce(a), np.add.reduce(x))
    same(ma.add.accumulate(a), np.add.accumulate(x))
    same(ma.multiply.outer(a, a), np.multiply.outer(x, x))
    same(ma.maximum.reduce([3, 7, 2]), np.maximum.reduce([3, 7, 2]))
    same(ma.logical_and.reduce([True, True, False]), np.logical_and.reduce([True, True, False]))
    assert math.isclose(float(ma.logaddexp.reduce(ma.zeros(4))), float(np.logaddexp.reduce(np.zeros(4))))


@pytest.mark.parametrize(("call", "where"), [
    ("m.sqrt(m.asarray([4.0, -1.0]), where={w}, out=m.zeros(2))", [True, False]),
    ("m.sqrt(m.asarray([4.0, -1.0]), where={w}, out=m.zeros(2))", [False, True]),
    ("m.divide(m.asarray([[1.0], [2.0]]), m.asarray([0.0, 2.0]), where={w}, out=m.zeros((2, 2)))", [False, True]),
    ("m.log(m.asarray([0.0, 1.0, -1.0]), where={w}, out=m.ones(3))", [False, True, True]),
    ("m.floor_divide(m.asarray([1, 2]), m.asarray([0, 2]), where={w}, out=m.zeros(2, m.int64))", [False, True]),
])
def test_where_leaves_out_elements_that_would_warn(call: str, where: list[Any]) -> None:
    """The elements where= leaves out are never computed in NumPy: they
    report nothing, the selected ones as usual."""
    seen = []
    for m in (np, ma):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = eval(call.format(w=f"m.asarray({where})"), {"m": m})
        seen.append((repr(np.asarray(r).tolist()), [str(w.message) for w in caught]))
    assert seen[1] == seen[0]
