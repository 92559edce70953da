"""``ma.polynomial`` against ``numpy.polynomial``: every power-basis
function (values, dtypes, shapes, errors), the polyutils helpers, and the
Polynomial class (arithmetic, calculus, fitting, conversion, repr and str
exactly as NumPy prints them)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from numpy_errors import raises_as_numpy

import minarray as ma

X = [0.0, 0.5, 1.0, 2.0, 3.0, 4.5, 5.0, 7.0]
Y = [1.0, 2.2, 2.9, 7.1, 14.8, 33.0, 42.1, 99.0]
Y2 = [[y, -y / 2 + 1] for y in Y]
W = [1.0, 2.0, 0.5, 1.0, 3.0, 1.0, 1.5, 0.25]
GRID = np.arange(6.0).reshape(2, 3) / 4


def compare(got: Any, want: Any, tol: float = 0.0) -> None:
    """``got`` is what NumPy's ``want`` is, in minarray's types: arrays and
    scalars of the same dtype and shape (equal, or within ``tol`` relative
    to the largest value where LAPACK rounds), series of the same class,
    domain, window and symbol, sequences item by item."""
    if isinstance(want, np.polynomial.Polynomial):
        assert isinstance(got, ma.polynomial.Polynomial), type(got)
        for attr in ("coef", "domain", "window"):
            compare(getattr(got, attr), getattr(want, attr), tol)
        assert got.symbol == want.symbol
    elif isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want), (got, want)
        for g, w in zip(got, want, strict=True):
            compare(g, w, tol)
    elif isinstance(want, np.integer) and isinstance(got, int):
        assert got == want  # lstsq's rank: a Python int in minarray
    elif isinstance(want, (np.ndarray, np.generic)):
        assert isinstance(got, ma.ndarray), type(got)
        g = np.asarray(got)
        assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.dtype, want.shape)
        if tol:
            scale = float(np.max(np.abs(want))) if want.size else 1.0
            np.testing.assert_allclose(g, want, rtol=tol, atol=tol * max(scale, 1.0))
        else:
            np.testing.assert_array_equal(g, want)
    else:
        assert type(got) is type(want) and got == want, (got, want)


def same(call: Callable[[Any], Any], tol: float = 0.0) -> None:
    """``call(ma)`` gives what ``call(np)`` gives."""
    compare(call(ma), call(np), tol)


def pp(mod: Any) -> Any:
    """The module's ``polynomial.polynomial``."""
    return mod.polynomial.polynomial


# (function, positional arguments, keyword arguments, tolerance): LAPACK
# (lstsq, eigvals) rounds differently from one build to another
LAPACK = 1e-11
FUNCTION_CASES: dict[str, tuple[str, tuple[Any, ...], dict[str, Any], float]] = {
    "polyval-scalar": ("polyval", (1.5, [1.0, 2.0, 3.0]), {}, 0),
    "polyval-int": ("polyval", (2, [1, 2, 3]), {}, 0),
    "polyval-list": ("polyval", ([0.0, 1.0, 2.5], [1, -2, 3]), {}, 0),
    "polyval-2d-x": ("polyval", (GRID, [1.0, 2.0]), {}, 0),
    "polyval-2d-c": ("polyval", ([1.0, 2.0], [[1.0, 2.0], [3.0, 4.0]]), {}, 0),
    "polyval-no-tensor": ("polyval", ([1.0, 2.0], [[1.0, 2.0], [3.0, 4.0]]), {"tensor": False}, 0),
    "polyval-complex": ("polyval", ([1.0, 2.0], [1j, 2.0]), {}, 0),
    "polyval-float32": ("polyval", (np.array([1.0, 2.0], np.float32), np.array([1.5, 3.0], np.float32)), {}, 0),
    "polyval-bool": ("polyval", (2.0, [True, False, True]), {}, 0),
    "valfromroots-scalar": ("polyvalfromroots", (2.0, [1.0, 3.0]), {}, 0),
    "valfromroots-list": ("polyvalfromroots", ([1.0, 2.0, 4.0], [1, 3]), {}, 0),
    "valfromroots-2d-r": ("polyvalfromroots", ([1.0, 2.0], [[1.0, 2.0], [3.0, 4.0]]), {"tensor": False}, 0),
    "val2d": ("polyval2d", ([1.0, 2.0], [0.5, -1.0], [[1.0, 2.0], [3.0, 4.0]]), {}, 0),
    "val3d": ("polyval3d", ([1.0, 2.0], [0.5, -1.0], [2.0, 3.0], np.arange(8.0).reshape(2, 2, 2)), {}, 0),
    "grid2d": ("polygrid2d", ([1.0, 2.0], [0.5, -1.0, 3.0], [[1.0, 2.0], [3.0, 4.0]]), {}, 0),
    "grid3d": ("polygrid3d", ([1.0], [0.5, -1.0], [2.0, 3.0], np.arange(8.0).reshape(2, 2, 2)), {}, 0),
    "fit-deg": ("polyfit", (X, Y, 3), {}, LAPACK),
    "fit-deg-list": ("polyfit", (X, Y, [0, 2, 3]), {}, LAPACK),
    "fit-2d-y": ("polyfit", (X, Y2, 2), {}, LAPACK),
    "fit-2d-y-deg-list": ("polyfit", (X, Y2, [1, 2]), {}, LAPACK),
    "fit-weights": ("polyfit", (X, Y, 2), {"w": W}, LAPACK),
    "fit-rcond": ("polyfit", (X, Y, 2), {"rcond": 1e-3}, LAPACK),
    "fit-full": ("polyfit", (X, Y, 2), {"full": True}, LAPACK),
    "fit-int": ("polyfit", ([0, 1, 2, 3], [1, 2, 5, 10], 2), {}, LAPACK),
    "fit-float32": ("polyfit", (np.array(X, np.float32), np.array(Y, np.float32), 2), {}, 1e-5),
    "fit-complex": ("polyfit", (X, [y + 1j * x for x, y in zip(X, Y, strict=True)], 2), {}, LAPACK),
    "der": ("polyder", ([1.0, 2.0, 3.0, 4.0],), {}, 0),
    "der-int": ("polyder", ([1, 2, 3, 4],), {"m": 2}, 0),
    "der-scl": ("polyder", ([1.0, 2.0, 3.0, 4.0],), {"m": 2, "scl": 0.5}, 0),
    "der-axis": ("polyder", ([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],), {"axis": 1}, 0),
    "der-past-degree": ("polyder", ([1.0, 2.0],), {"m": 3}, 0),
    "der-zero": ("polyder", ([1, 2],), {"m": 0}, 0),
    "der-float32": ("polyder", (np.array([1.0, 2.0, 3.0], np.float32),), {"scl": 3}, 0),
    "int": ("polyint", ([1.0, 2.0, 3.0],), {}, 0),
    "int-m-k": ("polyint", ([1, 2, 3],), {"m": 2, "k": [1, 2]}, 0),
    "int-k-scalar": ("polyint", ([1.0, 2.0],), {"k": 3.0}, 0),
    "int-lbnd-scl": ("polyint", ([1.0, 2.0, 3.0],), {"m": 3, "k": [1.0], "lbnd": 1.5, "scl": 2.0}, 0),
    "int-axis": ("polyint", ([[1.0, 2.0], [3.0, 4.0]],), {"axis": 1, "k": [2.0]}, 0),
    "int-zero-series": ("polyint", ([0.0],), {"k": 3.0}, 0),
    "add": ("polyadd", ([1, 2, 3], [4.0, 5.0]), {}, 0),
    "add-cancel": ("polyadd", ([1.0, 2.0, 3.0], [0.0, 0.0, -3.0]), {}, 0),
    "sub": ("polysub", ([1.0], [1.0, 2.0, 3.0]), {}, 0),
    "sub-complex": ("polysub", ([1, 2], [1j, 0]), {}, 0),
    "mul": ("polymul", ([1, 2, 3], [4, 5]), {}, 0),
    "mulx": ("polymulx", ([1.0, 2.0, 3.0],), {}, 0),
    "mulx-zero": ("polymulx", ([0.0],), {}, 0),
    "div": ("polydiv", ([1.0, 2.0, 3.0, 4.0], [1.0, 1.0]), {}, 0),
    "div-shorter": ("polydiv", ([1.0, 2.0], [1.0, 2.0, 3.0]), {}, 0),
    "div-constant": ("polydiv", ([2, 4, 6], [2]), {}, 0),
    "pow": ("polypow", ([1.0, 2.0], 3), {}, 0),
    "pow-zero": ("polypow", ([1.0, 2.0], 0), {}, 0),
    "pow-float-int": ("polypow", ([1, 1], 2.0), {}, 0),
    "roots-real": ("polyroots", ([-6.0, 11.0, -6.0, 1.0],), {}, LAPACK),
    "roots-complex": ("polyroots", ([1.0, 0.0, 1.0],), {}, LAPACK),
    "roots-mixed": ("polyroots", ([2.0, -1.0, 3.0, 5.0, 1.0],), {}, LAPACK),
    "roots-linear": ("polyroots", ([1, 2],), {}, 0),
    "roots-constant": ("polyroots", ([3.0],), {}, 0),
    "roots-complex-coef": ("polyroots", ([1j, 2.0, 1.0],), {}, LAPACK),
    "fromroots": ("polyfromroots", ([1.0, 2.0, -3.0],), {}, 0),
    "fromroots-int": ("polyfromroots", ([3, 1, 2, 5, 4],), {}, 0),
    "fromroots-conjugate": ("polyfromroots", ([1j, -1j],), {}, 0),
    "fromroots-none": ("polyfromroots", ([],), {}, 0),
    "vander": ("polyvander", ([1.0, 2.0, 3.0], 3), {}, 0),
    "vander-2d": ("polyvander", (GRID, 2), {}, 0),
    "vander-deg0": ("polyvander", ([1, 2], 0), {}, 0),
    "vander2d": ("polyvander2d", ([1.0, 2.0], [3.0, 4.0], [1, 2]), {}, 0),
    "vander3d": ("polyvander3d", ([1.0, 2.0], [3.0, 4.0], [0.5, 1.0], [1, 1, 2]), {}, 0),
    "companion": ("polycompanion", ([1.0, 2.0, 3.0, 4.0],), {}, 0),
    "companion-linear": ("polycompanion", ([1.0, 2.0],), {}, 0),
    "line": ("polyline", (1.0, 2.0), {}, 0),
    "line-flat": ("polyline", (3, 0), {}, 0),
    "trim": ("polytrim", ([1.0, 2.0, 0.0, 1e-3, 0.0],), {}, 0),
    "trim-tol": ("polytrim", ([1.0, 2.0, 0.0, 1e-3, 0.0],), {"tol": 1e-2}, 0),
    "trim-all": ("polytrim", ([1e-3, 0.0],), {"tol": 1e-2}, 0),
}


@pytest.mark.parametrize("case", sorted(FUNCTION_CASES))
def test_function(case: str) -> None:
    name, args, kwargs, tol = FUNCTION_CASES[case]
    same(lambda mod: getattr(pp(mod), name)(*args, **kwargs), tol)


@pytest.mark.parametrize("name", ["polydomain", "polyzero", "polyone", "polyx"])
def test_constants(name: str) -> None:
    same(lambda mod: getattr(pp(mod), name))


def test_names() -> None:
    assert sorted(ma.polynomial.polynomial.__all__) == sorted(np.polynomial.polynomial.__all__)
    assert ma.polynomial.Polynomial is ma.polynomial.polynomial.Polynomial
    assert "polynomial" in dir(ma)


def test_fit_rank_warning() -> None:
    args = ([1.0, 1.0, 1.0], [1.0, 2.0, 3.0], 2)
    with pytest.warns(ma.exceptions.RankWarning, match="The fit may be poorly conditioned"):
        got = ma.polynomial.polynomial.polyfit(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.RankWarning)
        compare(got, np.polynomial.polynomial.polyfit(*args), LAPACK)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ma.polynomial.polynomial.polyfit(*args, full=True)  # full reports the rank instead


ERROR_CASES: dict[str, tuple[Callable[[Any], Any], str]] = {
    "der-negative": (lambda m: pp(m).polyder([1, 2], -1), "non-negative"),
    "der-float-m": (lambda m: pp(m).polyder([1, 2], 1.5), "must be an integer"),
    "der-axis": (lambda m: pp(m).polyder([1, 2], axis=1), "out of bounds"),
    "int-negative": (lambda m: pp(m).polyint([1, 2], -1), "non-negative"),
    "int-constants": (lambda m: pp(m).polyint([1, 2], 1, k=[1, 2]), "Too many integration constants"),
    "int-lbnd": (lambda m: pp(m).polyint([1, 2], lbnd=[1, 2]), "lbnd must be a scalar"),
    "int-scl": (lambda m: pp(m).polyint([1, 2], scl=[1, 2]), "scl must be a scalar"),
    "div-zero": (lambda m: pp(m).polydiv([1, 2], [0]), "division by zero"),
    "pow-negative": (lambda m: pp(m).polypow([1, 2], -1), "non-negative integer"),
    "pow-fraction": (lambda m: pp(m).polypow([1, 2], 1.5), "non-negative integer"),
    "pow-max": (lambda m: pp(m).polypow([1, 2], 5, maxpower=4), "too large"),
    "empty": (lambda m: pp(m).polyadd([], [1]), "empty"),
    "2d-series": (lambda m: pp(m).polymul([[1, 2]], [1]), "not 1-d"),
    "companion-short": (lambda m: pp(m).polycompanion([1]), "at least 1"),
    "vander-negative": (lambda m: pp(m).polyvander([1, 2], -1), "non-negative"),
    "vander-float": (lambda m: pp(m).polyvander([1, 2], 1.5), "must be an integer"),
    "vander2d-degrees": (lambda m: pp(m).polyvander2d([1], [2], [1]), "dimensions of degrees"),
    "val2d-shapes": (lambda m: pp(m).polyval2d([1, 2], [1], [[1]]), "incompatible"),
    "val3d-shapes": (lambda m: pp(m).polyval3d([1, 2], [1], [1], [[[1]]]), "incompatible"),
    "fromroots-scalar-r": (lambda m: pp(m).polyvalfromroots([[1, 2]], [1, 2], tensor=False), "x.ndim"),
    "trim-tol": (lambda m: pp(m).polytrim([1, 2], -1), "non-negative"),
    "fit-float-deg": (lambda m: pp(m).polyfit(X, Y, 1.5), "deg must be an int"),
    "fit-empty-deg": (lambda m: pp(m).polyfit(X, Y, []), "deg must be an int"),
    "fit-negative-deg": (lambda m: pp(m).polyfit(X, Y, -1), "deg >= 0"),
    "fit-2d-x": (lambda m: pp(m).polyfit([[1.0]], [1.0], 1), "1D vector for x"),
    "fit-empty-x": (lambda m: pp(m).polyfit([], [], 1), "non-empty"),
    "fit-3d-y": (lambda m: pp(m).polyfit([1.0], [[[1.0]]], 1), "1D or 2D"),
    "fit-lengths": (lambda m: pp(m).polyfit(X, Y[:3], 1), "same length"),
    "fit-2d-w": (lambda m: pp(m).polyfit(X, Y, 1, w=[[1.0]]), "1D vector for w"),
    "fit-w-length": (lambda m: pp(m).polyfit(X, Y, 1, w=[1.0]), "x and w"),
}


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_function_errors(case: str) -> None:
    call, match = ERROR_CASES[case]
    raises_as_numpy(call, match)


def pu(mod: Any) -> Any:
    return mod.polynomial.polyutils


@pytest.mark.parametrize("call", [
    lambda m: pu(m).trimseq(m.asarray([1.0, 0.0, 0.0])),
    lambda m: pu(m).trimseq(m.asarray([0.0, 0.0])),
    lambda m: pu(m).as_series([[1, 2, 0], [3.0]]),
    lambda m: pu(m).as_series([[1, 2, 0], [1j]], trim=False),
    lambda m: pu(m).as_series([np.array([1, 2], np.float32)]),
    lambda m: pu(m).trimcoef([1.0, 1e-3, 0.0], 1e-2),
    lambda m: pu(m).getdomain([3.0, -1.0, 2.0]),
    lambda m: pu(m).getdomain([1 + 2j, -1j, 3.0]),
    lambda m: pu(m).mapparms([0.0, 4.0], [-1.0, 1.0]),
    lambda m: pu(m).mapdomain([0.0, 1.0, 4.0], [0.0, 4.0], [-1.0, 1.0]),
    lambda m: pu(m).mapdomain(2.0, [0, 4], [-1, 1]),
], ids=["trimseq", "trimseq-zeros", "as_series", "as_series-complex", "as_series-float32", "trimcoef",
        "getdomain", "getdomain-complex", "mapparms", "mapdomain", "mapdomain-scalar"])
def test_polyutils(call: Callable[[Any], Any]) -> None:
    same(call)


# ---- the class ----------------------------------------------------------


def P(mod: Any) -> Any:
    return mod.polynomial.Polynomial


CONSTRUCT: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "float": (([1.0, 2.0, 3.0],), {}),
    "int": (([1, 2, 3],), {}),
    "negative": (([-1.5, 0.0, -2.25, 1e-5],), {}),
    "zero": (([0],), {}),
    "trailing-zero": (([1.0, 0.0],), {}),
    "complex": (([1 + 2j, -1j, 3.0],), {}),
    "float32": ((np.array([1.5, -2.0], np.float32),), {}),
    "domain": (([1.0, 2.0, 3.0],), {"domain": [0, 4]}),
    "window": (([1.0, 2.0],), {"domain": [0.0, 2.0], "window": [0.0, 1.0]}),
    "offset": (([1.0, 2.0],), {"domain": [1.0, 3.0], "window": [0.0, 2.0]}),
    "symbol": (([1.0, -2.0, 3.0],), {"symbol": "t"}),
    "large": (([1e9, 1e-9, 123456.789],), {}),
    "long": ((np.arange(1.0, 30.0) * 1.25,), {}),
    "long-mapped": ((np.arange(-8.0, 8.0) / 3,), {"domain": [0, 3]}),
    "nonfinite": (([np.inf, np.nan, -1.0],), {}),
}


@pytest.mark.parametrize("case", sorted(CONSTRUCT))
def test_construct_repr_str(case: str) -> None:
    args, kwargs = CONSTRUCT[case]
    got, want = P(ma)(*args, **kwargs), P(np)(*args, **kwargs)
    compare(got, want)
    assert repr(got) == repr(want)
    assert str(got) == str(want)
    for style in ("ascii", "unicode", ""):
        assert format(got, style) == format(want, style)
    assert got._repr_latex_() == want._repr_latex_()


def test_printstyle() -> None:
    try:
        for mod in (np, ma):
            mod.polynomial.set_default_printstyle("ascii")
        assert str(P(ma)([1.0, -2.0, 3.0])) == str(P(np)([1.0, -2.0, 3.0])) == "1.0 - 2.0 x + 3.0 x**2"
    finally:
        for mod in (np, ma):
            mod.polynomial.set_default_printstyle("unicode")
    assert str(P(ma)([1.0, -2.0, 3.0])) == "1.0 - 2.0·x + 3.0·x²"
    raises_as_numpy(lambda m: m.polynomial.set_default_printstyle("latex"), "Unsupported format string")
    raises_as_numpy(lambda m: format(P(m)([1.0]), "latex"), "Unsupported format string")


def test_linewidth() -> None:
    c = np.arange(1.0, 20.0)
    for mod in (np, ma):
        with mod.printoptions(linewidth=30):
            text = str(P(mod)(c))
        if mod is np:
            want = text
    assert text == want


CLASS_ERRORS: dict[str, tuple[Callable[[Any], Any], str]] = {
    "empty": (lambda m: P(m)([]), "empty"),
    "2d": (lambda m: P(m)([[1.0, 2.0]]), "not 1-d"),
    "domain-length": (lambda m: P(m)([1.0], domain=[1, 2, 3]), "Domain has wrong number"),
    "window-length": (lambda m: P(m)([1.0], window=[1]), "Window has wrong number"),
    "symbol-identifier": (lambda m: P(m)([1.0], symbol="1x"), "valid Python identifier"),
    "symbol-type": (lambda m: P(m)([1.0], symbol=2), "non-empty string"),
    "truncate-0": (lambda m: P(m)([1.0]).truncate(0), "positive integer"),
    "basis-negative": (lambda m: P(m).basis(-1), "non-negative integer"),
    "pow-negative": (lambda m: P(m)([1.0]) ** -1, "non-negative integer"),
    "pow-too-large": (lambda m: P(m)([1.0]) ** 101, "too large"),
    "truediv-series": (lambda m: P(m)([1.0]) / P(m)([1.0]), "unsupported types for true division"),
    "domains-differ": (lambda m: P(m)([1.0]) + P(m)([1.0], domain=[0, 1]), "Domains differ"),
    "windows-differ": (lambda m: P(m)([1.0]) - P(m)([1.0], window=[0, 1]), "Windows differ"),
    "symbols-differ": (lambda m: P(m)([1.0]) * P(m)([1.0], symbol="t"), "symbols differ"),
    "divmod-zero": (lambda m: divmod(P(m)([1.0]), P(m)([0.0])), "division by zero"),
    "floordiv-zero": (lambda m: P(m)([1.0]) // 0, "division by zero"),
    "deriv-negative": (lambda m: P(m)([1.0]).deriv(-1), "non-negative"),
    "integ-constants": (lambda m: P(m)([1.0]).integ(1, k=[1, 2]), "Too many integration constants"),
    "add-string": (lambda m: P(m)([1.0]) + "x", "unsupported operand"),
}


@pytest.mark.parametrize("case", sorted(CLASS_ERRORS))
def test_class_errors(case: str) -> None:
    call, match = CLASS_ERRORS[case]
    raises_as_numpy(call, match)


def a(mod: Any) -> Any:
    return P(mod)([1.0, -2.0, 3.0], domain=[0, 2])


def b(mod: Any) -> Any:
    return P(mod)([0.5, 4.0], domain=[0, 2])


FOUR = [1, 2, 3, 4]
ARITHMETIC: dict[str, Callable[[Any], Any]] = {
    "add": lambda m: a(m) + b(m), "sub": lambda m: a(m) - b(m), "mul": lambda m: a(m) * b(m),
    "floordiv": lambda m: a(m) // b(m), "mod": lambda m: a(m) % b(m), "divmod": lambda m: divmod(a(m), b(m)),
    "pow": lambda m: a(m) ** 3, "pow-0": lambda m: a(m) ** 0, "neg": lambda m: -a(m), "pos": lambda m: +a(m),
    "add-number": lambda m: a(m) + 2, "radd-number": lambda m: 2 + a(m), "rsub-number": lambda m: 1.5 - a(m),
    "mul-number": lambda m: a(m) * 2.5, "rmul-number": lambda m: 3 * a(m), "truediv-number": lambda m: a(m) / 2,
    "floordiv-number": lambda m: a(m) // 4, "rfloordiv-number": lambda m: 4 // b(m),
    "rmod-number": lambda m: 4 % b(m), "rdivmod-number": lambda m: divmod(4.0, b(m)),
    "add-list": lambda m: a(m) + FOUR, "rsub-list": lambda m: [1, 2] - a(m),
    "mul-complex": lambda m: a(m) * 1j, "eq": lambda m: a(m) == a(m), "eq-other-domain": lambda m: a(m) == P(m)(
        [1.0, -2.0, 3.0]), "eq-number": lambda m: a(m) == 1, "ne": lambda m: a(m) != b(m),
    "call-scalar": lambda m: a(m)(1.5), "call-list": lambda m: a(m)([0.0, 1.0, 2.0]),
    "call-array": lambda m: a(m)(m.asarray(GRID)), "len": lambda m: len(a(m)), "iter": lambda m: list(a(m)),
}


@pytest.mark.parametrize("case", sorted(ARITHMETIC))
def test_arithmetic(case: str) -> None:
    got, want = ARITHMETIC[case](ma), ARITHMETIC[case](np)
    if isinstance(want, (bool, np.bool_)):
        assert bool(got) is bool(want)
    else:
        compare(got, want)


METHODS: dict[str, tuple[Callable[[Any], Any], float]] = {
    "deriv": (lambda m: a(m).deriv(), 0),
    "deriv-2": (lambda m: a(m).deriv(2), 0),
    "integ": (lambda m: a(m).integ(), 0),
    "integ-k-lbnd": (lambda m: a(m).integ(2, k=[1.0, 2.0], lbnd=0.5), 1e-14),
    "roots": (lambda m: a(m).roots(), LAPACK),
    "roots-real": (lambda m: P(m)([-6.0, 11.0, -6.0, 1.0], domain=[0, 4]).roots(), LAPACK),
    "fit": (lambda m: P(m).fit(X, Y, 3), LAPACK),
    "fit-list-deg": (lambda m: P(m).fit(X, Y, [1, 3]), LAPACK),
    "fit-domain": (lambda m: P(m).fit(X, Y, 2, domain=[-1, 8]), LAPACK),
    "fit-default-domain": (lambda m: P(m).fit(X, Y, 2, domain=[]), LAPACK),
    "fit-window-symbol": (lambda m: P(m).fit(X, Y, 2, window=[0, 1], symbol="t", w=W), LAPACK),
    "fit-full": (lambda m: P(m).fit(X, Y, 2, full=True), LAPACK),
    "fit-one-point": (lambda m: P(m).fit([2.0, 2.0], [1.0, 3.0], 0), LAPACK),
    "fit-2d-y-convert": (lambda m: P(m).fit(X, Y, 3).convert(), LAPACK),
    "convert": (lambda m: a(m).convert(), 1e-14),
    "convert-domain": (lambda m: a(m).convert(domain=[-2, 2]), 1e-14),
    "cast": (lambda m: P(m).cast(a(m)), 1e-14),
    "copy": (lambda m: a(m).copy(), 0),
    "degree": (lambda m: a(m).degree(), 0),
    "cutdeg": (lambda m: a(m).cutdeg(1), 0),
    "trim": (lambda m: P(m)([1.0, 1e-3, 0.0]).trim(1e-2), 0),
    "truncate": (lambda m: a(m).truncate(2), 0),
    "truncate-long": (lambda m: a(m).truncate(9), 0),
    "linspace": (lambda m: a(m).linspace(5), 0),
    "linspace-domain": (lambda m: a(m).linspace(4, domain=[1, 3]), 0),
    "fromroots": (lambda m: P(m).fromroots([1.0, 2.0, 3.0]), 0),
    "fromroots-domain-none": (lambda m: P(m).fromroots([1.0, 2.0, 3.0], domain=None), 1e-14),
    "fromroots-complex": (lambda m: P(m).fromroots([1j, -1j]), 0),
    "identity": (lambda m: P(m).identity(), 0),
    "identity-domain": (lambda m: P(m).identity(domain=[0, 2], symbol="t"), 0),
    "basis": (lambda m: P(m).basis(3), 0),
    "basis-domain": (lambda m: P(m).basis(2, domain=[0, 1]), 0),
    "mapparms": (lambda m: a(m).mapparms(), 0),
    "same-coef": (lambda m: bool(a(m).has_samecoef(b(m))), 0),
    "same-coef-true": (lambda m: bool(a(m).has_samecoef(a(m))), 0),
    "same-domain": (lambda m: bool(a(m).has_samedomain(P(m)([1.0]))), 0),
    "same-window": (lambda m: bool(a(m).has_samewindow(b(m))), 0),
    "same-type": (lambda m: a(m).has_sametype(b(m)), 0),
    "same-type-other": (lambda m: a(m).has_sametype(1.0), 0),
    "maxpower": (lambda m: P(m).maxpower, 0),
}


@pytest.mark.parametrize("case", sorted(METHODS))
def test_methods(case: str) -> None:
    call, tol = METHODS[case]
    same(call, tol)


def test_tutorial() -> None:
    """NumPy's recommended workflow, end to end."""
    x = np.linspace(-1.0, 2.0, 25)
    y = x ** 3 - 2 * x + 1 + np.sin(7 * x) / 50
    for mod in (ma, np):
        p = P(mod).fit(mod.asarray(x), mod.asarray(y), 3)
        compare_args = (p(x), p.convert().coef, p.roots(), p.deriv().coef, p.integ().coef)
        if mod is ma:
            got = compare_args
    compare(got, compare_args, LAPACK)


@pytest.mark.parametrize("name", ["Chebyshev", "chebyshev", "Legendre", "legendre", "Laguerre", "laguerre",
                                  "Hermite", "hermite", "HermiteE", "hermite_e"])
def test_other_bases_are_refused(name: str) -> None:
    assert hasattr(np.polynomial, name)
    with pytest.raises(NotImplementedError, match=f"{name}.*power basis only.*numpy.polynomial"):
        getattr(ma.polynomial, name)
    with pytest.raises(NotImplementedError, match="power basis only"):
        exec(f"from minarray.polynomial import {name}", {})


@pytest.mark.parametrize("module", ["chebyshev", "legendre", "laguerre", "hermite", "hermite_e"])
def test_other_basis_modules_are_refused(module: str) -> None:
    """``import numpy.polynomial.chebyshev`` and ``from
    numpy.polynomial.hermite import hermval`` name the basis too."""
    assert hasattr(np.polynomial, module)
    for statement in (f"import minarray.polynomial.{module}", f"from minarray.polynomial.{module} import x"):
        with pytest.raises(NotImplementedError, match=f"polynomial.{module}: .*power basis only"):
            exec(statement, {})


def test_unknown_attribute() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        ma.polynomial.nothing  # noqa: B018
