"""Searching functions (Array API "Searching Functions"): ``argmax``,
``argmin``, ``count_nonzero``, ``nonzero``, ``searchsorted`` and
``where``; and beside them NumPy's ``argwhere`` and ``flatnonzero``.

``where`` is the elementwise engine's ternary operation and is defined
with it (minarray/_elementwise.py); this chapter's ``where`` is the one
the namespace exports, which gives 0-d operands a 0-d array as NumPy's
function does (the engine's own answer, for the library's callers, is a
scalar, as a ufunc's is).
``nonzero`` shares its C kernel with boolean indexing, ``count_nonzero``
is a reduction over the shared driver (minarray/_reduction.py), and
``searchsorted`` is the sorting chapter's binary search.
"""

from __future__ import annotations

from typing import Any, overload

from minarray import _dtypes as _dt
from minarray import _elementwise, _subclass
from minarray._array_object import NDArray, c_strides
from minarray._coerce import as_operand, asarray, normalize_axis, write_out
from minarray._elementwise import equal, imag, isnan, logical_and, logical_not, real
from minarray._joining import stack
from minarray._native import core
from minarray._reduction import _ANY, _COUNT, _MAX, _MIN, Axis, _axes, _finish, _reduce_axes
from minarray._scalar import Scalar
from minarray._sorting import _searchsorted

__all__ = [
    "argmax", "argmin", "count_nonzero", "searchsorted", "argwhere", "flatnonzero", "nonzero", "where",
]


@overload
def where(condition: Any, /) -> tuple[NDArray, ...]: ...


@overload
def where(condition: Any, x1: Any, x2: Any, /, *, out: NDArray | None = None) -> NDArray: ...


def where(condition: Any, x1: Any = _elementwise._NOVALUE, x2: Any = _elementwise._NOVALUE, /, *,
          out: NDArray | None = None) -> Any:
    """Elements of ``x1`` where ``condition`` is true, else of ``x2`` (all
    three broadcast; the values promote like a binary operation).  With
    ``condition`` alone, NumPy's ``where(condition)``: ``nonzero(condition)``.
    NumPy's ``where`` is a function, not a ufunc: 0-d operands give a 0-d
    array (``where(True, 1, 2)`` is ``array(1)``), not a scalar."""
    r = _elementwise.where(condition, x1, x2, out=out)
    return asarray(r) if type(r) is Scalar else r


def complex_arg_last(op: int, v: NDArray, out: NDArray) -> None:
    """``out[...]`` = the index of the first minimum (op 0) or maximum (op
    1) of complex ``v`` along its last axis, in NumPy's order of complex
    numbers (by real part, then imaginary part), where as in NumPy the
    first value with a NaN part wins over any number.  Real kernels only:
    the extreme real part among the numbers, the extreme imaginary part
    among those that have it, and the first element that has both (or the
    first NaN of a row that holds one)."""
    last = (v.ndim - 1,)
    red = _MAX if op else _MIN
    fill = float("-inf") if op else float("inf")
    nan = isnan(v)
    re = _elementwise.where(nan, fill, real(v))
    candidate = logical_and(equal(re, _reduce_axes(red, re, last)[..., None]), logical_not(nan))
    im = _elementwise.where(candidate, imag(v), fill)
    pick = logical_and(candidate, equal(im, _reduce_axes(red, im, last)[..., None]))
    hit = _elementwise.where(_reduce_axes(_ANY, nan, last)[..., None], nan, pick)
    core.argreduce(1, hit._h, out._h)  # the first True


def _argreduce(op: int, v: NDArray, out: NDArray) -> None:
    if v.dtype.kind == "c":
        complex_arg_last(op, v, out)
    else:
        core.argreduce(op, v._h, out._h)


def _arg(op: int, name: str, x: Any, axis: int | None, keepdims: bool) -> NDArray:
    x = as_operand(x)._widened()
    if axis is None:
        # The index into the flattened (C order) array.
        flat = x.reshape((x.size,))
        if x.size == 0:
            raise ValueError(f"attempt to get {name} of an empty array (shape {x.shape})")
        out = NDArray._empty((), _dt.int64)
        _argreduce(op, flat, out)
        if keepdims:
            shp = (1,) * x.ndim
            return out._view(0, shp, c_strides(shp))
        return core.scalar_result(out)  # NumPy's scalar
    ax = normalize_axis(axis, x.ndim)
    if x.shape[ax] == 0:
        raise ValueError(f"attempt to get {name} of an empty sequence (axis {ax} of shape {x.shape} has length 0)")
    nd = x.ndim
    order = (*tuple(d for d in range(nd) if d != ax), ax)
    v = x._view(0, tuple(x.shape[d] for d in order), tuple(x._strides[d] for d in order))
    kshape = v.shape[:-1]
    out = NDArray._empty(kshape, _dt.int64)
    _argreduce(op, v, out)
    if keepdims:
        shp = (*x.shape[:ax], 1, *x.shape[ax + 1:])
        return out._view(0, shp, c_strides(shp))
    return core.scalar_result(out)  # (a 1-d x's along its axis is NumPy's scalar)


def argmin(x: NDArray, /, axis: int | None = None, out: NDArray | None = None, *,
           keepdims: bool = False) -> NDArray:
    """Index of the first minimum along ``axis`` (of the flattened array when
    None), as int64.  A NaN counts as the minimum (NumPy)."""
    if type(x) is not NDArray and _subclass.instance(x):
        return _subclass.through_method(argmin, x, axis, out=out, keepdims=keepdims)
    r = _arg(0, "argmin", x, axis, keepdims)
    return r if out is None else write_out(out, r, "argmin")


def argmax(x: NDArray, /, axis: int | None = None, out: NDArray | None = None, *,
           keepdims: bool = False) -> NDArray:
    """Index of the first maximum along ``axis`` (of the flattened array when
    None), as int64.  A NaN counts as the maximum (NumPy)."""
    if type(x) is not NDArray and _subclass.instance(x):
        return _subclass.through_method(argmax, x, axis, out=out, keepdims=keepdims)
    r = _arg(1, "argmax", x, axis, keepdims)
    return r if out is None else write_out(out, r, "argmax")


def searchsorted(x1: NDArray, x2: NDArray, /, side: str = "left", sorter: NDArray | None = None) -> NDArray:
    """Indices where ``x2``'s elements would be inserted into the sorted 1-d
    ``x1`` to keep it sorted (``side`` "left": before equal elements,
    "right": after)."""
    return core.scalar_result(_searchsorted(x1, x2, side, sorter))  # (a scalar x2's is NumPy's scalar)


def argwhere(a: Any) -> NDArray:
    """The indices of the non-zero elements, one row per element: shape
    (N, ndim), int64 (NumPy's ``argwhere``: :func:`minarray.nonzero`
    stacked as columns)."""
    x = as_operand(a, "argwhere")
    if x.ndim == 0:  # NumPy: as 1-d, then no columns
        count = 1 if bool(x) else 0
        return NDArray._empty((count, 0), _dt.int64)
    return stack(list(nonzero(x)), axis=1)


def flatnonzero(a: Any) -> NDArray:
    """The indices of the non-zero elements of the flattened array."""
    return nonzero(as_operand(a, "flatnonzero").reshape((-1,)))[0]


def nonzero(x: NDArray, /) -> tuple[NDArray, ...]:
    """Indices of the non-zero elements, one int64 array per dimension."""
    x = as_operand(x, "nonzero")
    if x.ndim == 0:
        raise ValueError("nonzero is not defined for 0-d arrays; use x[None] or atleast_1d")
    count, h = core.nonzero(x._h)
    coords = NDArray._new(h, (count, x.ndim), c_strides((count, x.ndim)), None)
    return tuple(coords[:, j] for j in range(x.ndim))




def count_nonzero(x: NDArray, /, axis: Axis = None, *, keepdims: bool = False) -> NDArray:
    """Number of non-zero elements over ``axis``, as int64 (of a
    subclass's instance: its class along an axis, a plain count of all of
    it, as NumPy's)."""
    x = as_operand(x)
    if axis is None and type(x) is not NDArray:
        x = asarray(x)
    axes = _axes(axis, x.ndim)
    return _finish(_reduce_axes(_COUNT, x, axes), _dt.int64, x, axes, keepdims)
