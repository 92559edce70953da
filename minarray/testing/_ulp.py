"""NumPy's assertions in units in the last place (``numpy.testing``):
``nulp_diff``, ``assert_array_max_ulp`` and
``assert_array_almost_equal_nulp``, over minarray's own operations.

Two floats are as many ULP apart as there are representable values
between them: their bits read as sign-magnitude integers (negative floats
mapped below zero, so that -0.0 and 0.0 are one value apart from each
other's neighbours) differ by that count.  NumPy's ``nulp_diff`` adds a
leading axis of length one to its result, and so does this one.
"""

from __future__ import annotations

from typing import Any

from minarray import _coerce, _data_type_functions, _elementwise, _manipulation, _statistical, _utility
from minarray import _dtypes as _dt
from minarray._array_object import NDArray

__all__ = ["assert_array_almost_equal_nulp", "assert_array_max_ulp", "nulp_diff"]

# The integer type a float's bits are read as, per float type.
_INT_OF = {"float16": _dt.int16, "float32": _dt.int32, "float64": _dt.int64}


def _integer_repr(x: NDArray) -> NDArray:
    """x's bits as sign-magnitude integers: a negative float's bits (the
    sign bit set, a negative integer in two's complement) are mapped to
    MIN - bits, so that the integers order as the floats do."""
    vdt = _INT_OF.get(str(x.dtype))
    if vdt is None:
        raise ValueError(f"Unsupported dtype {x.dtype}")
    rx = x.view(vdt).copy()
    neg = rx < 0
    lowest = _coerce.asarray(-(1 << (8 * vdt.itemsize - 1)), dtype=vdt)
    rx[neg] = lowest - rx[neg]
    return rx


def nulp_diff(x: Any, y: Any, dtype: Any = None) -> NDArray:
    """How many representable values lie between each pair of elements of
    ``x`` and ``y`` (in their common float type, or ``dtype``), with a
    leading axis of length one as NumPy's.  NaNs of any payload count as
    one value; complex input raises NotImplementedError, shapes that differ
    ValueError."""
    xa = _coerce.asarray(x, dtype=dtype) if dtype else _coerce.asarray(x)
    ya = _coerce.asarray(y, dtype=dtype) if dtype else _coerce.asarray(y)
    t = _data_type_functions.common_type(xa, ya)
    if _data_type_functions.iscomplexobj(xa) or _data_type_functions.iscomplexobj(ya):
        raise NotImplementedError("_nulp not implemented for complex array")
    xa = _manipulation.expand_dims(xa.astype(t, copy=True), axis=0)
    ya = _manipulation.expand_dims(ya.astype(t, copy=True), axis=0)
    xa[_elementwise.isnan(xa)] = float("nan")
    ya[_elementwise.isnan(ya)] = float("nan")
    if xa.shape != ya.shape:
        raise ValueError(f"Arrays do not have the same shape: {xa.shape} - {ya.shape}")
    # the integers' difference wraps as NumPy's does (only NaNs and values
    # of opposite signs near the extremes get that far)
    diff = _integer_repr(xa) - _integer_repr(ya)
    return _elementwise.abs(diff.astype(t))


def assert_array_max_ulp(a: Any, b: Any, maxulp: float = 1, dtype: Any = None) -> NDArray:
    """Fail unless every element of ``a`` is within ``maxulp`` ULP of the
    matching element of ``b``; returns their distances (`nulp_diff`)."""
    __tracebackhide__ = True
    ret = nulp_diff(a, b, dtype)
    if not bool(_utility.all(ret <= maxulp)):
        raise AssertionError(f"Arrays are not almost equal up to {maxulp:g} ULP "
                             f"(max difference is {float(_statistical.max(ret)):g} ULP)")
    return ret


def assert_array_almost_equal_nulp(x: Any, y: Any, nulp: int = 1) -> None:
    """Fail unless ``|x - y| <= nulp * spacing(max(|x|, |y|))`` everywhere:
    a relative comparison whose tolerance follows each element's size."""
    __tracebackhide__ = True
    # Python numbers stay weak, as in NumPy's arithmetic here: float16 0
    # minus 1e-9 is float16's 0, not float64's -1e-9
    xa, ya = (v if isinstance(v, (NDArray, bool, int, float, complex)) else _coerce.asarray(v) for v in (x, y))
    ax, ay = _elementwise.abs(xa), _elementwise.abs(ya)
    ref = nulp * _elementwise.spacing(_elementwise.where(ax > ay, ax, ay))
    if not bool(_utility.all(_elementwise.abs(xa - ya) <= ref)):
        if _data_type_functions.iscomplexobj(xa) or _data_type_functions.iscomplexobj(ya):
            msg = f"Arrays are not equal to {nulp} ULP"
        else:
            msg = f"Arrays are not equal to {nulp} ULP (max is {float(_statistical.max(nulp_diff(xa, ya))):g})"
        raise AssertionError(msg)
