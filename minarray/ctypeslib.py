"""NumPy's ``numpy.ctypeslib`` for minarray's arrays: calling C functions
through ctypes with arrays as arguments.

- ``ndpointer(dtype, ndim, shape, flags)`` makes an ``argtypes`` entry that
  checks each array passed for it (TypeError in NumPy's words) and hands
  the C function its address; with a dtype and a shape it also works as a
  ``restype``, reading the returned pointer as such an array.
- ``as_array(obj, shape)`` views a ctypes array, or the memory a ctypes
  pointer points to, as an array without copying (the memory stays its
  owner's to keep alive, as in NumPy); ``as_ctypes(x)`` the other way, a
  ctypes array over an array's memory, which keeps the array alive.
- ``as_ctypes_type(dtype)``, ``c_intp`` and ``load_library`` as NumPy's.

A dtype minarray holds that ctypes has no type for (float16, bfloat16,
complex, the storage types) raises NotImplementedError, as NumPy's does
for the types ctypes lacks.
"""

from __future__ import annotations

import ctypes
import os
import sys
import sysconfig
from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray, c_strides
from minarray._coerce import asarray

__all__ = ["load_library", "ndpointer", "c_intp", "as_ctypes", "as_array", "as_ctypes_type"]

# NumPy's c_intp: the ctypes integer of a pointer's size
c_intp = ctypes.c_ssize_t

# NumPy's flag numbers (numpy._core.multiarray._flagdict), for flags given
# as an int, and the names (and one-letter forms) it accepts
_FLAG_BITS = {"C_CONTIGUOUS": 1, "F_CONTIGUOUS": 2, "OWNDATA": 4, "ALIGNED": 256, "WRITEABLE": 1024,
              "WRITEBACKIFCOPY": 8192}
_FLAG_ALIASES = {"C": "C_CONTIGUOUS", "CONTIGUOUS": "C_CONTIGUOUS", "F": "F_CONTIGUOUS",
                 "FORTRAN": "F_CONTIGUOUS", "O": "OWNDATA", "A": "ALIGNED", "W": "WRITEABLE",
                 "X": "WRITEBACKIFCOPY"}


def load_library(libname: str | os.PathLike[str], loader_path: str | os.PathLike[str]) -> ctypes.CDLL:
    """Load the shared library ``libname`` from the directory of
    ``loader_path`` (a file or a directory), trying the platform's
    extensions when the name has none; OSError when no such file exists."""
    name, where = os.fsdecode(libname), os.path.abspath(os.fsdecode(loader_path))
    if os.path.splitext(name)[1]:
        candidates = [name]
    else:
        base = ".dylib" if sys.platform.startswith("darwin") else ".dll" if sys.platform.startswith("win") else ".so"
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        candidates = ([name + suffix] if suffix and suffix != base else []) + [name + base]
    folder = where if os.path.isdir(where) else os.path.dirname(where)
    for candidate in candidates:
        path = os.path.join(folder, candidate)
        if os.path.exists(path):
            return ctypes.cdll[path]
    raise OSError("no file with expected extension")


def _ctypes_scalars() -> dict[_dt.DType, Any]:
    """The ctypes type of each dtype ctypes has one for (the later of two
    ctypes names of one size wins, as in NumPy: c_longlong for int64)."""
    kinds: list[tuple[Any, str]] = [
        (ctypes.c_byte, "i"), (ctypes.c_short, "i"), (ctypes.c_int, "i"), (ctypes.c_long, "i"),
        (ctypes.c_longlong, "i"), (ctypes.c_ubyte, "u"), (ctypes.c_ushort, "u"), (ctypes.c_uint, "u"),
        (ctypes.c_ulong, "u"), (ctypes.c_ulonglong, "u"), (ctypes.c_float, "f"), (ctypes.c_double, "f"),
        (ctypes.c_bool, "b"),
    ]
    prefix = {"i": "int", "u": "uint", "f": "float"}
    found: dict[_dt.DType, Any] = {}
    for ctype, kind in kinds:
        name = "bool" if kind == "b" else f"{prefix[kind]}{8 * ctypes.sizeof(ctype)}"
        found[_dt.as_dtype(name)] = ctype
    return found


_SCALARS = _ctypes_scalars()


def as_ctypes_type(dtype: Any) -> Any:
    """The ctypes type of ``dtype`` (``c_double`` for float64...)."""
    dt = _dt.as_dtype(dtype)
    if dt not in _SCALARS:
        raise NotImplementedError(f"Converting {dt!r} to a ctypes type")
    return _SCALARS[dt]


def _ctypes_array_type(element: Any, shape: tuple[int, ...]) -> Any:
    for n in reversed(shape):
        element = n * element
    return element


def as_array(obj: Any, shape: Any = None) -> NDArray:
    """An array over the memory of a ctypes array, or of the ``shape``
    elements a ctypes pointer points to, without a copy."""
    if isinstance(obj, ctypes._Pointer):
        if shape is None:
            raise TypeError("as_array() requires a shape argument when called on a pointer")
        dims = tuple(shape) if isinstance(shape, (tuple, list)) else (int(shape),)
        obj = ctypes.cast(obj, ctypes.POINTER(_ctypes_array_type(obj._type_, dims))).contents
    return asarray(obj)


def as_ctypes(obj: Any) -> Any:
    """A ctypes array over a C-contiguous, writeable array's memory; it
    keeps the array alive."""
    a = obj if isinstance(obj, NDArray) else asarray(obj)
    if a._strides != c_strides(a._shape):
        raise TypeError("strided arrays not supported")
    if not a.flags.writeable:
        raise TypeError("readonly arrays unsupported")
    result = _ctypes_array_type(as_ctypes_type(a.dtype), a.shape).from_address(a.ctypes.data)
    result.__keep = a
    return result


def _flags_number(flags: Any) -> int:
    if isinstance(flags, int):
        return flags
    if hasattr(flags, "c_contiguous") and hasattr(flags, "writeable"):  # an array's flags
        return sum(bit for name, bit in _FLAG_BITS.items() if flags[name])
    names = flags.split(",") if isinstance(flags, str) else flags
    try:
        wanted = [str(x).strip().upper() for x in names]
    except TypeError as e:
        raise TypeError("invalid flags specification") from e
    number = 0
    for name in wanted:
        name = _FLAG_ALIASES.get(name, name)
        if name not in _FLAG_BITS:
            raise KeyError(name)
        number |= _FLAG_BITS[name]
    return number


def _flag_names(number: int) -> list[str]:
    return [name for name, bit in _FLAG_BITS.items() if number & bit]


class _ndptr(ctypes.c_void_p):
    """The base of ndpointer's classes: ``from_param`` checks an argument."""

    _dtype_: _dt.DType | None = None
    _ndim_: int | None = None
    _shape_: tuple[int, ...] | None = None
    _flags_: int | None = None

    @classmethod
    def from_param(cls, obj: Any) -> Any:
        if not isinstance(obj, NDArray):
            raise TypeError("argument must be an ndarray")
        if cls._dtype_ is not None and obj.dtype != cls._dtype_:
            raise TypeError(f"array must have data type {cls._dtype_}")
        if cls._ndim_ is not None and obj.ndim != cls._ndim_:
            raise TypeError(f"array must have {cls._ndim_:d} dimension(s)")
        if cls._shape_ is not None and obj.shape != cls._shape_:
            raise TypeError(f"array must have shape {cls._shape_!s}")
        if cls._flags_ is not None and (_flags_number(obj.flags) & cls._flags_) != cls._flags_:
            raise TypeError(f"array must have flags {_flag_names(cls._flags_)}")
        return obj.ctypes


class _concrete_ndptr(_ndptr):
    """An ndpointer with a dtype and a shape: as a ``restype``, the
    returned pointer reads as an array of that shape (a view of the
    memory, which stays the C side's to keep alive)."""

    def _check_retval_(self) -> NDArray:
        return self.contents

    @property
    def contents(self) -> NDArray:
        assert self._dtype_ is not None and self._shape_ is not None
        count = 1
        for n in self._shape_:
            count *= n
        raw = ctypes.cast(self, ctypes.POINTER(ctypes.c_char * (count * self._dtype_.itemsize))).contents
        flat: NDArray = asarray(memoryview(raw).cast("B")).view(self._dtype_)
        return flat.reshape(self._shape_)


_ndptr_types: dict[tuple[Any, ...], type] = {}


def ndpointer(dtype: Any = None, ndim: int | None = None, shape: Any = None, flags: Any = None) -> type:
    """An ``argtypes`` class that accepts only arrays of this dtype, number
    of dimensions, shape and flags (each None: any), and passes a C
    function the array's address."""
    dt = _dt.as_dtype(dtype) if dtype is not None else None
    number = _flags_number(flags) if flags is not None else None
    dims: tuple[int, ...] | None = None
    if shape is not None:
        try:
            dims = tuple(shape)
        except TypeError:
            dims = (shape,)
    key = (dt, ndim, dims, number)
    if key in _ndptr_types:
        return _ndptr_types[key]
    name = "any" if dt is None else str(dt)
    if ndim is not None:
        name += f"_{ndim:d}d"
    if dims is not None:
        name += "_" + "x".join(str(n) for n in dims)
    if number is not None:
        name += "_" + "_".join(_flag_names(number))
    base = _concrete_ndptr if dt is not None and dims is not None else _ndptr
    made = type(f"ndpointer_{name}", (base,), {"_dtype_": dt, "_shape_": dims, "_ndim_": ndim, "_flags_": number})
    _ndptr_types[key] = made
    return made
