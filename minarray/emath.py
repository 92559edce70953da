"""``ma.emath``: NumPy's mathematical functions with automatic domain
(``numpy.emath``, ``numpy.lib.scimath``): where a real input lies outside
the real domain (a negative number's square root or logarithm, an
``arcsin`` of 2), the result is the complex one instead of NaN.

As NumPy decides it, the decision is per array, by inspecting the values:
real input with any element outside the domain is converted to complex as a
whole (complex64 for float32, int8, int16, uint8 and uint16, else
complex128) before the function is applied; otherwise the function is the
ordinary real one, result dtype and all.
"""

from __future__ import annotations

from typing import Any

from minarray import _dtypes as _dt
from minarray import _elementwise as _ew
from minarray._array_object import NDArray
from minarray._coerce import as_operand
from minarray._utility import any as _any

__all__ = ["sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin", "arctanh"]

# NumPy's _tocomplex: the types whose complex counterpart is complex64
_TO_COMPLEX64 = (_dt.float32, _dt.int8, _dt.int16, _dt.uint8, _dt.uint16, _dt.complex64)


def _to_complex(x: NDArray) -> NDArray:
    return x.astype(_dt.complex64 if x.dtype in _TO_COMPLEX64 else _dt.complex128)


def _complex_if_negative(x: Any) -> NDArray:
    """``x`` as an array, complex when it is real with a negative element."""
    a = as_operand(x, "emath")
    if a.dtype.kind != "c" and bool(_any(_ew.less(a, 0))):
        return _to_complex(a)
    return a


def _complex_if_beyond_one(x: Any) -> NDArray:
    """``x`` as an array, complex when it is real with an element outside [-1, 1]."""
    a = as_operand(x, "emath")
    if a.dtype.kind != "c" and bool(_any(_ew.greater(_ew.abs(a), 1))):
        return _to_complex(a)
    return a


def sqrt(x: Any) -> NDArray:
    """The square root; complex where ``x`` has a negative real element
    (``sqrt(-4) == 2j``)."""
    return _ew.sqrt(_complex_if_negative(x))


def log(x: Any) -> NDArray:
    """The natural logarithm; complex where ``x`` has a negative real
    element (``log(-1) == pi * 1j``)."""
    return _ew.log(_complex_if_negative(x))


def log10(x: Any) -> NDArray:
    """The base-10 logarithm, complex for negative real input."""
    return _ew.log10(_complex_if_negative(x))


def log2(x: Any) -> NDArray:
    """The base-2 logarithm, complex for negative real input."""
    return _ew.log2(_complex_if_negative(x))


def logn(n: Any, x: Any) -> NDArray:
    """The logarithm of ``x`` to base ``n`` (``log(x) / log(n)``), complex
    where either has a negative real element."""
    return _ew.divide(_ew.log(_complex_if_negative(x)), _ew.log(_complex_if_negative(n)))


def power(x: Any, p: Any) -> NDArray:
    """``x ** p``, complex where ``x`` has a negative real element; a
    negative integer exponent makes the power a float one (NumPy's rule:
    ``power(2, -1) == 0.5``)."""
    base = _complex_if_negative(x)
    e = as_operand(p, "emath")
    if e.dtype.kind != "c" and bool(_any(_ew.less(e, 0))):
        e = _ew.multiply(e, 1.0)
    return _ew.pow(base, e)


def arccos(x: Any) -> NDArray:
    """The inverse cosine, complex where ``x`` has a real element outside [-1, 1]."""
    return _ew.acos(_complex_if_beyond_one(x))


def arcsin(x: Any) -> NDArray:
    """The inverse sine, complex where ``x`` has a real element outside [-1, 1]."""
    return _ew.asin(_complex_if_beyond_one(x))


def arctanh(x: Any) -> NDArray:
    """The inverse hyperbolic tangent, complex where ``x`` has a real
    element outside [-1, 1]."""
    return _ew.atanh(_complex_if_beyond_one(x))
