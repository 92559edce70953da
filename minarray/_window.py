"""NumPy's window functions for signal processing: ``bartlett``,
``blackman``, ``hamming``, ``hanning`` and ``kaiser``, and ``i0``, the
modified Bessel function of the first kind of order 0 that the Kaiser
window is made of.

Each window is NumPy's formula evaluated with minarray's elementwise
functions in the same order of operations, so the values are NumPy's to
the last bit wherever the elementwise functions are.  The length ``M`` is
read as NumPy reads it, through an array with ``0.0`` in front: the result
is float64, empty for ``M < 1`` and ``[1.0]`` for ``M == 1``; a float ``M``
is taken as it is, as NumPy takes it.  (A complex ``M``, which NumPy
orders lexicographically, raises TypeError here.)
"""

from __future__ import annotations

from typing import Any

from minarray import _elementwise as _ew
from minarray._array_object import NDArray
from minarray._coerce import asarray
from minarray._constants import pi
from minarray._creation import arange, asanyarray, ones
from minarray._elementwise import where
from minarray._functional import piecewise

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser", "i0"]


def _length(M: Any, *more: Any) -> tuple[NDArray, list[Any]]:
    """``M`` (and ``more``) read as NumPy's windows read them: through one
    array with 0.0 in front, which makes the result at least float64.
    Returns that array and its entries after the 0.0 as Python numbers."""
    values = asarray([0.0, M, *more])
    return values, [v.item() for v in values[1:]]


def _symmetric(M: Any) -> tuple[NDArray | None, Any]:
    """The points ``1 - M, 3 - M, ..., M - 1`` the symmetric windows are
    evaluated at, and ``M`` as a number; or the whole window (as the first
    item) where ``M < 1`` (empty) or ``M == 1`` (one 1.0)."""
    values, (m,) = _length(M)
    if m < 1:
        return asarray([], dtype=values.dtype), None
    if m == 1:
        return ones(1, dtype=values.dtype), None
    return None, m


def bartlett(M: Any) -> NDArray:
    """The Bartlett (triangular) window of ``M`` points, zero at both ends."""
    done, m = _symmetric(M)
    if done is not None:
        return done
    n = arange(1 - m, m, 2)
    return where(_ew.less_equal(n, 0), 1 + n / (m - 1), 1 - n / (m - 1))


def blackman(M: Any) -> NDArray:
    """The Blackman window of ``M`` points: three terms of a cosine sum."""
    done, m = _symmetric(M)
    if done is not None:
        return done
    n = arange(1 - m, m, 2)
    return 0.42 + 0.5 * _ew.cos(pi * n / (m - 1)) + 0.08 * _ew.cos(2.0 * pi * n / (m - 1))


def hamming(M: Any) -> NDArray:
    """The Hamming window of ``M`` points: a raised cosine that does not reach zero."""
    done, m = _symmetric(M)
    if done is not None:
        return done
    n = arange(1 - m, m, 2)
    return 0.54 + 0.46 * _ew.cos(pi * n / (m - 1))


def hanning(M: Any) -> NDArray:
    """The Hann window of ``M`` points: a raised cosine, zero at both ends."""
    done, m = _symmetric(M)
    if done is not None:
        return done
    n = arange(1 - m, m, 2)
    return 0.5 + 0.5 * _ew.cos(pi * n / (m - 1))


def kaiser(M: Any, beta: Any) -> NDArray:
    """The Kaiser window of ``M`` points with shape parameter ``beta``
    (0 is rectangular; larger values narrow it): ``i0`` of ``beta`` times a
    half ellipse, normalised by ``i0(beta)``."""
    values, (m, b) = _length(M, beta)
    if m == 1:
        return ones(1, dtype=values.dtype)
    n = arange(0, m)
    alpha = (m - 1) / 2.0
    return i0(b * _ew.sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / i0(b)


# Chebyshev coefficients of Cephes' i0 (its i0.c): exp(-x) I0(x) on
# [0, 8] (_I0_A, over x/2 - 2) and exp(-x) sqrt(x) I0(x) above 8 (_I0_B,
# over 32/x - 2).  NumPy evaluates the same series, so the values agree.
_I0_A = (
    -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
    1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
    -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
    9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
    -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
    1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
    -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
    1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
    -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
    1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1,
)
_I0_B = (
    -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
    3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
    1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
    -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
    7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
    -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
    3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
    2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
    8.04490411014108831608E-1,
)


def _chebyshev(x: NDArray, coefficients: tuple[float, ...]) -> NDArray:
    """Clenshaw's recurrence for a Chebyshev series at ``x``, as Cephes'
    chbevl (the coefficients highest order first, the first halved)."""
    b0: Any = coefficients[0]
    b1: Any = 0.0
    b2: Any = 0.0
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = x * b1 - b2 + c
    result: NDArray = 0.5 * (b0 - b2)
    return result


def _i0_small(x: NDArray) -> NDArray:
    return _ew.exp(x) * _chebyshev(x / 2.0 - 2, _I0_A)


def _i0_large(x: NDArray) -> NDArray:
    return _ew.exp(x) * _chebyshev(32.0 / x - 2.0, _I0_B) / _ew.sqrt(x)


def i0(x: Any) -> NDArray:
    """The modified Bessel function of the first kind, order 0, of each
    element of ``x`` (real only: a complex ``x`` raises TypeError). Float
    inputs keep their dtype; integers and booleans give float64."""
    a = asanyarray(x)
    if a.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    if a.dtype.kind != "f":
        a = a.astype(float)
    a = _ew.abs(a)
    return piecewise(a, [a <= 8.0], [_i0_small, _i0_large])
