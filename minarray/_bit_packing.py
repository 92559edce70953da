"""NumPy's bit packing: ``packbits`` (the truth values of an integer or
boolean array, eight to a uint8) and ``unpackbits`` (back to one uint8
0 or 1 per bit).

Both are whole-array operations, never a loop over elements.  Packing
lays the axis last as one 0/1 byte per element and reads each eight as a
uint64 whose product with a constant gathers their bits into its top byte
(_GATHER); unpacking shifts each byte by the eight positions and masks.  ``bitorder`` 'big' puts an axis's first
element in a byte's most significant bit, 'little' in its least.
"""

from __future__ import annotations

from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._coerce import as_intp, as_operand, asarray, normalize_axis
from minarray._creation import zeros
from minarray._elementwise import bitwise_and, bitwise_right_shift, multiply, not_equal
from minarray._manipulation import permute_dims

__all__ = ["packbits", "unpackbits"]


def _shifts(bitorder: Any) -> NDArray:
    """The shift of each of a byte's eight bits, first element first, as a (8, 1) uint8 column."""
    if not isinstance(bitorder, str):
        raise TypeError(f"bitorder must be str, not {type(bitorder).__name__}")
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    order = [7, 6, 5, 4, 3, 2, 1, 0] if bitorder == "big" else [0, 1, 2, 3, 4, 5, 6, 7]
    return asarray(order, dtype=_dt.uint8).reshape((8, 1))


def _around(x: NDArray, axis: int | None) -> tuple[NDArray, tuple[int, ...], tuple[int, ...]]:
    """``x`` as (before, axis, after) (flattened when ``axis`` is None; a
    0-d array is one element along axis 0, as NumPy takes it), and the
    shapes before and after the axis."""
    if axis is None or x.ndim == 0:
        if axis is not None:
            normalize_axis(axis, 1)
        return x.reshape((1, -1, 1)), (), ()
    ax = normalize_axis(axis, x.ndim)
    before, after = x.shape[:ax], x.shape[ax + 1:]
    return x.reshape((-1 if x.size else _prod(before), x.shape[ax], _prod(after))), before, after


def _prod(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


# Eight 0/1 bytes read as one little-endian uint64 (minarray's hosts,
# x86-64 and arm64, are little-endian), times this constant, carry each
# byte's bit to its place in the top byte, with no carries between them:
# the eight shifts and the sum in one multiply.  Per bit order, the
# constant that puts the first byte's bit in the most (big) or least
# (little) significant place.
_GATHER = {"big": 0x8040201008040201, "little": 0x0102040810204080}


def packbits(a: Any, /, axis: int | None = None, bitorder: str = "big") -> NDArray:
    """The elements of ``a`` (integers or bools; nonzero is a 1 bit) packed
    eight to a uint8 along ``axis`` (the flattened array when None), the
    last byte padded with zero bits."""
    x = as_operand(a, "packbits")
    if x.dtype.kind not in "iub":
        raise TypeError("Expected an input array of integer or boolean data type")
    _shifts(bitorder)  # checks bitorder
    x3, before, after = _around(x, axis)
    pre, n, post = x3.shape
    nbytes = -(-n // 8)
    shape = (*before, nbytes, *after) if axis is not None and x.ndim else (nbytes,)
    if pre * post * nbytes == 0:
        return zeros(shape, dtype=_dt.uint8)
    # the axis last and padded to whole bytes, one 0/1 byte per element
    bits = zeros((pre, post, nbytes * 8), dtype=_dt.uint8)
    bits[:, :, :n] = permute_dims(not_equal(x3, 0), (0, 2, 1))
    words = bits.view(_dt.uint64)  # (pre, post, nbytes): eight bits a word
    packed = bitwise_right_shift(multiply(words, _GATHER[bitorder]), 56).astype(_dt.uint8)
    return permute_dims(packed, (0, 2, 1)).reshape(shape)


def unpackbits(a: Any, /, axis: int | None = None, count: int | None = None, bitorder: str = "big") -> NDArray:
    """The bits of the uint8 array ``a`` as uint8 zeros and ones, eight per
    byte along ``axis`` (the flattened array when None).  ``count`` keeps
    that many bits (padding with zeros past the end), a negative one drops
    that many from the end."""
    x = as_operand(a, "unpackbits")
    if x.dtype is not _dt.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    shifts = _shifts(bitorder)
    x3, before, after = _around(x, axis)
    pre, n, post = x3.shape
    total = n * 8
    keep = total
    if count is not None:
        c = as_intp(count, "unpackbits: count")
        if c < 0 and -c > total:
            raise ValueError("-count larger than number of elements")
        keep = total + c if c < 0 else c
    bits = bitwise_and(bitwise_right_shift(x3.reshape((pre, n, 1, post)), shifts), 1).reshape((pre, total, post))
    if keep != total:
        out = zeros((pre, keep, post), dtype=_dt.uint8)
        m = min(keep, total)
        out[:, :m, :] = bits[:, :m, :]
        bits = out
    return bits.reshape((*before, keep, *after) if axis is not None and x.ndim else (keep,))
