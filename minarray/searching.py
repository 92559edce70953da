"""Searching (Array API "Searching Functions"): argmax, argmin,
count_nonzero and searchsorted.  ``where`` is elementwise and lives in
minarray/elementwise.py; ``nonzero`` in minarray/indexing.py (its C kernel
is shared with boolean indexing); count_nonzero is a reduction and lives
with them in minarray/reductions.py."""

from __future__ import annotations

from typing import Any

from minarray import dtypes as _dt
from minarray._native import core
from minarray.creation import as_operand
from minarray.ndarray import NDArray, c_strides
from minarray.reductions import count_nonzero
from minarray.views import normalize_axis

__all__ = [
    "argmax", "argmin", "count_nonzero", "searchsorted",
    # NumPy's searching routines
    "argwhere", "flatnonzero",
]


def _arg(op: int, name: str, x: Any, axis: int | None, keepdims: bool) -> NDArray:
    x = as_operand(x)._widened()
    if x.dtype.kind == "c":
        raise TypeError(f"{name} is not defined for complex dtypes ({x.dtype}): complex numbers are unordered")
    if axis is None:
        # The index into the flattened (C order) array.
        flat = x.reshape((x.size,))
        if x.size == 0:
            raise ValueError(f"attempt to get {name} of an empty array (shape {x.shape})")
        out = NDArray._empty((), _dt.int64)
        core.argreduce(op, flat._h, out._h)
        if keepdims:
            shp = (1,) * x.ndim
            return out._view(0, shp, c_strides(shp))
        return out
    ax = normalize_axis(axis, x.ndim)
    if x.shape[ax] == 0:
        raise ValueError(f"attempt to get {name} of an empty sequence (axis {ax} of shape {x.shape} has length 0)")
    nd = x.ndim
    order = (*tuple(d for d in range(nd) if d != ax), ax)
    v = x._view(0, tuple(x.shape[d] for d in order), tuple(x._strides[d] for d in order))
    kshape = v.shape[:-1]
    out = NDArray._empty(kshape, _dt.int64)
    core.argreduce(op, v._h, out._h)
    if keepdims:
        shp = (*x.shape[:ax], 1, *x.shape[ax + 1:])
        return out._view(0, shp, c_strides(shp))
    return out


def argmin(x: NDArray, /, *, axis: int | None = None, keepdims: bool = False) -> NDArray:
    """Index of the first minimum along ``axis`` (of the flattened array when
    None), as int64.  A NaN counts as the minimum (NumPy)."""
    return _arg(0, "argmin", x, axis, keepdims)


def argmax(x: NDArray, /, *, axis: int | None = None, keepdims: bool = False) -> NDArray:
    """Index of the first maximum along ``axis`` (of the flattened array when
    None), as int64.  A NaN counts as the maximum (NumPy)."""
    return _arg(1, "argmax", x, axis, keepdims)


def searchsorted(x1: NDArray, x2: NDArray, /, *, side: str = "left", sorter: NDArray | None = None) -> NDArray:
    """Indices where ``x2``'s elements would be inserted into the sorted 1-d
    ``x1`` to keep it sorted (``side`` "left": before equal elements,
    "right": after)."""
    from minarray.sorting import _searchsorted

    return _searchsorted(x1, x2, side, sorter)


def argwhere(a: Any) -> NDArray:
    """The indices of the non-zero elements, one row per element: shape
    (N, ndim), int64 (NumPy's ``argwhere``: :func:`minarray.nonzero`
    stacked as columns)."""
    from minarray.indexing import nonzero
    from minarray.manipulation import stack

    x = as_operand(a, "argwhere")
    if x.ndim == 0:  # NumPy: as 1-d, then no columns
        count = 1 if bool(x) else 0
        return NDArray._empty((count, 0), _dt.int64)
    return stack(list(nonzero(x)), axis=1)


def flatnonzero(a: Any) -> NDArray:
    """The indices of the non-zero elements of the flattened array."""
    from minarray.indexing import nonzero

    return nonzero(as_operand(a, "flatnonzero").reshape((-1,)))[0]
