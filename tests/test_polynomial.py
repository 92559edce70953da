"""NumPy's one-variable polynomials against NumPy's own: polyfit (every
keyword, errors, RankWarning), polyval, roots, poly, the arithmetic and
calculus functions, and poly1d (evaluation, attributes, operators, str
and repr)."""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np
import pytest

import minarray as ma

X = [0.0, 1.0, 2.0, 3.0, 4.0, 5.5]
Y = [1.0, 3.1, 8.9, 19.2, 33.0, 61.5]
Y2 = [[1.0, 2.0], [3.1, 0.5], [8.9, -1.0], [19.2, 4.0], [33.0, 2.5], [61.5, 7.0]]
W = [1.0, 2.0, 0.5, 1.0, 3.0, 1.0]


def close(got: Any, want: Any, rtol: float = 1e-10) -> None:
    """Same dtype and shape, values to ``rtol`` (LAPACK's rounding)."""
    g = np.asarray(got)
    w = np.asarray(want)
    assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
    np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-12)


def eq(got: Any, want: Any) -> None:
    g, w = np.asarray(got), np.asarray(want)
    assert g.dtype == w.dtype and g.shape == w.shape
    np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("y", [Y, Y2], ids=["1d", "2d"])
@pytest.mark.parametrize("deg", [0, 1, 2, 3])
def test_polyfit(deg: int, y: Any) -> None:
    close(ma.polyfit(ma.asarray(X), ma.asarray(y), deg), np.polyfit(X, y, deg))


@pytest.mark.parametrize("y", [Y, Y2], ids=["1d", "2d"])
def test_polyfit_keywords(y: Any) -> None:
    close(ma.polyfit(X, y, 2, w=W), np.polyfit(X, y, 2, w=W))
    close(ma.polyfit(X, y, 2, rcond=1e-3), np.polyfit(X, y, 2, rcond=1e-3))
    got, want = ma.polyfit(X, y, 2, full=True), np.polyfit(X, y, 2, full=True)
    for g, w in zip(got[:2], want[:2], strict=True):
        close(g, w)
    assert got[2] == want[2]
    close(got[3], want[3])
    assert got[4] == want[4]
    for cov in (True, "unscaled"):
        (gc, gv), (wc, wv) = ma.polyfit(X, y, 2, cov=cov), np.polyfit(X, y, 2, cov=cov)
        close(gc, wc)
        close(gv, wv, rtol=1e-8)


def test_polyfit_dtypes() -> None:
    """Integers are fitted in float64; float32 stays float32 (NumPy's x + 0.0)."""
    xi, yi = [0, 1, 2, 3], [1, 2, 5, 10]
    close(ma.polyfit(xi, yi, 2), np.polyfit(xi, yi, 2))
    x32, y32 = np.asarray(X, np.float32), np.asarray(Y, np.float32)
    close(ma.polyfit(ma.asarray(x32), ma.asarray(y32), 1), np.polyfit(x32, y32, 1), rtol=1e-5)


def test_polyfit_rank_warning() -> None:
    with pytest.warns(ma.exceptions.RankWarning, match="Polyfit may be poorly conditioned"):
        got = ma.polyfit([1.0, 1.0, 1.0], [1.0, 2.0, 3.0], 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        close(got, np.polyfit([1.0, 1.0, 1.0], [1.0, 2.0, 3.0], 2))
    assert issubclass(ma.exceptions.RankWarning, RuntimeWarning)


@pytest.mark.parametrize("args, kwargs", [
    ((X, Y, -1), {}), (([[1.0]], [1.0], 1), {}), (([], [], 1), {}), ((X, [[[1.0]]], 1), {}),
    ((X, Y[:3], 1), {}), ((X, Y, 1), {"w": [[1.0]]}), ((X, Y, 1), {"w": [1.0]}),
    (([0.0, 1.0, 2.0], [1.0, 2.0, 3.0], 2), {"cov": True}),
], ids=["negative-deg", "2d-x", "empty-x", "3d-y", "lengths", "2d-w", "w-length", "cov-too-few"])
def test_polyfit_errors(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    with pytest.raises(Exception) as want:  # the type is NumPy's, compared below
        np.polyfit(*args, **kwargs)
    with pytest.raises(type(want.value)) as got:
        ma.polyfit(*args, **kwargs)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("p, x", [
    ([1.0, -3.0, 2.0], 5.0), ([1, -3, 2], 5), ([1, -3, 2], [0, 1, 2.5]), ([3.0], [[1.0, 2.0]]),
    ([1 + 1j, 2.0], [1.0, 2.0]), ([2.0, 0.0, 1.0], np.arange(6.0).reshape(2, 3)),
    (np.array([1.0, 2.0], np.float32), np.array([3.0], np.float32)),
], ids=["scalar", "int", "int-list", "const", "complex", "2d", "float32"])
def test_polyval(p: Any, x: Any) -> None:
    close(ma.polyval(p, x), np.polyval(p, x))


@pytest.mark.parametrize("p", [[1.0, -3.0, 2.0], [1, 0, 1], [0, 0, 1, -1], [2.0, 1.0, 0.0, 0.0], [5.0], [0.0],
                               [1, -6, 11, -6], [1 + 0j, 2j]],
                         ids=["real", "complex-roots", "leading-zeros", "trailing-zeros", "constant", "zero",
                              "cubic", "complex-coeffs"])
def test_roots(p: list[Any]) -> None:
    got, want = ma.roots(p), np.roots(p)
    close(np.sort_complex(np.asarray(got)) if got.size else got, np.sort_complex(want) if want.size else want)


def test_roots_refuses_2d() -> None:
    with pytest.raises(ValueError, match=re.escape("Input must be a rank-1 array.")):
        ma.roots([[1.0, 2.0]])


@pytest.mark.parametrize("z", [[1.0, 2.0], [1, 2, 3], [1j, -1j], [1j, 2.0], [], [[1.0, 2.0], [3.0, 4.0]]],
                         ids=["float", "int", "conjugates", "complex", "none", "matrix"])
def test_poly(z: Any) -> None:
    got, want = ma.poly(z), np.poly(z)
    if isinstance(want, float):
        assert got == want
    else:
        close(got, want)


@pytest.mark.parametrize("a, b", [([1, 2, 3], [4, 5]), ([1.0], [1.0, 2.0, 3.0]), ([1, 2], [1j, 0])],
                         ids=["longer-first", "longer-second", "complex"])
def test_arithmetic(a: Any, b: Any) -> None:
    for name in ("polyadd", "polysub", "polymul"):
        eq(getattr(ma, name)(a, b), getattr(np, name)(a, b))
    for g, w in zip(ma.polydiv(a, b), np.polydiv(a, b), strict=True):
        close(g, w)


@pytest.mark.parametrize("m", [0, 1, 2, 5])
def test_calculus(m: int) -> None:
    p = [3.0, 2.0, 1.0, 4.0]
    eq(ma.polyder(p, m), np.polyder(p, m))
    close(ma.polyint(p, m), np.polyint(p, m))
    close(ma.polyint(p, m, k=2.0), np.polyint(p, m, k=2.0))
    if m:
        ks = list(range(1, m + 1))
        close(ma.polyint(p, m, k=ks), np.polyint(p, m, k=ks))
    with pytest.raises(ValueError, match="Order of derivative must be positive"):
        ma.polyder(p, -1)
    with pytest.raises(ValueError, match="Order of integral must be positive"):
        ma.polyint(p, -1)


def test_polyint_k_too_short() -> None:
    with pytest.raises(ValueError, match="k must be a scalar or a rank-1 array"):
        ma.polyint([1.0, 2.0], 3, k=[1.0, 2.0])


COEFFS = [[1, -3, 2], [1.0, 2.0], [0, 0, 2.5, 0.0], [0.0], [-1.5, 0.0, 0.0, 1e-5, 123456.0], [1j, 2.0, 1 - 1j],
          [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3]]
IDS = ["ints", "floats", "leading-zeros", "zero", "small-and-large", "complex", "wraps"]


@pytest.mark.parametrize("c", COEFFS, ids=IDS)
def test_poly1d_str_repr_and_attributes(c: list[Any]) -> None:
    p, q = ma.poly1d(c), np.poly1d(c)
    assert str(p) == str(q)
    assert repr(p) == repr(q)
    eq(p.coeffs, q.coeffs)
    eq(p.c, q.c)
    assert p.order == q.order == p.o
    assert len(p) == len(q)
    assert p.variable == q.variable
    if q.order:
        close(np.sort_complex(np.asarray(p.roots)), np.sort_complex(q.roots))
    for k in range(-1, q.order + 2):
        assert complex(p[k]) == complex(q[k])


def test_poly1d_variable_and_roots_form() -> None:
    assert str(ma.poly1d([1, 2, 3], variable="z")) == str(np.poly1d([1, 2, 3], variable="z"))
    p, q = ma.poly1d([1, 2], True), np.poly1d([1, 2], True)
    assert repr(p) == repr(q)
    with pytest.raises(ValueError, match=re.escape("Polynomial must be 1d only.")):
        ma.poly1d([[1, 2]])


def test_poly1d_call() -> None:
    p, q = ma.poly1d([1, -3, 2]), np.poly1d([1, -3, 2])
    close(p(0), q(0))
    close(p(2.5), q(2.5))
    close(p([1.0, 2.0, 3.0]), q([1.0, 2.0, 3.0]))
    assert repr(p(ma.poly1d([1, 0]))) == repr(q(np.poly1d([1, 0])))


def test_poly1d_operators() -> None:
    a, b = [1, -3, 2], [2.0, 1.0]
    p, q = ma.poly1d(a), ma.poly1d(b)
    n, m = np.poly1d(a), np.poly1d(b)
    for got, want in [(p + q, n + m), (p - q, n - m), (p * q, n * m), (p + 2, n + 2), (2 + p, 2 + n),
                      (p - 1.5, n - 1.5), (1.5 - p, 1.5 - n), (p * 3, n * 3), (3 * p, 3 * n), (-p, -n), (+p, +n),
                      (p ** 2, n ** 2), (p ** 0, n ** 0), (p / 2, n / 2),
                      (p + ma.poly1d([1, 1]), n + np.poly1d([1, 1]))]:
        assert isinstance(got, ma.poly1d)
        assert repr(got) == repr(want)
    qd, rd = p / q
    nd, nr = n / m
    assert repr(qd) == repr(nd) and repr(rd) == repr(nr)
    assert p == ma.poly1d(a) and p != q
    assert (p == 5) is False or (p == 5) == (n == 5)
    with pytest.raises(ValueError, match=re.escape("Power to non-negative integers only.")):
        p ** -1
    with pytest.raises(ValueError, match=re.escape("Power to non-negative integers only.")):
        p ** 1.5


def test_poly1d_calculus_and_items() -> None:
    p, n = ma.poly1d([3.0, 2.0, 1.0]), np.poly1d([3.0, 2.0, 1.0])
    assert repr(p.deriv()) == repr(n.deriv())
    assert repr(p.deriv(2)) == repr(n.deriv(2))
    assert repr(p.integ()) == repr(n.integ())
    assert repr(p.integ(2, k=[1.0, 2.0])) == repr(n.integ(2, k=[1.0, 2.0]))
    p[4] = 7.0
    n[4] = 7.0
    assert repr(p) == repr(n)
    p[0] = -1.0
    n[0] = -1.0
    assert repr(p) == repr(n)
    with pytest.raises(ValueError, match=re.escape("Does not support negative powers.")):
        p[-1] = 1.0
    assert [float(v) for v in p] == [float(v) for v in n]
    with pytest.raises(AttributeError, match="Cannot set attribute"):
        p.coeffs = ma.asarray([1.0])
    eq(np.asarray(p), np.asarray(n))
