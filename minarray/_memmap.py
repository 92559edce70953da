"""``memmap``: an array over a file's bytes, NumPy's ``np.memmap``.

The file is mapped by the C core (``core.map_file``, the mapping
``load(mmap_mode=...)`` uses too): the array's memory is the page cache's,
so it costs nothing to open whatever the file's size, and with mode
``"r+"`` or ``"w+"`` a write is a write to the file.  The mapping lives as
long as the last array over it (views, exports) and is unmapped then.

It follows NumPy's class: views of a memmap (slices, transposes,
reshapes) are memmaps of the same file; what does not share its memory (a
copy made by fancy indexing, the result of arithmetic or a reduction) is
a plain array, or a scalar when 0-d.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._coerce import as_int
from minarray._io import contiguous_strides
from minarray._native import core
from minarray._subclass import retype

__all__ = ["memmap"]

# NumPy's modes and their long names; the C core's mapping of each: read
# only, shared (writes reach the file), private (copy on write)
_MODES = {"r": "r", "c": "c", "r+": "r+", "w+": "w+", "readonly": "r", "copyonwrite": "c", "readwrite": "r+",
          "write": "w+"}
_MAP = {"r": 0, "r+": 1, "w+": 1, "c": 2}


class memmap(NDArray):
    """An array over the bytes of a file from ``offset`` on (NumPy's
    ``memmap``): ``memmap(filename, dtype=uint8, mode='r+', offset=0,
    shape=None, order='C')``.

    ``mode``: ``"r"`` read only; ``"r+"`` read and write an existing
    file; ``"w+"`` create or overwrite it (``shape`` required); ``"c"``
    copy on write, writes stay in memory.  Without ``shape`` the array is
    1-d over the rest of the file.  With ``"r+"`` or ``"w+"`` a file too
    short for the array is extended with zeros, as NumPy does.
    ``flush()`` writes changes to the disk."""

    filename: str | Path | None
    offset: int | None
    mode: str | None
    _mmap: str | None  # the file's path while this array is over the mapping, else None

    def __new__(cls, filename: Any, dtype: Any = _dt.uint8, mode: str = "r+", offset: int = 0, shape: Any = None,
                order: str = "C") -> memmap:
        short = _MODES.get(mode) if isinstance(mode, str) else None
        if short is None:
            raise ValueError(f"mode must be one of {list(_MODES)} (got {mode!r})")
        if short == "w+" and shape is None:
            raise ValueError("shape must be given if mode == 'w+'")
        if order not in ("C", "F"):
            raise ValueError(f"order must be 'C' or 'F', not {order!r}")
        dt = _dt.as_dtype(dtype)
        offset = as_int(offset, "memmap: offset")
        if offset < 0:
            raise ValueError(f"offset must be non-negative, got {offset}")
        if hasattr(filename, "fileno"):
            return cls._over(filename, dt, short, offset, shape, order, getattr(filename, "name", None))
        with open(os.fspath(filename), {"r": "rb", "c": "rb", "r+": "r+b", "w+": "w+b"}[short]) as f:
            return cls._over(f, dt, short, offset, shape, order, filename)

    @classmethod
    def _over(cls, f: Any, dt: _dt.DType, mode: str, offset: int, shape: Any, order: str, name: Any) -> memmap:
        size = os.fstat(f.fileno()).st_size
        if shape is None:
            left = size - offset
            if left < 0:
                raise ValueError(f"offset {offset} is past the end of the file ({size} bytes)")
            if left % dt.itemsize:
                raise ValueError("Size of available data is not a multiple of the data-type size.")
            dims: tuple[int, ...] = (left // dt.itemsize,)
        else:
            dims = (as_int(shape, "memmap: shape"),) if not isinstance(shape, (tuple, list)) else \
                tuple(as_int(n, "memmap: shape") for n in shape)
            if any(n < 0 for n in dims):
                raise ValueError("negative dimensions are not allowed")
        end = offset + dt.itemsize * math.prod(dims)
        if end == offset:
            raise ValueError("memmap: an empty array has nothing to map (a size-0 shape or an empty file)")
        if mode in ("r+", "w+") and size < end:
            f.seek(end - 1)  # NumPy's way to lengthen the file: one zero byte at its new end
            f.write(b"\0")
            f.flush()
        elif size < end:
            raise ValueError("mmap length is greater than file size")
        fortran = order == "F"
        h = core.map_file(f.fileno(), offset, dims, dt.code, dt.bits, fortran, _MAP[mode])
        return over_mapping(h, dims, fortran, name, offset, mode)

    def __array_finalize__(self, obj: Any) -> None:
        # NumPy's rule: an array made from a memmap is one of the file only
        # while it may share the mapping's memory
        if isinstance(obj, memmap) and getattr(obj, "_mmap", None) is not None and core.may_overlap(self._h, obj._h):
            self._mmap, self.filename, self.offset, self.mode = obj._mmap, obj.filename, obj.offset, obj.mode
        else:
            self._mmap = self.filename = self.offset = self.mode = None

    def __array_wrap__(self, arr: NDArray, context: Any = None, return_scalar: bool = False) -> Any:
        # a computed result is not over the file: a plain array (a scalar when 0-d), as NumPy's
        if arr is self:
            return arr
        plain = arr if type(arr) is NDArray else arr.view(NDArray)
        return core.scalar_result(plain) if plain.ndim == 0 else plain

    def __getitem__(self, key: Any) -> Any:
        got = super().__getitem__(key)
        if type(got) is memmap and got._mmap is None:
            return got.view(NDArray)  # a copy (fancy indexing): NumPy's plain array
        return got

    def flush(self) -> None:
        """Writes the changes to the disk (nothing to do for modes "r" and
        "c", whose writes never reach the file)."""
        if self._mmap is None or self.mode not in ("r+", "w+") or self.filename is None:
            return
        fd = os.open(os.fspath(self.filename), os.O_RDONLY)
        try:
            os.fsync(fd)  # Linux writes back a file's dirty shared-mapping pages on fsync, as msync does
        finally:
            os.close(fd)


def over_mapping(h: Any, dims: tuple[int, ...], fortran: bool, name: Any, offset: int, mode: str) -> memmap:
    """The memmap over ``h``, a handle core.map_file made from the file
    named ``name`` (None: a file object without one) at ``offset``."""
    flat = NDArray._new(h, dims, contiguous_strides(dims, fortran), None)
    made = retype(flat, memmap, None)
    # NumPy's: a path given as a Path object stays one (resolved), a string becomes absolute
    made.filename = name.resolve() if isinstance(name, Path) else (os.path.abspath(name) if isinstance(name, str)
                                                                   else None)
    made.offset, made.mode = offset, mode
    made._mmap = "<file object>" if made.filename is None else os.fspath(made.filename)
    return made
