"""Reductions and statistics over axes (Array API "Statistical Functions",
"Utility Functions" and ``diff``).

Every reduction goes through one C call (csrc/py/reduce_entry.c): Python moves the
reduced axes last as a view (no copy), allocates the output of the kept
shape in the kernel's accumulator dtype, and casts that to the result dtype
when they differ (float16 sums accumulate in float32, as NumPy's).

Dtype rules (Array API 2024.12, NumPy 2 where the standard is silent):

- ``sum``/``prod``/``cumulative_*``: integers widen to the default integer
  of their signedness (int64 / uint64), floats keep their dtype, unless
  ``dtype=`` is given.
- ``mean``/``var``/``std``: floating inputs keep their dtype; integer and
  boolean inputs give float64 (NumPy); ``var``/``std`` of complex inputs are
  not defined by the standard and raise TypeError.
- ``min``/``max`` keep the dtype and raise ValueError on an empty reduction,
  which has no identity; NaN propagates.
"""

from __future__ import annotations

import builtins
import math
import operator
from typing import Any

from minarray import dtypes as _dt
from minarray._args import as_int
from minarray._native import core
from minarray.creation import as_operand
from minarray.dtypes import DType
from minarray.ndarray import NDArray, c_strides
from minarray.views import normalize_axes, normalize_axis

__all__ = [
    "sum", "prod", "min", "max", "mean", "var", "std", "cumulative_sum",
    "cumulative_prod", "all", "any", "diff",
    # NumPy's spellings (NumPy's defaults): scans that flatten without an axis
    "cumsum", "cumprod", "trace",
]

Axis = int | tuple[int, ...] | None

# Operation codes of csrc/core/reduce.h (MA_R_*).
_SUM, _FSUM, _PROD, _MIN, _MAX, _ALL, _ANY, _COUNT, _SSD = range(9)
_HALF = (_dt.float16, _dt.bfloat16)


def _int_acc(d: DType) -> DType:
    """The default integer of d's signedness (bool counts as signed)."""
    return _dt.uint64 if d.kind == "u" else _dt.int64


def _acc_dtype(op: int, d: DType) -> DType:
    if op in (_ALL, _ANY):
        return _dt.bool
    if op == _COUNT:
        return _dt.int64
    if op in (_SUM, _PROD):
        if d.kind in "biu":
            return _int_acc(d)
        return _dt.float32 if d in _HALF else d
    if op in (_FSUM, _SSD):
        if d.kind in "biu":
            return _dt.float64
        return _dt.float32 if d in _HALF else d
    # _MIN, _MAX
    return _dt.float32 if d in _HALF else d


# (op, input dtype) -> accumulator dtype, mirroring csrc/core/gen/gen_reduce.py.
_ACC: dict[tuple[int, DType], DType] = {(op, d): _acc_dtype(op, d) for op in range(9) for d in _dt.KERNEL}


def _axes(axis: Axis, ndim: int) -> tuple[int, ...] | None:
    """Sorted, normalized axes; None (all axes) stays None, the fast path."""
    return None if axis is None else normalize_axes(axis, ndim)


def _keepdims_view(out: NDArray, ndim: int, axes: tuple[int, ...] | None) -> NDArray:
    if axes is None:
        shp: tuple[int, ...] = (1,) * ndim
    else:
        shape = list(out.shape)
        for a in axes:
            shape.insert(a, 1)
        shp = tuple(shape)
    return out._view(0, shp, c_strides(shp))


def _reduce_axes(op: int, x: NDArray, axes: tuple[int, ...] | None, *, extra: NDArray | None = None,
                divisor: float = -1.0, take_sqrt: bool = False) -> NDArray:
    """Run kernel ``op`` over the (normalized, sorted) ``axes`` of ``x``
    (None: all of them); returns the accumulator array of the kept shape
    (a storage type's, float8's say, is its wide type's: float32)."""
    x = x._widened()
    nd = len(x._shape)
    if axes is None:
        nred = nd
    else:
        nred = len(axes)
        if axes != tuple(range(nd - nred, nd)):
            order = (*[d for d in range(nd) if d not in axes], *axes)
            x = x._view(0, tuple(x._shape[d] for d in order), tuple(x._strides[d] for d in order))
    h = core.reduce(op, x._h, None, nred, None if extra is None else extra._h, divisor, take_sqrt)
    kshape = x._shape[:nd - nred]
    return NDArray._new(h, kshape, c_strides(kshape), None)


def _finish(out: NDArray, result: DType, x: NDArray, axes: tuple[int, ...] | None, keepdims: bool) -> NDArray:
    if out._dtype is not result:
        # a float16 total rounds here: its overflow is the reduction's, as
        # in NumPy ("overflow encountered in reduce")
        made: NDArray | None = core.ndarray_copy(out, result, "reduce")
        out = made if made is not None else out.astype(result)
    if keepdims:
        out = _keepdims_view(out, x.ndim, axes)
    return out


def _count(x: NDArray, axes: tuple[int, ...] | None) -> int:
    if axes is None:
        return math.prod(x._shape)
    return math.prod(x._shape[a] for a in axes)


def _accumulation(x: NDArray, dtype: Any) -> tuple[NDArray, DType]:
    """The input as sums and products (and their cumulative forms) read it,
    and their result dtype: NumPy's default accumulator for ``dtype=None``,
    else ``dtype``.  Integer results from integer inputs come from the 64-bit
    wrapping kernel (equal modulo 2**bits); everything else is computed in
    the requested dtype, as NumPy does."""
    if dtype is None:
        return x, (_int_acc(x._dtype) if x._dtype.kind in "biu" else x._dtype)
    result = _dt.as_dtype(dtype)
    if result.kind == "b":
        x = x.astype(_dt.bool, copy=False)
    elif not (result.kind in "iu" and x._dtype.kind in "biu"):
        x = x.astype(result, copy=False)
    return x, result


def _sum_like(op: int, x: Any, axis: Axis, dtype: Any, keepdims: bool) -> NDArray:
    x = as_operand(x)
    axes = _axes(axis, x.ndim)
    x, result = _accumulation(x, dtype)
    out = _reduce_axes(op, x, axes)
    return _finish(out, result, x, axes, keepdims)


def sum(x: NDArray, /, *, axis: Axis = None, dtype: Any = None, keepdims: bool = False) -> NDArray:
    """Sum over ``axis`` (pairwise summation for floating point)."""
    return _sum_like(_SUM, x, axis, dtype, keepdims)


def prod(x: NDArray, /, *, axis: Axis = None, dtype: Any = None, keepdims: bool = False) -> NDArray:
    """Product over ``axis``."""
    return _sum_like(_PROD, x, axis, dtype, keepdims)


def _minmax(op: int, name: str, x: Any, axis: Axis, keepdims: bool) -> NDArray:
    x = as_operand(x)
    if x.dtype.kind == "c":
        raise TypeError(f"{name} is not defined for complex dtypes ({x.dtype}): complex numbers are unordered")
    axes = _axes(axis, x.ndim)
    if _count(x, axes) == 0:
        raise ValueError(f"zero-size array to reduction operation {name}, which has no identity "
                         f"(shape {x.shape}, axis {axis})")
    return _finish(_reduce_axes(op, x, axes), x.dtype, x, axes, keepdims)


def min(x: NDArray, /, *, axis: Axis = None, keepdims: bool = False) -> NDArray:
    """Minimum over ``axis``; NaN propagates."""
    return _minmax(_MIN, "min", x, axis, keepdims)


def max(x: NDArray, /, *, axis: Axis = None, keepdims: bool = False) -> NDArray:
    """Maximum over ``axis``; NaN propagates."""
    return _minmax(_MAX, "max", x, axis, keepdims)


def _float_result(x: NDArray, name: str, complex_ok: bool) -> DType:
    if x.dtype.kind == "c" and not complex_ok:
        raise TypeError(f"{name} requires a real-valued floating-point array, not {x.dtype}")
    return _dt.float64 if x.dtype.kind in "biu" else x.dtype


def mean(x: NDArray, /, *, axis: Axis = None, keepdims: bool = False) -> NDArray:
    """Arithmetic mean over ``axis``; NaN for an empty reduction.  Integer
    inputs give float64 (NumPy)."""
    x = as_operand(x)
    result = _float_result(x, "mean", True)
    axes = _axes(axis, x.ndim)
    out = _reduce_axes(_FSUM, x, axes, divisor=float(_count(x, axes)))
    return _finish(out, result, x, axes, keepdims)


def _var(x: Any, axis: Axis, correction: int | float, keepdims: bool, take_sqrt: bool) -> NDArray:
    x = as_operand(x)
    result = _float_result(x, "std" if take_sqrt else "var", False)
    if isinstance(correction, bool) or not isinstance(correction, (int, float)):
        try:
            correction = operator.index(correction)
        except TypeError:
            raise TypeError(f"correction must be a real number, got {type(correction).__name__}") from None
    axes = _axes(axis, x.ndim)
    n = _count(x, axes)
    # Two passes: the mean, then the sum of squared deviations from it, each
    # pairwise; NumPy does the same.  N - correction below zero acts as zero
    # (NumPy), so the result is inf or NaN there.
    m = _reduce_axes(_FSUM, x, axes, divisor=float(n))
    out = _reduce_axes(_SSD, x, axes, extra=m, divisor=float(builtins.max(n - correction, 0)), take_sqrt=take_sqrt)
    return _finish(out, result, x, axes, keepdims)


def _correction(correction: Any, ddof: Any) -> Any:
    """The divisor's correction from the standard's ``correction`` or
    NumPy's ``ddof`` (the same number under two names; 0 when neither)."""
    if correction is not None:
        if ddof is not None and ddof != 0:  # NumPy's rule: ddof=0 is its default
            raise ValueError("ddof and correction can't be provided simultaneously.")
        return correction
    return 0.0 if ddof is None else ddof


def var(x: NDArray, /, *, axis: Axis = None, correction: int | float | None = None, keepdims: bool = False,
        ddof: int | float | None = None) -> NDArray:
    """Variance over ``axis``: sum((x - mean)**2) / (N - correction).
    ``ddof`` is NumPy's name for ``correction``; either may be given."""
    return _var(x, axis, _correction(correction, ddof), keepdims, False)


def std(x: NDArray, /, *, axis: Axis = None, correction: int | float | None = None, keepdims: bool = False,
        ddof: int | float | None = None) -> NDArray:
    """Standard deviation over ``axis``: sqrt(var).  ``ddof`` is NumPy's
    name for ``correction``; either may be given."""
    return _var(x, axis, _correction(correction, ddof), keepdims, True)


def all(x: NDArray, /, *, axis: Axis = None, keepdims: bool = False) -> NDArray:
    """Logical AND over ``axis`` (True for an empty reduction)."""
    x = as_operand(x)
    axes = _axes(axis, x.ndim)
    return _finish(_reduce_axes(_ALL, x, axes), _dt.bool, x, axes, keepdims)


def any(x: NDArray, /, *, axis: Axis = None, keepdims: bool = False) -> NDArray:
    """Logical OR over ``axis`` (False for an empty reduction)."""
    x = as_operand(x)
    axes = _axes(axis, x.ndim)
    return _finish(_reduce_axes(_ANY, x, axes), _dt.bool, x, axes, keepdims)


def count_nonzero(x: NDArray, /, *, axis: Axis = None, keepdims: bool = False) -> NDArray:
    """Number of non-zero elements over ``axis``, as int64."""
    x = as_operand(x)
    axes = _axes(axis, x.ndim)
    return _finish(_reduce_axes(_COUNT, x, axes), _dt.int64, x, axes, keepdims)


# ---- scans -----------------------------------------------------------------

def _scan(op: int, name: str, x: Any, axis: int | None, dtype: Any, include_initial: bool) -> NDArray:
    x = as_operand(x)
    if x.ndim == 0:
        x = x._view(0, (1,), (0,))  # NumPy treats a 0-d input as 1-d
    if axis is None:
        if x.ndim != 1:
            raise ValueError(f"{name} needs an axis for a {x.ndim}-d array (axis=None is only allowed in 1-d)")
        ax = 0
    else:
        ax = normalize_axis(axis, x.ndim)
    x, result = _accumulation(x, dtype)
    x = x._widened()
    kernel_out = _int_acc(x.dtype) if x.dtype.kind in "biu" else x.dtype
    shape = list(x.shape)
    shape[ax] += int(bool(include_initial))
    out = NDArray._empty(tuple(shape), kernel_out)
    nd = x.ndim
    if ax != nd - 1:
        order = (*tuple(d for d in range(nd) if d != ax), ax)
        xv = x._view(0, tuple(x.shape[d] for d in order), tuple(x._strides[d] for d in order))
        ov = out._view(0, tuple(out.shape[d] for d in order), tuple(out._strides[d] for d in order))
    else:
        xv, ov = x, out
    core.scan(op, xv._h, ov._h, bool(include_initial))
    return out if out.dtype is result else out.astype(result)


def cumulative_sum(x: NDArray, /, *, axis: int | None = None, dtype: Any = None,
                   include_initial: bool = False) -> NDArray:
    """Cumulative sum along ``axis`` (optional only for 1-d input); with
    ``include_initial`` the result starts with the identity 0."""
    return _scan(0, "cumulative_sum", x, axis, dtype, include_initial)


def cumulative_prod(x: NDArray, /, *, axis: int | None = None, dtype: Any = None,
                    include_initial: bool = False) -> NDArray:
    """Cumulative product along ``axis``; with ``include_initial`` the
    result starts with the identity 1."""
    return _scan(1, "cumulative_prod", x, axis, dtype, include_initial)


def _numpy_scan(op: int, name: str, x: Any, axis: int | None, dtype: Any) -> NDArray:
    x = as_operand(x, name)
    if axis is None:  # NumPy: the flattened array
        x = x.reshape((-1,))
        axis = 0
    return _scan(op, name, x, axis, dtype, False)


def cumsum(a: NDArray, axis: int | None = None, dtype: Any = None) -> NDArray:
    """NumPy's ``cumsum``: :func:`cumulative_sum` of the flattened array
    when ``axis`` is None (the standard's spelling requires an axis for
    arrays of 2 or more dimensions) and never with an initial zero."""
    return _numpy_scan(0, "cumsum", a, axis, dtype)


def cumprod(a: NDArray, axis: int | None = None, dtype: Any = None) -> NDArray:
    """NumPy's ``cumprod``: :func:`cumulative_prod` of the flattened array
    when ``axis`` is None."""
    return _numpy_scan(1, "cumprod", a, axis, dtype)


# ---- diff ------------------------------------------------------------------

def _along(x: NDArray, ax: int, start: int, stop: int) -> NDArray:
    """The view x[..., start:stop, ...] with the slice on axis ``ax``."""
    shape = list(x.shape)
    shape[ax] = stop - start
    return x._view(start * x._strides[ax], tuple(shape), x._strides)


def _concat_along(parts: list[NDArray], ax: int, dtype: DType) -> NDArray:
    shape = list(parts[0].shape)
    shape[ax] = builtins.sum(p.shape[ax] for p in parts)
    out = NDArray._empty(tuple(shape), dtype)
    pos = 0
    for p in parts:
        n = p.shape[ax]
        core.copyto(_along(out, ax, pos, pos + n)._h, p._h)
        pos += n
    return out


def _edge(value: Any, x: NDArray, ax: int, name: str) -> NDArray:
    """prepend/append as an array shaped like x except along ``ax``; a 0-d
    value broadcasts with length 1 there (NumPy)."""
    from minarray.views import broadcast_to

    v = as_operand(value)
    if v.ndim == 0:
        shape = list(x.shape)
        shape[ax] = 1
        return broadcast_to(v, tuple(shape))
    if v.ndim != x.ndim or builtins.any(v.shape[d] != x.shape[d] for d in range(x.ndim) if d != ax):
        raise ValueError(f"diff: {name} of shape {v.shape} does not match x of shape {x.shape} "
                         f"except along axis {ax}")
    return v


def diff(x: NDArray, /, *, axis: int = -1, n: int = 1, prepend: Any = None, append: Any = None) -> NDArray:
    """The n-th discrete difference along ``axis``: out[i] = x[i+1] - x[i],
    applied ``n`` times, after concatenating ``prepend`` and ``append``.
    Booleans give x[i+1] != x[i] (NumPy)."""
    x = as_operand(x)
    if x.ndim == 0:
        raise ValueError("diff requires an array of at least one dimension, not a 0-d array")
    n = as_int(n, "diff: n")
    if n < 0:
        raise ValueError(f"diff: n must be non-negative, got {n}")
    ax = normalize_axis(axis, x.ndim)
    if prepend is not None or append is not None:
        parts = []
        if prepend is not None:
            parts.append(_edge(prepend, x, ax, "prepend"))
        parts.append(x)
        if append is not None:
            parts.append(_edge(append, x, ax, "append"))
        dtype = _dt.result_type(*parts)
        x = _concat_along(parts, ax, dtype)
    if n == 0:
        return x
    for _ in range(n):
        length = x.shape[ax]
        m = length - 1 if length > 0 else 0
        shape = list(x.shape)
        shape[ax] = m
        out = NDArray._empty(tuple(shape), x.dtype)
        if m > 0:
            core.subtract(out._h, _along(x, ax, 1, length)._h, _along(x, ax, 0, m)._h)
        x = out
    return x



def trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> NDArray:
    """NumPy's ``trace``: the sum along the diagonal ``offset`` of the 2-d
    subarrays over ``axis1`` and ``axis2`` (``sum``'s dtype rules;
    ``ma.linalg.trace`` is the standard's, over the last two axes)."""
    from minarray.views import diagonal

    return sum(diagonal(as_operand(a), offset, axis1, axis2), axis=-1, dtype=dtype)
