"""``ma.polynomial``: NumPy's ``numpy.polynomial`` for the power basis,
so that ``from numpy.polynomial import Polynomial as P; P.fit(x, y, 3)``
and ``np.polynomial.polynomial.polyval(x, c)`` run with ``ma`` for
``np``.  The other bases (Chebyshev, Legendre, Laguerre, Hermite,
HermiteE) are NumPy's only: asking for them says so."""

from __future__ import annotations

from typing import NoReturn

from minarray.polynomial import polynomial, polyutils
from minarray.polynomial._other_bases import BASES, refuse
from minarray.polynomial._polybase import PolyBase
from minarray.polynomial.polynomial import Polynomial

__all__ = ["set_default_printstyle", "polynomial", "Polynomial", "polyutils"]


def set_default_printstyle(style: str) -> None:
    """How ``str`` writes a series: ``'unicode'`` (``1.0 + 2.0·x²``, the
    default) or ``'ascii'`` (``1.0 + 2.0 x**2``)."""
    if style not in ("unicode", "ascii"):
        raise ValueError(f"Unsupported format string '{style}'. Valid options are 'ascii' and 'unicode'")
    PolyBase._use_unicode = style == "unicode"


def __getattr__(name: str) -> NoReturn:
    if name in BASES:
        refuse(name)
    raise AttributeError(f"module 'minarray.polynomial' has no attribute '{name}'")
