"""Array creation: empty/zeros/ones/full (and _like), arange, linspace, eye,
tril/triu, meshgrid and asarray."""

from __future__ import annotations

import math
import operator
import sys
from typing import Any, Literal, overload

from minarray import dtypes as _dt
from minarray._args import as_int
from minarray._native import core
from minarray.ndarray import NDArray, c_strides

__all__ = [
    "asarray", "empty", "empty_like", "zeros", "zeros_like", "ones", "ones_like",
    "full", "full_like", "arange", "linspace", "eye", "tril", "triu", "meshgrid",
]

_SCALARS = (bool, int, float, complex)
_NATIVE_ORDER = "<" if sys.byteorder == "little" else ">"
# Ints below this magnitude convert to float64 exactly (arange's fast path).
_EXACT = 2**53


def _shape(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, (tuple, list)):
        dims = shape
    else:
        dims = (shape,)
    out = []
    for n in dims:
        v = as_int(n, "shape entry")
        if v < 0:
            raise ValueError(f"negative dimensions are not allowed: shape {tuple(dims)}")
        out.append(v)
    return tuple(out)


def _device(device: Any) -> None:
    if device not in (None, "cpu"):
        raise ValueError(f"unsupported device {device!r}: minarray arrays live on 'cpu'")


def _new(shape: Any, dtype: Any, device: Any, zero: bool) -> NDArray:
    if device is None:  # the common case in one C call; None if C declines
        made: NDArray | None = core.ndarray_empty(shape, _dt.float64 if dtype is None else dtype, zero)
        if made is not None:
            return made
    _device(device)
    return NDArray._empty(_shape(shape), _dt.as_dtype(dtype) if dtype is not None else _dt.float64, zero)


def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> NDArray:
    """A new array of ``shape`` whose contents are whatever the memory held (default dtype
    float64)."""
    return _new(shape, dtype, device, False)


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> NDArray:
    """A new array of ``shape`` filled with zeros (default dtype float64)."""
    return _new(shape, dtype, device, True)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> NDArray:
    """A new array of ``shape`` filled with ``fill_value``; without ``dtype`` the value decides
    it (bool, int64, float64 or complex128)."""
    _device(device)
    if isinstance(fill_value, NDArray):
        fill_value = fill_value.item()
    if dtype is None:
        dt = _scalar_dtype(fill_value)
    else:
        dt = _dt.as_dtype(dtype)
    out = _new(shape, dt, None, False)
    core.fill(out._h, fill_value)
    return out


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> NDArray:
    """A new array of ``shape`` filled with ones (default dtype float64)."""
    return full(shape, 1, dtype=dtype if dtype is not None else _dt.float64, device=device)


def _like(x: NDArray, dtype: Any) -> _dt.DType:
    return _dt.as_dtype(dtype) if dtype is not None else x.dtype


def empty_like(x: NDArray, /, *, dtype: Any = None, device: Any = None) -> NDArray:
    """An uninitialised array with the shape (and, unless given, the dtype) of ``x``."""
    return empty(x.shape, dtype=_like(x, dtype), device=device)


def zeros_like(x: NDArray, /, *, dtype: Any = None, device: Any = None) -> NDArray:
    """Zeros with the shape (and, unless given, the dtype) of ``x``."""
    return zeros(x.shape, dtype=_like(x, dtype), device=device)


def ones_like(x: NDArray, /, *, dtype: Any = None, device: Any = None) -> NDArray:
    """Ones with the shape (and, unless given, the dtype) of ``x``."""
    return ones(x.shape, dtype=_like(x, dtype), device=device)


def full_like(x: NDArray, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> NDArray:
    """``fill_value`` in the shape (and, unless given, the dtype) of ``x``."""
    return full(x.shape, fill_value, dtype=_like(x, dtype), device=device)


def _scalar_dtype(v: Any) -> _dt.DType:
    if isinstance(v, bool):
        return _dt.bool
    if isinstance(v, int):
        return _dt.int64
    if isinstance(v, float):
        return _dt.float64
    if isinstance(v, complex):
        return _dt.complex128
    raise TypeError(f"expected a Python scalar (bool, int, float, complex), got {type(v).__name__}")


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
            made: NDArray | None = core.ndarray_empty(max(0, math.ceil((hi - lo) / step)), _dt.int64, False)
            if made is not None:
                core.arange_fill(made._h, lo, lo + step)
                return made
    _device(device)
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
    if dtype is None:
        dt = _dt.int64 if all(isinstance(v, int) for v in (start, stop, step)) else _dt.float64
    else:
        dt = _dt.as_dtype(dtype)
    if dt.wide is not None:
        # a storage type (float8...) has no arithmetic: fill its wide type, round
        return arange(start, stop, step, dtype=dt.wide).astype(dt)
    out = NDArray._empty((n,), dt)
    core.arange_fill(out._h, start, start + step)
    return out


@overload
def linspace(start: Any, stop: Any, /, num: int = 50, endpoint: bool = True, retstep: Literal[False] = False,
             dtype: Any = None, *, device: Any = None) -> NDArray: ...
@overload
def linspace(start: Any, stop: Any, /, num: int = 50, endpoint: bool = True, *, retstep: Literal[True],
             dtype: Any = None, device: Any = None) -> tuple[NDArray, Any]: ...


def linspace(start: Any, stop: Any, /, num: int = 50, endpoint: bool = True, retstep: bool = False,
             dtype: Any = None, *, device: Any = None) -> Any:
    """``num`` evenly spaced values from ``start`` to ``stop`` (the Array API's
    ``linspace``, with NumPy's defaults and ``retstep``: then ``(values,
    step)``).  Computed like NumPy (in float64, or complex128 for complex
    bounds, ``i * step + start``, the last value exactly ``stop``), then cast;
    integer dtypes round down first, as NumPy does."""
    values = _linspace(start, stop, num, dtype, device, endpoint)
    if not retstep:
        return values
    n = as_int(num, "linspace: num")
    div = (n - 1) if endpoint else n
    step = (stop - start) / div if div > 0 else float("nan")
    return values, step


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


def eye(n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None) -> NDArray:
    """A 2-d array with ones on diagonal ``k`` (0: main, >0: above, <0: below) and zeros
    elsewhere."""
    n_cols = n_rows if n_cols is None else n_cols
    k = as_int(k, "eye: k")
    out = zeros((n_rows, n_cols), dtype=dtype, device=device)
    if n_rows and n_cols:
        start = k if k >= 0 else -k * n_cols
        count = min(n_rows - max(-k, 0), n_cols - max(k, 0))
        if count > 0:
            diag = out.reshape(-1)[start:start + count * (n_cols + 1):n_cols + 1]
            core.fill(diag._h, 1)
    return out


def _tri(x: NDArray, k: int, lower: bool) -> NDArray:
    if x.ndim < 2:
        raise ValueError(f"{'tril' if lower else 'triu'} needs at least 2 dimensions, got {x.ndim}")
    out = x.copy()  # C-contiguous: the C kernel zeroes the other triangle row by row
    core.tri_zero(out._h, as_int(k, f"{'tril' if lower else 'triu'}: k"), lower)
    return out


def tril(x: NDArray, /, *, k: int = 0) -> NDArray:
    """A copy of ``x`` with the elements above diagonal ``k`` of its last two axes set to zero."""
    return _tri(x, k, True)


def triu(x: NDArray, /, *, k: int = 0) -> NDArray:
    """A copy of ``x`` with the elements below diagonal ``k`` of its last two axes set to zero."""
    return _tri(x, k, False)


def meshgrid(*arrays: NDArray, indexing: str = "xy") -> tuple[NDArray, ...]:
    """Coordinate arrays from 1-d arrays: ``indexing="xy"`` (Cartesian, the default) or ``"ij"``
    (matrix).  A tuple (Array API 2025.12, and NumPy 2)."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"indexing must be 'xy' or 'ij', got {indexing!r}")
    for a in arrays:
        if a.ndim != 1:
            raise ValueError("meshgrid takes 1-d arrays")
    if arrays and len({a.dtype for a in arrays}) > 1:
        raise ValueError("meshgrid arrays must share one dtype")
    shape = [a.shape[0] for a in arrays]
    if indexing == "xy" and len(arrays) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    from minarray.views import broadcast_to

    out = []
    for i, a in enumerate(arrays):
        s = [1] * len(arrays)
        axis = i
        if indexing == "xy" and len(arrays) >= 2 and i < 2:
            axis = 1 - i
        s[axis] = a.shape[0]
        out.append(broadcast_to(a.reshape(tuple(s)), tuple(shape)).copy())
    return tuple(out)


# ---- asarray ----------------------------------------------------------------

def _numpy_generic(obj: Any) -> bool:
    """Is ``obj`` a NumPy scalar (np.float32(1), np.True_...)?  Checked
    without importing NumPy: if NumPy is not loaded, it cannot be one."""
    np = sys.modules.get("numpy")
    return np is not None and isinstance(obj, np.generic)


def _int_dtype(small: bool, big: bool, huge: bool, sample: Any) -> _dt.DType:
    """The dtype NumPy gives Python ints: int64, uint64 when every one needs
    it, float64 when both kinds mix; beyond 64 bits NumPy would make an
    object array, which minarray does not have."""
    if huge:
        raise OverflowError(
            f"Python integer in {_short(sample)} does not fit in 64 bits; pass dtype=float64 to store it as a float"
        )
    if big:
        return _dt.float64 if small else _dt.uint64
    return _dt.int64


def _short(obj: Any) -> str:
    text = repr(obj)
    return text if len(text) <= 60 else text[:57] + "..."


def _scalar_array(v: Any, dt: _dt.DType | None) -> NDArray:
    if dt is None:
        if isinstance(v, bool):
            dt = _dt.bool
        elif isinstance(v, int):
            dt = _int_dtype(-(2**63) <= v < 2**63, 2**63 <= v < 2**64, not -(2**63) <= v < 2**64, v)
        else:
            dt = _scalar_dtype(v)
    return NDArray._new(core.from_scalar(v, dt.code, dt.bits), (), (), None)


def _from_sequence(obj: Any, dt: _dt.DType | None) -> NDArray:
    """A new array from nested lists/tuples.  Python scalars at the leaves
    are walked and converted in C; anything else (NumPy scalars, arrays,
    other sequences) is converted element by element along the first axis
    and copied in, with the dtypes promoted as NumPy coerces them."""
    info = core.nested_info(obj)
    if info is not None:
        shape, kind, small, big, huge = info
        if dt is None:
            if math.prod(shape) == 0:
                dt = _dt.float64  # no elements to tell: NumPy's default
            elif kind == 1:
                dt = _int_dtype(small, big, huge, obj)
            else:
                dt = (_dt.bool, _dt.int64, _dt.float64, _dt.complex128)[kind]
        h = core.from_nested(obj, shape, dt.code, dt.bits)
        return NDArray._new(h, shape, c_strides(shape), None)
    parts = [asarray(item) for item in obj]
    inner = parts[0].shape
    for p in parts:
        if p.shape != inner:
            raise ValueError(
                f"the nested sequence is ragged: it mixes elements of shapes {inner} and {p.shape}, so it "
                "has no array shape"
            )
    if dt is None:
        dt = parts[0].dtype
        for p in parts[1:]:
            dt = _dt.promote(dt, p.dtype)
    out = NDArray._empty((len(parts), *inner), dt)
    for i, p in enumerate(parts):
        core.copyto(out[i]._h, p._h)
    return out


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None) -> NDArray:
    """Array API ``asarray``.

    Accepts Python scalars, nested lists/tuples (of scalars, NumPy scalars or
    arrays), NDArrays, objects with ``__array_interface__`` (NumPy arrays),
    ``__dlpack__`` or the buffer protocol.  Arrays are shared without a copy
    when dtype and layout allow.  ``copy=True`` always copies; ``copy=False``
    never does and raises ValueError when a copy would be needed (Array API
    2024.12); ``copy=None`` copies only when needed.
    """
    if device is None and type(obj) in (list, tuple) and copy is not False:
        # nested lists or tuples of numbers (exact types: a subclass may
        # export its memory): one C call when C can settle it alone
        dt0 = _dt.as_dtype(dtype) if dtype is not None else None
        made: NDArray | None = core.ndarray_from_nested(obj, dt0)
        return made if made is not None else _from_sequence(obj, dt0)
    if device is None:
        # The common cases first, in as few C calls as possible: a plain
        # numpy.ndarray minarray can view as is (None for anything else, which
        # the general route below takes), or an NDArray.
        made = core.numpy_asarray(obj)
        if made is None and isinstance(obj, NDArray):
            made = obj
        if made is not None:
            if dtype is None:
                return made.copy() if copy else made
            return _finish(made, _dt.as_dtype(dtype), copy, fresh=False)
    _device(device)
    dt = _dt.as_dtype(dtype) if dtype is not None else None
    if isinstance(obj, NDArray):
        return _finish(obj, dt, copy, fresh=False)
    if isinstance(obj, _SCALARS) and not _numpy_generic(obj):  # np.float64 is a float too
        if copy is False:
            raise ValueError("copy=False is impossible for a Python scalar: it has no memory to share")
        return _scalar_array(obj, dt)
    if _numpy_generic(obj):
        if copy is not False:
            # a NumPy scalar: a fresh writeable 0-d array
            return _scalar_array(obj.item(), dt or _dt.as_dtype(obj.dtype))
        from minarray.arrayinterface import from_array_interface

        # Sharing is possible, but read-only: NumPy scalars are immutable
        # (their interface claims otherwise).
        shared = from_array_interface(obj)
        return _finish(shared._view(0, (), (), readonly=True), dt, copy, fresh=False)
    if hasattr(obj, "__array_interface__") and not isinstance(obj, type):
        from minarray import dlpack
        from minarray.arrayinterface import from_array_interface, interface_view

        if not dlpack._numpy_ready:  # NumPy is loaded now: let numpy_asarray see its arrays
            dlpack._enable_numpy_fast_path()

        order = getattr(getattr(obj, "dtype", None), "byteorder", "=")
        if order not in ("=", "|", _NATIVE_ORDER) and hasattr(obj, "astype"):
            # byte-swapped NumPy data: minarray's kernels read native order only
            if copy is False:
                raise ValueError("the source's byte order is not native: a copy is needed, but copy=False")
            return _finish(from_array_interface(obj.astype(obj.dtype.newbyteorder("="))), dt, None, fresh=True)
        arr = interface_view(obj)
        if isinstance(arr, str):
            # strides that are not whole elements, or data not aligned to its
            # elements: element strides cannot describe it, a copy can
            if copy is False:
                raise ValueError(f"{arr}; a copy is needed, but copy=False")
            import numpy as np

            # np.array always makes a fresh, aligned C-contiguous copy
            # (ascontiguousarray hands an unaligned contiguous array back)
            return _finish(from_array_interface(np.array(obj, order="C", copy=True)), dt, None, fresh=True)
        return _finish(arr, dt, copy, fresh=False)
    if hasattr(obj, "__dlpack__") and not isinstance(obj, type):
        from minarray import dlpack

        return _finish(dlpack.from_dlpack(obj), dt, copy, fresh=False)
    if isinstance(obj, (bytes, bytearray, memoryview)) or _has_buffer(obj):
        from minarray.arrayinterface import from_buffer

        try:
            arr = from_buffer(obj, copy_ok=copy is not False)
        except BufferError as e:
            if copy is False:
                raise ValueError(f"{e}; a copy is needed, but copy=False") from None
            raise
        return _finish(arr, dt, copy, fresh=arr.base is None)
    if isinstance(obj, (list, tuple, range)):
        if copy is False:
            raise ValueError(f"copy=False is impossible for a {type(obj).__name__}: it has no array memory to share")
        return _from_sequence(list(obj) if isinstance(obj, range) else obj, dt)
    if isinstance(obj, (str, bytes)) or obj is None:
        raise TypeError(f"cannot convert {type(obj).__name__} {_short(obj)} to a minarray array: not a number")
    if hasattr(obj, "__index__") or hasattr(obj, "__float__") or hasattr(obj, "__complex__"):
        if copy is False:
            raise ValueError(f"copy=False is impossible for a {type(obj).__name__}: it has no memory to share")
        return _scalar_array(_to_python_scalar(obj), dt)
    raise TypeError(
        f"cannot convert {type(obj).__name__} to a minarray array: expected a number, a nested sequence of "
        "numbers, or an object with __array_interface__, __dlpack__ or the buffer protocol"
    )


def _to_python_scalar(obj: Any) -> bool | int | float | complex:
    if hasattr(obj, "__index__"):
        return operator.index(obj)
    if hasattr(obj, "__float__"):
        return float(obj)
    return complex(obj)


def _has_buffer(obj: Any) -> bool:
    if isinstance(obj, (list, tuple, str)):
        return False
    try:
        memoryview(obj)
    except TypeError:
        return False
    return True


def as_operand(x: Any, fname: str | None = None) -> NDArray:
    """``x`` itself when it is an NDArray, else ``asarray(x)``: how every
    function of the namespace takes its array arguments.  With ``fname``, a
    value asarray rejects is reported as an argument that function expects
    arrays for."""
    if isinstance(x, NDArray):
        return x
    if fname is None:
        return asarray(x)
    try:
        return asarray(x)
    except TypeError:
        raise TypeError(f"{fname} expects arrays, got {type(x).__name__}") from None


def _finish(arr: NDArray, dt: _dt.DType | None, copy: bool | None, fresh: bool) -> NDArray:
    if dt is not None and dt is not arr.dtype:
        if copy is False:
            raise ValueError(f"converting {arr.dtype} to {dt} needs a copy, but copy=False")
        return arr.astype(dt)
    if copy and not fresh:
        return arr.copy()
    return arr

