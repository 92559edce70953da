"""Manipulation functions (Array API "Manipulation Functions") other than
joining (minarray/_joining.py): ``reshape``, ``permute_dims``,
``expand_dims``, ``squeeze``, ``flip``, ``moveaxis``, ``broadcast_to``,
``broadcast_arrays``, ``repeat``, ``roll``, ``tile``; and beside them
NumPy's ``ravel``, ``transpose``, ``swapaxes``, ``fliplr``/``flipud``,
``rot90``, ``diagonal`` and its editing routines (``pad``, ``append``,
``insert``, ``delete``, ``copyto``, ``resize``, ``trim_zeros``).

The view-returning ones build new shape and strides over the same buffer
(the common cases in C, csrc/py/views.c).  The others allocate their
result once and fill it by a few C copies into views of it; ``repeat``
with per-element counts has its own kernel (csrc/py/manipulation.c).
``broadcast_shapes`` is minarray/_coerce.py's, re-exported here.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Sequence
from typing import Any

from minarray import _dtypes as _dt
from minarray._array_object import NDArray, _stride_perm, c_strides
from minarray._coerce import (
    along_axis,
    as_array,
    as_int,
    as_intp,
    as_ints,
    as_operand,
    asarray,
    broadcast_shapes,
    normalize_axes,
    normalize_axis,
)
from minarray._creation import arange, full
from minarray._elementwise import remainder
from minarray._joining import concat
from minarray._native import core
from minarray._searching import nonzero
from minarray._searching import where as _where

__all__ = [
    "broadcast_shapes", "repeat", "roll", "tile", "pad", "append", "insert", "delete", "copyto", "resize",
    "trim_zeros", "broadcast_to", "broadcast_arrays", "expand_dims", "flip", "moveaxis", "permute_dims",
    "reshape", "squeeze", "swapaxes", "ravel", "transpose", "fliplr", "flipud", "rot90", "diagonal",
    "fill_diagonal",
]


Shape = tuple[int, ...]


# ma_array's dimension limit (MA_MAXDIMS in csrc/core/array.h).
_MAXDIMS = 64


def repeat(x: NDArray, repeats: int | NDArray, /, axis: int | None = None) -> NDArray:
    """Repeat each element (``axis=None``: of the flattened array) or each
    slice along ``axis`` (Array API ``repeat``).

    ``repeats`` is a non-negative integer or a 1-d integer array with one
    count per slice (or a single count, which broadcasts).
    """
    x, ax = along_axis(as_operand(x, "repeat"), axis)
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


def roll(x: NDArray, /, shift: int | tuple[int, ...], axis: int | tuple[int, ...] | None = None) -> NDArray:
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
    from minarray._indexing import take  # cycle: _indexing imports this module

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
    if isinstance(obj, (bool, int)) or (hasattr(obj, "__index__") and getattr(obj, "ndim", 0) == 0
                                        and not isinstance(obj, NDArray)):
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
    from minarray._indexing import take  # cycle: _indexing imports this module

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
    from minarray._indexing import take  # cycle: _indexing imports this module

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
    dst = as_array(dst, "copyto", "1")
    if isinstance(src, (bool, int, float, complex)):
        s = asarray(src, dtype=_dt.scalar_dtype(src, dst.dtype))
    else:
        s = as_operand(src, "copyto")
    if casting not in _dt.CASTING:
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe', not {casting!r}")
    if not _dt.casting_allows(s.dtype, dst.dtype, casting):
        raise TypeError(f"Cannot cast array data from {s.dtype} to {dst.dtype} according to the rule {casting!r}")
    try:
        s = broadcast_to(s, dst.shape)
    except ValueError:
        raise ValueError(f"could not broadcast input array from shape {s.shape} into shape {dst.shape}") from None
    if where is True:
        core.copyto(dst._h, s._h)
        return
    core.copyto(dst._h, _where(where, s, dst)._h)


def resize(a: Any, new_shape: int | Sequence[int]) -> NDArray:
    """A new array of ``new_shape`` filled with ``a``'s elements in C order,
    repeated as often as needed (NumPy's ``resize`` function)."""
    from minarray._indexing import take  # cycle: _indexing imports this module

    x = as_operand(a, "resize").reshape((-1,))
    shape = as_ints(new_shape if isinstance(new_shape, Sequence) else (new_shape,), "resize: new_shape entry")
    if any(n < 0 for n in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    size = math.prod(shape)
    if size >= 2**63:  # NumPy's OverflowError: the element count must fit in an npy_intp
        raise OverflowError(f"resize: new_shape {shape} has {size} elements, more than a 64-bit integer holds")
    if x.size == 0 or size == 0:
        return NDArray._empty(shape, x.dtype, zero=True)
    return take(x, remainder(arange(size), x.size)).reshape(shape)


def trim_zeros(filt: Any, trim: str = "fb") -> NDArray:
    """The 1-d ``filt`` without its leading (``"f"``) and/or trailing
    (``"b"``) zeros: a view."""
    x = as_operand(filt, "trim_zeros")
    if x.ndim != 1:
        raise ValueError("trim_zeros: minarray trims 1-d arrays")
    nz = nonzero(x)[0]
    if nz.shape[0] == 0:
        return x[0:0]
    t = trim.lower()
    start = int(nz[0]) if "f" in t else 0
    stop = int(nz[-1]) + 1 if "b" in t else x.shape[0]
    return x[start:stop]


def broadcast_to(x: NDArray, /, shape: Sequence[int]) -> NDArray:
    """A read-only view of ``x`` with ``shape`` (size-1 dims get stride 0)."""
    x = as_operand(x, "broadcast_to")
    shape = as_ints(shape, "broadcast_to: shape entry")
    if any(n < 0 for n in shape):
        raise ValueError(f"negative dimensions are not allowed in shape {shape}")
    tail = shape[len(shape) - x.ndim:]
    if len(shape) < x.ndim or any(n != xn and xn != 1 for n, xn in zip(tail, x.shape, strict=True)):
        raise ValueError(f"cannot broadcast an array of shape {x.shape} to shape {shape}")
    pad = len(shape) - x.ndim
    strides = [0] * pad
    for xn, s in zip(x.shape, x._strides, strict=True):
        # a size-1 axis gets stride 0 even when it stays size 1, as in NumPy
        strides.append(s if xn != 1 else 0)
    return x._view(0, shape, tuple(strides), readonly=True)


def broadcast_arrays(*arrays: NDArray) -> tuple[NDArray, ...]:
    """The arrays broadcast against each other: read-only views of one
    common shape, as a tuple (Array API 2025.12, and NumPy 2)."""
    arrays = tuple(as_operand(a, "broadcast_arrays") for a in arrays)
    shape = broadcast_shapes(*(a.shape for a in arrays))
    return tuple(a if a.shape == shape else broadcast_to(a, shape) for a in arrays)


def permute_dims(x: NDArray, /, axes: tuple[int, ...]) -> NDArray:
    """A view of ``x`` with its axes reordered as ``axes`` (a permutation of ``range(x.ndim)``)."""
    x = as_operand(x, "permute_dims")
    out: NDArray = core.ndarray_permute(x, axes)  # C alone, errors included (csrc/py/views.c)
    return out


def swapaxes(x: NDArray, axis1: int, axis2: int) -> NDArray:
    """A view of ``x`` with ``axis1`` and ``axis2`` exchanged."""
    x = as_operand(x, "swapaxes")
    order = list(range(x.ndim))
    a, b = normalize_axis(axis1, x.ndim), normalize_axis(axis2, x.ndim)
    order[a], order[b] = order[b], order[a]
    return permute_dims(x, tuple(order))


def moveaxis(x: NDArray, source: int | tuple[int, ...], destination: int | tuple[int, ...], /) -> NDArray:
    """A view of ``x`` with the axes ``source`` moved to positions ``destination``."""
    x = as_operand(x, "moveaxis")
    src = (source,) if not isinstance(source, (tuple, list)) else tuple(source)
    dst = (destination,) if not isinstance(destination, (tuple, list)) else tuple(destination)
    if len(src) != len(dst):
        raise ValueError("source and destination must have the same number of axes")
    s = [normalize_axis(a, x.ndim, "source") for a in src]
    d = [normalize_axis(a, x.ndim, "destination") for a in dst]
    if len(set(s)) != len(s) or len(set(d)) != len(d):
        raise ValueError("repeated axis in moveaxis")
    order = [n for n in range(x.ndim) if n not in s]
    for dest, srcax in sorted(zip(d, s, strict=True)):
        order.insert(dest, srcax)
    return permute_dims(x, tuple(order))


def expand_dims(x: NDArray, /, axis: int | tuple[int, ...] = 0) -> NDArray:
    """A view of ``x`` with a new axis of length 1 at each position in ``axis``."""
    x = as_operand(x, "expand_dims")
    axes = (axis,) if not isinstance(axis, (tuple, list)) else tuple(axis)
    nd = x.ndim + len(axes)
    norm = sorted(normalize_axis(a, nd) for a in axes)
    if len(set(norm)) != len(norm):
        raise ValueError(f"repeated axis in {axes}")
    shape = list(x.shape)
    for a in norm:
        shape.insert(a, 1)
    # as NumPy: a reshape, which inserting size-1 axes never makes a copy
    # (and which gives the new axes NumPy's strides)
    return reshape(x, tuple(shape), copy=False)


def squeeze(x: NDArray, /, axis: int | tuple[int, ...] | None = None) -> NDArray:
    """A view of ``x`` without the length-1 axes in ``axis`` (all of them when None); ValueError
    for an axis whose length is not 1."""
    x = as_operand(x, "squeeze")
    if axis is None:
        axes = tuple(i for i, n in enumerate(x.shape) if n == 1)
    else:
        axes = normalize_axes(axis, x.ndim)
        for a in axes:
            if x.shape[a] != 1:
                raise ValueError("cannot select an axis to squeeze out which has size not equal to one")  # NumPy's
    keep = [i for i in range(x.ndim) if i not in axes]
    return x._view(0, tuple(x.shape[i] for i in keep), tuple(x._strides[i] for i in keep))


def flip(x: NDArray, /, axis: int | tuple[int, ...] | None = None) -> NDArray:
    """A view of ``x`` with the order of elements reversed along ``axis`` (all axes when None):
    negative strides, no copy."""
    x = as_operand(x, "flip")
    axes = normalize_axes(axis, x.ndim)
    offset = 0
    strides = list(x._strides)
    for a in axes:
        if x.shape[a] > 0:
            offset += (x.shape[a] - 1) * strides[a]
        strides[a] = -strides[a]
    return x._view(offset, x.shape, tuple(strides))


def reshape(x: NDArray, /, shape: Sequence[Any], order: str = "C", *, copy: bool | None = None) -> NDArray:
    """A view when the strides allow one, else a copy (``copy=False``
    raises ValueError instead; ``copy=True`` always copies).  ``order="F"``
    reads and places the elements in Fortran order (first index fastest),
    ``"A"`` in Fortran order when ``x`` is Fortran-contiguous and not
    C-contiguous, as NumPy's.

    Views and copies, and the strides of the views, are NumPy's
    (``PyArray_Newshape``): the same shape as given gives a plain view, a
    C-contiguous array takes C strides, anything else NumPy's no-copy rule
    (``_attempt_nocopy_reshape``); all of it in csrc/py/views.c.
    """
    x = as_operand(x, "reshape")
    if order != "C":
        return reshape_fortran(x, shape, order, copy)
    out: NDArray = core.ndarray_reshape(x, (shape,), copy)  # C does it all (csrc/py/views.c)
    return out


def reshape_fortran(x: NDArray, shape: Any, order: str, copy: bool | None) -> NDArray:
    """reshape in Fortran order: the C-order reshape of the reversed axes,
    with its axes reversed back (a view whenever that one is)."""
    if order not in ("C", "F", "A"):
        raise ValueError(f"order must be 'C', 'F' or 'A', got {order!r}")
    dims = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
    if order == "A" and not (x.flags.f_contiguous and not x.flags.c_contiguous):
        order = "C"
    if order == "C":
        c: NDArray = core.ndarray_reshape(x, (dims,), copy)
        return c
    out: NDArray = core.ndarray_reshape(x.T, (dims[::-1],), copy)
    return out.T


def ravel(a: Any, order: str = "C") -> NDArray:
    """The elements as a 1-d array: a view when the layout allows, else a
    copy (NumPy's ``ravel``).  ``order``: "C" reads the last index fastest,
    "F" the first, "A" as "F" for a Fortran- but not C-contiguous array,
    "K" in the order of the strides (NumPy: memory order, negative strides
    read forwards)."""
    x = as_operand(a)
    if order == "C":
        return x.ravel()
    if order == "K":
        return x.transpose(tuple(_stride_perm(x._strides))).ravel()
    if order in ("F", "A"):
        return reshape_fortran(x, (-1,), order, None)
    raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")


def transpose(a: Any, axes: Sequence[int] | None = None) -> NDArray:
    """NumPy's ``transpose``: a view with the axes reversed, or permuted as
    ``axes`` says (the standard's :func:`permute_dims` requires them)."""
    x = as_operand(a)
    return x.transpose() if axes is None else x.transpose(tuple(axes))


def fliplr(m: Any) -> NDArray:
    """A view with the columns (axis 1) in reverse order."""
    x = as_operand(m)
    if x.ndim < 2:
        raise ValueError(f"Input must be >= 2-d (fliplr got shape {x.shape}).")
    return flip(x, axis=1)


def flipud(m: Any) -> NDArray:
    """A view with the rows (axis 0) in reverse order."""
    x = as_operand(m)
    if x.ndim < 1:
        raise ValueError("Input must be >= 1-d (flipud got a 0-d array).")
    return flip(x, axis=0)


def rot90(m: Any, k: int = 1, axes: Sequence[int] = (0, 1)) -> NDArray:
    """A view rotated by 90 degrees ``k`` times in the plane of ``axes``,
    from the first axis towards the second (NumPy's ``rot90``)."""
    x = as_operand(m)
    ax = tuple(axes)
    if len(ax) != 2:
        raise ValueError("len(axes) must be 2.")
    a0, a1 = as_int(ax[0], "rot90: axes entry"), as_int(ax[1], "rot90: axes entry")
    if a0 == a1 or abs(a0 - a1) == x.ndim:
        raise ValueError("Axes must be different.")
    if not (-x.ndim <= a0 < x.ndim and -x.ndim <= a1 < x.ndim):
        raise ValueError(f"Axes={ax} out of range for array of ndim={x.ndim}.")
    k = as_int(k, "rot90: k") % 4
    if k == 0:
        return x[...]
    if k == 2:
        return flip(flip(x, axis=a0), axis=a1)
    perm = list(range(x.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return permute_dims(flip(x, axis=a1), tuple(perm))
    return flip(permute_dims(x, tuple(perm)), axis=a1)


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> NDArray:
    """NumPy's ``diagonal``: the diagonal ``offset`` of the 2-d subarrays
    over ``axis1`` and ``axis2``, as a read-only view with the diagonal
    last (``ma.linalg.diagonal`` is the standard's, over the last two
    axes)."""
    x = as_operand(a)
    if x.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    a1, a2 = normalize_axis(axis1, x.ndim, "axis1"), normalize_axis(axis2, x.ndim, "axis2")
    if a1 == a2:
        raise ValueError("axis1 and axis2 cannot be the same")
    k = as_intp(offset, "diagonal: offset")
    n1, n2 = x.shape[a1], x.shape[a2]
    s1, s2 = x._strides[a1], x._strides[a2]
    if k >= 0:
        length, start = max(0, min(n1, n2 - k)), k * s2
    else:
        length, start = max(0, min(n1 + k, n2)), -k * s1
    if length == 0:
        start = 0
    rest = [d for d in range(x.ndim) if d not in (a1, a2)]
    return x._view(start, (*(x.shape[d] for d in rest), length), (*(x._strides[d] for d in rest), s1 + s2),
                   readonly=True)


def fill_diagonal(a: Any, val: Any, wrap: bool = False) -> None:
    """Writes ``val`` on the main diagonal of ``a``, in place (NumPy's
    ``fill_diagonal``): ``a[i, i, ..., i]``, every axis of the same length
    when ``a`` has more than two.  ``val``'s elements are used in order and
    repeated as needed, as NumPy's ``a.flat[::step] = val`` repeats them.
    ``wrap`` (2-d only): a matrix taller than wide gets its diagonal again
    every ``ncols + 1`` rows, NumPy's flat stepping past the last column.
    The diagonal is a strided view of ``a``; the values are read in full
    before it is written, so ``val`` may be a view of ``a``."""
    x = as_operand(a, "fill_diagonal")
    if x.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if x.ndim > 2 and any(n != x.shape[0] for n in x.shape):
        raise ValueError("All dimensions of input must be of equal length")
    nrows, ncols = x.shape[0], x.shape[-1]
    step = sum(x._strides)  # one element further along every axis
    readonly = not x.flags.writeable
    # NumPy's flat stride ncols + 1 wraps in blocks of ncols + 1 rows, each
    # holding a diagonal of ncols elements
    blocks = nrows // (ncols + 1) if wrap and x.ndim == 2 and nrows > ncols else 0
    rest = min(nrows - blocks * (ncols + 1), ncols)
    count = blocks * ncols + rest
    if count == 0:
        return
    v = as_operand(val, "fill_diagonal").reshape((-1,))
    if v.shape[0] == 0:
        return  # NumPy's flat assignment of no values writes nothing
    values = tile(v, (-(-count // v.shape[0]),))[:count].copy()  # a copy: val may alias a
    if blocks:
        head = x._view(0, (blocks, ncols), ((ncols + 1) * x._strides[0], step), readonly=readonly)
        head[...] = values[:blocks * ncols].reshape((blocks, ncols))
    tail = x._view(blocks * (ncols + 1) * x._strides[0], (rest,), (step,), readonly=readonly)
    tail[...] = values[blocks * ncols:]
