"""``ma.lib.stride_tricks``: views with the shape and strides the caller
chooses (NumPy's ``as_strided``) and the sliding windows built on them
(``sliding_window_view``).  Both share memory with their array: no element
is copied or read.

Unlike NumPy's ``as_strided``, which trusts its caller, a view that would
reach outside the array's buffer is refused (ValueError): a wrong stride
must not read or write memory the array does not own.  Strides must be
whole elements, as every minarray array's are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from minarray._array_object import NDArray
from minarray._coerce import as_ints, as_operand, normalize_axis
from minarray._native import core

__all__ = ["as_strided", "sliding_window_view"]


def _span(shape: tuple[int, ...], strides: tuple[int, ...]) -> tuple[int, int]:
    """The lowest and highest element offsets a view of this shape and
    these (element) strides reaches from its first element."""
    low = sum(s * (n - 1) for n, s in zip(shape, strides, strict=True) if s < 0)
    high = sum(s * (n - 1) for n, s in zip(shape, strides, strict=True) if s > 0)
    return low, high


def as_strided(x: Any, shape: Sequence[int] | None = None, strides: Sequence[int] | None = None,
               subok: bool = False, writeable: bool = True) -> NDArray:
    """A view of ``x``'s memory with the given ``shape`` and ``strides``
    (in bytes, as NumPy's; each one ``x``'s when not given), starting at
    ``x``'s first element.  It is writeable when ``writeable`` and ``x``
    is; several of its elements may be one element of memory (a stride of
    0), so writing to it is rarely what is wanted (NumPy's advice:
    ``writeable=False``)."""
    a = as_operand(x, "as_strided")
    new_shape = a.shape if shape is None else as_ints(shape, "as_strided: shape")
    if any(n < 0 for n in new_shape):
        raise ValueError("negative dimensions are not allowed")
    itemsize = a.dtype.itemsize
    if strides is None:
        byte_strides = a.strides
    else:
        byte_strides = as_ints(strides, "as_strided: strides")
    if len(byte_strides) != len(new_shape):
        raise ValueError(f"mismatch in length of strides and shape ({len(byte_strides)} strides, "
                         f"{len(new_shape)} dimensions)")
    if any(s % itemsize for s in byte_strides):
        raise ValueError(f"strides {tuple(byte_strides)} are not multiples of the element size ({itemsize} bytes): "
                         "minarray's views step by whole elements")
    elem = tuple(s // itemsize for s in byte_strides)
    if 0 not in new_shape:  # an empty view reaches nothing
        _, start, nbytes, _ = core.buffer_info(a._h)
        first = (core.data_ptr(a._h) - start) // itemsize
        low, high = _span(new_shape, elem)
        if first + low < 0 or (first + high + 1) * itemsize > nbytes:
            raise ValueError(f"as_strided: shape {tuple(new_shape)} with strides {tuple(byte_strides)} reaches "
                             "outside the array's memory")
    return a._view(0, tuple(new_shape), elem, readonly=not (writeable and a.flags.writeable))


def sliding_window_view(x: Any, window_shape: int | Sequence[int], axis: int | Sequence[int] | None = None, *,
                        subok: bool = False, writeable: bool = False) -> NDArray:
    """Every window of ``window_shape`` over ``x`` (along ``axis``; every
    axis when None), as one view: the axes of the window positions, then
    the window's own.  Read-only unless ``writeable`` (NumPy's default:
    the windows overlap, so one write would change several of them)."""
    a = as_operand(x, "sliding_window_view")
    window = as_ints(window_shape, "sliding_window_view: window_shape")
    if any(w < 0 for w in window):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        axes = tuple(range(a.ndim))
        if len(window) != len(axes):
            raise ValueError(f"Since axis is `None`, must provide window_shape for all dimensions of `x`; got "
                             f"{len(window)} window_shape elements and `x.ndim` is {a.ndim}.")
    else:
        axes = tuple(normalize_axis(ax, a.ndim) for ax in as_ints(axis, "sliding_window_view: axis"))
        if len(window) != len(axes):
            raise ValueError(f"Must provide matching length window_shape and axis; got {len(window)} "
                             f"window_shape elements and {len(axes)} axes elements.")
    positions = list(a.shape)
    for ax, w in zip(axes, window, strict=True):  # an axis may be windowed twice (NumPy allows it)
        if positions[ax] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        positions[ax] -= w - 1
    shape = (*positions, *window)
    strides = (*a.strides, *(a.strides[ax] for ax in axes))
    return as_strided(a, shape, strides, writeable=writeable)
