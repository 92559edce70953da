"""Inspection (Array API "Inspection"): ``__array_namespace_info__``; and
beside it NumPy's questions about arrays asked as functions: ``shape``,
``ndim`` and ``size`` (which accept anything :func:`minarray.asarray`
reads, nested lists included).
"""

from __future__ import annotations

import math
from typing import Any

from minarray import _dtypes as _dt
from minarray._coerce import as_ints, as_operand, normalize_axis
from minarray._dtypes import DType

__all__ = [
    "__array_namespace_info__", "shape", "ndim", "size",
]


# The most dimensions an array may have (MA_MAXDIMS in csrc/core/array.h).
_MAX_DIMENSIONS = 64


def _device(device: Any) -> None:
    if device not in (None, "cpu"):
        raise ValueError(f"unsupported device {device!r}: minarray arrays live on 'cpu'")


class Info:
    """What ``__array_namespace_info__()`` returns: the capabilities, devices
    and data types of this namespace."""

    __slots__ = ()

    def capabilities(self) -> dict[str, bool | int]:
        """``boolean indexing`` and ``data-dependent shapes`` are supported
        (``x[mask]``, ``nonzero``, ``unique_*``); ``max dimensions`` is the
        C core's limit."""
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": _MAX_DIMENSIONS}

    def default_device(self) -> str:
        return "cpu"

    def devices(self) -> tuple[str, ...]:
        """A tuple (Array API 2025.12; a list before)."""
        return ("cpu",)

    def default_dtypes(self, *, device: Any = None) -> dict[str, DType]:
        _device(device)
        return {
            "real floating": _dt.default_float,
            "complex floating": _dt.default_complex,
            "integral": _dt.default_int,
            "indexing": _dt.int64,
        }

    def dtypes(self, *, device: Any = None, kind: str | tuple[str | DType, ...] | DType | None = None
               ) -> dict[str, DType]:
        """The supported Array API dtypes by name, optionally only those of
        ``kind`` (as in :func:`isdtype`).  minarray's float16 and bfloat16
        are not among them: the standard defines neither, and this
        function lists its data types only (as NumPy's does)."""
        _device(device)
        return {d.name: d for d in _dt.KERNEL if d not in _EXTRA and (kind is None or _dt.isdtype(d, kind))}

    def __repr__(self) -> str:
        return "minarray.__array_namespace_info__()"


_EXTRA = (_dt.float16, _dt.bfloat16)  # dtypes beyond the standard's


_INFO = Info()


def __array_namespace_info__() -> Info:
    """The Array API inspection object of the ``minarray`` namespace."""
    return _INFO


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
    axes = as_ints(axis, "size: axis")
    return math.prod(s[normalize_axis(ax, len(s))] for ax in axes)
