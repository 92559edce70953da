"""NumPy's bit packing: ``packbits`` (the truth values of an integer or
boolean array, eight to a uint8) and ``unpackbits`` (back to one uint8
0 or 1 per bit).

Both are one call to the core's kernels (csrc/core/bit_packing.c), which
walk any strides along any axis.  ``bitorder`` 'big' puts an axis's first
element in a byte's most significant bit, 'little' in its least.
"""

from __future__ import annotations

from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._coerce import as_intp, as_operand, normalize_axis
from minarray._creation import empty
from minarray._elementwise import not_equal
from minarray._manipulation import permute_dims
from minarray._native import core

__all__ = ["packbits", "unpackbits"]


def _little(bitorder: Any) -> bool:
    """Whether ``bitorder`` is 'little' (else 'big'), with NumPy's errors."""
    if not isinstance(bitorder, str):
        raise TypeError(f"bitorder must be str, not {type(bitorder).__name__}")
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    return bitorder == "little"


def _along(x: NDArray, axis: int | None) -> tuple[NDArray, int]:
    """``x`` and the axis to work along: the flattened array's when ``axis``
    is None, and a 0-d array is one element along axis 0, as NumPy takes
    it."""
    if axis is None or x.ndim == 0:
        if x.ndim == 1:
            return x, 0
        if axis is not None:
            normalize_axis(axis, 1)
        return x.reshape((-1,)), 0
    return x, normalize_axis(axis, x.ndim)


def _result(x: NDArray, shape: list[int]) -> NDArray:
    """An empty uint8 array of ``shape`` laid out as NumPy lays the result
    out: in Fortran order when ``x`` is Fortran- but not C-contiguous, else
    in C order."""
    if x.ndim > 1 and core.is_contiguous(x._h, True) and not core.is_contiguous(x._h, False):
        return permute_dims(empty(tuple(shape[::-1]), dtype=_dt.uint8), tuple(range(x.ndim - 1, -1, -1)))
    return empty(tuple(shape), dtype=_dt.uint8)


def packbits(a: Any, /, axis: int | None = None, bitorder: str = "big") -> NDArray:
    """The elements of ``a`` (integers or bools; nonzero is a 1 bit) packed
    eight to a uint8 along ``axis`` (the flattened array when None), the
    last byte padded with zero bits."""
    x = as_operand(a, "packbits")
    if x.dtype.kind not in "iub":
        raise TypeError("Expected an input array of integer or boolean data type")
    little = _little(bitorder)
    x, ax = _along(x, axis)
    if x.dtype.itemsize != 1:
        # the kernel reads one byte an element, as NumPy's does: wider
        # integers become their truth first
        x = not_equal(x, 0)
    shape = list(x.shape)
    shape[ax] = -(-shape[ax] // 8)
    out = _result(x, shape)
    core.packbits(x._h, out._h, ax, little)
    return out


def unpackbits(a: Any, /, axis: int | None = None, count: int | None = None, bitorder: str = "big") -> NDArray:
    """The bits of the uint8 array ``a`` as uint8 zeros and ones, eight per
    byte along ``axis`` (the flattened array when None).  ``count`` keeps
    that many bits (padding with zeros past the end), a negative one drops
    that many from the end."""
    x = as_operand(a, "unpackbits")
    if x.dtype is not _dt.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    little = _little(bitorder)
    x, ax = _along(x, axis)
    total = x.shape[ax] * 8
    keep = total
    if count is not None:
        c = as_intp(count, "unpackbits: count")
        if c < 0 and -c > total:
            raise ValueError("-count larger than number of elements")
        keep = total + c if c < 0 else c
    shape = list(x.shape)
    shape[ax] = keep
    out = _result(x, shape)
    core.unpackbits(x._h, out._h, ax, little)
    return out
