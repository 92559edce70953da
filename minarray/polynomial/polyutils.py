"""NumPy's ``numpy.polynomial.polyutils``: the helpers the polynomial
functions share (coefficient series in, trimming, domains and the linear
map between them), and the generic algorithms the power basis builds on
(fitting, powers, n-d evaluation, Vandermonde matrices of several
variables)."""

from __future__ import annotations

import functools
import operator
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from minarray._array_object import NDArray
from minarray._coerce import asarray
from minarray._creation import array, ones, zeros
from minarray._data_type_functions import common_type, finfo
from minarray._elementwise import sqrt, square
from minarray._float_format import format_float_positional, format_float_scientific
from minarray._polynomial import check_fit_points
from minarray._printoptions import get_printoptions
from minarray._scalar import Scalar
from minarray._searching import nonzero
from minarray._sorting import sort
from minarray._utility import all as _all
from minarray.exceptions import RankWarning
from minarray.linalg._decompositions import lstsq

__all__ = ["as_series", "trimseq", "trimcoef", "getdomain", "mapdomain", "mapparms", "format_float"]


def trimseq(seq: Any) -> Any:
    """``seq`` without its trailing zeros (one element is always kept)."""
    if len(seq) == 0 or seq[-1] != 0:
        return seq
    for i in range(len(seq) - 1, -1, -1):
        if seq[i] != 0:
            break
    return seq[:i + 1]


def as_series(alist: Any, trim: bool = True) -> list[NDArray]:
    """Each item of ``alist`` as a 1-d copy, all in their common inexact
    type (NumPy's ``common_type``: integers become float64); with ``trim``,
    trailing zeros dropped."""
    arrays = [array(a, ndmin=1, copy=None) for a in alist]
    for a in arrays:
        if a.size == 0:
            raise ValueError("Coefficient array is empty")
        if a.ndim != 1:
            raise ValueError("Coefficient array is not 1-d")
    if trim:
        arrays = [trimseq(a) for a in arrays]
    try:
        dtype = common_type(*arrays)
    except TypeError as e:
        # NumPy falls back to object arrays here; minarray has no object dtype
        raise ValueError("Coefficient arrays have no common type") from e
    return [array(a, copy=True, dtype=dtype) for a in arrays]


def trimcoef(c: Any, tol: float = 0) -> NDArray:
    """``c`` without its trailing coefficients of magnitude ``tol`` or
    less; all of them small gives ``[0]``."""
    if tol < 0:
        raise ValueError("tol must be non-negative")
    [ca] = as_series([c])
    [ind] = nonzero(abs(ca) > tol)
    if len(ind) == 0:
        zero: NDArray = ca[:1] * 0
        return zero
    return ca[:int(ind[-1]) + 1].copy()


def getdomain(x: Any) -> NDArray:
    """The smallest interval holding the points ``x`` (for complex points
    the corners of the smallest rectangle)."""
    [x] = as_series([x], trim=False)
    if x.dtype.kind == "c":
        rmin, rmax = float(x.real.min()), float(x.real.max())
        imin, imax = float(x.imag.min()), float(x.imag.max())
        return array((complex(rmin, imin), complex(rmax, imax)))
    return array((x.min(), x.max()))


def mapparms(old: Any, new: Any) -> tuple[Any, Any]:
    """``off, scl`` of the linear map ``off + scl*x`` that takes the
    interval ``old`` onto ``new``."""
    oldlen = old[1] - old[0]
    newlen = new[1] - new[0]
    off = (old[1] * new[0] - old[0] * new[1]) / oldlen
    scl = newlen / oldlen
    return off, scl


def mapdomain(x: Any, old: Any, new: Any) -> Any:
    """The points ``x`` of the interval ``old`` mapped linearly onto
    ``new``; numbers stay numbers, anything else becomes an array."""
    if type(x) not in (int, float, complex) and not isinstance(x, Scalar):
        x = asarray(x)
    off, scl = mapparms(old, new)
    return off + scl * x


def _nth_slice(i: int, ndim: int) -> tuple[Any, ...]:
    sl: list[Any] = [None] * ndim
    sl[i] = slice(None)
    return tuple(sl)


def _vander_nd(vander_fs: Sequence[Callable[[Any, int], NDArray]], points: Sequence[Any],
               degrees: Sequence[int]) -> NDArray:
    """The product of one Vandermonde matrix per variable, each one's
    degree axis on its own trailing axis of the result."""
    n_dims = len(vander_fs)
    if n_dims != len(points):
        raise ValueError(f"Expected {n_dims} dimensions of sample points, got {len(points)}")
    if n_dims != len(degrees):
        raise ValueError(f"Expected {n_dims} dimensions of degrees, got {len(degrees)}")
    if n_dims == 0:
        raise ValueError("Unable to guess a dtype or shape when no points are given")
    # one array first: the points must share a shape, and take one dtype
    stacked = asarray(tuple(points)) + 0.0
    vander_arrays = (vander_fs[i](stacked[i], degrees[i])[(..., *_nth_slice(i, n_dims))] for i in range(n_dims))
    return functools.reduce(operator.mul, vander_arrays)


def _vander_nd_flat(vander_fs: Sequence[Callable[[Any, int], NDArray]], points: Sequence[Any],
                    degrees: Sequence[int]) -> NDArray:
    """`_vander_nd` with the degree axes flattened into one."""
    v = _vander_nd(vander_fs, points, degrees)
    return v.reshape((*v.shape[:-len(degrees)], -1))


def sorted_roots(r: NDArray) -> NDArray:
    """``r`` sorted as NumPy's ``sort``: complex numbers by real part, then
    imaginary part (minarray's ``sort`` refuses complex), NaNs last."""
    if r.dtype.kind != "c":
        return sort(r)

    def key(z: complex) -> tuple[bool, float, bool, float]:
        return (z.real != z.real, z.real, z.imag != z.imag, z.imag)

    return array(sorted((complex(v) for v in r.tolist()), key=key), dtype=r.dtype)


def _fromroots(line_f: Callable[[Any, Any], NDArray], mul_f: Callable[[Any, Any], NDArray], roots: Any) -> NDArray:
    """The monic series with the given roots: the product of the linear
    factors, multiplied pairwise (a balanced tree keeps the rounding low)."""
    if len(roots) == 0:
        return ones((1,))
    [r] = as_series([roots], trim=False)
    r = sorted_roots(r)
    p = [line_f(-v, 1) for v in r]
    n = len(p)
    while n > 1:
        m, rest = divmod(n, 2)
        tmp = [mul_f(p[i], p[i + m]) for i in range(m)]
        if rest:
            tmp[0] = mul_f(tmp[0], p[-1])
        p = tmp
        n = m
    return p[0]


def _valnd(val_f: Callable[..., Any], c: Any, *args: Any) -> Any:
    """The series of several variables ``c`` at the points ``args`` (all
    of one shape)."""
    arrs = [asarray(a) for a in args]
    shape0 = arrs[0].shape
    if not all(a.shape == shape0 for a in arrs[1:]):
        if len(arrs) == 3:
            raise ValueError("x, y, z are incompatible")
        if len(arrs) == 2:
            raise ValueError("x, y are incompatible")
        raise ValueError("ordinates are incompatible")
    it = iter(arrs)
    c = val_f(next(it), c)
    for xi in it:
        c = val_f(xi, c, tensor=False)
    return c


def _gridnd(val_f: Callable[..., Any], c: Any, *args: Any) -> Any:
    """The series of several variables ``c`` on the Cartesian product of
    the points ``args``."""
    for xi in args:
        c = val_f(xi, c)
    return c


def _add(c1: Any, c2: Any) -> NDArray:
    [a1, a2] = as_series([c1, c2])
    if len(a1) > len(a2):
        a1[:a2.size] += a2
        ret = a1
    else:
        a2[:a1.size] += a1
        ret = a2
    return trimseq(ret)  # type: ignore[no-any-return]


def _sub(c1: Any, c2: Any) -> NDArray:
    [a1, a2] = as_series([c1, c2])
    if len(a1) > len(a2):
        a1[:a2.size] -= a2
        ret = a1
    else:
        a2 = -a2
        a2[:a1.size] += a1
        ret = a2
    return trimseq(ret)  # type: ignore[no-any-return]


def _fit(vander_f: Callable[[Any, int], NDArray], x: Any, y: Any, deg: Any, rcond: float | None = None,
         full: bool = False, w: Any = None) -> Any:
    """Least-squares fit of the series of ``vander_f``'s basis: ``deg`` the
    degree, or the list of the degrees to fit (the others stay 0)."""
    xa = asarray(x) + 0.0
    ya = asarray(y) + 0.0
    dg = asarray(deg)
    if dg.ndim > 1 or dg.dtype.kind not in "iu" or dg.size == 0:
        raise TypeError("deg must be an int or non-empty 1-D array of int")
    if int(dg.min()) < 0:
        raise ValueError("expected deg >= 0")
    check_fit_points(xa, ya)
    if dg.ndim == 0:
        lmax = int(dg)
        order = lmax + 1
        van = vander_f(xa, lmax)
    else:
        dg = sort(dg)
        lmax = int(dg[-1])
        order = len(dg)
        van = vander_f(xa, lmax)[:, dg]
    # the least-squares problem in transposed form, as NumPy sets it up
    lhs = van.T
    rhs = ya.T
    if w is not None:
        wa = asarray(w) + 0.0
        if wa.ndim != 1:
            raise TypeError("expected 1D vector for w")
        if len(xa) != len(wa):
            raise TypeError("expected x and w to have same length")
        lhs = lhs * wa
        rhs = rhs * wa
    rc: Any = rcond
    if rc is None:
        # a scalar of x's real type, as NumPy's len(x) * finfo(x.dtype).eps
        fi = finfo(xa.dtype)
        rc = asarray(len(xa) * float(fi.eps), dtype=fi.dtype)[()]
    # scale the columns to unit norm: the basis functions' columns differ
    # by orders of magnitude, which costs lstsq precision
    if lhs.dtype.kind == "c":
        scl = sqrt((square(lhs.real) + square(lhs.imag)).sum(1))
    else:
        scl = sqrt(square(lhs).sum(1))
    scl[scl == 0] = 1
    c, resids, rank, s = lstsq(lhs.T / scl, rhs.T, rc)
    c = (c.T / scl).T
    if dg.ndim > 0:
        # the degrees not fitted get zero coefficients
        cc = zeros((lmax + 1, c.shape[1]) if c.ndim == 2 else (lmax + 1,), dtype=c.dtype)
        cc[dg] = c
        c = cc
    if rank != order and not full:
        warnings.warn("The fit may be poorly conditioned", RankWarning, stacklevel=3)
    if full:
        return c, [resids, rank, s, rc]
    return c


def _pow(mul_f: Callable[[Any, Any], NDArray], c: Any, pow: Any, maxpower: int | None) -> NDArray:
    """``c`` to the non-negative integer power ``pow``, by repeated
    products (at most ``maxpower``)."""
    [ca] = as_series([c])
    power = int(pow)
    if power != pow or power < 0:
        raise ValueError("Power must be a non-negative integer.")
    if maxpower is not None and power > maxpower:
        raise ValueError("Power is too large")
    if power == 0:
        return array([1], dtype=ca.dtype)
    prd = ca
    for _ in range(2, power + 1):
        prd = mul_f(prd, ca)
    return prd


def _as_int(x: Any, desc: str) -> int:
    """``x`` as an exact integer (``operator.index``), else NumPy's error."""
    try:
        return operator.index(x)
    except TypeError as e:
        raise TypeError(f"{desc} must be an integer, received {x}") from e


def format_float(x: Any, parens: bool = False) -> str:
    """A coefficient as the polynomial printers write it: floats as NumPy's
    print options say (positional, scientific when very large or small,
    with parentheses if asked), anything else as ``str``."""
    dtype = getattr(x, "dtype", None)
    if dtype is None or dtype.kind != "f":
        return str(x)
    opts = get_printoptions()
    v = float(x)
    if v != v:
        return str(opts["nanstr"])
    if v in (float("inf"), float("-inf")):
        return str(opts["infstr"])
    precision = int(opts["precision"])
    exp_format = v != 0 and (abs(v) >= 1.e8 or abs(v) < 10 ** min(0, -(precision - 1) // 2))
    trim, unique = ("k", False) if opts["floatmode"] == "fixed" else ("0", True)
    if exp_format:
        s = format_float_scientific(x, precision=precision, unique=unique, trim=trim, sign=opts["sign"] == "+")
        return f"({s})" if parens else s
    return format_float_positional(x, precision=precision, fractional=True, unique=unique, trim=trim,
                                   sign=opts["sign"] == "+")


def all_equal(a: Any, b: Any) -> Any:
    """NumPy's ``np.all(a == b)``: a scalar bool."""
    return _all(asarray(a) == asarray(b))

