"""Zero-copy import through NumPy's array interface (version 3) and the
buffer protocol: no capsule, no NumPy import needed."""

from __future__ import annotations

import sys
from typing import Any

from minarray import dtypes as _dt
from minarray._native import core
from minarray.ndarray import NDArray

__all__ = ["from_array_interface", "from_buffer"]

_NATIVE = "<" if sys.byteorder == "little" else ">"
# struct-module format characters of the buffer protocol
_FORMATS = {
    "?": _dt.bool, "b": _dt.int8, "B": _dt.uint8, "h": _dt.int16, "H": _dt.uint16,
    "i": _dt.int32, "I": _dt.uint32, "l": _dt.int64, "L": _dt.uint64, "q": _dt.int64,
    "Q": _dt.uint64, "e": _dt.float16, "f": _dt.float32, "d": _dt.float64,
    "Zf": _dt.complex64, "Zd": _dt.complex128, "c": _dt.uint8,
}


def _dtype_of_typestr(typestr: str) -> _dt.DType:
    order, code = typestr[0], typestr[1:]
    if order not in ("|", "=", _NATIVE) and not (code.endswith("1") or code == "b1"):
        raise TypeError(f"non-native byte order in typestr {typestr!r} is not supported")
    found = _dt._BY_TYPESTR.get(code)
    if found is None:
        raise TypeError(f"unsupported array-interface typestr {typestr!r}")
    return found


def from_array_interface(obj: Any, iface: dict[str, Any] | None = None) -> NDArray:
    """Wrap ``obj``'s memory without copying.  Raises TypeError for dtypes
    minarray lacks and non-native byte order, BufferError when the strides
    are not whole elements (element strides cannot describe them)."""
    if iface is None:
        iface = obj.__array_interface__
    if iface.get("version", 3) != 3:
        raise TypeError(f"array interface version {iface.get('version')} is not supported (need 3)")
    typestr = iface["typestr"]
    if typestr[1] == "V" and hasattr(obj, "dtype"):
        dtype = _dt.as_dtype(obj.dtype)  # e.g. ml_dtypes' bfloat16 ('<V2')
    else:
        dtype = _dtype_of_typestr(typestr)
    if iface.get("mask") is not None:
        raise TypeError("masked arrays are not supported")
    data = iface["data"]
    if data is None or not isinstance(data, tuple):
        raise TypeError("array interface without a (pointer, read-only) data tuple is not supported")
    ptr, readonly = data
    shape = tuple(iface["shape"])
    offset = iface.get("offset", 0) or 0
    strides = iface.get("strides")
    n = dtype.itemsize
    if strides is not None:
        if any(s % n for s in strides):
            raise BufferError(f"strides {tuple(strides)} are not multiples of the itemsize {n}")
        el = tuple(s // n for s in strides)
    else:
        el = None
    if offset % n:
        raise BufferError(f"offset {offset} is not a multiple of the itemsize {n}")
    h = core.wrap(obj, ptr + offset, shape, el, dtype.code, dtype.bits, bool(readonly))
    from minarray.ndarray import c_strides

    return NDArray._new(h, shape, el if el is not None else c_strides(shape), dtype, obj)


def from_buffer(obj: Any) -> NDArray:
    """Wrap a buffer-protocol object (bytes, bytearray, memoryview,
    array.array, mmap) without copying."""
    m = memoryview(obj)
    fmt = m.format.lstrip("@=<")
    dtype = _FORMATS.get(fmt)
    if dtype is None or dtype.itemsize != m.itemsize:
        raise TypeError(f"unsupported buffer format {m.format!r}")
    h, shape, el, _readonly = core.wrap_buffer(obj, dtype.code, dtype.bits)
    return NDArray._new(h, shape, el, dtype, obj)
