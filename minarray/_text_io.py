"""Tables of numbers in text files: NumPy's ``loadtxt``, ``genfromtxt`` and
``savetxt``.

Each reads a file name (a ``.gz``, ``.bz2`` or ``.xz`` name is
decompressed, as NumPy's), a ``pathlib.Path``, an open file (text or
binary) or any iterable of lines (str or bytes).  Only numeric dtypes are
read: structured dtypes, ``names=`` and string dtypes raise TypeError.

``loadtxt`` of a float64 table whose delimiter and comment marker are
single ASCII characters runs in C (csrc/core/text_parse.c, the GIL
released) over the file's bytes; anything the C reader does not take (a
converter, ``usecols``, a malformed line, a number it does not spell) is
read by the Python reader here, which is the reference: the C reader only
ever gives the same table sooner, and every error message comes from here.
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import itertools
import locale
import lzma
import math
import os
import re
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray
from minarray._coerce import as_int, asarray
from minarray._data_type_functions import iinfo
from minarray._native import core

__all__ = ["genfromtxt", "loadtxt", "savetxt"]


class ConversionWarning(UserWarning):
    """genfromtxt's warning for the lines it dropped with
    ``invalid_raise=False`` (NumPy's ``numpy.lib._iotools.ConversionWarning``)."""


# ---- where the lines come from --------------------------------------------------

_OPENERS: dict[str, Callable[..., Any]] = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}

# Codecs in which every ASCII character is its own single byte, and no byte
# of a multi-byte character is ASCII: numbers, delimiters and comment
# markers can be found in the raw bytes.
_ASCII_SUPERSETS = frozenset({"utf-8", "ascii", "latin-1", "iso8859-1", "cp1252"})


def _encoding(encoding: str | None) -> str:
    """The codec a file is decoded with: NumPy's default is the locale's."""
    if encoding is None or encoding == "bytes":
        return locale.getpreferredencoding(False) if encoding is None else "latin-1"
    return encoding


def _read_path(path: str) -> bytes:
    """A file's bytes, decompressed by its name's suffix as NumPy's
    ``np.lib._datasource.open`` does."""
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path} not found.")
    opener = _OPENERS.get(os.path.splitext(path)[1], open)
    with opener(path, "rb") as f:
        data: bytes = f.read()
    return data


def _split_lines(text: str) -> list[str]:
    """Universal newlines (``\\n``, ``\\r\\n``, ``\\r``), as a file opened
    in text mode reads them; a final newline ends the last line."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


class _Source:
    """The input as bytes (a file's whole content, for the C reader) and as
    lines of text (for the Python reader)."""

    def __init__(self, fname: Any, encoding: str | None) -> None:
        self.raw: bytes | None = None
        self.codec = _encoding(encoding)
        self._lines: Iterable[Any] | None = None
        self._text: str | None = None
        if isinstance(fname, os.PathLike):
            fname = os.fspath(fname)
        if isinstance(fname, str):
            self.raw = _read_path(fname)
        elif hasattr(fname, "read"):
            content = fname.read()
            if isinstance(content, bytes):
                self.raw = content
                if encoding is None:
                    self.codec = "latin-1"  # NumPy: a binary stream without an encoding
            else:
                self._text = content
        else:
            try:
                self._lines = iter(fname)
            except TypeError:
                raise ValueError(f"fname must be a string, filehandle, list of strings,\n"
                                 f"or generator. Got {type(fname)} instead.") from None

    def ascii_bytes(self) -> bytes | None:
        """The content as bytes the C reader can scan, or None."""
        if self.raw is not None:
            try:
                name = codecs.lookup(self.codec).name
            except LookupError:
                return None
            return self.raw if name in _ASCII_SUPERSETS and not self.raw.startswith(codecs.BOM_UTF8) else None
        if self._text is not None and self._text.isascii():
            return self._text.encode("ascii")
        return None

    def lines(self) -> Iterator[str]:
        """Each line, decoded, without its line ending."""
        if self.raw is not None:
            text = self.raw.decode(self.codec)
            if self.codec.replace("-", "").lower() in ("utf8sig",):
                text = text.removeprefix("\ufeff")
            yield from _split_lines(text)
        elif self._text is not None:
            yield from _split_lines(self._text)
        else:
            assert self._lines is not None
            for line in self._lines:
                if isinstance(line, bytes):
                    line = line.decode(self.codec)
                elif not isinstance(line, str):
                    raise TypeError(f"each line must be str or bytes, got {type(line).__name__}")
                yield line.rstrip("\r\n")


# ---- arguments -----------------------------------------------------------------


def _table_dtype(dtype: Any, fn: str) -> _dt.DType:
    """The dtype of the table: numeric only (structured and string dtypes
    are not minarray's)."""
    if dtype is None:
        raise TypeError("a dtype must be provided.")
    if isinstance(dtype, (list, tuple, dict)) or getattr(dtype, "names", None) is not None:
        raise TypeError(f"{fn}: {_dt.out_of_scope(str(dtype), 'structured')}")
    try:
        dt = _dt.as_dtype(dtype)
    except TypeError as exc:  # its words name the family and point to NumPy
        raise TypeError(f"{fn}: {exc}") from None
    if dt.kind not in "biufc":
        raise TypeError(f"{fn}: dtype {dt} cannot be read from text")
    return dt


def _nonneg(value: Any, name: str = "argument") -> int:
    """NumPy's check of skiprows and max_rows."""
    try:
        v = int(value.__index__())
    except (AttributeError, TypeError):
        raise TypeError(f"{name} must be an integer") from None
    if v < 0:
        raise ValueError(f"{name} must be nonnegative")
    return v


def _control(value: Any, what: str) -> str | None:
    """A delimiter or a one-character comment marker: one character or None."""
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    if value is not None and not (isinstance(value, str) and len(value) == 1):
        raise TypeError(f"Text reading control character must be a single unicode character or None; "
                        f"but got: {value!r}")
    if value in ("\n", "\r"):
        raise TypeError(f"control character '{what}' cannot be a newline (`\\r` or `\\n`).")
    return value


def _comment_markers(comments: Any) -> tuple[str, ...]:
    """``comments`` as a tuple of markers (a str is one marker)."""
    if comments is None:
        return ()
    if isinstance(comments, (str, bytes)):
        comments = [comments]
    markers = tuple(c.decode("latin-1") if isinstance(c, bytes) else c for c in comments)
    if "" in markers:
        raise ValueError("comments cannot be an empty string. Use comments=None to disable comments.")
    return markers


def _usecols(usecols: Any) -> list[int] | None:
    if usecols is None:
        return None
    cols = list(usecols) if isinstance(usecols, Iterable) else [usecols]
    out = []
    for c in cols:
        if isinstance(c, bool) or not hasattr(c, "__index__"):
            raise TypeError(f"usecols must be an int or a sequence of ints but it contains at least one "
                            f"element of type '{type(c).__name__}'")
        out.append(int(c.__index__()))
    return out


def _check_ndmin(ndmin: Any) -> int:
    if ndmin not in (0, 1, 2):
        raise ValueError(f"Illegal value of ndmin keyword: {ndmin}")
    return int(ndmin)


def _cut_comment(line: str, markers: tuple[str, ...]) -> str:
    for m in markers:
        line = line.split(m, 1)[0]
    return line


def _shaped(arr: NDArray, ndmin: int) -> NDArray:
    """NumPy's rule for loadtxt's and genfromtxt's result: squeeze unit
    dimensions, then pad back to ``ndmin`` (a column for ndmin=2)."""
    if arr.ndim > ndmin:
        arr = arr.reshape(tuple(n for n in arr.shape if n != 1))
    if arr.ndim < ndmin:
        if ndmin == 1:
            arr = arr.reshape((1,))
        else:
            arr = arr.reshape((1, *arr.shape) if arr.ndim == 1 else (1, 1)).T
    return arr


# ---- numbers in NumPy's spelling ------------------------------------------------------

# NumPy parses with Python's own number syntax less its extensions: ASCII
# only, no digit-group underscores; integers are plain decimal digits and
# the imaginary unit is a lowercase j (numpy/_core/src/multiarray/textreading).
_INT = re.compile(r"\s*[+-]?[0-9]+\s*\Z")
_UINT = re.compile(r"\s*\+?[0-9]+\s*\Z")


def _parser(dt: _dt.DType) -> Callable[[str], Any]:
    """The function reading one field as a Python number of ``dt``'s kind;
    ValueError when it does not spell one."""
    if dt.kind == "f":
        def parse_float(s: str) -> float:
            if not s.isascii() or "_" in s:
                raise ValueError(s)
            return float(s)
        return parse_float
    if dt.kind == "c":
        def parse_complex(s: str) -> complex:
            if not s.isascii() or "_" in s or "J" in s:
                raise ValueError(s)
            return complex(s.strip())
        return parse_complex
    pattern = _UINT if dt.kind == "u" else _INT
    lo, hi = (0, 1) if dt.kind == "b" else (iinfo(dt).min, iinfo(dt).max)

    def parse_int(s: str) -> int:
        if not pattern.match(s):
            raise ValueError(s)
        v = int(s)
        if dt.kind == "b":
            return bool(v)  # NumPy: any integer, nonzero is True
        if not lo <= v <= hi:
            raise ValueError(s)
        return v
    return parse_int


# ---- loadtxt ------------------------------------------------------------------------


def _fast_table(src: _Source, dt: _dt.DType, delimiter: str | None, markers: tuple[str, ...],
                skiprows: int, max_rows: int) -> NDArray | None:
    """The table by the C reader, or None where it does not apply or gives
    up (the Python reader then reads it, with NumPy's errors)."""
    if dt != _dt.float64 or len(markers) > 1 or (markers and len(markers[0]) != 1):
        return None
    if (delimiter is not None and not delimiter.isascii()) or (markers and not markers[0].isascii()):
        return None
    data = src.ascii_bytes()
    if data is None:
        return None
    # an upper bound of the values: each but the last is followed by at
    # least one byte.  Pages of the array the reader never writes are never
    # touched, so the bound costs address space, not memory or time.
    cap = (len(data) + 1) // 2
    out = NDArray._empty((cap,), _dt.float64)
    got = core.text_parse_f64(out._h, data, ord(delimiter) if delimiter else 0,
                              ord(markers[0]) if markers else 0, skiprows, max_rows)
    if got is None or got[0] == 0:  # no rows: the Python reader gives NumPy's empty shape
        return None
    rows, cols = got
    return out[:rows * cols].copy().reshape((rows, cols))


# NumPy 1.23 changed max_rows to count rows, not lines, and says so once a
# call when a line without data is passed over (the same words)
_MAX_ROWS_NOTICE = (
    "Input line {line} contained no data and will not be counted towards `max_rows={max_rows}`.  This differs "
    "from the behaviour in NumPy <=1.22 which counted lines rather than rows.  If desired, the previous "
    "behaviour can be achieved by using `itertools.islice`.\nPlease see the 1.23 release notes for an example "
    "on how to do this.  If you wish to ignore this warning, use `warnings.filterwarnings`.  This warning is "
    "expected to be removed in the future and is given only once per `loadtxt` call.")


def _rows(lines: Iterable[str], delimiter: str | None, markers: tuple[str, ...], skiprows: int,
          max_rows: int) -> Iterator[list[str]]:
    """loadtxt's rows of fields: the first ``skiprows`` lines skipped
    whatever they hold, comments cut, empty lines (and, with whitespace
    delimiting, blank ones) skipped and not counted in ``max_rows``."""
    n = 0
    warned = False
    for i, line in enumerate(lines):
        if i < skiprows:
            continue
        if max_rows >= 0 and n >= max_rows:
            return
        body = _cut_comment(line, markers)
        fields = body.split() if delimiter is None else (body.split(delimiter) if body else [])
        if not fields:
            if max_rows >= 0 and not warned:
                warned = True
                warnings.warn(_MAX_ROWS_NOTICE.format(line=i + 1, max_rows=max_rows), UserWarning, stacklevel=4)
            continue
        n += 1
        yield fields


def _converter_table(converters: Any, ncols: int) -> dict[int, Callable[[Any], Any]]:
    """The user's converter of each column that has one (a single callable
    converts them all)."""
    if converters is None:
        return {}
    if callable(converters):
        return dict.fromkeys(range(ncols), converters)
    table: dict[int, Callable[[Any], Any]] = {}
    for key, fn in converters.items():
        c = int(key)
        if not -ncols <= c < ncols:
            raise ValueError(f"converter specified for column {c}, which is invalid for the number of "
                             f"fields {ncols}.")
        table[c % ncols] = fn
    return table


def _python_table(src: _Source, dt: _dt.DType, delimiter: str | None, markers: tuple[str, ...],
                  skiprows: int, max_rows: int, usecols: list[int] | None, converters: Any,
                  byte_converters: bool) -> NDArray:
    """The table read line by line, with NumPy's checks and messages."""
    name = dt.name
    values: list[Any] = []
    ncols = -1
    nrows = 0
    parse = _parser(dt)
    user: dict[int, Callable[[Any], Any]] | None = None
    for fields in _rows(src.lines(), delimiter, markers, skiprows, max_rows):
        if usecols is None:
            if ncols < 0:
                ncols = len(fields)
            elif len(fields) != ncols:
                raise ValueError(f"the number of columns changed from {ncols} to {len(fields)} at row "
                                 f"{nrows + 1}; use `usecols` to select a subset and avoid this error")
            picked = list(range(ncols))
        else:
            picked = []
            for c in usecols:
                if not -len(fields) <= c < len(fields):
                    raise ValueError(f"invalid column index {c} at row {nrows + 1} with {len(fields)} columns")
                picked.append(c % len(fields))
        if user is None:
            user = _converter_table(converters, len(fields))
        for c in picked:
            s = fields[c]
            fn = user.get(c)
            try:
                if fn is None:
                    values.append(parse(s))
                else:  # 'bytes': converters are handed latin-1 bytes, as NumPy's
                    values.append(_as_element(fn(s.encode("latin-1") if byte_converters else s), dt))
            except (ValueError, TypeError, OverflowError):
                raise ValueError(f"could not convert string {s!r} to {name} at row {nrows}, "
                                 f"column {c + 1}.") from None
        nrows += 1
    width = len(usecols) if usecols is not None else max(ncols, 1)
    if nrows == 0:
        return NDArray._empty((0, width), dt)
    # float16/bfloat16/float32 by way of float64, as NumPy rounds them
    wide = {"f": _dt.float64, "c": _dt.complex128}.get(dt.kind, dt)
    return asarray(values, dtype=wide).astype(dt, copy=False).reshape((nrows, width))


def _as_element(v: Any, dt: _dt.DType) -> Any:
    """A converter's result as a number of ``dt``'s kind (NumPy assigns it
    as an element, which parses strings too)."""
    if isinstance(v, (bytes, str)):
        return _parser(dt)(v.decode("latin-1") if isinstance(v, bytes) else v)
    if dt.kind == "c":
        return complex(v)
    if dt.kind == "f":
        return float(v)
    return int(v) if dt.kind in "iu" else bool(v)


def loadtxt(fname: Any, dtype: Any = float, comments: Any = "#", delimiter: Any = None, converters: Any = None,
            skiprows: int = 0, usecols: Any = None, unpack: bool = False, ndmin: int = 0,
            encoding: str | None = None, max_rows: int | None = None, *, quotechar: Any = None,
            like: Any = None) -> Any:
    """Read a table of numbers from a text file (NumPy's ``loadtxt``): one
    row a line, fields split at ``delimiter`` (default: runs of
    whitespace), ``comments`` (a marker or a sequence of them) to the line's
    end ignored, the first ``skiprows`` lines skipped, at most ``max_rows``
    rows read.  ``usecols`` picks columns (an int or a sequence, negatives
    from the end), ``converters`` reads fields (a callable, or a dict from
    column to callable), ``unpack`` returns the columns (the transpose),
    ``ndmin`` the least number of dimensions (0, 1 or 2).  A row of another
    width, or a field that is not a number of ``dtype``, raises ValueError
    naming its row and column; no data warns (UserWarning) and gives an
    empty array.  Structured dtypes are not supported (TypeError)."""
    if like is not None:
        raise TypeError("loadtxt: like= is not supported by minarray")
    if quotechar is not None:
        raise TypeError("loadtxt: quotechar is not supported by minarray")
    byte_converters = encoding == "bytes"
    dt = _table_dtype(dtype, "loadtxt")
    cols = _usecols(usecols)
    nd = _check_ndmin(ndmin)
    markers = _comment_markers(comments)
    delim = _control(delimiter, "delimiter")
    if delim is not None and delim in markers:
        raise TypeError("The values for control characters 'comment' and 'delimiter' are incompatible")
    skip = _nonneg(skiprows)
    rows = -1 if max_rows is None else _nonneg(max_rows)
    if converters is not None and not callable(converters) and not isinstance(converters, dict):
        raise TypeError("converters must be a dictionary mapping columns to converter functions "
                        "or a single callable.")
    src = _Source(fname, None if byte_converters else encoding)
    arr = None
    if cols is None and converters is None:
        arr = _fast_table(src, dt, delim, markers, skip, rows)
    if arr is None:
        arr = _python_table(src, dt, delim, markers, skip, rows, cols, converters, byte_converters)
    arr = _shaped(arr, nd)
    if arr.shape and arr.shape[0] == 0:
        warnings.warn(f'loadtxt: input contained no data: "{fname}"', UserWarning, stacklevel=2)
    return arr.T if unpack else arr


# ---- genfromtxt ---------------------------------------------------------------------


def _fixed_widths(delimiter: Any) -> list[int] | None:
    """genfromtxt's fixed-width fields: an int (every field that wide) is
    returned as [width], a sequence of ints as itself."""
    if isinstance(delimiter, bool):
        return None
    if isinstance(delimiter, int):
        return [delimiter]
    if isinstance(delimiter, (list, tuple)) and all(isinstance(w, int) for w in delimiter):
        return list(delimiter)
    return None


def _splitter(delimiter: Any, autostrip: bool) -> Callable[[str], list[str]]:
    """genfromtxt's field splitter (NumPy's ``LineSplitter``): whitespace
    runs, a delimiter string, or fixed widths."""
    widths = _fixed_widths(delimiter)
    if isinstance(delimiter, bytes):
        delimiter = delimiter.decode("latin-1")
    if widths is not None:
        def split_fixed(line: str) -> list[str]:
            if len(widths) == 1:
                w = widths[0]
                spans = [(i, i + w) for i in range(0, len(line), w)]
            else:
                edges = [0]
                for w in widths:
                    edges.append(edges[-1] + w)
                spans = list(itertools.pairwise(edges))
            return [line[a:b].strip() for a, b in spans]
        return split_fixed
    if delimiter is None:
        return lambda line: line.split()
    if not isinstance(delimiter, str):
        raise TypeError(f"genfromtxt: delimiter must be a string, an int or a sequence of ints, got {delimiter!r}")

    def split_delim(line: str) -> list[str]:
        if not line.strip(" \t"):
            return []
        fields = line.split(delimiter)
        return [f.strip() for f in fields] if autostrip else fields
    return split_delim


# what an empty or unreadable field becomes, by kind (NumPy's
# StringConverter defaults)
_DEFAULT_FILL = {"f": math.nan, "c": complex(math.nan, 0.0), "i": -1, "u": -1, "b": False}


def _loose(dt: _dt.DType) -> Callable[[str], Any]:
    """genfromtxt's reading of a field: Python's own number syntax (NumPy's
    StringConverter calls int, float, complex), booleans as 'True' and
    'False'; ValueError when it does not read."""
    if dt.kind == "b":
        def parse_bool(s: str) -> bool:
            u = s.strip().upper()
            if u in ("TRUE", "FALSE"):
                return u == "TRUE"
            raise ValueError(s)
        return parse_bool
    kind_fn: Callable[[str], Any] = {"f": float, "c": complex}.get(dt.kind, int)

    def parse(s: str) -> Any:
        return kind_fn(s.strip() if dt.kind == "c" else s)
    return parse


def _infer(rows: list[list[str]], ncols: int) -> _dt.DType:
    """genfromtxt's ``dtype=None``: the narrowest of bool, int64, float64,
    complex128 that reads every field, one for all columns (different
    ones would make a structured array, which minarray does not hold)."""
    order: list[tuple[_dt.DType, Callable[[str], Any]]] = [
        (_dt.bool, _loose(_dt.bool)), (_dt.int64, int), (_dt.float64, float), (_dt.complex128, complex)]
    chosen = []
    for c in range(ncols):
        for dt, fn in order:
            try:
                for r in rows:
                    if c < len(r) and r[c].strip():
                        fn(r[c].strip())
                chosen.append(dt)
                break
            except ValueError:
                continue
        else:
            raise TypeError("genfromtxt: dtype=None found a column of strings: string arrays are not "
                            "supported by minarray")
    if len(set(chosen)) > 1:
        raise TypeError(f"genfromtxt: dtype=None found columns of different types ({', '.join(map(str, chosen))}):"
                        f" a structured array, which minarray does not support")
    return chosen[0] if chosen else _dt.float64


def _missing_strings(missing_values: Any) -> set[str]:
    """The placeholders of missing fields, the empty field among them: a
    comma-separated str, a sequence, or a dict of either by column (NumPy's
    forms); only ``loose=False`` asks, to tell them from bad numbers."""
    out = {""}
    values = missing_values.values() if isinstance(missing_values, dict) else [missing_values]
    for v in values:
        if v is None:
            continue
        items = v.split(",") if isinstance(v, str) else v if isinstance(v, (list, tuple)) else [v]
        out.update(str(i).strip() for i in items)
    return out


def _fills(filling_values: Any, ncols: int, dt: _dt.DType) -> list[Any]:
    """Each column's value for a field that does not read."""
    fills = [_DEFAULT_FILL[dt.kind]] * ncols
    if filling_values is None:
        return fills
    if isinstance(filling_values, dict):
        for k, v in filling_values.items():
            fills[int(k) % ncols] = v
    elif isinstance(filling_values, (list, tuple)):
        for i, v in enumerate(filling_values[:ncols]):
            fills[i] = v
    else:
        fills = [filling_values] * ncols
    return fills


def genfromtxt(fname: Any, dtype: Any = float, comments: Any = "#", delimiter: Any = None, skip_header: int = 0,
               skip_footer: int = 0, converters: Any = None, missing_values: Any = None,
               filling_values: Any = None, usecols: Any = None, names: Any = None, excludelist: Any = None,
               deletechars: Any = None, replace_space: str = "_", autostrip: bool = False,
               case_sensitive: Any = True, defaultfmt: str = "f%i", unpack: bool | None = None,
               usemask: bool = False, loose: bool = True, invalid_raise: bool = True,
               max_rows: int | None = None, encoding: str | None = None, *, ndmin: int = 0,
               like: Any = None) -> Any:
    """Read a table of numbers with missing values (NumPy's ``genfromtxt``):
    as :func:`loadtxt`, and a field that is empty or does not read as a
    number becomes its column's filling value (``filling_values``: one, a
    sequence by column or a dict; default NaN for floats, -1 for integers).
    ``missing_values`` name the placeholders, which read as missing because
    they are not numbers (as in NumPy, a placeholder that is a number is
    read as that number).  ``skip_header``/``skip_footer`` drop lines at
    either end; ``delimiter`` may be a width or a sequence of widths.  A
    row of another width raises ValueError listing the lines (with
    ``invalid_raise=False`` it is dropped with a ConversionWarning).
    With ``loose=False`` a field that is neither a number nor a missing
    placeholder raises ValueError.
    ``dtype=None`` picks one numeric type for the table; structured dtypes,
    ``names`` and ``usemask`` are not supported (TypeError)."""
    if like is not None:
        raise TypeError("genfromtxt: like= is not supported by minarray")
    if names not in (None, False):
        raise TypeError("genfromtxt: names= makes a structured array, which minarray does not support")
    if usemask:
        raise TypeError("genfromtxt: usemask=True makes a masked array, which minarray does not support")
    if max_rows is not None and skip_footer:
        raise ValueError("The keywords 'skip_footer' and 'max_rows' can not be specified at the same time.")
    if max_rows is not None and max_rows < 1:
        raise ValueError("'max_rows' must be at least 1.")
    nd = _check_ndmin(ndmin)
    dt = None if dtype is None else _table_dtype(dtype, "genfromtxt")
    markers = _comment_markers(comments)
    split = _splitter(delimiter, autostrip)
    cols = _usecols(usecols)
    if converters is not None and not isinstance(converters, dict):
        raise TypeError(f"The input argument 'converter' should be a valid dictionary (got {type(converters)} "
                        f"instead)")
    src = _Source(fname, encoding)
    head, foot = as_int(skip_header, "genfromtxt: skip_header"), as_int(skip_footer, "genfromtxt: skip_footer")
    lines = list(src.lines())[head:]
    if foot:
        lines = lines[:max(len(lines) - foot, 0)]
    # the rows, with each one's line number as NumPy counts it: from the
    # first row with fields, after the header
    rows: list[tuple[int, list[str]]] = []
    first = -1
    for i, line in enumerate(lines):
        fields = split(_cut_comment(line, markers))
        if not fields:
            continue
        if first < 0:
            first = i
        rows.append((i - first + head + 1, fields))
    if not rows:
        warnings.warn(f'genfromtxt: Empty input file: "{fname}"', UserWarning, stacklevel=2)
        return NDArray._empty((0,), _dt.float64 if dt is None else dt)
    ncols = len(rows[0][1])
    picked = list(range(ncols)) if cols is None else [c % ncols for c in cols]
    need = max(picked) + 1 if cols is not None else ncols
    good: list[list[str]] = []
    invalid: list[tuple[int, int]] = []
    for lineno, fields in rows:
        if (cols is None and len(fields) != ncols) or len(fields) < need:
            invalid.append((lineno, len(fields)))
            continue
        good.append([fields[c] for c in picked])
        if max_rows is not None and len(good) == max_rows:
            break
    if invalid:
        want = ncols if cols is None else len(picked)
        msg = "Some errors were detected !" + "".join(
            f"\n    Line #{n} (got {k} columns instead of {want})" for n, k in invalid)
        if invalid_raise:
            raise ValueError(msg)
        warnings.warn(msg, ConversionWarning, stacklevel=2)
    width = len(picked)
    if dt is None:
        dt = _infer(good, width)
    fills = _fills(filling_values, width, dt)
    conv = {int(k) % ncols: fn for k, fn in (converters or {}).items()}
    parse = _loose(dt)
    missing = _missing_strings(missing_values)
    values: list[Any] = []
    for r in good:
        for j, s in enumerate(r):
            fn = conv.get(picked[j])
            try:
                values.append(_as_element(fn(s), dt) if fn is not None else parse(s))
            except (ValueError, TypeError):
                if not loose and s.strip() not in missing:
                    raise ValueError(f"Cannot convert string '{s}'") from None
                values.append(fills[j])
    wide = {"f": _dt.float64, "c": _dt.complex128}.get(dt.kind, dt)
    arr = asarray(values, dtype=wide).astype(dt, copy=False).reshape((len(good), width))
    arr = _shaped(arr, nd)
    return arr.T if unpack else arr


# ---- savetxt ------------------------------------------------------------------------


def _row_format(fmt: Any, delimiter: str, ncol: int, is_complex: bool) -> str:
    """The %-format of one row, as NumPy builds it from ``fmt``."""
    if type(fmt) in (list, tuple):
        if len(fmt) != ncol:
            raise AttributeError(f"fmt has wrong shape.  {fmt!s}")
        return delimiter.join(fmt)
    if not isinstance(fmt, str):
        raise ValueError(f"invalid fmt: {fmt!r}")
    n = fmt.count("%")
    if n == 1:
        # complex: each number as " (re+imj)", NumPy's spelling
        return delimiter.join([f" ({fmt}+{fmt}j)" if is_complex else fmt] * ncol)
    if n != (2 * ncol if is_complex else ncol):
        raise ValueError(f"fmt has wrong number of % formats:  {fmt}")
    return fmt


def savetxt(fname: Any, X: Any, fmt: Any = "%.18e", delimiter: str = " ", newline: str = "\n", header: str = "",
            footer: str = "", comments: str = "# ", encoding: str | None = None) -> None:
    """Write a 1-d or 2-d array as text (NumPy's ``savetxt``), one row a
    line: ``fmt`` a %-format for every value, one per column (a sequence),
    or a whole row's; ``delimiter`` between columns, ``newline`` after each
    line; ``header`` and ``footer`` written as comment lines (each line
    prefixed by ``comments``).  Complex values are written ``(re+imj)``.
    A name ending ``.gz`` (``.bz2``, ``.xz``) is compressed; an open file
    may be text or binary (encoded with ``encoding``, default latin-1)."""
    x = asarray(X)
    if x.ndim == 0 or x.ndim > 2:
        raise ValueError(f"Expected 1D or 2D array, got {x.ndim}D array instead")
    if x.ndim == 1:
        x = x.reshape((-1, 1))
    is_complex = x.dtype.kind == "c"
    row_fmt = _row_format(fmt, delimiter, x.shape[1], is_complex)
    out: list[str] = []
    if header:
        out.append(comments + header.replace("\n", "\n" + comments) + newline)
    rows = x.tolist()
    if is_complex:
        for row in rows:
            parts: list[float] = []
            for z in row:
                parts.extend((z.real, z.imag))
            out.append((row_fmt % tuple(parts) + newline).replace("+-", "-"))
    else:
        for row in rows:
            try:
                out.append(row_fmt % tuple(row) + newline)
            except TypeError as e:
                raise TypeError(f"Mismatch between array dtype ('{x.dtype}') and format specifier "
                                f"('{row_fmt}')") from e
    if footer:
        out.append(comments + footer.replace("\n", "\n" + comments) + newline)
    text = "".join(out)
    if isinstance(fname, os.PathLike):
        fname = os.fspath(fname)
    if isinstance(fname, str):
        opener = _OPENERS.get(os.path.splitext(fname)[1], open)
        with opener(fname, "wt", encoding=encoding) as fh:
            fh.write(text)
    elif hasattr(fname, "write"):
        try:
            fname.write(text)
        except TypeError:  # a binary stream
            fname.write(text.encode(encoding or "latin-1"))
    else:
        raise ValueError("fname must be a string or file handle")
