"""Arrays to and from raw bytes: ``frombuffer``, ``fromfile``, the bytes of
an array (``NDArray.tobytes``/``tofile``), and pickling.

An NDArray exports its memory through the buffer protocol (PEP 3118, in
csrc/py/ndarray.c), so ``memoryview(x)``, ``bytes(x)``, ``struct``,
``hashlib`` and file writes read it in place.  The other way, ``frombuffer``
wraps any buffer-protocol object without copying: the object stays alive
(and exported) until the last array over it is gone.

Pickling (``NDArray.__reduce_ex__``) sends the elements as one contiguous
block: with protocol 5 that block is a ``pickle.PickleBuffer`` over the
array's own memory, which a ``buffer_callback`` can send out of band with
no copy, and which ``pickle.loads(..., buffers=...)`` hands back to
:func:`_unpickle`, which wraps it in place when it is aligned and as
writable as the array was.
"""

from __future__ import annotations

import io
import math
import os
import pickle
import stat
import sys
from typing import Any, BinaryIO, SupportsIndex

from minarray import _dtypes as _dt
from minarray import _subclass
from minarray._array_interface import _alignment
from minarray._array_object import NDArray, c_strides
from minarray._coerce import as_intp, asarray
from minarray._native import core

__all__ = [
    "frombuffer", "fromfile", "fromstring",
]


_U8 = _dt.uint8


def raw(x: NDArray) -> NDArray:
    """The memory of a C- or Fortran-contiguous array as a 1-d uint8 array
    (a view: same buffer, same read-only flag), whatever its dtype: what
    writes to files and pickle buffers read, bfloat16 included.  Its callers
    read those bytes, so a device array raises here, with the RuntimeError
    naming its device (the guard behind ``core.host_ptr``), rather than as
    the buffer protocol's BufferError."""
    core.host_ptr(x._h)
    n = x.nbytes
    h = core.view(x._h, 0, (n,), (1,), _U8.code, _U8.bits, core.is_readonly(x._h))
    return NDArray._new(h, (n,), (1,), x)


def tobytes(x: NDArray, order: str = "C") -> bytes:
    """``x.tobytes(order)``: the elements as bytes in C order (``"C"``, and
    ``"K"`` as NumPy reads it), Fortran order (``"F"``) or Fortran order
    when the array is Fortran- but not C-contiguous (``"A"``), as NumPy's
    ``tobytes``."""
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', 'K', not {order!r}")
    if order == "A":
        order = "F" if core.is_contiguous(x._h, True) and not core.is_contiguous(x._h, False) else "C"
    return core.tobytes(x._h, order == "F")


def write_raw(f: Any, x: NDArray) -> None:
    """Write the memory of C- or Fortran-contiguous ``x`` to file object
    ``f`` with no copy; on a file on disk its blocks are reserved first, as
    NumPy's ``tofile`` does (a large write on ext4 takes half the time, and
    a full disk fails before anything is written)."""
    with memoryview(raw(x)) as m:
        try:
            fd = f.fileno()
        except (AttributeError, OSError, ValueError):  # not a file on disk (BytesIO, a zip member)
            fd = -1
        if fd >= 0 and m.nbytes >= _PREALLOCATE_BYTES:
            f.flush()  # the position of the next byte written is then the file's own
            core.preallocate(fd, os.lseek(fd, 0, os.SEEK_CUR), m.nbytes)
        f.write(m)


# Below this, reserving blocks saves nothing measurable.
_PREALLOCATE_BYTES = 1 << 20


def tofile(x: NDArray, fid: Any, sep: str = "", format: str = "%s") -> None:
    """``x.tofile(fid)``: write the elements in C order to ``fid`` (a path or
    a file opened for writing in binary mode) as raw bytes, or, when ``sep``
    is not empty, as text: each element formatted with ``format`` and
    separated by ``sep`` (NumPy's ``tofile``; no byte order or dtype is
    recorded, so read it back with :func:`fromfile` and the same dtype)."""
    if isinstance(fid, (str, bytes, os.PathLike)):
        with open(fid, "w" if sep else "wb") as f:
            tofile(x, f, sep, format)
        return
    if sep:
        text = sep.join(format % v for v in _flat_list(x))
        fid.write(text if _is_text(fid) else text.encode())
        return
    if core.is_contiguous(x._h, False):
        write_raw(fid, x)
    else:
        fid.write(core.tobytes(x._h, False))


def _flat_list(x: NDArray) -> list[Any]:
    flat = x.reshape(-1) if x.ndim != 1 else x
    out: list[Any] = flat.tolist()
    return out


def _is_text(f: Any) -> bool:
    return isinstance(f, io.TextIOBase)


def _bytes_view(buf: Any) -> memoryview:
    """``buf``'s memory as a 1-d memoryview of bytes (format ``B``)."""
    m = memoryview(buf)
    if not m.c_contiguous:
        m.release()
        raise ValueError("the buffer is not C-contiguous: frombuffer needs one block of memory (copy it first)")
    if m.format != "B" or m.ndim != 1:
        m = m.cast("B")
    return m


def _wrap_bytes(m: memoryview, dtype: _dt.DType, shape: tuple[int, ...], strides: tuple[int, ...],
                readonly: bool, base: Any) -> NDArray | None:
    """An array of ``dtype``/``shape``/element ``strides`` over the bytes of
    ``m`` (exactly its size, checked by the caller), sharing them; None when
    the data is not aligned to the dtype's elements."""
    h, _, _, m_readonly = core.wrap_buffer(m, _U8.code, _U8.bits, False)
    if core.data_ptr(h) % _alignment(dtype):
        return None
    vh = core.view(h, 0, shape, strides, dtype.code, dtype.bits, readonly or m_readonly)
    return NDArray._new(vh, shape, strides, base)


def frombuffer(buffer: Any, dtype: Any = None, count: SupportsIndex = -1, offset: SupportsIndex = 0) -> NDArray:
    """A 1-d array over the memory of ``buffer`` (bytes, bytearray,
    memoryview, ``array.array``, ``mmap``, ``multiprocessing.shared_memory``
    blocks, NumPy arrays...): ``count`` elements of ``dtype`` (default
    float64; -1: as many as the buffer holds after ``offset``) from byte
    ``offset``.  No copy: writes through either side are seen by the other;
    the array is read-only when the buffer is, and keeps ``buffer`` alive
    (and its export held) until the last array over it is gone.  NumPy's
    errors for sizes that do not fit; minarray also needs the data aligned
    to its elements (ValueError otherwise)."""
    dt = _dt.as_dtype(dtype) if dtype is not None else _dt.float64
    count, offset = as_intp(count, "frombuffer: count"), as_intp(offset, "frombuffer: offset")
    m = _bytes_view(buffer)
    n = m.nbytes
    if not 0 <= offset <= n:
        raise ValueError(f"offset must be non-negative and no greater than buffer length ({n})")
    item = dt.itemsize
    if count < 0:
        if (n - offset) % item:
            raise ValueError(f"buffer size must be a multiple of element size ({n - offset} bytes after the offset, "
                             f"{dt} elements of {item} bytes)")
        count = (n - offset) // item
    elif count * item > n - offset:
        raise ValueError(f"buffer is smaller than requested size ({count} elements of {item} bytes from offset "
                         f"{offset}, the buffer holds {n} bytes)")
    part = m[offset:offset + count * item]
    out = _wrap_bytes(part, dt, (count,), (1,), False, buffer)
    if out is None:
        raise ValueError(
            f"the data at byte offset {offset} of the buffer is not aligned to {dt}'s {item}-byte elements: minarray "
            "arrays need aligned data (choose an offset that keeps it aligned, or copy those bytes first)"
        )
    return out


def fromfile(file: Any, dtype: Any = None, count: SupportsIndex = -1, sep: str = "",
             offset: SupportsIndex = 0) -> NDArray:
    """A new 1-d array read from ``file`` (a path or a file opened in binary
    mode): ``count`` elements of ``dtype`` (default float64; -1: to the end
    of the file) from byte ``offset`` after the current position, as raw
    bytes (NumPy's ``fromfile``: no header, no byte order; fewer whole
    elements than ``count`` left gives the ones there are).  With ``sep``
    the file is text: numbers separated by ``sep`` (whitespace when ``sep``
    is only whitespace)."""
    dt = _dt.as_dtype(dtype) if dtype is not None else _dt.float64
    count, offset = as_intp(count, "fromfile: count"), as_intp(offset, "fromfile: offset")
    if offset < 0:
        raise ValueError(f"offset must be non-negative, got {offset}")
    if isinstance(file, (str, bytes, os.PathLike)):
        with open(file, "r" if sep else "rb") as f:
            return fromfile(f, dt, count, sep, offset)
    if offset:
        file.seek(offset, os.SEEK_CUR)
    if sep:
        return _fromtext(file.read(), dt, count, sep)
    item = dt.itemsize
    left = remaining_bytes(file)
    if count < 0:
        if left is None:
            data = file.read()
            return _copy_of_bytes(data[:len(data) - len(data) % item], dt)
        count = left // item
    elif left is not None:
        count = min(count, left // item)
    out = NDArray._empty((count,), dt)
    got = read_into(file, raw(out))
    if got < count * item:  # the stream ended early: the whole elements read
        return out[:got // item].copy()
    return out


def _copy_of_bytes(data: bytes, dt: _dt.DType) -> NDArray:
    out = NDArray._empty((len(data) // dt.itemsize,), dt)
    memoryview(raw(out))[:] = data
    return out


def _fromtext(text: str | bytes, dt: _dt.DType, count: int, sep: str) -> NDArray:
    if isinstance(text, bytes):
        text = text.decode()
    tokens = text.split() if not sep.strip() else [t.strip() for t in text.split(sep.strip())]
    if tokens and not tokens[-1]:
        tokens.pop()  # a trailing separator
    if count >= 0:
        tokens = tokens[:count]
    parse: Any = {"b": lambda t: bool(int(t)), "i": int, "u": int, "f": float, "c": complex}[dt.kind]
    try:
        values = [parse(t) for t in tokens]
    except ValueError as e:
        raise ValueError(f"cannot read the text as {dt} values separated by {sep!r}: {e}") from None
    return asarray(values, dtype=dt) if values else NDArray._empty((0,), dt)


def remaining_bytes(f: Any) -> int | None:
    """How many bytes are left to read in file object ``f``, or None when
    that cannot be known without reading (a pipe, a socket)."""
    try:
        fd = f.fileno()
        st = os.fstat(fd)
        if stat.S_ISREG(st.st_mode):
            return max(0, st.st_size - int(f.tell()))
    except (AttributeError, OSError, ValueError):
        pass
    try:
        if f.seekable():
            here = f.tell()
            end = f.seek(0, os.SEEK_END)
            f.seek(here)
            return max(0, int(end) - int(here))
    except (AttributeError, OSError, ValueError):
        pass
    return None


def read_into(f: BinaryIO | Any, out: NDArray) -> int:
    """Fill the bytes of contiguous array ``out`` from ``f``; the count read
    (less than ``out.nbytes`` only when the stream ended)."""
    with memoryview(raw(out)) as m:
        total, n = 0, m.nbytes
        readinto = getattr(f, "readinto", None)
        while total < n:
            if readinto is not None:
                got = readinto(m[total:])
            else:
                chunk = f.read(min(n - total, 1 << 26))
                got = len(chunk)
                m[total:total + got] = chunk
            if not got:
                break
            total += got
    return total


def reduce(x: NDArray, protocol: int) -> tuple[Any, tuple[Any, ...]]:
    """``x.__reduce_ex__(protocol)``: the elements as one block (a view
    pickles only its own elements), dtype, shape, memory order and the
    read-only flag.  Protocol 5: a PickleBuffer over the array's memory
    (a contiguous copy first when the array is neither C- nor
    Fortran-contiguous), sent out of band when the pickler takes buffers;
    protocols 2-4: bytes."""
    c, f = core.is_contiguous(x._h, False), core.is_contiguous(x._h, True)
    fortran = f and not c
    readonly = core.is_readonly(x._h)
    if protocol >= 5:
        src = x if c or f else x.copy()
        block: Any = pickle.PickleBuffer(raw(src))
    else:
        block = core.tobytes(x._h, fortran)
    args = (block, x.dtype.name, x.shape, fortran, readonly)
    # an instance of a subclass comes back of its class, as NumPy's does
    # (finalized from None: its attributes are not pickled, as in NumPy)
    return (_unpickle, args if type(x) is NDArray else (*args, type(x)))


def _unpickle(block: Any, dtype: str, shape: tuple[int, ...], fortran: bool, readonly: bool,
              cls: type[NDArray] | None = None) -> NDArray:
    """The array of a pickle: ``block`` (bytes, or the buffer a protocol-5
    pickle handed back: a bytearray, a PickleBuffer, any buffer) holds its
    elements in C or Fortran order.  The block is used in place when it is
    aligned and writable (or the array was read-only), else copied into a
    new array; a read-only array comes back read-only."""
    _register_with_dask()
    dt = _dt.as_dtype(dtype)
    shape = tuple(int(n) for n in shape)
    if not memoryview(block).c_contiguous:  # a buffer handed back in pieces: one block first
        block = memoryview(block).tobytes()
    m = _bytes_view(block)
    need = math.prod(shape) * dt.itemsize
    if m.nbytes != need:
        raise ValueError(f"the pickled block holds {m.nbytes} bytes, but {shape} {dt} elements need {need}")
    strides = contiguous_strides(shape, fortran)
    out = None
    if need and (readonly or not m.readonly):
        out = _wrap_bytes(m, dt, shape, strides, readonly, block)
    if out is None and need:
        # copy: the copy kernel (split over threads, into a buffer given
        # huge pages) from a read-only view of the block
        # (a read-only array took its block as it is, above)
        src = _wrap_bytes(m, dt, shape, strides, True, block)
        if src is not None:
            out = src.copy("F" if fortran else "C")
    if out is None:  # copy: into a new array of the same layout
        if fortran:
            out = NDArray._empty(shape[::-1], dt).T
        else:
            out = NDArray._empty(shape, dt)
        if need:
            memoryview(raw(out))[:] = m
        if readonly:
            out = out._view(0, out._shape, out._strides, readonly=True)
    return out if cls is None else _subclass.retype(out, cls, None)


def contiguous_strides(shape: tuple[int, ...], fortran: bool) -> tuple[int, ...]:
    """Element strides of a contiguous array of ``shape`` in C or Fortran order."""
    if not fortran:
        return c_strides(shape)
    return c_strides(shape[::-1])[::-1]


_dask_checked = False


def _register_with_dask() -> None:
    """A process that receives minarray arrays while Dask is loaded (a
    dask.distributed worker) registers minarray with Dask, once, so the
    chunks it receives can be joined, multiplied and reduced there with no
    set-up on the workers' side."""
    global _dask_checked
    if _dask_checked:
        return
    _dask_checked = True
    if "dask" in sys.modules and "minarray.dask" not in sys.modules:
        try:
            # optional: importing minarray.dask registers with Dask, when the program uses Dask
            import minarray.dask  # noqa: F401
        except ImportError:  # dask without dask.array (no NumPy): nothing to register with
            pass


def fromstring(string: str | bytes, dtype: Any = None, count: SupportsIndex = -1, *, sep: str = "") -> NDArray:
    """A new 1-d array of the numbers in the text ``string``, separated by
    ``sep`` (any whitespace when ``sep`` is only whitespace): ``count`` of
    them (-1: all), as ``dtype`` (default float64).  NumPy 2 removed the
    binary mode (no ``sep``): it raises, as NumPy's, pointing to
    :func:`frombuffer`."""
    if not sep:
        raise ValueError("The binary mode of fromstring is removed, use frombuffer instead")
    dt = _dt.as_dtype(dtype) if dtype is not None else _dt.float64
    return _fromtext(string, dt, as_intp(count, "fromstring: count"), sep)
