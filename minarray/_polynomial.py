"""NumPy's one-variable polynomials (``numpy.lib`` 's polynomial module):
``polyfit``, ``polyval``, ``roots``, ``poly``, the arithmetic
(``polyadd``, ``polysub``, ``polymul``, ``polydiv``), calculus
(``polyder``, ``polyint``) and the ``poly1d`` class.

Coefficients run from the highest power to the constant term, as NumPy
orders them.  Least squares run on ``linalg.lstsq`` and roots on
``linalg.eigvals`` of the companion matrix, so results match NumPy's to
LAPACK's rounding.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

from minarray import _dtypes as _dt
from minarray import _elementwise as _ew
from minarray import _subclass
from minarray._array_object import NDArray
from minarray._coerce import as_int, asarray
from minarray._creation import arange, diag, ones, vander, zeros
from minarray._data_type_functions import finfo, isscalar
from minarray._joining import atleast_1d, concat
from minarray._linear_algebra import convolve, dot, outer
from minarray._manipulation import trim_zeros
from minarray._searching import nonzero
from minarray._statistical import sum as _sum
from minarray._utility import all as _all
from minarray._utility import allclose
from minarray.exceptions import RankWarning
from minarray.linalg._decompositions import eigvals, inv, lstsq

__all__ = [
    "poly", "poly1d", "polyadd", "polyder", "polydiv", "polyfit", "polyint", "polymul", "polysub",
    "polyval", "roots",
]


def _inexact(a: NDArray) -> NDArray:
    """``a + 0.0`` as NumPy writes it: integers and booleans become
    float64, float and complex arrays keep their dtype."""
    return a if a.dtype.kind in "fc" else a.astype(_dt.float64)


def check_fit_points(xa: NDArray, ya: NDArray) -> None:
    """NumPy's checks of a least-squares fit's points (polyfit's and the
    polynomial package's fit), in its order and with its error types."""
    if xa.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if xa.size == 0:
        raise TypeError("expected non-empty vector for x")
    if ya.ndim < 1 or ya.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if xa.shape[0] != ya.shape[0]:
        raise TypeError("expected x and y to have same length")


def _real_if_real(w: NDArray) -> NDArray:
    """Eigenvalues as NumPy's ``eigvals`` returns them for real input: real
    when every imaginary part is zero (minarray's, as the Array API's, are
    always complex)."""
    if w.dtype.kind == "c" and bool(_all(_ew.equal(w.imag, 0))):
        return w.real.copy()
    return w


def polyfit(x: Any, y: Any, deg: int, rcond: float | None = None, full: bool = False, w: Any = None,
            cov: bool | str = False) -> Any:
    """Least-squares fit of a polynomial of degree ``deg`` to the points
    ``(x, y)`` (NumPy's ``polyfit``): the coefficients, highest power
    first; ``y`` of shape (M, K) fits K data sets at once.  ``w`` weights
    each point (applied to the unsquared residual); ``full`` also returns
    the residuals, rank, singular values and ``rcond``; ``cov`` also the
    covariance matrix of the coefficients (scaled by the residuals unless
    ``cov="unscaled"``).  A rank-deficient fit warns with
    :class:`~minarray.exceptions.RankWarning`, as NumPy."""
    order = as_int(deg, "polyfit: deg") + 1
    xa = _inexact(asarray(x))
    ya = _inexact(asarray(y))
    # NumPy's checks, in its order and with its error types
    if order < 1:
        raise ValueError("expected deg >= 0")
    check_fit_points(xa, ya)
    if rcond is None:
        rcond = len(xa) * finfo(xa.dtype).eps
    # NumPy's vander computes in x's type promoted with int64 (float64
    # for float32 x), and polyfit's result follows it
    lhs = vander(xa.astype(_dt.promote(xa.dtype, _dt.int64), copy=False), order)
    rhs = ya
    if w is not None:
        wa = _inexact(asarray(w))
        if wa.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if wa.shape[0] != ya.shape[0]:
            raise TypeError("expected w and y to have the same length")
        # in x's and y's dtypes, as NumPy's in-place products (lhs is ours)
        lhs *= wa.reshape((-1, 1))
        rhs = (rhs * (wa.reshape((-1, 1)) if rhs.ndim == 2 else wa)).astype(rhs.dtype, copy=False)
    # scale the columns to unit norm: the Vandermonde matrix's columns
    # differ by orders of magnitude, which costs lstsq precision
    scale = _ew.sqrt(_sum(lhs * lhs, axis=0))
    lhs /= scale
    c, resids, rank, s = lstsq(lhs, rhs, rcond)
    c = c / (scale.reshape((-1, 1)) if c.ndim == 2 else scale)
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", RankWarning, stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if not cov:
        return c
    vbase = inv(dot(lhs.T, lhs))
    vbase /= outer(scale, scale)
    if cov == "unscaled":
        fac: Any = 1
    else:
        if len(xa) <= order:
            raise ValueError("the number of data points must exceed order to scale the covariance matrix")
        # NumPy's unbiased estimate of the residuals' variance
        fac = resids / (len(xa) - order)
    if ya.ndim == 1:
        return c, vbase * fac
    return c, vbase.reshape((*vbase.shape, 1)) * fac


def polyval(p: Any, x: Any) -> Any:
    """The polynomial with coefficients ``p`` (highest power first) at
    ``x``, by Horner's scheme (NumPy's ``polyval``): the result has x's
    shape, in the dtype NumPy's ``zeros_like(x) * x + p[i]`` gives.  ``x``
    a :class:`poly1d` composes the polynomials."""
    if type(x) is not NDArray and _subclass.instance(x):
        return _subclass.through_method(lambda v: polyval(p, v), x, zero_d=True)
    pa = asarray(p._coeffs if isinstance(p, poly1d) else p)
    if isinstance(x, poly1d):
        yp: Any = 0
        for pv in pa:
            yp = yp * x + pv
        return yp
    xa = asarray(x)
    y = zeros(xa.shape, dtype=xa.dtype)
    for pv in pa:
        y = y * xa + pv
    return y


def roots(p: Any) -> NDArray:
    """The roots of the polynomial with coefficients ``p`` (NumPy's
    ``roots``): the eigenvalues of its companion matrix, real when all are
    real; leading zeros are dropped, trailing zeros are roots at 0."""
    a = atleast_1d(asarray(p._coeffs if isinstance(p, poly1d) else p))
    if a.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nz = nonzero(a.reshape((-1,)))[0]
    if len(nz) == 0:
        return zeros((0,))
    first, last = int(nz[0]), int(nz[-1])
    trailing = len(a) - last - 1
    a = _inexact(a[first:last + 1])
    n = len(a)
    if n > 1:
        comp = diag(ones((n - 2,), dtype=a.dtype), -1)
        comp[0, :] = -a[1:] / a[0]
        r = _real_if_real(eigvals(comp))
    else:
        r = zeros((0,))
    return concat((r, zeros((trailing,), dtype=r.dtype)))


def poly(seq_of_zeros: Any) -> Any:
    """The coefficients of the monic polynomial with the given roots
    (NumPy's ``poly``), or, for a square matrix, of its characteristic
    polynomial; real when the roots come in conjugate pairs.  No roots
    give ``1.0``."""
    z = atleast_1d(asarray(seq_of_zeros))
    sh = z.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        z = _real_if_real(eigvals(z))
    elif len(sh) == 1:
        # NumPy's mintypecode: the four LAPACK types stay, the rest become float64
        if z.dtype not in (_dt.float32, _dt.float64, _dt.complex64, _dt.complex128):
            z = z.astype(_dt.float64)
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if len(z) == 0:
        return 1.0
    a = ones((1,), dtype=z.dtype)
    for zero in z:
        a = convolve(a, concat((ones((1,), dtype=z.dtype), -zero.reshape((1,)))))
    if a.dtype.kind == "c":
        # real when the roots are closed under conjugation (NumPy compares
        # them sorted, complex numbers ordered by real then imaginary part)
        rz = [complex(v) for v in z.tolist()]
        if sorted(rz, key=_lexical) == sorted((v.conjugate() for v in rz), key=_lexical):
            a = a.real.copy()
    return a


def _lexical(z: complex) -> tuple[float, float]:
    return z.real, z.imag


def _pair(a1: Any, a2: Any) -> tuple[bool, NDArray, NDArray]:
    """Whether either operand is a poly1d, and both as 1-d arrays."""
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    return truepoly, atleast_1d(_coeffs_of(a1)), atleast_1d(_coeffs_of(a2))


def _coeffs_of(a: Any) -> NDArray:
    return a._coeffs if isinstance(a, poly1d) else asarray(a)


def _padded(a: NDArray, n: int) -> NDArray:
    """``a`` with zeros in front up to length ``n`` (the high powers)."""
    return a if len(a) >= n else concat((zeros((n - len(a),), dtype=a.dtype), a))


def _wrap(truepoly: bool, val: NDArray) -> Any:
    return poly1d(val) if truepoly else val


def polyadd(a1: Any, a2: Any) -> Any:
    """The sum of two polynomials (a poly1d when either is one)."""
    truepoly, x, y = _pair(a1, a2)
    n = max(len(x), len(y))
    return _wrap(truepoly, _padded(x, n) + _padded(y, n))


def polysub(a1: Any, a2: Any) -> Any:
    """The difference ``a1 - a2`` of two polynomials."""
    truepoly, x, y = _pair(a1, a2)
    n = max(len(x), len(y))
    return _wrap(truepoly, _padded(x, n) - _padded(y, n))


def polymul(a1: Any, a2: Any) -> Any:
    """The product of two polynomials (the convolution of their
    coefficients, leading zeros trimmed first as poly1d does)."""
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    return _wrap(truepoly, convolve(poly1d(a1)._coeffs, poly1d(a2)._coeffs))


def polydiv(u: Any, v: Any) -> tuple[Any, Any]:
    """Quotient and remainder of the polynomial division ``u / v`` (long
    division, as NumPy's ``polydiv``; the remainder's leading terms within
    1e-14 of zero are dropped)."""
    truepoly, ua, va = _pair(u, v)
    ua, va = _inexact(ua), _inexact(va)
    dt = _dt.promote(ua.dtype, va.dtype)
    m, n = len(ua) - 1, len(va) - 1
    scale = 1.0 / va[0]
    q = zeros((max(m - n + 1, 1),), dtype=dt)
    r = ua.astype(dt)
    for k in range(m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] = r[k:k + n + 1] - d * va
    while r.shape[-1] > 1 and allclose(r[0], 0, rtol=1e-14):
        r = r[1:]
    return _wrap(truepoly, q), _wrap(truepoly, r)


def polyder(p: Any, m: int = 1) -> Any:
    """The ``m``-th derivative of a polynomial."""
    k = as_int(m, "polyder: m")
    if k < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    truepoly = isinstance(p, poly1d)
    val = _coeffs_of(p)
    for _ in range(k):
        n = len(val) - 1
        val = val[:-1] * arange(n, 0, -1)
    return _wrap(truepoly, val)


def polyint(p: Any, m: int = 1, k: Any = None) -> Any:
    """The ``m``-th antiderivative of a polynomial, with integration
    constants ``k`` (a scalar, or one per integration, the first used
    first; default 0)."""
    order = as_int(m, "polyint: m")
    if order < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    ks = atleast_1d(asarray(zeros((order,)) if k is None else k))
    if len(ks) == 1 and order > 1:
        ks = ks[0] * ones((order,))
    if len(ks) < order:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    truepoly = isinstance(p, poly1d)
    val = _coeffs_of(p)
    for i in range(order):
        quot = val / arange(len(val), 0, -1)
        val = concat((quot, ks[i].reshape((1,))))
    return _wrap(truepoly, val)


# a power in poly1d's one-line form: "x**2" -> the exponent, for the line above
_POWER = re.compile(r"\*\*([0-9]*)")


def _raise_powers(line: str, wrap: int = 70) -> str:
    """poly1d's string: the exponents moved to a line above their terms,
    both lines wrapped at ``wrap`` columns, as NumPy prints it."""
    pos = 0
    top = bottom = ""
    out = " "
    while (mat := _POWER.search(line, pos)) is not None:
        power = mat.group(1)
        part = line[pos:mat.start()]
        pos = mat.end()
        add_bottom = part + " " * (len(power) - 1)
        add_top = " " * (len(part) - 1) + power
        if len(bottom) + len(add_bottom) > wrap or len(top) + len(add_top) > wrap:
            out += top + "\n" + bottom + "\n "
            top, bottom = add_top, add_bottom
        else:
            bottom += add_bottom
            top += add_top
    return out + top + "\n" + bottom + line[pos:]


def _fmt_float(q: float) -> str:
    return f"{q:.4g}".removesuffix(".0000")


class poly1d:
    """A polynomial in one variable (NumPy's ``poly1d``): ``poly1d([1, 2,
    3])`` is x**2 + 2x + 3; ``poly1d(roots, True)`` builds it from its
    roots.  Calling it evaluates it; ``+ - * / **`` with numbers, arrays
    and other poly1d give poly1d; ``p[k]`` is the coefficient of x**k."""

    __hash__ = None  # type: ignore[assignment]  # mutable, as NumPy's

    def __init__(self, c_or_r: Any, r: bool = False, variable: str | None = None) -> None:
        if isinstance(c_or_r, poly1d):
            self._variable: str = c_or_r._variable if variable is None else variable
            self._coeffs: NDArray = c_or_r._coeffs
            return
        c = atleast_1d(asarray(poly(c_or_r) if r else c_or_r))
        if c.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        c = trim_zeros(c, trim="f")
        if len(c) == 0:
            c = zeros((1,), dtype=c.dtype)
        self._coeffs = c
        self._variable = "x" if variable is None else variable

    @property
    def coeffs(self) -> NDArray:
        """The coefficients, highest power first."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value: Any) -> None:
        # NumPy allows only the in-place operators (p.coeffs *= 2)
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    c = coef = coefficients = coeffs

    @property
    def variable(self) -> str:
        """The variable's name in ``str(p)``."""
        return self._variable

    @property
    def order(self) -> int:
        """The degree."""
        return len(self._coeffs) - 1

    o = order

    @property
    def roots(self) -> NDArray:
        """Where the polynomial is zero."""
        return roots(self._coeffs)

    r = roots

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        import numpy as np  # optional: only NumPy calls this

        return np.asarray(self._coeffs, dtype=dtype, copy=copy)

    def __repr__(self) -> str:
        # "array([1., 2.])" -> "poly1d([1., 2.])"
        return f"poly1d({repr(self._coeffs)[6:-1]})"

    def __str__(self) -> str:
        var = self._variable
        nz = nonzero(self._coeffs)[0]
        coeffs = self._coeffs[int(nz[0]):] if len(nz) else self._coeffs[:0]
        top = len(coeffs) - 1
        text = "0"
        for k, coeff in enumerate(coeffs):
            z = complex(coeff)
            if z.imag == 0:
                cs = _fmt_float(z.real)
            elif z.real == 0:
                cs = f"{_fmt_float(z.imag)}j"
            else:
                cs = f"({_fmt_float(z.real)} + {_fmt_float(z.imag)}j)"
            power = top - k
            if cs == "0":
                term = "0" if power == 0 and k == 0 else ""
            elif power == 0:
                term = cs
            elif power == 1:
                term = f"{cs} {var}"
            else:
                term = f"{cs} {var}**{power}"
            if k == 0:
                text = term
            elif term.startswith("-"):
                text = f"{text} - {term[1:]}"
            elif term:
                text = f"{text} + {term}"
        return _raise_powers(text)

    def __call__(self, val: Any) -> Any:
        return polyval(self._coeffs, val)

    def __len__(self) -> int:
        return self.order

    def __neg__(self) -> poly1d:
        return poly1d(-self._coeffs)

    def __pos__(self) -> poly1d:
        return self

    def __mul__(self, other: Any) -> poly1d:
        if isscalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(polymul(self._coeffs, poly1d(other)._coeffs))

    def __rmul__(self, other: Any) -> poly1d:
        if isscalar(other):
            return poly1d(other * self._coeffs)
        return poly1d(polymul(self._coeffs, poly1d(other)._coeffs))

    def __add__(self, other: Any) -> poly1d:
        return poly1d(polyadd(self._coeffs, poly1d(other)._coeffs))

    __radd__ = __add__

    def __sub__(self, other: Any) -> poly1d:
        return poly1d(polysub(self._coeffs, poly1d(other)._coeffs))

    def __rsub__(self, other: Any) -> poly1d:
        return poly1d(polysub(poly1d(other)._coeffs, self._coeffs))

    def __pow__(self, val: Any) -> poly1d:
        if not isscalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        res: Any = [1]
        for _ in range(int(val)):
            res = polymul(self._coeffs, res)
        return poly1d(res)

    def __truediv__(self, other: Any) -> Any:
        if isscalar(other):
            return poly1d(self._coeffs / other)
        return polydiv(self, poly1d(other))

    def __rtruediv__(self, other: Any) -> Any:
        if isscalar(other):
            return poly1d(other / self._coeffs)
        return polydiv(poly1d(other), self)

    def __eq__(self, other: object) -> Any:
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return _all(_ew.equal(self._coeffs, other._coeffs))  # NumPy's: a scalar bool (np.True_)

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    def __getitem__(self, power: int) -> NDArray:
        if power > self.order or power < 0:
            return zeros((), dtype=self._coeffs.dtype)
        return self._coeffs[self.order - power]

    def __setitem__(self, power: int, val: Any) -> None:
        if power < 0:
            raise ValueError("Does not support negative powers.")
        if power > self.order:
            self._coeffs = concat((zeros((power - self.order,), dtype=self._coeffs.dtype), self._coeffs))
        self._coeffs[self.order - power] = val

    def __iter__(self) -> Any:
        return iter(self._coeffs)

    def integ(self, m: int = 1, k: Any = 0) -> poly1d:
        """The ``m``-th antiderivative, constants ``k`` (see :func:`polyint`)."""
        return poly1d(polyint(self._coeffs, m=m, k=k))

    def deriv(self, m: int = 1) -> poly1d:
        """The ``m``-th derivative (see :func:`polyder`)."""
        return poly1d(polyder(self._coeffs, m=m))
