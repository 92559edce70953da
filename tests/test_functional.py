"""NumPy's functional programming routines (minarray/_functional.py:
vectorize, apply_along_axis, apply_over_axes) against NumPy: values,
dtypes and shapes, the argument spellings, and the errors."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from numpy_errors import raises_as_numpy
from numpy_oracle import same

import minarray as ma


def _on(m: Any, x: np.ndarray) -> Any:
    return x if m is np else ma.asarray(x)


# ---- vectorize -----------------------------------------------------------------------------

ELEMENTWISE: dict[str, tuple[Any, dict[str, Any], tuple[Any, ...]]] = {
    "int-scalar": (lambda x: x + 1, {}, (3,)),
    "float-list": (lambda x: x * 2.5, {}, ([1.5, -2.0],)),
    "broadcast-two": (lambda a, b: a - b if a > b else a + b, {}, (np.arange(6).reshape(2, 3), np.arange(3))),
    "first-result-dtype": (lambda x: x if x < 2 else x + 0.5, {}, ([1, 2, 3],)),
    "float-then-int": (lambda x: x / 2 if x else 0, {}, ([1, 0, 3],)),
    "bool-result": (lambda x: x > 1, {}, (np.arange(4.0),)),
    "complex": (lambda z: z.conjugate() * 2, {}, (np.array([1 + 2j, -1j]),)),
    "otypes-str": (lambda x: x * 1.7, {"otypes": "i"}, ([1, 2, 3],)),
    "otypes-list": (lambda x: x, {"otypes": [float]}, (np.arange(3),)),
    "two-outputs": (lambda x: (x, x * 2.0), {}, ([1, 2],)),
    "two-otypes": (lambda x: (x, x * 2), {"otypes": [np.float32, np.int8]}, ([1, 2],)),
    "strided-input": (lambda x: x * x, {}, (np.arange(12).reshape(3, 4)[::2, ::-1],)),
    "int8-input": (lambda x: x * 3, {}, (np.array([1, 2], np.int8),)),
}


@pytest.mark.parametrize("name", sorted(ELEMENTWISE))
def test_vectorize_matches_numpy(name: str) -> None:
    fn, kwargs, args = ELEMENTWISE[name]
    expected = np.vectorize(fn, **kwargs)(*args)
    got = ma.vectorize(fn, **kwargs)(*(ma.asarray(a) if isinstance(a, np.ndarray) else a for a in args))
    same(got, expected)


def test_vectorize_excluded_and_keywords() -> None:
    def poly(p: Any, x: Any) -> Any:
        return p[0] * x * x + p[1] * x + p[2]

    same(ma.vectorize(poly, excluded=["p"])(p=[1, 2, 3], x=[0, 1, 2]),
         np.vectorize(poly, excluded=["p"])(p=[1, 2, 3], x=[0, 1, 2]))
    same(ma.vectorize(poly, excluded={0})([1, 2, 3], [0, 1, 2]), np.vectorize(poly, excluded={0})([1, 2, 3], [0, 1, 2]))
    same(ma.vectorize(lambda a, b=1: a * b)([1, 2], b=[3, 4]), np.vectorize(lambda a, b=1: a * b)([1, 2], b=[3, 4]))


def test_vectorize_calls_once_per_element_and_keeps_the_doc() -> None:
    calls: list[Any] = []

    def f(x: Any) -> Any:
        """Doubles."""
        calls.append(x)
        return 2 * x

    v = ma.vectorize(f)
    same(v(ma.arange(4)), np.arange(4) * 2)
    # the first call finds the output type: on the array's scalar (a 0-d array: NumPy's scalar), the
    # others on Python scalars as NumPy passes them
    assert calls == [0, 1, 2, 3] and isinstance(calls[0], ma.NDArray) and calls[0].dtype == ma.int64
    assert all(type(c) is int for c in calls[1:])
    calls.clear()
    same(ma.vectorize(f, otypes="d")(ma.arange(3)), np.arange(3.0) * 2)
    assert calls == [0, 1, 2] and all(type(c) is int for c in calls)  # with otypes: no type-finding call
    assert v.__doc__ == "Doubles." and ma.vectorize(f, doc="other").__doc__ == "other"

    @ma.vectorize
    def inc(x: Any) -> Any:
        return x + 1

    @ma.vectorize(otypes=[np.float64])
    def half(x: Any) -> Any:
        """Halves."""
        return x / 2

    assert half.__doc__ == "Halves."

    same(inc([1, 2]), np.array([2, 3]))
    same(half([1, 2]), np.array([0.5, 1.0]))


SIGNATURES: dict[str, tuple[Any, str, tuple[np.ndarray, ...], dict[str, Any]]] = {
    "reduce": (lambda a: a.sum(), "(n)->()", (np.arange(12.0).reshape(3, 4),), {}),
    "same-shape": (lambda a: a * 2, "(n)->(n)", (np.arange(6).reshape(2, 3),), {}),
    "inner": (lambda a, b: (a * b).sum(), "(n),(n)->()", (np.arange(6.0).reshape(2, 3), np.arange(3.0)), {}),
    "new-dim": (lambda a: ma.stack([a, a]) if isinstance(a, ma.NDArray) else np.stack([a, a]), "(n)->(k,n)",
                (np.arange(6).reshape(3, 2),), {}),
    "matvec": (lambda m, v: m @ v, "(m,n),(n)->(m)", (np.ones((4, 2, 3)), np.arange(3.0)), {}),
    "two-outputs": (lambda a: (a.min(), a.max()), "(n)->(),()", (np.arange(8).reshape(2, 4),), {}),
    "otypes": (lambda a: a.sum(), "(n)->()", (np.arange(6).reshape(2, 3),), {"otypes": [np.float32]}),
    "empty-loop": (lambda a: a.sum(), "(n)->()", (np.zeros((0, 3)),), {"otypes": [np.float64]}),
}


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_vectorize_signature_matches_numpy(name: str) -> None:
    fn, sig, args, kwargs = SIGNATURES[name]
    expected = np.vectorize(fn, signature=sig, **kwargs)(*args)
    got = ma.vectorize(fn, signature=sig, **kwargs)(*(ma.asarray(a) for a in args))
    same(list(got) if isinstance(got, tuple) else got, list(expected) if isinstance(expected, tuple) else expected)


def test_vectorize_refuses_as_numpy() -> None:
    raises_as_numpy(lambda m: m.vectorize(lambda x: x)([]), "size 0 inputs unless `otypes`")
    raises_as_numpy(lambda m: m.vectorize(lambda x: x, signature="(n->()"), "signature")
    raises_as_numpy(lambda m: m.vectorize(lambda a: a, signature="(n,m)->()")(m.ones(3)), "enough dimensions")
    raises_as_numpy(lambda m: m.vectorize(lambda a, b: 0, signature="(n),(n)->()")(m.ones(3), m.ones(4)),
                    "inconsistent size")
    raises_as_numpy(lambda m: m.vectorize(lambda a: a, signature="(n)->()")(m.ones((2, 3))), "core dimensions")
    raises_as_numpy(lambda m: m.vectorize(lambda a: a, signature="(n)->(),()")(m.ones((2, 3))), "number of outputs")
    raises_as_numpy(lambda m: m.vectorize(lambda a: a, signature="(n)->(k)")(m.ones((0, 3))), "otypes")
    raises_as_numpy(lambda m: m.vectorize(lambda a: a, signature="(n)->(k)", otypes=[float])(m.ones((0, 3))),
                    "new output dimensions")
    raises_as_numpy(lambda m: m.vectorize(lambda a, b: a)(m.ones(2), m.ones(3)), "broadcast")


# ---- apply_along_axis, apply_over_axes -------------------------------------------------------

ALONG: dict[str, tuple[Any, Any, tuple[int, ...], tuple[Any, ...]]] = {
    "reverse": (lambda v: v[::-1], 1, (2, 3), ()),
    "sum-axis0": (lambda v: v.sum(), 0, (3, 4), ()),
    "scalar-result-3d": (lambda v: v.max() - v.min(), -1, (2, 3, 4), ()),
    "matrix-result": (lambda v: v[:, None] * v[None, :], 1, (2, 3, 2), ()),
    "middle-axis-two-d": (lambda v: v[:, None] + v[None, :], 1, (2, 3, 4), ()),
    "extra-args": (lambda v, k, scale=1: v[:k] * scale, 0, (4, 2), (2,)),
    "first-dtype": (lambda v: v.sum() > 3, 0, (3, 2), ()),
    "float-from-int": (lambda v: v / 2, 1, (2, 3), ()),
}


@pytest.mark.parametrize("name", sorted(ALONG))
def test_apply_along_axis_matches_numpy(name: str) -> None:
    fn, axis, shape, extra = ALONG[name]
    x = np.arange(math.prod(shape)).reshape(shape)
    kwargs = {"scale": 3} if extra else {}
    expected = np.apply_along_axis(fn, axis, x, *extra, **kwargs)
    got = ma.apply_along_axis(fn, axis, ma.asarray(x), *extra, **kwargs)
    same(got, expected)


def test_apply_along_axis_takes_lists_and_refuses_as_numpy() -> None:
    same(ma.apply_along_axis(lambda v: v.sum(), 0, ma.ones((0, 3))),
         np.apply_along_axis(lambda v: v.sum(), 0, np.ones((0, 3))))
    same(ma.apply_along_axis(lambda v: v.sum(), 0, [[1, 2], [3, 4]]),
         np.apply_along_axis(lambda v: v.sum(), 0, [[1, 2], [3, 4]]))
    raises_as_numpy(lambda m: m.apply_along_axis(lambda v: v, 1, m.ones((0, 3))), "iteration dimensions are 0")
    raises_as_numpy(lambda m: m.apply_along_axis(lambda v: v, 2, m.ones((2, 3))), "out of bounds")


@pytest.mark.parametrize("axes", [[0, 2], 1, (-1,), [], [2, 0, 1]], ids=str)
def test_apply_over_axes_matches_numpy(axes: Any) -> None:
    x = np.arange(24).reshape(2, 3, 4)
    expected = np.apply_over_axes(np.sum, x, axes)
    got = ma.apply_over_axes(lambda a, axis: ma.sum(a, axis=axis), ma.asarray(x), axes)
    same(got, expected)
    keep = ma.apply_over_axes(lambda a, axis: ma.sum(a, axis=axis, keepdims=True), x.tolist(), axes)
    same(keep, expected)


def test_apply_over_axes_refuses_as_numpy() -> None:
    raises_as_numpy(lambda m: m.apply_over_axes(lambda a, axis: a.reshape(-1), m.ones((2, 3, 4)), [0]),
                    "correct shape")


# ---- piecewise -----------------------------------------------------------------------------

X_PIECES = np.linspace(-2.5, 2.5, 11)
PIECEWISE: dict[str, tuple[Any, Any, Any, dict[str, Any]]] = {
    # x, condlist (a function of x), funclist, keywords
    "two-functions": (X_PIECES, lambda x: [x < 0, x >= 0], [lambda v: -v, lambda v: v * 10], {}),
    "otherwise": (X_PIECES, lambda x: [x < -1, x > 1], [-1.0, 1.0, lambda v: v / 2], {}),
    "scalars-only": (X_PIECES, lambda x: [x < 0], [7, 8], {}),
    "uncovered-is-zero": (X_PIECES, lambda x: [x < -2, x > 2], [1, 2], {}),
    "later-wins": (X_PIECES, lambda x: [x < 1, x < 0], [1.0, 2.0], {}),
    "one-bare-condition": (X_PIECES, lambda x: x > 0, [lambda v: v ** 2, 0.5], {}),
    "int-keeps-dtype": (np.arange(-3, 4), lambda x: [x % 2 == 0], [lambda v: v * 2.7, -1], {}),
    "2-d": (np.arange(12.0).reshape(3, 4), lambda x: [x > 5, x < 2], [lambda v: v - 100, 9], {}),
    "args-and-kw": (X_PIECES, lambda x: [x > 0], [lambda v, a, b=0: v * a + b, 0], {"args": (3,), "b": 1}),
    "0-d": (np.array(2.0), lambda x: [x > 1], [lambda v: v + 1, 0], {}),
    "scalar-x": (1.5, lambda x: [x > 1], [lambda v: v * 4, 0], {}),
    "no-match-skips-call": (X_PIECES, lambda x: [x > 100], [lambda v: v[5], 3], {}),
}


@pytest.mark.parametrize("case", PIECEWISE)
def test_piecewise_as_numpy(case: str) -> None:
    x, conds, funcs, kw = PIECEWISE[case]
    kw = dict(kw)
    args = kw.pop("args", ())
    want = np.piecewise(x, conds(np.asarray(x)), funcs, *args, **kw)
    got = ma.piecewise(ma.asarray(x), conds(ma.asarray(x)), funcs, *args, **kw)
    same(got, want)


def test_piecewise_takes_lists_as_numpy() -> None:
    x = [-1.0, 0.5, 2.0]
    same(ma.piecewise(x, [[True, False, False], [False, False, True]], [1, 2, 3]),
         np.piecewise(x, [[True, False, False], [False, False, True]], [1, 2, 3]))


class _Sub(ma.NDArray):
    pass


def test_piecewise_keeps_subclass_and_leaves_x() -> None:
    x = ma.asarray([1.0, -1.0, 3.0]).view(_Sub)
    got = ma.piecewise(x, [x > 0], [lambda v: v * 2, 5.0])
    assert type(got) is _Sub  # NumPy's: zeros_like(x) keeps the class
    np.testing.assert_array_equal(np.asarray(got), [2.0, 5.0, 6.0])
    np.testing.assert_array_equal(np.asarray(x), [1.0, -1.0, 3.0])


def test_piecewise_errors_as_numpy() -> None:
    raises_as_numpy(lambda m: m.piecewise(m.arange(3.0), [m.arange(3) > 0], [1, 2, 3]),
                    r"with 1 condition\(s\), either 1 or 2 functions are expected")
    raises_as_numpy(lambda m: m.piecewise(m.arange(3.0), [m.arange(4) > 0], [1]), "index|shape|size|match")


# ---- frompyfunc ----------------------------------------------------------------------------

def test_frompyfunc_refuses_naming_the_reason() -> None:
    with pytest.raises(TypeError, match=r"object.*use NumPy.*vectorize"):
        ma.frompyfunc(lambda x: x, 1, 1)
    # NumPy's makes a ufunc of object results, which minarray cannot hold
    assert np.frompyfunc(lambda x: x, 1, 1)(np.arange(2)).dtype == object
