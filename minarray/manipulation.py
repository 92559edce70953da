"""Manipulation functions that copy (Array API 2024.12): ``concat`` (NumPy's
``concatenate``), ``stack``, ``unstack``, ``repeat``, ``roll``, ``tile``, and
the gathers ``take`` and ``take_along_axis``.  The view-returning ones
(``reshape``, ``permute_dims``, ``broadcast_to``...) live in
:mod:`minarray.views`.

Each result is allocated once, C-contiguous, and filled by a few C copies
into views of it (``core.copyto`` broadcasts and casts): no Python work per
element.  ``repeat`` with per-element counts and ``take_along_axis`` have
their own kernels (csrc/py/manipulation.c); ``take`` reuses the gather kernel
of advanced indexing (csrc/core/gather.c).
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Sequence
from typing import Any

from minarray import dtypes as _dt
from minarray._args import as_int, as_intp, as_ints
from minarray._native import core
from minarray.creation import as_operand, asarray
from minarray.ndarray import NDArray, c_strides
from minarray.views import broadcast_shapes, broadcast_to, moveaxis, normalize_axis

__all__ = [
    "concat", "concatenate", "stack", "unstack", "repeat", "roll", "tile",
    "take", "take_along_axis",
    # NumPy's editing routines
    "pad", "append", "insert", "delete", "copyto", "resize", "trim_zeros",
]

Shape = tuple[int, ...]

# ma_array's dimension limit (MA_MAXDIMS in csrc/core/array.h).
_MAXDIMS = 64


def _arrays(arrays: Any, fname: str) -> list[NDArray]:
    if isinstance(arrays, NDArray) or not isinstance(arrays, (tuple, list)):
        raise TypeError(f"{fname} expects a tuple or list of arrays, got {type(arrays).__name__}")
    if not arrays:
        raise ValueError(f"{fname} needs at least one array")
    return [as_operand(a, fname) for a in arrays]


def _result_dtype(arrs: list[NDArray]) -> _dt.DType:
    out = arrs[0].dtype
    for a in arrs[1:]:
        out = _dt.promote(out, a.dtype)
    return out


def _drop(t: Shape, i: int) -> Shape:
    return t[:i] + t[i + 1:]


# ---- joining -----------------------------------------------------------------

def concat(arrays: Sequence[NDArray] | tuple[NDArray, ...], /, axis: int | None = 0) -> NDArray:
    """Join arrays along an existing axis (Array API ``concat``; NumPy's
    ``concatenate`` is the same object, so ``axis`` may be positional).

    All arrays need the same ndim (at least 1) and equal sizes except along
    ``axis``; the result dtype follows the promotion rules.  ``axis=None``
    joins the flattened arrays.
    """
    if type(axis) is int and axis == 0 and type(arrays) in (list, tuple) and arrays:
        # The common case, NDArrays of one dtype joined along axis 0, without
        # the general route's promotion, validation and NDArray views (~5x
        # its cost for small arrays); anything else falls through to it.
        first = arrays[0]
        if type(first) is NDArray and first._shape:
            dt, rest, total = first._dtype, first._shape[1:], 0
            for a in arrays:
                if type(a) is not NDArray or a._dtype is not dt or not a._shape or a._shape[1:] != rest:
                    break
                total += a._shape[0]
            else:
                made: NDArray | None = core.ndarray_empty((total, *rest), dt, False)
                if made is not None:
                    if total and 0 not in rest:
                        strides, step, off = made._strides, made._strides[0], 0
                        for a in arrays:
                            n = a._shape[0]
                            if n:  # a's rows of the result, seen with a's shape
                                core.copyto(core.view(made._h, off * step, a._shape, strides, dt.code, dt.bits, False),
                                            a._h)
                            off += n
                    return made
    arrs = _arrays(arrays, "concat")
    dt = _result_dtype(arrs)
    if axis is None:
        out = NDArray._empty((sum(a.size for a in arrs),), dt)
        off = 0
        for a in arrs:
            if a.size:
                # a C-contiguous stretch of the result seen with a's shape
                core.copyto(out._view(off, a.shape, c_strides(a.shape))._h, a._h)
            off += a.size
        return out
    first = arrs[0]
    nd = first.ndim
    if nd == 0:
        raise ValueError("concat: zero-dimensional arrays cannot be concatenated (use stack)")
    for i, a in enumerate(arrs):
        if a.ndim != nd:
            raise ValueError(
                f"concat: all arrays need the same number of dimensions, but array 0 has {nd} "
                f"and array {i} has {a.ndim}"
            )
    ax = normalize_axis(axis, nd)
    for i, a in enumerate(arrs):
        if _drop(a.shape, ax) != _drop(first.shape, ax):
            raise ValueError(
                f"concat: array shapes must match except along axis {ax}, but array 0 has shape "
                f"{first.shape} and array {i} has shape {a.shape}"
            )
    shape = (*first.shape[:ax], sum(a.shape[ax] for a in arrs), *first.shape[ax + 1:])
    out = NDArray._empty(shape, dt)
    step = out._strides[ax]
    off = 0
    for a in arrs:
        n = a.shape[ax]
        if n and a.size:
            core.copyto(out._view(off * step, a.shape, out._strides)._h, a._h)
        off += n
    return out


concatenate = concat  # NumPy's spelling: the same object


def stack(arrays: Sequence[NDArray] | tuple[NDArray, ...], /, *, axis: int = 0) -> NDArray:
    """Join arrays of one shape along a new axis (Array API ``stack``).
    ``axis`` indexes the result, so it lies in [-(ndim + 1), ndim]."""
    arrs = _arrays(arrays, "stack")
    shape = arrs[0].shape
    for i, a in enumerate(arrs):
        if a.shape != shape:
            raise ValueError(
                f"stack: all arrays need the same shape, but array 0 has shape {shape} "
                f"and array {i} has shape {a.shape}"
            )
    ax = normalize_axis(axis, len(shape) + 1)
    out = NDArray._empty((*shape[:ax], len(arrs), *shape[ax:]), _result_dtype(arrs))
    step = out._strides[ax]
    strides = _drop(out._strides, ax)
    if out.size:
        for i, a in enumerate(arrs):
            core.copyto(out._view(i * step, shape, strides)._h, a._h)
    return out


def unstack(x: NDArray, /, *, axis: int = 0) -> tuple[NDArray, ...]:
    """Split ``x`` along ``axis`` into a tuple of views (Array API
    ``unstack``), the inverse of :func:`stack`."""
    x = as_operand(x, "unstack")
    if x.ndim == 0:
        raise ValueError("unstack: a 0-dimensional array has no axis to split along")
    ax = normalize_axis(axis, x.ndim)
    shape, strides, step = _drop(x.shape, ax), _drop(x._strides, ax), x._strides[ax]
    return tuple(x._view(i * step, shape, strides) for i in range(x.shape[ax]))


# ---- repeating -----------------------------------------------------------------

def _along(x: NDArray, axis: int | None) -> tuple[NDArray, int]:
    """``x`` and the axis an operation runs along: ``axis=None`` means the
    flattened array (NumPy's rule for repeat and take)."""
    if axis is None:
        return x.reshape((-1,)), 0
    return x, normalize_axis(axis, x.ndim)


def repeat(x: NDArray, repeats: int | NDArray, /, *, axis: int | None = None) -> NDArray:
    """Repeat each element (``axis=None``: of the flattened array) or each
    slice along ``axis`` (Array API ``repeat``).

    ``repeats`` is a non-negative integer or a 1-d integer array with one
    count per slice (or a single count, which broadcasts).
    """
    x, ax = _along(as_operand(x, "repeat"), axis)
    n = x.shape[ax]
    counts: NDArray | None = None
    if isinstance(repeats, NDArray) or isinstance(repeats, (list, tuple)) or hasattr(repeats, "__array_interface__"):
        counts = as_operand(repeats, "repeat")
        if counts.dtype.kind not in "iub":
            raise TypeError(f"repeat: repeats must have an integer dtype, got {counts.dtype}")
        if counts.ndim > 1:
            raise ValueError(f"repeat: repeats must be an integer or a 1-d array, got shape {counts.shape}")
        if counts.size == 1:
            repeats, counts = int(counts.reshape(()).item()), None
        elif counts.shape[0] != n:
            raise ValueError(
                f"repeat: {counts.shape[0]} repeats do not match the {n} elements along axis {ax}"
            )
    if counts is None:
        r = as_intp(repeats, "repeat: repeats")
        if r < 0:
            raise ValueError(f"repeat: repeats must be non-negative, got {r}")
        if x.ndim < _MAXDIMS:
            return _repeat_scalar(x, r, ax)
        # splitting an axis needs one more dimension than the limit allows
        from minarray.creation import full

        counts = full((n,), r, dtype=_dt.int64)
    counts = counts.astype(_dt.int64, copy=False)
    src = x if x.flags.c_contiguous else x.copy()
    total, h = core.repeat(src._h, counts._h, ax)
    shape = (*x.shape[:ax], total, *x.shape[ax + 1:])
    return NDArray._new(h, shape, c_strides(shape), None)


def _repeat_scalar(x: NDArray, r: int, ax: int) -> NDArray:
    n = x.shape[ax]
    shape = (*x.shape[:ax], n * r, *x.shape[ax + 1:])
    out = NDArray._empty(shape, x.dtype)
    if out.size == 0:
        return out
    # Split the result's axis into (n, r) and copy x in with the r axis
    # broadcast: one C call.
    st = out._strides
    split = (*x.shape[:ax], n, r, *x.shape[ax + 1:])
    dst = out._view(0, split, (*st[:ax], r * st[ax], st[ax], *st[ax + 1:]))
    xst = x._strides
    src = x._view(0, (*x.shape[:ax], n, 1, *x.shape[ax + 1:]), (*xst[:ax], xst[ax], 0, *xst[ax + 1:]))
    core.copyto(dst._h, src._h)
    return out


def tile(x: NDArray, repetitions: Sequence[int] | int, /) -> NDArray:
    """Repeat the whole array ``repetitions[i]`` times along each axis (Array
    API ``tile``).  Shorter ``repetitions`` are padded with leading 1s;
    a shorter ``x`` is treated as if it had leading size-1 axes."""
    x = as_operand(x, "tile")
    reps = tuple(as_intp(r, "tile: repetitions entry") for r in
                 (repetitions if isinstance(repetitions, (tuple, list)) else (repetitions,)))
    if any(r < 0 for r in reps):
        raise ValueError(f"tile: repetitions must be non-negative, got {reps}")
    nd = max(x.ndim, len(reps))
    reps = (1,) * (nd - len(reps)) + reps
    xs = (1,) * (nd - x.ndim) + x.shape
    xst = (0,) * (nd - x.ndim) + x._strides
    if nd > _MAXDIMS:
        raise ValueError(f"tile: the result would have {nd} dimensions; at most {_MAXDIMS} are supported")
    out = NDArray._empty(tuple(r * s for r, s in zip(reps, xs, strict=True)), x.dtype)
    if out.size:
        _tile_into(out, x, xs, xst, reps)
    return out


def _tile_into(out: NDArray, x: NDArray, xs: Shape, xst: Shape, reps: Shape) -> None:
    # Each repeated axis i of the result splits into (reps[i], xs[i]); x is
    # read with stride 0 along the reps part.  Axes with reps 1 stay whole.
    dshape: list[int] = []
    dstr: list[int] = []
    sshape: list[int] = []
    sstr: list[int] = []
    for r, s, xsd, ost in zip(reps, xs, xst, out._strides, strict=True):
        if r != 1:
            dshape += [r, s]
            dstr += [s * ost, ost]
            sshape += [1, s]
            sstr += [0, xsd]
        else:
            dshape.append(s)
            dstr.append(ost)
            sshape.append(s)
            sstr.append(xsd)
    if len(dshape) <= _MAXDIMS:
        core.copyto(out._view(0, tuple(dshape), tuple(dstr))._h, x._view(0, tuple(sshape), tuple(sstr))._h)
        return
    # Too many dimensions for one copy: fill the first tile, then copy it
    # along the leading repeated axis.
    i = next(k for k, r in enumerate(reps) if r != 1)
    first = list(out.shape)
    first[i] = xs[i]
    one = out._view(0, tuple(first), out._strides)
    _tile_into(one, x, xs, xst, (1,) * (i + 1) + reps[i + 1:])
    for k in range(1, reps[i]):
        core.copyto(out._view(k * xs[i] * out._strides[i], one.shape, out._strides)._h, one._h)


def roll(x: NDArray, /, shift: int | tuple[int, ...], *, axis: int | tuple[int, ...] | None = None) -> NDArray:
    """Shift elements along axes, wrapping around (Array API ``roll``).

    ``axis=None`` rolls the flattened array and restores the shape.  A
    tuple ``shift`` needs a tuple ``axis`` of the same length; a scalar on
    either side is broadcast to the other (NumPy); shifts of a repeated
    axis add up.
    """
    x = as_operand(x, "roll")
    shifts = as_ints(shift, "roll: shift")
    out = NDArray._empty(x.shape, x.dtype)
    if axis is None:
        flat = x if x.flags.c_contiguous else x.copy()
        src = flat._view(0, (x.size,), (1,))
        dst = out._view(0, (x.size,), (1,))
        _roll_into(dst, src, {0: sum(shifts)})
        return out
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    if len(shifts) == 1 and len(axes) > 1:
        shifts = shifts * len(axes)
    elif len(axes) == 1 and len(shifts) > 1:
        axes = tuple(axes) * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError(f"roll: shift {shift!r} and axis {axis!r} must have the same length")
    total: dict[int, int] = {}
    for s, a in zip(shifts, axes, strict=True):
        ax = normalize_axis(a, x.ndim)
        total[ax] = total.get(ax, 0) + s
    _roll_into(out, x, total)
    return out


def _roll_into(out: NDArray, x: NDArray, shifts: dict[int, int]) -> None:
    if out.size == 0:
        return
    # Per rolled axis: the two pieces (dst start, src start, length).  One
    # copy per combination of pieces, at most 2 ** (rolled axes).
    pieces: list[list[tuple[int, int, int, int]]] = []
    for ax, s in sorted(shifts.items()):
        n = x.shape[ax]
        k = s % n
        if k:
            pieces.append([(ax, k, 0, n - k), (ax, 0, n - k, k)])
    for combo in itertools.product(*pieces):
        shape = list(x.shape)
        doff = soff = 0
        for ax, dstart, sstart, length in combo:
            shape[ax] = length
            doff += dstart * out._strides[ax]
            soff += sstart * x._strides[ax]
        core.copyto(out._view(doff, tuple(shape), out._strides)._h, x._view(soff, tuple(shape), x._strides)._h)


# ---- gathers -------------------------------------------------------------------

def _index_array(indices: Any, fname: str) -> NDArray:
    idx = as_operand(indices, fname)
    if idx.dtype.kind not in "iu":
        raise TypeError(f"{fname}: indices must have an integer dtype, got {idx.dtype}")
    return idx


def take(x: NDArray, indices: NDArray, /, *, axis: int | None = None) -> NDArray:
    """Elements of ``x`` at ``indices`` along ``axis`` (Array API ``take``).

    The result has x's shape with the axis replaced by the index array's
    shape.  Negative indices count from the end; out-of-range ones raise
    IndexError.  ``axis=None`` indexes the flattened array (NumPy; the
    standard requires an axis for arrays of more than one dimension).
    """
    x, ax = _along(as_operand(x, "take"), axis)
    idx = _index_array(indices, "take")
    pre, post = x.shape[:ax], x.shape[ax + 1:]
    out = NDArray._empty(pre + idx.shape + post, x.dtype)
    if out.size == 0:
        return out
    flat = idx.astype(_dt.int64, copy=False).reshape((-1,))
    # Source with the indexed axis first; the result seen as (N, pre, post)
    # blocks, N running over the (C-contiguous) index dims.
    src = x._view(0, (x.shape[ax], *pre, *post), (x._strides[ax], *_drop(x._strides, ax)))
    ost = out._strides
    blocks = out._view(0, (flat.shape[0], *pre, *post),
                       (ost[ax + idx.ndim - 1] if idx.ndim else 0, *ost[:ax], *ost[ax + idx.ndim:]))
    core.take_blocks(src._h, blocks._h, [flat._h], False)
    return out


def take_along_axis(x: NDArray, indices: NDArray, /, *, axis: int = -1) -> NDArray:
    """Pick values along ``axis`` at positions given per 1-d slice (Array API
    ``take_along_axis``), e.g. with the output of ``argsort``.

    ``indices`` has x's ndim; its other dimensions broadcast against x's.
    """
    x = as_operand(x, "take_along_axis")
    idx = _index_array(indices, "take_along_axis")
    if x.ndim == 0:
        raise ValueError("take_along_axis: x must have at least one dimension")
    if idx.ndim != x.ndim:
        raise ValueError(
            f"take_along_axis: indices must have the same number of dimensions as x, "
            f"got {idx.ndim} and {x.ndim}"
        )
    ax = normalize_axis(axis, x.ndim)
    xs = (*x.shape[:ax], 1, *x.shape[ax + 1:])
    try:
        shape = broadcast_shapes(xs, idx.shape)
    except ValueError:
        raise ValueError(
            f"take_along_axis: indices of shape {idx.shape} do not broadcast against x of shape {x.shape} "
            f"outside axis {ax}"
        ) from None
    out = NDArray._empty(shape, x.dtype)
    if out.size == 0:
        return out
    idx64 = idx.astype(_dt.int64, copy=False)
    if idx64.shape != shape:
        idx64 = broadcast_to(idx64, shape)
    sshape = (*shape[:ax], x.shape[ax], *shape[ax + 1:])
    sstr = tuple(0 if (d != ax and x.shape[d] != shape[d]) else s for d, s in enumerate(x._strides))
    core.take_along_axis(x._view(0, sshape, sstr)._h, idx64._h, out._h, ax)
    return out


# ---- NumPy's editing routines: pad, append, insert, delete ----------------------
# Each builds the positions along one axis as a small index list and gathers
# with take (the C gather), or joins with concat: no per-element Python work.

def _pairs(value: Any, ndim: int, what: str) -> list[tuple[Any, Any]]:
    """NumPy's broadcasting of pad widths and constants to one (before,
    after) pair per axis: a scalar, a pair, or one pair per axis."""
    if isinstance(value, NDArray) or hasattr(value, "__array_interface__"):
        value = as_operand(value).tolist()
    if not isinstance(value, (tuple, list)):
        return [(value, value)] * ndim
    items = list(value)
    if len(items) == 1 and isinstance(items[0], (tuple, list)):
        items = list(items[0])
    if all(not isinstance(v, (tuple, list)) for v in items):
        if len(items) == 1:
            return [(items[0], items[0])] * ndim
        if len(items) == 2:
            return [(items[0], items[1])] * ndim
        raise ValueError(f"pad: {what} {value!r} does not broadcast to {ndim} (before, after) pairs")
    if len(items) != ndim or any(len(p) not in (1, 2) for p in items):
        raise ValueError(f"pad: {what} {value!r} does not broadcast to {ndim} (before, after) pairs")
    return [(p[0], p[-1]) for p in items]


def _pad_index(mode: str, n: int, before: int, after: int) -> list[int]:
    """The source position along an axis of each position of the padded
    axis, for the modes that copy elements of the array."""
    out = []
    for i in range(-before, n + after):
        if 0 <= i < n:
            out.append(i)
        elif mode == "edge":
            out.append(0 if i < 0 else n - 1)
        elif mode == "wrap":
            out.append(i % n)
        elif mode == "symmetric":
            j = i % (2 * n)
            out.append(j if j < n else 2 * n - 1 - j)
        else:  # reflect
            if n == 1:
                out.append(0)
                continue
            j = i % (2 * n - 2)
            out.append(j if j < n else 2 * n - 2 - j)
    return out


_PAD_MODES = ("constant", "edge", "reflect", "symmetric", "wrap")


def pad(array: Any, pad_width: Any, mode: str = "constant", *, constant_values: Any = 0) -> NDArray:
    """The array padded along each axis (NumPy's ``pad``): ``pad_width`` is
    a count, a (before, after) pair or one pair per axis.  ``mode``:
    ``"constant"`` (``constant_values``, a scalar or pairs likewise),
    ``"edge"``, ``"reflect"``, ``"symmetric"`` or ``"wrap"``."""
    x = as_operand(array, "pad")
    if mode not in _PAD_MODES:
        raise ValueError(f"mode {mode!r} is not supported; minarray's pad has {', '.join(_PAD_MODES)}")
    widths = []
    for b, a in _pairs(pad_width, x.ndim, "pad_width"):
        b, a = as_int(b, "pad: pad_width entry"), as_int(a, "pad: pad_width entry")
        if b < 0 or a < 0:
            raise ValueError("index can't contain negative values")
        widths.append((b, a))
    if mode == "constant":
        shape = tuple(n + b + a for n, (b, a) in zip(x.shape, widths, strict=True))
        out = NDArray._empty(shape, x.dtype)
        if x.size:
            core.copyto(out._view(sum(b * s for (b, _), s in zip(widths, out._strides, strict=True)), x.shape,
                                  out._strides)._h, x._h)
        values = _pairs(constant_values, x.ndim, "constant_values")
        # NumPy's order: axis by axis, each over the later axes' original
        # range only, so the later axes fill the corners.
        for ax, ((b, _a), (vb, va)) in enumerate(zip(widths, values, strict=True)):
            key: list[Any] = [slice(None)] * ax + [slice(wb, wb + n) for (wb, _), n in
                                                    zip(widths[ax + 1:], x.shape[ax + 1:], strict=True)]
            for start, stop, v in ((0, b, vb), (b + x.shape[ax], shape[ax], va)):
                if stop > start:
                    region = out[(*key[:ax], slice(start, stop), *key[ax:])]
                    if region.size:
                        core.copyto(region._h, as_operand(v).astype(x.dtype)._h)
        return out
    out = x
    for ax, (b, a) in enumerate(widths):
        if b == 0 and a == 0:
            continue
        if x.shape[ax] == 0:
            raise ValueError(f"can't extend empty axis {ax} using modes other than 'constant' or 'empty'")
        idx = asarray(_pad_index(mode, x.shape[ax], b, a), dtype=_dt.int64)
        out = take(out, idx, axis=ax)
    return out if out is not x else x.copy()


def append(arr: Any, values: Any, axis: int | None = None) -> NDArray:
    """``values`` joined after ``arr``: both flattened when ``axis`` is
    None, else :func:`concat` along ``axis`` (the shapes must agree)."""
    a, v = as_operand(arr, "append"), as_operand(values, "append")
    if axis is None:
        return concat([a.reshape((-1,)), v.reshape((-1,))], axis=0)
    return concat([a, v], axis=axis)


def _positions(obj: Any, n: int, fname: str) -> list[int] | int:
    """An index, slice, index sequence or boolean mask along an axis of
    length ``n`` as an int or a list of ints, negative ones wrapped."""
    if isinstance(obj, slice):
        return list(range(*obj.indices(n)))
    if isinstance(obj, (bool, int)) or (hasattr(obj, "__index__") and not isinstance(obj, NDArray)):
        return operator.index(obj)
    idx = as_operand(obj, fname)
    if idx.dtype.kind == "b":
        if idx.ndim != 1 or idx.shape[0] != n:
            raise ValueError(f"{fname}: a boolean mask must be 1-d of length {n}, got shape {idx.shape}")
        return [i for i, keep in enumerate(idx.tolist()) if keep]
    if idx.size and idx.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    if idx.ndim == 0:
        return int(idx.item())
    return [int(i) for i in idx.reshape((-1,)).tolist()]


def delete(arr: Any, obj: Any, axis: int | None = None) -> NDArray:
    """A copy of ``arr`` without the entries ``obj`` (an index, slice,
    index sequence or boolean mask of those to drop) along ``axis``
    (the flattened array when None)."""
    x = as_operand(arr, "delete")
    if axis is None:
        x, ax = x.reshape((-1,)), 0
    else:
        ax = normalize_axis(axis, x.ndim)
    n = x.shape[ax]
    pos = _positions(obj, n, "delete")
    drop = [pos] if isinstance(pos, int) else pos
    for p in drop:
        if not -n <= p < n:
            raise IndexError(f"index {p} is out of bounds for axis {ax} with size {n}")
    gone = {p % n for p in drop}
    keep = asarray([i for i in range(n) if i not in gone], dtype=_dt.int64)
    return take(x, keep, axis=ax)


def insert(arr: Any, obj: Any, values: Any, axis: int | None = None) -> NDArray:
    """A copy of ``arr`` with ``values`` inserted before the index or
    indices ``obj`` along ``axis`` (the flattened array when None), as
    NumPy's ``insert``: one index inserts the whole block ``values``,
    a sequence one slice per index."""
    x = as_operand(arr, "insert")
    if axis is None:
        x, ax = x.reshape((-1,)), 0
    else:
        ax = normalize_axis(axis, x.ndim)
    n = x.shape[ax]
    pos = _positions(obj, n, "insert") if not isinstance(obj, slice) else list(range(*obj.indices(n)))
    v = as_operand(values, "insert").astype(x.dtype, copy=False)
    if v.ndim < x.ndim:
        v = v.reshape((1,) * (x.ndim - v.ndim) + v.shape)
    if isinstance(pos, int):
        if not -n <= pos <= n:
            raise IndexError(f"index {pos} is out of bounds for axis {ax} with size {n}")
        at = pos + n if pos < 0 else pos
        v = moveaxis(v, 0, ax)
        shape = (*x.shape[:ax], v.shape[ax], *x.shape[ax + 1:])
        block = broadcast_to(v, shape)
        key: tuple[Any, ...] = (slice(None),) * ax
        return concat([x[(*key, slice(0, at))], block, x[(*key, slice(at, None))]], axis=ax)
    for p in pos:
        if not -n <= p <= n:
            raise IndexError(f"index {p} is out of bounds for axis {ax} with size {n}")
    at_list = [p + n if p < 0 else p for p in pos]
    m = len(at_list)
    shape = (*x.shape[:ax], m, *x.shape[ax + 1:])
    block = broadcast_to(v, shape)
    # NumPy's placement: the k-th inserted slice (in index order, stable)
    # lands at its index plus the number inserted before it.
    order = sorted(range(m), key=lambda k: at_list[k])
    final = [0] * m
    for rank, k in enumerate(order):
        final[k] = at_list[k] + rank
    src = [-1] * (n + m)
    for k, f in enumerate(final):
        src[f] = n + k
    it = iter(range(n))
    src = [next(it) if s < 0 else s for s in src]
    both = concat([x, block], axis=ax)
    return take(both, asarray(src, dtype=_dt.int64), axis=ax)


def copyto(dst: NDArray, src: Any, casting: str = "same_kind", where: Any = True) -> None:
    """Copy ``src`` (broadcast) into ``dst`` in place, where ``where`` is
    true; the cast must be allowed by ``casting`` ("same_kind", the
    default, "safe", "unsafe" or "no"/"equiv")."""
    if not isinstance(dst, NDArray):
        raise TypeError(f"copyto() argument 1 must be a minarray NDArray, not {type(dst).__name__}")
    if isinstance(src, (bool, int, float, complex)):
        s = asarray(src, dtype=_dt.scalar_dtype(src, dst.dtype))
    else:
        s = as_operand(src, "copyto")
    ok = {"unsafe": True, "same_kind": _dt.same_kind(s.dtype, dst.dtype),
          "safe": _dt.can_cast(s.dtype, dst.dtype), "no": s.dtype is dst.dtype,
          "equiv": s.dtype is dst.dtype}
    if casting not in ok:
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe', not {casting!r}")
    if not ok[casting]:
        raise TypeError(f"Cannot cast array data from {s.dtype} to {dst.dtype} according to the rule {casting!r}")
    try:
        s = broadcast_to(s, dst.shape)
    except ValueError:
        raise ValueError(f"could not broadcast input array from shape {s.shape} into shape {dst.shape}") from None
    if where is True:
        core.copyto(dst._h, s._h)
        return
    from minarray.elementwise import where as _where

    core.copyto(dst._h, _where(where, s, dst)._h)


def resize(a: Any, new_shape: int | Sequence[int]) -> NDArray:
    """A new array of ``new_shape`` filled with ``a``'s elements in C order,
    repeated as often as needed (NumPy's ``resize`` function)."""
    x = as_operand(a, "resize").reshape((-1,))
    shape = as_ints(new_shape if isinstance(new_shape, Sequence) else (new_shape,), "resize: new_shape entry")
    if any(n < 0 for n in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    size = math.prod(shape)
    if size >= 2**63:  # NumPy's OverflowError: the element count must fit in an npy_intp
        raise OverflowError(f"resize: new_shape {shape} has {size} elements, more than a 64-bit integer holds")
    if x.size == 0 or size == 0:
        return NDArray._empty(shape, x.dtype, zero=True)
    from minarray.creation import arange
    from minarray.elementwise import remainder

    return take(x, remainder(arange(size), x.size)).reshape(shape)


def trim_zeros(filt: Any, trim: str = "fb") -> NDArray:
    """The 1-d ``filt`` without its leading (``"f"``) and/or trailing
    (``"b"``) zeros: a view."""
    x = as_operand(filt, "trim_zeros")
    if x.ndim != 1:
        raise ValueError("trim_zeros: minarray trims 1-d arrays")
    from minarray.indexing import nonzero

    nz = nonzero(x)[0]
    if nz.shape[0] == 0:
        return x[0:0]
    t = trim.lower()
    start = int(nz[0]) if "f" in t else 0
    stop = int(nz[-1]) + 1 if "b" in t else x.shape[0]
    return x[start:stop]
