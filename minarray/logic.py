"""NumPy's logic functions beyond the elementwise comparisons: closeness
(``isclose``, ``allclose``), whole-array equality (``array_equal``,
``array_equiv``), the sign of infinities (``isposinf``, ``isneginf``) and
questions about complex values and scalars (``iscomplex``, ``isreal``,
``iscomplexobj``, ``isrealobj``, ``isscalar``).

All are compositions of the elementwise functions and reductions, with
NumPy's formulas, so they agree with NumPy element for element.
"""

from __future__ import annotations

import builtins
import cmath
import numbers
import sys
from typing import Any

from minarray import dtypes as _dt
from minarray import elementwise as _ew
from minarray.creation import as_operand, zeros
from minarray.errstate import errstate
from minarray.ndarray import NDArray
from minarray.reductions import all as _all
from minarray.views import broadcast_shapes

__all__ = [
    "isclose", "allclose", "array_equal", "array_equiv", "isposinf", "isneginf",
    "iscomplex", "isreal", "iscomplexobj", "isrealobj", "isscalar",
]

_PY_NUMBERS = (bool, int, float, complex)


def _value(v: Any) -> Any:
    """A Python number as it is (weak in promotion), anything else as an array."""
    return v if isinstance(v, _PY_NUMBERS) else as_operand(v)


def _abs(v: Any) -> Any:
    return builtins.abs(v) if isinstance(v, _PY_NUMBERS) else _ew.abs(v)


def _isfinite(v: Any) -> Any:
    return cmath.isfinite(v) if isinstance(v, _PY_NUMBERS) else _ew.isfinite(v)


def _isnan(v: Any) -> Any:
    return cmath.isnan(v) if isinstance(v, _PY_NUMBERS) else _ew.isnan(v)


def isclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> NDArray:
    """Elementwise ``|a - b| <= atol + rtol * |b|`` (NumPy's test: not
    symmetric in ``a`` and ``b``); infinities are close only to themselves,
    NaN to nothing unless ``equal_nan``.  Python numbers stay weak, as in
    NumPy: ``isclose(float32_array, 0.1)`` compares in float32."""
    x, y = _value(a), _value(b)
    if isinstance(y, NDArray):
        if y.dtype.kind in "biu":
            y = y.astype(_dt.result_type(y, 1.0))
    elif isinstance(y, (bool, int)):
        y = float(y)
    if isinstance(x, NDArray) and x.dtype.kind == "b":
        x = x.astype(_dt.float64)
    if not isinstance(x, NDArray) and not isinstance(y, NDArray):
        x = as_operand(x)  # two Python numbers: a 0-d result
    with errstate(invalid="ignore"):  # inf - inf: NumPy's isclose does not warn either
        tol = atol + rtol * _abs(y)  # Python arithmetic when y is a Python number
        close = _ew.less_equal(_abs(_ew.subtract(x, y)), tol)
    result = _ew.logical_or(_ew.logical_and(close, _isfinite(y)), _ew.equal(x, y))
    if equal_nan:
        result = _ew.logical_or(result, _ew.logical_and(_isnan(x), _isnan(y)))
    return result


def allclose(a: Any, b: Any, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    """True when every element of ``a`` is :func:`isclose` to ``b``'s."""
    return bool(_all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> bool:
    """True when both have the same shape and equal elements (NaNs equal
    each other when ``equal_nan``)."""
    try:
        x, y = as_operand(a1), as_operand(a2)
    except (TypeError, ValueError):
        return False
    if x.shape != y.shape:
        return False
    if not equal_nan or (x.dtype.kind not in "fc" and y.dtype.kind not in "fc"):
        return bool(_all(_ew.equal(x, y)))
    nx, ny = _ew.isnan(x), _ew.isnan(y)
    if not bool(_all(_ew.equal(nx, ny))):
        return False
    return bool(_all(_ew.logical_or(_ew.equal(x, y), nx)))


def array_equiv(a1: Any, a2: Any) -> bool:
    """True when the shapes broadcast and the broadcast elements are equal."""
    try:
        x, y = as_operand(a1), as_operand(a2)
    except (TypeError, ValueError):
        return False
    try:
        broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return False
    return bool(_all(_ew.equal(x, y)))


def isposinf(x: Any) -> NDArray:
    """Elementwise: is the value +inf?"""
    a = as_operand(x, "isposinf")
    if a.dtype.kind == "c":
        raise TypeError("This operation is not supported for complex values because it would be ambiguous.")
    return _ew.logical_and(_ew.isinf(a), _ew.logical_not(_ew.signbit(a))) if a.dtype.kind == "f" \
        else zeros(a.shape, dtype=_dt.bool)


def isneginf(x: Any) -> NDArray:
    """Elementwise: is the value -inf?"""
    a = as_operand(x, "isneginf")
    if a.dtype.kind == "c":
        raise TypeError("This operation is not supported for complex values because it would be ambiguous.")
    return _ew.logical_and(_ew.isinf(a), _ew.signbit(a)) if a.dtype.kind == "f" \
        else zeros(a.shape, dtype=_dt.bool)


def iscomplex(x: Any) -> NDArray:
    """Elementwise: does the value have a non-zero imaginary part?"""
    a = as_operand(x, "iscomplex")
    if a.dtype.kind != "c":
        return zeros(a.shape, dtype=_dt.bool)
    return _ew.not_equal(_ew.imag(a), 0)


def isreal(x: Any) -> NDArray:
    """Elementwise: is the imaginary part zero (always, for real dtypes)?"""
    return _ew.logical_not(iscomplex(x))


def iscomplexobj(x: Any) -> bool:
    """Is ``x``'s dtype complex (whatever the values)?"""
    dt = getattr(x, "dtype", None)
    if isinstance(dt, _dt.DType):
        return dt.kind == "c"
    return as_operand(x).dtype.kind == "c"


def isrealobj(x: Any) -> bool:
    """Is ``x``'s dtype not complex?"""
    return not iscomplexobj(x)


def isscalar(element: Any) -> bool:
    """Is ``element`` a scalar: a Python or NumPy number, string or bytes
    (an array, even 0-d, is not)."""
    if isinstance(element, (numbers.Number, str, bytes)):
        return True
    np = sys.modules.get("numpy")  # NumPy's scalars, if NumPy is in use at all
    return np is not None and isinstance(element, np.generic)
