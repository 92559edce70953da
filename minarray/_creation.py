"""Creation functions (Array API "Creation Functions"): empty/zeros/ones/full
and their ``_like`` forms, arange, linspace, eye, tril/triu and meshgrid;
and beside them NumPy's constructors: ``array``, ``copy``, ``asanyarray``,
``ascontiguousarray``, ``identity``, ``diag``, ``diagflat``, ``tri``,
``vander``, ``logspace``, ``geomspace``, ``indices``, ``fromfunction``,
``fromiter`` and the ``mgrid``/``ogrid`` grids.  (``asarray`` is the
coercion every function applies: minarray/_coerce.py; ``frombuffer`` lives
with the other byte-level routines in minarray/_io.py.)

Each is one allocation and C fills or copies: ``diag`` writes through a
strided view of a zeroed matrix, ``logspace`` raises ``base`` to
:func:`minarray.linspace`'s values as NumPy does.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any, Literal, overload

from minarray import _dtypes as _dt
from minarray import _subclass
from minarray._array_object import NDArray, _stride_perm
from minarray._coerce import _device, _scalar_dtype, as_int, as_intp, as_ints, as_operand, asarray, normalize_axis
from minarray._joining import stack
from minarray._native import core

__all__ = [
    "empty", "empty_like", "zeros", "zeros_like", "ones", "ones_like", "full", "full_like", "arange",
    "linspace", "eye", "tril", "triu", "meshgrid", "array", "copy", "asanyarray", "ascontiguousarray",
    "identity", "diag", "diagflat", "tri", "logspace", "geomspace", "indices", "fromfunction", "mgrid",
    "ogrid", "vander", "fromiter", "asfortranarray", "asarray_chkfinite", "require",
]


# Ints below this magnitude convert to float64 exactly (arange's fast path).
_EXACT = 2**53


def _shape(shape: Any) -> tuple[int, ...]:
    """``shape`` (an integer, or a tuple or list of them) as a tuple of
    ints, with empty's errors: C's shape rule (csrc/py/ndarray.c)."""
    dims: tuple[int, ...] = core.shape_tuple(shape)
    return dims


def _new(shape: Any, dtype: Any, device: Any, zero: bool) -> NDArray:
    if device is not None:
        _device(device)
    # one C call (csrc/py/ndarray.c), the shape's and the dtype's errors
    # included (C asks _dtypes.as_dtype about a dtype that is not a DType)
    made: NDArray = core.ndarray_empty(shape, _dt.float64 if dtype is None else dtype, zero)
    return made


def _in_order(x: NDArray, order: str) -> NDArray:
    """A new C-ordered ``x`` laid out as NumPy's ``order=`` of a creation
    function asks: "C" as it is, "F" Fortran-ordered (a copy; NumPy allows
    no other order there)."""
    if order == "C":
        return x
    if order == "F":
        return x if x.ndim < 2 else x.copy("F")
    raise ValueError(f"only 'C' or 'F' order is permitted, not {order!r}")


def empty(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> NDArray:
    """A new array of ``shape`` whose contents are whatever the memory held (default dtype
    float64); NumPy's positional order and ``order=``."""
    if device is None and order == "C":  # the common call, one frame: _new's one C call inlined
        made: NDArray = core.ndarray_empty(shape, _dt.float64 if dtype is None else dtype, False)
        return made
    made = _new(shape, dtype, device, False)
    return made if order == "C" else _in_order(made, order)


def zeros(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> NDArray:
    """A new array of ``shape`` filled with zeros (default dtype float64)."""
    if device is None and order == "C":  # the common call, one frame: _new's one C call inlined
        made: NDArray = core.ndarray_empty(shape, _dt.float64 if dtype is None else dtype, True)
        return made
    made = _new(shape, dtype, device, True)
    return made if order == "C" else _in_order(made, order)


def full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> NDArray:
    """A new array of ``shape`` filled with ``fill_value``; without ``dtype`` the value decides
    it (bool, int64, float64 or complex128).  An array ``fill_value`` (a list...) is
    broadcast to ``shape``, as NumPy's, and gives its dtype."""
    _device(device)
    if isinstance(fill_value, (bool, int, float, complex)):
        dt = _scalar_dtype(fill_value) if dtype is None else _dt.as_dtype(dtype)
        out = _new(shape, dt, None, False)
        core.fill(out._h, fill_value)
    else:
        value = asarray(fill_value, dtype=dtype)
        out = _new(shape, value.dtype, None, False)
        core.copyto(out._h, value._h)
    return out if order == "C" else _in_order(out, order)


def ones(shape: Any, dtype: Any = None, order: str = "C", *, device: Any = None) -> NDArray:
    """A new array of ``shape`` filled with ones (default dtype float64)."""
    return full(shape, 1, dtype if dtype is not None else _dt.float64, order, device=device)


def _like(name: str, x: Any, dtype: Any, order: str, shape: Any, device: Any, fill: Any,
          subok: bool = True) -> NDArray:
    """A ``*_like`` result: ``x``'s shape and dtype unless given, filled
    with ``fill`` (None: left uninitialised), of ``x``'s subclass unless
    ``subok`` is False (NumPy's default keeps it)."""
    made = _made_like(name, x, dtype, order, shape, device, fill)
    if type(x) is NDArray or not subok or not _subclass.instance(x):
        return made
    out: NDArray = _subclass.kept(made, x, True)
    return out


def _made_like(name: str, x: Any, dtype: Any, order: str, shape: Any, device: Any, fill: Any) -> NDArray:
    """:func:`_like`'s new plain array.  NumPy's memory order: "K" keeps
    ``x``'s (the order of its strides), "A" keeps a Fortran ``x``
    Fortran, "C" and "F" are themselves."""
    x = as_operand(x, name)
    dt = _dt.as_dtype(dtype) if dtype is not None else x.dtype
    if order in ("K", "A"):
        kept = shape is None and x.ndim > 1 and not core.is_contiguous(x._h, False)
        fortran = kept and core.is_contiguous(x._h, True)
        if kept and order == "K" and not fortran:
            return _strided_like(x, dt, device, fill)
        order = "F" if fortran else "C"
    shp = x.shape if shape is None else shape
    if fill is None:
        return empty(shp, dt, order, device=device)
    if type(fill) is int and fill == 0:
        return zeros(shp, dt, order, device=device)
    return full(shp, fill, dt, order, device=device)


def _strided_like(x: NDArray, dt: _dt.DType, device: Any, fill: Any) -> NDArray:
    """A new array laid out in memory as ``x`` is: its axes, from the
    largest stride to the smallest, are the C order of the memory
    (NumPy's ``order="K"`` of an array neither C- nor Fortran-ordered)."""
    perm = _stride_perm(x._strides)
    made = empty(tuple(x.shape[p] for p in perm), dt, device=device).transpose(
        tuple(perm.index(d) for d in range(x.ndim)))
    if fill is not None:
        core.copyto(made._h, asarray(fill, dtype=dt)._h)
    return made


def empty_like(x: NDArray, /, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None, *,
               device: Any = None) -> NDArray:
    """An uninitialised array with the shape (and, unless given, the dtype) of ``x``."""
    return _like("empty_like", x, dtype, order, shape, device, None, subok)


def zeros_like(x: NDArray, /, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None, *,
               device: Any = None) -> NDArray:
    """Zeros with the shape (and, unless given, the dtype) of ``x``."""
    return _like("zeros_like", x, dtype, order, shape, device, 0, subok)


def ones_like(x: NDArray, /, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None, *,
              device: Any = None) -> NDArray:
    """Ones with the shape (and, unless given, the dtype) of ``x``."""
    return _like("ones_like", x, dtype, order, shape, device, 1, subok)


def full_like(x: NDArray, /, fill_value: Any, dtype: Any = None, order: str = "K", subok: bool = True,
              shape: Any = None, *, device: Any = None) -> NDArray:
    """``fill_value`` in the shape (and, unless given, the dtype) of ``x``;
    an array ``fill_value`` is broadcast to it (cast as NumPy casts it)."""
    if not isinstance(fill_value, (bool, int, float, complex)):
        target = dtype if dtype is not None else as_operand(x, "full_like").dtype
        # None is NumPy's object None cast to the dtype (NaN in floats)
        fill_value = asarray(None, dtype=target) if fill_value is None else asarray(fill_value).astype(target)
    return _like("full_like", x, dtype, order, shape, device, fill_value, subok)


def _real_number(v: Any, what: str) -> int | float:
    """``v`` as a Python int or float (NumPy scalars and 0-d arrays too)."""
    if isinstance(v, bool) or (hasattr(v, "dtype") and getattr(v.dtype, "kind", "") == "b"):
        raise TypeError(f"{what} must be an int or a float, not a bool")
    if isinstance(v, (int, float)):
        return v
    try:
        return operator.index(v)
    except TypeError:
        pass
    if isinstance(v, complex) or not hasattr(v, "__float__"):
        raise TypeError(f"{what} must be an int or a float, got {type(v).__name__}")
    return float(v)


def arange(start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None) -> NDArray:
    """Array API ``arange``: values from ``start`` to ``stop`` (excluded) by ``step``.

    The length is ``ceil((stop - start) / step)`` and the values are NumPy's
    bit for bit: elements 0 and 1 are ``start`` and ``start + step``, the
    rest ``e0 + i * (e1 - e0)`` in the dtype's arithmetic (filled in C)."""
    if dtype is None and device is None and type(start) is int and type(step) is int and (
        stop is None or type(stop) is int
    ):
        # Exact ints (type() rules out bool) small enough that every check
        # below passes: the same int64 result without the general route's
        # conversions, ~4x faster for small ranges.
        lo, hi = (0, start) if stop is None else (start, stop)
        if step and -_EXACT < lo < _EXACT and -_EXACT < hi < _EXACT and -_EXACT < step < _EXACT:
            made: NDArray = core.ndarray_empty(max(0, math.ceil((hi - lo) / step)), _dt.int64, False)
            core.arange_fill(made._h, lo, lo + step)
            return made
    _device(device)
    # the dtype first: arange of dates (dtype=datetime64) is refused for the
    # dtype, which is what minarray lacks, not for its string bounds
    given = None if dtype is None else _dt.as_dtype(dtype)
    if stop is None:
        start, stop = 0, start
    start = _real_number(start, "start")
    stop = _real_number(stop, "stop")
    step = _real_number(step, "step")
    if step == 0:
        raise ValueError("arange step must not be zero")
    if not all(math.isfinite(v) for v in (start, stop, step)):
        raise ValueError(f"arange arguments must be finite, got start={start}, stop={stop}, step={step}")
    n = max(0, math.ceil((stop - start) / step))
    if given is None:
        dt = _dt.int64 if all(isinstance(v, int) for v in (start, stop, step)) else _dt.float64
    else:
        dt = given
    if dt.wide is not None:
        # a storage type (float8...) has no arithmetic: fill its wide type, round
        return arange(start, stop, step, dtype=dt.wide).astype(dt)
    out = NDArray._empty((n,), dt)
    core.arange_fill(out._h, start, start + step)
    return out


@overload
def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: Literal[False] = False,
             dtype: Any = None, axis: int = 0, *, device: Any = None) -> NDArray: ...


@overload
def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, *, retstep: Literal[True],
             dtype: Any = None, axis: int = 0, device: Any = None) -> tuple[NDArray, Any]: ...


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False,
             dtype: Any = None, axis: int = 0, *, device: Any = None) -> Any:
    """``num`` evenly spaced values from ``start`` to ``stop`` (the Array API's
    ``linspace``, with NumPy's defaults and ``retstep``: then ``(values,
    step)``).  Computed like NumPy (in float64, or complex128 for complex
    bounds, ``i * step + start``, the last value exactly ``stop``), then cast;
    integer dtypes round down first, as NumPy does.  Array bounds broadcast
    together, their samples along ``axis`` of the result (NumPy's rule)."""
    if not (_is_scalar(start) and _is_scalar(stop)):
        return _linspace_of_arrays(start, stop, num, endpoint, retstep, dtype, axis, device)
    if axis != 0:  # NumPy moves the samples' axis only then
        normalize_axis(axis, 1)
    values = _linspace(start, stop, num, dtype, device, endpoint)
    if not retstep:
        return values
    n = as_int(num, "linspace: num")
    div = (n - 1) if endpoint else n
    if div <= 0:
        return values, float("nan")  # (NumPy's: a Python float)
    step = (stop - start) / div
    # NumPy's step is its float64 (complex128) scalar
    return values, (_dt.complex128 if isinstance(step, complex) else _dt.float64)(step)


def _linspace_of_arrays(start: Any, stop: Any, num: Any, endpoint: bool, retstep: bool, dtype: Any, axis: int,
                        device: Any) -> Any:
    _device(device)
    y, step = _spaced_arrays(start, stop, num, endpoint, axis)
    if dtype is not None:
        dt = _dt.as_dtype(dtype)
        if dt.kind in "iu":  # NumPy rounds down before the cast
            from minarray._elementwise import floor  # cycle: _elementwise imports this module

            y = floor(y)
        y = y.astype(dt)
    return (y, step) if retstep else y


def _spaced_arrays(start: Any, stop: Any, num: Any, endpoint: bool, axis: int) -> tuple[NDArray, Any]:
    """NumPy's ``linspace`` of array bounds, and its step: ``i * step +
    start`` (``i / div * delta`` where a step is 0), the last row exactly
    ``stop``, the samples moved from the first axis to ``axis``."""
    from minarray._elementwise import add, divide, equal, multiply, subtract  # cycle: _elementwise imports this module
    from minarray._manipulation import moveaxis  # cycle: _manipulation imports this module
    from minarray._utility import any  # cycle: _utility imports this module

    s, e = (asarray(v) for v in (start, stop))
    s, e = (v if v.dtype.kind == "c" else v.astype(_dt.float64) for v in (s, e))
    n = as_int(num, "linspace: num")
    if n < 0:
        raise ValueError(f"Number of samples, {n}, must be non-negative.")
    div = (n - 1) if endpoint else n
    delta = subtract(e, s)
    y = arange(n, dtype=_dt.float64).reshape((n,) + (1,) * delta.ndim)
    step: Any = float("nan")
    if div > 0:
        step = divide(delta, float(div))
        y = multiply(divide(y, float(div)), delta) if bool(any(equal(step, 0))) else multiply(y, step)
    else:
        y = multiply(y, delta)
    y = add(y, s)
    if endpoint and n > 1:
        y[-1] = e
    return (moveaxis(y, 0, axis) if axis != 0 else y), step


def _linspace(start: Any, stop: Any, num: int, dtype: Any, device: Any, endpoint: bool) -> NDArray:
    _device(device)
    num = as_int(num, "linspace: num")
    if num < 0:
        raise ValueError(f"number of samples must be non-negative, got {num}")
    is_complex = any(isinstance(v, complex) or getattr(getattr(v, "dtype", None), "kind", "") == "c"
                     for v in (start, stop))
    if not is_complex:
        start = _real_number(start, "start")
        stop = _real_number(stop, "stop")
    dt = _dt.as_dtype(dtype) if dtype is not None else (_dt.complex128 if is_complex else _dt.float64)
    if is_complex and dt.kind != "c":
        raise TypeError(f"linspace with complex bounds needs a complex dtype, not {dt}")
    work_dt = _dt.complex128 if is_complex else _dt.float64
    div = (num - 1) if endpoint else num
    work = NDArray._empty((num,), work_dt)
    core.linspace_fill(work._h, start, stop, div, bool(endpoint), dt.kind in "iu")
    return work if dt is work_dt else work.astype(dt)


def eye(N: int, M: int | None = None, k: int = 0, dtype: Any = None, order: str = "C", *,
        device: Any = None) -> NDArray:
    """A 2-d array of ``N`` rows and ``M`` columns (``N`` when None) with ones on diagonal ``k``
    (0: main, >0: above, <0: below) and zeros elsewhere; NumPy's parameters (the Array API's
    ``n_rows`` and ``n_cols`` are positional)."""
    n_rows, n_cols = N, (N if M is None else M)
    k = as_int(k, "eye: k")
    out = zeros((n_rows, n_cols), dtype=dtype, device=device)
    if n_rows and n_cols:
        start = k if k >= 0 else -k * n_cols
        count = min(n_rows - max(-k, 0), n_cols - max(k, 0))
        if count > 0:
            diag = out.reshape(-1)[start:start + count * (n_cols + 1):n_cols + 1]
            core.fill(diag._h, 1)
    return out if order == "C" else _in_order(out, order)


def _tri(x: NDArray, k: int, lower: bool) -> NDArray:
    if x.ndim < 2:
        raise ValueError(f"{'tril' if lower else 'triu'} needs at least 2 dimensions, got {x.ndim}")
    out = x.copy()  # C-contiguous: the C kernel zeroes the other triangle row by row
    core.tri_zero(out._h, as_int(k, f"{'tril' if lower else 'triu'}: k"), lower)
    return out


def tril(x: NDArray, /, k: int = 0) -> NDArray:
    """A copy of ``x`` with the elements above diagonal ``k`` of its last two axes set to zero."""
    if type(x) is not NDArray:  # NumPy's gives a plain array
        x = _subclass.plain(x)
    return _tri(as_operand(x, "tril"), k, True)


def triu(x: NDArray, /, k: int = 0) -> NDArray:
    """A copy of ``x`` with the elements below diagonal ``k`` of its last two axes set to zero."""
    if type(x) is not NDArray:  # NumPy's gives a plain array
        x = _subclass.plain(x)
    return _tri(as_operand(x, "triu"), k, False)


def meshgrid(*arrays: NDArray, copy: bool = True, sparse: bool = False, indexing: str = "xy") -> tuple[NDArray, ...]:
    """Coordinate arrays from 1-d arrays: ``indexing="xy"`` (Cartesian, the default) or ``"ij"``
    (matrix).  A tuple (Array API 2025.12, and NumPy 2).  NumPy's ``sparse=True`` leaves each
    array of length 1 but along its own axis (they broadcast to the grid), and ``copy=False``
    gives read-only views instead of new arrays."""
    from minarray._manipulation import broadcast_to  # cycle: _manipulation imports this module

    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing must be 'xy' or 'ij', got {indexing!r}")
    # the Array API's inputs are 1-d; NumPy flattens any other
    arrays = tuple(as_operand(a, "meshgrid").reshape((-1,)) for a in arrays)
    if arrays and len({a.dtype for a in arrays}) > 1:
        raise ValueError("meshgrid arrays must share one dtype")
    shape = [a.shape[0] for a in arrays]
    if indexing == "xy" and len(arrays) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, a in enumerate(arrays):
        s = [1] * len(arrays)
        axis = i
        if indexing == "xy" and len(arrays) >= 2 and i < 2:
            axis = 1 - i
        s[axis] = a.shape[0]
        grid = a.reshape(tuple(s)) if sparse else broadcast_to(a.reshape(tuple(s)), tuple(shape), subok=True)
        out.append(grid.copy() if copy else grid)
    return tuple(out)


def array(object: Any, dtype: Any = None, *, copy: bool | None = True, order: str = "K", ndmin: int = 0) -> NDArray:
    """NumPy's ``array``: a new array from ``object`` (nested sequences,
    scalars, buffers, NDArrays or other arrays).  Unlike :func:`asarray`
    it copies by default; ``copy=None`` copies only when needed and
    ``copy=False`` never (ValueError when it would have to).  ``ndmin``
    prepends length-1 axes up to that many dimensions; ``order`` is
    :func:`asarray`'s."""
    out = asarray(object, dtype, order, copy=copy)
    nd = as_int(ndmin, "array: ndmin")
    if out.ndim < nd:
        out = out.reshape((1,) * (nd - out.ndim) + out.shape)
    return out


def copy(a: Any, order: str = "K", subok: bool = False) -> NDArray:
    """A copy of ``a`` that owns its memory (NumPy's ``copy``: the axes keep
    their memory order with the default ``order="K"``; a plain array unless
    ``subok`` keeps a subclass's class)."""
    x = as_operand(a, "copy")
    return (x if subok or type(x) is NDArray else asarray(x)).copy(order)


def asanyarray(a: Any, dtype: Any = None, order: str | None = None, *, device: Any = None,
               copy: bool | None = None) -> NDArray:
    """NumPy's ``asanyarray``: :func:`asarray`, but an instance of a
    subclass of NDArray passes through as itself (cast when ``dtype``
    differs, still of its class); ``order``, ``device`` and ``copy`` are
    :func:`asarray`'s."""
    if isinstance(a, NDArray) and (order is None or order == "K") and device is None and copy is None:
        return a if dtype is None else a.astype(dtype, copy=False)
    return asarray(a, dtype, order, device=device, copy=copy)


def ascontiguousarray(a: Any, dtype: Any = None) -> NDArray:
    """``a`` as a C-contiguous array of at least one dimension: itself when
    it already is one (and of ``dtype``), else a copy."""
    out = asarray(a, dtype=dtype)
    if out.ndim == 0:
        out = out.reshape((1,))
    return out if out.flags.c_contiguous else out.copy()


def asfortranarray(a: Any, dtype: Any = None) -> NDArray:
    """``a`` as a Fortran-contiguous (column-major) array of at least one
    dimension: itself when it already is one (and of ``dtype``), else a copy."""
    out = asarray(a, dtype=dtype, order="F")
    return out.reshape((1,)) if out.ndim == 0 else out


def asarray_chkfinite(a: Any, dtype: Any = None, order: str | None = None) -> NDArray:
    """:func:`asarray`, refusing (ValueError) a float or complex array that
    holds an infinity or a NaN."""
    from minarray._elementwise import isfinite  # cycle: _elementwise imports this module

    out = asarray(a, dtype, order)
    if out.dtype.kind in "fc" and not bool(isfinite(out).all()):
        raise ValueError("array must not contain infs or NaNs")
    return out


# NumPy's spellings of the flags ``require`` takes, to their letter.
_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
                 "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O",
                 "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a: Any, dtype: Any = None, requirements: Any = None) -> NDArray:
    """``a`` as an array of ``dtype`` that meets ``requirements`` (a flag or
    a sequence of them: "C" contiguous, "F" contiguous, "A" aligned, "W"
    writeable, "O" owning its data, "E" a plain NDArray, not a subclass,
    or NumPy's long names of them): itself when it meets them all, else a
    copy that does."""
    if not requirements:
        return asanyarray(a, dtype=dtype)
    wanted = {_REQUIREMENTS[r.upper()] for r in requirements}
    subok = "E" not in wanted
    wanted.discard("E")
    if {"C", "F"} <= wanted:
        raise ValueError('Cannot specify both "C" and "F" order')
    order = "C" if "C" in wanted else "F" if "F" in wanted else "A"
    wanted -= {"C", "F"}
    arr = asanyarray(a, dtype=dtype) if subok else asarray(a, dtype=dtype)
    if order != "A" and not arr.flags["C" if order == "C" else "F"]:
        arr = arr.copy(order)
    elif any(not arr.flags[flag] for flag in wanted):
        arr = arr.copy(order)
    return arr


def identity(n: int, dtype: Any = None) -> NDArray:
    """The ``n`` x ``n`` identity matrix (float64 unless ``dtype``)."""
    return eye(as_int(n, "identity: n"), dtype=dtype)


def diag(v: Any, k: int = 0) -> NDArray:
    """For a 1-d ``v``, a 2-d array with ``v`` on diagonal ``k``; for a 2-d
    ``v``, its diagonal ``k`` (a read-only view, as NumPy's)."""
    x = as_operand(v, "diag")
    k = as_int(k, "diag: k")
    if x.ndim == 1:
        n = x.shape[0] + abs(k)
        out = zeros((n, n), dtype=x.dtype)
        if x.shape[0]:
            start = k if k >= 0 else -k * n
            core.copyto(out._view(start, x.shape, (n + 1,))._h, x._h)
        return out
    if x.ndim == 2:
        from minarray.linalg._matrix import diagonal  # cycle: linalg._matrix imports this module (through _elementwise)

        return diagonal(x, offset=k)
    raise ValueError(f"Input must be 1- or 2-d (diag got shape {x.shape}).")


def diagflat(v: Any, k: int = 0) -> NDArray:
    """A 2-d array with the flattened ``v`` on diagonal ``k``."""
    if type(v) is not NDArray and _subclass.instance(v):
        return _subclass.through_method(diagflat, v, k)
    return diag(as_operand(v, "diagflat").reshape((-1,)), k)


def tri(N: int, M: int | None = None, k: int = 0, dtype: Any = None) -> NDArray:
    """An ``N`` x ``M`` array with ones at and below diagonal ``k`` and
    zeros above (float64 unless ``dtype``)."""
    n = as_int(N, "tri: N")
    m = n if M is None else as_int(M, "tri: M")
    return tril(ones((n, m), dtype=dtype), k=as_int(k, "tri: k"))


def _bound(v: Any, what: str) -> float:
    if isinstance(v, NDArray):
        if v.ndim:
            raise TypeError(f"{what} must be a scalar here (array bounds are not supported), got shape {v.shape}")
        v = v.item()
    if isinstance(v, complex):
        raise TypeError(f"complex {what} is not supported")
    return float(v)


def _is_scalar(v: Any) -> bool:
    return not isinstance(v, (list, tuple)) and getattr(v, "ndim", 0) == 0


def logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, base: Any = 10.0,
             dtype: Any = None, axis: int = 0) -> NDArray:
    """``num`` numbers spaced evenly on a log scale: ``base ** linspace(start,
    stop, num)``, computed in float64 as NumPy does, then cast to ``dtype``.
    Array ``start``, ``stop`` or ``base`` broadcast together, the samples
    along ``axis`` of the result (NumPy's rule)."""
    from minarray._elementwise import pow as _pow  # cycle: _elementwise imports this module

    if _is_scalar(start) and _is_scalar(stop) and _is_scalar(base):
        complex_bounds = any(isinstance(v, complex) or getattr(getattr(v, "dtype", None), "kind", "") == "c"
                             for v in (start, stop))
        if complex_bounds:  # geomspace's complex logarithms
            y = linspace(asarray(start).item(), asarray(stop).item(), num, endpoint=endpoint)
        else:
            y = linspace(_bound(start, "start"), _bound(stop, "stop"), num, endpoint=endpoint)
        if axis != 0:  # NumPy moves the samples' axis only then
            normalize_axis(axis, 1)
        out = _pow(asarray(base).item() * 1.0, y)
    else:
        out = _pow(*_spaced(start, stop, base, num, endpoint, axis))
    return out if dtype is None else out.astype(dtype)


def _spaced(start: Any, stop: Any, base: Any, num: int, endpoint: bool, axis: int) -> tuple[NDArray, NDArray]:
    """logspace's base and exponents for array arguments: NumPy's rule, the
    three at the dimensions of the largest, the exponents the linspace of
    ``start`` and ``stop`` along ``axis``, and ``base`` expanded there."""
    from minarray._manipulation import expand_dims  # cycle: _manipulation imports this module

    s, e, b = (asarray(v) for v in (start, stop, base))
    nd = max(s.ndim, e.ndim, b.ndim)
    s, e, b = (v.reshape((1,) * (nd - v.ndim) + v.shape) for v in (s, e, b))
    return expand_dims(b, axis=axis), _spaced_arrays(s, e, num, endpoint, axis)[0]


def geomspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None,
              axis: int = 0) -> NDArray:
    """``num`` numbers from ``start`` to ``stop`` in a geometric progression
    (both of one sign, neither zero); the ends are exactly ``start`` and
    ``stop``.  Complex ends follow NumPy: the progression between their
    logarithms after dividing both by ``start``'s direction (a spiral, or a
    straight line when they share one)."""
    if any(isinstance(v, complex) or getattr(getattr(v, "dtype", None), "kind", "") == "c" for v in (start, stop)):
        return _complex_geomspace(complex(asarray(start).item()), complex(asarray(stop).item()), num, endpoint,
                                  dtype)
    a, b = _bound(start, "start"), _bound(stop, "stop")
    if a == 0 or b == 0:
        raise ValueError("Geometric sequence cannot include zero")
    sign = 1.0
    if a < 0 and b < 0:
        a, b, sign = -a, -b, -1.0
    elif a < 0 or b < 0:
        raise ValueError("geomspace: start and stop of opposite signs need complex numbers, "
                         "which minarray's geomspace does not support")
    out = logspace(math.log10(a), math.log10(b), num, endpoint=endpoint, axis=axis)
    n = out.shape[0]
    if n:
        out[0] = a
        if endpoint and n > 1:
            out[-1] = b
    if sign < 0:
        out = -out
    return out if dtype is None else out.astype(dtype)


def _complex_geomspace(a: complex, b: complex, num: int, endpoint: bool, dtype: Any) -> NDArray:
    from minarray._elementwise import divide, log10, multiply, sign  # cycle: _elementwise imports this module

    if a == 0 or b == 0:
        raise ValueError("Geometric sequence cannot include zero")
    direction = sign(asarray(a))
    lo, hi = divide(asarray(a), direction), divide(asarray(b), direction)
    out = logspace(log10(lo).item(), log10(hi).item(), num, endpoint=endpoint)
    n = out.shape[0]
    if n:
        out[0] = lo
        if endpoint and n > 1:
            out[-1] = hi
    out = multiply(direction, out)
    return out if dtype is None else out.astype(dtype)


def indices(dimensions: Sequence[int], dtype: Any = None, sparse: bool = False) -> Any:
    """An array of shape ``(len(dimensions), *dimensions)`` whose ``i``-th
    entry holds each element's index along axis ``i`` (int64 unless
    ``dtype``); with ``sparse=True`` NumPy's tuple of one array a dimension,
    of length 1 on every other axis."""
    from minarray._manipulation import broadcast_to  # cycle: _manipulation imports this module

    dims = as_ints(dimensions, "indices: dimensions entry")
    dt = _dt.int64 if dtype is None else _dt.as_dtype(dtype)
    if sparse:
        return tuple(arange(n, dtype=dt).reshape(tuple(n if j == i else 1 for j in range(len(dims))))
                     for i, n in enumerate(dims))
    out = NDArray._empty((len(dims), *dims), dt)
    for i, n in enumerate(dims):
        axis = arange(n, dtype=dt).reshape(tuple(n if j == i else 1 for j in range(len(dims))))
        if out[i].size:
            core.copyto(out[i]._h, broadcast_to(axis, dims)._h)
    return out


def fromfunction(function: Callable[..., Any], shape: Sequence[int], *, dtype: Any = None,
                 **kwargs: Any) -> Any:
    """``function`` called once with one coordinate array per axis (each of
    ``shape``, float64 unless ``dtype``), as NumPy's ``fromfunction``."""
    dt = _dt.float64 if dtype is None else _dt.as_dtype(dtype)
    return function(*indices(shape, dtype=dt), **kwargs)


class _Grid:
    """``mgrid[0:5, 0:3]`` and ``ogrid[...]``: coordinate grids from slices
    (NumPy's ``nd_grid``).  A step ``Nj`` (imaginary) means N points from
    start to stop inclusive; otherwise the step is arange's.  Integer
    slices give int64, any float float64.  ``mgrid`` stacks dense grids
    in one array; ``ogrid`` gives open (broadcastable) ones."""

    def __init__(self, sparse: bool) -> None:
        self.sparse = sparse

    def __getitem__(self, key: Any) -> Any:
        from minarray._elementwise import add as _add  # cycle: _elementwise imports this module
        from minarray._elementwise import multiply as _mul  # cycle: _elementwise imports this module

        if isinstance(key, slice):
            start = 0 if key.start is None else key.start
            if isinstance(key.step, complex):
                n = int(abs(key.step))
                step = (key.stop - start) / float(n - 1) if n != 1 else 1
                # NumPy: the type of start, stop and the float |step|
                return _add(_mul(arange(0, n, 1, dtype=_dt.float64), step), start)
            return arange(start, key.stop, 1 if key.step is None else key.step)
        keys = tuple(key)
        sizes, steps, starts = [], [], []
        floating = False
        for k in keys:
            if not isinstance(k, slice):
                raise TypeError(f"grid indices must be slices, got {k!r}")
            start = 0 if k.start is None else k.start
            step = 1 if k.step is None else k.step
            if isinstance(step, complex):
                n = int(abs(step))
                sizes.append(n)
                steps.append((k.stop - start) / float(n - 1) if n != 1 else 1)
                floating = True
            else:
                sizes.append(math.ceil((k.stop - start) / (step * 1.0)))
                steps.append(step)
                floating = floating or any(isinstance(v, float) for v in (start, k.stop, step))
            starts.append(start)
        dt = _dt.float64 if floating else _dt.int64
        if not self.sparse and any(n < 0 for n in sizes):
            # NumPy's dense grid of a reversed range has a negative length (ogrid's is empty)
            raise ValueError("negative dimensions are not allowed")
        sizes = [max(n, 0) for n in sizes]
        if self.sparse:
            out = []
            for i, (n, st, s0) in enumerate(zip(sizes, steps, starts, strict=True)):
                g = _add(_mul(arange(n, dtype=dt), st), s0).astype(dt, copy=False)
                out.append(g.reshape(tuple(n if j == i else 1 for j in range(len(sizes)))))
            return tuple(out)
        grid = indices(sizes, dtype=dt)
        parts = [_add(_mul(grid[i], st), s0).astype(dt, copy=False)
                 for i, (st, s0) in enumerate(zip(steps, starts, strict=True))]
        return stack(parts) if parts else grid


mgrid = _Grid(sparse=False)


ogrid = _Grid(sparse=True)


def vander(x: Any, N: int | None = None, increasing: bool = False) -> NDArray:
    """The Vandermonde matrix of the 1-d ``x``: columns ``x**(N-1), ...,
    x, 1`` (the other way round with ``increasing``), built by a
    cumulative product as NumPy's."""
    from minarray._manipulation import broadcast_to  # cycle: _manipulation imports this module
    from minarray._statistical import cumulative_prod  # cycle: _statistical imports this module

    a = as_operand(x, "vander")
    if a.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = a.shape[0] if N is None else as_int(N, "vander: N")
    # NumPy's type: the input's promoted with int64 (float32 gives float64,
    # uint64 float64, bool int64), storage types first widened
    dt = _dt.promote(a.dtype.wide or a.dtype, _dt.int64)
    out = ones((a.shape[0], n), dtype=dt)
    if n > 1:
        cols = broadcast_to(a.astype(dt).reshape((-1, 1)), (a.shape[0], n - 1))
        out[:, 1:] = cumulative_prod(cols, axis=1)
    return out if increasing else out[:, ::-1]


def fromiter(iter: Any, dtype: Any, count: int = -1) -> NDArray:
    """A 1-d array of ``dtype`` from an iterable (its first ``count``
    items when ``count`` is not -1)."""
    count = as_intp(count, "fromiter: count")
    items = list(iter if count < 0 else itertools.islice(iter, count))
    if count >= 0 and len(items) < count:
        raise ValueError(f"iterator too short: Expected {count} but iterator had only {len(items)} items.")
    out = asarray(items, dtype=dtype) if items else zeros((0,), dtype=dtype)
    if out.ndim != 1:  # NumPy reads one scalar per item
        raise ValueError("setting an array element with a sequence.")
    return out


def ndarray_new(cls: type[NDArray], shape: Any, dtype: Any, buffer: Any, offset: Any, strides: Any,
                order: str | None) -> NDArray:
    """NumPy's ``ndarray(shape, dtype, buffer, offset, strides, order)``:
    without ``buffer`` a new uninitialised array (``order`` "C" or "F");
    with one, a view of its memory from byte ``offset`` on, C or Fortran
    ordered, or with byte ``strides``, which must stay inside it."""
    dims = _shape(shape)
    dt = _dt.as_dtype(dtype)
    order = "C" if order is None else order
    if buffer is None:
        # strides= without a buffer lay out NumPy's allocation of
        # prod(shape) elements, which they must stay inside
        arr = empty(dims, dt, order) if strides is None else \
            _buffer_view(empty(math.prod(dims) * dt.itemsize, _dt.uint8), dims, dt, 0, strides, order)
    else:
        arr = _buffer_view(asarray(buffer), dims, dt, as_int(offset, "ndarray: offset"), strides, order)
    return arr if cls is NDArray else arr.view(cls)


def _buffer_view(raw: NDArray, dims: tuple[int, ...], dt: _dt.DType, offset: int, strides: Any,
                 order: str) -> NDArray:
    if not raw.flags.c_contiguous:
        raise ValueError("ndarray: the buffer must be C-contiguous memory")
    if not 0 <= offset <= raw.nbytes:
        raise ValueError(f"offset must be non-negative and no greater than buffer length ({raw.nbytes})")
    data = raw.reshape((-1,)).view(_dt.uint8)[offset:]
    item = dt.itemsize
    whole = data[:data.shape[0] - data.shape[0] % item].view(dt)
    if strides is None:
        n = math.prod(dims)
        if n > whole.shape[0]:
            raise TypeError("buffer is too small for requested array")
        if order == "F":
            return whole[:n].reshape(dims[::-1]).T
        if order != "C":
            raise ValueError(f"only 'C' or 'F' order is permitted, not {order!r}")
        return whole[:n].reshape(dims)
    steps = as_ints(strides, "ndarray: strides entry")
    if len(steps) != len(dims) or any(s % item for s in steps):
        raise ValueError("strides is incompatible with shape of requested array and size of buffer")
    # the span the strides reach, in elements, must lie inside the buffer
    hi = sum((n - 1) * s // item for n, s in zip(dims, steps, strict=True) if s > 0)
    lo = sum((n - 1) * s // item for n, s in zip(dims, steps, strict=True) if s < 0)
    if 0 not in dims and (lo < 0 or hi >= whole.shape[0]):
        raise ValueError("strides is incompatible with shape of requested array and size of buffer")
    return whole._view(0, dims, tuple(s // item for s in steps), bool(raw.flags.writeable) is False)
