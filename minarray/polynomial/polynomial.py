"""NumPy's ``numpy.polynomial.polynomial``: series in the power basis,
coefficients from the constant term up (``[1, 2, 3]`` is 1 + 2x + 3x²,
the reverse of ``polyval``'s order in the main namespace), and the
``Polynomial`` class over them.

Least squares run on ``linalg.lstsq`` and roots on ``linalg.eigvals`` of
the companion matrix, so results match NumPy's to LAPACK's rounding."""

from __future__ import annotations

from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._coerce import asarray, normalize_axis
from minarray._creation import array, empty, zeros
from minarray._data_type_functions import iterable
from minarray._inspection import ndim
from minarray._linear_algebra import convolve
from minarray._manipulation import moveaxis
from minarray._polynomial import _inexact, _real_if_real
from minarray._statistical import prod
from minarray._utility import all as _all
from minarray.linalg._decompositions import eigvals
from minarray.polynomial import polyutils as pu
from minarray.polynomial._polybase import PolyBase

__all__ = [
    "polyzero", "polyone", "polyx", "polydomain", "polyline", "polyadd", "polysub", "polymulx", "polymul",
    "polydiv", "polypow", "polyval", "polyvalfromroots", "polyder", "polyint", "polyfromroots", "polyvander",
    "polyfit", "polytrim", "polyroots", "Polynomial", "polyval2d", "polyval3d", "polygrid2d", "polygrid3d",
    "polyvander2d", "polyvander3d", "polycompanion",
]

polytrim = pu.trimcoef

# integer constants (but the domain), as NumPy's: they mix with any type
polydomain = array([-1.0, 1.0])
polyzero = array([0])
polyone = array([1])
polyx = array([0, 1])


def _operand(x: Any) -> Any:
    """The points a series is evaluated at: sequences and other arrays
    become minarray arrays; numbers, minarray scalars and polynomials stay
    what they are (a polynomial argument composes the series)."""
    if isinstance(x, (NDArray, PolyBase, int, float, complex)):
        return x
    if isinstance(x, (list, tuple)) or hasattr(x, "__array__") or hasattr(x, "__array_interface__"):
        return asarray(x)
    return x


def polyline(off: Any, scl: Any) -> NDArray:
    """The series ``off + scl*x``."""
    if scl != 0:
        return array([off, scl])
    return array([off])


def polyfromroots(roots: Any) -> NDArray:
    """The monic polynomial with the given roots, lowest power first."""
    return pu._fromroots(polyline, polymul, roots)


def polyadd(c1: Any, c2: Any) -> NDArray:
    """The sum of two series."""
    return pu._add(c1, c2)


def polysub(c1: Any, c2: Any) -> NDArray:
    """The difference ``c1 - c2`` of two series."""
    return pu._sub(c1, c2)


def polymulx(c: Any) -> NDArray:
    """The series times x."""
    [ca] = pu.as_series([c])
    if len(ca) == 1 and ca[0] == 0:
        return ca
    prd = empty((len(ca) + 1,), dtype=ca.dtype)
    prd[0] = ca[0] * 0
    prd[1:] = ca
    return prd


def polymul(c1: Any, c2: Any) -> NDArray:
    """The product of two series."""
    [a1, a2] = pu.as_series([c1, c2])
    return pu.trimseq(convolve(a1, a2))  # type: ignore[no-any-return]


def polydiv(c1: Any, c2: Any) -> tuple[NDArray, NDArray]:
    """Quotient and remainder of the series division ``c1 / c2`` (long
    division from the highest power)."""
    [a1, a2] = pu.as_series([c1, c2])
    if a2[-1] == 0:
        raise ZeroDivisionError("polynomial division by zero")
    lc1, lc2 = len(a1), len(a2)
    if lc1 < lc2:
        return a1[:1] * 0, a1
    if lc2 == 1:
        return a1 / a2[-1], a1[:1] * 0
    dlen = lc1 - lc2
    scl = a2[-1]
    d = a2[:-1] / scl
    i, j = dlen, lc1 - 1
    while i >= 0:
        a1[i:j] -= d * a1[j]
        i -= 1
        j -= 1
    return a1[j + 1:] / scl, pu.trimseq(a1[:j + 1])


def polypow(c: Any, pow: Any, maxpower: int | None = None) -> NDArray:
    """The series to the non-negative integer power ``pow`` (at most
    ``maxpower`` when given)."""
    return pu._pow(convolve, c, pow, maxpower)


def _axis_first(c: Any, axis: Any, m: Any, what: str) -> tuple[NDArray, int, int]:
    """``c`` as a float or complex copy (integers become float64), the
    order ``m`` and the axis checked as NumPy checks them."""
    ca = _inexact(array(c, ndmin=1, copy=True))
    if ca.dtype.kind not in "fc":
        ca = ca.astype(_dt.float64)
    cnt = pu._as_int(m, f"the order of {what}")
    iaxis = pu._as_int(axis, "the axis")
    if cnt < 0:
        raise ValueError(f"The order of {what} must be non-negative")
    return ca, cnt, iaxis


def polyder(c: Any, m: Any = 1, scl: Any = 1, axis: Any = 0) -> NDArray:
    """The ``m``-th derivative of the series along ``axis``, each
    differentiation multiplied by ``scl``."""
    ca, cnt, iaxis = _axis_first(c, axis, m, "derivation")
    cdt = ca.dtype
    iaxis = normalize_axis(iaxis, ca.ndim)
    if cnt == 0:
        return ca
    ca = moveaxis(ca, iaxis, 0)
    n = len(ca)
    if cnt >= n:
        ca = ca[:1] * 0
    else:
        for _ in range(cnt):
            n = n - 1
            ca *= scl  # in place: the dtype stays c's, as NumPy's
            der = empty((n, *ca.shape[1:]), dtype=cdt)
            for j in range(n, 0, -1):
                der[j - 1] = j * ca[j]
            ca = der
    return moveaxis(ca, 0, iaxis)


def polyint(c: Any, m: Any = 1, k: Any = (), lbnd: Any = 0, scl: Any = 1, axis: Any = 0) -> NDArray:
    """The ``m``-th integral of the series along ``axis``: the integration
    constants ``k`` (the first used first, missing ones 0) make the
    integrals ``k[i]`` at ``lbnd``; each integration multiplies by ``scl``."""
    ca, cnt, iaxis = _axis_first(c, axis, m, "integration")
    cdt = ca.dtype
    ks = list(k) if iterable(k) else [k]
    if len(ks) > cnt:
        raise ValueError("Too many integration constants")
    if ndim(lbnd) != 0:
        raise ValueError("lbnd must be a scalar.")
    if ndim(scl) != 0:
        raise ValueError("scl must be a scalar.")
    iaxis = normalize_axis(iaxis, ca.ndim)
    if cnt == 0:
        return ca
    ks = ks + [0] * (cnt - len(ks))
    ca = moveaxis(ca, iaxis, 0)
    for i in range(cnt):
        n = len(ca)
        ca *= scl  # in place: the dtype stays c's, as NumPy's
        if n == 1 and bool(_all(ca[0] == 0)):
            ca[0] += ks[i]
        else:
            tmp = empty((n + 1, *ca.shape[1:]), dtype=cdt)
            tmp[0] = ca[0] * 0
            tmp[1] = ca[0]
            for j in range(1, n):
                tmp[j + 1] = ca[j] / (j + 1)
            tmp[0] += ks[i] - polyval(lbnd, tmp)
            ca = tmp
    return moveaxis(ca, 0, iaxis)


def polyval(x: Any, c: Any, tensor: bool = True) -> Any:
    """The series ``c`` at ``x`` by Horner's scheme.  For a
    multidimensional ``c`` the first axis holds the coefficients; with
    ``tensor`` every column is evaluated at every point of ``x`` (shape
    ``c.shape[1:] + x.shape``), else ``x`` broadcasts against the
    columns."""
    ca = _inexact(array(c, ndmin=1, copy=None))
    x = _operand(x)
    if isinstance(x, NDArray) and tensor:
        ca = ca.reshape(ca.shape + (1,) * x.ndim)
    c0 = ca[-1] + x * 0
    for i in range(2, len(ca) + 1):
        c0 = ca[-i] + c0 * x
    return c0


def polyvalfromroots(x: Any, r: Any, tensor: bool = True) -> Any:
    """The monic polynomial with roots ``r`` at ``x`` (the product of the
    ``x - r``); a multidimensional ``r`` holds one set of roots a column."""
    ra = array(r, ndmin=1, copy=None)
    if ra.dtype.kind in "biu":
        ra = ra.astype(_dt.float64)
    x = _operand(x)
    if isinstance(x, NDArray):
        if tensor:
            ra = ra.reshape(ra.shape + (1,) * x.ndim)
        elif x.ndim >= ra.ndim:
            raise ValueError("x.ndim must be < r.ndim when tensor == False")
    return prod(x - ra, axis=0)


def polyval2d(x: Any, y: Any, c: Any) -> Any:
    """The two-variable series ``c`` (``c[i, j]`` the coefficient of
    x**i y**j) at the points ``(x, y)``."""
    return pu._valnd(polyval, c, x, y)


def polygrid2d(x: Any, y: Any, c: Any) -> Any:
    """The two-variable series ``c`` on the grid of ``x`` by ``y``."""
    return pu._gridnd(polyval, c, x, y)


def polyval3d(x: Any, y: Any, z: Any, c: Any) -> Any:
    """The three-variable series ``c`` at the points ``(x, y, z)``."""
    return pu._valnd(polyval, c, x, y, z)


def polygrid3d(x: Any, y: Any, z: Any, c: Any) -> Any:
    """The three-variable series ``c`` on the grid of ``x`` by ``y`` by ``z``."""
    return pu._gridnd(polyval, c, x, y, z)


def polyvander(x: Any, deg: Any) -> NDArray:
    """The Vandermonde matrix of degree ``deg``: ``x``'s shape plus a last
    axis holding the powers 0..deg of ``x``."""
    ideg = pu._as_int(deg, "deg")
    if ideg < 0:
        raise ValueError("deg must be non-negative")
    xa = array(x, copy=None, ndmin=1) + 0.0
    v = empty((ideg + 1, *xa.shape), dtype=xa.dtype)
    v[0] = xa * 0 + 1
    if ideg > 0:
        v[1] = xa
        for i in range(2, ideg + 1):
            v[i] = v[i - 1] * xa
    return moveaxis(v, 0, -1)


def polyvander2d(x: Any, y: Any, deg: Any) -> NDArray:
    """The Vandermonde matrix of the points ``(x, y)``, degrees ``deg =
    [xdeg, ydeg]``: column ``(ydeg + 1)*i + j`` holds x**i y**j."""
    return pu._vander_nd_flat((polyvander, polyvander), (x, y), deg)


def polyvander3d(x: Any, y: Any, z: Any, deg: Any) -> NDArray:
    """The Vandermonde matrix of the points ``(x, y, z)``, degrees ``deg =
    [xdeg, ydeg, zdeg]``."""
    return pu._vander_nd_flat((polyvander, polyvander, polyvander), (x, y, z), deg)


def polyfit(x: Any, y: Any, deg: Any, rcond: float | None = None, full: bool = False, w: Any = None) -> Any:
    """Least-squares fit of a power series to the points ``(x, y)``,
    coefficients from the constant term up: ``deg`` the degree, or the
    list of the powers to fit.  ``y`` of shape (M, K) fits K data sets;
    ``w`` weights each point; ``full`` also returns ``[residuals, rank,
    singular_values, rcond]``.  A rank-deficient fit warns with
    :class:`~minarray.exceptions.RankWarning`, as NumPy."""
    return pu._fit(polyvander, x, y, deg, rcond, full, w)


def polycompanion(c: Any) -> NDArray:
    """The companion matrix of the series: its eigenvalues are the roots."""
    [ca] = pu.as_series([c])
    if len(ca) < 2:
        raise ValueError("Series must have maximum degree of at least 1.")
    if len(ca) == 2:
        return array([[-ca[0] / ca[1]]])
    n = len(ca) - 1
    mat = zeros((n, n), dtype=ca.dtype)
    bot = mat.reshape(-1)[n::n + 1]
    bot[...] = 1
    mat[:, -1] -= ca[:-1] / ca[-1]
    return mat


def polyroots(c: Any) -> NDArray:
    """The roots of the series, sorted (complex ones by real part, then
    imaginary part); real when all are real."""
    [ca] = pu.as_series([c])
    if len(ca) < 2:
        return array([], dtype=ca.dtype)
    if len(ca) == 2:
        return array([-ca[0] / ca[1]])
    r = _real_if_real(eigvals(polycompanion(ca)))
    return pu.sorted_roots(r)


class Polynomial(PolyBase):
    """A power series (NumPy's ``numpy.polynomial.Polynomial``):
    ``Polynomial([1, 2, 3])`` is 1 + 2x + 3x².  ``domain`` is mapped onto
    ``window`` before evaluating (both [-1, 1] by default), as
    ``Polynomial.fit`` sets them up for a well-conditioned fit; call
    ``convert()`` for the coefficients in ``x`` itself."""

    _add = staticmethod(polyadd)
    _sub = staticmethod(polysub)
    _mul = staticmethod(polymul)
    _div = staticmethod(polydiv)
    _pow = staticmethod(polypow)
    _val = staticmethod(polyval)
    _int = staticmethod(polyint)
    _der = staticmethod(polyder)
    _fit = staticmethod(polyfit)
    _line = staticmethod(polyline)
    _roots = staticmethod(polyroots)
    _fromroots = staticmethod(polyfromroots)

    domain = array(polydomain)
    window = array(polydomain)
    basis_name = None

    @classmethod
    def _str_term_unicode(cls, i: str, arg_str: str) -> str:
        if i == "1":
            return f"·{arg_str}"
        return f"·{arg_str}{i.translate(cls._superscript_mapping)}"

    @classmethod
    def _str_term_ascii(cls, i: str, arg_str: str) -> str:
        if i == "1":
            return f" {arg_str}"
        return f" {arg_str}**{i}"

    @classmethod
    def _repr_latex_term(cls, i: int, arg_str: str, needs_parens: bool) -> str:
        if needs_parens:
            arg_str = rf"\left({arg_str}\right)"
        if i == 0:
            return "1"
        if i == 1:
            return arg_str
        return f"{arg_str}^{{{i}}}"
