"""NumPy's ``.npy`` and ``.npz`` files: ``save``, ``load``, ``savez``,
``savez_compressed``, without NumPy.

The format (NumPy's ``numpy.lib.format``, versions 1.0, 2.0 and 3.0): the
magic ``\x93NUMPY``, two version bytes, the header's length (2 bytes in
1.0, 4 in 2.0 and 3.0), then the header: a Python dict literal
``{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }`` padded
with spaces and a newline so that the data starts on a multiple of 64
bytes; then the elements, in C or Fortran order.  A ``.npz`` file is a zip
archive of ``.npy`` files.  minarray writes what NumPy writes, byte for
byte (bfloat16's descr is ``'bfloat16'``, which NumPy reads when
``ml_dtypes`` is imported; the storage types, float8 and the others, are
named the same way).

Reading trusts nothing in the file: the header is at most
``max_header_size`` bytes, parsed with ``ast.literal_eval`` into exactly the
three keys with the types they must have; the dtype must be one of
minarray's; the data the shape describes must be in the file before
anything is allocated or mapped.  Anything else raises ValueError.
"""

from __future__ import annotations

import array
import ast
import math
import os
import pickle
import struct
import sys
import warnings
import zipfile
from collections.abc import Iterator, Mapping
from typing import Any, BinaryIO

from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._coerce import as_int, asarray
from minarray._io import raw, read_into, remaining_bytes, write_raw
from minarray._memmap import over_mapping
from minarray._native import core

__all__ = [
    "save", "load", "savez", "savez_compressed", "NpzFile",
]


MAGIC_PREFIX = b"\x93NUMPY"


MAGIC_LEN = len(MAGIC_PREFIX) + 2


ARRAY_ALIGN = 64


# Room NumPy leaves in a header so that the growing axis can be rewritten in
# place (numpy.lib.format.GROWTH_AXIS_MAX_DIGITS): kept, so the bytes match.
GROWTH_AXIS_MAX_DIGITS = 21


# The largest header load reads unless told otherwise (NumPy's default too):
# literal_eval of a huge header could take long.
MAX_HEADER_SIZE = 10000


_HEADER_SIZE = {(1, 0): ("<H", "latin1"), (2, 0): ("<I", "latin1"), (3, 0): ("<I", "utf8")}


_ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")


_LITTLE = sys.byteorder == "little"


_MAXDIMS = 64


_MMAP_MODES = {"r": 0, "r+": 1, "c": 2}


# descr <-> dtype: the dtype table's typestrs without their byte-order mark
# (read in either order); bfloat16 and the storage types (float8...), which
# have none, by their names.
_BY_CODE: dict[str, _dt.DType] = {d.typestr[1:]: d for d in _dt.ALL if d.typestr}


_BY_NAME: dict[str, _dt.DType] = {d.name: d for d in _dt.ALL if not d.typestr}


def _descr(d: _dt.DType) -> str:
    return d.typestr or d.name


def _dtype_of_descr(descr: Any) -> tuple[_dt.DType, bool]:
    """The dtype of a header's descr and whether its bytes need swapping."""
    if isinstance(descr, list):
        raise ValueError(f"the file holds a structured array (descr {_short(descr)}): minarray has none")
    if not isinstance(descr, str):
        raise ValueError(f"the header's 'descr' must be a dtype string, not {_short(descr)}")
    if descr in _BY_NAME:
        return _BY_NAME[descr], False
    order, code = (descr[0], descr[1:]) if descr[:1] in ("<", ">", "|", "=") else ("|", descr)
    if code.startswith("O"):
        raise ValueError(
            f"the file holds an object array (descr {descr!r}): minarray has no object dtype, so it cannot load it "
            "(NumPy can, with allow_pickle=True, for files it trusts)"
        )
    found = _BY_CODE.get(code)
    if found is None:
        raise ValueError(f"the header's descr {_short(descr)} is not a dtype minarray has: expected one of "
                         f"{', '.join(sorted(_BY_CODE))} with a byte-order mark, or one of the names "
                         f"{', '.join(sorted(_BY_NAME))}")
    swap = found.itemsize > 1 and order == (">" if _LITTLE else "<")
    return found, swap


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 80 else text[:77] + "..."


def header_bytes(dtype: _dt.DType, shape: tuple[int, ...], fortran: bool) -> bytes:
    """The magic, version, length and header of a ``.npy`` file: version
    1.0 when the header fits in 65535 bytes, else 2.0 (NumPy's choice;
    3.0 is for non-Latin-1 headers, which minarray's never are)."""
    d = {"descr": _descr(dtype), "fortran_order": fortran, "shape": shape}
    text = "{" + "".join(f"'{k}': {v!r}, " for k, v in sorted(d.items())) + "}"
    if shape:
        text += " " * (GROWTH_AXIS_MAX_DIGITS - len(repr(shape[-1 if fortran else 0])))
    for version in ((1, 0), (2, 0)):
        fmt, encoding = _HEADER_SIZE[version]
        body = text.encode(encoding)
        hlen = len(body) + 1
        pad = ARRAY_ALIGN - ((MAGIC_LEN + struct.calcsize(fmt) + hlen) % ARRAY_ALIGN)
        try:
            prefix = MAGIC_PREFIX + bytes(version) + struct.pack(fmt, hlen + pad)
        except struct.error:
            continue
        return prefix + body + b" " * pad + b"\n"
    raise ValueError(f"the header of a {len(shape)}-d array is too long for the .npy format")  # pragma: no cover


def write_array(f: BinaryIO | Any, x: NDArray) -> None:
    """Write ``x`` as a ``.npy`` stream (header, then data) to ``f``."""
    c, fo = core.is_contiguous(x._h, False), core.is_contiguous(x._h, True)
    fortran = fo and not c and x.ndim > 1
    f.write(header_bytes(x.dtype, x.shape, fortran))
    if x.size == 0:
        return
    if c or fortran:
        write_raw(f, x)  # the array's own memory: no copy
    else:
        f.write(core.tobytes(x._h, False))


def _as_array(arr: Any) -> NDArray:
    if isinstance(arr, NDArray):
        return arr
    return asarray(arr)


def _with_suffix(file: Any, suffix: str) -> Any:
    """NumPy's rule: a path without the suffix gets it."""
    if isinstance(file, (str, os.PathLike)):
        path = os.fspath(file)
        if isinstance(path, str) and not path.endswith(suffix):
            return path + suffix
        return path
    return file


def save(file: Any, arr: Any, allow_pickle: bool = True) -> None:
    """Write ``arr`` to a ``.npy`` file (NumPy's format, version 1.0; 2.0
    for headers that need it): ``file`` is a path (``.npy`` is appended when
    missing, as NumPy does) or a file opened for binary writing.  C- and
    Fortran-contiguous arrays are written from their memory without a copy;
    other layouts in C order.  ``allow_pickle`` is accepted for NumPy's
    signature: minarray has no object arrays, so nothing is ever pickled."""
    x = _as_array(arr)
    file = _with_suffix(file, ".npy")
    if isinstance(file, (str, bytes)):
        with open(file, "wb") as f:
            write_array(f, x)
    else:
        write_array(file, x)


def _savez(file: Any, args: tuple[Any, ...], kwds: dict[str, Any], compress: bool) -> None:
    named = dict(kwds)
    for i, a in enumerate(args):
        key = f"arr_{i}"
        if key in named:
            raise ValueError(f"Cannot use un-named variables and keyword {key}")
        named[key] = a
    file = _with_suffix(file, ".npz")
    compression = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(file, mode="w", compression=compression, allowZip64=True) as zf:
        for key, val in named.items():
            with zf.open(key + ".npy", "w", force_zip64=True) as member:
                write_array(member, _as_array(val))


def savez(file: Any, *args: Any, allow_pickle: bool = True, **kwds: Any) -> None:
    """Several arrays in one uncompressed ``.npz`` file (a zip of ``.npy``
    files): positional ones named ``arr_0``, ``arr_1``..., keyword ones by
    their keywords.  ``file``: a path (``.npz`` appended when missing) or a
    binary file object."""
    _savez(file, args, kwds, False)


def savez_compressed(file: Any, *args: Any, allow_pickle: bool = True, **kwds: Any) -> None:
    """:func:`savez` with each member compressed (zip's deflate)."""
    _savez(file, args, kwds, True)


def _read_exact(f: Any, n: int, what: str) -> bytes:
    data = f.read(n)
    if len(data) != n:
        raise ValueError(f"EOF: reading {what}, expected {n} bytes got {len(data)}: the file is truncated or not "
                         "a .npy file")
    return bytes(data)


def parse_header(text: str) -> tuple[_dt.DType, bool, tuple[int, ...], bool]:
    """The dtype, byte swap, shape and Fortran flag of a header's dict
    literal; ValueError for anything that is not exactly such a dict."""
    try:
        # The compiler warns about questionable literals (an invalid escape
        # such as \d in a string): in a file's header they are malformed
        # input to refuse, not the caller's source code to warn about.
        with warnings.catch_warnings():
            warnings.simplefilter("error", SyntaxWarning)
            warnings.simplefilter("error", DeprecationWarning)
            d = ast.literal_eval(text)
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError, SyntaxWarning,
            DeprecationWarning) as e:
        raise ValueError(f"cannot parse the .npy header {_short(text)}: {type(e).__name__}") from None
    if not isinstance(d, dict):
        raise ValueError(f"the .npy header is not a dict: {_short(text)}")
    keys = {"descr", "fortran_order", "shape"}
    if set(d) != keys:
        raise ValueError(f"the .npy header must have exactly the keys {sorted(keys)}, not {_short(list(d))}")
    shape, fortran = d["shape"], d["fortran_order"]
    if not isinstance(shape, tuple) or not all(type(n) is int and n >= 0 for n in shape):
        raise ValueError(f"the .npy header's shape must be a tuple of non-negative ints, not {_short(shape)}")
    if len(shape) > _MAXDIMS:
        raise ValueError(f"the .npy header's shape has {len(shape)} dimensions; minarray allows {_MAXDIMS} at most")
    if type(fortran) is not bool:
        raise ValueError(f"the .npy header's fortran_order must be True or False, not {_short(fortran)}")
    dtype, swap = _dtype_of_descr(d["descr"])
    return dtype, swap, shape, fortran


def read_header(f: Any, max_header_size: int = MAX_HEADER_SIZE) -> tuple[_dt.DType, bool, tuple[int, ...], bool]:
    """Read and check a ``.npy`` header from ``f`` (positioned at the
    magic), leaving ``f`` at the first data byte."""
    magic = _read_exact(f, MAGIC_LEN, "the magic string")
    if magic[:6] != MAGIC_PREFIX:
        raise ValueError(f"the magic string is not correct: expected {MAGIC_PREFIX!r}, got {magic[:6]!r}")
    version = (magic[6], magic[7])
    if version not in _HEADER_SIZE:
        raise ValueError(f"we only support format version (1,0), (2,0), and (3,0), not {version}")
    fmt, encoding = _HEADER_SIZE[version]
    (hlen,) = struct.unpack(fmt, _read_exact(f, struct.calcsize(fmt), "the header length"))
    if hlen > max_header_size:
        raise ValueError(f"the header is {hlen} bytes long, more than max_header_size={max_header_size}: it may not "
                         "be safe to parse (raise max_header_size for files you trust)")
    try:
        text = _read_exact(f, hlen, "the array header").decode(encoding)
    except UnicodeDecodeError as e:
        raise ValueError(f"the .npy header is not valid {encoding}: {e.reason}") from None
    return parse_header(text)


def _nbytes(dtype: _dt.DType, shape: tuple[int, ...]) -> int:
    return math.prod(shape) * dtype.itemsize


def _check_fits(nbytes: int, left: int | None, shape: tuple[int, ...], dtype: _dt.DType) -> None:
    if left is not None and nbytes > left:
        raise ValueError(f"the header describes {shape} {dtype} elements ({nbytes} bytes), but the file holds only "
                         f"{left} bytes of data: it is truncated, or the header is wrong")


def _new_array(dtype: _dt.DType, shape: tuple[int, ...], fortran: bool) -> NDArray:
    if fortran:
        return NDArray._empty(shape[::-1], dtype).T
    return NDArray._empty(shape, dtype)


def _byteswap(x: NDArray) -> None:
    """Reverse the bytes of every element (each half for complex) of a
    fresh contiguous array in place."""
    word = x.itemsize // 2 if x.dtype.kind == "c" else x.itemsize
    a = array.array({2: "H", 4: "I", 8: "Q"}[word])
    assert a.itemsize == word
    with memoryview(raw(x)) as m:
        a.frombytes(m)
        a.byteswap()
        m[:] = memoryview(a).cast("B")


def read_array(f: Any, left: int | None = None, max_header_size: int = MAX_HEADER_SIZE) -> NDArray:
    """The array of the ``.npy`` stream ``f`` (at its magic); ``left``: the
    bytes the stream holds from there, when the caller knows better than
    :func:`remaining_bytes`."""
    if left is None:
        left = remaining_bytes(f)
    start = f.tell() if left is not None else 0
    dtype, swap, shape, fortran = read_header(f, max_header_size)
    if left is not None:
        left -= f.tell() - start
    nbytes = _nbytes(dtype, shape)
    _check_fits(nbytes, left, shape, dtype)
    if left is None and nbytes:
        # a stream of unknown length: read it in pieces, so that a header
        # that lies cannot make a huge allocation before the data runs out
        pieces, got = [], 0
        while got < nbytes:
            piece = f.read(min(nbytes - got, 1 << 24))
            if not piece:
                break
            pieces.append(piece)
            got += len(piece)
        _check_fits(nbytes, got, shape, dtype)
        out = _new_array(dtype, shape, fortran)
        memoryview(raw(out))[:] = b"".join(pieces)
    else:
        out = _new_array(dtype, shape, fortran)
        if nbytes:
            got = read_into(f, out)
            _check_fits(nbytes, got, shape, dtype)
    if swap and nbytes:
        _byteswap(out)
    return out


def _open_memmap(file: Any, mode: str, max_header_size: int) -> NDArray:
    if isinstance(file, (str, bytes, os.PathLike)):
        with open(file, "r+b" if mode == "r+" else "rb") as f:
            return _map(f, mode, max_header_size, file)
    try:
        file.fileno()
    except (AttributeError, OSError, ValueError):
        raise ValueError("mmap_mode needs a file on disk: a path, or a file object with a fileno()") from None
    return _map(file, mode, max_header_size, getattr(file, "name", None))


def _map(f: Any, mode: str, max_header_size: int, name: Any) -> NDArray:
    dtype, swap, shape, fortran = read_header(f, max_header_size)
    offset = f.tell()
    if swap:
        raise ValueError(f"the file's {dtype} data is big-endian: minarray arrays are native-endian, so it cannot be "
                         "mapped; load it without mmap_mode (the bytes are swapped on load)")
    nbytes = _nbytes(dtype, shape)
    left = remaining_bytes(f)
    _check_fits(nbytes, left, shape, dtype)
    if nbytes == 0:  # nothing to map
        out = _new_array(dtype, shape, fortran)
        return out._view(0, out._shape, out._strides, readonly=True) if mode == "r" else out
    h = core.map_file(f.fileno(), offset, shape, dtype.code, dtype.bits, fortran, _MMAP_MODES[mode])
    return over_mapping(h, shape, fortran, name, offset, mode)  # NumPy's load gives a memmap


def load(file: Any, mmap_mode: str | None = None, allow_pickle: bool = False,
         max_header_size: int = MAX_HEADER_SIZE) -> Any:
    """Read a ``.npy`` file (an NDArray), a ``.npz`` file (an
    :class:`NpzFile`, a lazy mapping of names to arrays; close it, or use it
    in a ``with``), or, with ``allow_pickle=True``, a pickle.

    ``file``: a path or a binary file object.  ``mmap_mode`` ``"r"``,
    ``"r+"`` or ``"c"`` maps a ``.npy`` file instead of reading it: the
    array is over the mapped file, zero-copy, in microseconds whatever its
    size; ``"r"`` is read-only, ``"r+"`` writes reach the file, ``"c"``
    (copy on write) keeps writes in memory.  The mapping lasts until the
    last array over it (and every export of it: DLPack, memoryview) is
    gone.  Big-endian files are swapped on load (and cannot be mapped).

    ``allow_pickle=False`` (the default) refuses pickles, which can run any
    code when loaded: load only pickles you trust.  Object arrays are
    refused either way: minarray has no object dtype.  Malformed files raise
    ValueError; nothing past the data the file holds is ever read."""
    if mmap_mode is not None and mmap_mode not in _MMAP_MODES:
        raise ValueError(f"mmap_mode must be one of 'r', 'r+', 'c' or None, not {mmap_mode!r}")
    max_header_size = as_int(max_header_size, "load: max_header_size")
    if isinstance(file, (str, bytes, os.PathLike)):
        f = open(file, "rb")
        own = True
    else:
        f, own = file, False
    try:
        start = f.tell()
        head = f.read(MAGIC_LEN)
        f.seek(start)
        if head.startswith(_ZIP_MAGICS):
            npz = NpzFile(f, own, allow_pickle, max_header_size)
            own = False  # the NpzFile closes it
            return npz
        if head.startswith(MAGIC_PREFIX) or head[:1] == MAGIC_PREFIX[:1]:  # (read_header names a bad magic)
            if mmap_mode is not None:
                return _open_memmap(file if own else f, mmap_mode, max_header_size)
            return read_array(f, max_header_size=max_header_size)
        if not allow_pickle:
            if not head:
                raise ValueError("the file is empty: no .npy or .npz data")
            raise ValueError("Cannot load file containing pickled data when allow_pickle=False (or the file is "
                             f"not a .npy or .npz file: it starts with {head!r})")
        return pickle.load(f)
    finally:
        if own:
            f.close()


class NpzFile(Mapping[str, Any]):
    """The arrays of a ``.npz`` file, read when asked for: ``f["x"]``,
    ``f.files`` (the names), iteration, ``in``; a context manager that
    closes the file (``close()`` does it by hand).  Members that are not
    ``.npy`` files come back as bytes, as NumPy's ``NpzFile`` does."""

    def __init__(self, fid: Any, own_fid: bool = False, allow_pickle: bool = False,
                 max_header_size: int = MAX_HEADER_SIZE) -> None:
        try:
            self.zip: zipfile.ZipFile | None = zipfile.ZipFile(fid)
        except zipfile.BadZipFile as e:
            if own_fid:
                fid.close()
            raise ValueError(f"the file is not a valid .npz (zip) file: {e}") from None
        self.fid: Any = fid if own_fid else None
        self.allow_pickle = allow_pickle
        self.max_header_size = max_header_size
        self._files = self.zip.namelist()
        self.files = [name[:-4] if name.endswith(".npy") else name for name in self._files]

    def __enter__(self) -> NpzFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the archive (and the file, when ``load`` opened it)."""
        zf, fid = getattr(self, "zip", None), getattr(self, "fid", None)
        self.zip = self.fid = None
        if zf is not None:
            zf.close()
        if fid is not None:
            fid.close()

    def __del__(self) -> None:
        self.close()

    def __len__(self) -> int:
        return len(self.files)

    def __iter__(self) -> Iterator[str]:
        return iter(self.files)

    def __getitem__(self, key: str) -> Any:
        if self.zip is None:
            raise ValueError("the NpzFile is closed")
        if key in self._files:
            member = key
        elif key in self.files:
            member = self._files[self.files.index(key)]
        else:
            raise KeyError(f"{key} is not a file in the archive")
        info = self.zip.getinfo(member)
        with self.zip.open(member) as f:
            if f.read(len(MAGIC_PREFIX)) != MAGIC_PREFIX:
                return self.zip.read(member)
            f.seek(0)
            return read_array(f, left=info.file_size, max_header_size=self.max_header_size)

    def __repr__(self) -> str:
        return f"NpzFile(files={self.files!r})"
