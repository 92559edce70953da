"""Zero-copy import through NumPy's array interface (version 3) and the
buffer protocol: no capsule, no NumPy import needed.

Plain NumPy arrays and ``__array_struct__`` go through the NumPy intake in
C (csrc/py/numpy_struct.c); this module reads the interface dict of the
others (subclasses, other producers) and ends in the same checks
(``core.wrap``), with the same wording for what minarray cannot view.
"""

from __future__ import annotations

import struct as _struct
import sys
from typing import Any, Final

from minarray import _dtypes as _dt
from minarray._array_object import NDArray, c_strides
from minarray._native import core, lib

__all__ = [
    "from_array_interface", "interface_view", "from_buffer", "buffer_dtype",
]


_NATIVE = "<" if sys.byteorder == "little" else ">"


_NATIVE_PREFIXES: Final = ("", "@", "=", _NATIVE)


# The buffer protocol's format letters, by kind: the dtype table's, and
# struct's letters of the other C integer widths (long long, ssize_t, char;
# lower case signed, upper case unsigned), whose size the buffer's itemsize
# gives (``l`` is 4 bytes on Windows, 8 elsewhere).
_KIND_OF_FORMAT: Final = {
    **{d.format: d.kind for d in _dt.ALL if d.format}, **dict.fromkeys("lqn", "i"), **dict.fromkeys("LQNc", "u"),
}


_BY_KIND_SIZE: Final = {(d.kind, d.itemsize): d for d in _dt.KERNEL if d is not _dt.bfloat16}


# The one-byte formats (plain bytes-like objects report them), for the
# asdlpack fast path.
BUFFER_FORMATS: Final = {f: _BY_KIND_SIZE[(k, 1)] for f, k in _KIND_OF_FORMAT.items()
                          if len(f) == 1 and _struct.calcsize(f) == 1}


def buffer_dtype(m: memoryview) -> _dt.DType:
    """The dtype of a buffer export; TypeError for formats minarray lacks
    (non-native byte order, structs, pointers, long double...)."""
    fmt = m.format
    prefix = fmt[0] if fmt and fmt[0] in "@=<>!" else ""
    if prefix not in _NATIVE_PREFIXES:
        raise TypeError(f"non-native byte order in buffer format {fmt!r} is not supported")
    kind = _KIND_OF_FORMAT.get(fmt[len(prefix):])
    found = _BY_KIND_SIZE.get((kind, m.itemsize)) if kind is not None else None
    if found is None:
        raise TypeError(f"unsupported buffer format {fmt!r} (itemsize {m.itemsize})")
    return found


def _dtype_of_typestr(typestr: str) -> _dt.DType:
    order, code = typestr[0], typestr[1:]
    if order not in ("|", "=", _NATIVE) and not (code.endswith("1") or code == "b1"):
        raise TypeError(
            f"non-native byte order in typestr {typestr!r} is not supported (from_numpy(..., copy=True) converts it)"
        )
    found = _dt._BY_TYPESTR.get(code)
    if found is None:
        _dt.as_dtype(typestr)  # words the refusal of a type minarray lacks ('<U3', '|O')
        raise TypeError(f"unsupported array-interface typestr {typestr!r}: minarray has no such dtype")
    return found


def _from_ml_dtypes(dtype: Any) -> bool:
    return str(getattr(getattr(dtype, "type", None), "__module__", "")).startswith("ml_dtypes")


def _alignment(dtype: _dt.DType) -> int:
    """The alignment an element's address needs: the C core's rule."""
    return int(lib.ma_type_alignment(_dt.ALL.index(dtype)))


def from_array_interface(obj: Any, iface: dict[str, Any] | None = None) -> NDArray:
    """Wrap ``obj``'s memory without copying.  Raises TypeError for dtypes
    minarray lacks and non-native byte order, and BufferError when the
    strides are not whole elements (element strides cannot describe them),
    the data is not aligned to its elements, or the memory the interface
    describes cannot be read at all (its span reaches beyond the address
    space)."""
    view = interface_view(obj, iface)
    if isinstance(view, str):
        raise BufferError(view)
    return view


def interface_view(obj: Any, iface: dict[str, Any] | None = None) -> NDArray | str:
    """``obj``'s memory as an array, or why it can only be copied: a
    sentence, when its strides are not whole elements or its data is not
    aligned to them (``asarray`` then copies).  What cannot be read at all,
    not even to copy it, raises BufferError."""
    if iface is None:
        iface = obj.__array_interface__
    if iface.get("version", 3) != 3:
        raise TypeError(f"array interface version {iface.get('version')} is not supported (need 3)")
    typestr = iface["typestr"]
    if hasattr(obj, "dtype") and (typestr[1] == "V" or _from_ml_dtypes(obj.dtype)):
        # ml_dtypes' types go by name: their typestrs ('<V2' for bfloat16,
        # '<f1' for float8_e5m2, '<W4' for complex32) do not say which
        dtype = _dt.as_dtype(obj.dtype)
    else:
        dtype = _dtype_of_typestr(typestr)
    if iface.get("mask") is not None:
        raise TypeError("masked arrays are not supported")
    data = iface.get("data")
    shape = tuple(iface["shape"])
    offset = iface.get("offset", 0) or 0
    strides = iface.get("strides")
    n = dtype.itemsize
    if strides is not None:
        if any(s % n for s in strides):
            return (
                f"strides {tuple(strides)} (bytes) are not multiples of the itemsize {n}: element strides "
                f"cannot describe them (copy=True makes a contiguous copy)"
            )
        el = tuple(s // n for s in strides)
    else:
        el = None
    if offset % n:
        return f"offset {offset} is not a multiple of the itemsize {n}"
    if data is None or not isinstance(data, tuple):
        # Version 3 lets `data` be None (or a buffer object): the memory is
        # then obj's (or that object's) buffer-protocol export.
        holder = obj if data is None else data
        h, _, _, readonly = core.wrap_buffer(holder, _dt.uint8.code, _dt.uint8.bits, False)
        ptr, owner = int(core.data_ptr(h)), _Both(holder, h)
    else:
        ptr, readonly = data
        owner = obj
    ptr += offset
    if ptr % _alignment(dtype):
        return f"data pointer {ptr:#x} is not aligned to its {n}-byte elements (ma.asarray copies it)"
    # core.wrap applies the checks of every door (the span, too: BufferError)
    h = core.wrap(owner, ptr, shape, el, dtype.code, dtype.bits, bool(readonly))
    return NDArray._new(h, shape, el if el is not None else c_strides(shape), obj)


class _Both:
    """Keeps an object and the handle of its buffer export alive together."""

    __slots__ = ("a", "b")

    def __init__(self, a: Any, b: Any) -> None:
        self.a = a
        self.b = b


def from_buffer(obj: Any, copy_ok: bool = False) -> NDArray:
    """Wrap a buffer-protocol object (bytes, bytearray, memoryview,
    array.array, mmap) without copying.  Data that is not aligned to its
    elements cannot be used in place: BufferError, or (``copy_ok``) a new
    array holding a copy, which owns its memory (``base`` None)."""
    with memoryview(obj) as m:
        dtype = buffer_dtype(m)
    h, shape, el, _readonly = core.wrap_buffer(obj, dtype.code, dtype.bits, copy_ok)
    copied = bool(core.buffer_info(h)[3])
    return NDArray._new(h, shape, el, None if copied else obj)
