"""Array creation: empty/zeros/ones/full (and _like), arange, linspace, eye,
tril/triu, meshgrid and asarray."""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

from minarray import dtypes as _dt
from minarray._native import core
from minarray.ndarray import NDArray, c_strides

__all__ = [
    "asarray", "empty", "empty_like", "zeros", "zeros_like", "ones", "ones_like",
    "full", "full_like", "arange", "linspace", "eye", "tril", "triu", "meshgrid",
]

_SCALARS = (bool, int, float, complex)


def _shape(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, (tuple, list)):
        dims = shape
    else:
        dims = (shape,)
    out = []
    for n in dims:
        try:
            v = operator.index(n)
        except TypeError:
            raise TypeError(f"shape entries must be integers, got {n!r} ({type(n).__name__})") from None
        if v < 0:
            raise ValueError(f"negative dimensions are not allowed: shape {tuple(dims)}")
        out.append(v)
    return tuple(out)


def _device(device: Any) -> None:
    if device not in (None, "cpu"):
        raise ValueError(f"unsupported device {device!r}: minarray arrays live on 'cpu'")


def empty(shape: Any, *, dtype: Any = None, device: Any = None) -> NDArray:
    _device(device)
    return NDArray._empty(_shape(shape), _dt.as_dtype(dtype) if dtype is not None else _dt.float64)


def zeros(shape: Any, *, dtype: Any = None, device: Any = None) -> NDArray:
    _device(device)
    return NDArray._empty(_shape(shape), _dt.as_dtype(dtype) if dtype is not None else _dt.float64, zero=True)


def full(shape: Any, fill_value: Any, *, dtype: Any = None, device: Any = None) -> NDArray:
    _device(device)
    if isinstance(fill_value, NDArray):
        fill_value = fill_value.item()
    if dtype is None:
        dt = _scalar_dtype(fill_value)
    else:
        dt = _dt.as_dtype(dtype)
    out = NDArray._empty(_shape(shape), dt)
    core.fill(out._h, fill_value)
    return out


def ones(shape: Any, *, dtype: Any = None, device: Any = None) -> NDArray:
    return full(shape, 1, dtype=dtype if dtype is not None else _dt.float64, device=device)


def _like(x: NDArray, dtype: Any) -> _dt.DType:
    return _dt.as_dtype(dtype) if dtype is not None else x.dtype


def empty_like(x: NDArray, /, *, dtype: Any = None, device: Any = None) -> NDArray:
    return empty(x.shape, dtype=_like(x, dtype), device=device)


def zeros_like(x: NDArray, /, *, dtype: Any = None, device: Any = None) -> NDArray:
    return zeros(x.shape, dtype=_like(x, dtype), device=device)


def ones_like(x: NDArray, /, *, dtype: Any = None, device: Any = None) -> NDArray:
    return ones(x.shape, dtype=_like(x, dtype), device=device)


def full_like(x: NDArray, /, fill_value: Any, *, dtype: Any = None, device: Any = None) -> NDArray:
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


def arange(start: Any, /, stop: Any = None, step: Any = 1, *, dtype: Any = None, device: Any = None) -> NDArray:
    _device(device)
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ValueError("arange step must not be zero")
    for v in (start, stop, step):
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise TypeError(f"arange takes int or float arguments, got {type(v).__name__}")
    n = max(0, math.ceil((stop - start) / step))
    if dtype is None:
        dt = _dt.int64 if all(isinstance(v, int) for v in (start, stop, step)) else _dt.float64
    else:
        dt = _dt.as_dtype(dtype)
    # start + i*step computed in Python would be per element; instead fill
    # 0..n-1 in C and scale with the elementwise engine when it is needed.
    values = [start + i * step for i in range(n)] if dt.kind in "iu" else [start + i * step for i in range(n)]
    return NDArray._new(core.from_flat(values, (n,), dt.code, dt.bits), (n,), (1,), dt, None)


def linspace(start: Any, stop: Any, /, num: int, *, dtype: Any = None, device: Any = None,
             endpoint: bool = True) -> NDArray:
    _device(device)
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"number of samples must be non-negative, got {num}")
    if dtype is None:
        dt = _dt.complex128 if isinstance(start, complex) or isinstance(stop, complex) else _dt.float64
    else:
        dt = _dt.as_dtype(dtype)
    div = (num - 1) if endpoint else num
    step = (stop - start) / div if div > 0 else 0
    values = [start + i * step for i in range(num)]
    if endpoint and num > 1:
        values[-1] = stop
    return NDArray._new(core.from_flat(values, (num,), dt.code, dt.bits), (num,), (1,), dt, None)


def eye(n_rows: int, n_cols: int | None = None, /, *, k: int = 0, dtype: Any = None, device: Any = None) -> NDArray:
    n_cols = n_rows if n_cols is None else n_cols
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
    out = x.copy()
    rows, cols = x.shape[-2:]
    for i in range(rows):
        # zero the part of row i outside the triangle: one strided fill per row
        if lower:
            lo = max(0, i + k + 1)
            if lo < cols:
                core.fill(out[..., i, lo:]._h, 0)
        else:
            hi = min(cols, max(0, i + k))
            if hi > 0:
                core.fill(out[..., i, :hi]._h, 0)
    return out


def tril(x: NDArray, /, *, k: int = 0) -> NDArray:
    return _tri(x, k, True)


def triu(x: NDArray, /, *, k: int = 0) -> NDArray:
    return _tri(x, k, False)


def meshgrid(*arrays: NDArray, indexing: str = "xy") -> list[NDArray]:
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
    return out


# ---- asarray ----------------------------------------------------------------

def _nested(obj: Any) -> tuple[list[Any], tuple[int, ...]]:
    """Flatten a nested sequence; ValueError when it is ragged."""
    if isinstance(obj, NDArray):
        return list(_flat_values(obj)), obj.shape
    if isinstance(obj, (list, tuple)):
        if not obj:
            return [], (0,)
        parts = [_nested(x) for x in obj]
        inner = parts[0][1]
        for _, s in parts:
            if s != inner:
                raise ValueError(
                    f"the nested sequence is ragged: it mixes sub-sequences of shapes {inner} and {s}"
                )
        flat: list[Any] = []
        for f, _ in parts:
            flat.extend(f)
        return flat, (len(obj), *inner)
    if isinstance(obj, _SCALARS) or hasattr(obj, "__index__") or hasattr(obj, "__float__"):
        if hasattr(obj, "dtype") and hasattr(obj, "item"):  # a NumPy scalar
            return [obj.item()], ()
        return [obj], ()
    raise TypeError(f"cannot convert {type(obj).__name__} to a minarray array: expected numbers or sequences")


def _flat_values(a: NDArray) -> list[Any]:
    v = a.tolist()
    if a.ndim == 0:
        return [v]
    out: list[Any] = []

    def walk(x: Any, d: int) -> None:
        if d == a.ndim:
            out.append(x)
        else:
            for y in x:
                walk(y, d + 1)

    walk(v, 0)
    return out


def _infer(values: list[Any]) -> _dt.DType:
    kind = "b"
    for v in values:
        if isinstance(v, bool):
            continue
        if isinstance(v, int):
            kind = "i" if kind == "b" else kind
        elif isinstance(v, float):
            kind = "f" if kind in "bi" else kind
        elif isinstance(v, complex):
            kind = "c"
        else:
            raise TypeError(f"cannot convert {v!r} ({type(v).__name__}) to a number")
    return {"b": _dt.bool, "i": _dt.int64, "f": _dt.float64, "c": _dt.complex128}[kind]


def asarray(obj: Any, /, *, dtype: Any = None, device: Any = None, copy: bool | None = None) -> NDArray:
    """Array API ``asarray``.  Zero-copy for NDArrays, NumPy arrays and
    buffer-protocol objects when dtype and layout allow; ``copy=False`` raises
    ValueError when a copy would be needed, ``copy=True`` always copies."""
    _device(device)
    dt = _dt.as_dtype(dtype) if dtype is not None else None
    if isinstance(obj, NDArray):
        return _finish(obj, dt, copy, fresh=False)
    if isinstance(obj, _SCALARS):
        target = dt or _scalar_dtype(obj)
        if copy is False:
            raise ValueError("copy=False is impossible for a Python scalar: it has no memory to share")
        return NDArray._new(core.from_scalar(obj, target.code, target.bits), (), (), target, None)
    if hasattr(obj, "__array_interface__") and not isinstance(obj, type):
        from minarray.arrayinterface import from_array_interface

        try:
            arr = from_array_interface(obj)
        except BufferError:
            if copy is False:
                raise ValueError("the source's strides need a copy, but copy=False") from None
            import numpy as np

            return _finish(from_array_interface(np.ascontiguousarray(obj)), dt, copy, fresh=True)
        return _finish(arr, dt, copy, fresh=False)
    if hasattr(obj, "__dlpack__"):
        from minarray import dlpack

        return _finish(dlpack.from_dlpack(obj), dt, copy, fresh=False)
    if isinstance(obj, (bytes, bytearray, memoryview)) or _has_buffer(obj):
        from minarray.arrayinterface import from_buffer

        return _finish(from_buffer(obj), dt, copy, fresh=False)
    if copy is False:
        raise ValueError(f"copy=False is impossible for a {type(obj).__name__}: it has no array memory to share")
    values, shape = _nested(obj)
    target = dt or _infer(values)
    h = core.from_flat(values, shape, target.code, target.bits)
    return NDArray._new(h, shape, c_strides(shape), target, None)


def _has_buffer(obj: Any) -> bool:
    if isinstance(obj, (list, tuple, str)):
        return False
    try:
        memoryview(obj)
    except TypeError:
        return False
    return True


def _finish(arr: NDArray, dt: _dt.DType | None, copy: bool | None, fresh: bool) -> NDArray:
    if dt is not None and dt is not arr.dtype:
        if copy is False:
            raise ValueError(f"converting {arr.dtype} to {dt} needs a copy, but copy=False")
        return arr.astype(dt)
    if copy and not fresh:
        return arr.copy()
    return arr

