"""NumPy's questions about arrays and dtypes asked as functions: ``shape``,
``ndim``, ``size`` (which accept anything :func:`minarray.asarray` reads,
nested lists included) and ``promote_types``."""

from __future__ import annotations

import math
from typing import Any

from minarray import dtypes as _dt
from minarray._args import as_ints
from minarray.creation import as_operand

__all__ = ["shape", "ndim", "size", "promote_types"]


def _shape_of(a: Any) -> tuple[int, ...]:
    s = getattr(a, "shape", None)
    if isinstance(s, tuple):
        return s
    return as_operand(a).shape


def shape(a: Any) -> tuple[int, ...]:
    """The shape of ``a`` (an array, or what asarray would make of it)."""
    return _shape_of(a)


def ndim(a: Any) -> int:
    """The number of dimensions of ``a``."""
    return len(_shape_of(a))


def size(a: Any, axis: int | tuple[int, ...] | None = None) -> int:
    """The number of elements of ``a``, or along ``axis`` (an int or a tuple
    of ints: the product of those lengths)."""
    s = _shape_of(a)
    if axis is None:
        return math.prod(s)
    from minarray.views import normalize_axis

    axes = as_ints(axis, "size: axis")
    return math.prod(s[normalize_axis(ax, len(s))] for ax in axes)


def promote_types(type1: Any, type2: Any) -> _dt.DType:
    """The smallest dtype both ``type1`` and ``type2`` cast to safely:
    NumPy 2's promotion table (the Array API's, extended to mixed kinds as
    NumPy does), symmetric and independent of values."""
    return _dt.promote(_dt.as_dtype(type1), _dt.as_dtype(type2))
